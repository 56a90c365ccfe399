//! The core's integration tests: one binary, no model stack. Token counts
//! here come from `WordCount`; exact counts are tested with the real
//! tokenizer in `continuity-models` and the golden tests of the binary.
#![allow(clippy::unwrap_used)]

mod archives;
mod formats;
mod governance_ledger;
mod governance_memory;
mod governance_pin;
mod governance_preflight;
mod personal_data;
mod personal_recall;
mod pipeline;
mod plant;
mod run_privacy;
mod secrets;
mod shapes;
mod transcripts;
mod working_state;
