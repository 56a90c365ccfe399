//! `continuity memory`: the provenance-aware memory store, operator view.

use std::path::PathBuf;

use continuity_core::error::Error;
use continuity_core::governance::memory::{
    proposals_from_summary, screen_tool_results, MemoryGate, MemoryStore, Proposal, Rejection,
};
use continuity_core::governance::GovernanceError;
use continuity_core::io;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Every promoted item with its status, and the rejections
    List {
        #[arg(long, value_name = "FILE")]
        store: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Review proposals (a JSON array of {statement, cites, ...} or a summary
    /// text whose [call_id] brackets are citations) and record each promotion
    /// or rejection; conflicting directives in the transcript's tool results
    /// are recorded as rejected too
    Propose {
        proposals: PathBuf,
        #[arg(long, value_name = "FILE")]
        store: PathBuf,
        #[arg(long, value_name = "K.toml")]
        kernel: PathBuf,
        /// The transcript the citations must point into
        #[arg(long, value_name = "REQUEST")]
        transcript: String,
        /// Scope of the promoted items (repeatable)
        #[arg(long, value_name = "DIM:VALUE")]
        scope: Vec<String>,
    },
    /// One item, in full
    Show {
        id: String,
        #[arg(long, value_name = "FILE")]
        store: PathBuf,
    },
    /// Append a reversal of a promotion (history is never edited)
    Rollback {
        id: String,
        #[arg(long, value_name = "FILE")]
        store: PathBuf,
        #[arg(long, default_value = "operator rollback")]
        reason: String,
    },
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        Command::List { store, json } => list(&store, json),
        Command::Show { id, store } => {
            let s = MemoryStore::open(&store)?;
            match s.items().get(&id) {
                Some(i) => super::print_json(i),
                None => Err(Error::from(GovernanceError::Memory {
                    path: store.display().to_string(),
                    message: format!("no memory item {id}"),
                })
                .into()),
            }
        }
        Command::Propose {
            proposals,
            store,
            kernel,
            transcript,
            scope,
        } => propose(&proposals, &store, &kernel, &transcript, scope),
        Command::Rollback { id, store, reason } => {
            let mut s = MemoryStore::open(&store)?;
            s.rollback(&id, &reason)?;
            println!("rolled back {id} (reversal appended; history kept)");
            Ok(())
        }
    }
}

fn list(store: &std::path::Path, json: bool) -> anyhow::Result<()> {
    let s = MemoryStore::open(store)?;
    let mut items: Vec<_> = s.items().into_values().collect();
    items.sort_by_key(|i| i.promoted_line);
    let rejected = s.rejected();
    if json {
        return super::print_json(&serde_json::json!({"items": items, "rejected": rejected}));
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

fn propose(
    proposals: &std::path::Path,
    store: &std::path::Path,
    kernel: &std::path::Path,
    transcript: &str,
    scope: Vec<String>,
) -> anyhow::Result<()> {
    let now = chrono::Utc::now();
    let kernel = io::load_kernel(kernel, now)?;
    let (transcript, _) = io::read_transcript(transcript)?;
    let text = io::read_text(proposals)?;
    let mut list: Vec<Proposal> = match serde_json::from_str::<Vec<Proposal>>(&text) {
        Ok(l) => l,
        Err(_) => proposals_from_summary(&text),
    };
    for p in &mut list {
        if p.scope.is_empty() {
            p.scope = scope.clone();
        }
    }
    let gate = MemoryGate::new(&kernel, &transcript);
    let mut s = MemoryStore::open(store)?;
    for p in &list {
        match s.submit(&gate, p, "summary", now)? {
            Ok(item) => println!("promoted {}  {}", item.memory_id, item.statement),
            Err(why) => println!("rejected  {} — {why}", p.statement),
        }
    }
    for d in screen_tool_results(kernel.constraints(), &transcript) {
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
