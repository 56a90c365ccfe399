//! The Claude Code hook pack on recorded hook inputs (tests/hooks/*.json,
//! shaped as Claude Code sends them; the transcript path is filled in).

use continuity_test_support::repo_file;

const MAROT: &str =
    "tests/fixtures/claude-code/marot-spotter__4d5611e5-241a-462a-8d15-5122611a9569.jsonl";
const KERNEL: &str = "examples/billing-dispute/kernel.toml";

fn input(name: &str) -> String {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/hooks")
            .join(name),
    )
    .unwrap();
    text.replace("TRANSCRIPT", &repo_file(MAROT))
}

fn rendered_kernel() -> String {
    continuity_core::io::load_kernel(std::path::Path::new(&repo_file(KERNEL)), chrono::Utc::now())
        .unwrap()
        .render()
}

fn hook(event: &str, input_file: &str) -> String {
    let out = crate::bin()
        .args(["hook", event, "--kernel", &repo_file(KERNEL)])
        .write_stdin(input(input_file))
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn pre_compact_prints_the_kernel_verbatim_and_the_carried_state() {
    let out = hook("pre-compact", "pre-compact.json");
    assert!(out.contains(&rendered_kernel()), "{out}");
    assert!(out.contains("[CONTINUITY"), "{out}");
}

#[test]
fn session_start_after_compact_reinjects_the_kernel_as_additional_context() {
    let out = hook("session-start", "session-start-compact.json");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
    let ctx = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(ctx.contains(&rendered_kernel()));
    assert!(ctx.contains("[CONTINUITY"));
}

#[test]
fn session_start_on_startup_prints_nothing() {
    assert_eq!(hook("session-start", "session-start-startup.json"), "");
}

/// Claude Code itself, against a scripted upstream, with the hook pack in
/// its settings: a short session, `/compact` (the upstream's summary says
/// nothing of the mission), then a new turn. The request after the
/// compaction holds the rendered kernel verbatim in the session-start
/// hook's context; the summarizing request had it from the pre-compact
/// hook.
#[test]
fn in_claude_code_the_kernel_is_back_after_its_compaction() {
    use continuity_test_support::claude_code::{
        claude_command, claude_or_skip, output_within, text_events, tool_events, Upstream,
    };
    let test = "hooks::in_claude_code_the_kernel_is_back_after_its_compaction";
    let Some(claude) = claude_or_skip(test) else {
        return;
    };
    // The first turn runs two commands, so there is something to compact.
    let up = Upstream::start(|body| {
        let text = body["messages"].to_string();
        let done = text.matches("\"tool_result\"").count();
        let first_turn = !text.contains("/compact") && !text.contains("Go on.");
        match done {
            0 | 1 if first_turn && body["tools"].is_array() => {
                let input = serde_json::json!({"command": format!("echo checked ledger {done}"), "description": "check"});
                tool_events(
                    &format!("msg_t{done}"),
                    &format!("toolu_{done}"),
                    "Bash",
                    &input,
                )
            }
            _ => text_events(&format!("msg_{}", text.len()), "Noted; nothing to add."),
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let (home, work) = (dir.path().join("home"), dir.path().join("work"));
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let exe = env!("CARGO_BIN_EXE_continuity");
    let kernel = repo_file(KERNEL);
    let settings = serde_json::json!({"hooks": {
        "PreCompact": [{"hooks": [{"type": "command", "command": format!("{exe} hook pre-compact --kernel {kernel}")}]}],
        "SessionStart": [{"matcher": "compact", "hooks": [{"type": "command", "command": format!("{exe} hook session-start --kernel {kernel}")}]}],
    }});
    std::fs::write(home.join(".claude/settings.json"), settings.to_string()).unwrap();
    let turns: [&[&str]; 3] = [
        &["Check the two ledgers.", "--allowedTools", "Bash"],
        &["--continue", "/compact"],
        &["--continue", "Go on."],
    ];
    let mut seen = Vec::new();
    for args in turns {
        let cmd = claude_command(&claude, &home, &work, &up.url, args);
        let out = output_within(cmd, std::time::Duration::from_secs(180));
        assert!(
            out.status.success(),
            "claude -p {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        seen.push(up.bodies().len());
    }
    let bodies = up.bodies();
    let kernel_text = rendered_kernel();
    let escaped = serde_json::to_string(&kernel_text).unwrap();
    let inner = &escaped[1..escaped.len() - 1];
    let holds_kernel = |b: &serde_json::Value| b.to_string().contains(inner);
    assert!(
        !bodies[..seen[0]].iter().any(holds_kernel),
        "no kernel before the compaction"
    );
    assert!(
        bodies[seen[0]..seen[1]].iter().any(holds_kernel),
        "the summarizing request has the pre-compact output"
    );
    // Claude Code echoes the pre-compact output into the compacted
    // history too; the session-start hook's context is told apart by its
    // opening words.
    let from_session_start = |b: &serde_json::Value| {
        let text = b.to_string();
        text.find(
            "The conversation was compacted. These are carried over from before it, verbatim:",
        )
        .is_some_and(|at| text[at..].contains(inner))
    };
    let after = &bodies[seen[1]..];
    assert!(
        !after.is_empty() && after.iter().all(from_session_start),
        "every request after the compaction holds the kernel, from the session-start hook"
    );
}
