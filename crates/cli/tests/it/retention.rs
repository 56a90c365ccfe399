//! `continuity retention`: answers looked up in the request `compact` would
//! write, per target, with bad question files named.

use continuity_test_support::repo_file;
use serde_json::Value;

fn questions(dir: &std::path::Path, expected: &[(&str, &str)]) -> std::path::PathBuf {
    let qs: Vec<Value> = expected
        .iter()
        .enumerate()
        .map(|(i, (category, answer))| {
            serde_json::json!({"id": format!("q{i}"), "category": category, "expected": answer})
        })
        .collect();
    let path = dir.join("q.json");
    std::fs::write(&path, serde_json::json!({ "questions": qs }).to_string()).unwrap();
    path
}

#[test]
fn answers_are_counted_per_category_and_target() {
    let tmp = tempfile::tempdir().unwrap();
    // CUS-58317 is pinned evidence; the second answer is in no message at all.
    let q = questions(
        tmp.path(),
        &[("record", "CUS-58317"), ("record", "no-such-value-7f3a")],
    );
    let out = crate::bin()
        .arg("retention")
        .arg(repo_file("examples/billing-dispute/session.json"))
        .arg("--questions")
        .arg(&q)
        .args(["--kernel"])
        .arg(repo_file("examples/billing-dispute/kernel.toml"))
        .args(["--policy"])
        .arg(repo_file("examples/billing-dispute/policy.toml"))
        .args(["--targets", "11000,8000", "--json"])
        .assert()
        .success();
    let points: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let points = points.as_array().unwrap();
    assert_eq!(points.len(), 2);
    for p in points {
        let s = &p["sessions"][0];
        let after = s["tokens_after"].as_u64().unwrap();
        assert!(after <= p["target"].as_u64().unwrap(), "{p}");
        assert_eq!(s["by_category"]["record"]["present"], 1, "{p}");
        assert_eq!(s["by_category"]["record"]["asked"], 2, "{p}");
        assert_eq!(s["missing"], serde_json::json!(["q1"]), "{p}");
    }
}

#[test]
fn a_target_below_what_must_be_kept_is_reported_as_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let q = questions(tmp.path(), &[("record", "CUS-58317")]);
    let out = crate::bin()
        .arg("retention")
        .arg(repo_file("examples/billing-dispute/session.json"))
        .arg("--questions")
        .arg(&q)
        .args(["--targets", "50", "--json"])
        .assert()
        .success();
    let points: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let s = &points[0]["sessions"][0];
    assert!(s["tokens_after"].is_null(), "{s}");
    assert!(s["refused"].as_str().unwrap().contains("50"), "{s}");
    assert_eq!(s["by_category"]["record"]["present"], 0);
}

#[test]
fn bad_question_files_and_counts_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.json");
    std::fs::write(&bad, "{\"questions\": [}").unwrap();
    let session = repo_file("examples/billing-dispute/session.json");
    let a = crate::bin()
        .arg("retention")
        .arg(&session)
        .arg("--questions")
        .arg(&bad)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(err.contains("bad.json"), "{err}");
    let a = crate::bin()
        .arg("retention")
        .arg(&session)
        .arg(&session)
        .arg("--questions")
        .arg(&bad)
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&a.get_output().stderr).to_string();
    assert!(
        err.contains("2 session(s) but 1 questions file(s)"),
        "{err}"
    );
}
