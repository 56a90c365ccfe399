//! Conversations of many shapes, written in each of the three formats, must
//! compact into valid requests under every strategy.

use continuity_core::compact::Strategy;
use continuity_core::error::Source;
use continuity_core::formats;
use continuity_core::{MissionKernel, RetentionPolicy};
use serde_json::{json, Value};

/// An abstract conversation: per round, assistant text (maybe), N parallel
/// calls, and whether one of the results is an error.
#[derive(Clone, Debug)]
struct Shape {
    rounds: usize,
    calls: usize,
    text: bool,
    error: bool,
    final_user_text: bool,
}

fn record(r: usize, k: usize) -> Value {
    json!({"item_id": format!("IT-{r}{k}"), "status": "open", "owner_email": "sam@corp.example", "note": "n".repeat(50 * k)})
}

fn anthropic(s: &Shape) -> Value {
    let mut messages = vec![json!({"role": "user", "content": "Mission: audit the items."})];
    for r in 0..s.rounds {
        let mut content = Vec::new();
        if s.text {
            content.push(json!({"type": "text", "text": format!("Round {r}: IT-{r}0 is open and must be checked.")}));
        }
        for k in 0..s.calls {
            content.push(json!({"type": "tool_use", "id": format!("t{r}_{k}"), "name": "get_item", "input": {"item_id": format!("IT-{r}{k}")}}));
        }
        if content.is_empty() {
            content.push(json!({"type": "text", "text": "Thinking."}));
        }
        messages.push(json!({"role": "assistant", "content": content}));
        let mut results: Vec<Value> = (0..s.calls)
            .map(|k| {
                let mut b = json!({"type": "tool_result", "tool_use_id": format!("t{r}_{k}"), "content": record(r, k).to_string()});
                if s.error && k == 0 {
                    b["is_error"] = json!(true);
                }
                b
            })
            .collect();
        if results.is_empty() {
            results.push(json!({"type": "text", "text": "go on"}));
        }
        messages.push(json!({"role": "user", "content": results}));
    }
    if s.final_user_text {
        if let Some(last) = messages.last_mut() {
            if let Some(c) = last["content"].as_array_mut() {
                c.push(json!({"type": "text", "text": "Please continue."}));
            }
        }
    }
    json!({"model": "m", "max_tokens": 64, "system": [{"type": "text", "text": "You audit items."}], "tools": [{"name": "get_item", "input_schema": {"type": "object"}}], "messages": messages})
}

fn openai(s: &Shape) -> Value {
    let mut messages = vec![
        json!({"role": "developer", "content": "You audit items."}),
        json!({"role": "user", "content": "Mission: audit the items."}),
    ];
    for r in 0..s.rounds {
        let calls: Vec<Value> = (0..s.calls)
            .map(|k| json!({"id": format!("call_{r}_{k}"), "type": "function", "function": {"name": "get_item", "arguments": json!({"item_id": format!("IT-{r}{k}")}).to_string()}}))
            .collect();
        let mut m = json!({"role": "assistant", "content": if s.text { json!(format!("Round {r}: IT-{r}0 is open.")) } else { Value::Null }});
        if !calls.is_empty() {
            m["tool_calls"] = Value::Array(calls);
        } else if !s.text {
            m["content"] = json!("Thinking.");
        }
        messages.push(m);
        for k in 0..s.calls {
            messages.push(json!({"role": "tool", "tool_call_id": format!("call_{r}_{k}"), "content": record(r, k).to_string()}));
        }
        if s.calls == 0 {
            messages.push(json!({"role": "user", "content": "go on"}));
        }
    }
    if s.final_user_text {
        messages.push(
            json!({"role": "user", "content": [{"type": "text", "text": "Please continue."}]}),
        );
    }
    json!({"model": "m", "messages": messages, "tools": [{"type": "function", "function": {"name": "get_item", "parameters": {"type": "object"}}}]})
}

fn pydantic(s: &Shape) -> Value {
    let mut messages = vec![
        json!({"kind": "request", "instructions": "You audit items.", "parts": [{"part_kind": "user-prompt", "content": "Mission: audit the items."}]}),
    ];
    for r in 0..s.rounds {
        let mut parts = Vec::new();
        if s.text {
            parts.push(
                json!({"part_kind": "text", "content": format!("Round {r}: IT-{r}0 is open.")}),
            );
        }
        for k in 0..s.calls {
            parts.push(json!({"part_kind": "tool-call", "tool_name": "get_item", "args": {"item_id": format!("IT-{r}{k}")}, "tool_call_id": format!("p{r}_{k}")}));
        }
        if parts.is_empty() {
            parts.push(json!({"part_kind": "text", "content": "Thinking."}));
        }
        messages.push(json!({"kind": "response", "parts": parts}));
        let mut results: Vec<Value> = (0..s.calls)
            .map(|k| {
                if s.error && k == 0 {
                    json!({"part_kind": "retry-prompt", "tool_name": "get_item", "tool_call_id": format!("p{r}_{k}"), "content": "bad id"})
                } else {
                    json!({"part_kind": "tool-return", "tool_name": "get_item", "tool_call_id": format!("p{r}_{k}"), "content": record(r, k)})
                }
            })
            .collect();
        if results.is_empty() {
            results.push(json!({"part_kind": "user-prompt", "content": "go on"}));
        }
        messages
            .push(json!({"kind": "request", "instructions": "You audit items.", "parts": results}));
    }
    if s.final_user_text {
        if let Some(parts) = messages.last_mut().and_then(|m| m["parts"].as_array_mut()) {
            parts.push(json!({"part_kind": "user-prompt", "content": "Please continue."}));
        }
    }
    Value::Array(messages)
}

fn kernel() -> MissionKernel {
    MissionKernel::from_toml(
        "id = \"A\"\nversion = \"1\"\nobjective = \"Audit.\"\npermissions = []\n[[prohibition]]\nid = \"no-close\"\ntext = \"Never close items.\"\ntools = [\"close_item\"]\neffect = \"escalate\"\nsource = \"policy://a\"\nversion = \"1\"\nscope = []\n",
        &Source("k".into()),
        chrono::Utc::now(),
    )
    .unwrap()
}

fn policy() -> RetentionPolicy {
    RetentionPolicy::from_toml(
        "[compaction]\nstub_threshold_chars = 120\n[evidence.pins]\nget_item = [\"item_id\", \"status\"]\n[personal_data]\nfields = [\"owner_email\"]\n",
        &Source("p".into()),
    )
    .unwrap()
}

#[test]
fn every_shape_in_every_format_compacts_validly() {
    let (k, p) = (kernel(), policy());
    let mut checked = 0;
    for rounds in 0..4 {
        for calls in 0..4 {
            for (text, error, final_user_text) in [
                (true, false, false),
                (false, true, false),
                (true, true, true),
                (false, false, true),
            ] {
                let shape = Shape {
                    rounds,
                    calls,
                    text,
                    error,
                    final_user_text,
                };
                for (name, v) in [
                    ("anthropic", anthropic(&shape)),
                    ("openai", openai(&shape)),
                    ("pydantic", pydantic(&shape)),
                ] {
                    let t = formats::parse_value(&v, &Source(name.into()))
                        .unwrap_or_else(|e| panic!("{name} {shape:?}: {e}"));
                    formats::check_conversation(&t)
                        .unwrap_or_else(|e| panic!("input {name} {shape:?}: {e}"));
                    for strategy in Strategy::ALL {
                        let c = continuity_test_support::run(&t, &k, &p, strategy, "extractive");
                        let json = formats::render(&c.request);
                        let back = formats::parse_value(&json, &Source("out".into()))
                            .unwrap_or_else(|e| panic!("{name} {shape:?} {strategy:?}: {e}"));
                        formats::check_conversation(&back)
                            .unwrap_or_else(|e| panic!("{name} {shape:?} {strategy:?}: {e}"));
                        let text = serde_json::to_string(&json).unwrap();
                        assert!(
                            !text.contains("sam@corp.example"),
                            "{name} {shape:?}: personal data leaked"
                        );
                        if strategy.kernel_in_instructions() {
                            assert!(
                                back.instructions_text().contains("Never close items."),
                                "{name} {shape:?}"
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 4 * 4 * 4 * 3 * 4);
}
