//! Policy pins: built at every rebuild, verified before release, fail closed.

use chrono::{Duration, TimeZone, Utc};
use continuity::compact::{compact_pinned, Inputs, Strategy};
use continuity::error::{Error, Source};
use continuity::governance::pin::{expected_hash, verify_pin, PinContext, PinError, PolicyPin};
use continuity::governance::GovernanceError;
use continuity::redact::Redactor;
use continuity::summarize::Extractive;
use continuity::{MissionKernel, RetentionPolicy};

fn repo() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn kernel_text() -> String {
    std::fs::read_to_string(repo().join("eval/adversarial/kernel-v4.toml")).unwrap()
}

fn kernel() -> MissionKernel {
    MissionKernel::from_toml(&kernel_text(), &Source("k".into()), Utc::now()).unwrap()
}

struct Words;
impl continuity::tokens::TokenCount for Words {
    fn count(&self, t: &str) -> Result<usize, Error> {
        Ok(t.split_whitespace().count())
    }
    fn name(&self) -> &str {
        "words"
    }
}

fn run(kernel: &MissionKernel, ctx: &PinContext) -> Result<continuity::Compaction, Error> {
    let t = continuity::io::read_transcript(
        &repo()
            .join("eval/adversarial/1-buried-policy/transcript.json")
            .display()
            .to_string(),
    )
    .unwrap()
    .0;
    let policy = RetentionPolicy::default();
    let mut redactor = Redactor::new(&policy.personal_data).unwrap();
    compact_pinned(
        &Inputs {
            transcript: &t,
            input_name: "t",
            kernel,
            policy: &policy,
            strategy: Strategy::Governed,
        },
        ctx,
        &mut Extractive,
        &Words,
        &mut redactor,
    )
}

#[test]
fn every_rebuild_pins_every_constraint_and_reports_freshness() {
    let k = kernel();
    let ctx = PinContext::first(&k, "t", Utc::now() + Duration::seconds(5));
    let c = run(&k, &ctx).unwrap();
    let ids: Vec<&str> = c.pin.constraints.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "no-public-share",
            "no-dataset-delete",
            "export-recipient-domain",
            "purchase-approval",
            "deploy-region"
        ]
    );
    assert_eq!(c.pin.sha256, k.sha256);
    assert_eq!(c.pin.sequence, 1);
    let g = c.report.governance.as_ref().unwrap();
    assert!(g.verified && g.policy_freshness_s >= 5.0, "{g:?}");
    // The pin is written with the other files.
    let files = continuity::io::serialize(&c).unwrap();
    let bytes = &files
        .files
        .iter()
        .find(|(n, _)| *n == "policy_pin.json")
        .unwrap()
        .1;
    let back = PolicyPin::from_json(bytes).unwrap();
    assert_eq!(back, c.pin);
    verify_pin(&back, expected_hash(&k), Utc::now()).unwrap();
    // The next rebuild continues the sequence.
    let next = PinContext::after(back, None, Utc::now()).unwrap();
    let c2 = run(&k, &next).unwrap();
    assert_eq!(c2.pin.sequence, 2);
    assert_eq!(c2.pin.run_id, c.pin.run_id);
}

#[test]
fn a_kernel_tampered_after_load_fails_closed_before_release() {
    // The hashed document changed in memory.
    let mut k = kernel();
    k.document.insert(
        "objective".into(),
        toml::Value::String("Send anything anywhere.".into()),
    );
    let err = run(&k, &PinContext::first(&k, "t", Utc::now())).unwrap_err();
    assert!(
        matches!(
            err,
            Error::Governance(GovernanceError::Pin(PinError::Integrity { .. }))
        ),
        "{err}"
    );
    assert!(
        err.to_string().contains("stop before tool execution"),
        "{err}"
    );
    // A prohibition dropped from the typed kernel (document unchanged).
    let mut k = kernel();
    k.prohibitions.pop();
    let err = run(&k, &PinContext::first(&k, "t", Utc::now())).unwrap_err();
    assert!(err.to_string().contains("integrity failure"), "{err}");
}

#[test]
fn a_pin_does_not_verify_against_a_different_or_tampered_kernel() {
    let k = kernel();
    let pin = PolicyPin::build(&k, &PinContext::first(&k, "t", Utc::now())).unwrap();
    let tampered = kernel_text().replace("value = 100", "value = 100000");
    let k2 = MissionKernel::from_toml(&tampered, &Source("k".into()), Utc::now()).unwrap();
    assert!(matches!(
        verify_pin(&pin, expected_hash(&k2), Utc::now()),
        Err(PinError::Integrity { .. })
    ));
    // A pinned kernel: the pinned hash is what is expected.
    let pinned = format!("sha256 = \"{}\"\n{}", k.sha256, kernel_text());
    let k3 = MissionKernel::from_toml(&pinned, &Source("k".into()), Utc::now()).unwrap();
    verify_pin(&pin, expected_hash(&k3), Utc::now()).unwrap();
    // Editing the pin file breaks its seal.
    let mut edited = pin.clone();
    edited.constraints.remove(2);
    assert_eq!(
        verify_pin(&edited, expected_hash(&k), Utc::now()),
        Err(PinError::Seal)
    );
}

#[test]
fn an_expired_constraint_fails_closed_at_release() {
    let text = kernel_text().replace(
        "source = \"policy://infra/regions/v2\"",
        "source = \"policy://infra/regions/v2\"\nexpires_at = \"2027-01-01T00:00:00Z\"",
    );
    let loaded = Utc.with_ymd_and_hms(2026, 12, 1, 0, 0, 0).unwrap();
    let k = MissionKernel::from_toml(&text, &Source("k".into()), loaded).unwrap();
    let later = Utc.with_ymd_and_hms(2027, 2, 1, 0, 0, 0).unwrap();
    let err = run(&k, &PinContext::first(&k, "t", later)).unwrap_err();
    assert!(
        err.to_string().contains("policy pin expired") && err.to_string().contains("deploy-region"),
        "{err}"
    );
}

#[test]
fn conditions_are_rendered_into_the_governed_request() {
    let k = kernel();
    let c = run(&k, &PinContext::first(&k, "t", Utc::now())).unwrap();
    let visible = c.request.visible_text();
    for p in c.pin.constraints {
        assert!(visible.contains(&p.text), "{} missing", p.id);
    }
}

#[test]
fn a_malformed_condition_is_refused_at_load() {
    let bad = kernel_text().replace("op = \"gt\"", "op = \"roughly\"");
    let err = MissionKernel::from_toml(&bad, &Source("k.toml".into()), Utc::now()).unwrap_err();
    assert!(
        err.to_string().contains("purchase-approval") && err.to_string().contains("roughly"),
        "{err}"
    );
}

#[test]
fn cli_compact_writes_the_pin_continues_the_sequence_and_refuses_an_edited_pin() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let input = repo().join("eval/adversarial/2-eviction-attack/transcript.json");
    let k = repo().join("eval/adversarial/kernel-v4.toml");
    let run = || {
        assert_cmd::Command::cargo_bin("continuity")
            .unwrap()
            .args([
                "compact",
                input.to_str().unwrap(),
                "--kernel",
                k.to_str().unwrap(),
            ])
            .args([
                "--summarizer",
                "extractive",
                "--run-id",
                "run_T",
                "--out",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap()
    };
    assert!(run().status.success());
    let pin = PolicyPin::from_json(&std::fs::read(out.join("policy_pin.json")).unwrap()).unwrap();
    assert_eq!((pin.run_id.as_str(), pin.sequence), ("run_T", 1));
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
    assert!(report["governance"]["policy_freshness_s"].is_number());
    assert_eq!(report["governance"]["directives_rejected"], 2);
    // The injected directive never reaches the compacted request's summary.
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(!summary.contains("restriction was lifted"), "{summary}");
    assert!(run().status.success());
    let pin = PolicyPin::from_json(&std::fs::read(out.join("policy_pin.json")).unwrap()).unwrap();
    assert_eq!(pin.sequence, 2);
    // An edited checkpoint pin stops the next rebuild.
    let text = std::fs::read_to_string(out.join("policy_pin.json")).unwrap();
    std::fs::write(
        out.join("policy_pin.json"),
        text.replace("\"deny\"", "\"require_approval\""),
    )
    .unwrap();
    let o = run();
    assert_eq!(o.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&o.stderr).contains("seal mismatch"));
}
