//! The command line: outputs, exit codes, and nothing written on bad input.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn bin() -> Command {
    crate::bin()
}

fn example(name: &str) -> String {
    continuity_test_support::repo()
        .join("examples/billing-dispute")
        .join(name)
        .display()
        .to_string()
}

fn fixture(name: &str) -> String {
    continuity_test_support::repo()
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn compact(input: &str, kernel: &str, out: &Path) -> assert_cmd::assert::Assert {
    bin()
        .args([
            "compact",
            input,
            "--kernel",
            kernel,
            "--policy",
            &example("policy.toml"),
            "--out",
        ])
        .arg(out)
        .assert()
}

#[test]
fn compact_writes_request_audit_report_and_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    compact(&example("session.json"), &example("kernel.toml"), &out).success();
    for f in ["request.json", "audit.jsonl", "report.json", "summary.txt"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    for key in [
        "before",
        "after",
        "fixed_overhead",
        "kernel",
        "pinned",
        "summary",
        "tail",
    ] {
        assert!(report["tokens"][key].is_u64(), "tokens.{key}");
    }
    assert!(report["reduction_pct"].is_f64());
    for key in ["trigger", "required", "met"] {
        assert!(!report["floor"][key].is_null(), "floor.{key}");
    }
    let audit = std::fs::read_to_string(out.join("audit.jsonl")).unwrap();
    let mut decisions = std::collections::HashSet::new();
    for line in audit.lines() {
        let r: Value = serde_json::from_str(line).unwrap();
        for key in [
            "item",
            "kind",
            "decision",
            "rule",
            "tokens_before",
            "tokens_after",
        ] {
            assert!(!r[key].is_null(), "audit record without {key}: {line}");
        }
        decisions.insert(r["decision"].as_str().unwrap().to_string());
    }
    for d in [
        "kept",
        "pinned",
        "summarized",
        "stubbed",
        "redacted",
        "dropped",
    ] {
        assert!(decisions.contains(d), "no audit record decided {d}");
    }
    let request: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("request.json")).unwrap()).unwrap();
    // The kernel joins the system prompt as its own block.
    let system = request["system"].as_array().expect("system blocks");
    assert!(system.last().unwrap()["text"]
        .as_str()
        .unwrap()
        .starts_with(continuity_core::kernel::KERNEL_OPENING));
}

#[test]
fn reads_stdin_and_replaces_an_existing_output_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("report.json"), "old").unwrap();
    bin()
        .args([
            "compact",
            "-",
            "--kernel",
            &example("kernel.toml"),
            "--strategy",
            "summary-only",
            "--out",
        ])
        .arg(&out)
        .write_stdin(std::fs::read(example("session.json")).unwrap())
        .assert()
        .success();
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["input"], "<stdin>");
    assert_eq!(report["strategy"], "summary-only");
}

/// Each bad input exits 2, names the file and the problem, writes nothing.
fn rejects(input: &str, kernel: &str, file_named: &str, problem: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let assert = compact(input, kernel, &out).code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(
        stderr.contains(file_named),
        "stderr does not name {file_named}: {stderr}"
    );
    assert!(
        stderr.contains(problem),
        "stderr does not say `{problem}`: {stderr}"
    );
    assert!(!out.exists(), "output written despite the error");
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(leftovers.is_empty(), "staging left behind");
}

#[test]
fn malformed_json_is_rejected() {
    rejects(
        &fixture("invalid/malformed.json"),
        &example("kernel.toml"),
        "malformed.json",
        "malformed JSON",
    );
}

#[test]
fn unknown_format_is_rejected() {
    rejects(
        &fixture("invalid/unknown-format.json"),
        &example("kernel.toml"),
        "unknown-format.json",
        "unknown request format",
    );
}

#[test]
fn kernel_missing_fields_is_rejected() {
    rejects(
        &example("session.json"),
        &fixture("invalid/kernel-missing-fields.toml"),
        "kernel-missing-fields.toml",
        "missing field",
    );
}

#[test]
fn kernel_hash_mismatch_is_rejected() {
    rejects(
        &example("session.json"),
        &fixture("invalid/kernel-bad-hash.toml"),
        "kernel-bad-hash.toml",
        "integrity error",
    );
}

#[test]
fn expired_prohibition_is_rejected() {
    rejects(
        &example("session.json"),
        &fixture("invalid/kernel-expired.toml"),
        "kernel-expired.toml",
        "refresh governance state",
    );
}

#[test]
fn unknown_summarizer_is_bad_input() {
    let tmp = tempfile::tempdir().unwrap();
    bin()
        .args([
            "compact",
            &example("session.json"),
            "--kernel",
            &example("kernel.toml"),
            "--summarizer",
            "nope",
            "--out",
        ])
        .arg(tmp.path().join("out"))
        .assert()
        .code(2);
}

#[test]
fn kernel_init_and_hash_round_trip() {
    let tmp = tempfile::tempdir().unwrap();
    let k = tmp.path().join("k.toml");
    bin().args(["kernel", "init"]).arg(&k).assert().success();
    bin().args(["kernel", "init"]).arg(&k).assert().code(2);
    let out = bin().args(["kernel", "hash"]).arg(&k).assert().success();
    let hash = String::from_utf8_lossy(&out.get_output().stdout)
        .trim()
        .to_string();
    assert_eq!(hash.len(), 64);
    // Pinning the printed hash makes the kernel load; a changed text does not.
    let text = std::fs::read_to_string(&k).unwrap();
    std::fs::write(&k, format!("sha256 = \"{hash}\"\n{text}")).unwrap();
    let out_dir = tmp.path().join("out");
    compact(&example("session.json"), &k.display().to_string(), &out_dir).success();
    std::fs::write(
        &k,
        format!(
            "sha256 = \"{hash}\"\n{}",
            text.replace("Never issue refunds", "Issue refunds")
        ),
    )
    .unwrap();
    compact(
        &example("session.json"),
        &k.display().to_string(),
        &tmp.path().join("out2"),
    )
    .code(2);
}

#[test]
fn plan_prints_both_strategies() {
    let out = bin()
        .args([
            "plan",
            &example("session.json"),
            "--kernel",
            &example("kernel.toml"),
            "--policy",
            &example("policy.toml"),
            "--json",
        ])
        .assert()
        .success();
    let plans: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let plans = plans.as_array().unwrap();
    assert_eq!(plans.len(), 2);
    for p in plans {
        let fixed = p["fixed_overhead"].as_u64().unwrap();
        let remains = p["remains"].as_u64().unwrap();
        assert_eq!(p["min_trigger"].as_u64().unwrap(), fixed + 2 * remains);
    }
}

#[test]
fn tokenizer_can_be_a_json_file_or_a_missing_model_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let json = continuity_test_support::repo().join("tokenizers/smollm2-135m.json");
    let run = |spec: &str, out: &str| {
        bin()
            .args([
                "compact",
                &example("session.json"),
                "--kernel",
                &example("kernel.toml"),
                "--tokenizer",
                spec,
                "--out",
            ])
            .arg(tmp.path().join(out))
            .assert()
    };
    run(json.to_str().unwrap(), "a").success();
    let a: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("a/report.json")).unwrap())
            .unwrap();
    // The bundled default is the same tokenizer: same counts.
    bin()
        .args([
            "compact",
            &example("session.json"),
            "--kernel",
            &example("kernel.toml"),
            "--out",
        ])
        .arg(tmp.path().join("b"))
        .assert()
        .success();
    let b: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("b/report.json")).unwrap())
            .unwrap();
    assert_eq!(a["tokens"], b["tokens"]);
    let err = run("missing.gguf", "c").code(2);
    assert!(String::from_utf8_lossy(&err.get_output().stderr).contains("missing.gguf"));
}

#[test]
fn bench_writes_a_csv_row_per_compaction_and_a_median_table() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("bench.csv");
    let session = example("session.json");
    let pydantic = fixture("pydantic/small.json");
    let out = bin()
        .args([
            "bench",
            &session,
            &pydantic,
            "--kernel",
            &example("kernel.toml"),
            "--policy",
            &example("policy.toml"),
            "--summarizers",
            "none,extractive",
            "--quiet",
            "--csv",
        ])
        .arg(&csv)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.starts_with("tokens counted in "), "{stdout}");
    assert!(
        stdout.contains("\n| summarizer | compactions | median latency (s)"),
        "{stdout}"
    );
    assert!(stdout.contains("\n| none | 2 |"), "{stdout}");
    assert!(stdout.contains("\n| extractive | 2 |"), "{stdout}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 1 + 2 * 2, "{text}");
    assert!(rows[1].starts_with(&format!("none,{session},governed,")));
    // Compaction sizes come from the real pipeline: the input is larger.
    let cells: Vec<&str> = rows[1].split(',').collect();
    assert!(cells[3].parse::<usize>().unwrap() > cells[4].parse::<usize>().unwrap());
}

#[test]
fn bench_with_a_bad_archive_names_it_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let csv = tmp.path().join("bench.csv");
    let bad = fixture("invalid/malformed.json");
    let err = bin()
        .args([
            "bench",
            &bad,
            "--kernel",
            &example("kernel.toml"),
            "--summarizers",
            "none",
            "--csv",
        ])
        .arg(&csv)
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&err.get_output().stderr).contains("malformed.json"));
    assert!(!csv.exists());
}

#[test]
fn compact_needs_no_flags_but_out_and_a_low_target_exits_5_writing_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let input = example("session.json");
    bin()
        .args(["compact", &input, "-q", "--out"])
        .arg(&out)
        .assert()
        .success();
    let report: Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["mission"]["source"], "session");
    let after = report["tokens"]["after"].as_u64().unwrap();
    assert!(after <= report["trigger"]["threshold"].as_u64().unwrap());
    let low = dir.path().join("low");
    let o = bin()
        .args(["compact", &input, "--target-tokens", "50", "--out"])
        .arg(&low)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(5));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("below what must be kept") && err.contains("mission (first user message"),
        "{err}"
    );
    assert!(!low.exists(), "nothing written");
    // The policy's pins are kept whatever they cost: its largest group is named.
    let o = bin()
        .args(["compact", &input, "--policy", &example("policy.toml")])
        .args(["--target-tokens", "1000", "--out"])
        .arg(&low)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(5));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("evidence the policy pins") && err.contains("largest group `"),
        "{err}"
    );
    assert!(!low.exists(), "nothing written");
}

/// `generate --json --top-logits N`: each step's highest logit is the id
/// it picked, highest first. Without --json there is nowhere to print them.
#[test]
fn generate_reports_the_top_logits_of_each_pick() {
    let refused = bin()
        .args(["generate", "--model", "smollm2-135m", "--prompt", "x"])
        .args(["--top-logits", "2"])
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).to_string();
    assert!(stderr.contains("--json"), "{stderr}");
    let Ok(path) = continuity_llm::manifest::resolve_model_offline("smollm2-135m") else {
        eprintln!(
            "skipped (smollm2-135m not fetched): generate_reports_the_top_logits_of_each_pick"
        );
        return;
    };
    let out = bin()
        .args(["generate", "--model", "smollm2-135m", "--model-path"])
        .arg(&path)
        .args([
            "--prompt",
            "The invoice number is INV-",
            "--max-new-tokens",
            "6",
        ])
        .args(["--ignore-stop", "--json", "--top-logits", "3"])
        .assert()
        .success();
    let v: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let ids = v["generated_ids"].as_array().unwrap();
    let top = v["top_logits"].as_array().unwrap();
    assert_eq!((ids.len(), top.len()), (6, 6));
    for (step, (id, t)) in ids.iter().zip(top).enumerate() {
        let t = t.as_array().unwrap();
        assert_eq!(t.len(), 3, "step {step}");
        assert_eq!(&t[0][0], id, "step {step}");
        let logits: Vec<f64> = t.iter().map(|p| p[1].as_f64().unwrap()).collect();
        assert!(
            logits.windows(2).all(|w| w[0] >= w[1]),
            "step {step}: {logits:?}"
        );
    }
}
