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
