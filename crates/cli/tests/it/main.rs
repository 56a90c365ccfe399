//! The binary's integration tests: one binary. Command lines, exit codes,
//! golden outputs, and every test that reads the published reference runs
//! (`reference`), so that one line names what was skipped without them.
#![allow(clippy::unwrap_used)]

mod cli;
mod evaluate;
mod golden;
mod governance;
mod hooks;
mod personal_data;
mod reference;
mod replay;
#[allow(dead_code)]
#[path = "../../../eval/tests/it/replay_support.rs"]
mod replay_support;
mod retention;
mod sessions;

use continuity_models::TokenCounter;

pub fn bin() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("continuity").unwrap()
}

/// The bundled tokenizer, loaded once per test binary.
pub fn tokenizer() -> &'static TokenCounter {
    static TOKENIZER: std::sync::OnceLock<TokenCounter> = std::sync::OnceLock::new();
    TOKENIZER.get_or_init(|| TokenCounter::default_tokenizer().expect("bundled tokenizer"))
}
