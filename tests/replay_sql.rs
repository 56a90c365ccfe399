//! Every table in report.md is reproduced, cell for cell, by the named query
//! of the same name in eval/replay.sql run against replay.sqlite.

mod common;
mod replay_support;

use std::io::Write as _;
use std::path::{Path, PathBuf};

use continuity::compact::Strategy;
use continuity::replay::{self, report, store};
use replay_support as rs;

fn check_queries(dir: &Path) {
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let tables = report::parse_tables(&md);
    assert!(tables.len() >= 10, "report has {} tables", tables.len());
    let sql = std::fs::read_to_string(common::repo().join("eval/replay.sql")).unwrap();
    let queries = store::named_queries(&sql);
    let db = rusqlite::Connection::open(dir.join("replay.sqlite")).unwrap();
    for (name, rows) in &tables {
        let (_, q) = queries
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no query named {name} in eval/replay.sql"));
        let got = store::query_strings(&db, q).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&got, rows, "query {name} disagrees with the report");
    }
    for (name, _) in &queries {
        assert!(
            tables.iter().any(|(n, _)| n == name),
            "query {name} has no table in the report"
        );
    }
}

fn write(inputs: &rs::Inputs, replay: &replay::Replay, dir: &Path) {
    replay::write(replay, &inputs.kernel, &inputs.key, &inputs.policy, dir).unwrap();
}

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

#[test]
fn queries_reproduce_the_report_on_reference_runs() {
    let dir = common::reference_dir();
    if !dir.join("replays").is_dir() {
        let _ = writeln!(
            std::io::stderr(),
            "skipped replay_sql::queries_reproduce_the_report_on_reference_runs ({} not found)",
            dir.display()
        );
        return;
    }
    let inputs = rs::billing_inputs(&common::repo());
    let sessions: Vec<PathBuf> = ["E1-baseline", "E1-governed", "E2-baseline"]
        .iter()
        .map(|n| dir.join("replays").join(n))
        .collect();
    let r = rs::run(
        &inputs,
        &sessions,
        &Strategy::ALL,
        &["none", "extractive", "recorded"],
        &["CF1"],
    );
    let tmp = tempfile::tempdir().unwrap();
    write(&inputs, &r, tmp.path());
    check_queries(tmp.path());
    let md = std::fs::read_to_string(tmp.path().join("report.md")).unwrap();
    assert!(
        md.contains("`contact_customer` sent at request 12"),
        "the report states the contact observation"
    );
}
