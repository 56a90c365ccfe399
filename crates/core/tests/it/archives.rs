//! The real archives: Claude Code transcripts, Codex rollouts and OpenAI
//! Responses requests recorded by others (`tests/fixtures/<format>/SOURCE.md`).
//! Each is read, checked, compacted and parsed back as a valid request of
//! its format. The samples whose license does not let us copy them are read
//! from `../shared/external/real-archives` and skipped, in one line, when it
//! is absent.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use continuity_core::compact::Strategy;
use continuity_core::error::Source;
use continuity_core::formats::{self, At, Document};
use continuity_core::policy::RetentionPolicy;
use continuity_core::transcript::{Format, Part, Role};
use continuity_core::MissionKernel;
use continuity_test_support::real_archives_or_skip;
use serde_json::Value;

/// (file under `tests/fixtures/` or `../shared/external/real-archives/`,
/// its kind, the compactions the agent recorded).
const SAMPLES: &[(&str, &str, usize)] = &[
    ("claude-code/marot-spotter__4d5611e5-241a-462a-8d15-5122611a9569.jsonl", "claude-code", 1),
    ("claude-code/marot-spotter__4d5611e5-241a-462a-8d15-5122611a9569__subagents__agent-acompact-e1f845.jsonl", "claude-code", 0),
    ("claude-code/jimmc414-cctrace__phase0-investigation__raw_messages.jsonl", "claude-code", 0),
    ("codex-rollout/codemie-ai-codemie-code__rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl", "codex-rollout", 0),
    ("codex-rollout/codemie-ai-codemie-code__rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl", "codex-rollout", 0),
    ("codex-rollout/AcidicSoil-codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl", "codex-rollout", 0),
];

/// Real samples kept in `../shared` only (no LICENSE file upstream).
const SHARED_ONLY: &[(&str, &str, usize)] = &[
    ("claude-code/oneryalcin-fasthooks__sample_main_transcript.jsonl", "claude-code", 1),
    ("claude-code/d-kimuson-claude-code-viewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", "claude-code", 0),
    ("codex-rollout/madshn-localpush__rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl", "codex-rollout", 1),
];

const RESPONSES: &[&str] = &[
    "pydantic-pydantic-ai__test_openai_responses_thinking_with_tool_calls.request-bodies.json",
    "pydantic-pydantic-ai__test_openai_responses_model_retry.request-bodies.json",
    "pydantic-pydantic-ai__test_openai_responses_compact_messages.request-bodies.json",
    "pydantic-pydantic-ai__test_openai_responses_compact_stateful_mode.request-bodies.json",
];

fn fixtures() -> PathBuf {
    continuity_test_support::repo().join("tests/fixtures")
}

fn shared_or_skip() -> Option<PathBuf> {
    let dir = continuity_test_support::repo().join("../shared/external/real-archives");
    if dir.is_dir() {
        return Some(dir);
    }
    let _ = writeln!(
        std::io::stderr(),
        "skipped the real archives without a license to copy ({} not found): {}",
        dir.display(),
        SHARED_ONLY
            .iter()
            .map(|s| s.0)
            .collect::<Vec<_>>()
            .join(", ")
    );
    None
}

fn kernel() -> MissionKernel {
    MissionKernel::from_toml(
        "id = \"S\"\nversion = \"1\"\nobjective = \"Finish the coding task.\"\npermissions = []\n[[prohibition]]\nid = \"no-push\"\ntext = \"Never force-push.\"\ntools = [\"git_push\"]\neffect = \"escalate\"\nsource = \"policy://s\"\nversion = \"1\"\nscope = []\n",
        &Source("k".into()),
        chrono::Utc::now(),
    )
    .unwrap()
}

fn open(path: &Path) -> Document {
    let bytes = std::fs::read(path).unwrap();
    formats::open(&bytes, &Source::path(path)).unwrap_or_else(|e| panic!("{e}"))
}

/// The request at `at` is valid, renders in its provider's format, parses
/// back as the same request, and compacts into a valid request.
fn check_point(name: &str, doc: &Document, at: At, compact: bool) {
    let read = doc
        .read(at)
        .unwrap_or_else(|e| panic!("{name} at {at}: {e}"));
    let t = &read.transcript;
    let want = match doc.kind() {
        "claude-code" => Format::Anthropic,
        _ => Format::Responses,
    };
    assert_eq!(t.format, want, "{name}");
    formats::check_conversation(t).unwrap_or_else(|e| panic!("{name} at {at}: {e}"));
    let json = formats::render(t);
    let back = formats::parse_value(&json, &Source("out".into()))
        .unwrap_or_else(|e| panic!("{name} at {at}: {e}"));
    if &back != t {
        let i = (0..t.messages.len().max(back.messages.len()))
            .find(|i| t.messages.get(*i) != back.messages.get(*i));
        match i {
            Some(i) => panic!(
                "{name} at {at}: message {i} reads back differently:\n{:?}\n{:?}",
                t.messages.get(i),
                back.messages.get(i)
            ),
            None => panic!(
                "{name} at {at}: reads back differently: {:?} {:?} / {:?} {:?}",
                t.instructions, t.instruction_style, back.instructions, back.instruction_style
            ),
        }
    }
    if !compact {
        return;
    }
    let c = continuity_test_support::run_fitting(
        t,
        &kernel(),
        &RetentionPolicy::default(),
        Strategy::Governed,
        "extractive",
    );
    let out = formats::render(&c.request);
    let again = formats::parse_value(&out, &Source("out".into()))
        .unwrap_or_else(|e| panic!("{name} compacted: {e}"));
    assert_eq!(again.format, want);
    formats::check_conversation(&again).unwrap_or_else(|e| panic!("{name} compacted: {e}"));
    // A short request (just after the agent's own compaction) may grow by
    // the kernel and framing; a long one must shrink.
    assert!(
        c.report.tokens.before < 5_000 || c.report.tokens.after < c.report.tokens.before,
        "{name}: {} -> {}",
        c.report.tokens.before,
        c.report.tokens.after
    );
}

fn check_sample(dir: &Path, (file, kind, compactions): (&str, &str, usize)) {
    let doc = open(&dir.join(file));
    assert_eq!(doc.kind(), kind, "{file}");
    assert_eq!(doc.compactions().len(), compactions, "{file}");
    check_point(file, &doc, At::Last, true);
    for c in doc.compactions() {
        check_point(file, &doc, At::BeforeCompaction(c.index), true);
        check_point(file, &doc, At::Line(c.after_line), false);
    }
    let read = doc.read(At::Last).unwrap();
    for w in read.warnings() {
        assert!(!w.message.is_empty(), "{file}");
    }
}

#[test]
fn every_copied_sample_reads_renders_and_compacts() {
    for s in SAMPLES {
        check_sample(&fixtures(), *s);
    }
}

#[test]
fn every_shared_sample_reads_renders_and_compacts() {
    let Some(dir) = shared_or_skip() else { return };
    for s in SHARED_ONLY {
        check_sample(&dir, *s);
    }
}

#[test]
fn the_recorded_compactions_are_found_with_their_summaries() {
    let doc = open(&fixtures().join(SAMPLES[0].0));
    let c = &doc.compactions()[0];
    assert_eq!(c.trigger.as_deref(), Some("auto"));
    assert_eq!(c.recorded_tokens_before, Some(170_251));
    assert!(c.summary.len() > 10_000, "{}", c.summary.len());
    assert!(c.before_line < c.line && c.line <= c.after_line);
    // Before the compaction the request is long; right after it, it is the
    // summary the agent carried on with.
    let before = doc.read(At::BeforeCompaction(1)).unwrap().transcript;
    let after = doc.read(At::Line(c.after_line)).unwrap().transcript;
    assert!(before.messages.len() > 50, "{}", before.messages.len());
    assert!(after.messages.len() <= 2, "{}", after.messages.len());
    let first = after.messages[0].parts[0].part.visible_text();
    assert!(first.contains(&c.summary[..200.min(c.summary.len())]));
}

#[test]
fn reasoning_blocks_are_carried_untouched() {
    let path = fixtures().join(SAMPLES[2].0);
    let raw = std::fs::read_to_string(&path).unwrap();
    let signatures: Vec<String> = raw
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .flat_map(|v| {
            v["message"]["content"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|b| {
            b.get("signature")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .collect();
    assert!(!signatures.is_empty());
    let t = open(&path).read(At::Last).unwrap().transcript;
    let out = serde_json::to_string(&formats::render(&t)).unwrap();
    let kept = signatures
        .iter()
        .filter(|s| out.contains(s.as_str()))
        .count();
    assert!(kept > 0, "no thinking block kept");
    let reasoning = t
        .messages
        .iter()
        .flat_map(|m| &m.parts)
        .filter(|p| matches!(p.part, Part::Reasoning { .. }))
        .count();
    assert_eq!(
        reasoning, kept,
        "each thinking block is written whole, once"
    );
}

#[test]
fn responses_requests_round_trip_exactly() {
    let mut seen = 0;
    for file in RESPONSES {
        let path = fixtures().join("responses").join(file);
        let all: Vec<Value> = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for call in all {
            let body = &call["body"];
            let t = formats::parse_value(body, &Source(file.to_string()))
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(t.format, Format::Responses, "{file}");
            formats::check_conversation(&t).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(
                &formats::render(&t),
                body,
                "{file}: {}",
                call["interaction"]
            );
            seen += 1;
        }
    }
    assert_eq!(seen, 12);
}

/// Every session transcript of the real archives, sorted.
fn real_transcripts(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for kind in ["claude-code", "codex-rollout"] {
        let Ok(files) = std::fs::read_dir(dir.join(kind)) else {
            continue;
        };
        out.extend(
            files
                .flatten()
                .map(|f| f.path())
                .filter(|p| p.extension().is_some_and(|e| e == "jsonl")),
        );
    }
    out.sort();
    out
}

/// The tool results a transcript file records, by call id, read straight
/// from its lines: `window` holds those the agent's context held at line
/// `point` (after its last compaction at or before it; Claude Code: the
/// main conversation, or every line of a sub-agent's file), `all` every
/// result up to `point`, replacement histories included; `tools` the name
/// of each call.
#[derive(Default)]
struct Recorded {
    window: BTreeMap<String, Value>,
    all: BTreeMap<String, Value>,
    tools: BTreeMap<String, String>,
}

fn recorded_results(raw: &str, kind: &str, point: usize) -> Recorded {
    let rows: Vec<(usize, Value)> = raw
        .lines()
        .enumerate()
        .filter_map(|(i, l)| serde_json::from_str::<Value>(l).ok().map(|v| (i + 1, v)))
        .take_while(|(n, _)| *n <= point)
        .collect();
    let mut out = Recorded::default();
    if kind == "claude-code" {
        let all_side = !rows.iter().any(|(_, v)| {
            matches!(v["type"].as_str(), Some("user" | "assistant")) && v["isSidechain"] != true
        });
        for (_, v) in &rows {
            if v["subtype"] == "compact_boundary" {
                out.window.clear();
            }
            for b in v["message"]["content"].as_array().into_iter().flatten() {
                if let (true, Some(id), Some(name)) = (
                    b["type"] == "tool_use",
                    b["id"].as_str(),
                    b["name"].as_str(),
                ) {
                    out.tools.insert(id.into(), name.into());
                }
            }
            if v["type"] != "user" {
                continue;
            }
            let main = all_side || v["isSidechain"] != true;
            for b in v["message"]["content"].as_array().into_iter().flatten() {
                if b["type"] == "tool_result" {
                    let id = b["tool_use_id"].as_str().unwrap_or("").to_string();
                    let content = b.get("content").cloned().unwrap_or(Value::from(""));
                    out.all.insert(id.clone(), content.clone());
                    if main {
                        out.window.insert(id, content);
                    }
                }
            }
        }
        return out;
    }
    let outputs = |items: &[Value], into: &mut BTreeMap<String, Value>| {
        for i in items {
            let output = i["type"]
                .as_str()
                .is_some_and(|t| t.ends_with("_call_output"));
            if let (true, Some(id)) = (output, i["call_id"].as_str()) {
                into.insert(
                    id.to_string(),
                    i.get("output").cloned().unwrap_or(Value::Null),
                );
            }
        }
    };
    for (_, v) in &rows {
        let item = v.get("payload").unwrap_or(v);
        if let (Some(id), Some(name)) = (item["call_id"].as_str(), item["name"].as_str()) {
            out.tools.insert(id.into(), name.into());
        }
        if v["type"] == "compacted" {
            out.window.clear();
            let kept = item["replacement_history"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            outputs(&kept, &mut out.all);
            continue;
        }
        let items = std::slice::from_ref(item);
        outputs(items, &mut out.window);
        outputs(items, &mut out.all);
    }
    out
}

/// Every tool result the file records before a point is read into the
/// request there (the same content, under its call id) or named in a
/// warning; and every result read is one the file records, but for an
/// error result added, with a warning, to a call the file has no result
/// for. Returns the problems, and the counts of recorded and added results.
fn audit_point(file: &str, raw: &str, doc: &Document, at: At) -> (Vec<String>, usize, usize) {
    let read = doc
        .read(at)
        .unwrap_or_else(|e| panic!("{file} at {at}: {e}"));
    let point = read.origin.at_line.unwrap();
    let recorded = recorded_results(raw, doc.kind(), point);
    let accounted: BTreeSet<&str> = read
        .warnings()
        .iter()
        .flat_map(|w| w.tool_ids.iter().map(String::as_str))
        .collect();
    let mut problems = Vec::new();
    let mut read_results: BTreeMap<&str, &Value> = BTreeMap::new();
    let mut added = 0;
    for p in read.transcript.messages.iter().flat_map(|m| &m.parts) {
        let Part::ToolResult {
            id, content, name, ..
        } = &p.part
        else {
            continue;
        };
        read_results.insert(id, content);
        // The name of an answer's tool (AskUserQuestion, ...) is its call's.
        if let Some(tool) = recorded.tools.get(id).filter(|t| *t != name) {
            problems.push(format!(
                "{file} at {at}: the result of `{id}` is named `{name}`, its call `{tool}`"
            ));
        }
        if recorded.all.get(id) == Some(content) {
            continue;
        }
        added += 1;
        if recorded.all.contains_key(id) || !accounted.contains(id.as_str()) {
            problems.push(format!(
                "{file} at {at}: the result read for `{id}` ({}) is not the one the file records ({})",
                short(content),
                recorded.all.get(id).map_or("none".into(), short),
            ));
        }
    }
    for (id, content) in &recorded.window {
        let read_it = read_results.get(id.as_str()) == Some(&content);
        if !read_it && !accounted.contains(id.as_str()) {
            problems.push(format!(
                "{file} at {at}: the recorded result of `{id}` ({}) is neither read nor named in a warning",
                short(content)
            ));
        }
    }
    (problems, recorded.window.len(), added)
}

fn short(v: &Value) -> String {
    v.to_string().chars().take(80).collect()
}

#[test]
fn every_recorded_tool_result_is_read_or_accounted_for() {
    let test = "every_recorded_tool_result_is_read_or_accounted_for";
    let Some(dir) = real_archives_or_skip(test) else {
        return;
    };
    let files = real_transcripts(&dir);
    assert!(!files.is_empty(), "{}: no transcripts", dir.display());
    let mut problems = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let raw = std::fs::read_to_string(&path).unwrap();
        let doc = open(&path);
        let points = std::iter::once(At::Last).chain(
            doc.compactions()
                .iter()
                .map(|c| At::BeforeCompaction(c.index)),
        );
        for at in points {
            let (found, recorded, added) = audit_point(&name, &raw, &doc, at);
            let _ = writeln!(
                std::io::stderr(),
                "{name} at {at}: {recorded} recorded result(s), {added} added, {} problem(s)",
                found.len()
            );
            problems.extend(found);
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The text blocks of the developer and system messages a rollout records
/// up to `point`, after its last compaction.
fn harness_texts(raw: &str, point: usize) -> Vec<String> {
    let mut out = Vec::new();
    for line in raw.lines().take(point) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let item = v.get("payload").unwrap_or(&v);
        if v["type"] == "compacted" {
            out.clear();
        }
        let harness = matches!(item["role"].as_str(), Some("developer" | "system"));
        if harness && item["type"] == "message" {
            let blocks = item["content"].as_array().cloned().unwrap_or_default();
            out.extend(
                blocks
                    .iter()
                    .filter_map(|b| b["text"].as_str().map(str::to_string)),
            );
        }
    }
    out
}

#[test]
fn codex_harness_messages_are_read_as_instructions() {
    let Some(dir) = real_archives_or_skip("codex_harness_messages_are_read_as_instructions") else {
        return;
    };
    for path in real_transcripts(&dir) {
        let doc = open(&path);
        if doc.kind() != "codex-rollout" {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let raw = std::fs::read_to_string(&path).unwrap();
        let points = std::iter::once(At::Last).chain(
            doc.compactions()
                .iter()
                .map(|c| At::BeforeCompaction(c.index)),
        );
        for at in points {
            let read = doc.read(at).unwrap();
            let t = &read.transcript;
            let point = read.origin.at_line.unwrap();
            for text in harness_texts(&raw, point) {
                assert!(
                    t.instructions.contains(&text),
                    "{name} at {at}: a developer text is not an instruction: {}",
                    &text[..text.len().min(80)]
                );
            }
            assert!(
                t.messages.iter().all(|m| m.role != Role::System),
                "{name} at {at}"
            );
            let first_user = t.messages.iter().find(|m| m.role == Role::User);
            if let Some(m) = first_user {
                let text = m.parts[0].part.visible_text().to_lowercase();
                assert!(
                    !text.trim_start().starts_with("<environment_context>")
                        && !text.trim_start().starts_with("# agents.md"),
                    "{name} at {at}: the first user message is harness context"
                );
            }
        }
    }
}
