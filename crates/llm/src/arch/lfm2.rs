//! LFM2 / LFM2.5 through candle-transformers' `quantized_lfm2`.
//!
//! Its multi-token forward recomputes the short convolutions from the given
//! tokens only (the conv cache is ignored), so a prompt must be run in one
//! pass from position 0 and every later call must be a single token. Its
//! conv state cannot be reset either (only a multi-token forward at position
//! 0 overwrites it), so a used model refuses a one-token forward at 0.

use candle_core::quantized::gguf_file;
use candle_core::{bail, Device, Result, Tensor};
use candle_transformers::models::quantized_lfm2::ModelWeights;

use super::decoder::md_usize;

pub struct Lfm2 {
    model: ModelWeights,
    context_length: usize,
    len: usize,
    used: bool,
}

impl Lfm2 {
    pub fn from_gguf<R: std::io::Read + std::io::Seek>(
        ct: gguf_file::Content,
        r: &mut R,
    ) -> Result<Self> {
        let context_length = md_usize(&ct, "lfm2.context_length")?.unwrap_or(32_768);
        let model = ModelWeights::from_gguf(ct, r, &Device::Cpu)?;
        Ok(Self {
            model,
            context_length,
            len: 0,
            used: false,
        })
    }

    pub fn context_length(&self) -> usize {
        self.context_length
    }

    pub fn cached_len(&self) -> usize {
        self.len
    }

    pub fn clear_cache(&mut self) {
        self.len = 0;
    }

    /// Logits of the last token. Multi-token calls must start at position 0;
    /// later calls must be one token at the end of the cache.
    pub fn forward(&mut self, tokens: &[u32], pos: usize) -> Result<Vec<f32>> {
        if tokens.is_empty() {
            bail!("forward: no tokens");
        }
        if tokens.len() > 1 && pos != 0 {
            bail!(
                "lfm2: a multi-token forward must start at position 0 (its conv cache is not used)"
            );
        }
        if pos == 0 && tokens.len() == 1 && self.used {
            bail!("lfm2: cannot restart with a one-token prompt (the conv state of the previous sequence cannot be cleared); use a prompt of two or more tokens");
        }
        if pos != 0 && pos != self.len {
            bail!("lfm2: position {pos} is not the cached length {}", self.len);
        }
        if pos + tokens.len() > self.context_length {
            bail!(
                "context full: {} positions > context length {}",
                pos + tokens.len(),
                self.context_length
            );
        }
        let ids = Tensor::new(tokens, &Device::Cpu)?.unsqueeze(0)?;
        let logits = self.model.forward(&ids, pos)?;
        self.len = pos + tokens.len();
        self.used = true;
        logits.squeeze(0)?.to_vec1::<f32>()
    }
}
