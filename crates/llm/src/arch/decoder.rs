//! A quantized decoder-only transformer for the `llama`, `qwen2` and `gemma3`
//! GGUF architectures, written to match llama.cpp's CPU graph.
//!
//! Differences from candle-transformers 0.11.1 that matter here:
//! * positions are limited only by the GGUF `context_length` (SmolLM2: 8,192);
//!   rotary tables are computed per call for the positions in use, the way
//!   ggml's rope cache does it (`theta *= theta_scale` in f32);
//! * the KV cache is f16 by default, as llama.cpp's, with its own attention
//!   ([`super::kv`]); the f32 reference cache is preallocated (grown
//!   geometrically) and written in place with `slice_set`, and its
//!   grouped-query attention reshapes the queries into
//!   `(n_kv_head, group * len, head_dim)` instead of copying K/V per head;
//! * Gemma 3: GELU (tanh) feed-forward, queries scaled before the product,
//!   sliding-window layers attend to the last `sliding_window` positions
//!   (llama.cpp: masked when `q_pos - k_pos >= window`) in prefill *and*
//!   decode, and the causal mask accounts for cached positions, so prefill can
//!   run in chunks;
//! * RMSNorm accumulates the sum of squares in f64 as ggml does;
//! * Q4_1/Q5_0/Q5_1/Q8_0 matrices run on our kernels (`llm::quant`, ggml's
//!   algorithm with SIMD; repacked to the R8 layout on AVX-VNNI CPUs), other
//!   types on candle's `QMatMul` ([`Linear`]).

use std::io::{Read, Seek};
use std::sync::Arc;

use candle_core::quantized::{gguf_file, GgmlDType, QMatMul, QTensor};
use candle_core::{bail, DType, Device, Module, Result, Tensor};

use super::kv::KvCacheF16;
use super::tensors::{Matrix, TensorReader};
use crate::quant::{Kernel, QWeights};

/// The GGUF architectures this decoder implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arch {
    Llama,
    Qwen2,
    Gemma3,
}

impl Arch {
    pub fn from_gguf(name: &str) -> Option<Self> {
        match name {
            "llama" => Some(Arch::Llama),
            "qwen2" => Some(Arch::Qwen2),
            "gemma3" => Some(Arch::Gemma3),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Arch::Llama => "llama",
            Arch::Qwen2 => "qwen2",
            Arch::Gemma3 => "gemma3",
        }
    }
}

/// Hyper-parameters read from GGUF metadata.
#[derive(Debug, Clone)]
pub struct DecoderConfig {
    pub arch: Arch,
    pub n_layer: usize,
    pub n_head: usize,
    pub n_kv_head: usize,
    pub head_dim: usize,
    pub n_embd: usize,
    pub context_length: usize,
    pub rms_eps: f32,
    pub rope_base: f32,
    /// Rope base of sliding-window layers (Gemma 3).
    pub rope_base_swa: f32,
    /// NeoX-style rotation (halves) rather than interleaved pairs.
    pub rope_neox: bool,
    pub sliding_window: Option<usize>,
    /// Every `swa_pattern`-th layer is global; the others slide (Gemma 3).
    pub swa_pattern: usize,
    /// Attention scale, `1/sqrt(head_dim)`.
    pub attn_scale: f32,
}

/// Options applied while loading weights.
#[derive(Debug, Clone, Copy, Default)]
pub struct LoadOptions {
    /// Re-quantize Q4_1/Q5_0/Q5_1 matrices to Q8_0 at load: candle has SIMD
    /// kernels for Q8_0 but runs those formats in scalar code. Costs exact
    /// agreement with llama.cpp (the weights change slightly).
    pub requantize_q8: bool,
    /// Which matmul implementation runs the quantized weights.
    pub matmul: MatmulImpl,
    /// Element type of the KV cache.
    pub kv: KvDtype,
}

/// Element type of the KV cache.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum KvDtype {
    /// llama.cpp's default: half the memory and the bytes read per decode
    /// step; decode attention reads it directly ([`super::kv`]).
    #[default]
    F16,
    /// The reference path: f32 rows, candle ops for all attention.
    F32,
}

/// Matmul implementation for quantized weight matrices.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MatmulImpl {
    /// Our kernels for the formats `llm::quant` has, candle for the rest.
    #[default]
    Ours,
    /// candle's `QMatMul` for everything (the reference path).
    Candle,
}

/// A weight matrix applied as `x W^T`.
#[derive(Debug, Clone)]
enum Linear {
    Ours(Arc<QWeights>),
    /// `two_rows`: run one-row inputs as two (see [`Linear::new`]).
    Candle {
        matmul: QMatMul,
        two_rows: bool,
    },
}

impl Linear {
    fn new(t: Arc<QTensor>, opts: LoadOptions) -> Result<Self> {
        if opts.matmul == MatmulImpl::Ours {
            if let Some(w) = QWeights::from_qtensor_for_this_cpu(&t)? {
                return Ok(Linear::Ours(Arc::new(w)));
            }
        }
        Self::candle(t)
    }

    fn candle(t: Arc<QTensor>) -> Result<Self> {
        // candle runs Q6_K through its repacked SIMD tiles for two rows or
        // more, and through a GEMV (scalar unless built for the CPU) for one.
        // Always taking the tiles keeps a decode step bit-identical to the
        // same row of a multi-row pass, which speculative decoding relies on.
        let two_rows = t.dtype() == GgmlDType::Q6K;
        Ok(Linear::Candle {
            matmul: QMatMul::from_arc(t)?,
            two_rows,
        })
    }

    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        match self {
            Linear::Ours(w) => w.forward(x, Kernel::best()),
            Linear::Candle { matmul, two_rows } => {
                if *two_rows && x.dims().first() == Some(&1) {
                    let pair = Tensor::cat(&[x, x], 0)?;
                    matmul.forward(&pair)?.narrow(0, 0, 1)
                } else {
                    matmul.forward(x)
                }
            }
        }
    }
}

fn md<'a>(ct: &'a gguf_file::Content, key: &str) -> Option<&'a gguf_file::Value> {
    ct.metadata.get(key)
}

pub(crate) fn md_usize(ct: &gguf_file::Content, key: &str) -> Result<Option<usize>> {
    use gguf_file::Value as V;
    Ok(match md(ct, key) {
        None => None,
        Some(V::U8(x)) => Some(*x as usize),
        Some(V::U16(x)) => Some(*x as usize),
        Some(V::U32(x)) => Some(*x as usize),
        Some(V::U64(x)) => Some(*x as usize),
        Some(V::I8(x)) if *x >= 0 => Some(*x as usize),
        Some(V::I16(x)) if *x >= 0 => Some(*x as usize),
        Some(V::I32(x)) if *x >= 0 => Some(*x as usize),
        Some(V::I64(x)) if *x >= 0 => Some(*x as usize),
        Some(other) => bail!("metadata {key}: expected an unsigned integer, got {other:?}"),
    })
}

fn md_f32(ct: &gguf_file::Content, key: &str) -> Result<Option<f32>> {
    use gguf_file::Value as V;
    Ok(match md(ct, key) {
        None => None,
        Some(V::F32(x)) => Some(*x),
        Some(V::F64(x)) => Some(*x as f32),
        Some(other) => bail!("metadata {key}: expected a float, got {other:?}"),
    })
}

fn need<T>(v: Option<T>, key: &str) -> Result<T> {
    match v {
        Some(v) => Ok(v),
        None => bail!("missing GGUF metadata {key}"),
    }
}

impl DecoderConfig {
    pub fn from_gguf(ct: &gguf_file::Content, arch: Arch) -> Result<Self> {
        let p = arch.name();
        let k = |s: &str| format!("{p}.{s}");
        let n_head = need(md_usize(ct, &k("attention.head_count"))?, "head_count")?;
        let n_kv_head = md_usize(ct, &k("attention.head_count_kv"))?.unwrap_or(n_head);
        let n_embd = need(md_usize(ct, &k("embedding_length"))?, "embedding_length")?;
        let n_layer = need(md_usize(ct, &k("block_count"))?, "block_count")?;
        let head_dim = md_usize(ct, &k("attention.key_length"))?.unwrap_or(n_embd / n_head);
        if let Some(vl) = md_usize(ct, &k("attention.value_length"))? {
            if vl != head_dim {
                bail!("value_length {vl} != key_length {head_dim} is not supported");
            }
        }
        if let Some(rd) = md_usize(ct, &k("rope.dimension_count"))? {
            if rd != head_dim {
                bail!("partial rotary embeddings (rope dim {rd}, head dim {head_dim}) are not supported");
            }
        }
        if n_head % n_kv_head != 0 {
            bail!("head_count {n_head} is not a multiple of head_count_kv {n_kv_head}");
        }
        let context_length = md_usize(ct, &k("context_length"))?.unwrap_or(4096);
        let rms_eps = need(
            md_f32(ct, &k("attention.layer_norm_rms_epsilon"))?,
            "layer_norm_rms_epsilon",
        )?;
        let (default_base, rope_neox) = match arch {
            Arch::Llama => (10_000.0, false),
            Arch::Qwen2 => (10_000.0, true),
            Arch::Gemma3 => (1_000_000.0, true),
        };
        let rope_base = md_f32(ct, &k("rope.freq_base"))?.unwrap_or(default_base);
        if let Some(f) = md_f32(ct, &k("rope.scaling.factor"))? {
            if f != 1.0 {
                bail!("rope scaling (factor {f}) is not supported");
            }
        }
        let (sliding_window, swa_pattern, rope_base_swa) = match arch {
            Arch::Gemma3 => (
                md_usize(ct, &k("attention.sliding_window"))?,
                6,
                // llama.cpp hard-codes 10,000 for Gemma 3's local layers.
                md_f32(ct, &k("rope.local_freq_base"))?.unwrap_or(10_000.0),
            ),
            _ => (None, 1, rope_base),
        };
        Ok(Self {
            arch,
            n_layer,
            n_head,
            n_kv_head,
            head_dim,
            n_embd,
            context_length,
            rms_eps,
            rope_base,
            rope_base_swa,
            rope_neox,
            sliding_window,
            swa_pattern,
            attn_scale: 1.0 / (head_dim as f32).sqrt(),
        })
    }

    fn is_sliding(&self, layer: usize) -> bool {
        self.sliding_window.is_some() && (layer + 1) % self.swa_pattern != 0
    }
}

/// RMSNorm as ggml computes it: f64 sum of f32 squares, then `x * scale * w`.
#[derive(Debug, Clone)]
struct RmsNorm {
    weight: Vec<f32>,
    eps: f32,
}

impl RmsNorm {
    fn load<R: Read + Seek>(r: &mut TensorReader<R>, name: &str, eps: f32) -> Result<Self> {
        let t = r.qtensor(name)?.dequantize(&Device::Cpu)?;
        Ok(Self {
            weight: t.flatten_all()?.to_vec1::<f32>()?,
            eps,
        })
    }

    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let d = self.weight.len();
        let shape = x.shape().clone();
        let data = x.flatten_all()?.to_vec1::<f32>()?;
        if data.len() % d != 0 {
            bail!("rms_norm: last dim of {shape:?} is not {d}");
        }
        let mut out = vec![0f32; data.len()];
        for (row, o) in data.chunks_exact(d).zip(out.chunks_exact_mut(d)) {
            let sum: f64 = row.iter().map(|&v| (v * v) as f64).sum();
            let mean = (sum / d as f64) as f32;
            let scale = 1.0f32 / (mean + self.eps).sqrt();
            for ((o, &x), &w) in o.iter_mut().zip(row).zip(&self.weight) {
                *o = (x * scale) * w;
            }
        }
        Tensor::from_vec(out, shape, x.device())
    }
}

fn load_matmul<R: Read + Seek>(
    r: &mut TensorReader<R>,
    name: &str,
    opts: LoadOptions,
) -> Result<Linear> {
    if opts.matmul == MatmulImpl::Ours && !opts.requantize_q8 {
        return match r.matrix(name)? {
            Matrix::Ours(w) => Ok(Linear::Ours(Arc::new(w))),
            Matrix::Candle(t) => Linear::candle(Arc::new(t)),
        };
    }
    let t = r.qtensor(name)?;
    Linear::new(Arc::new(maybe_requantize(t, opts)?), opts)
}

fn maybe_requantize(t: QTensor, opts: LoadOptions) -> Result<QTensor> {
    if opts.requantize_q8
        && matches!(
            t.dtype(),
            GgmlDType::Q4_1 | GgmlDType::Q5_0 | GgmlDType::Q5_1
        )
    {
        let f = t.dequantize(&Device::Cpu)?;
        return QTensor::quantize(&f, GgmlDType::Q8_0);
    }
    Ok(t)
}

fn load_bias<R: Read + Seek>(r: &mut TensorReader<R>, name: &str) -> Result<Option<Tensor>> {
    if !r.contains(name) {
        return Ok(None);
    }
    Ok(Some(r.qtensor(name)?.dequantize(&Device::Cpu)?))
}

/// A growing, preallocated per-layer K/V store: `(n_kv_head, capacity, head_dim)`.
#[derive(Debug, Clone, Default)]
struct KvCache {
    k: Option<Tensor>,
    v: Option<Tensor>,
    cap: usize,
    len: usize,
}

impl KvCache {
    fn append(&mut self, k: &Tensor, v: &Tensor, max_cap: usize) -> Result<()> {
        let (n_kv, l, hd) = k.dims3()?;
        let need = self.len + l;
        if need > max_cap {
            bail!("context full: {need} positions > context length {max_cap}");
        }
        if need > self.cap {
            let cap = need.max(self.cap * 2).max(256).min(max_cap);
            let nk = Tensor::zeros((n_kv, cap, hd), DType::F32, k.device())?;
            let nv = Tensor::zeros((n_kv, cap, hd), DType::F32, k.device())?;
            if let (Some(ok), Some(ov), true) = (&self.k, &self.v, self.len > 0) {
                nk.slice_set(&ok.narrow(1, 0, self.len)?.contiguous()?, 1, 0)?;
                nv.slice_set(&ov.narrow(1, 0, self.len)?.contiguous()?, 1, 0)?;
            }
            self.k = Some(nk);
            self.v = Some(nv);
            self.cap = cap;
        }
        let (ck, cv) = match (&self.k, &self.v) {
            (Some(k), Some(v)) => (k, v),
            _ => bail!("kv cache not allocated"),
        };
        ck.slice_set(k, 1, self.len)?;
        cv.slice_set(v, 1, self.len)?;
        self.len = need;
        Ok(())
    }

    /// Views of positions `start..end`.
    fn view(&self, start: usize, end: usize) -> Result<(Tensor, Tensor)> {
        match (&self.k, &self.v) {
            (Some(k), Some(v)) => Ok((
                k.narrow(1, start, end - start)?,
                v.narrow(1, start, end - start)?,
            )),
            _ => bail!("kv cache empty"),
        }
    }
}

/// A layer's KV cache in either element type.
#[derive(Debug, Clone)]
enum Kv {
    F32(KvCache),
    F16(KvCacheF16),
}

impl Kv {
    fn new(dtype: KvDtype) -> Self {
        match dtype {
            KvDtype::F32 => Kv::F32(KvCache::default()),
            KvDtype::F16 => Kv::F16(KvCacheF16::default()),
        }
    }

    fn len(&self) -> usize {
        match self {
            Kv::F32(c) => c.len,
            Kv::F16(c) => c.len,
        }
    }

    fn set_len(&mut self, len: usize) {
        match self {
            Kv::F32(c) => c.len = len,
            Kv::F16(c) => c.len = len,
        }
    }
}

#[derive(Debug, Clone)]
struct Layer {
    attn_norm: RmsNorm,
    wq: Linear,
    wk: Linear,
    wv: Linear,
    wo: Linear,
    bq: Option<Tensor>,
    bk: Option<Tensor>,
    bv: Option<Tensor>,
    q_norm: Option<RmsNorm>,
    k_norm: Option<RmsNorm>,
    post_attn_norm: Option<RmsNorm>,
    ffn_norm: RmsNorm,
    post_ffn_norm: Option<RmsNorm>,
    gate: Linear,
    up: Linear,
    down: Linear,
    sliding: bool,
    rope_base: f32,
    cache: Kv,
}

fn add_bias(x: Tensor, b: &Option<Tensor>) -> Result<Tensor> {
    match b {
        Some(b) => x.broadcast_add(b),
        None => Ok(x),
    }
}

/// cos/sin tables `(len, dim/2)` for positions `pos..pos+len`, computed like
/// ggml's rope cache (`theta = p; theta *= base^(-2/dim)` per pair, in f32).
fn rope_tables(pos: usize, len: usize, dim: usize, base: f32) -> Result<(Tensor, Tensor)> {
    let half = dim / 2;
    let theta_scale = base.powf(-2.0 / dim as f32);
    let mut cos = Vec::with_capacity(len * half);
    let mut sin = Vec::with_capacity(len * half);
    for p in pos..pos + len {
        let mut theta = p as f32;
        for _ in 0..half {
            cos.push(theta.cos());
            sin.push(theta.sin());
            theta *= theta_scale;
        }
    }
    Ok((
        Tensor::from_vec(cos, (len, half), &Device::Cpu)?,
        Tensor::from_vec(sin, (len, half), &Device::Cpu)?,
    ))
}

/// Additive mask `(len, kv_end - kv_start)`: 0 where query `pos + i` may see
/// key position `kv_start + j`, -inf elsewhere.
fn mask(
    pos: usize,
    len: usize,
    kv_start: usize,
    kv_end: usize,
    window: Option<usize>,
) -> Result<Tensor> {
    let t = kv_end - kv_start;
    let mut m = vec![0f32; len * t];
    for i in 0..len {
        let qp = pos + i;
        for j in 0..t {
            let kp = kv_start + j;
            let visible = kp <= qp && window.is_none_or(|w| qp - kp < w);
            if !visible {
                m[i * t + j] = f32::NEG_INFINITY;
            }
        }
    }
    Tensor::from_vec(m, (len, t), &Device::Cpu)
}

/// ggml's f16 GELU table: `gelu_f32` of every f16 value, rounded to f16
/// (ggml-cpu defines `GGML_GELU_FP16`, so its f32 GELU/GEGLU use this table).
fn gelu_table() -> &'static [f32] {
    static TABLE: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        const GELU_COEF_A: f32 = 0.044715;
        const SQRT_2_OVER_PI: f32 = 0.797_884_6;
        (0..=u16::MAX)
            .map(|bits| {
                let x = half::f16::from_bits(bits).to_f32();
                let g = 0.5 * x * (1.0 + (SQRT_2_OVER_PI * x * (1.0 + GELU_COEF_A * x * x)).tanh());
                half::f16::from_f32(g).to_f32()
            })
            .collect()
    })
}

/// `gelu(gate) * up` exactly as ggml's CPU `ggml_vec_geglu_f32`.
fn geglu_ggml(gate: &Tensor, up: &Tensor) -> Result<Tensor> {
    let shape = gate.shape().clone();
    let g = gate.flatten_all()?.to_vec1::<f32>()?;
    let u = up.flatten_all()?.to_vec1::<f32>()?;
    let table = gelu_table();
    let out: Vec<f32> = g
        .iter()
        .zip(&u)
        .map(|(&x, &u)| {
            if x <= -10.0 {
                0.0
            } else if x >= 10.0 {
                x * u
            } else {
                table[half::f16::from_f32(x).to_bits() as usize] * u
            }
        })
        .collect();
    Tensor::from_vec(out, shape, gate.device())
}

/// Attention of `q` `(n_head, l, hd)` at positions `pos..` over the f32
/// rows `kc`, `vc` `(n_kv, t, hd)` of positions `start..`, with the full
/// score matrix (candle ops). Returns `(l, n_head * hd)`.
#[allow(clippy::too_many_arguments)]
fn dense_attention(
    q: &Tensor,
    kc: &Tensor,
    vc: &Tensor,
    pos: usize,
    start: usize,
    window: Option<usize>,
    score_scale: f32,
    cfg: &DecoderConfig,
) -> Result<Tensor> {
    let (nh, l, hd) = q.dims3()?;
    let nkv = cfg.n_kv_head;
    let t = kc.dim(1)?;
    let g = nh / nkv;
    let qg = q.reshape((nkv, g * l, hd))?;
    let mut scores = qg.matmul(&kc.t()?)?;
    if score_scale != 1.0 {
        scores = (scores * score_scale as f64)?;
    }
    if l > 1 {
        let m = mask(pos, l, start, start + t, window)?;
        scores = scores
            .reshape((nkv, g, l, t))?
            .broadcast_add(&m)?
            .reshape((nkv, g * l, t))?;
    }
    let probs = candle_nn::ops::softmax_last_dim(&scores)?;
    let out = probs.matmul(vc)?; // (nkv, g*l, hd)
    out.reshape((nh, l, hd))?
        .transpose(0, 1)?
        .contiguous()?
        .reshape((l, nh * hd))
}

impl Layer {
    /// `rowwise`: attend each row as its own one-token step, so every row's
    /// output is bit-identical to a one-token decode (speculative checks).
    fn attention(
        &mut self,
        x: &Tensor,
        pos: usize,
        rowwise: bool,
        cfg: &DecoderConfig,
    ) -> Result<Tensor> {
        let (l, _) = x.dims2()?;
        let (nh, nkv, hd) = (cfg.n_head, cfg.n_kv_head, cfg.head_dim);
        let q = add_bias(self.wq.forward(x)?, &self.bq)?.reshape((l, nh, hd))?;
        let k = add_bias(self.wk.forward(x)?, &self.bk)?.reshape((l, nkv, hd))?;
        let v = add_bias(self.wv.forward(x)?, &self.bv)?.reshape((l, nkv, hd))?;
        let (q, k) = match (&self.q_norm, &self.k_norm) {
            (Some(qn), Some(kn)) => (qn.forward(&q)?, kn.forward(&k)?),
            _ => (q, k),
        };
        let q = q.transpose(0, 1)?.contiguous()?.unsqueeze(0)?;
        let k = k.transpose(0, 1)?.contiguous()?.unsqueeze(0)?;
        let v = v.transpose(0, 1)?.contiguous()?;
        let (cos, sin) = rope_tables(pos, l, hd, self.rope_base)?;
        let (q, k) = if cfg.rope_neox {
            (
                candle_nn::rotary_emb::rope(&q, &cos, &sin)?,
                candle_nn::rotary_emb::rope(&k, &cos, &sin)?,
            )
        } else {
            (
                candle_nn::rotary_emb::rope_i(&q, &cos, &sin)?,
                candle_nn::rotary_emb::rope_i(&k, &cos, &sin)?,
            )
        };
        let (q, k) = (q.squeeze(0)?, k.squeeze(0)?);
        // llama.cpp scales Q for Gemma 3 and the scores for llama/qwen2.
        let scale_q = cfg.arch == Arch::Gemma3;
        let q = if scale_q {
            (q * cfg.attn_scale as f64)?
        } else {
            q
        };

        let end = pos + l;
        let window = if self.sliding {
            cfg.sliding_window
        } else {
            None
        };
        // First cached position query position `p` sees.
        let start_of = |p: usize| window.map_or(0, |w| (p + 1).saturating_sub(w));
        let start = start_of(pos);
        let score_scale = if scale_q { 1.0 } else { cfg.attn_scale };
        let out = match &mut self.cache {
            Kv::F32(c) => {
                c.append(&k, &v, cfg.context_length)?;
                if rowwise && l > 1 {
                    let mut rows = Vec::with_capacity(l);
                    for j in 0..l {
                        let p = pos + j;
                        let (kc, vc) = c.view(start_of(p), p + 1)?;
                        let qj = q.narrow(1, j, 1)?.contiguous()?;
                        rows.push(dense_attention(
                            &qj,
                            &kc,
                            &vc,
                            p,
                            start_of(p),
                            window,
                            score_scale,
                            cfg,
                        )?);
                    }
                    Tensor::cat(&rows, 0)?
                } else {
                    let (kc, vc) = c.view(start, end)?;
                    dense_attention(&q, &kc, &vc, pos, start, window, score_scale, cfg)?
                }
            }
            Kv::F16(c) => {
                c.append(&k, &v, cfg.context_length)?;
                if l == 1 || rowwise {
                    let qv = q.flatten_all()?.to_vec1::<f32>()?;
                    // q is (n_head, l, hd): row j of head h at (h * l + j) * hd.
                    let mut o = Vec::with_capacity(l * nh * hd);
                    let mut qj = vec![0f32; nh * hd];
                    for j in 0..l {
                        for h in 0..nh {
                            let src = (h * l + j) * hd;
                            qj[h * hd..(h + 1) * hd].copy_from_slice(&qv[src..src + hd]);
                        }
                        let p = pos + j;
                        o.extend(c.attend_one(&qj, nh, start_of(p), p + 1, score_scale));
                    }
                    Tensor::from_vec(o, (l, nh * hd), &Device::Cpu)?
                } else {
                    // As ggml's graph with an f16 cache: Q meets K as f16.
                    let q = q.to_dtype(DType::F16)?.to_dtype(DType::F32)?;
                    let qv = q.flatten_all()?.to_vec1::<f32>()?;
                    let o = c.attend_many(&qv, nh, l, pos, start, window, score_scale);
                    Tensor::from_vec(o, (l, nh * hd), &Device::Cpu)?
                }
            }
        };
        self.wo.forward(&out)
    }

    fn ffn(&self, x: &Tensor, arch: Arch) -> Result<Tensor> {
        let gate = self.gate.forward(x)?;
        let up = self.up.forward(x)?;
        let h = match arch {
            Arch::Gemma3 => geglu_ggml(&gate, &up)?,
            _ => (candle_nn::ops::silu(&gate)? * up)?,
        };
        self.down.forward(&h)
    }

    fn forward(
        &mut self,
        x: &Tensor,
        pos: usize,
        rowwise: bool,
        cfg: &DecoderConfig,
    ) -> Result<Tensor> {
        let h = self.attn_norm.forward(x)?;
        let h = self.attention(&h, pos, rowwise, cfg)?;
        let h = match &self.post_attn_norm {
            Some(n) => n.forward(&h)?,
            None => h,
        };
        let x = (x + h)?;
        let h = self.ffn_norm.forward(&x)?;
        let h = self.ffn(&h, cfg.arch)?;
        let h = match &self.post_ffn_norm {
            Some(n) => n.forward(&h)?,
            None => h,
        };
        x + h
    }
}

/// The decoder: weights plus its KV cache (one sequence).
#[derive(Debug, Clone)]
pub struct Decoder {
    cfg: DecoderConfig,
    embed: Arc<QTensor>,
    layers: Vec<Layer>,
    norm: RmsNorm,
    output: Linear,
}

impl Decoder {
    pub fn from_gguf<R: Read + Seek>(
        ct: &gguf_file::Content,
        r: &mut R,
        arch: Arch,
        opts: LoadOptions,
    ) -> Result<Self> {
        Self::from_tensors(ct, &mut TensorReader::new(ct, r), arch, opts)
    }

    /// [`Self::from_gguf`] through a reader the caller set up (e.g. with a
    /// prepared-weights file).
    pub fn from_tensors<R: Read + Seek>(
        ct: &gguf_file::Content,
        r: &mut TensorReader<R>,
        arch: Arch,
        opts: LoadOptions,
    ) -> Result<Self> {
        let cfg = DecoderConfig::from_gguf(ct, arch)?;
        let eps = cfg.rms_eps;
        let embed = Arc::new(r.qtensor("token_embd.weight")?);
        let output = if r.contains("output.weight") {
            load_matmul(r, "output.weight", opts)?
        } else if opts.requantize_q8 {
            let t = r.qtensor("token_embd.weight")?;
            Linear::new(Arc::new(maybe_requantize(t, opts)?), opts)?
        } else {
            Linear::new(embed.clone(), opts)?
        };
        let norm = RmsNorm::load(r, "output_norm.weight", eps)?;
        let gemma = arch == Arch::Gemma3;
        let mut layers = Vec::with_capacity(cfg.n_layer);
        for i in 0..cfg.n_layer {
            let n = |s: &str| format!("blk.{i}.{s}");
            let opt_norm = |r: &mut TensorReader<R>, s: &str| -> Result<Option<RmsNorm>> {
                if gemma {
                    Ok(Some(RmsNorm::load(r, &n(s), eps)?))
                } else {
                    Ok(None)
                }
            };
            let sliding = cfg.is_sliding(i);
            layers.push(Layer {
                attn_norm: RmsNorm::load(r, &n("attn_norm.weight"), eps)?,
                wq: load_matmul(r, &n("attn_q.weight"), opts)?,
                wk: load_matmul(r, &n("attn_k.weight"), opts)?,
                wv: load_matmul(r, &n("attn_v.weight"), opts)?,
                wo: load_matmul(r, &n("attn_output.weight"), opts)?,
                bq: load_bias(r, &n("attn_q.bias"))?,
                bk: load_bias(r, &n("attn_k.bias"))?,
                bv: load_bias(r, &n("attn_v.bias"))?,
                q_norm: opt_norm(r, "attn_q_norm.weight")?,
                k_norm: opt_norm(r, "attn_k_norm.weight")?,
                post_attn_norm: opt_norm(r, "post_attention_norm.weight")?,
                ffn_norm: RmsNorm::load(r, &n("ffn_norm.weight"), eps)?,
                post_ffn_norm: opt_norm(r, "post_ffw_norm.weight")?,
                gate: load_matmul(r, &n("ffn_gate.weight"), opts)?,
                up: load_matmul(r, &n("ffn_up.weight"), opts)?,
                down: load_matmul(r, &n("ffn_down.weight"), opts)?,
                sliding,
                rope_base: if sliding {
                    cfg.rope_base_swa
                } else {
                    cfg.rope_base
                },
                cache: Kv::new(opts.kv),
            });
        }
        Ok(Self {
            cfg,
            embed,
            layers,
            norm,
            output,
        })
    }

    pub fn config(&self) -> &DecoderConfig {
        &self.cfg
    }

    /// Positions held in the KV cache.
    pub fn cached_len(&self) -> usize {
        self.layers.first().map_or(0, |l| l.cache.len())
    }

    pub fn clear_cache(&mut self) {
        for l in &mut self.layers {
            l.cache.set_len(0);
        }
    }

    /// Allocate the KV cache for `positions` at once (it grows by doubling
    /// otherwise); bounded by the context length.
    pub fn reserve(&mut self, positions: usize) {
        let positions = positions.min(self.cfg.context_length);
        let (nkv, hd) = (self.cfg.n_kv_head, self.cfg.head_dim);
        for l in &mut self.layers {
            if let Kv::F16(c) = &mut l.cache {
                c.reserve(nkv, hd, positions);
            }
        }
    }

    /// Run `tokens` at positions `pos..`, append them to the cache and return
    /// the logits of the last one. `pos` must not exceed the cached length;
    /// a smaller `pos` rewinds the cache.
    pub fn forward(&mut self, tokens: &[u32], pos: usize) -> Result<Vec<f32>> {
        let x = self.hidden(tokens, pos, false)?;
        let last = x.narrow(0, tokens.len() - 1, 1)?;
        let last = self.norm.forward(&last)?;
        self.output.forward(&last)?.squeeze(0)?.to_vec1::<f32>()
    }

    /// As [`Self::forward`], but the logits of every position, each
    /// bit-identical to what a one-token [`Self::forward`] at that position
    /// would return: checking a speculative draft in one pass must not
    /// change the greedy output. (Matmuls are per row already; attention is
    /// made so here.)
    pub fn forward_rows(&mut self, tokens: &[u32], pos: usize) -> Result<Vec<Vec<f32>>> {
        let x = self.hidden(tokens, pos, true)?;
        let x = self.norm.forward(&x)?;
        let logits = self.output.forward(&x)?;
        let vocab = logits.dim(1)?;
        let flat = logits.flatten_all()?.to_vec1::<f32>()?;
        Ok(flat.chunks_exact(vocab).map(<[f32]>::to_vec).collect())
    }

    /// Hidden states `(tokens, n_embd)` after the last layer.
    fn hidden(&mut self, tokens: &[u32], pos: usize, rowwise: bool) -> Result<Tensor> {
        if tokens.is_empty() {
            bail!("forward: no tokens");
        }
        if pos > self.cached_len() {
            bail!(
                "forward: position {pos} beyond cached {}",
                self.cached_len()
            );
        }
        for l in &mut self.layers {
            l.cache.set_len(pos);
        }
        let ids = Tensor::new(tokens, &Device::Cpu)?;
        let mut x = self.embed.embedding(&ids)?;
        if self.cfg.arch == Arch::Gemma3 {
            x = (x * ((self.cfg.n_embd as f32).sqrt()) as f64)?;
        }
        for layer in &mut self.layers {
            x = layer.forward(&x, pos, rowwise, &self.cfg)?;
        }
        Ok(x)
    }
}
