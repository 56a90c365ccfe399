//! Tests of the summarizers and counters that join the core to the
//! runtime: one binary. Tests that need a fetched model skip with one line.
#![allow(clippy::unwrap_used)]

mod agent;
mod summarize;
mod tokenizer;
