//! `continuity eval` through the binary.

use continuity_eval::evaluate::load_embedder;

#[test]
fn eval_cli_json_lines() {
    if load_embedder().is_err() {
        eprintln!(
            "skipping: minilm-l6 not available; fetch it with: python3 models/fetch.py minilm-l6"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("s.jsonl");
    std::fs::write(
        &lines,
        "{\"id\":\"a\",\"text\":\"OPS-8812 is still open and nothing has been sent.\"}\n{\"id\":\"b\",\"text\":\"The export was emailed to Dana.\"}\n",
    )
    .unwrap();
    let out = crate::bin()
        .current_dir(continuity_test_support::repo())
        .args([
            "eval",
            "--input",
            "tests/fixtures/openai/ops-export.json",
            "--key",
        ])
        .arg("eval/faithfulness/ops-export/key.toml")
        .arg("--summaries")
        .arg(&lines)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let objs: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objs.len(), 2);
    for o in &objs {
        for k in ["id", "facts", "unsupported", "mismatches", "keyword"] {
            assert!(o.get(k).is_some(), "missing {k}: {o}");
        }
        let f = &o["facts"][0];
        for k in ["id", "verdict", "score", "sentences", "evidence"] {
            assert!(f.get(k).is_some(), "missing {k}: {f}");
        }
    }
}
