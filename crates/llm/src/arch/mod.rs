//! Model layers (no tokenizer, chat or session logic).
//!
//! [`decoder`] is our own quantized decoder for the `llama`, `qwen2` and
//! `gemma3` GGUF architectures; it replaces candle-transformers'
//! `quantized_llama` / `quantized_qwen2` / `quantized_gemma3`, which cap
//! positions at 4,096 (llama), copy the whole KV cache every step
//! (`Tensor::cat` + `repeat_kv`), and for Gemma 3 use SiLU instead of GELU,
//! drop the sliding window during decode, mask one position too many in the
//! window, mask out the whole cache in a chunked prefill, and build 131k-position
//! rotary tables per layer. [`lfm2`] wraps candle-transformers'
//! `quantized_lfm2`. [`tensors`] reads the weights with one copy each, or
//! maps them from a [`prepared`] file.

pub mod decoder;
pub mod kv;
pub mod lfm2;
pub mod prepared;
pub mod tensors;
