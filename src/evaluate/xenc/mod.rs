//! A trained cross-encoder judge: all-MiniLM-L6-v2 reading (fact, claim)
//! as one sentence pair, with low-rank adapters and a 3-way head trained on
//! synthetic FactCC-style pairs (`eval/xenc/pairs.jsonl`, made by
//! `eval/scripts/make_xenc_pairs.py` from calibration facts and invented
//! domains only). `continuity eval-train` trains it; the adapters ship in
//! `eval/faithfulness/xenc.safetensors` and are embedded here. It is used as
//! an [`EntailmentJudge`] (`--judge minilm-xenc`).

pub mod model;
pub mod train;

use std::collections::HashMap;
use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use tokenizers::Tokenizer;

use super::judge::{EntailmentJudge, Nli};
use crate::error::{Error, Result};
pub use model::{BertConfig, CrossEncoderNet};

/// The judge name that selects this cross-encoder.
pub const NAME: &str = "minilm-xenc";

/// The trained adapters and head, embedded from the trained file.
pub const ADAPTERS: &[u8] = include_bytes!("../../../eval/faithfulness/xenc.safetensors");

fn err(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Internal(format!("cross-encoder: {what}: {e}"))
}

/// The MiniLM files a cross-encoder is built on.
pub struct Base {
    pub config: BertConfig,
    pub tokenizer: Tokenizer,
    pub weights: VarBuilder<'static>,
}

impl Base {
    /// Load from the directory `models/fetch.py minilm-l6` writes.
    pub fn load(dir: &Path, device: &Device) -> Result<Base> {
        let files = super::embed::MiniLmFiles::load(dir, device)?;
        let config: BertConfig =
            serde_json::from_str(&files.config_json).map_err(|e| err("config.json", e))?;
        Ok(Base {
            config,
            tokenizer: files.tokenizer,
            weights: files.weights,
        })
    }
}

/// Token ids, token types and attention mask of a batch of pairs, each
/// `(batch, len)`.
pub fn encode_pairs(
    tokenizer: &Tokenizer,
    pairs: &[(String, String)],
    device: &Device,
) -> Result<(Tensor, Tensor, Tensor)> {
    let enc = tokenizer
        .encode_batch(pairs.to_vec(), true)
        .map_err(|e| err("tokenize", e))?;
    super::embed::batch_tensors(&enc, device)
}

/// The cross-encoder judge (inference).
pub struct CrossEncoder {
    net: CrossEncoderNet,
    tokenizer: Tokenizer,
    device: Device,
    memo: HashMap<(String, String), Nli>,
}

impl CrossEncoder {
    /// MiniLM from the model cache plus the embedded trained adapters.
    pub fn load() -> Result<CrossEncoder> {
        let dir = crate::llm::manifest::resolve_model("minilm-l6", None)
            .map_err(|e| Error::Internal(e.to_string()))?;
        Self::load_with(&dir, ADAPTERS)
    }

    /// MiniLM from `dir` plus adapters from safetensors bytes.
    pub fn load_with(dir: &Path, adapters: &[u8]) -> Result<CrossEncoder> {
        let device = model::device();
        let base = Base::load(dir, &device)?;
        let adapters =
            VarBuilder::from_buffered_safetensors(adapters.to_vec(), DType::F32, &device)
                .map_err(|e| err("adapters (eval/faithfulness/xenc.safetensors)", e))?;
        let net = CrossEncoderNet::load(base.weights, adapters, &base.config)
            .map_err(|e| err("adapters (eval/faithfulness/xenc.safetensors)", e))?;
        Ok(CrossEncoder {
            net,
            tokenizer: base.tokenizer,
            device,
            memo: HashMap::new(),
        })
    }

    /// Label probabilities for many (premise, claim) pairs, in order.
    pub fn judge_batch(&mut self, pairs: &[(String, String)]) -> Result<Vec<Nli>> {
        let mut todo: Vec<(String, String)> = pairs
            .iter()
            .filter(|p| !self.memo.contains_key(*p))
            .cloned()
            .collect();
        todo.sort();
        todo.dedup();
        for chunk in todo.chunks(32) {
            let (ids, types, mask) = encode_pairs(&self.tokenizer, chunk, &self.device)?;
            let probs = self
                .net
                .forward(&ids, &types, &mask)
                .and_then(|l| candle_nn::ops::softmax_last_dim(&l))
                .and_then(|p| p.to_vec2::<f32>())
                .map_err(|e| err("forward", e))?;
            for (pair, p) in chunk.iter().zip(probs) {
                let nli = Nli {
                    entails: p[0],
                    neutral: p[1],
                    contradicts: p[2],
                };
                self.memo.insert(pair.clone(), nli);
            }
        }
        Ok(pairs.iter().map(|p| self.memo[p]).collect())
    }
}

impl EntailmentJudge for CrossEncoder {
    fn name(&self) -> &str {
        NAME
    }

    fn judge(&mut self, premise: &str, claim: &str) -> Result<Nli> {
        let pair = (premise.to_string(), claim.to_string());
        Ok(self.judge_batch(std::slice::from_ref(&pair))?[0])
    }

    fn judge_many(&mut self, pairs: &[(String, String)]) -> Result<Vec<Nli>> {
        self.judge_batch(pairs)
    }
}
