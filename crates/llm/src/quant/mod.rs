//! Quantized matrix multiplication for the GGUF block formats that candle
//! 0.11 runs in scalar code on x86 (Q4_1, Q5_0, Q5_1) plus Q8_0, following
//! ggml's CPU algorithm: activations are quantized once per call to 8-bit
//! blocks of 32 (Q8_1 for Q4_1/Q5_1, Q8_0 otherwise), then every output is a
//! sum over blocks of `d_w * d_x * (integer block dot)` (+ `m_w * s_x` for the
//! formats with a minimum).
//!
//! Kernels: [`scalar`] is the reference; [`x86`] has AVX2+FMA+F16C and
//! AVX-VNNI versions picked at run time, so a portable build gets them too.
//! The SIMD kernels compute a tile of weight rows x activation rows per pass
//! so each unpacked weight block is reused for several tokens in prefill.
//! On AVX-VNNI CPUs the weights are repacked at load into the [`r8`] layout
//! (8 rows interleaved), whose kernels produce 8 outputs per vector.

pub mod r8;
pub mod scalar;
#[cfg(target_arch = "x86_64")]
pub mod x86;

use candle_core::quantized::{GgmlDType, QTensor};
use candle_core::{bail, Result, Tensor};

/// Values per quantization block (all formats here).
pub const QK: usize = 32;

/// Weight block formats with our own kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Q4_1,
    Q5_0,
    Q5_1,
    Q8_0,
}

impl Format {
    pub fn from_ggml(d: GgmlDType) -> Option<Self> {
        match d {
            GgmlDType::Q4_1 => Some(Format::Q4_1),
            GgmlDType::Q5_0 => Some(Format::Q5_0),
            GgmlDType::Q5_1 => Some(Format::Q5_1),
            GgmlDType::Q8_0 => Some(Format::Q8_0),
            _ => None,
        }
    }

    /// Bytes per block of 32 values (ggml's `block_q*` layouts).
    pub const fn block_bytes(self) -> usize {
        match self {
            Format::Q4_1 => 20, // d, m (f16), 16 nibble bytes
            Format::Q5_0 => 22, // d (f16), qh (u32), 16 nibble bytes
            Format::Q5_1 => 24, // d, m (f16), qh (u32), 16 nibble bytes
            Format::Q8_0 => 34, // d (f16), 32 i8
        }
    }

    /// Formats with a per-block minimum pair with Q8_1 activations.
    pub const fn has_min(self) -> bool {
        matches!(self, Format::Q4_1 | Format::Q5_1)
    }
}

/// Which kernels to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    Scalar,
    /// AVX2 + FMA + F16C.
    Avx2,
    /// AVX2 kernels with AVX-VNNI's `vpdpbusd` for the integer dots.
    AvxVnni,
}

impl Kernel {
    /// The fastest kernel this CPU supports (checked at run time).
    pub fn best() -> Kernel {
        static BEST: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| {
            #[cfg(target_arch = "x86_64")]
            {
                let avx2 = is_x86_feature_detected!("avx2")
                    && is_x86_feature_detected!("fma")
                    && is_x86_feature_detected!("f16c");
                if avx2 && is_x86_feature_detected!("avxvnni") {
                    return Kernel::AvxVnni;
                }
                if avx2 {
                    return Kernel::Avx2;
                }
            }
            Kernel::Scalar
        })
    }

    /// Whether this CPU can run `self`.
    pub fn supported(self) -> bool {
        matches!(
            (self, Kernel::best()),
            (Kernel::Scalar, _)
                | (Kernel::Avx2, Kernel::Avx2 | Kernel::AvxVnni)
                | (Kernel::AvxVnni, Kernel::AvxVnni)
        )
    }
}

/// How a [`QWeights`] stores its blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// ggml's: row-major, one block after another.
    Ggml,
    /// Groups of 8 rows interleaved for the AVX-VNNI kernels ([`r8`]).
    R8,
}

/// A quantized weight matrix of `n` rows (outputs) by `k` columns (inputs),
/// stored as ggml blocks, row-major, or repacked ([`Layout`]).
#[derive(Debug, Clone)]
pub struct QWeights {
    format: Format,
    layout: Layout,
    n: usize,
    k: usize,
    data: Vec<u8>,
}

impl QWeights {
    /// Our copy of `t`'s blocks, or `None` when its type has no kernel here.
    /// `t` has shape `(n, k)` as GGUF matrices are stored (`y = x W^T`).
    pub fn from_qtensor(t: &QTensor) -> Result<Option<Self>> {
        let Some(format) = Format::from_ggml(t.dtype()) else {
            return Ok(None);
        };
        let (n, k) = t.shape().dims2()?;
        Self::from_bytes(format, n, k, t.data()?.into_owned()).map(Some)
    }

    /// [`Self::from_qtensor`] in the layout this CPU's fastest kernel reads
    /// ([`Self::for_this_cpu`]), repacked straight from `t`'s bytes.
    pub fn from_qtensor_for_this_cpu(t: &QTensor) -> Result<Option<Self>> {
        let Some(format) = Format::from_ggml(t.dtype()) else {
            return Ok(None);
        };
        let (n, k) = t.shape().dims2()?;
        Self::from_ggml_bytes_for_this_cpu(format, n, k, &t.data()?).map(Some)
    }

    /// `n` rows of `k` columns of ggml blocks, copied once into the layout
    /// this CPU's fastest kernel reads ([`Self::for_this_cpu`]).
    pub fn from_ggml_bytes_for_this_cpu(
        format: Format,
        n: usize,
        k: usize,
        ggml: &[u8],
    ) -> Result<Self> {
        check_len(format, n, k, ggml.len())?;
        let r8 = Kernel::best() == Kernel::AvxVnni && n % r8::GROUP == 0;
        Ok(Self {
            format,
            layout: if r8 { Layout::R8 } else { Layout::Ggml },
            n,
            k,
            data: if r8 {
                r8::repack(format, n, k, ggml)
            } else {
                ggml.to_vec()
            },
        })
    }

    pub fn from_bytes(format: Format, n: usize, k: usize, data: Vec<u8>) -> Result<Self> {
        check_len(format, n, k, data.len())?;
        Ok(Self {
            format,
            layout: Layout::Ggml,
            n,
            k,
            data,
        })
    }

    /// The same weights in the R8 layout (lossless); unchanged when `n` is
    /// not a multiple of 8 or already repacked.
    pub fn repacked_r8(self) -> Self {
        if self.layout == Layout::R8 || self.n % r8::GROUP != 0 {
            return self;
        }
        let data = r8::repack(self.format, self.n, self.k, &self.data);
        Self {
            layout: Layout::R8,
            data,
            ..self
        }
    }

    /// The layout the fastest kernel on this CPU reads: R8 with AVX-VNNI.
    pub fn for_this_cpu(self) -> Self {
        if Kernel::best() == Kernel::AvxVnni {
            self.repacked_r8()
        } else {
            self
        }
    }

    pub fn layout(&self) -> Layout {
        self.layout
    }

    pub fn format(&self) -> Format {
        self.format
    }

    /// `(n, k)`.
    pub fn dims(&self) -> (usize, usize) {
        (self.n, self.k)
    }

    fn row_bytes(&self) -> usize {
        (self.k / QK) * self.format.block_bytes()
    }

    /// `out (m, n) = x (m, k) W^T` with the given kernel (falls back to the
    /// scalar one when the CPU lacks it).
    pub fn matmul_f32(&self, x: &[f32], m: usize, out: &mut [f32], kernel: Kernel) -> Result<()> {
        if x.len() != m * self.k || out.len() != m * self.n {
            bail!(
                "quantized matmul: x has {} values, out {}, for m {m} k {} n {}",
                x.len(),
                out.len(),
                self.k,
                self.n
            );
        }
        let kernel = if kernel.supported() {
            kernel
        } else {
            Kernel::Scalar
        };
        let acts = QActs::quantize(x, m, self.k, kernel);
        self.matmul_q(&acts, out, kernel);
        Ok(())
    }

    /// `out (m, n)` from already quantized activations (`acts.k == self.k`).
    pub fn matmul_q(&self, acts: &QActs, out: &mut [f32], kernel: Kernel) {
        assert_eq!(acts.nb * QK, self.k, "activations do not match k");
        assert_eq!(out.len(), acts.m * self.n, "output size");
        let kernel = if kernel.supported() {
            kernel
        } else {
            Kernel::Scalar
        };
        let (m, n) = (acts.m, self.n);
        // Tasks are chunks of ROW_CHUNK weight rows against all activation
        // rows: the chunk's blocks stay in cache while the tokens stream by.
        let chunks = n.div_ceil(ROW_CHUNK);
        let out_ptr = SendPtr(out.as_mut_ptr());
        let run = |range: std::ops::Range<usize>| {
            for ch in range {
                let r0 = ch * ROW_CHUNK;
                let r1 = n.min(r0 + ROW_CHUNK);
                // SAFETY: each chunk writes only columns r0..r1 of `out`
                // (rows of length n, m of them), disjoint between chunks.
                unsafe { self.chunk(acts, r0, r1, out_ptr.get(), kernel) };
            }
        };
        if m * n * self.k < SERIAL_BELOW {
            run(0..chunks);
        } else {
            candle_core::utils::barrier_pool().execute_chunked(chunks, run);
        }
    }

    /// Outputs of weight rows `r0..r1` for every activation row.
    ///
    /// # Safety
    /// `out` points to `acts.m * self.n` floats; no one else writes columns
    /// `r0..r1` meanwhile.
    unsafe fn chunk(&self, acts: &QActs, r0: usize, r1: usize, out: *mut f32, kernel: Kernel) {
        let rb = self.row_bytes();
        let w = &self.data[r0 * rb..r1 * rb];
        if self.layout == Layout::R8 {
            #[cfg(target_arch = "x86_64")]
            if kernel == Kernel::AvxVnni {
                return x86::vnni_r8::chunk(self.format, w, acts, r0, self.n, out);
            }
            // Other kernels read the ggml layout: unpack these rows (tests
            // and reference runs only).
            let ggml = r8::unpack(self.format, self.k, w);
            return scalar::chunk(self.format, &ggml, rb, acts, r0, self.n, out);
        }
        match kernel {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => x86::avx2::chunk(self.format, w, rb, acts, r0, self.n, out),
            #[cfg(target_arch = "x86_64")]
            Kernel::AvxVnni => x86::vnni::chunk(self.format, w, rb, acts, r0, self.n, out),
            _ => scalar::chunk(self.format, w, rb, acts, r0, self.n, out),
        }
    }

    /// `x (.., k) -> (.., n)` on CPU f32 tensors.
    pub fn forward(&self, x: &Tensor, kernel: Kernel) -> Result<Tensor> {
        let dims = x.dims();
        let Some((&k, lead)) = dims.split_last() else {
            bail!("quantized matmul: scalar input");
        };
        if k != self.k {
            bail!(
                "quantized matmul: input {:?} does not end in k = {}",
                dims,
                self.k
            );
        }
        let m: usize = lead.iter().product();
        let xs = x.flatten_all()?.to_vec1::<f32>()?;
        let mut out = vec![0f32; m * self.n];
        self.matmul_f32(&xs, m, &mut out, kernel)?;
        let mut shape = lead.to_vec();
        shape.push(self.n);
        Tensor::from_vec(out, shape, x.device())
    }
}

/// `len` bytes hold an `(n, k)` matrix of `format` blocks.
fn check_len(format: Format, n: usize, k: usize, len: usize) -> Result<()> {
    if k % QK != 0 {
        bail!("quantized matmul: k = {k} is not a multiple of {QK}");
    }
    let want = n * (k / QK) * format.block_bytes();
    if len != want {
        bail!("quantized matmul: {format:?} ({n}, {k}) needs {want} bytes, got {len}");
    }
    Ok(())
}

/// Weight rows per parallel task (a multiple of every kernel's row tile and
/// of the R8 group).
const ROW_CHUNK: usize = 16;
/// Below this many multiply-adds a matmul runs on the calling thread.
const SERIAL_BELOW: usize = 1 << 16;

/// An output pointer shared by parallel tasks that write disjoint parts of
/// it (`matmul_q`, the KV attention).
#[derive(Clone, Copy)]
pub(crate) struct SendPtr(pub(crate) *mut f32);
// SAFETY: only used for disjoint writes, which each user documents.
unsafe impl Send for SendPtr {}
unsafe impl Sync for SendPtr {}
impl SendPtr {
    pub(crate) fn get(self) -> *mut f32 {
        self.0
    }
}

/// Activations quantized to 8 bits in blocks of 32, as ggml's Q8_0/Q8_1:
/// `x ~= d * q`, `d = max|x| / 127` (rounded to f16), plus the block sums.
#[derive(Debug, Clone, Default)]
pub struct QActs {
    pub m: usize,
    /// Blocks per row.
    pub nb: usize,
    /// `m * nb * 32` quants.
    pub qs: Vec<i8>,
    /// Per block scale, f16-rounded.
    pub d: Vec<f32>,
    /// Per block `d * sum(q)` rounded to f16 (Q8_1's `s`).
    pub s: Vec<f32>,
    /// Per block `sum(q)`, exact.
    pub isum: Vec<i32>,
}

impl QActs {
    /// Quantize `m` rows of `k` values (`k` a multiple of 32).
    pub fn quantize(x: &[f32], m: usize, k: usize, kernel: Kernel) -> Self {
        let kernel = if kernel.supported() {
            kernel
        } else {
            Kernel::Scalar
        };
        let nb = k / QK;
        let mut a = QActs {
            m,
            nb,
            qs: vec![0; m * k],
            d: vec![0.0; m * nb],
            s: vec![0.0; m * nb],
            isum: vec![0; m * nb],
        };
        let blocks = x
            .chunks_exact(QK)
            .zip(a.qs.chunks_exact_mut(QK))
            .zip(a.d.iter_mut().zip(a.s.iter_mut()).zip(a.isum.iter_mut()));
        for ((xb, qb), ((d, s), isum)) in blocks {
            let (df, sum) = match kernel {
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx2 | Kernel::AvxVnni => {
                    // SAFETY: the CPU has AVX2/FMA/F16C (checked above); both
                    // slices hold 32 values.
                    unsafe { x86::quantize_block(xb, qb) }
                }
                _ => scalar::quantize_block(xb, qb),
            };
            *d = half::f16::from_f32(df).to_f32();
            *s = half::f16::from_f32(df * sum as f32).to_f32();
            *isum = sum;
        }
        a
    }
}

#[cfg(test)]
pub(crate) mod tests;
