//! `continuity replay`: re-run compaction over recorded sessions under
//! every condition and report what survived at each action.

use std::path::PathBuf;

use continuity_core::io;
use continuity_eval::facts::FactKey;
use continuity_eval::replay;

use super::StrategyArg;

#[derive(clap::Args)]
pub struct Args {
    /// Reference run folders (replays/E1-baseline) or request files
    #[arg(required = true, value_name = "SESSION")]
    sessions: Vec<PathBuf>,
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "summary-only,kernel-only,pins-only,governed"
    )]
    strategies: Vec<StrategyArg>,
    /// none | extractive | recorded (the reference's own summary)
    #[arg(long, value_delimiter = ',', default_value = "none,extractive")]
    summarizers: Vec<String>,
    #[arg(long, value_name = "K.toml")]
    kernel: PathBuf,
    #[arg(long, value_name = "P.toml")]
    policy: Option<PathBuf>,
    /// Answer key: tracked facts and mission terms
    #[arg(long, value_name = "KEY.toml")]
    key: PathBuf,
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Conditions replayed in parallel
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Also replay with these facts' sentences removed from every summary
    #[arg(long, value_name = "FACT_ID", num_args = 1..)]
    damage: Vec<String>,
    /// Tokenizer: a tokenizer.json, a .gguf, or a model name [default: bundled smollm2-135m]
    #[arg(long, value_name = "SPEC")]
    tokenizer: Option<String>,
    /// No progress bar, no summary line
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let kernel = io::load_kernel(&args.kernel, chrono::Utc::now())?;
    let policy = io::load_policy(args.policy.as_deref())?;
    let key = FactKey::from_toml(
        &io::read_text(&args.key)?,
        &continuity_core::error::Source::path(&args.key),
    )?;
    let tokens = super::load_tokenizer(args.tokenizer.as_deref())?;
    let loaded = replay::load_sessions(&args.sessions, &kernel, &tokens)?;
    let strategies: Vec<_> = args.strategies.iter().map(|&s| s.into()).collect();
    let conditions = replay::conditions(&strategies, &args.summarizers, &args.damage);
    let setup = replay::Setup {
        kernel: &kernel,
        policy: &policy,
        key: &key,
        tokens: &tokens,
    };
    let bar = crate::progress::bar(
        (loaded.len() * conditions.len()) as u64,
        "replay {bar:30} {pos}/{len} runs {elapsed_precise} {msg}",
        !args.quiet,
    );
    let result = replay::replay_all(
        loaded,
        conditions,
        &setup,
        args.jobs,
        &|session, condition| {
            bar.set_message(format!("{session} {condition}"));
            bar.inc(1);
        },
    );
    bar.finish_and_clear();
    let result = result?;
    let written = replay::write(&result, &kernel, &key, &policy, &args.out)?;
    if !args.quiet {
        println!(
            "replayed {} session(s) x {} condition(s): {} compactions, {} actions",
            result.sessions.len(),
            result.conditions.len(),
            result
                .runs
                .iter()
                .map(|r| r.compactions.len())
                .sum::<usize>(),
            result.runs.iter().map(|r| r.actions.len()).sum::<usize>()
        );
        println!(
            "wrote {}, {} and {} chart(s)",
            written.report.display(),
            written.database.display(),
            written.charts.len()
        );
    }
    Ok(())
}
