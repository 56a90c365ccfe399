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
use continuity_core::error::{Error, Result};
pub use model::{BertConfig, CrossEncoderNet};

/// The judge name that selects this cross-encoder (trained on synthetic
/// pairs only).
pub const NAME: &str = "minilm-xenc";

/// The trained adapters and head, embedded from the trained file.
pub const ADAPTERS: &[u8] = include_bytes!("../../../../../eval/faithfulness/xenc.safetensors");

/// The judge name of the cross-fitted ensemble: [`ADAPTERS`] fine-tuned on
/// real sentences (the calibration split's summary sentences and
/// hand-written pools of invented domains, `eval/xenc/`), four times, each
/// leaving out two of the eight calibration cases ([`FOLDS`]). It judges
/// with the mean of the folds' probabilities; when calibrating, each
/// calibration summary is judged by the fold that never saw its case
/// ([`EntailmentJudge::hold_out`]), so the combiner is trained on
/// out-of-fold scores.
pub const CROSS_FITTED: &str = "minilm-xenc-cf";

/// (left-out calibration cases, adapters) per fold: four folds, each
/// trained on the real sentences of six of the eight calibration cases.
pub const FOLDS: &[(&[&str], &[u8])] = &[
    (
        &["billing-dispute", "sample-custody"],
        include_bytes!(
            "../../../../../eval/faithfulness/xenc-folds/without-billing-dispute+sample-custody.safetensors"
        ),
    ),
    (
        &["example-billing", "grain-coop"],
        include_bytes!(
            "../../../../../eval/faithfulness/xenc-folds/without-example-billing+grain-coop.safetensors"
        ),
    ),
    (
        &["oncall-rollback", "permit-review"],
        include_bytes!(
            "../../../../../eval/faithfulness/xenc-folds/without-oncall-rollback+permit-review.safetensors"
        ),
    ),
    (
        &["ops-export", "customs-hold"],
        include_bytes!(
            "../../../../../eval/faithfulness/xenc-folds/without-ops-export+customs-hold.safetensors"
        ),
    ),
];

fn err(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Internal(format!("cross-encoder: {what}: {e}"))
}

/// The MiniLM files a cross-encoder is built on. The weights are read into
/// memory once, so that every fold built on them shares one copy.
pub struct Base {
    pub config: BertConfig,
    pub tokenizer: Tokenizer,
    tensors: HashMap<String, Tensor>,
    device: Device,
}

impl Base {
    /// Load from the directory `models/fetch.py minilm-l6` writes.
    pub fn load(dir: &Path, device: &Device) -> Result<Base> {
        let (config_json, tokenizer) = super::embed::load_config_and_tokenizer(dir)?;
        let config: BertConfig =
            serde_json::from_str(&config_json).map_err(|e| err("config.json", e))?;
        let weights = dir.join("model.safetensors");
        let tensors = candle_core::safetensors::load(&weights, device)
            .map_err(|e| err(&weights.display().to_string(), e))?;
        Ok(Base {
            config,
            tokenizer,
            tensors,
            device: device.clone(),
        })
    }

    /// A builder over the shared base weights (the tensors are reference
    /// counted, so this copies no weights).
    pub fn weights(&self) -> VarBuilder<'static> {
        VarBuilder::from_tensors(self.tensors.clone(), DType::F32, &self.device)
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

/// One trained network and the calibration cases it never saw (none for a
/// judge that is not cross-fitted).
struct Fold {
    left_out: Vec<String>,
    net: CrossEncoderNet,
}

/// The cross-encoder judge (inference): one network, or the folds of a
/// cross-fitted ensemble sharing one copy of the base weights.
pub struct CrossEncoder {
    name: &'static str,
    folds: Vec<Fold>,
    /// The folds that judge now (indices into `folds`).
    active: Vec<usize>,
    tokenizer: Tokenizer,
    device: Device,
    /// Judged pairs, per set of active folds (keyed by `active`), so a
    /// lookup clones nothing.
    memo: HashMap<Vec<usize>, HashMap<(String, String), Nli>>,
}

impl CrossEncoder {
    /// MiniLM from the model cache plus the embedded trained adapters.
    pub fn load() -> Result<CrossEncoder> {
        Self::load_with(&minilm_dir()?, ADAPTERS)
    }

    /// The cross-fitted ensemble ([`CROSS_FITTED`]) from the model cache.
    pub fn load_cross_fitted() -> Result<CrossEncoder> {
        Self::load_folds(&minilm_dir()?, CROSS_FITTED, FOLDS)
    }

    /// MiniLM from `dir` plus adapters from safetensors bytes.
    pub fn load_with(dir: &Path, adapters: &[u8]) -> Result<CrossEncoder> {
        Self::load_folds(dir, NAME, &[(&[], adapters)])
    }

    /// MiniLM from `dir` plus one network per (left-out cases, adapters).
    pub fn load_folds(
        dir: &Path,
        name: &'static str,
        folds: &[(&[&str], &[u8])],
    ) -> Result<CrossEncoder> {
        let device = model::device();
        let base = Base::load(dir, &device)?;
        let mut nets = Vec::with_capacity(folds.len());
        for (left_out, adapters) in folds {
            let what = "adapters (eval/faithfulness)";
            let vb = VarBuilder::from_buffered_safetensors(adapters.to_vec(), DType::F32, &device)
                .map_err(|e| err(what, e))?;
            let net = CrossEncoderNet::load(base.weights(), vb, &base.config)
                .map_err(|e| err(what, e))?;
            nets.push(Fold {
                left_out: left_out.iter().map(|c| c.to_string()).collect(),
                net,
            });
        }
        Ok(CrossEncoder {
            name,
            active: (0..nets.len()).collect(),
            folds: nets,
            tokenizer: base.tokenizer,
            device,
            memo: HashMap::new(),
        })
    }

    /// Label probabilities for many (premise, claim) pairs, in order: the
    /// mean over the active folds.
    pub fn judge_batch(&mut self, pairs: &[(String, String)]) -> Result<Vec<Nli>> {
        let mut memo = self.memo.remove(&self.active).unwrap_or_default();
        let mut todo: Vec<(String, String)> = pairs
            .iter()
            .filter(|p| !memo.contains_key(*p))
            .cloned()
            .collect();
        todo.sort();
        todo.dedup();
        for chunk in todo.chunks(32) {
            let (ids, types, mask) = encode_pairs(&self.tokenizer, chunk, &self.device)?;
            let mut sum = vec![[0f32; 3]; chunk.len()];
            for &f in &self.active {
                let probs = self.folds[f]
                    .net
                    .forward(&ids, &types, &mask)
                    .and_then(|l| candle_nn::ops::softmax_last_dim(&l))
                    .and_then(|p| p.to_vec2::<f32>())
                    .map_err(|e| err("forward", e))?;
                for (s, p) in sum.iter_mut().zip(probs) {
                    for k in 0..3 {
                        s[k] += p[k] / self.active.len() as f32;
                    }
                }
            }
            for (pair, p) in chunk.iter().zip(sum) {
                let nli = Nli {
                    entails: p[0],
                    neutral: p[1],
                    contradicts: p[2],
                };
                memo.insert(pair.clone(), nli);
            }
        }
        let out = pairs.iter().map(|p| memo[p]).collect();
        self.memo.insert(self.active.clone(), memo);
        Ok(out)
    }
}

fn minilm_dir() -> Result<std::path::PathBuf> {
    continuity_models::hub::resolve_model("minilm-l6", None)
        .map_err(|e| Error::Internal(e.to_string()))
}

impl EntailmentJudge for CrossEncoder {
    fn name(&self) -> &str {
        self.name
    }

    /// The fold that left `case` out. A case no fold left out was in no
    /// fold's training data (each fold trains on every calibration case but
    /// the ones it leaves out, and on no other case of the set), so every
    /// fold judges it out of fold.
    fn hold_out(&mut self, case: Option<&str>) -> Result<()> {
        let fold = case.and_then(|c| {
            self.folds
                .iter()
                .position(|f| f.left_out.iter().any(|x| x == c))
        });
        self.active = match fold {
            Some(f) => vec![f],
            None => (0..self.folds.len()).collect(),
        };
        Ok(())
    }

    fn judge(&mut self, premise: &str, claim: &str) -> Result<Nli> {
        let pair = (premise.to_string(), claim.to_string());
        Ok(self.judge_batch(std::slice::from_ref(&pair))?[0])
    }

    fn judge_many(&mut self, pairs: &[(String, String)]) -> Result<Vec<Nli>> {
        self.judge_batch(pairs)
    }
}
