//! No planted personal data in any file the binary writes.

#[test]
fn no_planted_string_in_any_output_file() {
    let dir = continuity_test_support::repo().join("examples/billing-dispute");
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
            crate::bin()
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
