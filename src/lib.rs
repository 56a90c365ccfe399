pub fn x(){}

/// On-device summarizer support: model files and GGUF tokenizers.
pub mod llm;
