//! Export the tokenizer of a manifest model as `tokenizer.json`.
//!
//! `cargo run --release --example export_tokenizer -- MODEL_NAME OUT.json [GGUF_PATH]`
//!
//! The GGUF is found like everywhere else (`resolve_model`): explicit path,
//! then the continuity model cache, then the Hugging Face cache, then a
//! download from the hub.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use continuity_llm::gguf_tokenizer::tokenizer_from_gguf;
use continuity_models::hub::resolve_model;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (name, out, explicit) = match args.as_slice() {
        [name, out] => (name, PathBuf::from(out), None),
        [name, out, gguf] => (name, PathBuf::from(out), Some(PathBuf::from(gguf))),
        _ => {
            eprintln!("usage: export_tokenizer MODEL_NAME OUT.json [GGUF_PATH]");
            return ExitCode::from(2);
        }
    };
    match run(name, &out, explicit.as_deref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(
    name: &str,
    out: &Path,
    explicit: Option<&Path>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let gguf = resolve_model(name, explicit)?;
    let tok = tokenizer_from_gguf(&gguf)?;
    // Compact JSON: the pretty form is several times larger for no reader benefit.
    tok.save(out, false)?;
    println!("{name}: {} -> {}", gguf.display(), out.display());
    Ok(())
}
