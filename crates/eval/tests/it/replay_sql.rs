//! Every table in report.md is reproduced, cell for cell, by the named query
//! of the same name in eval/replay.sql run against replay.sqlite.

use crate::replay_support::{self as rs, check_queries, write};
use continuity_core::compact::Strategy;

#[test]
fn queries_reproduce_the_report_on_a_plain_session() {
    let tmp = tempfile::tempdir().unwrap();
    let path = rs::synthetic_session(tmp.path());
    let inputs = rs::synthetic_inputs();
    let r = rs::run(
        &inputs,
        &[path],
        &Strategy::ALL,
        &["none", "extractive"],
        &["F2"],
    );
    let out = tmp.path().join("out");
    write(&inputs, &r, &out);
    check_queries(&out);
    // Charts are SVG with their text drawn.
    let svg = std::fs::read_to_string(out.join("reduction.svg")).unwrap();
    assert!(svg.contains("<text") && svg.contains("summary-only/none"));
}
