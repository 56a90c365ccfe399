//! `continuity replay`: the guarantees, on a synthetic plain session (the
//! reference runs are replayed in the binary's `reference` tests).

use crate::replay_support::{self as rs, runs_of};
use continuity_core::compact::Strategy;
use continuity_eval::replay::engine::damage_text;

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
