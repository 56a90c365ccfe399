//! The bodies of the governance subcommands, so `main.rs` stays thin. Each
//! prints its result and returns whether the check passed (the CLI exits 3
//! when it did not).

use std::path::Path;

use chrono::{DateTime, Utc};

use super::ledger::{self, Ledger};
use super::memory::MemoryStore;
use super::pin::{PinContext, PolicyPin};
use super::preflight::{read_calls, Preflight};
use super::GovernanceError;
use crate::error::{Error, InputError, Result, Source};
use crate::kernel::MissionKernel;

/// The pin context for a compaction into `out`: after the pin already there
/// (same run: next sequence), else a first rebuild.
pub fn pin_context(
    out: &Path,
    kernel: &MissionKernel,
    input_name: &str,
    run_id: Option<&str>,
    now: DateTime<Utc>,
) -> Result<PinContext> {
    let path = out.join("policy_pin.json");
    match std::fs::read(&path) {
        Ok(bytes) => {
            let prev = PolicyPin::from_json(&bytes).map_err(GovernanceError::from)?;
            Ok(PinContext::after(prev, run_id, now).map_err(GovernanceError::from)?)
        }
        Err(_) => {
            let mut ctx = PinContext::first(kernel, input_name, now);
            if let Some(r) = run_id {
                ctx.run_id = r.to_string();
            }
            Ok(ctx)
        }
    }
}

fn json_out<T: serde::Serialize>(v: &T) -> Result<()> {
    println!(
        "{}",
        serde_json::to_string_pretty(v).map_err(|e| Error::Internal(e.to_string()))?
    );
    Ok(())
}

pub fn preflight(
    kernel: &MissionKernel,
    calls: &str,
    scope: Vec<String>,
    ledger_file: Option<&Path>,
    json: bool,
) -> Result<bool> {
    let calls = read_calls(calls)?;
    let mut gate = Preflight::new(kernel)?.with_scope(scope);
    if let Some(l) = ledger_file {
        gate = gate.with_pending(ledger::reconcile(l).map_err(GovernanceError::from)?.pending);
    }
    let verdicts: Vec<_> = calls.iter().map(|c| gate.check(c)).collect();
    let blocked = verdicts.iter().filter(|v| !v.allowed()).count();
    if json {
        json_out(&serde_json::json!({
            "kernel": {"id": kernel.id, "version": kernel.version, "sha256": kernel.sha256},
            "calls": verdicts.len(),
            "not_allowed": blocked,
            "verdicts": verdicts,
        }))?;
    } else {
        for v in &verdicts {
            let id = v
                .call_id
                .as_deref()
                .map(|i| format!(" [{i}]"))
                .unwrap_or_default();
            let scope = v
                .hits
                .first()
                .filter(|h| !h.scope_matched.is_empty())
                .map(|h| format!(" (scope {})", h.scope_matched.join(", ")))
                .unwrap_or_default();
            match &v.rule {
                Some(rule) => println!(
                    "{:<16} {}{id}  by {rule}{scope}: {}",
                    v.decision.as_str().to_uppercase(),
                    v.tool,
                    v.reason
                ),
                None => println!("{:<16} {}{id}", "ALLOW", v.tool),
            }
        }
        println!(
            "{} call(s), {} not allowed (kernel {} v{} sha256 {})",
            verdicts.len(),
            blocked,
            kernel.id,
            kernel.version,
            kernel.short_hash()
        );
    }
    Ok(blocked == 0)
}

fn ledger_io(e: ledger::LedgerError) -> Error {
    Error::Governance(e.into())
}

pub fn ledger_verify(file: &Path, json: bool) -> Result<bool> {
    let r = ledger::verify(file).map_err(ledger_io)?;
    if json {
        json_out(&r)?;
    } else if r.ok {
        println!(
            "{}: chain intact, {} line(s), head {}",
            r.file,
            r.total_lines,
            &r.head[..12]
        );
    } else {
        println!(
            "{}: chain BROKEN at line {}: {} ({} intact line(s) before it)",
            r.file,
            r.first_broken_line.unwrap_or(0),
            r.reason.as_deref().unwrap_or(""),
            r.intact_lines
        );
    }
    Ok(r.ok)
}

pub fn ledger_reconcile(file: &Path, json: bool) -> Result<bool> {
    let r = ledger::reconcile(file).map_err(ledger_io)?;
    if json {
        json_out(&r)?;
    } else {
        if !r.chain.ok {
            println!(
                "warning: chain broken at line {} ({}); reconciled from the {} intact line(s) before it",
                r.chain.first_broken_line.unwrap_or(0),
                r.chain.reason.as_deref().unwrap_or(""),
                r.chain.intact_lines
            );
        }
        println!(
            "{} prepared, {} committed, {} aborted, {} pending",
            r.prepared,
            r.committed,
            r.aborted,
            r.pending.len()
        );
        for p in &r.pending {
            println!(
                "PENDING {} ({}, line {}, prepared {}): {}",
                p.effect_id, p.tool, p.prepared_line, p.prepared_at, p.action
            );
        }
    }
    Ok(r.pending.is_empty() && r.chain.ok)
}

pub fn ledger_prepare(
    file: &Path,
    run_id: &str,
    effect_id: &str,
    tool: &str,
    args: &str,
) -> Result<bool> {
    let args: serde_json::Value =
        serde_json::from_str(args).map_err(|e| InputError::MalformedJson {
            file: Source("--args".into()),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
    let mut l = Ledger::open(file, run_id).map_err(ledger_io)?;
    let p = l.prepare(effect_id, tool, &args).map_err(ledger_io)?;
    println!("{}", p.idempotency_key);
    Ok(true)
}

pub fn ledger_commit(file: &Path, run_id: &str, effect_id: &str, receipt: &str) -> Result<bool> {
    let mut l = Ledger::open(file, run_id).map_err(ledger_io)?;
    l.commit(effect_id, receipt).map_err(ledger_io)?;
    Ok(true)
}

pub fn memory_list(store: &Path, json: bool) -> Result<()> {
    let s = MemoryStore::open(store)?;
    let mut items: Vec<_> = s.items().into_values().collect();
    items.sort_by_key(|i| i.promoted_line);
    let rejected = s.rejected();
    if json {
        return json_out(&serde_json::json!({"items": items, "rejected": rejected}));
    }
    for i in &items {
        println!(
            "{}  {:<11} {}  (cites {}; policy {} v{})",
            i.item.memory_id,
            i.status,
            i.item.statement,
            i.item.source.cites.join(", "),
            i.item.policy.id,
            i.item.policy.version
        );
    }
    for r in &rejected {
        println!(
            "rejected    line {}: {} — {}",
            r.line, r.statement, r.rejection
        );
    }
    Ok(())
}

pub fn memory_propose(
    store: &Path,
    kernel: &MissionKernel,
    transcript: &crate::Transcript,
    proposals: &Path,
    scope: Vec<String>,
) -> Result<()> {
    use super::memory::{screen_tool_results, MemoryGate, Proposal, Rejection};
    let text = std::fs::read_to_string(proposals).map_err(|e| InputError::Unreadable {
        file: Source::path(proposals),
        message: e.to_string(),
    })?;
    let mut list: Vec<Proposal> = match serde_json::from_str::<Vec<Proposal>>(&text) {
        Ok(l) => l,
        Err(_) => super::memory::proposals_from_summary(&text),
    };
    for p in &mut list {
        if p.scope.is_empty() {
            p.scope = scope.clone();
        }
    }
    let gate =
        MemoryGate::new(kernel, transcript).map_err(|message| InputError::InvalidKernel {
            file: Source(kernel.id.clone()),
            message,
        })?;
    let mut s = MemoryStore::open(store)?;
    let now = Utc::now();
    for p in &list {
        match s.submit(&gate, p, "summary", now)? {
            Ok(item) => println!("promoted {}  {}", item.memory_id, item.statement),
            Err(why) => println!("rejected  {} — {why}", p.statement),
        }
    }
    let constraints = super::pin::constraints_of(kernel).map_err(Error::Internal)?;
    for d in screen_tool_results(&constraints, transcript) {
        let p = Proposal {
            statement: d.sentence.clone(),
            cites: vec![d.found_in.trim_start_matches("tool_result:").to_string()],
            ..Default::default()
        };
        s.reject(
            &p,
            &Rejection::ConflictsWithKernel {
                conflict: d.conflict.clone(),
            },
        )?;
        println!(
            "rejected  {} ({}) — conflicts with the kernel ({})",
            d.sentence, d.found_in, d.conflict.rule
        );
    }
    Ok(())
}

pub fn memory_show(store: &Path, id: &str) -> Result<()> {
    let s = MemoryStore::open(store)?;
    match s.items().get(id) {
        Some(i) => json_out(i),
        None => Err(GovernanceError::Memory {
            path: store.display().to_string(),
            message: format!("no memory item {id}"),
        }
        .into()),
    }
}

pub fn memory_rollback(store: &Path, id: &str, reason: &str) -> Result<()> {
    let mut s = MemoryStore::open(store)?;
    s.rollback(id, reason)?;
    println!("rolled back {id} (reversal appended; history kept)");
    Ok(())
}
