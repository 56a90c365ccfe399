//! Planted personal data never reaches any file the tool writes.

mod common;

use continuity::compact::Strategy;

#[test]
fn no_planted_string_in_any_output_file() {
    let dir = common::repo().join("examples/billing-dispute");
    let planted: Vec<String> = std::fs::read_to_string(dir.join("planted-pii.txt"))
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert!(planted.len() >= 8, "too few planted values: {planted:?}");
    let input = std::fs::read_to_string(dir.join("session.json")).unwrap();
    for p in &planted {
        assert!(
            input.contains(p.as_str()),
            "planted value {p:?} is not in the example input"
        );
    }
    for strategy in ["governed", "summary-only"] {
        for summarizer in ["none", "extractive"] {
            let tmp = tempfile::tempdir().unwrap();
            let out = tmp.path().join("out");
            assert_cmd::Command::cargo_bin("continuity")
                .unwrap()
                .args(["compact"])
                .arg(dir.join("session.json"))
                .arg("--kernel")
                .arg(dir.join("kernel.toml"))
                .arg("--policy")
                .arg(dir.join("policy.toml"))
                .args(["--strategy", strategy, "--summarizer", summarizer, "--out"])
                .arg(&out)
                .assert()
                .success();
            for entry in std::fs::read_dir(&out).unwrap() {
                let path = entry.unwrap().path();
                let text = std::fs::read_to_string(&path).unwrap();
                for p in &planted {
                    assert!(
                        !text.contains(p.as_str()),
                        "{strategy}/{summarizer}: {p:?} leaked into {}",
                        path.display()
                    );
                    let escaped = serde_json::to_string(p).unwrap();
                    assert!(
                        !text.contains(escaped.trim_matches('"')),
                        "{p:?} leaked (escaped) into {}",
                        path.display()
                    );
                }
            }
        }
    }
}

#[test]
fn placeholders_are_stable_within_a_run() {
    let dir = common::repo().join("examples/billing-dispute");
    let t = common::load_transcript(&dir.join("session.json"));
    let kernel = common::load_kernel(&dir.join("kernel.toml"));
    let policy = common::load_policy(&dir.join("policy.toml"));
    let c = common::run(&t, &kernel, &policy, Strategy::Governed, "extractive");
    let mut by_placeholder = std::collections::HashMap::new();
    for r in &c.redactions {
        by_placeholder
            .entry(r.placeholder.clone())
            .or_insert_with(Vec::new)
            .push(r.rule.clone());
    }
    assert!(!by_placeholder.is_empty());
    // One placeholder per value: far fewer placeholders than redactions.
    assert!(by_placeholder.len() < c.redactions.len());
}
