//! `continuity compact` on session transcripts (`--at`, the agent's own
//! compaction side by side) and on folders (parallel, bad files counted,
//! resume).

use std::path::{Path, PathBuf};

use continuity_core::error::Source;
use continuity_core::formats;
use continuity_core::transcript::Format;
use continuity_test_support::{repo, repo_file};
use serde_json::Value;

const MAROT: &str =
    "tests/fixtures/claude-code/marot-spotter__4d5611e5-241a-462a-8d15-5122611a9569.jsonl";
const CODEX: &str = "tests/fixtures/codex-rollout/AcidicSoil-codex-session-view__rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl";
const KEY: &str = "tests/fixtures/claude-code/marot-spotter.key.toml";
const RESPONSES: &str = "tests/fixtures/responses/pydantic-pydantic-ai__test_openai_responses_thinking_with_tool_calls.request-bodies.json";

/// Real coding-agent transcripts hold more tool evidence (whole file writes
/// among it) than the default 11k target: these tests compact at a target
/// where none of it yields, and the default has its own test.
const TARGET: &str = "200000";

fn compact(input: &str, out: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    crate::bin()
        .args(["compact", input, "--kernel"])
        .arg(repo_file("examples/billing-dispute/kernel.toml"))
        .args(["--target-tokens", TARGET])
        .args(["--summarizer", "extractive", "--out"])
        .arg(out)
        .args(extra)
        .assert()
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn request_of(dir: &Path) -> formats::Read {
    let bytes = std::fs::read(dir.join("request.json")).unwrap();
    formats::read(&bytes, &Source::path(dir), formats::At::Last).unwrap()
}

#[test]
fn a_transcript_at_the_agents_compaction_is_side_by_side_with_ours() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let a = compact(&repo_file(MAROT), &out, &["--at", "compaction:1"]).success();
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(stdout.contains("vs agent's compaction 1"), "{stdout}");
    // Every call before the compaction has its recorded result (the
    // parallel calls' results among them): none is invented.
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(!stderr.contains("no recorded result"), "{stderr}");
    let read = request_of(&out);
    assert_eq!(read.transcript.format, Format::Anthropic);
    formats::check_conversation(&read.transcript).unwrap();
    let side = json(&out.join("side_by_side.json"));
    assert_eq!(side["compaction"]["trigger"], "auto");
    assert!(side["literals"].as_u64().unwrap() > 100);
    for who in ["agent", "ours"] {
        let f = side[who]["fraction"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&f) && f > 0.0, "{who}: {f}");
    }
    assert!(side["tokens_agent"].as_u64().unwrap() < side["tokens_before"].as_u64().unwrap());
    let origin = json(&out.join("origin.json"));
    assert_eq!(origin["format"], "claude-code");
    assert_eq!(origin["at"], "compaction:1");
    assert!(std::fs::read_to_string(out.join("side_by_side.md"))
        .unwrap()
        .contains("| ours |"));
}

#[test]
fn a_transcript_over_the_default_target_compacts_within_it_with_a_digest_and_a_narrative() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    crate::bin()
        .args([
            "compact",
            &repo_file(MAROT),
            "--at",
            "compaction:1",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let report = json(&out.join("report.json"));
    let after = report["tokens"]["after"].as_u64().unwrap();
    assert!(after <= 11_000, "{after}");
    assert!(
        report["budget"]["digest_kept"].as_u64().unwrap() > 0,
        "{report}"
    );
    assert!(
        report["budget"]["summary_reserve"].as_u64().unwrap() > 0,
        "{report}"
    );
    let words = report["summarizer"]["words"].as_u64().unwrap();
    assert!(
        words >= 80,
        "a real coding session gets a narrative: {words} words"
    );
    let request = std::fs::read_to_string(out.join("request.json")).unwrap();
    assert!(request.contains("WORKING STATE"), "{request}");
    assert!(
        !request.contains("no recorded result"),
        "no tool result is invented"
    );
}

#[test]
fn a_target_below_the_mission_is_refused_with_a_short_message() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let a = crate::bin()
        .args(["compact", &repo_file(MAROT), "--at", "compaction:1"])
        .args(["--target-tokens", "60", "--out"])
        .arg(&out)
        .assert()
        .code(5);
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(stderr.contains("below what must be kept"), "{stderr}");
    assert!(stderr.len() < 1500, "{} bytes: {stderr}", stderr.len());
    assert!(!out.exists());
}

#[test]
fn a_codex_rollout_is_written_as_a_responses_request() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    compact(&repo_file(CODEX), &out, &["--at", "120", "-q"]).success();
    let read = request_of(&out);
    assert_eq!(read.transcript.format, Format::Responses);
    formats::check_conversation(&read.transcript).unwrap();
    assert!(!out.join("side_by_side.json").exists());
    assert_eq!(json(&out.join("origin.json"))["at_line"], 120);
    // A point past the end is refused, naming the file.
    let bad = tmp.path().join("bad");
    let e = compact(&repo_file(CODEX), &bad, &["--at", "99999"]).failure();
    let stderr = String::from_utf8_lossy(&e.get_output().stderr).to_string();
    assert!(
        stderr.contains("past the end") && stderr.contains("rollout-2025"),
        "{stderr}"
    );
    assert!(!bad.exists());
}

/// A folder of every format, with a broken file and an unknown one.
fn mixed_folder(root: &Path) -> Vec<PathBuf> {
    let copy = |from: &str, to: &str| {
        let dest = root.join(to);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(repo().join(from), &dest).unwrap();
        dest
    };
    let mut files = vec![
        copy(MAROT, "claude/p1/s1.jsonl"),
        copy(CODEX, "codex/2025/11/17/rollout-1.jsonl"),
        copy(
            "examples/billing-dispute/session.json",
            "anthropic/session.json",
        ),
        copy("tests/fixtures/pydantic/small.json", "pydantic/small.json"),
    ];
    let bodies: Vec<Value> =
        serde_json::from_slice(&std::fs::read(repo().join(RESPONSES)).unwrap()).unwrap();
    let responses = root.join("responses/request.json");
    std::fs::create_dir_all(responses.parent().unwrap()).unwrap();
    std::fs::write(&responses, bodies[1]["body"].to_string()).unwrap();
    files.push(responses);
    let broken = root.join("claude/p1/broken.jsonl");
    std::fs::write(
        &broken,
        "{\"type\": \"user\", \"uuid\": \"u1\", \"sessionId\": \"s\"\n{not json\n",
    )
    .unwrap();
    files.push(broken);
    let unknown = root.join("notes.json");
    std::fs::write(&unknown, "{\"hello\": 1}").unwrap();
    files.push(unknown);
    files
}

fn summary(out: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(out.join("summary.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn a_folder_is_compacted_in_one_command_and_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("sessions");
    let files = mixed_folder(&root);
    let out = tmp.path().join("out");
    let a = compact(root.to_str().unwrap(), &out, &["--jobs", "2"]).success();
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        stdout.contains("Compacted 5 session(s), 0 already done, 1 failed, 1 skipped"),
        "{stdout}"
    );
    assert!(stdout.contains("claude/p1/broken.jsonl"), "{stdout}");
    let rows = summary(&out);
    assert_eq!(rows.len(), files.len());
    let with_status = |status: &str| -> Vec<String> {
        rows.iter()
            .filter(|r| r[1] == status)
            .map(|r| r[0].clone())
            .collect()
    };
    assert_eq!(with_status("failed"), ["claude/p1/broken.jsonl"]);
    assert_eq!(with_status("skipped"), ["notes.json"]);
    for (name, format) in [
        ("claude/p1/s1.jsonl", "claude-code"),
        ("codex/2025/11/17/rollout-1.jsonl", "codex-rollout"),
        ("responses/request.json", "openai-responses"),
    ] {
        let row = rows.iter().find(|r| r[0] == name).unwrap();
        assert_eq!(
            (row[1].as_str(), row[2].as_str()),
            ("compacted", format),
            "{row:?}"
        );
        let dir = out.join("sessions").join(name);
        formats::check_conversation(&request_of(&dir).transcript).unwrap();
    }
    let db = rusqlite::Connection::open(out.join("summary.sqlite")).unwrap();
    let n: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM sessions WHERE status = 'failed'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(n, 1);

    // A second run does no work.
    let a = compact(root.to_str().unwrap(), &out, &[]).success();
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        stdout.contains("Compacted 0 session(s), 5 already done, 1 failed, 1 skipped"),
        "{stdout}"
    );

    // A run stopped before two sessions were recorded: those two are done
    // again, the rest is not.
    for name in ["claude/p1/s1.jsonl", "pydantic/small.json"] {
        std::fs::remove_file(out.join("sessions").join(name).join("session.json")).unwrap();
    }
    std::fs::remove_dir_all(out.join("sessions/pydantic/small.json")).unwrap();
    let a = compact(root.to_str().unwrap(), &out, &[]).success();
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        stdout.contains("Compacted 2 session(s), 3 already done, 1 failed, 1 skipped"),
        "{stdout}"
    );
    assert_eq!(summary(&out).len(), files.len());
}

/// Files beside the sessions that are no session at all (a manifest, a
/// report, a run's history in JSON lines, a checkpoint) are skipped, not
/// failed, and the run exits 0; a file shaped as a request that is
/// malformed, or one with an orphaned tool result, is still a failure.
#[test]
fn files_that_are_not_sessions_are_skipped_not_failed() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("run");
    let write = |name: &str, text: &str| {
        let p = root.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    std::fs::create_dir_all(root.join("archive")).unwrap();
    std::fs::copy(
        repo().join("examples/billing-dispute/session.json"),
        root.join("archive/cmp-1.json"),
    )
    .unwrap();
    write(
        "manifest.json",
        r#"{"label": "E1", "kernel_sha256": "ab12"}"#,
    );
    write("run/report.json", r#"{"totals": {"requests": 12}}"#);
    write("run/results.json", r#"[{"id": 1}, {"id": 2}]"#);
    write(
        "run/tools.jsonl",
        "{\"ts\": \"2026-01-01\", \"kind\": \"tool_return\", \"tool_name\": \"x\"}\n{\"ts\": \"2026-01-01\", \"kind\": \"tool_return\"}\n",
    );
    write("run/empty.json", "[]");
    let out = tmp.path().join("out");
    let a = compact(root.to_str().unwrap(), &out, &["--jobs", "1"]).success();
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        stdout.contains("Compacted 1 session(s), 0 already done, 0 failed, 5 skipped"),
        "{stdout}"
    );
    let rows = summary(&out);
    let header = std::fs::read_to_string(out.join("summary.csv")).unwrap();
    assert!(
        header.starts_with(
            "name,status,format,version,at,messages,tokens_before,tokens_after,tokenizer,"
        ),
        "{header}"
    );
    for r in &rows {
        let want = if r[0] == "archive/cmp-1.json" {
            "compacted"
        } else {
            "skipped"
        };
        assert_eq!(r[1], want, "{r:?}");
    }

    // A malformed request and a request with an orphaned result fail.
    write(
        "bad/roles.json",
        r#"{"messages": [{"content": "no role"}]}"#,
    );
    write(
        "bad/orphan.json",
        r#"{"model": "m", "input": [{"role": "user", "content": "hi"}, {"type": "function_call_output", "call_id": "gone", "output": "x"}]}"#,
    );
    let a = compact(root.to_str().unwrap(), &out, &[]).success();
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(
        stdout.contains("Compacted 0 session(s), 1 already done, 2 failed, 5 skipped"),
        "{stdout}"
    );
    assert!(stdout.contains("orphaned result"), "{stdout}");
}

/// An orphaned tool result never ends in an internal error: a session
/// transcript is repaired (the result dropped, said in a warning), a
/// request body is refused as bad input naming the file.
#[test]
fn an_orphaned_tool_result_is_repaired_or_refused_never_an_internal_error() {
    let tmp = tempfile::tempdir().unwrap();
    let line = |v: Value| v.to_string() + "\n";
    let cc = |kind: &str, uuid: &str, parent: Option<&str>, content: Value| {
        serde_json::json!({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "s",
            "message": {"role": kind, "content": content}})
    };
    let transcript = [
        cc("user", "u1", None, "Resume the refund.".into()),
        cc("assistant", "a1", Some("u1"), serde_json::json!([{"type": "tool_use", "id": "c1", "name": "get_account", "input": {}}])),
        cc("user", "r1", Some("a1"), serde_json::json!([{"type": "tool_result", "tool_use_id": "c1", "content": "account ok"}])),
        cc("user", "r2", Some("r1"), serde_json::json!([{"type": "tool_result", "tool_use_id": "lost", "content": "from before the crash"}])),
        cc("assistant", "a2", Some("r2"), serde_json::json!([{"type": "text", "text": "Refund issued."}])),
    ]
    .map(line)
    .concat();
    let session = tmp.path().join("session.jsonl");
    std::fs::write(&session, transcript).unwrap();
    let a = compact(session.to_str().unwrap(), &tmp.path().join("o1"), &[]).success();
    let stderr = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(
        stderr.contains("`lost`") && stderr.contains("dropped"),
        "{stderr}"
    );

    let body = serde_json::json!({"model": "m", "max_tokens": 100, "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "lost", "content": "x"}]}]});
    let request = tmp.path().join("request.json");
    std::fs::write(&request, body.to_string()).unwrap();
    let out = tmp.path().join("o2");
    let e = compact(request.to_str().unwrap(), &out, &[]).code(2);
    let stderr = String::from_utf8_lossy(&e.get_output().stderr).to_string();
    assert!(
        stderr.contains("request.json") && stderr.contains("orphaned result"),
        "{stderr}"
    );
    assert!(!out.exists());
}

/// A folder run killed part-way: the sessions it recorded stay done, nothing
/// half-written counts, and a re-run compacts exactly the rest.
#[test]
fn a_killed_folder_run_completes_on_re_run() {
    use std::time::{Duration, Instant};
    const N: usize = 40;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("sessions");
    for i in 0..N {
        let dest = root.join(format!("s{i:02}/session.json"));
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(repo().join("examples/billing-dispute/session.json"), &dest).unwrap();
    }
    let out = tmp.path().join("out");
    let done = || {
        (0..N)
            .filter(|i| {
                let dir = out.join(format!("sessions/s{i:02}/session.json"));
                dir.join(continuity_batch::DONE).is_file()
            })
            .count()
    };
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_continuity"))
        .arg("compact")
        .arg(&root)
        .arg("--kernel")
        .arg(repo_file("examples/billing-dispute/kernel.toml"))
        .args(["--summarizer", "extractive", "--jobs", "1", "-q", "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it as soon as its first session is recorded.
    let start = Instant::now();
    while done() == 0 && child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "no session recorded"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().ok();
    child.wait().unwrap();
    let finished = done();
    assert!(finished >= 1);

    let a = compact(root.to_str().unwrap(), &out, &[]).success();
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    let expected = format!(
        "Compacted {} session(s), {finished} already done, 0 failed",
        N - finished
    );
    assert!(stdout.contains(&expected), "{expected}\n{stdout}");
    assert_eq!(done(), N);
    let rows = summary(&out);
    assert_eq!(rows.len(), N);
    assert!(rows.iter().all(|r| r[1] == "compacted"), "{rows:?}");
    for i in 0..N {
        let dir = out.join(format!("sessions/s{i:02}/session.json"));
        formats::check_conversation(&request_of(&dir).transcript).unwrap();
    }
}

/// Every real transcript that records an agent's compaction gets the report
/// (the ones without a license to copy are read from ../shared, skipped in
/// one line when it is absent).
#[test]
fn every_recorded_compaction_gets_its_side_by_side_report() {
    let shared = repo().join("../shared/external/real-archives");
    let mut inputs = vec![repo().join(MAROT)];
    let others = [
        "claude-code/oneryalcin-fasthooks__sample_main_transcript.jsonl",
        "codex-rollout/madshn-localpush__rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl",
    ];
    if shared.is_dir() {
        inputs.extend(others.iter().map(|o| shared.join(o)));
    } else {
        eprintln!(
            "skipped the side-by-side of {others:?} ({} not found)",
            shared.display()
        );
    }
    for input in inputs {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("o");
        compact(
            input.to_str().unwrap(),
            &out,
            &["--at", "compaction:1", "-q"],
        )
        .success();
        let side = json(&out.join("side_by_side.json"));
        assert!(
            side["tokens_agent"].as_u64().unwrap() > 0,
            "{}",
            input.display()
        );
        assert!(
            side["ours"]["total"].as_u64().unwrap() > 0,
            "{}",
            input.display()
        );
        formats::check_conversation(&request_of(&out).transcript).unwrap();
    }
}

#[test]
fn an_answer_key_is_judged_on_the_agents_compaction_and_on_ours() {
    let tmp = tempfile::tempdir().unwrap();
    // A folder is refused before anything loads.
    let folder = crate::bin()
        .args(["compact", &repo_file("tests/fixtures/claude-code"), "--key"])
        .arg(repo_file(KEY))
        .arg("--out")
        .arg(tmp.path().join("dir"))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&folder.get_output().stderr).to_string();
    assert!(stderr.contains("is a folder"), "{stderr}");
    if continuity_eval::evaluate::load_embedder().is_err() {
        eprintln!("skipping the rest: minilm-l6 not available (python3 models/fetch.py minilm-l6)");
        return;
    }
    let out = tmp.path().join("o");
    let a = compact(
        &repo_file(MAROT),
        &out,
        &[
            "--at",
            "compaction:1",
            "--key",
            &repo_file(KEY),
            "--judge",
            "none",
        ],
    )
    .success();
    let stdout = String::from_utf8_lossy(&a.get_output().stdout).to_string();
    assert!(stdout.contains("answer key:"), "{stdout}");
    let side = json(&out.join("side_by_side.json"));
    assert_eq!(side["key"]["judge"], "none");
    for who in ["agent", "ours"] {
        let facts = side["key"][who]["facts"].as_array().unwrap();
        assert_eq!(facts.len(), 4, "{who}");
        assert!(facts.iter().all(|f| f["verdict"].is_string()), "{who}");
    }
    // Ours keeps every key term: `default_visible_lines` is a line of a
    // file the agent read (its content is never pinned), and the digest
    // lists it among the names the conversation used again.
    let kept = side["key"]["ours"]["keyword"]["facts_present"]
        .as_array()
        .unwrap();
    assert_eq!(kept.len(), 4, "{side}");
    assert_eq!(
        side["key"]["ours"]["keyword"]["facts_missing"],
        serde_json::json!([]),
        "{side}"
    );
    let md = std::fs::read_to_string(out.join("side_by_side.md")).unwrap();
    assert!(
        md.contains("Answer key") && md.contains("| first-subtask-tests |"),
        "{md}"
    );
    // A point that is not an agent's compaction has nothing to judge.
    let last = crate::bin()
        .args([
            "compact",
            &repo_file(MAROT),
            "--key",
            &repo_file(KEY),
            "--judge",
            "none",
        ])
        .arg("--out")
        .arg(tmp.path().join("last"))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&last.get_output().stderr).to_string();
    assert!(stderr.contains("--at compaction:K"), "{stderr}");
    assert!(!tmp.path().join("last").exists());
}
