//! Exact token counts with a real tokenizer (`tokenizers` crate).
//!
//! The default is SmolLM2-135M's tokenizer, built from its GGUF vocabulary and
//! shipped in `tokenizers/`, so counting works offline with no download.

use std::path::Path;

use continuity_core::digest::sha256_hex;
use continuity_core::error::{Error, InputError, Source};
use continuity_core::tokens::TokenCount;

pub const DEFAULT_TOKENIZER_NAME: &str = "smollm2-135m";
const DEFAULT_TOKENIZER_JSON: &[u8] = include_bytes!("../../../tokenizers/smollm2-135m.json");

pub struct TokenCounter {
    tokenizer: tokenizers::Tokenizer,
    name: String,
    pub sha256: String,
}

impl TokenCounter {
    /// The bundled default tokenizer.
    pub fn default_tokenizer() -> Result<Self, Error> {
        Self::from_bytes(DEFAULT_TOKENIZER_JSON, DEFAULT_TOKENIZER_NAME)
            .map_err(|e| Error::Internal(format!("bundled tokenizer: {e}")))
    }

    /// `--tokenizer`: a `tokenizer.json` file, a GGUF file, or the name of a
    /// model in the manifest (its GGUF is resolved and its vocabulary used).
    pub fn from_spec(spec: &str) -> Result<Self, InputError> {
        let path = Path::new(spec);
        let is_gguf = path.extension().is_some_and(|e| e == "gguf");
        if is_gguf
            || (!path.exists()
                && continuity_llm::manifest::manifest().is_ok_and(|m| m.get(spec).is_some()))
        {
            let gguf = if is_gguf {
                path.to_path_buf()
            } else {
                continuity_llm::manifest::resolve_model(spec, None).map_err(|e| {
                    InputError::InvalidTokenizer {
                        file: Source(spec.to_string()),
                        message: e.to_string(),
                    }
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
            tokenizer,
            name: name.to_string(),
            sha256: sha256_hex(bytes),
        })
    }

    pub fn from_tokenizer(mut tokenizer: tokenizers::Tokenizer, name: &str) -> Self {
        if tokenizer.with_truncation(None).is_ok() {
            tokenizer.with_padding(None);
        }
        TokenCounter {
            tokenizer,
            name: name.to_string(),
            sha256: String::new(),
        }
    }
}

impl TokenCount for TokenCounter {
    fn count(&self, text: &str) -> Result<usize, Error> {
        if text.is_empty() {
            return Ok(0);
        }
        // No special tokens: we count the text itself, not a chat template.
        self.tokenizer
            .encode(text, false)
            .map(|e| e.len())
            .map_err(|e| Error::Tokenizer(e.to_string()))
    }

    fn name(&self) -> &str {
        &self.name
    }
}
