//! The folder batch runner's integration tests: one binary, no model or
//! compaction (the work for a session is a closure here).
#![allow(clippy::unwrap_used)]

mod batch;
