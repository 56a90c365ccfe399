//! What a compaction adds to a request through the proxy: a synthetic
//! coding conversation of about 150k tokens (bundled SmolLM2 tokenizer, as
//! the proxy counts a Claude request), over the 120k live trigger, sent
//! straight to a mock upstream and through `continuity serve` with the
//! extractive summarizer. Each sample is a new conversation, so each one
//! compacts; the time is to the last byte of the reply.
//!
//! Run: `cargo bench -p continuity-serve --bench serve_compaction`
//! (`-- SAMPLES ROUNDS` to change 5 and 160). One conversation first, untimed,
//! loads the tokenizer as a running proxy already has.

#![allow(clippy::unwrap_used)]

#[path = "serve_common.rs"]
mod serve_common;

use std::time::{Duration, Instant};

use axum::response::IntoResponse;
use continuity_core::compact::count_transcript;
use continuity_core::error::Source;
use serde_json::{json, Value};

async fn upstream() -> impl IntoResponse {
    let reply = json!({
        "id": "msg_1", "type": "message", "role": "assistant",
        "model": "claude-sonnet-4-5", "stop_reason": "end_turn",
        "content": [{"type": "text", "text": "noted"}],
        "usage": {"input_tokens": 1, "output_tokens": 1}
    });
    ([("content-type", "application/json")], reply.to_string())
}

/// One round of a coding session: the agent runs a test command and reads
/// its log (about 500 tokens of varied lines).
fn round(i: usize) -> [Value; 2] {
    let id = format!("toolu_{i:05}");
    let log: Vec<String> = (0..24)
        .map(|j| {
            let n = i * 31 + j * 7;
            format!(
                "test module_{i}::case_{j}_checks_value_{n} ... ok ({}.{:02} ms, seed {})",
                n % 17,
                n % 100,
                n * 7919 % 100_003
            )
        })
        .collect();
    [
        json!({"role": "assistant", "content": [
            {"type": "text", "text": format!("Running the tests of module {i} after the change to its parser.")},
            {"type": "tool_use", "id": id, "name": "Bash",
             "input": {"command": format!("cargo test -p module_{i} 2>&1 | tail -30")}}
        ]}),
        json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": id,
             "content": format!("{}\ntest result: ok. 24 passed; 0 failed", log.join("\n"))}
        ]}),
    ]
}

/// A conversation of `rounds` rounds; `sample` makes its first message,
/// and so its conversation, new.
fn conversation(sample: usize, rounds: usize) -> Value {
    let mut messages = vec![json!({"role": "user", "content": format!(
        "Session {sample}: make every module's parser accept trailing commas, run each module's tests after its change, and do not change any public function's signature."
    )})];
    messages.extend((0..rounds).flat_map(round));
    messages.push(json!({"role": "assistant", "content": "All modules so far pass."}));
    messages.push(json!({"role": "user", "content": "Go on with the next module."}));
    json!({"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": messages})
}

fn tokens(v: &Value) -> usize {
    let t = continuity_core::formats::parse_value(v, &Source("bench".into()))
        .unwrap_or_else(|e| panic!("{e}"));
    let counter = continuity_models::TokenCounter::default_tokenizer().unwrap();
    count_transcript(&t, &counter).unwrap()
}

async fn send(base: &str, body: &[u8]) -> Duration {
    let t = Instant::now();
    let resp = reqwest::Client::new()
        .post(format!("{base}/v1/messages"))
        .header("x-api-key", "sk-bench")
        .header("anthropic-version", "2023-06-01")
        .header("content-type", "application/json")
        .body(body.to_vec())
        .send()
        .await
        .unwrap();
    assert!(resp.status().is_success(), "{}", resp.status());
    resp.bytes().await.unwrap();
    t.elapsed()
}

fn main() {
    let args = serve_common::numeric_args();
    let samples = args.first().copied().unwrap_or(5).max(1);
    let rounds = args.get(1).copied().unwrap_or(160);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let up = serve_common::listen(axum::Router::new().fallback(upstream)).await;
        let dir = tempfile::tempdir().unwrap();
        let proxy = serve_common::proxy_to(&up, dir.path(), |cfg| {
            cfg.policy.compaction.trigger_tokens = 120_000;
        })
        .await;
        let first = conversation(0, rounds);
        println!(
            "a conversation of {} tokens (smollm2-135m), trigger 120000, extractive summarizer",
            tokens(&first)
        );
        send(
            &proxy,
            &serde_json::to_vec(&conversation(samples, rounds)).unwrap(),
        )
        .await;
        let mut added = Vec::new();
        for sample in 0..samples {
            let body = serde_json::to_vec(&conversation(sample, rounds)).unwrap();
            let direct = send(&up, &body).await;
            let through = send(&proxy, &body).await;
            added.push(through.saturating_sub(direct));
        }
        added.sort();
        let compacted = std::fs::read_to_string(dir.path().join("log.jsonl")).unwrap();
        let compactions = compacted.matches("\"compacted\"").count().saturating_sub(1);
        println!(
            "{samples} samples ({compactions} of them compacted): added median {:.2?}, max {:.2?}",
            added[added.len() / 2],
            added[added.len() - 1]
        );
    });
}
