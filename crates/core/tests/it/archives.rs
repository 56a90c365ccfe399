//! The real archives: Claude Code transcripts, Codex rollouts and OpenAI
//! Responses requests recorded by others (`tests/fixtures/<format>/SOURCE.md`).
//! Each is read, checked, compacted and parsed back as a valid request of
//! its format. The samples whose license does not let us copy them are read
//! from `../shared/external/real-archives` and skipped, in one line, when it
//! is absent.

use std::io::Write;
use std::path::{Path, PathBuf};

use continuity_core::compact::Strategy;
use continuity_core::error::Source;
use continuity_core::formats::{self, At, Document};
use continuity_core::policy::RetentionPolicy;
use continuity_core::transcript::{Format, Part};
use continuity_core::MissionKernel;
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
