//! The proxy against a mock upstream on loopback.
#![allow(clippy::unwrap_used)]

mod claude_code;
mod live;
mod mock;
mod passthrough;
mod preflight;

use std::path::{Path, PathBuf};

use continuity_serve::Config;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A config writing under `dir`, with the example's kernel and policy.
pub fn example_config(dir: &Path) -> Config {
    let now = chrono::Utc::now();
    let ex = repo().join("examples/billing-dispute");
    let mut cfg = Config::new(dir.to_path_buf()).unwrap();
    cfg.kernel = continuity_core::io::load_kernel(&ex.join("kernel.toml"), now).unwrap();
    cfg.policy = continuity_core::io::load_policy(Some(&ex.join("policy.toml"))).unwrap();
    cfg
}

/// The example session: an Anthropic request of about 12k tokens.
pub fn example_session() -> Vec<u8> {
    std::fs::read(repo().join("examples/billing-dispute/session.json")).unwrap()
}

/// Every line of the proxy's log.
pub fn log_lines(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("log.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The log is written when a response body ends; wait for `n` lines.
pub async fn wait_log(dir: &Path, n: usize) -> Vec<serde_json::Value> {
    for _ in 0..200 {
        let lines = log_lines(dir);
        if lines.len() >= n {
            return lines;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("log.jsonl has {} lines, expected {n}", log_lines(dir).len());
}
