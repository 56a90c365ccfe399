//! On-device LLM support: model files (manifest, resolution, fetching) and
//! tokenizers built from GGUF metadata.

pub mod gguf_tokenizer;
pub mod manifest;
