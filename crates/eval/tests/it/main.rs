//! The evaluator's, replay's and the adversarial suite's integration tests:
//! one binary. The reference runs are replayed in the binary crate's
//! `reference` tests, so that one line names every skipped one.
#![allow(clippy::unwrap_used)]

mod adversarial;
mod evaluate;
mod replay;
mod replay_sql;
#[allow(dead_code)]
mod replay_support;
mod xenc;
