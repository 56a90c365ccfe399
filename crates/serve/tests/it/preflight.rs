//! The tool calls in answers are checked against the kernel: verdicts in
//! the log and the conversation's ledger, and with blocking on, a call the
//! kernel does not allow never reaches the client.

use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::{json, Value};

use crate::mock::{self, Reply};

/// An Anthropic answer that calls one allowed tool and one the example
/// kernel denies (`no-customer-contact`).
fn two_calls() -> Value {
    json!({
        "id": "msg_2", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [
            {"type": "text", "text": "Checking the invoice, then writing to the customer."},
            {"type": "tool_use", "id": "toolu_a", "name": "get_invoice", "input": {"invoice_id": "INV-1"}},
            {"type": "tool_use", "id": "toolu_b", "name": "email_customer", "input": {"to": "jane.doe@example.com", "body": "Sorry"}}
        ],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 10, "output_tokens": 20}
    })
}

/// The same answer as a stream, the denied call's input in two pieces.
fn two_calls_streamed() -> Vec<String> {
    let ev = |name: &str, v: Value| format!("event: {name}\ndata: {v}");
    let call = |i: u64, id: &str, name: &str, pieces: &[&str]| {
        let mut out = vec![ev(
            "content_block_start",
            json!({"type": "content_block_start", "index": i, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
        )];
        for p in pieces {
            out.push(ev("content_block_delta", json!({"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": p}})));
        }
        out.push(ev(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": i}),
        ));
        out
    };
    let mut events = vec![ev(
        "message_start",
        json!({"type": "message_start", "message": {"id": "msg_3", "type": "message", "role": "assistant", "content": [], "usage": {"input_tokens": 5, "output_tokens": 1}}}),
    )];
    events.extend(call(
        0,
        "toolu_a",
        "get_invoice",
        &["{\"invoice_id\": \"INV-1\"}"],
    ));
    events.extend(call(
        1,
        "toolu_b",
        "email_customer",
        &["{\"to\": \"jane.doe@exa", "mple.com\"}"],
    ));
    events.push(ev("message_delta", json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 30}})));
    events.push(ev("message_stop", json!({"type": "message_stop"})));
    events
}

async fn post(proxy: &str, path: &str, body: Value, bypass: bool) -> reqwest::Response {
    let mut req = reqwest::Client::new()
        .post(format!("{proxy}{path}"))
        .header("x-api-key", "sk-test")
        .header("anthropic-version", "2023-06-01")
        .json(&body);
    if bypass {
        req = req.header("x-continuity-bypass", "1");
    }
    req.send().await.unwrap()
}

fn short_request() -> Value {
    json!({"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": "Resolve the dispute."}]})
}

fn ledger(dir: &std::path::Path, conversation: &str) -> Vec<Value> {
    let path = dir
        .join("conversations")
        .join(conversation)
        .join("ledger.jsonl");
    let report = continuity_core::governance::ledger::verify(&path).unwrap();
    assert!(report.ok, "{report:?}");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test]
async fn verdicts_are_recorded_and_the_answer_passes_unchanged() {
    let up = mock::start(Arc::new(|_| Reply::Json(StatusCode::OK, two_calls()))).await;
    let dir = tempfile::tempdir().unwrap();
    let proxy = mock::proxy(crate::example_config(dir.path()), &up).await;
    let resp = post(&proxy, "/v1/messages", short_request(), false).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.json::<Value>().await.unwrap(), two_calls());
    let log = crate::wait_log(dir.path(), 1).await;
    let calls = log[0]["tool_calls"]
        .as_array()
        .expect("verdicts in the log");
    let decisions: Vec<(&str, &str, bool)> = calls
        .iter()
        .map(|c| {
            (
                c["tool"].as_str().unwrap(),
                c["decision"].as_str().unwrap(),
                c["blocked"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        decisions,
        [
            ("get_invoice", "allow", false),
            ("email_customer", "deny", false)
        ]
    );
    assert_eq!(calls[1]["rule"], "prohibition:no-customer-contact");
    let conv = log[0]["conversation"].as_str().unwrap();
    let lines = ledger(dir.path(), conv);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["kind"], "preflight");
    assert_eq!(lines[1]["decision"], "deny");
    let written = std::fs::read_to_string(dir.path().join("log.jsonl")).unwrap()
        + &serde_json::to_string(&lines).unwrap();
    assert!(
        !written.contains("jane.doe"),
        "no argument value is written"
    );
}

#[tokio::test]
async fn blocking_holds_back_a_denied_call_in_a_stream() {
    let up = mock::start(Arc::new(|_| Reply::Sse(two_calls_streamed(), None))).await;
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = crate::example_config(dir.path());
    cfg.block_tool_calls = true;
    let proxy = mock::proxy(cfg, &up).await;
    let mut body = short_request();
    body["stream"] = json!(true);
    let text = post(&proxy, "/v1/messages", body, false)
        .await
        .text()
        .await
        .unwrap();
    let datas: Vec<Value> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let starts: Vec<&str> = datas
        .iter()
        .filter(|d| d["type"] == "content_block_start")
        .map(|d| d["content_block"]["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        starts,
        ["tool_use", "text"],
        "the allowed call stays, the denied one is text"
    );
    assert!(text.contains("get_invoice") && !text.contains("email_customer\",\"input"));
    assert!(text.contains("no-customer-contact"));
    let stop = datas.iter().find(|d| d["type"] == "message_delta").unwrap();
    assert_eq!(
        stop["delta"]["stop_reason"], "tool_use",
        "a call is left to run"
    );
    let log = crate::wait_log(dir.path(), 1).await;
    assert_eq!(log[0]["tool_calls"][1]["blocked"], true);
    assert_eq!(log[0]["tool_calls"][0]["blocked"], false);
    assert_eq!(log[0]["provider"]["output_tokens"], 30, "usage still read");
}

#[tokio::test]
async fn blocking_rewrites_a_whole_chat_answer_and_bypass_skips_it() {
    let reply = json!({
        "id": "chatcmpl-2", "object": "chat.completion", "model": "gpt-4o",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "email_customer", "arguments": "{\"to\": \"x\"}"}}]}}],
        "usage": {"prompt_tokens": 9, "completion_tokens": 3}
    });
    let r = reply.clone();
    let up = mock::start(Arc::new(move |_| Reply::Json(StatusCode::OK, r.clone()))).await;
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = crate::example_config(dir.path());
    cfg.block_tool_calls = true;
    let proxy = mock::proxy(cfg, &up).await;
    let request =
        json!({"model": "gpt-4o", "messages": [{"role": "user", "content": "Resolve it."}]});
    let got: Value = post(&proxy, "/v1/chat/completions", request.clone(), false)
        .await
        .json()
        .await
        .unwrap();
    let choice = &got["choices"][0];
    assert!(choice["message"].get("tool_calls").is_none(), "{got}");
    assert_eq!(choice["finish_reason"], "stop");
    assert!(choice["message"]["content"]
        .as_str()
        .unwrap()
        .contains("no-customer-contact"));
    let bypassed: Value = post(&proxy, "/v1/chat/completions", request, true)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        bypassed, reply,
        "a bypassed request's answer is not touched"
    );
    let log = crate::wait_log(dir.path(), 2).await;
    assert_eq!(log[0]["tool_calls"][0]["blocked"], true);
    assert_eq!(log[1]["tool_calls"][0]["blocked"], false);
    assert_eq!(log[1]["tool_calls"][0]["decision"], "deny");
}
