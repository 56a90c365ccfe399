//! `continuity compact`: one request in, five files out, written together
//! or not at all.

use std::path::PathBuf;

use continuity_core::compact::{compact_pinned, Inputs};
use continuity_core::io;
use continuity_core::redact::Redactor;

use super::{Common, StrategyArg};
use crate::render;

#[derive(clap::Args)]
pub struct Args {
    input: String,
    #[command(flatten)]
    common: Common,
    #[arg(long, value_enum, default_value = "governed")]
    strategy: StrategyArg,
    /// Output directory for request.json, audit.jsonl, report.json, summary.txt
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Print nothing on success
    #[arg(short, long)]
    quiet: bool,
    /// Run id for the policy pin [default: the previous pin's in DIR, else derived]
    #[arg(long)]
    run_id: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let super::Loaded {
        transcript,
        source,
        kernel,
        policy,
        mut summarizer,
        tokens,
    } = super::load(&args.input, &args.common, chrono::Utc::now())?;
    let mut redactor = Redactor::new(&policy.personal_data)?;
    let input_name = source.to_string();
    // Freshness: from the kernel load to this release.
    let ctx = io::pin_context(
        &args.out,
        &kernel,
        &input_name,
        args.run_id.as_deref(),
        chrono::Utc::now(),
    )?;
    let c = compact_pinned(
        &Inputs {
            transcript: &transcript,
            input_name: &input_name,
            kernel: &kernel,
            policy: &policy,
            strategy: args.strategy.into(),
        },
        &ctx,
        summarizer.as_mut(),
        &tokens,
        &mut redactor,
    )?;
    let files = io::serialize(&c)?;
    io::check_leaks(&files, &mut redactor)?;
    io::write_atomically(&args.out, &files)?;
    if !args.quiet {
        let written: Vec<String> = files
            .files
            .iter()
            .map(|(n, _)| args.out.join(n).display().to_string())
            .collect();
        print!("{}", render::compaction(&c, &written));
    }
    Ok(())
}
