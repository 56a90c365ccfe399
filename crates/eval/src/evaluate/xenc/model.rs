//! MiniLM (BERT) as a cross-encoder: the fact and the claim are read
//! together as one sentence pair, and a 3-way head on the `[CLS]` state says
//! entails / neutral / contradicts. The base weights are the frozen
//! all-MiniLM-L6-v2 ones; low-rank adapters (LoRA) on the attention query
//! and value and on both feed-forward projections, plus the head, are the
//! only trained weights, so the trained file is small enough to ship.
//!
//! The forward is written out here rather than taken from
//! `candle_transformers::models::bert` because that one has no adapters and
//! uses candle's fused layer norm, which has no backward pass.

use candle_core::{DType, Device, Module, Tensor, D};
use candle_nn::{Init, Linear, VarBuilder};

/// Adapter rank and scale (LoRA's `alpha / r`).
pub const RANK: usize = 8;
pub const ALPHA: f64 = 16.0;
/// Label order of the head's outputs, as [`super::super::Nli`].
pub const LABELS: [&str; 3] = ["entails", "neutral", "contradicts"];

/// Hyper-parameters of the base model read from its `config.json`.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct BertConfig {
    pub hidden_size: usize,
    pub num_attention_heads: usize,
    pub num_hidden_layers: usize,
    pub intermediate_size: usize,
    pub layer_norm_eps: f64,
    pub vocab_size: usize,
    pub max_position_embeddings: usize,
    pub type_vocab_size: usize,
}

struct LayerNorm {
    weight: Tensor,
    bias: Tensor,
    eps: f64,
}

impl LayerNorm {
    fn load(vb: &VarBuilder, name: &str, size: usize, eps: f64) -> candle_core::Result<Self> {
        Ok(LayerNorm {
            weight: vb.get(size, &format!("{name}.weight"))?,
            bias: vb.get(size, &format!("{name}.bias"))?,
            eps,
        })
    }

    /// Plain tensor ops, so gradients flow through it.
    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let mean = x.mean_keepdim(D::Minus1)?;
        let centered = x.broadcast_sub(&mean)?;
        let var = centered.sqr()?.mean_keepdim(D::Minus1)?;
        let normed = centered.broadcast_div(&(var + self.eps)?.sqrt()?)?;
        normed
            .broadcast_mul(&self.weight)?
            .broadcast_add(&self.bias)
    }
}

/// A frozen linear layer with an optional trained low-rank update:
/// `x W^T + b + s (x A^T) B^T`.
struct AdaptedLinear {
    base: Linear,
    lora: Option<(Tensor, Tensor)>,
    scale: f64,
}

impl AdaptedLinear {
    fn load(
        base: &VarBuilder,
        adapters: Option<&VarBuilder>,
        name: &str,
        (out_dim, in_dim): (usize, usize),
    ) -> candle_core::Result<Self> {
        let w = base.get((out_dim, in_dim), &format!("{name}.weight"))?;
        let b = base.get(out_dim, &format!("{name}.bias"))?;
        let lora = match adapters {
            Some(vb) => {
                // Created as zeros when training; `train::init_adapters`
                // gives them their seeded initial values.
                let a =
                    vb.get_with_hints((RANK, in_dim), &format!("{name}.lora_a"), Init::Const(0.0))?;
                let b = vb.get_with_hints(
                    (out_dim, RANK),
                    &format!("{name}.lora_b"),
                    Init::Const(0.0),
                )?;
                Some((a, b))
            }
            None => None,
        };
        Ok(AdaptedLinear {
            base: Linear::new(w, Some(b)),
            lora,
            scale: ALPHA / RANK as f64,
        })
    }

    fn forward(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let y = self.base.forward(x)?;
        match &self.lora {
            Some((a, b)) => {
                let low = x.broadcast_matmul(&a.t()?)?.broadcast_matmul(&b.t()?)?;
                y + (low * self.scale)?
            }
            None => Ok(y),
        }
    }
}

struct Layer {
    query: AdaptedLinear,
    key: AdaptedLinear,
    value: AdaptedLinear,
    attention_out: AdaptedLinear,
    attention_norm: LayerNorm,
    intermediate: AdaptedLinear,
    output: AdaptedLinear,
    output_norm: LayerNorm,
}

/// The cross-encoder network: frozen BERT, adapters, classification head.
pub struct CrossEncoderNet {
    word: Tensor,
    position: Tensor,
    token_type: Tensor,
    embed_norm: LayerNorm,
    layers: Vec<Layer>,
    head: Linear,
    heads: usize,
    head_dim: usize,
}

impl CrossEncoderNet {
    /// `base`: the MiniLM weights; `adapters`: the trained weights (a
    /// `VarMap`-backed builder when training, whose missing entries are
    /// created with their initial values).
    pub fn load(
        base: VarBuilder,
        adapters: VarBuilder,
        cfg: &BertConfig,
    ) -> candle_core::Result<Self> {
        let h = cfg.hidden_size;
        let eps = cfg.layer_norm_eps;
        let mut layers = Vec::with_capacity(cfg.num_hidden_layers);
        for i in 0..cfg.num_hidden_layers {
            let p = format!("encoder.layer.{i}");
            let ad = Some(&adapters);
            layers.push(Layer {
                query: AdaptedLinear::load(
                    &base,
                    ad,
                    &format!("{p}.attention.self.query"),
                    (h, h),
                )?,
                key: AdaptedLinear::load(&base, None, &format!("{p}.attention.self.key"), (h, h))?,
                value: AdaptedLinear::load(
                    &base,
                    ad,
                    &format!("{p}.attention.self.value"),
                    (h, h),
                )?,
                attention_out: AdaptedLinear::load(
                    &base,
                    None,
                    &format!("{p}.attention.output.dense"),
                    (h, h),
                )?,
                attention_norm: LayerNorm::load(
                    &base,
                    &format!("{p}.attention.output.LayerNorm"),
                    h,
                    eps,
                )?,
                intermediate: AdaptedLinear::load(
                    &base,
                    ad,
                    &format!("{p}.intermediate.dense"),
                    (cfg.intermediate_size, h),
                )?,
                output: AdaptedLinear::load(
                    &base,
                    ad,
                    &format!("{p}.output.dense"),
                    (h, cfg.intermediate_size),
                )?,
                output_norm: LayerNorm::load(&base, &format!("{p}.output.LayerNorm"), h, eps)?,
            });
        }
        let head_w = adapters.get_with_hints((LABELS.len(), h), "head.weight", Init::Const(0.0))?;
        let head_b = adapters.get_with_hints(LABELS.len(), "head.bias", Init::Const(0.0))?;
        Ok(CrossEncoderNet {
            word: base.get((cfg.vocab_size, h), "embeddings.word_embeddings.weight")?,
            position: base.get(
                (cfg.max_position_embeddings, h),
                "embeddings.position_embeddings.weight",
            )?,
            token_type: base.get(
                (cfg.type_vocab_size, h),
                "embeddings.token_type_embeddings.weight",
            )?,
            embed_norm: LayerNorm::load(&base, "embeddings.LayerNorm", h, eps)?,
            layers,
            head: Linear::new(head_w, Some(head_b)),
            heads: cfg.num_attention_heads,
            head_dim: h / cfg.num_attention_heads,
        })
    }

    /// Logits `(batch, 3)` for token ids, token types and attention mask,
    /// each `(batch, len)` (u32).
    pub fn forward(
        &self,
        ids: &Tensor,
        types: &Tensor,
        mask: &Tensor,
    ) -> candle_core::Result<Tensor> {
        let x = self.hidden(ids, types, mask)?;
        let cls = x.narrow(1, 0, 1)?.squeeze(1)?;
        self.head.forward(&cls)
    }

    /// The encoder's last hidden states `(batch, len, hidden)`; with zero
    /// adapters, the base model's.
    pub fn hidden(
        &self,
        ids: &Tensor,
        types: &Tensor,
        mask: &Tensor,
    ) -> candle_core::Result<Tensor> {
        let (n, len) = ids.dims2()?;
        let word = self.word.index_select(&ids.flatten_all()?, 0)?;
        let kind = self.token_type.index_select(&types.flatten_all()?, 0)?;
        let pos = self.position.narrow(0, 0, len)?;
        let x = (word + kind)?.reshape((n, len, ()))?.broadcast_add(&pos)?;
        let mut x = self.embed_norm.forward(&x)?;
        // 0 where attended, a large negative number at padding.
        let bias = ((mask.to_dtype(DType::F32)? - 1.0)? * 10_000.0)?.reshape((n, 1, 1, len))?;
        let scale = 1.0 / (self.head_dim as f64).sqrt();
        for l in &self.layers {
            let split = |t: Tensor| -> candle_core::Result<Tensor> {
                t.reshape((n, len, self.heads, self.head_dim))?
                    .transpose(1, 2)?
                    .contiguous()
            };
            let q = split(l.query.forward(&x)?)?;
            let k = split(l.key.forward(&x)?)?;
            let v = split(l.value.forward(&x)?)?;
            let scores = (q.matmul(&k.t()?.contiguous()?)? * scale)?.broadcast_add(&bias)?;
            let probs = candle_nn::ops::softmax(&scores, D::Minus1)?;
            let ctx = probs
                .matmul(&v)?
                .transpose(1, 2)?
                .contiguous()?
                .reshape((n, len, ()))?;
            let attended = l.attention_out.forward(&ctx)?;
            x = l.attention_norm.forward(&(attended + &x)?)?;
            let inner = l.intermediate.forward(&x)?.gelu_erf()?;
            let out = l.output.forward(&inner)?;
            x = l.output_norm.forward(&(out + &x)?)?;
        }
        Ok(x)
    }
}

/// The CPU device the evaluator runs on.
pub fn device() -> Device {
    Device::Cpu
}
