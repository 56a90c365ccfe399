//! A conversation driven past the trigger: compacted with the kernel kept,
//! later turns spliced after the compacted prefix, never in a loop; and
//! the ways the proxy stands back (rejection, bypass, provider compaction,
//! inspect).

use std::path::Path;
use std::sync::Arc;

use axum::http::StatusCode;
use continuity_core::compact::count_transcript;
use continuity_core::error::Source;
use continuity_serve::request::{prefix_hash, Endpoint};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::mock::{self, Mock, Reply};

fn ok_upstream() -> mock::Script {
    Arc::new(|_| Reply::Json(StatusCode::OK, mock::anthropic_reply("noted")))
}

async fn post(proxy: &str, body: &[u8], extra: &[(&str, &str)]) -> reqwest::Response {
    let mut req = reqwest::Client::new()
        .post(format!("{proxy}/v1/messages"))
        .header("x-api-key", "sk-test")
        .header("content-type", "application/json");
    for (k, v) in extra {
        req = req.header(*k, *v);
    }
    let resp = req.body(body.to_vec()).send().await.unwrap();
    assert_eq!(resp.status(), 200);
    resp
}

/// Our count of a request, as the proxy counts a Claude request.
fn tokens(v: &Value) -> usize {
    let t = continuity_core::formats::parse_value(v, &Source("t".into())).unwrap();
    let c = continuity_models::TokenCounter::default_tokenizer().unwrap();
    count_transcript(&t, &c).unwrap()
}

/// The session with `turns` scripted rounds after it.
fn with_turns(base: &Value, turns: usize) -> Vec<u8> {
    let mut v = base.clone();
    let msgs = v["messages"].as_array_mut().unwrap();
    for i in 0..turns {
        msgs.push(json!({"role": "assistant", "content": [{"type": "text", "text": format!("Step {i} done: I checked ledger row {i} against invoice INV-{i:04} and the amounts agree; the processor status for charge ch_{i:05} is captured. Next I will look at row {}.", i + 1)}]}));
        msgs.push(json!({"role": "user", "content": [{"type": "text", "text": format!("Turn {i}: continue with row {} and report any mismatch between the invoice total and the captured amount, with the credit note that explains it if there is one.", i + 1)}]}));
    }
    serde_json::to_vec(&v).unwrap()
}

fn sha(v: &Value, n: usize) -> String {
    prefix_hash(v, Endpoint::Messages, n).unwrap()
}

fn kernel_kept(dir: &Path, sent: &Value) {
    let cfg = crate::example_config(dir);
    let system = sent["system"].to_string();
    let sys_text: String = match &sent["system"] {
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => panic!("no system: {system}"),
    };
    assert!(
        sys_text.contains(&cfg.kernel.render()),
        "the rendered kernel is in the system verbatim"
    );
    for c in cfg.kernel.constraints() {
        assert!(
            sys_text.contains(&c.text),
            "constraint {} kept verbatim",
            c.id
        );
    }
}

#[tokio::test]
async fn past_the_trigger_compacted_with_the_kernel_then_spliced() {
    let up = mock::start(ok_upstream()).await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = crate::example_config(dir.path());
    let (trigger, target) = (cfg.trigger(), cfg.policy.compaction.target());
    let proxy = mock::proxy(cfg, &up).await;
    let original = crate::example_session();
    let base: Value = serde_json::from_slice(&original).unwrap();
    assert!(tokens(&base) > trigger, "the example is over the trigger");
    post(&proxy, &original, &[]).await;
    let first = up.last().json();
    assert_ne!(up.last().body.as_ref(), original.as_slice(), "compacted");
    kernel_kept(dir.path(), &first);
    assert!(
        tokens(&first) <= target,
        "{} tokens after, target {target}",
        tokens(&first)
    );
    let log = crate::wait_log(dir.path(), 1).await;
    assert_eq!(log[0]["action"], "compacted");
    assert!(dir.path().join("conversations").read_dir().unwrap().count() == 1);

    // The next turn is not compacted: the prefix we sent is sent again, unchanged.
    let next = with_turns(&base, 1);
    post(&proxy, &next, &[]).await;
    let second = up.last().json();
    let n = first["messages"].as_array().unwrap().len();
    assert_eq!(
        sha(&second, n),
        sha(&first, n),
        "the cached prefix is the compacted request's"
    );
    let prefix_bytes = |v: &Value| -> Vec<u8> {
        let mut out = serde_json::to_vec(&v["system"]).unwrap();
        out.extend(serde_json::to_vec(&v["tools"]).unwrap());
        for m in &v["messages"].as_array().unwrap()[..n] {
            out.extend(serde_json::to_vec(m).unwrap());
        }
        out
    };
    assert_eq!(
        Sha256::digest(prefix_bytes(&second)),
        Sha256::digest(prefix_bytes(&first))
    );
    assert_eq!(second["messages"].as_array().unwrap().len(), n + 2);
    let log = crate::wait_log(dir.path(), 2).await;
    assert_eq!(log[1]["action"], "spliced");
}

#[tokio::test]
async fn fifty_turns_compact_in_steps_never_in_a_loop() {
    let up = mock::start(ok_upstream()).await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = crate::example_config(dir.path());
    let (trigger, target) = (cfg.trigger(), cfg.policy.compaction.target());
    let proxy = mock::proxy(cfg, &up).await;
    let base: Value = serde_json::from_slice(&crate::example_session()).unwrap();
    for turn in 0..50 {
        post(&proxy, &with_turns(&base, turn), &[]).await;
    }
    let log = crate::wait_log(dir.path(), 50).await;
    let actions: Vec<&str> = log.iter().map(|l| l["action"].as_str().unwrap()).collect();
    let compacted: Vec<usize> = (0..50).filter(|i| actions[*i] == "compacted").collect();
    eprintln!("compacted at turns {compacted:?}");
    assert!(compacted.len() >= 2, "{actions:?}");
    assert!(
        compacted.windows(2).all(|w| w[1] - w[0] >= 3),
        "no compaction loop: {compacted:?}"
    );
    for r in up.all() {
        let sent = r.json();
        assert!(
            tokens(&sent) <= trigger,
            "every request sent is at or under the trigger"
        );
    }
    for i in &compacted {
        assert!(tokens(&up.all()[*i].json()) <= target);
        kernel_kept(dir.path(), &up.all()[*i].json());
    }
    assert!(
        actions
            .iter()
            .all(|a| matches!(*a, "compacted" | "spliced")),
        "{actions:?}"
    );
}

#[tokio::test]
async fn a_refused_rewrite_is_resent_as_the_original() {
    let original = crate::example_session();
    // The upstream refuses whatever carries a rendered kernel.
    let up: Mock = mock::start(Arc::new(move |r| {
        if !String::from_utf8_lossy(&r.body).contains("[MISSION KERNEL") {
            Reply::Json(StatusCode::OK, mock::anthropic_reply("original"))
        } else {
            Reply::Json(StatusCode::BAD_REQUEST, json!({"type": "error", "error": {"type": "invalid_request_error", "message": "nope"}}))
        }
    }))
    .await;
    let dir = tempfile::tempdir().unwrap();
    let proxy = mock::proxy(crate::example_config(dir.path()), &up).await;
    let resp = post(&proxy, &original, &[]).await;
    assert_eq!(
        resp.json::<Value>().await.unwrap(),
        mock::anthropic_reply("original")
    );
    let all = up.all();
    assert_eq!(all.len(), 2);
    assert_ne!(all[0].body.as_ref(), original.as_slice());
    assert_eq!(all[1].body.as_ref(), original.as_slice());
    let log = crate::wait_log(dir.path(), 1).await;
    assert_eq!(log[0]["action"], "fallback");
    assert!(log[0]["note"].as_str().unwrap().contains("nope"));
    // The conversation stands down: the next turn goes as it came.
    let next = with_turns(&serde_json::from_slice(&original).unwrap(), 1);
    up.received.lock().unwrap().clear();
    post(&proxy, &next, &[]).await;
    assert_eq!(up.all().len(), 1);
    assert_eq!(up.last().body.as_ref(), next.as_slice());
}

#[tokio::test]
async fn bypass_header_and_provider_compaction_pass_through() {
    let up = mock::start(ok_upstream()).await;
    let dir = tempfile::tempdir().unwrap();
    let proxy = mock::proxy(crate::example_config(dir.path()), &up).await;
    let original = crate::example_session();
    post(&proxy, &original, &[("x-continuity-bypass", "1")]).await;
    assert_eq!(up.last().body.as_ref(), original.as_slice());
    assert!(!up.last().headers.contains_key("x-continuity-bypass"));

    let mut v: Value = serde_json::from_slice(&original).unwrap();
    v["context_management"] = json!({"edits": [{"type": "compact_20260112"}]});
    let managed = serde_json::to_vec(&v).unwrap();
    post(&proxy, &managed, &[]).await;
    assert_eq!(up.last().body.as_ref(), managed.as_slice());

    let mut v: Value = serde_json::from_slice(&original).unwrap();
    v["messages"][1]["content"] = json!([{"type": "compaction", "content": "earlier work"}]);
    let blocks = serde_json::to_vec(&v).unwrap();
    post(&proxy, &blocks, &[]).await;
    assert_eq!(up.last().body.as_ref(), blocks.as_slice());
    let log = crate::wait_log(dir.path(), 3).await;
    let actions: Vec<&str> = log.iter().map(|l| l["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["bypass", "step-aside", "step-aside"]);
}

/// Claude Code sends `clear_thinking` edits with every request: the turns
/// are left as they are, so the proxy still compacts them; clearing tool
/// results is the provider's own management, and the proxy steps aside.
#[tokio::test]
async fn a_thinking_clear_is_not_provider_compaction() {
    let up = mock::start(ok_upstream()).await;
    let dir = tempfile::tempdir().unwrap();
    let proxy = mock::proxy(crate::example_config(dir.path()), &up).await;
    let mut v: Value = serde_json::from_slice(&crate::example_session()).unwrap();
    v["context_management"] =
        json!({"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]});
    post(&proxy, &serde_json::to_vec(&v).unwrap(), &[]).await;
    let sent = up.last().json();
    assert_eq!(
        sent["context_management"], v["context_management"],
        "kept as sent"
    );
    assert_ne!(sent["messages"], v["messages"], "compacted");

    let mut v: Value = serde_json::from_slice(&crate::example_session()).unwrap();
    v["system"] = json!("another conversation");
    v["context_management"] = json!({"edits": [{"type": "clear_thinking_20251015"}, {"type": "clear_tool_uses_20250919"}]});
    let tools_cleared = serde_json::to_vec(&v).unwrap();
    post(&proxy, &tools_cleared, &[]).await;
    assert_eq!(up.last().body.as_ref(), tools_cleared.as_slice());
    let log = crate::wait_log(dir.path(), 2).await;
    let actions: Vec<&str> = log.iter().map(|l| l["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["compacted", "step-aside"]);
}

#[tokio::test]
async fn inspect_writes_what_it_would_send_and_sends_the_original() {
    let up = mock::start(ok_upstream()).await;
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = crate::example_config(dir.path());
    cfg.inspect = true;
    let proxy = mock::proxy(cfg, &up).await;
    let original = crate::example_session();
    post(&proxy, &original, &[]).await;
    assert_eq!(up.last().body.as_ref(), original.as_slice());
    let log = crate::wait_log(dir.path(), 1).await;
    assert_eq!(log[0]["action"], "inspected");
    let conv = log[0]["conversation"].as_str().unwrap();
    let would = dir
        .path()
        .join("inspect")
        .join(conv)
        .join("1/would_send.json");
    let would: Value = serde_json::from_slice(&std::fs::read(would).unwrap()).unwrap();
    kernel_kept(dir.path(), &would);
}
