//! `continuity compact`: one request or session transcript in, its files
//! out, written together or not at all; or every session of a folder.

use std::path::{Path, PathBuf};

use continuity_core::error::Source;
use continuity_core::formats::At;
use continuity_core::io;
use continuity_eval::evaluate::{load_embedder, Evaluator};
use continuity_eval::facts::FactKey;

use super::session::{self, Setup};
use super::{Common, StrategyArg};
use crate::render;

#[derive(clap::Args)]
pub struct Args {
    /// A request (Anthropic, OpenAI Chat or Responses, Pydantic AI), a Claude
    /// Code or Codex session transcript, `-` for stdin, or a folder of them
    input: String,
    #[command(flatten)]
    common: Common,
    #[arg(long, value_enum, default_value = "governed")]
    strategy: StrategyArg,
    /// Output directory for request.json, audit.jsonl, report.json, summary.txt
    /// (a folder input: one folder per session under DIR/sessions, and
    /// DIR/summary.csv, DIR/summary.sqlite)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Print nothing on success
    #[arg(short, long)]
    quiet: bool,
    /// Run id for the policy pin [default: the previous pin's in DIR, else derived]
    #[arg(long)]
    run_id: Option<String>,
    /// Where to read a session transcript: `last`, a line number N (the
    /// request once line N was written), or `compaction:K` (just before the
    /// agent's K-th compaction, with its compaction side by side with ours)
    #[arg(long, value_name = "POINT", default_value = "last")]
    at: At,
    /// Sessions compacted at once for a folder input [default: all cores]
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// With `--at compaction:K`: judge this answer key (as `eval --key`) on
    /// the agent's context and on ours, into side_by_side.json and .md
    #[arg(long, value_name = "KEY.toml")]
    key: Option<PathBuf>,
    /// The judge for `--key` (as `eval --judge`)
    #[arg(long, value_name = "NAME|none", default_value = continuity_eval::evaluate::DEFAULT_JUDGE, requires = "key")]
    judge: String,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let now = chrono::Utc::now();
    let (kernel, policy) = super::load_rules(&args.common, now)?;
    let setup = Setup {
        kernel: &kernel,
        policy: &policy,
        tokenizer: args.common.tokenizer.as_deref(),
        strategy: args.strategy.into(),
        run_id: args.run_id.as_deref(),
    };
    if Path::new(&args.input).is_dir() {
        if let Some(key) = &args.key {
            return Err(crate::exit::Usage(format!(
                "--key {} judges one session's compaction; {} is a folder",
                key.display(),
                args.input
            ))
            .into());
        }
        let batch = super::compact_dir::Batch {
            input: Path::new(&args.input),
            out: &args.out,
            at: args.at,
            jobs: args.jobs,
            summarizer: &args.common.summarizer,
            quiet: args.quiet,
        };
        return super::compact_dir::run(&batch, &setup);
    }
    let mut keyed = args
        .key
        .as_deref()
        .map(|path| load_keyed(path, &args.judge))
        .transpose()?;
    let mut summarizer = continuity_models::by_name(&args.common.summarizer)?;
    let (bytes, source) = io::read_input(&args.input)?;
    let o = session::compact_one(
        &bytes,
        &source,
        args.at,
        &args.out,
        &setup,
        summarizer.as_mut(),
        keyed.as_mut(),
    )?;
    for w in o.read.warnings() {
        eprintln!("warning: {source}: {w}");
    }
    if !args.quiet {
        print!("{}", render::compaction(&o.compaction, &o.written));
        if let Some(s) = &o.side {
            print!("{}", render::side_by_side_line(s, o.key.as_ref()));
        }
    }
    Ok(())
}

/// The answer key and the evaluator `eval` would judge it with.
fn load_keyed(path: &Path, judge: &str) -> anyhow::Result<session::Keyed> {
    let key = FactKey::from_toml(&io::read_text(path)?, &Source::path(path))?;
    let evaluator = Evaluator::with_judge(load_embedder()?, judge)?;
    Ok(session::Keyed {
        key,
        judge: judge.to_string(),
        evaluator,
    })
}
