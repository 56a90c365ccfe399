//! Claude Code itself (`claude -p`) through the proxy, against the mock
//! upstream: a scripted eight-step task whose requests pass the trigger.
//! Skipped, with a note, when no `claude` binary is found
//! (`continuity_test_support::claude_code`; `.ci/run` installs the npm
//! package `@anthropic-ai/claude-code`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use continuity_test_support::claude_code::{
    claude_command, claude_or_skip, output_within, text_events, tool_events,
};
use serde_json::{json, Value};

use crate::mock::{self, Received, Reply};

const STEPS: usize = 8;
const TRIGGER: usize = 40_000;

/// The step the agent is at: one past the highest `echo step-K` among the
/// commands it has run, as the request holds them (a compacted request
/// holds them in its digest). The scripted model repeats a step only if
/// the request lost it.
fn next_step(body: &Value) -> usize {
    let text = body["messages"].to_string();
    text.match_indices("echo step-")
        .filter_map(|(i, m)| {
            let digits: String = text[i + m.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse::<usize>().ok()
        })
        .max()
        .map_or(0, |k| k + 1)
}

/// The events of one of `continuity_test_support::claude_code`'s streams,
/// one to an item, as the mock plays them.
fn each_event(stream: String) -> Vec<String> {
    stream
        .split_terminator("\n\n")
        .map(str::to_string)
        .collect()
}

/// The scripted model: a Bash call per step (its output about 9k
/// tokens), then a final answer; any request without tools gets text.
fn script(steps_seen: Arc<Mutex<Vec<usize>>>) -> mock::Script {
    Arc::new(move |r: &Received| {
        let body: Value = serde_json::from_slice(&r.body).unwrap_or_default();
        let step = next_step(&body);
        let id = format!("msg_{step}_{}", r.body.len());
        let text = |t: &str| each_event(text_events(&id, t));
        if r.path.contains("count_tokens") {
            return Reply::Json(axum::http::StatusCode::OK, json!({"input_tokens": 100}));
        }
        if body["tools"].as_array().is_none_or(Vec::is_empty) {
            return Reply::Sse(text("Title"), None);
        }
        steps_seen.lock().unwrap().push(step);
        if step >= STEPS {
            return Reply::Sse(text("All steps done."), None);
        }
        let input = json!({"command": format!("echo step-{step}; seq 1 2000"), "description": format!("step {step}")});
        let call = tool_events(&id, &format!("toolu_step{step}"), "Bash", &input);
        Reply::Sse(each_event(call), None)
    })
}

#[tokio::test]
async fn claude_p_completes_a_task_compacted_past_the_trigger() {
    let Some(bin) =
        claude_or_skip("claude_code::claude_p_completes_a_task_compacted_past_the_trigger")
    else {
        return;
    };
    let steps = Arc::new(Mutex::new(Vec::new()));
    let up = mock::start(script(steps.clone())).await;
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = continuity_serve::Config::new(dir.path().join("data")).unwrap();
    cfg.policy.compaction.trigger_tokens = TRIGGER;
    let proxy = mock::proxy(cfg, &up).await;
    let (home, work) = (dir.path().join("home"), dir.path().join("work"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let cmd = claude_command(
        &bin,
        &home,
        &work,
        &proxy,
        &[
            "Run the eight steps.",
            "--allowedTools",
            "Bash",
            "--max-turns",
            "30",
        ],
    );
    let out = tokio::task::spawn_blocking(move || output_within(cmd, Duration::from_secs(300)))
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "claude -p: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("All steps done."), "{stdout}");
    // Every step once, in order: no compaction lost a command the agent ran.
    assert_eq!(*steps.lock().unwrap(), (0..=STEPS).collect::<Vec<_>>());
    check_log(&dir.path().join("data"), &up);
}

/// Requests not compacted went as they came; once past the trigger every
/// request went compacted or spliced, at or under the trigger, with
/// Claude Code's own system prompt kept verbatim.
fn check_log(data: &std::path::Path, up: &mock::Mock) {
    let log: Vec<Value> = std::fs::read_to_string(data.join("log.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|l: &Value| l["endpoint"] == "messages")
        .collect();
    let action = |l: &Value| l["action"].as_str().unwrap_or("").to_string();
    let compactions = log.iter().filter(|l| action(l) == "compacted").count();
    eprintln!(
        "claude -p through the proxy: {} requests, actions {:?}",
        log.len(),
        log.iter()
            .map(|l| format!(
                "{} {} {} {} {}",
                action(l),
                l["bytes_in"],
                l["ours"]["tokens"],
                l["compaction"],
                l["conversation"]
            ))
            .collect::<Vec<_>>()
    );
    assert!(compactions >= 1, "{log:?}");
    // A step adds less than the headroom: the turn after a compaction
    // reuses its prefix.
    for pair in log.windows(2) {
        assert!(
            !(action(&pair[0]) == "compacted" && action(&pair[1]) == "compacted"),
            "two compactions in a row: {log:?}"
        );
    }
    for l in &log {
        match action(l).as_str() {
            "passthrough" => assert_eq!(l["bytes_in"], l["bytes_sent"]),
            "compacted" => assert!(
                l["compaction"]["after"].as_u64().unwrap()
                    <= l["compaction"]["target"].as_u64().unwrap()
            ),
            "spliced" => assert!(
                l["ours"]["tokens"].as_u64().unwrap() as usize <= TRIGGER,
                "{l}"
            ),
            other => panic!("unexpected action {other}: {l}"),
        }
    }
    let sent: Vec<Value> = up
        .all()
        .iter()
        .filter(|r| r.path.starts_with("/v1/messages"))
        .map(Received::json)
        .filter(|v| v["tools"].as_array().is_some_and(|t| !t.is_empty()))
        .collect();
    let system_texts: Vec<String> = sent[0]["system"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["text"].as_str().map(str::to_string))
        .collect();
    for v in &sent {
        let system = v["system"].to_string();
        for t in &system_texts {
            let escaped = serde_json::to_string(t).unwrap();
            let inner = &escaped[1..escaped.len() - 1];
            assert!(
                system.contains(inner),
                "Claude Code's system prompt kept verbatim"
            );
        }
    }
}
