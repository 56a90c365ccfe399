//! The `replay` subcommand end to end on a synthetic plain session.

use assert_cmd::Command;

#[test]
fn replay_writes_report_database_and_charts() {
    let tmp = tempfile::tempdir().unwrap();
    let session = crate::replay_support::synthetic_session(tmp.path());
    for (name, text) in [
        ("k.toml", crate::replay_support::KERNEL),
        ("p.toml", crate::replay_support::POLICY),
        ("key.toml", crate::replay_support::KEY),
    ] {
        std::fs::write(tmp.path().join(name), text).unwrap();
    }
    let out = tmp.path().join("out");
    Command::cargo_bin("continuity")
        .unwrap()
        .current_dir(tmp.path())
        .args([
            "replay",
            session.to_str().unwrap(),
            "--strategies",
            "summary-only,governed",
            "--summarizers",
            "none,extractive",
            "--kernel",
            "k.toml",
            "--policy",
            "p.toml",
            "--key",
            "key.toml",
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "2",
            "--damage",
            "F2",
        ])
        .assert()
        .success();
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("summary-only/extractive+damage:F2"));
    assert!(md.contains("`delete_service` sent at request 9"), "{md}");
    assert!(out.join("replay.sqlite").is_file());
    assert!(out.join("timeline-synthetic-session.svg").is_file());
    assert!(out.join("anatomy-synthetic-session.svg").is_file());

    // An unknown summarizer is refused with the list of names.
    let refused = Command::cargo_bin("continuity")
        .unwrap()
        .current_dir(tmp.path())
        .args([
            "replay",
            session.to_str().unwrap(),
            "--summarizers",
            "gpt-9",
            "--kernel",
            "k.toml",
            "--key",
            "key.toml",
            "--out",
            out.to_str().unwrap(),
        ])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(err.contains("gpt-9") && err.contains("recorded"), "{err}");
}
