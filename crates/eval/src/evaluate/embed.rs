//! Sentence embeddings with all-MiniLM-L6-v2 (candle-transformers `bert`,
//! mean pooling over the attention mask, L2-normalised), as
//! sentence-transformers computes them.

use std::collections::HashMap;
use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{PaddingParams, Tokenizer, TruncationParams};

use continuity_core::error::{Error, Result};

/// Longest input in tokens (a text, or a fact and claim pair); longer
/// inputs are truncated (record chunks).
pub const MAX_TOKENS: usize = 128;
/// Texts per forward pass.
const BATCH: usize = 32;

pub struct Embedder {
    model: BertModel,
    tokenizer: Tokenizer,
    device: Device,
    cache: HashMap<String, Vec<f32>>,
}

fn err(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Internal(format!("embedder: {what}: {e}"))
}

impl Embedder {
    /// Load from a directory holding `model.safetensors`, `config.json` and
    /// `tokenizer.json` (what `models/fetch.py minilm-l6` writes).
    pub fn load(dir: &Path) -> Result<Self> {
        let device = Device::Cpu;
        let files = MiniLmFiles::load(dir, &device)?;
        let config: Config =
            serde_json::from_str(&files.config_json).map_err(|e| err("config.json", e))?;
        let (tokenizer, vb) = (files.tokenizer, files.weights);
        let model = BertModel::load(vb, &config).map_err(|e| err("load", e))?;
        Ok(Embedder {
            model,
            tokenizer,
            device,
            cache: HashMap::new(),
        })
    }

    /// Unit-length embeddings, one per text, in order. Repeated texts are
    /// served from a cache (keys and facts recur across summaries).
    pub fn embed(&mut self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        let mut todo: Vec<&String> = texts
            .iter()
            .filter(|t| !self.cache.contains_key(*t))
            .collect();
        todo.sort();
        todo.dedup();
        // Similar lengths together: less padding.
        todo.sort_by_key(|t| t.len());
        for chunk in todo.chunks(BATCH) {
            let batch: Vec<String> = chunk.iter().map(|s| s.to_string()).collect();
            let vecs = self.forward(&batch)?;
            for (t, v) in batch.into_iter().zip(vecs) {
                self.cache.insert(t, v);
            }
        }
        Ok(texts.iter().map(|t| self.cache[t].clone()).collect())
    }

    fn forward(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        let enc = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| err("tokenize", e))?;
        let (ids, types, mask) = batch_tensors(&enc, &self.device)?;
        let run = || -> candle_core::Result<Vec<Vec<f32>>> {
            let out = self.model.forward(&ids, &types, Some(&mask))?;
            let m = mask.to_dtype(DType::F32)?.unsqueeze(2)?;
            let summed = out.broadcast_mul(&m)?.sum(1)?;
            let counts = m.sum(1)?;
            let mean = summed.broadcast_div(&counts)?;
            let norm = mean.sqr()?.sum_keepdim(1)?.sqrt()?;
            mean.broadcast_div(&norm)?.to_vec2::<f32>()
        };
        run().map_err(|e| err("forward", e))
    }
}

/// The MiniLM files both the embedder and the cross-encoder are built on:
/// `config.json` (text), the tokenizer (padding to the longest, truncation
/// at [`MAX_TOKENS`]) and the memory-mapped weights.
pub struct MiniLmFiles {
    pub config_json: String,
    pub tokenizer: Tokenizer,
    pub weights: VarBuilder<'static>,
}

impl MiniLmFiles {
    pub fn load(dir: &Path, device: &Device) -> Result<MiniLmFiles> {
        let (config_json, tokenizer) = load_config_and_tokenizer(dir)?;
        let weights = dir.join("model.safetensors");
        // SAFETY: the file is memory-mapped read-only; it is not modified
        // while mapped (the model cache is written once by fetch.py).
        let weights =
            unsafe { VarBuilder::from_mmaped_safetensors(&[weights], DType::F32, device) }
                .map_err(|e| err("model.safetensors", e))?;
        Ok(MiniLmFiles {
            config_json,
            tokenizer,
            weights,
        })
    }
}

/// MiniLM's `config.json` (text) and its tokenizer, padding to the longest
/// and truncating at [`MAX_TOKENS`].
pub fn load_config_and_tokenizer(dir: &Path) -> Result<(String, Tokenizer)> {
    let config_path = dir.join("config.json");
    let config_json = std::fs::read_to_string(&config_path).map_err(|e| Error::Io {
        path: config_path,
        source: e,
    })?;
    let mut tokenizer =
        Tokenizer::from_file(dir.join("tokenizer.json")).map_err(|e| err("tokenizer.json", e))?;
    tokenizer.with_padding(Some(PaddingParams::default()));
    tokenizer
        .with_truncation(Some(TruncationParams {
            max_length: MAX_TOKENS,
            ..Default::default()
        }))
        .map_err(|e| err("truncation", e))?;
    Ok((config_json, tokenizer))
}

/// Token ids, token types and attention mask of a padded batch of
/// encodings, each `(batch, len)` (u32).
pub fn batch_tensors(
    enc: &[tokenizers::Encoding],
    device: &Device,
) -> Result<(Tensor, Tensor, Tensor)> {
    let n = enc.len();
    let len = enc.iter().map(|e| e.get_ids().len()).max().unwrap_or(1);
    let mut ids = Vec::with_capacity(n * len);
    let mut types = Vec::with_capacity(n * len);
    let mut mask = Vec::with_capacity(n * len);
    for e in enc {
        ids.extend_from_slice(e.get_ids());
        types.extend_from_slice(e.get_type_ids());
        mask.extend_from_slice(e.get_attention_mask());
    }
    let t = |v: Vec<u32>| Tensor::from_vec(v, (n, len), device).map_err(|e| err("batch", e));
    Ok((t(ids)?, t(types)?, t(mask)?))
}

/// Cosine of two unit vectors.
pub fn cos(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
