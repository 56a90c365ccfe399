//! Planted personal data never reaches any file the tool writes.

use continuity_core::compact::Strategy;

#[test]
fn placeholders_are_stable_within_a_run() {
    let dir = continuity_test_support::repo().join("examples/billing-dispute");
    let t = continuity_test_support::load_transcript(&dir.join("session.json"));
    let kernel = continuity_test_support::load_kernel(&dir.join("kernel.toml"));
    let policy = continuity_test_support::load_policy(&dir.join("policy.toml"));
    let c = continuity_test_support::run(&t, &kernel, &policy, Strategy::Governed, "extractive");
    let mut by_placeholder = std::collections::HashMap::new();
    for r in &c.redactions {
        by_placeholder
            .entry(r.placeholder.clone())
            .or_insert_with(Vec::new)
            .push(r.rule.clone());
    }
    assert!(!by_placeholder.is_empty());
    // One placeholder per value: far fewer placeholders than redactions.
    assert!(by_placeholder.len() < c.redactions.len());
}
