//! On-device LLM support: model files (manifest, resolution, fetching) and
//! tokenizers built from GGUF metadata, model layers (`arch`), loading
//! (`model`), chat templates (`chat`) and generation (`generate`).

pub mod arch;
pub mod chat;
pub mod cpu;
pub mod generate;
pub mod gguf_tokenizer;
pub mod manifest;
pub mod model;
pub mod quant;
