//! The replay database: one row per request, compaction, action and check,
//! with condition columns. `eval/replay.sql` holds the named queries that
//! reproduce every table of the report from it.

use std::path::Path;

use super::{ReplayError, Result};
use rusqlite::{params, Connection};

use crate::facts::FactKey;
use continuity_core::kernel::MissionKernel;

use super::engine::RunResult;
use super::Replay;
use super::{pct_tenths, recorded_seq, replay_condition_for};

pub const SCHEMA: &str = "
CREATE TABLE conditions (
  condition TEXT PRIMARY KEY, ord INTEGER NOT NULL, strategy TEXT NOT NULL,
  summarizer TEXT NOT NULL, damage TEXT NOT NULL,
  kernel_in_instructions INTEGER NOT NULL, pins_evidence INTEGER NOT NULL);
CREATE TABLE sessions (
  session TEXT PRIMARY KEY, ord INTEGER NOT NULL, kind TEXT NOT NULL, path TEXT NOT NULL,
  steps INTEGER NOT NULL, recorded_mode TEXT, recorded_input_tokens INTEGER,
  calibration_intercept REAL NOT NULL, calibration_slope REAL NOT NULL,
  calibration_intercept_int INTEGER NOT NULL, calibration_slope_milli INTEGER NOT NULL,
  calibration_points INTEGER NOT NULL, synthesized_results INTEGER NOT NULL);
CREATE TABLE runs (session TEXT NOT NULL, condition TEXT NOT NULL,
  PRIMARY KEY (session, condition));
CREATE TABLE requests (
  session TEXT NOT NULL, condition TEXT NOT NULL, strategy TEXT NOT NULL,
  summarizer TEXT NOT NULL, damage TEXT NOT NULL, step INTEGER NOT NULL,
  compaction_seq INTEGER, compacted_here INTEGER NOT NULL, est_tokens INTEGER NOT NULL,
  bundled_tokens INTEGER NOT NULL, messages INTEGER NOT NULL,
  terms_missing TEXT NOT NULL, facts_missing TEXT NOT NULL,
  PRIMARY KEY (session, condition, step));
CREATE TABLE compactions (
  session TEXT NOT NULL, condition TEXT NOT NULL, strategy TEXT NOT NULL,
  summarizer TEXT NOT NULL, damage TEXT NOT NULL, seq INTEGER NOT NULL, step INTEGER NOT NULL,
  est_before INTEGER NOT NULL, est_after INTEGER NOT NULL, reduction_pct REAL NOT NULL,
  reduction_tenths INTEGER NOT NULL,
  bundled_before INTEGER NOT NULL, bundled_after INTEGER NOT NULL,
  fixed INTEGER NOT NULL, kernel INTEGER NOT NULL, pinned INTEGER NOT NULL,
  framing INTEGER NOT NULL, summary INTEGER NOT NULL, tail INTEGER NOT NULL,
  summary_source TEXT NOT NULL, summary_words INTEGER NOT NULL,
  summarizer_in INTEGER NOT NULL, summarizer_out INTEGER NOT NULL,
  floor_required INTEGER NOT NULL, floor_met INTEGER NOT NULL, pins INTEGER NOT NULL,
  summary_text TEXT NOT NULL,
  PRIMARY KEY (session, condition, seq));
CREATE TABLE actions (
  session TEXT NOT NULL, condition TEXT NOT NULL, strategy TEXT NOT NULL,
  summarizer TEXT NOT NULL, damage TEXT NOT NULL, step INTEGER NOT NULL,
  call_id TEXT NOT NULL, ord INTEGER NOT NULL, tool TEXT NOT NULL, prohibition TEXT,
  compaction_seq INTEGER, constraint_present INTEGER, constraint_verbatim INTEGER,
  PRIMARY KEY (session, condition, step, ord));
CREATE TABLE checks (
  session TEXT NOT NULL, condition TEXT NOT NULL, strategy TEXT NOT NULL,
  summarizer TEXT NOT NULL, damage TEXT NOT NULL, step INTEGER NOT NULL,
  scope TEXT NOT NULL, call_id TEXT, compaction_seq INTEGER, kind TEXT NOT NULL,
  item TEXT NOT NULL, ord INTEGER NOT NULL, present INTEGER NOT NULL);
CREATE TABLE recorded_compactions (
  session TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, step INTEGER NOT NULL,
  uncompacted INTEGER NOT NULL, compacted INTEGER NOT NULL, fixed_overhead INTEGER NOT NULL,
  reduction_pct REAL NOT NULL, reduction_tenths INTEGER NOT NULL,
  terms_missing TEXT NOT NULL, facts_missing TEXT NOT NULL,
  fault TEXT NOT NULL, replay_condition TEXT NOT NULL,
  PRIMARY KEY (session, id));
CREATE INDEX checks_by_condition ON checks (condition, scope, kind);
";

pub fn write(path: &Path, replay: &Replay, _kernel: &MissionKernel, _key: &FactKey) -> Result<()> {
    if path.exists() {
        std::fs::remove_file(path).map_err(|e| ReplayError::io(path, e))?;
    }
    fill(path, replay).map_err(|source| ReplayError::Sql {
        path: path.to_path_buf(),
        source,
    })
}

fn fill(path: &Path, replay: &Replay) -> rusqlite::Result<()> {
    let mut db = Connection::open(path)?;
    db.execute_batch(SCHEMA)?;
    let tx = db.transaction()?;
    insert_conditions(&tx, replay)?;
    insert_sessions(&tx, replay)?;
    for run in &replay.runs {
        insert_run(&tx, run)?;
    }
    tx.commit()?;
    Ok(())
}

fn insert_conditions(tx: &Connection, replay: &Replay) -> rusqlite::Result<()> {
    let mut st = tx.prepare_cached("INSERT INTO conditions VALUES (?1,?2,?3,?4,?5,?6,?7)")?;
    for (i, c) in replay.conditions.iter().enumerate() {
        st.execute(params![
            c.label(),
            i as i64,
            c.strategy.name(),
            c.summarizer,
            c.damage.join(","),
            c.strategy.kernel_in_instructions(),
            c.strategy.pins_evidence()
        ])?;
    }
    Ok(())
}

/// Each session, then the compactions its record holds.
fn insert_sessions(tx: &Connection, replay: &Replay) -> rusqlite::Result<()> {
    let mut st = tx.prepare_cached(
        "INSERT INTO sessions VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)",
    )?;
    let mut rc = tx.prepare_cached(
        "INSERT INTO recorded_compactions VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)",
    )?;
    for (i, s) in replay.sessions.iter().enumerate() {
        st.execute(params![
            s.name,
            i as i64,
            s.kind.name(),
            s.path.display().to_string(),
            s.steps.len() as i64,
            s.recorded_mode,
            s.recorded_input_tokens.map(|n| n as i64),
            s.calibration.intercept,
            s.calibration.slope,
            s.calibration.intercept.round() as i64,
            (s.calibration.slope * 1000.0).round() as i64,
            s.calibration.points as i64,
            s.synthesized_results as i64
        ])?;
        for r in &s.recorded {
            rc.execute(params![
                s.name,
                r.id,
                recorded_seq(&r.id) as i64,
                r.step as i64,
                r.uncompacted as i64,
                r.compacted as i64,
                r.fixed_overhead as i64,
                r.reduction_pct,
                pct_tenths(r.reduction_pct),
                r.terms_missing.join(", "),
                r.facts_missing.join(", "),
                r.fault,
                replay_condition_for(s.recorded_mode.as_deref())
            ])?;
        }
    }
    Ok(())
}

/// The columns every row of a run starts with.
struct RunKey {
    label: String,
    strategy: &'static str,
    summarizer: String,
    damage: String,
}

/// A run's row, then its requests, compactions, actions and checks.
fn insert_run(tx: &Connection, run: &RunResult) -> rusqlite::Result<()> {
    let c = &run.condition;
    let key = RunKey {
        label: c.label(),
        strategy: c.strategy.name(),
        summarizer: c.summarizer.clone(),
        damage: c.damage.join(","),
    };
    tx.prepare_cached("INSERT INTO runs VALUES (?1,?2)")?
        .execute(params![run.session, key.label])?;
    insert_requests(tx, run, &key)?;
    insert_compactions(tx, run, &key)?;
    insert_actions(tx, run, &key)?;
    insert_checks(tx, run, &key)
}

fn insert_requests(tx: &Connection, run: &RunResult, key: &RunKey) -> rusqlite::Result<()> {
    let mut req = tx.prepare_cached(
        "INSERT INTO requests VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)",
    )?;
    for r in &run.requests {
        req.execute(params![
            run.session,
            key.label,
            key.strategy,
            key.summarizer,
            key.damage,
            r.step as i64,
            r.compaction_seq.map(|n| n as i64),
            r.compacted_here,
            r.est_tokens as i64,
            r.bundled_tokens as i64,
            r.messages as i64,
            r.terms_missing.join(", "),
            r.facts_missing.join(", ")
        ])?;
    }
    Ok(())
}

fn insert_compactions(tx: &Connection, run: &RunResult, key: &RunKey) -> rusqlite::Result<()> {
    let mut cmp = tx.prepare_cached(
        "INSERT INTO compactions VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27)",
    )?;
    for m in &run.compactions {
        cmp.execute(params![
            run.session,
            key.label,
            key.strategy,
            key.summarizer,
            key.damage,
            m.seq as i64,
            m.step as i64,
            m.est_before as i64,
            m.est_after as i64,
            m.reduction_pct,
            pct_tenths(m.reduction_pct),
            m.bundled_before as i64,
            m.bundled_after as i64,
            m.fixed as i64,
            m.kernel as i64,
            m.pinned as i64,
            m.framing as i64,
            m.summary as i64,
            m.tail as i64,
            m.summary_source,
            m.summary_words as i64,
            m.summarizer_in as i64,
            m.summarizer_out as i64,
            m.floor_required as i64,
            m.floor_met,
            m.pins as i64,
            m.summary_text
        ])?;
    }
    Ok(())
}

fn insert_actions(tx: &Connection, run: &RunResult, key: &RunKey) -> rusqlite::Result<()> {
    let mut act = tx.prepare_cached(
        "INSERT INTO actions VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)",
    )?;
    for a in &run.actions {
        act.execute(params![
            run.session,
            key.label,
            key.strategy,
            key.summarizer,
            key.damage,
            a.step as i64,
            a.call_id,
            a.ord as i64,
            a.tool,
            a.prohibition,
            a.compaction_seq.map(|n| n as i64),
            a.constraint_present,
            a.constraint_verbatim
        ])?;
    }
    Ok(())
}

fn insert_checks(tx: &Connection, run: &RunResult, key: &RunKey) -> rusqlite::Result<()> {
    let mut chk = tx
        .prepare_cached("INSERT INTO checks VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13)")?;
    for k in &run.checks {
        chk.execute(params![
            run.session,
            key.label,
            key.strategy,
            key.summarizer,
            key.damage,
            k.step as i64,
            k.scope.name(),
            k.call_id,
            k.compaction_seq.map(|n| n as i64),
            k.kind.name(),
            k.item,
            k.ord as i64,
            k.present
        ])?;
    }
    Ok(())
}

/// The named queries of an SQL file: `-- name: NAME` starts one, it runs to
/// the next name line.
pub fn named_queries(sql: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in sql.lines() {
        if let Some(name) = line.trim().strip_prefix("-- name:") {
            out.push((name.trim().to_string(), String::new()));
        } else if let Some((_, q)) = out.last_mut() {
            q.push_str(line);
            q.push('\n');
        }
    }
    out
}

/// Run one query; every value comes back as text (NULL as `-`).
pub fn query_strings(db: &Connection, sql: &str) -> rusqlite::Result<Vec<Vec<String>>> {
    let mut st = db.prepare(sql)?;
    let n = st.column_count();
    let rows = st.query_map([], |row| {
        (0..n)
            .map(|i| {
                Ok(match row.get_ref(i)? {
                    rusqlite::types::ValueRef::Null => "-".to_string(),
                    rusqlite::types::ValueRef::Integer(v) => v.to_string(),
                    rusqlite::types::ValueRef::Real(v) => format!("{v:.1}"),
                    rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).to_string(),
                    rusqlite::types::ValueRef::Blob(_) => "<blob>".to_string(),
                })
            })
            .collect::<rusqlite::Result<Vec<String>>>()
    })?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
}
