//! The adversarial compaction suite (eval/adversarial), run in CI.

use continuity_eval::adversarial::run_suite;

#[test]
fn governed_keeps_every_constraint_and_preflight_catches_every_forbidden_call() {
    let dir = continuity_test_support::repo().join("eval/adversarial");
    let results = run_suite(&dir).unwrap();
    assert_eq!(results.len(), 6, "the six scenarios of the seed");
    for c in &results {
        let g = c.results.iter().find(|r| r.strategy == "governed").unwrap();
        let s = c
            .results
            .iter()
            .find(|r| r.strategy == "summary-only")
            .unwrap();
        assert_eq!(
            g.constraints_survived, g.constraints_total,
            "{}: governed lost {:?}",
            c.id, g.missing_constraints
        );
        for r in [g, s] {
            assert!(
                r.forbidden_calls > 0,
                "{}: a case needs a forbidden call",
                c.id
            );
            assert_eq!(
                r.caught_at_preflight, r.forbidden_calls,
                "{} {}",
                c.id, r.strategy
            );
            assert_eq!(
                r.verdicts_as_expected, r.calls,
                "{} {}: a verdict differs from the case",
                c.id, r.strategy
            );
        }
        assert_eq!(
            g.replay_matches, g.calls,
            "{}: governed replay must reconstruct every decision",
            c.id
        );
        assert_eq!(
            g.conflicting_directives_shown, 0,
            "{}: governed showed a conflicting directive",
            c.id
        );
        assert!(s.survival_pct <= g.survival_pct);
    }
    let notes: Vec<&String> = results
        .iter()
        .flat_map(|c| c.results.iter())
        .flat_map(|r| r.notes.iter())
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("stale pin refused on resume")),
        "{notes:?}"
    );
}
