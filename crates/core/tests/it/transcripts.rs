//! Session transcripts and Responses requests on small cases written here:
//! each line type, each point, each repair, each error.

use continuity_core::error::{InputError, Source};
use continuity_core::formats::{self, At};
use continuity_core::policy::RetentionPolicy;
use continuity_core::redact::Redactor;
use continuity_core::transcript::{Format, Part, Role};
use serde_json::{json, Value};

fn lines(items: &[Value]) -> Vec<u8> {
    let mut out = String::new();
    for i in items {
        out.push_str(&i.to_string());
        out.push('\n');
    }
    out.into_bytes()
}

fn src() -> Source {
    Source("session.jsonl".into())
}

fn cc(kind: &str, uuid: &str, parent: Option<&str>, message: Value) -> Value {
    json!({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "s1",
           "version": "2.1.39", "isSidechain": false, "message": message})
}

/// A Claude Code session: a title line, a call and its result, a thinking
/// block, bookkeeping lines, an unknown line, an auto compaction, then more.
fn claude_session() -> Vec<Value> {
    vec![
        json!({"type": "summary", "summary": "Fix the build", "leafUuid": "u9"}),
        cc(
            "user",
            "u1",
            None,
            json!({"role": "user", "content": "Fix the build in crates/app; run cargo test."}),
        ),
        cc(
            "assistant",
            "a1",
            Some("u1"),
            json!({"role": "assistant", "model": "claude-x", "content": [
            {"type": "thinking", "thinking": "Look at the error first.", "signature": "SIG-1"},
            {"type": "text", "text": "Reading the log."},
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cargo test"}}]}),
        ),
        json!({"type": "progress", "uuid": "p1", "parentUuid": "a1", "sessionId": "s1"}),
        cc(
            "user",
            "u2",
            Some("a1"),
            json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "error[E0425]: cannot find value `x` in src/lib.rs:42"}]}),
        ),
        json!({"type": "file-history-snapshot", "messageId": "m1", "snapshot": {}}),
        json!({"type": "hologram", "uuid": "h1", "sessionId": "s1"}),
        json!({"type": "system", "subtype": "compact_boundary", "uuid": "b1", "parentUuid": null,
               "logicalParentUuid": "u2", "sessionId": "s1",
               "compactMetadata": {"trigger": "auto", "preTokens": 1234}}),
        json!({"type": "user", "uuid": "u3", "parentUuid": "b1", "sessionId": "s1", "isCompactSummary": true,
               "message": {"role": "user", "content": "Summary: the build fails at src/lib.rs:42 (E0425)."}}),
        cc(
            "assistant",
            "a2",
            Some("u3"),
            json!({"role": "assistant", "model": "claude-x", "content": [
            {"type": "tool_use", "id": "t2", "name": "Edit", "input": {"file": "src/lib.rs"}}]}),
        ),
        cc(
            "user",
            "u4",
            Some("a2"),
            json!({"role": "user", "content": "Also check the docs."}),
        ),
    ]
}

#[test]
fn a_claude_code_session_reads_at_each_point() {
    let bytes = lines(&claude_session());
    let doc = formats::open(&bytes, &src()).unwrap();
    assert_eq!(doc.kind(), "claude-code");
    let c = &doc.compactions()[0];
    assert_eq!((c.line, c.before_line, c.after_line), (8, 7, 9));
    assert_eq!(c.trigger.as_deref(), Some("auto"));
    assert_eq!(c.recorded_tokens_before, Some(1234));
    assert!(c.summary.contains("E0425"));

    // Last: the chain restarts at the boundary; the open call is answered.
    let last = doc.read(At::Last).unwrap();
    let t = &last.transcript;
    assert_eq!(t.format, Format::Anthropic);
    formats::check_conversation(t).unwrap();
    assert_eq!(t.messages.len(), 3);
    assert!(t.messages[0].parts[0]
        .part
        .visible_text()
        .starts_with("Summary:"));
    let answered = &t.messages[2].parts[0].part;
    assert!(matches!(answered, Part::ToolResult { id, is_error: true, .. } if id == "t2"));
    let w: Vec<String> = last.warnings().iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter()
            .any(|w| w.contains("line 7") && w.contains("`hologram`")),
        "{w:?}"
    );
    assert!(
        w.iter()
            .any(|w| w.contains("`t2`") && w.contains("no recorded result")),
        "{w:?}"
    );
    assert_eq!(last.origin.skipped.get("progress"), Some(&1));
    assert_eq!(last.origin.skipped.get("summary"), Some(&1));
    assert_eq!(last.origin.version.as_deref(), Some("2.1.39"));

    // Before the compaction: the whole first span, thinking kept whole.
    let before = doc.read(At::BeforeCompaction(1)).unwrap().transcript;
    formats::check_conversation(&before).unwrap();
    assert_eq!(before.messages.len(), 3);
    let out = formats::render(&before);
    assert_eq!(out["messages"][1]["content"][0]["signature"], "SIG-1");
    assert_eq!(out["max_tokens"], 32_000);
    assert_eq!(out["model"], "claude-x");
    assert_eq!(out["tools"][0]["name"], "Bash");
    // The same as asking for its line.
    assert_eq!(doc.read(At::Line(7)).unwrap().transcript, before);
    // At line 3 the call is still open: the last message may end on a call.
    let open = doc.read(At::Line(3)).unwrap().transcript;
    assert_eq!(open.messages.last().unwrap().role, Role::Assistant);

    for (at, want) in [
        (At::Line(99), "past the end"),
        (At::BeforeCompaction(2), "records 1 compaction"),
        (At::Line(1), "no conversation"),
    ] {
        let e = doc.read(at).unwrap_err().to_string();
        assert!(e.contains("session.jsonl") && e.contains(want), "{e}");
    }
}

#[test]
fn a_claude_code_branch_is_read_along_its_own_chain() {
    let bytes = lines(&[
        cc(
            "user",
            "u1",
            None,
            json!({"role": "user", "content": "first try"}),
        ),
        cc(
            "assistant",
            "a1",
            Some("u1"),
            json!({"role": "assistant", "content": [{"type": "text", "text": "abandoned"}]}),
        ),
        cc(
            "user",
            "u2",
            Some("u1"),
            json!({"role": "user", "content": "edited prompt"}),
        ),
        cc(
            "assistant",
            "a2",
            Some("u1"),
            json!({"role": "assistant", "content": [{"type": "text", "text": "kept"}]}),
        ),
    ]);
    let t = formats::read(&bytes, &src(), At::Last).unwrap().transcript;
    let text: Vec<String> = t
        .messages
        .iter()
        .map(|m| m.parts[0].part.visible_text())
        .collect();
    assert_eq!(text, ["first try", "kept"]);
}

#[test]
fn a_side_chain_transcript_is_its_own_conversation() {
    let mut a = cc(
        "user",
        "u1",
        None,
        json!({"role": "user", "content": "Summarize this."}),
    );
    a["isSidechain"] = true.into();
    let mut b = cc(
        "assistant",
        "a1",
        Some("u1"),
        json!({"role": "assistant", "content": [{"type": "text", "text": "<summary>done</summary>"}]}),
    );
    b["isSidechain"] = true.into();
    let t = formats::read(&lines(&[a, b]), &src(), At::Last)
        .unwrap()
        .transcript;
    assert_eq!(t.messages.len(), 2);
}

#[test]
fn broken_lines_are_errors_naming_the_line_or_a_cut_last_line() {
    let good = cc("user", "u1", None, json!({"role": "user", "content": "hi"}));
    let mut bytes = lines(std::slice::from_ref(&good));
    bytes.extend_from_slice(b"{\"type\": \"user\", \"uuid\"\n");
    bytes.extend(lines(std::slice::from_ref(&good)));
    let e = formats::read(&bytes, &src(), At::Last).unwrap_err();
    assert!(
        matches!(e, InputError::MalformedJson { line: 2, .. }),
        "{e}"
    );

    // A last line cut short (the agent stopped mid-write): skipped, said.
    let mut cut = lines(std::slice::from_ref(&good));
    cut.extend_from_slice(b"{\"type\": \"assistant\", \"uuid\": \"a");
    let r = formats::read(&cut, &src(), At::Last).unwrap();
    assert!(
        r.warnings()[0].to_string().contains("line 2"),
        "{:?}",
        r.warnings()
    );

    let no_message = json!({"type": "assistant", "uuid": "a1", "sessionId": "s1"});
    let e = formats::read(&lines(&[good, no_message]), &src(), At::Last).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("session.jsonl: line 2") && text.contains("message"),
        "{text}"
    );
}

fn codex(kind: &str, payload: Value) -> Value {
    json!({"timestamp": "2026-01-01T00:00:00Z", "type": kind, "payload": payload})
}

fn msg(role: &str, text: &str) -> Value {
    let block = if role == "assistant" {
        "output_text"
    } else {
        "input_text"
    };
    json!({"type": "message", "role": role, "content": [{"type": block, "text": text}]})
}

fn codex_session() -> Vec<Value> {
    vec![
        codex(
            "session_meta",
            json!({"id": "s", "cli_version": "0.125.0", "instructions": "You are Codex."}),
        ),
        codex(
            "response_item",
            msg(
                "user",
                "<environment_context>cwd=/repo</environment_context>",
            ),
        ),
        codex(
            "turn_context",
            json!({"model": "gpt-5", "effort": "high", "summary": "auto"}),
        ),
        codex(
            "response_item",
            msg("user", "Make tests pass in /repo/src/main.rs"),
        ),
        codex(
            "response_item",
            json!({"type": "reasoning", "summary": [{"type": "summary_text", "text": "plan"}], "encrypted_content": "ENC-1"}),
        ),
        codex(
            "response_item",
            json!({"type": "function_call", "name": "shell", "call_id": "c1", "arguments": "{\"command\":[\"cargo\",\"test\"]}"}),
        ),
        codex(
            "event_msg",
            json!({"type": "token_count", "info": {"last_token_usage": {"input_tokens": 900}}}),
        ),
        codex(
            "response_item",
            json!({"type": "function_call_output", "call_id": "c1", "output": "2 failed"}),
        ),
        codex(
            "response_item",
            json!({"type": "ghost_snapshot", "ghost_commit": {}}),
        ),
        codex(
            "response_item",
            json!({"type": "custom_tool_call", "name": "apply_patch", "call_id": "c2", "input": "*** Begin Patch"}),
        ),
        codex(
            "response_item",
            json!({"type": "custom_tool_call_output", "call_id": "c2", "output": "ok"}),
        ),
        codex("mystery", json!({})),
        codex(
            "compacted",
            json!({"message": "Summary: tests fixed in src/main.rs."}),
        ),
        codex("response_item", msg("user", "Now the docs.")),
        codex(
            "response_item",
            json!({"type": "function_call", "name": "shell", "call_id": "c3", "arguments": "{}"}),
        ),
    ]
}

#[test]
fn a_codex_rollout_reads_at_each_point() {
    let bytes = lines(&codex_session());
    let doc = formats::open(&bytes, &src()).unwrap();
    assert_eq!(doc.kind(), "codex-rollout");
    let c = &doc.compactions()[0];
    assert_eq!((c.line, c.before_line), (13, 12));
    assert_eq!(c.trigger.as_deref(), Some("local"));
    assert_eq!(c.recorded_tokens_before, Some(900));

    let before = doc.read(At::BeforeCompaction(1)).unwrap();
    let t = &before.transcript;
    assert_eq!(t.format, Format::Responses);
    formats::check_conversation(t).unwrap();
    let out = formats::render(t);
    assert_eq!(out["model"], "gpt-5");
    assert_eq!(out["instructions"], "You are Codex.");
    assert_eq!(out["reasoning"]["effort"], "high");
    assert_eq!(out["include"], json!(["reasoning.encrypted_content"]));
    let input = out["input"].as_array().unwrap();
    let kinds: Vec<&str> = input.iter().map(|i| i["type"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "message",
            "message",
            "reasoning",
            "function_call",
            "function_call_output",
            "custom_tool_call",
            "custom_tool_call_output"
        ]
    );
    assert_eq!(input[2]["encrypted_content"], "ENC-1");
    assert!(before
        .warnings()
        .iter()
        .any(|w| w.to_string().contains("line 12") && w.message.contains("`mystery`")));
    assert_eq!(before.origin.skipped.get("event_msg/token_count"), Some(&1));

    // After: the context (read as instructions), the user's messages, the
    // summary, then the rest; the last call stays open.
    let last = doc.read(At::Last).unwrap().transcript;
    formats::check_conversation(&last).unwrap();
    assert_eq!(
        last.instructions,
        [
            "You are Codex.",
            "<environment_context>cwd=/repo</environment_context>"
        ]
    );
    let texts: Vec<String> = last
        .messages
        .iter()
        .map(|m| m.parts[0].part.visible_text())
        .collect();
    assert_eq!(texts[0], "Make tests pass in /repo/src/main.rs");
    assert_eq!(texts[1], "Summary: tests fixed in src/main.rs.");
    assert_eq!(texts[2], "Now the docs.");
    assert_eq!(last.messages.len(), 4);
}

#[test]
fn a_remote_codex_compaction_replaces_the_history() {
    let mut items = codex_session()[..8].to_vec();
    items.push(codex(
        "compacted",
        json!({"message": "", "replacement_history": [
            msg("user", "Make tests pass"),
            {"type": "compaction", "encrypted_content": "OPAQUE"}
        ]}),
    ));
    items.push(codex("response_item", msg("user", "go on")));
    let doc = formats::open(&lines(&items), &src()).unwrap();
    assert_eq!(doc.compactions()[0].trigger.as_deref(), Some("remote"));
    let t = doc.read(At::Last).unwrap().transcript;
    let out = formats::render(&t);
    assert_eq!(
        out["input"][1],
        json!({"type": "compaction", "encrypted_content": "OPAQUE"})
    );
    assert_eq!(out["input"].as_array().unwrap().len(), 3);
}

fn token_count(input: u64, reasoning: u64) -> Value {
    codex(
        "event_msg",
        json!({"type": "token_count", "info": {"last_token_usage": {
            "input_tokens": input, "reasoning_output_tokens": reasoning}}}),
    )
}

fn codex_call(id: &str) -> [Value; 3] {
    [
        codex(
            "response_item",
            json!({"type": "reasoning", "summary": [], "encrypted_content": "gAAA"}),
        ),
        codex(
            "response_item",
            json!({"type": "function_call", "name": "shell", "call_id": id, "arguments": "{}"}),
        ),
        codex(
            "response_item",
            json!({"type": "function_call_output", "call_id": id, "output": "ok"}),
        ),
    ]
}

/// The provider feeds a turn's earlier reasoning back to each later call
/// and drops it at the next user message; a count written after that
/// message belongs to the turn that ended.
#[test]
fn a_codex_call_records_the_reasoning_of_its_turn_so_far() {
    let mut items = vec![codex("response_item", msg("user", "fix it"))];
    items.extend(codex_call("c1"));
    items.push(token_count(1000, 40));
    items.extend(codex_call("c2"));
    items.push(token_count(1100, 60));
    items.push(codex("response_item", msg("assistant", "done")));
    items.push(codex("response_item", msg("user", "now the docs")));
    // The answer's count, written late: the old turn's.
    items.push(token_count(1200, 500));
    items.extend(codex_call("c3"));
    items.push(token_count(1300, 7));
    items.extend(codex_call("c4"));
    items.push(token_count(1400, 0));
    let doc = formats::open(&lines(&items), &src()).unwrap();
    let hidden: Vec<(u64, u64)> = doc
        .recorded_usage()
        .iter()
        .map(|u| (u.input_tokens, u.hidden_reasoning_tokens))
        .collect();
    assert_eq!(
        hidden,
        [(1000, 0), (1100, 40), (1200, 100), (1300, 0), (1400, 7)]
    );
}

#[test]
fn an_early_codex_rollout_is_read_too() {
    let bytes = lines(&[
        json!({"id": "s", "timestamp": "2025-05-01", "instructions": "Be brief."}),
        json!({"record_type": "state"}),
        msg("user", "list files"),
        json!({"type": "function_call", "name": "shell", "call_id": "c1", "arguments": "{}"}),
        json!({"type": "function_call_output", "call_id": "c1", "output": "a b"}),
    ]);
    let r = formats::read(&bytes, &src(), At::Last).unwrap();
    assert_eq!(r.origin.format, "codex-rollout");
    assert_eq!(r.transcript.instructions, ["Be brief."]);
    assert_eq!(r.transcript.messages.len(), 3);
}

#[test]
fn json_lines_of_no_known_agent_are_refused() {
    let bytes = lines(&[json!({"event": "x"}), json!({"event": "y"})]);
    let e = formats::open(&bytes, &src()).unwrap_err().to_string();
    assert!(
        e.contains("session.jsonl") && e.contains("neither a Claude Code"),
        "{e}"
    );
}

fn responses_request() -> Value {
    json!({
        "model": "gpt-5",
        "instructions": "You fix builds.",
        "input": [
            {"role": "developer", "content": "Use the shell."},
            {"role": "user", "content": "Fix the build; my email is ada@quill.example"},
            {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Ask ada@quill.example later."}], "encrypted_content": "ENC"},
            {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "shell", "arguments": "{\"cmd\": \"make\"}"},
            {"type": "function_call_output", "call_id": "c1", "output": "ok"},
            {"type": "compaction", "id": "cmp_1", "encrypted_content": "STATE"},
            {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed", "content": [{"type": "output_text", "text": "Done.", "annotations": []}]},
            {"type": "shiny_new_item", "x": 1}
        ],
        "tools": [{"type": "function", "name": "shell", "parameters": {"type": "object"}}],
        "store": false
    })
}

#[test]
fn a_responses_request_round_trips_and_detects() {
    let v = responses_request();
    let doc = formats::open(v.to_string().as_bytes(), &Source("r.json".into())).unwrap();
    assert_eq!(doc.kind(), "openai-responses");
    let r = doc.read(At::Last).unwrap();
    assert!(r.warnings()[0].message.contains("`shiny_new_item`"));
    let t = &r.transcript;
    assert_eq!(t.instructions, ["You fix builds.", "Use the shell."]);
    formats::check_conversation(t).unwrap();
    assert_eq!(formats::render(t), v);
    // A plain string input too.
    let s = json!({"model": "gpt-5", "input": "hello"});
    let t = formats::parse_value(&s, &Source("s".into())).unwrap();
    assert_eq!(formats::render(&t), s);
    // A request body has one point only.
    let e = doc.read(At::Line(2)).unwrap_err().to_string();
    assert!(e.contains("one point only"), "{e}");
}

#[test]
fn redacted_reasoning_is_dropped_and_compaction_state_kept() {
    let t = formats::parse_value(&responses_request(), &Source("r".into())).unwrap();
    let policy = RetentionPolicy::default();
    let mut r = Redactor::new(&policy.personal_data).unwrap();
    let (out, log) = r.redact_transcript(&t);
    assert!(!log.is_empty());
    let json = formats::render(&out);
    let text = json.to_string();
    assert!(!text.contains("ada@quill.example"), "{text}");
    assert!(
        !text.contains("ENC"),
        "the altered reasoning item is not written"
    );
    assert!(
        text.contains("STATE"),
        "compaction state is carried untouched"
    );
    formats::check_conversation(&formats::parse_value(&json, &Source("o".into())).unwrap())
        .unwrap();
}

/// An assistant line of one API message (`msg`) with these content blocks.
fn cc_turn(uuid: &str, parent: &str, msg: &str, blocks: Value) -> Value {
    cc(
        "assistant",
        uuid,
        Some(parent),
        json!({"role": "assistant", "id": msg, "model": "claude-x", "content": blocks}),
    )
}

/// A user line holding the result of `call`, written as a child of the
/// call's own line (`parent`), as Claude Code writes it.
fn cc_result(uuid: &str, parent: &str, call: &str, text: &str) -> Value {
    let mut line = cc(
        "user",
        uuid,
        Some(parent),
        json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": call, "content": text}]}),
    );
    line["sourceToolAssistantUUID"] = parent.into();
    line
}

fn call(id: &str, command: &str) -> Value {
    json!([{"type": "tool_use", "id": id, "name": "Bash", "input": {"command": command}}])
}

fn results(t: &continuity_core::transcript::Transcript) -> Vec<(String, String, String)> {
    t.messages
        .iter()
        .flat_map(|m| &m.parts)
        .filter_map(|p| match &p.part {
            Part::ToolResult {
                id, name, content, ..
            } => Some((id.clone(), name.clone(), content.to_string())),
            _ => None,
        })
        .collect()
}

#[test]
fn parallel_claude_code_calls_are_read_with_their_results() {
    // Two shapes of one turn with parallel calls. First: the second call's
    // line hangs off progress lines, the first result off the first call,
    // and the turn goes on from the second result. Second: three lines of
    // one message, each result a child of its own call, and the turn goes
    // on from the first result: the other two calls look like a branch.
    let progress = |uuid: &str, parent: &str| json!({"type": "progress", "uuid": uuid, "parentUuid": parent, "sessionId": "s1"});
    let bytes = lines(&[
        cc(
            "user",
            "u1",
            None,
            json!({"role": "user", "content": "Check the status and run the tests."}),
        ),
        cc_turn("a1", "u1", "m1", call("c1", "show status")),
        progress("p1", "a1"),
        cc_turn("a2", "p1", "m1", call("c2", "run tests")),
        cc_result("r1", "a1", "c1", "status: open"),
        cc_result("r2", "a2", "c2", "397 tests, 0 failures"),
        cc_turn("a3", "r2", "m2", call("c3", "git log")),
        cc_turn("a4", "a3", "m2", call("c4", "git status")),
        cc_turn("a5", "a4", "m2", call("c5", "git diff")),
        cc_result("r5", "a5", "c5", "diff --git"),
        cc_result("r4", "a4", "c4", "clean"),
        cc_result("r3", "a3", "c3", "abc123 fix"),
        cc_turn(
            "a6",
            "r3",
            "m3",
            json!([{"type": "text", "text": "All green."}]),
        ),
    ]);
    let read = formats::read(&bytes, &src(), At::Last).unwrap();
    let t = &read.transcript;
    formats::check_conversation(t).unwrap();
    assert!(
        !read.warnings().iter().any(|w| !w.tool_ids.is_empty()),
        "{:?}",
        read.warnings()
    );
    let got: Vec<(String, String)> = results(t).into_iter().map(|(id, _, c)| (id, c)).collect();
    let want = [
        ("c1", "\"status: open\""),
        ("c2", "\"397 tests, 0 failures\""),
        ("c5", "\"diff --git\""),
        ("c4", "\"clean\""),
        ("c3", "\"abc123 fix\""),
    ];
    assert_eq!(got.len(), want.len(), "{got:?}");
    for ((id, c), (wid, wc)) in got.iter().zip(want) {
        assert_eq!((id.as_str(), c.as_str()), (wid, wc));
    }
    let roles: Vec<Role> = t.messages.iter().map(|m| m.role).collect();
    use Role::{Assistant as A, User as U};
    assert_eq!(roles, [U, A, U, A, U, A]);
    assert_eq!(t.messages[3].tool_calls().count(), 3);
}

#[test]
fn results_of_a_rewound_turn_are_named_not_read() {
    // The user rewound past a call: its result is on the branch not taken.
    let bytes = lines(&[
        cc(
            "user",
            "u1",
            None,
            json!({"role": "user", "content": "Deploy."}),
        ),
        cc_turn("a1", "u1", "m1", call("c1", "deploy --prod")),
        cc_result("r1", "a1", "c1", "deployed"),
        cc(
            "user",
            "u2",
            Some("u1"),
            json!({"role": "user", "content": "No, stage first."}),
        ),
    ]);
    let read = formats::read(&bytes, &src(), At::Last).unwrap();
    assert!(results(&read.transcript).is_empty());
    let w = read
        .warnings()
        .iter()
        .find(|w| w.tool_ids == ["c1"])
        .unwrap_or_else(|| panic!("{:?}", read.warnings()));
    assert_eq!(w.line, Some(3));
    assert!(w.message.contains("branch not taken"), "{}", w.message);
}

#[test]
fn side_chain_lines_of_a_main_transcript_are_counted() {
    let mut side = cc(
        "user",
        "s1",
        None,
        json!({"role": "user", "content": "sub-agent task"}),
    );
    side["isSidechain"] = true.into();
    let bytes = lines(&[
        cc("user", "u1", None, json!({"role": "user", "content": "hi"})),
        side,
    ]);
    let read = formats::read(&bytes, &src(), At::Last).unwrap();
    assert_eq!(read.transcript.messages.len(), 1);
    assert_eq!(read.origin.skipped.get("sidechain (sub-agent)"), Some(&1));
}

#[test]
fn an_orphaned_result_is_dropped_with_its_id_and_compacts() {
    // After a crash and a resume, a result whose call was never written.
    let bytes = lines(&[
        cc(
            "user",
            "u1",
            None,
            json!({"role": "user", "content": "Go on."}),
        ),
        cc_turn("a1", "u1", "m1", call("c1", "ls")),
        cc_result("r1", "a1", "c1", "a b"),
        cc_result("r2", "r1", "lost", "output of a call not recorded"),
        cc_turn("a2", "r2", "m2", json!([{"type": "text", "text": "Done."}])),
    ]);
    let read = formats::read(&bytes, &src(), At::Last).unwrap();
    let t = &read.transcript;
    formats::check_conversation(t).unwrap();
    assert_eq!(results(t).len(), 1);
    assert!(
        read.warnings()
            .iter()
            .any(|w| w.tool_ids == ["lost"] && w.message.contains("dropped")),
        "{:?}",
        read.warnings()
    );
    let c = continuity_test_support::run_fitting(
        t,
        &continuity_test_support::load_kernel(
            &continuity_test_support::repo().join("examples/billing-dispute/kernel.toml"),
        ),
        &RetentionPolicy::default(),
        continuity_core::compact::Strategy::Governed,
        "extractive",
    );
    formats::check_conversation(&c.request).unwrap();
}

#[test]
fn a_late_result_is_moved_to_its_call_not_replaced() {
    // A message written between a call and its output (Codex): the output
    // is moved back to its call, never replaced with an invented error.
    let bytes = lines(&[
        codex("session_meta", json!({"id": "s", "cli_version": "0.125.0"})),
        codex("response_item", msg("user", "Run the build.")),
        codex(
            "response_item",
            json!({"type": "function_call", "name": "shell", "call_id": "c1", "arguments": "{}"}),
        ),
        codex("response_item", msg("user", "and hurry")),
        codex(
            "response_item",
            json!({"type": "function_call_output", "call_id": "c1", "output": "built"}),
        ),
        // A second copy of it: one result a call.
        codex(
            "response_item",
            json!({"type": "function_call_output", "call_id": "c1", "output": "built"}),
        ),
    ]);
    let read = formats::read(&bytes, &src(), At::Last).unwrap();
    let t = &read.transcript;
    formats::check_conversation(t).unwrap();
    assert_eq!(
        results(t),
        [("c1".into(), "shell".into(), "\"built\"".into())]
    );
    assert!(
        read.warnings()
            .iter()
            .any(|w| w.tool_ids == ["c1"] && w.message.contains("dropped")),
        "{:?}",
        read.warnings()
    );
    assert!(
        read.warnings()
            .iter()
            .any(|w| w.tool_ids == ["c1"] && w.message.contains("moved")),
        "{:?}",
        read.warnings()
    );
}

#[test]
fn codex_harness_messages_are_instructions_not_the_request() {
    let developer = json!({"type": "message", "role": "developer", "content": [
        {"type": "input_text", "text": "<permissions instructions>sandbox: workspace-write</permissions instructions>"},
        {"type": "input_text", "text": "<skills_instructions>- review</skills_instructions>"}]});
    let context = json!({"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>Run make.</INSTRUCTIONS>"},
        {"type": "input_text", "text": "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>"}]});
    let notice = json!({"type": "message", "role": "developer", "content": [
        {"type": "input_text", "text": "Approved: `make` may run without asking."}]});
    let bytes = lines(&[
        codex(
            "session_meta",
            json!({"id": "s", "cli_version": "0.125.0", "base_instructions": {"text": "You are Codex."}}),
        ),
        codex("response_item", developer.clone()),
        codex("response_item", context.clone()),
        codex("response_item", msg("user", "Fix the failing test.")),
        codex(
            "response_item",
            json!({"type": "function_call", "name": "shell", "call_id": "c1", "arguments": "{}"}),
        ),
        codex("response_item", notice),
        codex(
            "response_item",
            json!({"type": "function_call_output", "call_id": "c1", "output": "1 failed"}),
        ),
        // Sent again on resume: read once.
        codex("response_item", developer),
        codex("response_item", context),
        codex("response_item", msg("user", "Go on.")),
    ]);
    let read = formats::read(&bytes, &src(), At::Last).unwrap();
    let t = &read.transcript;
    assert_eq!(
        t.instructions,
        [
            "You are Codex.",
            "Approved: `make` may run without asking.",
            "<permissions instructions>sandbox: workspace-write</permissions instructions>",
            "<skills_instructions>- review</skills_instructions>",
            "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>Run make.</INSTRUCTIONS>",
            "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>",
        ]
    );
    assert_eq!(t.messages[0].role, Role::User);
    assert_eq!(
        t.messages[0].parts[0].part.visible_text(),
        "Fix the failing test."
    );
    assert!(t.messages.iter().all(|m| m.role != Role::System));
    assert_eq!(results(t).len(), 1);
    assert!(
        read.warnings().iter().all(|w| w.tool_ids.is_empty()),
        "{:?}",
        read.warnings()
    );
    assert_eq!(
        read.origin.skipped.get("repeated harness context"),
        Some(&2)
    );
    // Written back as the items they came as, and read back the same.
    let out = formats::render(t);
    assert_eq!(out["instructions"], "You are Codex.");
    assert_eq!(out["input"][1]["role"], "developer");
    assert_eq!(out["input"][1]["content"].as_array().unwrap().len(), 2);
    assert_eq!(out["input"][2]["role"], "user");
    assert_eq!(out["input"][2]["content"].as_array().unwrap().len(), 2);
    let back = formats::parse_value(&out, &src()).unwrap();
    assert_eq!(&back, t);
}

#[test]
fn an_ask_the_user_answer_is_a_result_of_its_tool() {
    let ask = json!([{"type": "tool_use", "id": "q1", "name": "AskUserQuestion",
        "input": {"questions": [{"question": "Skip the hook?", "options": [{"label": "Yes"}, {"label": "No"}]}]}}]);
    let bytes = lines(&[
        cc(
            "user",
            "u1",
            None,
            json!({"role": "user", "content": "Commit it."}),
        ),
        cc_turn(
            "a1",
            "u1",
            "m1",
            json!([{"type": "tool_use", "id": "c1", "name": "Bash", "input": {}}]),
        ),
        cc_turn("a2", "a1", "m1", ask),
        cc_result(
            "r2",
            "a2",
            "q1",
            "User has answered your questions: \"Skip the hook?\"=\"No\".",
        ),
        cc_result("r1", "a1", "c1", "ok"),
    ]);
    let t = formats::read(&bytes, &src(), At::Last).unwrap().transcript;
    let answer = results(&t).into_iter().find(|r| r.0 == "q1").unwrap();
    assert_eq!(answer.1, "AskUserQuestion");
    assert!(answer.2.contains("=\\\"No\\\""), "{}", answer.2);
    assert_eq!(t.tool_name_for("q1"), Some("AskUserQuestion"));
}
