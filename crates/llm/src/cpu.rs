//! The CPU at hand: which kernel level runs, and build features against it.
//!
//! continuity's quantized kernels (`llm::quant`) and its attention detect
//! the CPU at run time and take the fastest level it has. The environment
//! variable `CONTINUITY_CPU=scalar|avx2|vnni|avx512` restricts them to one
//! level (to measure and compare the AVX2 path on any machine); a level the
//! CPU lacks is refused with [`CpuError`] when a model loads, never run.
//!
//! candle's own CPU kernels (f32 ops; K-quant dots on models our kernels do
//! not cover, such as LFM2) use AVX only when the binary is compiled with
//! those target features; a portable build (the default) runs them slower
//! than it could, and [`check_build_features`] says so at start-up.

/// Which quantized kernels ([`crate::quant`]) run: one per instruction-set
/// level (`CONTINUITY_CPU` names them `scalar`, `avx2`, `vnni`, `avx512`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    Scalar,
    /// AVX2 + FMA + F16C (`vpmaddubsw` integer dots).
    Avx2,
    /// AVX2 kernels with AVX-VNNI's `vpdpbusd` for the integer dots.
    AvxVnni,
    /// The same with AVX-512 VNNI's (EVEX-encoded) `vpdpbusd`, for CPUs
    /// that have AVX-512 VNNI but not AVX-VNNI.
    Avx512,
}

/// The environment variable that restricts the kernel level.
pub const ENV: &str = "CONTINUITY_CPU";

/// The levels `CONTINUITY_CPU` accepts, lowest first.
pub const LEVELS: [Kernel; 4] = [
    Kernel::Scalar,
    Kernel::Avx2,
    Kernel::AvxVnni,
    Kernel::Avx512,
];

/// A kernel level that cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CpuError {
    #[error("{ENV}={value}: unknown level (expected scalar, avx2, vnni or avx512)")]
    Unknown { value: String },
    #[error("{ENV}={level}: this CPU lacks {missing} (levels it supports: {supported})")]
    Unsupported {
        level: &'static str,
        missing: String,
        supported: String,
    },
}

/// The instruction-set extensions the kernels use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Features {
    pub avx2: bool,
    pub fma: bool,
    pub f16c: bool,
    /// AVX-VNNI (VEX-encoded `vpdpbusd`).
    pub avxvnni: bool,
    pub avx512f: bool,
    pub avx512bw: bool,
    pub avx512vl: bool,
    pub avx512vnni: bool,
}

impl Features {
    /// This CPU's (checked once).
    pub fn detect() -> Features {
        static F: std::sync::OnceLock<Features> = std::sync::OnceLock::new();
        *F.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                Features {
                    avx2: is_x86_feature_detected!("avx2"),
                    fma: is_x86_feature_detected!("fma"),
                    f16c: is_x86_feature_detected!("f16c"),
                    avxvnni: is_x86_feature_detected!("avxvnni"),
                    avx512f: is_x86_feature_detected!("avx512f"),
                    avx512bw: is_x86_feature_detected!("avx512bw"),
                    avx512vl: is_x86_feature_detected!("avx512vl"),
                    avx512vnni: is_x86_feature_detected!("avx512vnni"),
                }
            }
            #[cfg(not(target_arch = "x86_64"))]
            Features::default()
        })
    }

    /// The extensions `level` needs that these features lack (empty: it runs).
    pub fn missing(&self, level: Kernel) -> Vec<&'static str> {
        let x86 = cfg!(target_arch = "x86_64");
        let base = [
            ("x86-64", x86),
            ("AVX2", self.avx2),
            ("FMA", self.fma),
            ("F16C", self.f16c),
        ];
        let need: &[(&'static str, bool)] = match level {
            Kernel::Scalar => &[],
            Kernel::Avx2 => &base,
            Kernel::AvxVnni => &[
                base[0],
                base[1],
                base[2],
                base[3],
                ("AVX-VNNI", self.avxvnni),
            ],
            Kernel::Avx512 => &[
                base[0],
                base[1],
                base[2],
                base[3],
                ("AVX-512F", self.avx512f),
                ("AVX-512BW", self.avx512bw),
                ("AVX-512VL", self.avx512vl),
                ("AVX-512 VNNI", self.avx512vnni),
            ],
        };
        need.iter()
            .filter(|(_, has)| !has)
            .map(|(n, _)| *n)
            .collect()
    }

    pub fn supports(&self, level: Kernel) -> bool {
        self.missing(level).is_empty()
    }

    /// The level used when nothing restricts it: AVX-VNNI where present
    /// (its kernels are the AVX-512 level's on 256-bit VEX instructions),
    /// then AVX-512 VNNI (CPUs with it but without AVX-VNNI: Ice Lake,
    /// Zen 4), then AVX2, then scalar.
    pub fn best(&self) -> Kernel {
        [Kernel::AvxVnni, Kernel::Avx512, Kernel::Avx2]
            .into_iter()
            .find(|&k| self.supports(k))
            .unwrap_or(Kernel::Scalar)
    }
}

/// `CONTINUITY_CPU`'s name for a level.
pub fn level_name(level: Kernel) -> &'static str {
    match level {
        Kernel::Scalar => "scalar",
        Kernel::Avx2 => "avx2",
        Kernel::AvxVnni => "vnni",
        Kernel::Avx512 => "avx512",
    }
}

/// A level by its `CONTINUITY_CPU` name (case and surrounding blanks
/// ignored).
pub fn parse_level(value: &str) -> Result<Kernel, CpuError> {
    let v = value.trim().to_ascii_lowercase();
    LEVELS
        .into_iter()
        .find(|&l| level_name(l) == v)
        .ok_or_else(|| CpuError::Unknown {
            value: value.to_string(),
        })
}

/// The level to run given `CONTINUITY_CPU`'s value (`None` or blank: the
/// best `cpu` supports) on a CPU with `cpu`'s features.
pub fn select(value: Option<&str>, cpu: &Features) -> Result<Kernel, CpuError> {
    let Some(value) = value.filter(|v| !v.trim().is_empty()) else {
        return Ok(cpu.best());
    };
    let level = parse_level(value)?;
    let missing = cpu.missing(level);
    if missing.is_empty() {
        return Ok(level);
    }
    let supported: Vec<&str> = LEVELS
        .into_iter()
        .filter(|&l| cpu.supports(l))
        .map(level_name)
        .collect();
    Err(CpuError::Unsupported {
        level: level_name(level),
        missing: missing.join(", "),
        supported: supported.join(", "),
    })
}

/// The level this process runs: [`select`] on `CONTINUITY_CPU` and this
/// CPU, read once.
pub fn level() -> Result<Kernel, CpuError> {
    static LEVEL: std::sync::OnceLock<Result<Kernel, CpuError>> = std::sync::OnceLock::new();
    LEVEL
        .get_or_init(|| {
            let value = std::env::var(ENV).ok();
            select(value.as_deref(), &Features::detect())
        })
        .clone()
}

/// A warning when the CPU has AVX2/FMA but this binary was compiled without
/// them, naming the flag that fixes it; `None` otherwise.
pub fn check_build_features() -> Option<String> {
    let f = Features::detect();
    let cpu = f.avx2 && f.fma && f.f16c;
    let built = cfg!(target_feature = "avx2")
        && cfg!(target_feature = "fma")
        && cfg!(target_feature = "f16c");
    if cpu && !built {
        return Some(
            "this binary was built without AVX2/FMA/F16C, which this CPU has: candle's \
             f32 kernels run without SIMD (continuity's quantized kernels and attention \
             are unaffected). Rebuild with RUSTFLAGS=\"-C target-cpu=native\" for this \
             machine, or RUSTFLAGS=\"-C target-cpu=x86-64-v3\" for any AVX2 CPU."
                .into(),
        );
    }
    None
}

/// Print [`check_build_features`]'s warning to stderr, once per process.
pub fn warn_build_features_once() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if let Some(w) = check_build_features() {
            eprintln!("warning: {w}");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const AVX2_ONLY: Features = Features {
        avx2: true,
        fma: true,
        f16c: true,
        avxvnni: false,
        avx512f: false,
        avx512bw: false,
        avx512vl: false,
        avx512vnni: false,
    };

    #[test]
    fn warning_names_the_flag() {
        if let Some(w) = check_build_features() {
            assert!(w.contains("target-cpu=native"), "{w}");
        }
    }

    #[test]
    fn levels_parse_by_name() {
        for l in LEVELS {
            assert_eq!(parse_level(level_name(l)), Ok(l));
        }
        assert_eq!(parse_level(" AVX2 "), Ok(Kernel::Avx2));
        assert_eq!(parse_level("Vnni"), Ok(Kernel::AvxVnni));
        for bad in ["", "sse4", "avx-2", "native", "avx512vnni"] {
            let err = parse_level(bad).unwrap_err();
            assert_eq!(err, CpuError::Unknown { value: bad.into() });
            assert!(err.to_string().contains("CONTINUITY_CPU"), "{err}");
        }
    }

    #[test]
    fn unset_or_blank_takes_the_best_level() {
        assert_eq!(select(None, &AVX2_ONLY), Ok(Kernel::Avx2));
        assert_eq!(select(Some("  "), &AVX2_ONLY), Ok(Kernel::Avx2));
        assert_eq!(select(None, &Features::default()), Ok(Kernel::Scalar));
        let avx512_only = Features {
            avx512f: true,
            avx512bw: true,
            avx512vl: true,
            avx512vnni: true,
            ..AVX2_ONLY
        };
        assert_eq!(select(None, &avx512_only), Ok(Kernel::Avx512));
        let both = Features {
            avxvnni: true,
            ..avx512_only
        };
        assert_eq!(select(None, &both), Ok(Kernel::AvxVnni));
        assert_eq!(select(Some("avx512"), &both), Ok(Kernel::Avx512));
    }

    #[test]
    fn a_level_the_cpu_lacks_is_refused() {
        assert_eq!(select(Some("avx2"), &AVX2_ONLY), Ok(Kernel::Avx2));
        assert_eq!(select(Some("scalar"), &AVX2_ONLY), Ok(Kernel::Scalar));
        let err = select(Some("avx512"), &AVX2_ONLY).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("CONTINUITY_CPU=avx512") && msg.contains("AVX-512F"),
            "{msg}"
        );
        assert!(msg.contains("scalar, avx2"), "{msg}");
        let err = select(Some("vnni"), &AVX2_ONLY).unwrap_err();
        assert_eq!(
            err,
            CpuError::Unsupported {
                level: "vnni",
                missing: "AVX-VNNI".into(),
                supported: "scalar, avx2".into(),
            }
        );
        // Without AVX2 only scalar runs.
        let err = select(Some("avx2"), &Features::default()).unwrap_err();
        assert!(err.to_string().contains("AVX2, FMA, F16C"), "{err}");
        assert!(err.to_string().ends_with("supports: scalar)"), "{err}");
    }

    #[test]
    fn this_cpu_runs_its_best_level() {
        let f = Features::detect();
        assert!(f.supports(f.best()));
        assert!(f.supports(Kernel::Scalar));
    }
}
