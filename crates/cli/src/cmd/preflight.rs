//! `continuity preflight`: a verdict per tool call, from the kernel alone
//! (exit 3 when any call is not allowed).

use std::path::PathBuf;

use continuity_core::governance::ledger;
use continuity_core::governance::preflight::Preflight;
use continuity_core::governance::GovernanceError;
use continuity_core::io;

#[derive(clap::Args)]
pub struct Args {
    /// Mission Kernel (TOML)
    #[arg(long, value_name = "K.toml")]
    kernel: PathBuf,
    /// A tool call JSON, an array of calls, a request (any format),
    /// tools.jsonl, or a reference run folder (`-` for stdin)
    calls: String,
    /// Scope of every call, `dimension:value` (repeatable); a call's own
    /// `scope` list wins per dimension
    #[arg(long, value_name = "DIM:VALUE")]
    scope: Vec<String>,
    /// Effect ledger: a call repeating a prepared, uncommitted effect escalates
    #[arg(long, value_name = "FILE")]
    ledger: Option<PathBuf>,
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let kernel = io::load_kernel(&args.kernel, chrono::Utc::now())?;
    let calls = io::read_calls(&args.calls)?;
    let mut gate = Preflight::new(&kernel).with_scope(args.scope);
    if let Some(l) = &args.ledger {
        gate = gate.with_pending(ledger::reconcile(l).map_err(GovernanceError::from)?.pending);
    }
    let verdicts: Vec<_> = calls.iter().map(|c| gate.check(c)).collect();
    let blocked = verdicts.iter().filter(|v| !v.allowed()).count();
    if args.json {
        super::print_json(&serde_json::json!({
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
    crate::exit::unless(blocked == 0)
}
