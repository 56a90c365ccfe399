//! Exact token counts with a real tokenizer: a `tokenizers` tokenizer, or
//! OpenAI's o200k_base (`tiktoken-rs`, its ranks compiled in), or either
//! times a calibrated factor.
//!
//! The bundled fallback is SmolLM2-135M's tokenizer, built from its GGUF
//! vocabulary and shipped in `tokenizers/`; both work offline with no
//! download.

use std::path::Path;

use continuity_core::digest::sha256_hex;
use continuity_core::error::{Error, InputError, Source};
use continuity_core::tokens::TokenCount;

pub const DEFAULT_TOKENIZER_NAME: &str = "smollm2-135m";
const DEFAULT_TOKENIZER_JSON: &[u8] = include_bytes!("../../../tokenizers/smollm2-135m.json");

/// The name `--tokenizer` takes for OpenAI's o200k_base.
pub const O200K_NAME: &str = "o200k_base";

pub struct TokenCounter {
    backend: Backend,
    name: String,
    pub sha256: String,
    /// Counts already made: one compaction counts the same parts for the
    /// calibration, the budget and the side-by-side, and a live
    /// conversation sends the same prefix every turn.
    memo: Memo,
}

/// Counts by text, emptied when its texts pass [`MEMO_BYTES`] so a
/// long-running proxy stays bounded.
#[derive(Default)]
struct Memo(std::sync::Mutex<MemoCounts>);

#[derive(Default)]
struct MemoCounts {
    counts: std::collections::HashMap<String, usize>,
    bytes: usize,
}

/// The most text the memo holds before it starts again.
const MEMO_BYTES: usize = 64 << 20;

impl Memo {
    fn get(&self, text: &str) -> Option<usize> {
        self.0.lock().ok()?.counts.get(text).copied()
    }

    fn put(&self, text: &str, n: usize) {
        let Ok(mut memo) = self.0.lock() else {
            return;
        };
        if memo.bytes + text.len() > MEMO_BYTES {
            *memo = MemoCounts::default();
        }
        memo.bytes += text.len();
        memo.counts.insert(text.to_string(), n);
    }
}

enum Backend {
    Hf(Box<tokenizers::Tokenizer>),
    O200k(&'static tiktoken_rs::CoreBPE),
    /// Another counter's counts times a factor (a calibrated stand-in).
    Scaled(Box<TokenCounter>, f64),
}

/// o200k_base, built once from the ranks compiled into `tiktoken-rs`.
fn o200k() -> Result<&'static tiktoken_rs::CoreBPE, String> {
    static BPE: std::sync::OnceLock<Result<tiktoken_rs::CoreBPE, String>> =
        std::sync::OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(Clone::clone)
}

impl TokenCounter {
    /// The bundled default tokenizer.
    pub fn default_tokenizer() -> Result<Self, Error> {
        Self::from_bytes(DEFAULT_TOKENIZER_JSON, DEFAULT_TOKENIZER_NAME)
            .map_err(|e| Error::Internal(format!("bundled tokenizer: {e}")))
    }

    /// OpenAI's o200k_base (GPT-4o, GPT-4.1, GPT-5, o1/o3/o4, Codex).
    pub fn o200k_base() -> Result<Self, Error> {
        Ok(TokenCounter {
            backend: Backend::O200k(o200k().map_err(Error::Tokenizer)?),
            name: O200K_NAME.into(),
            sha256: String::new(),
            memo: Memo::default(),
        })
    }

    /// This counter's counts times `factor`, under `name`.
    pub fn scaled(self, factor: f64, name: String) -> Self {
        TokenCounter {
            sha256: self.sha256.clone(),
            backend: Backend::Scaled(Box::new(self), factor),
            name,
            // The inner counter memoizes; the scaling is a multiplication.
            memo: Memo::default(),
        }
    }

    /// `--tokenizer`: `o200k_base`, a `tokenizer.json` file, a GGUF file, or
    /// the name of a model in the manifest (its GGUF is resolved and its
    /// vocabulary used).
    pub fn from_spec(spec: &str) -> Result<Self, InputError> {
        let path = Path::new(spec);
        if spec == O200K_NAME && !path.exists() {
            return Self::o200k_base().map_err(|e| InputError::InvalidTokenizer {
                file: Source(spec.to_string()),
                message: e.to_string(),
            });
        }
        let is_gguf = path.extension().is_some_and(|e| e == "gguf");
        if is_gguf
            || (!path.exists()
                && continuity_llm::manifest::manifest().is_ok_and(|m| m.get(spec).is_some()))
        {
            let gguf = if is_gguf {
                path.to_path_buf()
            } else {
                crate::hub::resolve_model(spec, None).map_err(|e| InputError::InvalidTokenizer {
                    file: Source(spec.to_string()),
                    message: e.to_string(),
                })?
            };
            let tokenizer =
                continuity_llm::gguf_tokenizer::tokenizer_from_gguf(&gguf).map_err(|e| {
                    InputError::InvalidTokenizer {
                        file: Source::path(&gguf),
                        message: e.to_string(),
                    }
                })?;
            let name = if is_gguf {
                path.file_stem()
                    .map(|s| s.to_string_lossy().to_string())
                    .unwrap_or_default()
            } else {
                spec.to_string()
            };
            return Ok(Self::from_tokenizer(tokenizer, &name));
        }
        Self::from_file(path)
    }

    /// A `tokenizer.json` file.
    pub fn from_file(path: &Path) -> Result<Self, InputError> {
        let source = Source::path(path);
        let bytes = std::fs::read(path).map_err(|e| InputError::Unreadable {
            file: source.clone(),
            message: e.to_string(),
        })?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_else(|| "tokenizer".into());
        Self::from_bytes(&bytes, &name).map_err(|message| InputError::InvalidTokenizer {
            file: source,
            message,
        })
    }

    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Self, String> {
        let mut tokenizer = tokenizers::Tokenizer::from_bytes(bytes).map_err(|e| e.to_string())?;
        // Counting needs every token: no truncation, no padding.
        tokenizer
            .with_truncation(None)
            .map_err(|e| e.to_string())?
            .with_padding(None);
        Ok(TokenCounter {
            backend: Backend::Hf(Box::new(tokenizer)),
            name: name.to_string(),
            sha256: sha256_hex(bytes),
            memo: Memo::default(),
        })
    }

    pub fn from_tokenizer(mut tokenizer: tokenizers::Tokenizer, name: &str) -> Self {
        if tokenizer.with_truncation(None).is_ok() {
            tokenizer.with_padding(None);
        }
        TokenCounter {
            backend: Backend::Hf(Box::new(tokenizer)),
            name: name.to_string(),
            sha256: String::new(),
            memo: Memo::default(),
        }
    }
}

/// Text below which `count_each` counts on the calling thread: a
/// reference archive's request (about 100 KB) counts faster alone.
const PARALLEL_BYTES: usize = 256 * 1024;

impl TokenCount for TokenCounter {
    fn count(&self, text: &str) -> Result<usize, Error> {
        if text.is_empty() {
            return Ok(0);
        }
        // No special tokens: we count the text itself, not a chat template.
        let n = match &self.backend {
            Backend::Hf(t) => {
                if let Some(n) = self.memo.get(text) {
                    return Ok(n);
                }
                t.encode_fast(text, false)
                    .map(|e| e.len())
                    .map_err(|e| Error::Tokenizer(e.to_string()))?
            }
            Backend::O200k(bpe) => {
                if let Some(n) = self.memo.get(text) {
                    return Ok(n);
                }
                bpe.encode_ordinary(text).len()
            }
            // Up, not to the nearest: the budget sums the counts of many
            // parts, and rounding each down would let the whole overshoot.
            Backend::Scaled(inner, factor) => {
                return Ok((inner.count(text)? as f64 * factor).ceil() as usize);
            }
        };
        self.memo.put(text, n);
        Ok(n)
    }

    /// In parallel when there is enough to count: tokenizing is a
    /// compaction's largest cost and each text's count is independent of
    /// the others, but below [`PARALLEL_BYTES`] waking the pool's threads
    /// costs more than it saves.
    fn count_each(&self, texts: &[&str]) -> Result<Vec<usize>, Error> {
        use rayon::prelude::*;
        let bytes: usize = texts.iter().map(|t| t.len()).sum();
        if bytes < PARALLEL_BYTES {
            return texts.iter().map(|t| self.count(t)).collect();
        }
        texts.par_iter().map(|t| self.count(t)).collect()
    }

    fn name(&self) -> &str {
        &self.name
    }
}
