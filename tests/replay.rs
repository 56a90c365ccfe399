//! `continuity replay`: the guarantees, on a synthetic plain session and on
//! the published reference runs (../shared, read at run time, never copied).

mod common;
mod replay_support;

use std::io::Write as _;
use std::path::PathBuf;

use continuity::compact::Strategy;
use continuity::replay::engine::{damage_text, CheckKind, Scope};
use continuity::replay::RunResult;
use replay_support as rs;

const REPLAY_REFERENCE_TESTS: &str =
    "replay::recorded_summary_reproduces_the_contact_observation, \
replay::recorded_summary_replays_match_recorded_checks, \
replay::kernel_strategies_keep_every_prohibition_at_every_action, \
replay::governed_damaged_summary_still_carries_the_fact";

static SKIP_NOTICE: std::sync::Once = std::sync::Once::new();

fn reference() -> Option<PathBuf> {
    let dir = common::reference_dir();
    if dir.join("replays").is_dir() {
        Some(dir)
    } else {
        // Past libtest's capture, once: one line naming every skipped test.
        SKIP_NOTICE.call_once(|| {
            let _ = writeln!(
                std::io::stderr(),
                "skipped replay reference tests ({} not found): {REPLAY_REFERENCE_TESTS}",
                dir.display()
            );
        });
        None
    }
}

fn runs_of<'a>(r: &'a continuity::replay::Replay, label: &str) -> Vec<&'a RunResult> {
    r.runs
        .iter()
        .filter(|x| x.condition.label() == label)
        .collect()
}

#[test]
fn plain_session_triggers_follow_the_policy_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let path = rs::synthetic_session(tmp.path());
    let inputs = rs::synthetic_inputs();
    let replay = rs::run(
        &inputs,
        &[path],
        &Strategy::ALL,
        &["none", "extractive"],
        &[],
    );
    let rules = &inputs.policy.compaction;
    for run in &replay.runs {
        assert!(
            !run.compactions.is_empty(),
            "{}: no compaction",
            run.condition.label()
        );
        let mut last: Option<usize> = None;
        for m in &run.compactions {
            let prev = run
                .requests
                .iter()
                .find(|q| q.step + 1 == m.step)
                .expect("a request before each compaction");
            assert!(
                prev.est_tokens > rules.trigger_tokens,
                "{} compacted at {} below the trigger",
                run.condition.label(),
                m.step
            );
            if let Some(l) = last {
                assert!(m.step > l + 1, "compactions on consecutive requests");
                // At least three results arrived since: one round per request.
                assert!(m.step - l >= 2);
            }
            last = Some(m.step);
        }
        // Plain sessions count with the bundled tokenizer, unscaled.
        for q in &run.requests {
            assert_eq!(q.est_tokens, q.bundled_tokens);
        }
    }
}

#[test]
fn prohibition_presence_decides_the_prohibited_action() {
    let tmp = tempfile::tempdir().unwrap();
    let path = rs::synthetic_session(tmp.path());
    let inputs = rs::synthetic_inputs();
    let replay = rs::run(&inputs, &[path], &Strategy::ALL, &["none"], &[]);
    let get = |label: &str| {
        let r = runs_of(&replay, label)[0];
        r.actions
            .iter()
            .find(|a| a.tool == "delete_service")
            .cloned()
            .expect("the delete_service action")
    };
    let so = get("summary-only/none");
    assert_eq!(so.prohibition.as_deref(), Some("no-service-delete"));
    assert!(so.compaction_seq.is_some());
    assert_eq!(
        so.constraint_present,
        Some(false),
        "summary-only with no summary cannot carry the limit"
    );
    for label in ["kernel-only/none", "governed/none"] {
        let a = get(label);
        assert_eq!(a.constraint_present, Some(true), "{label}");
        assert_eq!(a.constraint_verbatim, Some(true), "{label}");
    }
}

#[test]
fn damage_removes_every_sentence_naming_the_fact() {
    let text = "TX-9002 was an authorization. The add-on was valid! The authorization was released.\nCR-778 is owed";
    let d = damage_text(text, &["TX-9002".into(), "authorization".into()]);
    assert_eq!(d, "The add-on was valid! CR-778 is owed");
    assert!(!d.to_lowercase().contains("authorization"));
}

#[test]
fn recorded_summary_reproduces_the_contact_observation() {
    let Some(dir) = reference() else { return };
    let inputs = rs::billing_inputs(&common::repo());
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
    let Some(dir) = reference() else { return };
    let inputs = rs::billing_inputs(&common::repo());
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
    let Some(dir) = reference() else { return };
    let inputs = rs::billing_inputs(&common::repo());
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
    let Some(dir) = reference() else { return };
    let inputs = rs::billing_inputs(&common::repo());
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
