//! Every test that reads the published reference runs
//! (`../shared/reference/mission-continuity`, or `$CONTINUITY_REFERENCE`).
//! They are never copied into the repository; without them these tests pass
//! and one line names them all.

mod archives;
mod golden;
mod preflight;
mod replay;

use std::path::PathBuf;

use continuity_core::compact::{Compaction, Strategy};
use continuity_core::{MissionKernel, RetentionPolicy, Transcript};
use continuity_eval::facts::FactKey;

/// The tests below, as the skip line names them.
const TESTS: &str = "reference::archives::governed_keeps_every_prohibition_fact_and_term, \
reference::archives::summary_only_never_carries_the_kernel, \
reference::archives::outputs_are_valid_requests, \
reference::archives::reduction_is_reported_beside_the_reference, \
reference::archives::lfm_resummary_matches_recorded_keyword_checks, \
reference::golden::reference_archive_outputs_are_unchanged, \
reference::preflight::the_recorded_reference_run_contact_is_caught, \
reference::replay::recorded_summary_reproduces_the_contact_observation, \
reference::replay::recorded_summary_replays_match_recorded_checks, \
reference::replay::kernel_strategies_keep_every_prohibition_at_every_action, \
reference::replay::governed_damaged_summary_still_carries_the_fact, \
reference::replay::queries_reproduce_the_report_on_reference_runs";

/// The reference folder, or `None` after the one skip line.
fn dir() -> Option<PathBuf> {
    continuity_test_support::reference_or_skip(TESTS)
}

/// The reference mission's kernel, policy and key, translated into ours.
fn eval(name: &str) -> PathBuf {
    continuity_test_support::repo()
        .join("eval/billing-dispute")
        .join(name)
}

fn load_key(path: &std::path::Path) -> FactKey {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    FactKey::from_toml(&text, &continuity_core::error::Source::path(path))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A compaction counted with the bundled tokenizer, as the CLI counts.
fn run(
    t: &Transcript,
    kernel: &MissionKernel,
    policy: &RetentionPolicy,
    strategy: Strategy,
    summarizer: &str,
) -> Compaction {
    let mut s = continuity_models::by_name(summarizer).expect("summarizer");
    continuity_test_support::run_with(t, kernel, policy, strategy, s.as_mut(), crate::tokenizer())
}
