//! Build features versus the CPU at hand.
//!
//! candle's own CPU kernels (K-quant dots, f32 ops) use AVX only when the
//! binary is compiled with those target features; continuity's
//! Q4_1/Q5_0/Q5_1/Q8_0 kernels (`llm::quant`) detect the CPU at run time and
//! need no flags. A portable build (the default) therefore runs K-quant
//! models slower than it could; this check says so at start-up.

/// A warning when the CPU has AVX2/FMA but this binary was compiled without
/// them, naming the flag that fixes it; `None` otherwise.
pub fn check_build_features() -> Option<String> {
    #[cfg(target_arch = "x86_64")]
    {
        let cpu = is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("fma")
            && is_x86_feature_detected!("f16c");
        let built = cfg!(target_feature = "avx2")
            && cfg!(target_feature = "fma")
            && cfg!(target_feature = "f16c");
        if cpu && !built {
            return Some(
                "this binary was built without AVX2/FMA/F16C, which this CPU has: candle's \
                 K-quant and f32 kernels run without SIMD (continuity's Q4_1/Q5_0/Q8_0 kernels \
                 are unaffected). Rebuild with RUSTFLAGS=\"-C target-cpu=native\" for this \
                 machine, or RUSTFLAGS=\"-C target-feature=+avx2,+fma,+f16c\" for any AVX2 CPU."
                    .into(),
            );
        }
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

    #[test]
    fn warning_names_the_flag() {
        if let Some(w) = check_build_features() {
            assert!(w.contains("target-cpu=native"), "{w}");
        }
    }
}
