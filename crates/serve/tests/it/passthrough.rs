//! Requests the proxy does not transform go upstream byte for byte, and
//! answers come back as they arrive.

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use futures_util::StreamExt;
use serde_json::json;
use tokio::sync::Notify;

use crate::mock::{self, Reply};

/// Odd spacing, key order, unknown fields and block types, a signature:
/// none of it may change.
const ODD: &str = r#"{ "model":"claude-sonnet-4-5",  "max_tokens": 64,
  "messages": [ {"role":"user","content":"hi \u00e9"},
    {"role":"assistant","content":[{"type":"thinking","thinking":"x","signature":"c2ln"},{"type":"text","text":"hello"}]},
    {"role":"user","content":[{"type":"text","text":"go on","cache_control":{"type":"ephemeral"}}]}],
  "future_field": {"z": 1, "a": [1.50, 2e3]} }"#;

#[tokio::test]
async fn passthrough_is_byte_identical_with_headers() {
    let up = mock::start(Arc::new(|_| {
        Reply::Json(StatusCode::OK, mock::anthropic_reply("ok"))
    }))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let proxy = mock::proxy(crate::example_config(dir.path()), &up).await;
    let resp = reqwest::Client::new()
        .post(format!("{proxy}/v1/messages?beta=true"))
        .header("x-api-key", "sk-test")
        .header("anthropic-version", "2023-06-01")
        .header("anthropic-beta", "prompt-caching-2024-07-31")
        .header("content-type", "application/json")
        .body(ODD)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let body: serde_json::Value = resp.json().await.unwrap();
    assert_eq!(body, mock::anthropic_reply("ok"));
    let got = up.last();
    assert_eq!(got.body.as_ref(), ODD.as_bytes());
    assert_eq!(got.path, "/v1/messages");
    assert_eq!(got.headers["x-api-key"], "sk-test");
    assert_eq!(got.headers["anthropic-beta"], "prompt-caching-2024-07-31");
    let log = crate::wait_log(dir.path(), 1).await;
    assert_eq!(log[0]["action"], "passthrough");
    assert_eq!(log[0]["provider"]["input_total"], 1050);
    assert_eq!(log[0]["provider"]["cache_read_tokens"], 900);
    // No key is stored anywhere.
    let text = std::fs::read_to_string(dir.path().join("log.jsonl")).unwrap();
    assert!(!text.contains("sk-test"));
}

#[tokio::test]
async fn streaming_chunks_arrive_before_the_upstream_finishes() {
    let gate = Arc::new(Notify::new());
    let g = gate.clone();
    let up = mock::start(Arc::new(move |_| {
        Reply::Sse(mock::anthropic_events("streamed"), Some(g.clone()))
    }))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let proxy = mock::proxy(crate::example_config(dir.path()), &up).await;
    let body = json!({"model": "claude-sonnet-4-5", "max_tokens": 64, "stream": true,
        "messages": [{"role": "user", "content": "stream please"}]});
    let resp = reqwest::Client::new()
        .post(format!("{proxy}/v1/messages"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let mut stream = resp.bytes_stream();
    // The upstream holds every event after the first until we have it: a
    // proxy that buffered the whole body would never deliver it.
    let first = tokio::time::timeout(Duration::from_secs(5), stream.next())
        .await
        .expect("the first event arrived while the upstream still held the rest")
        .unwrap()
        .unwrap();
    assert!(String::from_utf8_lossy(&first).contains("message_start"));
    gate.notify_one();
    let mut rest = Vec::new();
    while let Some(c) = stream.next().await {
        rest.extend_from_slice(&c.unwrap());
    }
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&first),
        String::from_utf8_lossy(&rest)
    );
    let want: String = mock::anthropic_events("streamed")
        .iter()
        .map(|e| format!("{e}\n\n"))
        .collect();
    assert_eq!(all, want);
    let log = crate::wait_log(dir.path(), 1).await;
    assert_eq!(log[0]["provider"]["output_tokens"], 9);
    assert_eq!(log[0]["provider"]["cache_read_tokens"], 700);
}

#[tokio::test]
async fn openai_chat_passes_through_and_other_paths_are_proxied() {
    let up = mock::start(Arc::new(|r| {
        if r.path == "/v1/models" {
            Reply::Json(StatusCode::OK, json!({"data": []}))
        } else {
            Reply::Json(StatusCode::OK, mock::chat_reply("fine"))
        }
    }))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let proxy = mock::proxy(crate::example_config(dir.path()), &up).await;
    let sent = r#"{"model":"gpt-4o","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hi"}]}"#;
    let client = reqwest::Client::new();
    let resp = client
        .post(format!("{proxy}/v1/chat/completions"))
        .header("authorization", "Bearer sk-x")
        .body(sent)
        .send()
        .await
        .unwrap();
    assert_eq!(
        resp.json::<serde_json::Value>().await.unwrap(),
        mock::chat_reply("fine")
    );
    assert_eq!(up.last().body.as_ref(), sent.as_bytes());
    assert_eq!(up.last().headers["authorization"], "Bearer sk-x");
    let models = client
        .get(format!("{proxy}/v1/models"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        models.json::<serde_json::Value>().await.unwrap(),
        json!({"data": []})
    );
    assert_eq!(up.last().path, "/v1/models");
    let log = crate::wait_log(dir.path(), 2).await;
    assert_eq!(log[0]["provider"]["input_total"], 40);
    assert_eq!(log[0]["provider"]["cache_read_tokens"], 32);
}
