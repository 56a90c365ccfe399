//! Format adapters: detection, faithful round trips, and the tool-call rules.

use continuity_core::compact::Strategy;
use continuity_core::error::Source;
use continuity_core::formats;
use continuity_core::transcript::{Format, Message, Part, Role};
use serde_json::{json, Value};

fn read(path: &str) -> Value {
    serde_json::from_str(
        &std::fs::read_to_string(continuity_test_support::repo().join(path)).unwrap(),
    )
    .unwrap()
}

#[test]
fn detects_each_format() {
    let src = Source("t".into());
    let cases = [
        ("examples/billing-dispute/session.json", Format::Anthropic),
        ("tests/fixtures/openai/ops-export.json", Format::OpenAi),
        ("tests/fixtures/pydantic/small.json", Format::PydanticAi),
    ];
    for (path, format) in cases {
        let t = formats::parse_value(&read(path), &src).unwrap();
        assert_eq!(t.format, format, "{path}");
        formats::check_conversation(&t).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    for bad in [json!({"foo": 1}), json!([1, 2]), json!("text"), json!([])] {
        let err = formats::parse_value(&bad, &src).unwrap_err().to_string();
        assert!(err.contains("unknown request format"), "{err}");
    }
}

#[test]
fn anthropic_and_pydantic_round_trip_exactly() {
    let src = Source("t".into());
    for path in [
        "examples/billing-dispute/session.json",
        "tests/fixtures/pydantic/small.json",
    ] {
        let v = read(path);
        let t = formats::parse_value(&v, &src).unwrap();
        let mut back = formats::render(&t);
        // Pydantic instructions are written on every request.
        if t.format == Format::PydanticAi {
            let mut original = v.clone();
            for (m, o) in back
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .zip(original.as_array_mut().unwrap())
            {
                if m["kind"] == "request" {
                    m["instructions"] = o.get("instructions").cloned().unwrap_or(Value::Null);
                }
            }
            assert_eq!(back, original, "{path}");
        } else {
            assert_eq!(back, v, "{path}");
        }
    }
}

/// Claude Code sends system messages between turns: still a Messages
/// request, the message a system one, written back as it came.
#[test]
fn an_anthropic_system_message_between_turns() {
    let src = Source("t".into());
    let v = json!({"model": "claude-opus-4-8", "max_tokens": 64, "system": [{"type": "text", "text": "You are a coding agent."}],
        "tools": [{"name": "Bash", "description": "run", "input_schema": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Fix the build."}]},
            {"role": "system", "content": "Available agent types: Explore."},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}]});
    let t = formats::parse_value(&v, &src).unwrap();
    assert_eq!(t.format, Format::Anthropic);
    assert_eq!(t.messages[1].role, Role::System);
    assert_eq!(formats::render(&t), v);
    let chat = json!({"model": "gpt-4o", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]});
    assert_eq!(
        formats::parse_value(&chat, &src).unwrap().format,
        Format::OpenAi
    );
}

#[test]
fn openai_round_trips_to_the_same_transcript() {
    let src = Source("t".into());
    let v = read("tests/fixtures/openai/ops-export.json");
    let t = formats::parse_value(&v, &src).unwrap();
    let again = formats::parse_value(&formats::render(&t), &src).unwrap();
    assert_eq!(t, again);
    // Tool results stay right after the assistant message that called them.
    let msgs = formats::render(&t)["messages"].as_array().unwrap().clone();
    for (i, m) in msgs.iter().enumerate() {
        if m["role"] == "tool" {
            let opener = msgs[..i]
                .iter()
                .rev()
                .find(|x| x["role"] != "tool")
                .unwrap();
            let id = m["tool_call_id"].as_str().unwrap();
            assert!(opener["tool_calls"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["id"] == id));
        }
    }
}

#[test]
fn orphaned_results_and_unanswered_calls_are_caught() {
    let src = Source("t".into());
    let mut t = formats::parse_value(&read("examples/billing-dispute/session.json"), &src).unwrap();
    // Remove an assistant message with tool calls: its results become orphans.
    let i = t.messages.iter().position(|m| m.has_tool_calls()).unwrap();
    let mut orphaned = t.clone();
    orphaned.messages.remove(i);
    orphaned.messages.remove(i - 1);
    assert!(formats::check_conversation(&orphaned)
        .unwrap_err()
        .contains("orphaned"));
    // Drop one result: its call is no longer answered.
    let results = &mut t.messages[i + 1].parts;
    let first = results
        .iter()
        .position(|p| p.part.answers().is_some())
        .unwrap();
    results.remove(first);
    let err = formats::check_conversation(&t).unwrap_err();
    assert!(err.contains("not answered"), "{err}");
    // Alternation.
    let mut doubled =
        formats::parse_value(&read("examples/billing-dispute/session.json"), &src).unwrap();
    doubled
        .messages
        .insert(0, Message::new(Role::User, vec![Part::Text("hi".into())]));
    assert!(formats::check_conversation(&doubled)
        .unwrap_err()
        .contains("alternate"));
}

#[test]
fn compacted_outputs_are_valid_in_every_format() {
    let cases = [
        (
            "examples/billing-dispute/session.json",
            "examples/billing-dispute/kernel.toml",
            "examples/billing-dispute/policy.toml",
        ),
        (
            "tests/fixtures/openai/ops-export.json",
            "tests/fixtures/openai/ops-export.kernel.toml",
            "tests/fixtures/openai/ops-export.policy.toml",
        ),
        (
            "tests/fixtures/pydantic/small.json",
            "tests/fixtures/pydantic/small.kernel.toml",
            "tests/fixtures/pydantic/small.policy.toml",
        ),
    ];
    let src = Source("out".into());
    for (input, kernel, policy) in cases {
        let t =
            continuity_test_support::load_transcript(&continuity_test_support::repo().join(input));
        let kernel =
            continuity_test_support::load_kernel(&continuity_test_support::repo().join(kernel));
        let policy =
            continuity_test_support::load_policy(&continuity_test_support::repo().join(policy));
        for strategy in [Strategy::Governed, Strategy::SummaryOnly] {
            let c = continuity_test_support::run(&t, &kernel, &policy, strategy, "extractive");
            let json = formats::render(&c.request);
            let back = formats::parse_value(&json, &src)
                .unwrap_or_else(|e| panic!("{input} {strategy:?}: {e}"));
            assert_eq!(back.format, t.format);
            formats::check_conversation(&back)
                .unwrap_or_else(|e| panic!("{input} {strategy:?}: {e}"));
            let calls: usize = back.messages.iter().map(|m| m.tool_calls().count()).sum();
            let results: usize = back
                .messages
                .iter()
                .flat_map(|m| &m.parts)
                .filter(|p| p.part.answers().is_some())
                .count();
            assert_eq!(
                calls, results,
                "{input} {strategy:?}: calls and results differ"
            );
        }
    }
}

#[test]
fn a_request_body_with_an_orphaned_result_is_bad_input_naming_the_file() {
    use continuity_core::error::InputError;
    use continuity_core::formats::At;
    let bodies = [
        json!({"model": "m", "max_tokens": 10, "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "gone", "content": "x"}]}]}),
        json!({"model": "m", "messages": [
            {"role": "user", "content": "hi"},
            {"role": "tool", "tool_call_id": "gone", "content": "x"}]}),
        json!({"model": "m", "input": [
            {"role": "user", "content": "hi"},
            {"type": "function_call_output", "call_id": "gone", "output": "x"}]}),
    ];
    for body in bodies {
        let bytes = body.to_string().into_bytes();
        let e = formats::read(&bytes, &Source("orphan.json".into()), At::Last).unwrap_err();
        assert!(matches!(e, InputError::InvalidRequest { .. }), "{e}");
        let text = e.to_string();
        assert!(
            text.starts_with("orphan.json: invalid") && text.contains("`gone`"),
            "{text}"
        );
    }
}
