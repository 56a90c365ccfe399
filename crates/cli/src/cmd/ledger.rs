//! `continuity ledger`: the append-only PREPARE/COMMIT effect ledger
//! (exit 3 when a check does not pass).

use std::path::{Path, PathBuf};

use continuity_core::error::{Error, InputError, Source};
use continuity_core::governance::ledger::{self, Ledger, LedgerError};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Check the hash chain; exit 3 and name the first broken line when it fails
    Verify {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// List effects prepared but never committed (exit 3 when any)
    Reconcile {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Append PREPARE before a side-effecting call; prints the idempotency key
    Prepare {
        file: PathBuf,
        #[arg(long)]
        run_id: String,
        #[arg(long)]
        effect_id: String,
        #[arg(long)]
        tool: String,
        /// Arguments as JSON
        #[arg(long, default_value = "{}")]
        args: String,
    },
    /// Append COMMIT after the system of record confirmed the effect
    Commit {
        file: PathBuf,
        #[arg(long)]
        run_id: String,
        #[arg(long)]
        effect_id: String,
        #[arg(long)]
        receipt: String,
    },
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let passed = match args.command {
        Command::Verify { file, json } => verify(&file, json)?,
        Command::Reconcile { file, json } => reconcile(&file, json)?,
        Command::Prepare {
            file,
            run_id,
            effect_id,
            tool,
            args,
        } => prepare(&file, &run_id, &effect_id, &tool, &args)?,
        Command::Commit {
            file,
            run_id,
            effect_id,
            receipt,
        } => {
            let mut l = Ledger::open(&file, &run_id).map_err(governance)?;
            l.commit(&effect_id, &receipt).map_err(governance)?;
            true
        }
    };
    crate::exit::unless(passed)
}

fn governance(e: LedgerError) -> Error {
    Error::Governance(e.into())
}

fn verify(file: &Path, json: bool) -> anyhow::Result<bool> {
    let r = ledger::verify(file).map_err(governance)?;
    if json {
        super::print_json(&r)?;
    } else if r.ok {
        println!(
            "{}: chain intact, {} line(s), head {}",
            r.file,
            r.total_lines,
            &r.head[..12.min(r.head.len())]
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

fn reconcile(file: &Path, json: bool) -> anyhow::Result<bool> {
    let r = ledger::reconcile(file).map_err(governance)?;
    if json {
        super::print_json(&r)?;
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

fn prepare(
    file: &Path,
    run_id: &str,
    effect_id: &str,
    tool: &str,
    args: &str,
) -> anyhow::Result<bool> {
    let args: serde_json::Value =
        serde_json::from_str(args).map_err(|e| InputError::MalformedJson {
            file: Source("--args".into()),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
    let mut l = Ledger::open(file, run_id).map_err(governance)?;
    let p = l.prepare(effect_id, tool, &args).map_err(governance)?;
    println!("{}", p.idempotency_key);
    Ok(true)
}
