//! `continuity-models`: what joins the compaction core to the on-device
//! runtime. The LLM summarizer, the tokenizer-backed exact token counter,
//! the prompts, and the registry from a summarizer's name to a
//! [`Summarizer`].

pub mod agent;
pub mod hub;
pub mod prompts;
pub mod summarizer;
pub mod tokenizer;

use continuity_core::error::InputError;
use continuity_core::summarize::{Extractive, NoSummary, Summarizer};

pub use summarizer::{LlmSettings, LlmSummarizer, MODELS};
pub use tokenizer::TokenCounter;

/// Every summarizer name [`by_name`] knows.
pub const AVAILABLE: &[&str] = &[
    "none",
    "extractive",
    "smollm2-135m",
    "qwen2.5-0.5b",
    "gemma3-270m",
    "lfm2:PATH (any GGUF: NAME:PATH)",
];

/// Look a summarizer up by its CLI name. It is `Send`, so a caller may
/// run it on another thread (the Python binding releases the GIL).
pub fn by_name(name: &str) -> Result<Box<dyn Summarizer + Send>, InputError> {
    by_name_with(name, &LlmSettings::default())
}

/// [`by_name`], with these settings for a model-backed summarizer.
pub fn by_name_with(
    name: &str,
    settings: &LlmSettings,
) -> Result<Box<dyn Summarizer + Send>, InputError> {
    match name {
        "none" => Ok(Box::new(NoSummary)),
        "extractive" => Ok(Box::new(Extractive)),
        other => match llm_by_name(other, settings) {
            Some(Ok(s)) => Ok(Box::new(s)),
            Some(Err(e)) => Err(e),
            None => Err(InputError::UnknownSummarizer {
                name: other.to_string(),
                available: AVAILABLE.join(", "),
            }),
        },
    }
}

/// `smollm2-135m`, `qwen2.5-0.5b`, `gemma3-270m`, or `ARCH:PATH` / `NAME:PATH`
/// for a GGUF at PATH (e.g. `lfm2:/models/LFM2.5-1.2B-Q4_K_M.gguf`). `None`
/// when `name` is not an LLM summarizer name.
pub fn llm_by_name(
    name: &str,
    settings: &LlmSettings,
) -> Option<Result<LlmSummarizer, InputError>> {
    if MODELS.contains(&name) {
        return Some(LlmSummarizer::new(name, None, settings.clone()));
    }
    let (label, path) = name.split_once(':')?;
    if label.is_empty() || path.is_empty() {
        return None;
    }
    Some(LlmSummarizer::new(
        label,
        Some(std::path::Path::new(path)),
        settings.clone(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_summarizer_lists_the_available_ones() {
        let err = by_name("gpt-9")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("gpt-9") && err.contains("extractive"), "{err}");
    }
}
