//! The runtime's integration tests: one binary. Tests that need a fetched
//! model print one `skipped:` line each and pass when it is absent
//! (`python3 models/fetch.py NAME` fetches it).
#![allow(clippy::unwrap_used)]

mod agreement;
mod bench;
mod gguf_tokenizer;
mod lfm2_tiny;
mod speculative;

/// The repository root: fixtures live in `tests/fixtures/` there.
pub fn repo() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}
