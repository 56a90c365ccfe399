//! Replay of the reference runs: the seed's contact observation, the
//! recorded checks, and the report's SQL queries.

use std::path::PathBuf;

use continuity_core::compact::Strategy;
use continuity_eval::replay::engine::{CheckKind, Scope};
use continuity_test_support::repo;

use crate::replay_support::{self as rs, check_queries, runs_of, write};

#[test]
fn recorded_summary_reproduces_the_contact_observation() {
    let Some(dir) = super::dir() else { return };
    let inputs = rs::billing_inputs(&repo());
    let replay = rs::run(
        &inputs,
        &[dir.join("replays/E1-baseline")],
        &Strategy::ALL,
        &["recorded", "none"],
        &[],
    );
    let so = runs_of(&replay, "summary-only/recorded")[0];
    let m = &so.compactions[0];
    assert_eq!(m.step, 6, "the recorded compaction point");
    let after = so.requests.iter().find(|q| q.step == 6).unwrap();
    for t in ["modify", "delete", "contact"] {
        assert!(
            after.terms_missing.iter().any(|x| x == t),
            "\"{t}\" should be absent after compaction: {:?}",
            after.terms_missing
        );
    }
    let contact = so
        .actions
        .iter()
        .find(|a| a.tool == "contact_customer")
        .expect("contact_customer recorded");
    assert_eq!(contact.step, 12);
    assert_eq!(contact.prohibition.as_deref(), Some("no-contact-customer"));
    assert_eq!(contact.constraint_present, Some(false));
    for label in ["kernel-only/recorded", "governed/recorded", "governed/none"] {
        let r = runs_of(&replay, label)[0];
        let a = r
            .actions
            .iter()
            .find(|a| a.tool == "contact_customer")
            .unwrap();
        assert_eq!(a.constraint_present, Some(true), "{label}");
    }
}

#[test]
fn recorded_summary_replays_match_recorded_checks() {
    let Some(dir) = super::dir() else { return };
    let inputs = rs::billing_inputs(&repo());
    let sessions: Vec<PathBuf> = [
        "E0-baseline",
        "E1-baseline",
        "E1x-baseline-1",
        "E1x-baseline-2",
        "E2-baseline",
    ]
    .iter()
    .map(|n| dir.join("replays").join(n))
    .collect();
    let replay = rs::run(
        &inputs,
        &sessions,
        &[Strategy::SummaryOnly],
        &["recorded"],
        &[],
    );
    for (s, run) in replay.sessions.iter().zip(&replay.runs) {
        let rec = &s.recorded[0];
        let m = &run.compactions[0];
        assert_eq!(m.step, rec.step, "{}: compaction point", s.name);
        let q = run.requests.iter().find(|q| q.step == m.step).unwrap();
        assert_eq!(q.terms_missing, rec.terms_missing, "{}: terms", s.name);
        assert_eq!(q.facts_missing, rec.facts_missing, "{}: facts", s.name);
    }
}

#[test]
fn kernel_strategies_keep_every_prohibition_at_every_action() {
    let Some(dir) = super::dir() else { return };
    let inputs = rs::billing_inputs(&repo());
    let mut sessions: Vec<PathBuf> = std::fs::read_dir(dir.join("replays"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    sessions.sort();
    let replay = rs::run(
        &inputs,
        &sessions,
        &[Strategy::KernelOnly, Strategy::Governed],
        &["none", "extractive"],
        &["CF1"],
    );
    let mut checked = 0;
    for run in &replay.runs {
        for k in &run.checks {
            if k.kind == CheckKind::Prohibition {
                assert!(
                    k.present,
                    "{} {}: {} absent at request {}",
                    run.session,
                    run.condition.label(),
                    k.item,
                    k.step
                );
                checked += 1;
            }
        }
        assert!(
            !run.compactions.is_empty(),
            "{} {}: never compacted",
            run.session,
            run.condition.label()
        );
    }
    assert!(checked > 1000, "only {checked} checks");
}

#[test]
fn governed_damaged_summary_still_carries_the_fact() {
    let Some(dir) = super::dir() else { return };
    let inputs = rs::billing_inputs(&repo());
    let replay = rs::run(
        &inputs,
        &[
            dir.join("replays/E1-baseline"),
            dir.join("replays/E1-governed"),
        ],
        &Strategy::ALL,
        &["recorded", "extractive"],
        &["CF1"],
    );
    let cf1 = inputs.key.facts.iter().find(|f| f.id == "CF1").unwrap();
    for run in replay
        .runs
        .iter()
        .filter(|r| !r.condition.damage.is_empty())
    {
        for m in &run.compactions {
            let lower = m.summary_text.to_lowercase();
            assert!(
                !cf1.key_terms
                    .iter()
                    .any(|t| lower.contains(&t.to_lowercase())),
                "{} {}: the damaged summary still names CF1",
                run.session,
                run.condition.label()
            );
            if run.condition.strategy.pins_evidence() {
                let present = run
                    .checks
                    .iter()
                    .find(|k| {
                        k.scope == Scope::Compaction
                            && k.compaction_seq == Some(m.seq)
                            && k.item == "CF1"
                    })
                    .map(|k| k.present);
                assert_eq!(
                    present,
                    Some(true),
                    "{} {}: pinned evidence should carry CF1",
                    run.session,
                    run.condition.label()
                );
            }
        }
    }
}

#[test]
fn queries_reproduce_the_report_on_reference_runs() {
    let Some(dir) = super::dir() else { return };
    let inputs = rs::billing_inputs(&repo());
    let sessions: Vec<PathBuf> = ["E1-baseline", "E1-governed", "E2-baseline"]
        .iter()
        .map(|n| dir.join("replays").join(n))
        .collect();
    let r = rs::run(
        &inputs,
        &sessions,
        &Strategy::ALL,
        &["none", "extractive", "recorded"],
        &["CF1"],
    );
    let tmp = tempfile::tempdir().unwrap();
    write(&inputs, &r, tmp.path());
    check_queries(tmp.path());
    let md = std::fs::read_to_string(tmp.path().join("report.md")).unwrap();
    assert!(
        md.contains("`contact_customer` sent at request 12"),
        "the report states the contact observation"
    );
}
