//! Quantized matrix multiplication for the GGUF block formats the models
//! use (Q4_1, Q5_0, Q5_1, Q8_0, and the K-quants Q4_K and Q6_K), following
//! ggml's CPU algorithm: activations are quantized once per call to 8-bit
//! blocks (Q8_1 for Q4_1/Q5_1, Q8_0 for Q5_0/Q8_0, Q8_K for the K-quants),
//! then every output is a sum over blocks of `d_w * d_x * (integer block
//! dot)` (+ the minimum terms of the formats that have one).
//!
//! Kernels ([`Kernel`], picked at run time and restricted by
//! `CONTINUITY_CPU`, see [`crate::cpu`]): [`scalar`] is the reference;
//! [`x86`] has AVX2 (`vpmaddubsw`), AVX-VNNI and AVX-512 VNNI (`vpdpbusd`)
//! versions, so a portable build gets them too. Weights are repacked at load
//! into the [`r8`] layout (8 rows interleaved), whose kernels produce 8
//! outputs per vector and compute a tile of 8 rows x up to 4 tokens per pass
//! (prefill as GEMM: each unpacked weight block serves several tokens, each
//! activation load several rows). Work is split into tiles of rows x tokens
//! so both stay in cache.

pub mod r8;
pub mod scalar;
#[cfg(target_arch = "x86_64")]
pub mod x86;

use candle_core::quantized::{GgmlDType, QTensor};
use candle_core::{bail, Result, Tensor};

use crate::cpu::Features;

/// Values per block of the 32-value formats.
pub const QK: usize = 32;
/// Values per super-block of the K-quants.
pub const QK_K: usize = 256;

/// Weight block formats with our own kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Q4_1,
    Q5_0,
    Q5_1,
    Q8_0,
    Q4K,
    Q6K,
}

impl Format {
    pub fn from_ggml(d: GgmlDType) -> Option<Self> {
        match d {
            GgmlDType::Q4_1 => Some(Format::Q4_1),
            GgmlDType::Q5_0 => Some(Format::Q5_0),
            GgmlDType::Q5_1 => Some(Format::Q5_1),
            GgmlDType::Q8_0 => Some(Format::Q8_0),
            GgmlDType::Q4K => Some(Format::Q4K),
            GgmlDType::Q6K => Some(Format::Q6K),
            _ => None,
        }
    }

    /// Bytes per block (ggml's `block_q*` layouts).
    pub const fn block_bytes(self) -> usize {
        match self {
            Format::Q4_1 => 20, // d, m (f16), 16 nibble bytes
            Format::Q5_0 => 22, // d (f16), qh (u32), 16 nibble bytes
            Format::Q5_1 => 24, // d, m (f16), qh (u32), 16 nibble bytes
            Format::Q8_0 => 34, // d (f16), 32 i8
            Format::Q4K => 144, // d, dmin (f16), 12 scale bytes, 128 nibble bytes
            Format::Q6K => 210, // ql 128, qh 64, 16 i8 scales, d (f16)
        }
    }

    /// Values per block.
    pub const fn block_values(self) -> usize {
        if self.is_k() {
            QK_K
        } else {
            QK
        }
    }

    /// Formats with a per-block minimum pair with Q8_1 activations.
    pub const fn has_min(self) -> bool {
        matches!(self, Format::Q4_1 | Format::Q5_1)
    }

    /// K-quants pair with Q8_K activations (super-blocks of 256).
    pub const fn is_k(self) -> bool {
        matches!(self, Format::Q4K | Format::Q6K)
    }
}

pub use crate::cpu::Kernel;

impl Kernel {
    /// The kernel this process runs: this CPU's fastest, or the level
    /// `CONTINUITY_CPU` restricts it to ([`crate::cpu::level`]). Where that
    /// variable names a level this CPU lacks, the CPU's fastest: loading a
    /// model refuses that setting before any kernel runs.
    pub fn best() -> Kernel {
        static BEST: std::sync::OnceLock<Kernel> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| crate::cpu::level().unwrap_or_else(|_| Features::detect().best()))
    }

    /// Whether this CPU can run `self` (whatever `CONTINUITY_CPU` says).
    pub fn supported(self) -> bool {
        Features::detect().supports(self)
    }

    /// `self`, or the scalar kernel where this CPU cannot run it.
    fn or_scalar(self) -> Kernel {
        if self.supported() {
            self
        } else {
            Kernel::Scalar
        }
    }

    fn simd(self) -> bool {
        self != Kernel::Scalar
    }
}

/// How a [`QWeights`] stores its blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// ggml's: row-major, one block after another.
    Ggml,
    /// Groups of 8 rows interleaved for the SIMD kernels ([`r8`]).
    R8,
}

/// Where a matrix's blocks live.
#[derive(Debug, Clone)]
enum Blocks {
    Owned(Vec<u8>),
    /// `len` bytes at `start` of a read-only map shared by a model's
    /// matrices (a prepared-weights file, [`crate::arch::prepared`]).
    Mapped {
        map: std::sync::Arc<memmap2::Mmap>,
        start: usize,
        len: usize,
    },
}

impl std::ops::Deref for Blocks {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Blocks::Owned(v) => v,
            Blocks::Mapped { map, start, len } => &map[*start..*start + *len],
        }
    }
}

/// A quantized weight matrix of `n` rows (outputs) by `k` columns (inputs),
/// stored as ggml blocks, row-major, or repacked ([`Layout`]).
#[derive(Debug, Clone)]
pub struct QWeights {
    format: Format,
    layout: Layout,
    n: usize,
    k: usize,
    data: Blocks,
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

    /// [`Self::from_qtensor`] in the layout this CPU's kernel reads
    /// ([`Self::for_this_cpu`]), repacked straight from `t`'s bytes; `None`
    /// also for a K-quant matrix that kernel cannot take (see
    /// [`Self::runs_here`]).
    pub fn from_qtensor_for_this_cpu(t: &QTensor) -> Result<Option<Self>> {
        let Some(format) = Format::from_ggml(t.dtype()) else {
            return Ok(None);
        };
        let (n, k) = t.shape().dims2()?;
        if !Self::runs_here(format, n) {
            return Ok(None);
        }
        Self::from_ggml_bytes_for_this_cpu(format, n, k, &t.data()?).map(Some)
    }

    /// Whether this process's kernel ([`Kernel::best`]) runs an `n`-row
    /// matrix of `format` well: the K-quants only in the R8 layout (rows a
    /// multiple of 8) or on the scalar level; otherwise candle should.
    pub fn runs_here(format: Format, n: usize) -> bool {
        !format.is_k() || n % r8::GROUP == 0 || !Kernel::best().simd()
    }

    /// `n` rows of `k` columns of ggml blocks, copied once into the layout
    /// this CPU's kernel reads ([`Self::for_this_cpu`]).
    pub fn from_ggml_bytes_for_this_cpu(
        format: Format,
        n: usize,
        k: usize,
        ggml: &[u8],
    ) -> Result<Self> {
        check_len(format, n, k, ggml.len())?;
        let r8 = Kernel::best().simd() && n % r8::GROUP == 0;
        Ok(Self {
            format,
            layout: if r8 { Layout::R8 } else { Layout::Ggml },
            n,
            k,
            data: Blocks::Owned(if r8 {
                r8::repack(format, n, k, ggml)
            } else {
                ggml.to_vec()
            }),
        })
    }

    pub fn from_bytes(format: Format, n: usize, k: usize, data: Vec<u8>) -> Result<Self> {
        check_len(format, n, k, data.len())?;
        Ok(Self {
            format,
            layout: Layout::Ggml,
            n,
            k,
            data: Blocks::Owned(data),
        })
    }

    /// A matrix whose blocks, already in `layout`, are `len` bytes at
    /// `start` of `map` (a prepared-weights file written from
    /// [`Self::bytes`]). Checked like every other constructor: the range
    /// must hold exactly the blocks of `n` x `k`.
    pub fn mapped(
        format: Format,
        layout: Layout,
        (n, k): (usize, usize),
        map: std::sync::Arc<memmap2::Mmap>,
        (start, len): (usize, usize),
    ) -> Result<Self> {
        match layout {
            Layout::Ggml => check_len(format, n, k, len)?,
            Layout::R8 => {
                if n % r8::GROUP != 0 {
                    bail!("R8 layout with {n} rows (not a multiple of {})", r8::GROUP);
                }
                let bv = format.block_values();
                let want = n / r8::GROUP * (k / bv) * r8::group_block_bytes(format);
                if k % bv != 0 || len != want {
                    bail!("{format:?} ({n}, {k}) in the R8 layout needs {want} bytes, got {len}");
                }
            }
        }
        if start.checked_add(len).is_none_or(|end| end > map.len()) {
            bail!(
                "{len} bytes at offset {start} run past the end of the map ({} bytes)",
                map.len()
            );
        }
        Ok(Self {
            format,
            layout,
            n,
            k,
            data: Blocks::Mapped { map, start, len },
        })
    }

    /// The same weights in the R8 layout (lossless); unchanged when `n` is
    /// not a multiple of 8 or already repacked.
    pub fn repacked_r8(self) -> Self {
        if self.layout == Layout::R8 || self.n % r8::GROUP != 0 {
            return self;
        }
        let data = Blocks::Owned(r8::repack(self.format, self.n, self.k, &self.data));
        Self {
            layout: Layout::R8,
            data,
            ..self
        }
    }

    /// The layout this process's kernel reads: R8 on every SIMD level.
    pub fn for_this_cpu(self) -> Self {
        if Kernel::best().simd() {
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

    /// Whether the blocks are read from a mapped file ([`Self::mapped`]).
    pub fn is_mapped(&self) -> bool {
        matches!(self.data, Blocks::Mapped { .. })
    }

    /// The stored blocks (what a matmul reads once per call).
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }

    /// Blocks per row.
    fn nb(&self) -> usize {
        self.k / self.format.block_values()
    }

    /// Bytes of rows `r0..r1` (`r0` a multiple of 8 in the R8 layout).
    fn rows(&self, r0: usize, r1: usize) -> &[u8] {
        let per_row = match self.layout {
            Layout::Ggml => self.nb() * self.format.block_bytes(),
            Layout::R8 => self.nb() * r8::group_block_bytes(self.format) / r8::GROUP,
        };
        &self.data[r0 * per_row..r1 * per_row]
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
        let acts = Acts::quantize(self.format, x, m, self.k, kernel);
        self.matmul_acts(&acts, out, kernel)
    }

    /// `out (m, n)` from activations already quantized for this format
    /// ([`Acts::quantize`] with `self.format()` and `k`).
    pub fn matmul_acts(&self, acts: &Acts, out: &mut [f32], kernel: Kernel) -> Result<()> {
        let (m, nb, is_k) = match acts {
            Acts::Q8(a) => (a.m, a.nb, false),
            Acts::Q8K(a) => (a.m, a.nb, true),
        };
        if is_k != self.format.is_k() || nb != self.nb() || out.len() != m * self.n {
            bail!(
                "quantized matmul: activations ({m} x {nb} blocks, K-quant {is_k}) or output ({}) do not fit {:?} ({}, {})",
                out.len(),
                self.format,
                self.n,
                self.k
            );
        }
        let kernel = kernel.or_scalar();
        let n = self.n;
        let out_ptr = SendPtr(out.as_mut_ptr());
        let tiles = Tiles::new(m, n);
        let run = |range: std::ops::Range<usize>| {
            for i in range {
                let (r0, r1, t0, t1) = tiles.get(i);
                // SAFETY: each tile writes only rows t0..t1, columns r0..r1
                // of `out` (m rows of n), disjoint between tiles.
                unsafe { self.tile(acts, r0, r1, t0..t1, out_ptr.get(), kernel) };
            }
        };
        if m * n * self.k < SERIAL_BELOW {
            run(0..tiles.len());
        } else {
            candle_core::utils::barrier_pool().execute_chunked(tiles.len(), run);
        }
        Ok(())
    }

    /// Outputs of weight rows `r0..r1` for activation rows `tokens`.
    ///
    /// # Safety
    /// `out` points to `m * self.n` floats (`m` the activation rows); no one
    /// else writes those outputs meanwhile.
    unsafe fn tile(
        &self,
        acts: &Acts,
        r0: usize,
        r1: usize,
        tokens: std::ops::Range<usize>,
        out: *mut f32,
        kernel: Kernel,
    ) {
        let w = self.rows(r0, r1);
        let dst = Dst {
            out,
            n: self.n,
            col: r0,
        };
        if self.layout == Layout::R8 {
            #[cfg(target_arch = "x86_64")]
            if kernel.simd() {
                return x86::r8_tile(kernel, self.format, w, acts, tokens, dst);
            }
            // The scalar kernel reads the ggml layout: unpack these rows
            // (tests and reference runs only).
            let ggml = r8::unpack(self.format, self.k, w);
            return scalar::tile(self.format, &ggml, acts, tokens, dst);
        }
        #[cfg(target_arch = "x86_64")]
        if kernel.simd() && !self.format.is_k() {
            return x86::ggml_tile(kernel, self.format, w, acts, tokens, dst);
        }
        scalar::tile(self.format, w, acts, tokens, dst)
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

/// Where a kernel writes: output `(t, col + i)` for its weight row `i` and
/// activation row `t` is at `out[t * n + col + i]`.
#[derive(Clone, Copy)]
pub struct Dst {
    pub out: *mut f32,
    pub n: usize,
    pub col: usize,
}

/// `len` bytes hold an `(n, k)` matrix of `format` blocks.
fn check_len(format: Format, n: usize, k: usize, len: usize) -> Result<()> {
    let bv = format.block_values();
    if k % bv != 0 {
        bail!("quantized matmul: {format:?} needs k a multiple of {bv}, got {k}");
    }
    let want = n * (k / bv) * format.block_bytes();
    if len != want {
        bail!("quantized matmul: {format:?} ({n}, {k}) needs {want} bytes, got {len}");
    }
    Ok(())
}

/// Weight rows per parallel task (a multiple of every kernel's row tile and
/// of the R8 group).
const ROW_CHUNK: usize = 16;
/// Activation rows per parallel task: the task's quantized activations
/// (64 x k bytes) stay in the core's L2 while its weight rows stream by.
const TOKEN_BLOCK: usize = 64;
/// Below this many multiply-adds a matmul runs on the calling thread.
const SERIAL_BELOW: usize = 1 << 16;

/// The parallel tasks of one matmul: tiles of [`ROW_CHUNK`] weight rows x
/// [`TOKEN_BLOCK`] activation rows, numbered token block first, so that
/// consecutive tasks (which one thread takes together) share activations.
struct Tiles {
    m: usize,
    n: usize,
    row_chunks: usize,
    token_blocks: usize,
}

impl Tiles {
    fn new(m: usize, n: usize) -> Self {
        Self {
            m,
            n,
            row_chunks: n.div_ceil(ROW_CHUNK),
            token_blocks: m.div_ceil(TOKEN_BLOCK).max(1),
        }
    }

    fn len(&self) -> usize {
        self.row_chunks * self.token_blocks
    }

    /// Rows `r0..r1`, tokens `t0..t1` of tile `i`.
    fn get(&self, i: usize) -> (usize, usize, usize, usize) {
        let (tb, rc) = (i / self.row_chunks, i % self.row_chunks);
        let r0 = rc * ROW_CHUNK;
        let t0 = tb * TOKEN_BLOCK;
        (
            r0,
            self.n.min(r0 + ROW_CHUNK),
            t0,
            self.m.min(t0 + TOKEN_BLOCK),
        )
    }
}

/// An output pointer shared by parallel tasks that write disjoint parts of
/// it (`matmul_acts`, the KV attention).
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

/// Activations quantized for one weight format.
#[derive(Debug, Clone)]
pub enum Acts {
    /// Blocks of 32 (Q8_0 / Q8_1), for the 32-value formats.
    Q8(QActs),
    /// Super-blocks of 256 (Q8_K), for the K-quants.
    Q8K(QActsK),
}

impl Acts {
    /// `m` rows of `k` values quantized as `format`'s kernels read them.
    pub fn quantize(format: Format, x: &[f32], m: usize, k: usize, kernel: Kernel) -> Self {
        if format.is_k() {
            Acts::Q8K(QActsK::quantize(x, m, k, kernel))
        } else {
            Acts::Q8(QActs::quantize(x, m, k, kernel))
        }
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
        let kernel = kernel.or_scalar();
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
                Kernel::Avx2 | Kernel::AvxVnni | Kernel::Avx512 => {
                    // SAFETY: the CPU has AVX2/FMA/F16C (every SIMD level
                    // needs them, checked above); both slices hold 32 values.
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

/// Activations quantized as ggml's Q8_K: per super-block of 256 values,
/// `x ~= d * q` with `d = -max / 127` for the value of largest magnitude
/// (f32), plus the sums of each 16 and each 32 quants.
#[derive(Debug, Clone, Default)]
pub struct QActsK {
    pub m: usize,
    /// Super-blocks per row.
    pub nb: usize,
    /// `m * nb * 256` quants.
    pub qs: Vec<i8>,
    /// Per super-block scale.
    pub d: Vec<f32>,
    /// Per super-block, the sums of its 16 groups of 16 quants.
    pub bsums: Vec<i16>,
    /// Per super-block, the sums of its 8 groups of 32 quants.
    pub sums32: Vec<i16>,
}

impl QActsK {
    /// Quantize `m` rows of `k` values (`k` a multiple of 256).
    pub fn quantize(x: &[f32], m: usize, k: usize, kernel: Kernel) -> Self {
        let kernel = kernel.or_scalar();
        let nb = k / QK_K;
        let mut a = QActsK {
            m,
            nb,
            qs: vec![0; m * k],
            d: vec![0.0; m * nb],
            bsums: vec![0; m * nb * 16],
            sums32: vec![0; m * nb * 8],
        };
        let blocks = x
            .chunks_exact(QK_K)
            .zip(a.qs.chunks_exact_mut(QK_K))
            .zip(a.d.iter_mut())
            .zip(
                a.bsums
                    .chunks_exact_mut(16)
                    .zip(a.sums32.chunks_exact_mut(8)),
            );
        for (((xb, qb), d), (bsums, sums32)) in blocks {
            *d = match kernel {
                #[cfg(target_arch = "x86_64")]
                Kernel::Avx2 | Kernel::AvxVnni | Kernel::Avx512 => {
                    // SAFETY: the CPU has AVX2 (every SIMD level needs it,
                    // checked above); both slices hold 256 values.
                    unsafe { x86::quantize_block_k(xb, qb) }
                }
                _ => scalar::quantize_block_k(xb, qb),
            };
            for (j, s) in bsums.iter_mut().enumerate() {
                *s = qb[16 * j..16 * j + 16].iter().map(|&q| q as i16).sum();
            }
            for (j, s) in sums32.iter_mut().enumerate() {
                *s = bsums[2 * j] + bsums[2 * j + 1];
            }
        }
        a
    }
}

#[cfg(test)]
pub(crate) mod tests;
