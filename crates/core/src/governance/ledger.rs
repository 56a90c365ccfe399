//! The effect ledger: append-only JSON lines, each fsynced and hash-chained.
//!
//! Every line is a JSON object whose first keys are `seq` (1-based line
//! number) and `prev` (SHA-256 of the previous line's bytes, or 64 zeros for
//! the first), and whose last key is `sha256` (SHA-256 of the line as written
//! without that key). Any changed, removed, inserted or reordered byte breaks
//! either a line's own hash or the next line's `prev`.
//!
//! Before a side-effecting call a runtime writes PREPARE (effect id, tool,
//! digest of the arguments, idempotency key `run_id:effect_id`); after the
//! system of record confirms success, COMMIT (effect id, receipt). A
//! prepared effect without a COMMIT is *unknown*: [`reconcile`] lists it with
//! the idempotency key to query, and never guesses that it failed. ABORT
//! records that the system of record confirmed the effect did not happen.

use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::digest::{args_digest, sha256_hex};
pub use crate::error::LedgerError;

pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> LedgerError + '_ {
    move |source| LedgerError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The outcome of checking a chained log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifyReport {
    pub file: String,
    /// Complete, intact lines before the first broken one.
    pub intact_lines: usize,
    pub total_lines: usize,
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_broken_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// SHA-256 of the last intact line (the chain head).
    pub head: String,
}

/// Check a chain over the raw bytes of a log; returns the report and the
/// parsed intact records.
pub fn verify_bytes(file: &str, bytes: &[u8]) -> (VerifyReport, Vec<Map<String, Value>>) {
    let mut records = Vec::new();
    let mut prev = GENESIS.to_string();
    let pieces: Vec<&[u8]> = bytes.split_inclusive(|b| *b == b'\n').collect();
    let total = pieces.len();
    let mut broken: Option<(usize, String)> = None;
    for (i, piece) in pieces.iter().enumerate() {
        let n = i + 1;
        let Some(line) = piece.strip_suffix(b"\n") else {
            broken = Some((
                n,
                "incomplete last line (no newline): a write was interrupted".into(),
            ));
            break;
        };
        match check_line(line, n, &prev) {
            Ok(rec) => {
                records.push(rec);
                prev = sha256_hex(line);
            }
            Err(reason) => {
                broken = Some((n, reason));
                break;
            }
        }
    }
    let report = VerifyReport {
        file: file.to_string(),
        intact_lines: records.len(),
        total_lines: total,
        ok: broken.is_none(),
        first_broken_line: broken.as_ref().map(|b| b.0),
        reason: broken.map(|b| b.1),
        head: prev,
    };
    (report, records)
}

fn check_line(line: &[u8], n: usize, prev: &str) -> Result<Map<String, Value>, String> {
    let text = std::str::from_utf8(line).map_err(|_| "not UTF-8".to_string())?;
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(mut m) = v else {
        return Err("not a JSON object".into());
    };
    if serde_json::to_string(&m).ok().as_deref() != Some(text) {
        return Err("not in the canonical form it was written in (edited)".into());
    }
    if m.get("seq").and_then(Value::as_u64) != Some(n as u64) {
        return Err(format!(
            "`seq` is not {n} (a line was removed, inserted or moved)"
        ));
    }
    if m.get("prev").and_then(Value::as_str) != Some(prev) {
        return Err(format!(
            "`prev` does not match the sha256 of line {} (that line or this one was altered)",
            n.saturating_sub(1)
        ));
    }
    let Some(Value::String(own)) = m.remove("sha256") else {
        return Err("no `sha256`".into());
    };
    let body = serde_json::to_string(&m).unwrap_or_default();
    if sha256_hex(body.as_bytes()) != own {
        return Err("its content does not match its `sha256` (altered)".into());
    }
    m.insert("sha256".into(), Value::String(own));
    Ok(m)
}

pub fn verify(path: &Path) -> Result<VerifyReport, LedgerError> {
    let bytes = fs::read(path).map_err(io_err(path))?;
    Ok(verify_bytes(&path.display().to_string(), &bytes).0)
}

/// An append-only, hash-chained JSON-lines file (the effect ledger and the
/// memory log share it). One writer at a time.
#[derive(Debug)]
pub struct ChainLog {
    path: PathBuf,
    head: String,
    next_seq: u64,
}

impl ChainLog {
    /// Open (creating if absent) and verify the whole chain; a broken chain
    /// is refused.
    pub fn open(path: &Path) -> Result<(Self, Vec<Map<String, Value>>), LedgerError> {
        let bytes = match fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io_err(path)(e)),
        };
        let (report, records) = verify_bytes(&path.display().to_string(), &bytes);
        if let (Some(line), Some(reason)) = (report.first_broken_line, report.reason) {
            return Err(LedgerError::Broken {
                path: path.to_path_buf(),
                line,
                reason,
            });
        }
        Ok((
            ChainLog {
                path: path.to_path_buf(),
                head: report.head,
                next_seq: records.len() as u64 + 1,
            },
            records,
        ))
    }

    /// Append one record (its own keys after `seq` and `prev`), fsynced.
    pub fn append(&mut self, body: Map<String, Value>) -> Result<Map<String, Value>, LedgerError> {
        let mut m = Map::new();
        m.insert("seq".into(), Value::from(self.next_seq));
        m.insert("prev".into(), Value::String(self.head.clone()));
        for (k, v) in body {
            if !matches!(k.as_str(), "seq" | "prev" | "sha256") {
                m.insert(k, v);
            }
        }
        let own = sha256_hex(serde_json::to_string(&m).unwrap_or_default().as_bytes());
        m.insert("sha256".into(), Value::String(own));
        let line = serde_json::to_string(&m).unwrap_or_default();
        let created = !self.path.exists();
        if let Some(parent) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(parent).map_err(io_err(parent))?;
        }
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(io_err(&self.path))?;
        f.write_all(format!("{line}\n").as_bytes())
            .map_err(io_err(&self.path))?;
        f.sync_all().map_err(io_err(&self.path))?;
        if created {
            // Make the new directory entry durable too.
            if let Some(parent) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
                if let Ok(d) = fs::File::open(parent) {
                    let _ = d.sync_all();
                }
            }
        }
        self.head = sha256_hex(line.as_bytes());
        self.next_seq += 1;
        Ok(m)
    }
}

/// What PREPARE hands back to the runtime: pass the key to the system of
/// record so a retry can be recognised there.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prepared {
    pub effect_id: String,
    pub idempotency_key: String,
    pub args_sha256: String,
}

/// A prepared effect with no COMMIT or ABORT.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PendingEffect {
    pub effect_id: String,
    pub run_id: String,
    pub tool: String,
    pub args_sha256: String,
    pub idempotency_key: String,
    pub prepared_line: usize,
    pub prepared_at: String,
    /// Always `unknown`: a crash says nothing about whether it happened.
    pub status: &'static str,
    pub action: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reconciliation {
    pub chain: VerifyReport,
    pub prepared: usize,
    pub committed: usize,
    pub aborted: usize,
    pub pending: Vec<PendingEffect>,
}

#[derive(Debug, Clone)]
struct EffectState {
    prepare: Map<String, Value>,
    line: usize,
    closed: Option<&'static str>,
}

fn fold(records: &[Map<String, Value>]) -> BTreeMap<String, EffectState> {
    let mut effects: BTreeMap<String, EffectState> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        let kind = r.get("kind").and_then(Value::as_str).unwrap_or("");
        let Some(id) = r.get("effect_id").and_then(Value::as_str) else {
            continue;
        };
        match kind {
            "prepare" => {
                effects.entry(id.to_string()).or_insert(EffectState {
                    prepare: r.clone(),
                    line: i + 1,
                    closed: None,
                });
            }
            "commit" | "abort" => {
                if let Some(e) = effects.get_mut(id) {
                    e.closed = Some(if kind == "commit" { "commit" } else { "abort" });
                }
            }
            _ => {}
        }
    }
    effects
}

fn pending_of(effects: &BTreeMap<String, EffectState>) -> Vec<PendingEffect> {
    let mut out: Vec<PendingEffect> = effects
        .iter()
        .filter(|(_, e)| e.closed.is_none())
        .map(|(id, e)| {
            let s = |k: &str| {
                e.prepare
                    .get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            let key = s("idempotency_key");
            PendingEffect {
                effect_id: id.clone(),
                run_id: s("run_id"),
                tool: s("tool"),
                args_sha256: s("args_sha256"),
                prepared_line: e.line,
                prepared_at: s("ts"),
                status: "unknown",
                action: format!(
                    "unknown — query the system of record with idempotency key {key}; do not assume it failed and do not retry before the answer"
                ),
                idempotency_key: key,
            }
        })
        .collect();
    out.sort_by_key(|p| p.prepared_line);
    out
}

/// Effects prepared but never committed (nor aborted), from the intact part
/// of the chain; `chain` says whether the whole file verified.
pub fn reconcile(path: &Path) -> Result<Reconciliation, LedgerError> {
    let bytes = fs::read(path).map_err(io_err(path))?;
    let (chain, records) = verify_bytes(&path.display().to_string(), &bytes);
    let effects = fold(&records);
    Ok(Reconciliation {
        prepared: effects.len(),
        committed: effects
            .values()
            .filter(|e| e.closed == Some("commit"))
            .count(),
        aborted: effects
            .values()
            .filter(|e| e.closed == Some("abort"))
            .count(),
        pending: pending_of(&effects),
        chain,
    })
}

/// The runtime's handle on a ledger.
#[derive(Debug)]
pub struct Ledger {
    log: ChainLog,
    run_id: String,
    effects: BTreeMap<String, EffectState>,
    records: usize,
}

impl Ledger {
    /// Open (or create) a ledger for `run_id`; the existing chain must verify.
    pub fn open(path: &Path, run_id: &str) -> Result<Self, LedgerError> {
        let (log, records) = ChainLog::open(path)?;
        Ok(Ledger {
            log,
            run_id: run_id.to_string(),
            effects: fold(&records),
            records: records.len(),
        })
    }

    pub fn idempotency_key(&self, effect_id: &str) -> String {
        format!("{}:{effect_id}", self.run_id)
    }

    fn write(
        &mut self,
        kind: &str,
        effect_id: &str,
        now: DateTime<Utc>,
        extra: Map<String, Value>,
    ) -> Result<Map<String, Value>, LedgerError> {
        let mut body = Map::new();
        body.insert("kind".into(), kind.into());
        body.insert("effect_id".into(), effect_id.into());
        body.insert("run_id".into(), self.run_id.clone().into());
        body.insert("ts".into(), now.to_rfc3339().into());
        body.extend(extra);
        let rec = self.log.append(body)?;
        self.records += 1;
        Ok(rec)
    }

    /// Write PREPARE before making the call.
    pub fn prepare(
        &mut self,
        effect_id: &str,
        tool: &str,
        args: &Value,
    ) -> Result<Prepared, LedgerError> {
        self.prepare_at(effect_id, tool, args, Utc::now())
    }

    pub fn prepare_at(
        &mut self,
        effect_id: &str,
        tool: &str,
        args: &Value,
        now: DateTime<Utc>,
    ) -> Result<Prepared, LedgerError> {
        if self.effects.contains_key(effect_id) {
            return Err(LedgerError::Effect {
                effect_id: effect_id.into(),
                message: "already prepared; effect ids are single-use".into(),
            });
        }
        let key = self.idempotency_key(effect_id);
        let digest = args_digest(args);
        let mut extra = Map::new();
        extra.insert("tool".into(), tool.into());
        extra.insert("args_sha256".into(), digest.clone().into());
        extra.insert("idempotency_key".into(), key.clone().into());
        let rec = self.write("prepare", effect_id, now, extra)?;
        self.effects.insert(
            effect_id.to_string(),
            EffectState {
                prepare: rec,
                line: self.records,
                closed: None,
            },
        );
        Ok(Prepared {
            effect_id: effect_id.into(),
            idempotency_key: key,
            args_sha256: digest,
        })
    }

    fn close(
        &mut self,
        kind: &'static str,
        effect_id: &str,
        field: &str,
        value: &str,
        now: DateTime<Utc>,
    ) -> Result<(), LedgerError> {
        match self.effects.get(effect_id) {
            None => {
                return Err(LedgerError::Effect {
                    effect_id: effect_id.into(),
                    message: format!("{kind} without a PREPARE"),
                })
            }
            Some(e) if e.closed.is_some() => {
                return Err(LedgerError::Effect {
                    effect_id: effect_id.into(),
                    message: format!("already closed by {}", e.closed.unwrap_or_default()),
                })
            }
            Some(_) => {}
        }
        let mut extra = Map::new();
        extra.insert(field.into(), value.into());
        self.write(kind, effect_id, now, extra)?;
        if let Some(e) = self.effects.get_mut(effect_id) {
            e.closed = Some(kind);
        }
        Ok(())
    }

    /// Write COMMIT after the system of record confirmed the effect.
    pub fn commit(&mut self, effect_id: &str, receipt: &str) -> Result<(), LedgerError> {
        self.close("commit", effect_id, "receipt", receipt, Utc::now())
    }

    /// Write ABORT when the system of record confirmed it did not happen.
    pub fn abort(&mut self, effect_id: &str, evidence: &str) -> Result<(), LedgerError> {
        self.close("abort", effect_id, "evidence", evidence, Utc::now())
    }

    pub fn pending(&self) -> Vec<PendingEffect> {
        pending_of(&self.effects)
    }
}
