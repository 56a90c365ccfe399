//! Policy pins: built at every rebuild, verified before release, fail closed.

use chrono::{Duration, TimeZone, Utc};
use continuity_core::compact::{compact_pinned, Inputs, Strategy};
use continuity_core::error::{Error, Source};
use continuity_core::governance::pin::{
    expected_hash, verify_pin, PinContext, PinError, PolicyPin,
};
use continuity_core::governance::GovernanceError;
use continuity_core::redact::Redactor;
use continuity_core::summarize::Extractive;
use continuity_core::{MissionKernel, RetentionPolicy};

fn repo() -> std::path::PathBuf {
    continuity_test_support::repo()
}

fn kernel_text() -> String {
    std::fs::read_to_string(repo().join("eval/adversarial/kernel-v4.toml")).unwrap()
}

fn kernel() -> MissionKernel {
    MissionKernel::from_toml(&kernel_text(), &Source("k".into()), Utc::now()).unwrap()
}

struct Words;
impl continuity_core::tokens::TokenCount for Words {
    fn count(&self, t: &str) -> Result<usize, Error> {
        Ok(t.split_whitespace().count())
    }
    fn name(&self) -> &str {
        "words"
    }
}

fn run(kernel: &MissionKernel, ctx: &PinContext) -> Result<continuity_core::Compaction, Error> {
    let t = continuity_core::io::read_transcript(
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
    let files = continuity_core::io::serialize(&c).unwrap();
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

/// A pin file in `dir` written by a first rebuild.
fn written_pin(dir: &std::path::Path) -> PolicyPin {
    let k = kernel();
    let c = run(&k, &PinContext::first(&k, "t", Utc::now())).unwrap();
    std::fs::write(dir.join("policy_pin.json"), c.pin.to_json()).unwrap();
    c.pin
}

fn context_in(dir: &std::path::Path) -> Result<PinContext, GovernanceError> {
    continuity_core::io::pin_context(dir, &kernel(), "t", None, Utc::now())
}

#[test]
fn no_pin_file_is_a_first_rebuild_and_a_pin_continues_the_sequence() {
    let dir = tempfile::tempdir().unwrap();
    let first = context_in(dir.path()).unwrap();
    assert_eq!((first.sequence, first.previous.is_none()), (1, true));
    let pin = written_pin(dir.path());
    let next = context_in(dir.path()).unwrap();
    assert_eq!((next.run_id, next.sequence), (pin.run_id, 2));
}

#[test]
fn an_unreadable_pin_file_fails_closed_instead_of_restarting_the_sequence() {
    let dir = tempfile::tempdir().unwrap();
    // A directory where the pin should be: it exists but cannot be read as
    // a file, whatever the user's permissions.
    std::fs::create_dir(dir.path().join("policy_pin.json")).unwrap();
    let err = context_in(dir.path()).unwrap_err();
    assert!(
        matches!(err, GovernanceError::Pin(PinError::Unreadable { .. })),
        "{err}"
    );
    assert!(err.to_string().contains("policy_pin.json"), "{err}");
}

#[test]
fn a_truncated_pin_file_fails_closed() {
    let dir = tempfile::tempdir().unwrap();
    written_pin(dir.path());
    let path = dir.path().join("policy_pin.json");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let err = context_in(dir.path()).unwrap_err();
    assert!(
        matches!(err, GovernanceError::Pin(PinError::Invalid(_))),
        "{err}"
    );
}

#[test]
fn an_edited_pin_file_fails_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mut pin = written_pin(dir.path());
    pin.sequence += 10;
    std::fs::write(dir.path().join("policy_pin.json"), pin.to_json()).unwrap();
    let err = context_in(dir.path()).unwrap_err();
    assert!(matches!(err, GovernanceError::Pin(PinError::Seal)), "{err}");
}
