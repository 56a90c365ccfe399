//! `continuity retention`: compact sessions at several targets and report,
//! per target, whether each question's expected answer is still in the
//! compacted request, per category, with reduction and tokens after.

use std::path::PathBuf;

use continuity_core::io;
use continuity_eval::retention::{self, Case, Setup};

use super::{Common, StrategyArg};
use crate::render;

#[derive(clap::Args)]
pub struct Args {
    /// Sessions (any supported format)
    #[arg(required = true, value_name = "SESSION")]
    sessions: Vec<String>,
    /// Questions, one file per session in the same order:
    /// `{"questions": [{"id", "category", "expected"}, …]}`
    #[arg(long, required = true, num_args = 1.., value_name = "Q.json")]
    questions: Vec<PathBuf>,
    /// Targets in tokens, one point of the curve each [default: the policy's
    /// target, or --target-tokens]
    #[arg(long, value_delimiter = ',', value_name = "N,N,...")]
    targets: Vec<usize>,
    #[command(flatten)]
    common: Common,
    #[arg(long, value_enum, default_value = "governed")]
    strategy: StrategyArg,
    #[arg(long)]
    json: bool,
    /// No progress bar
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.sessions.len() == args.questions.len(),
        "{} session(s) but {} questions file(s): give one questions file per session, in the same order",
        args.sessions.len(),
        args.questions.len()
    );
    let now = chrono::Utc::now();
    let (kernel, mut policy) = super::load_rules(&args.common, now)?;
    // Targets given on the command line are chosen: they never grow.
    policy.compaction.default_target &= args.targets.is_empty();
    let mut summarizer = continuity_models::by_name(&args.common.summarizer)?;
    let mut cases = Vec::with_capacity(args.sessions.len());
    for (session, questions) in args.sessions.iter().zip(&args.questions) {
        let (transcript, source) = io::read_transcript(session)?;
        cases.push(Case {
            name: source.to_string(),
            transcript,
            questions: retention::load_questions(questions)?,
        });
    }
    // In the first session's agent's tokens (one unit for the whole curve).
    let tokens = super::tokenizer_for(
        args.common.tokenizer.as_deref(),
        cases.first().map(|c| &c.transcript),
    )?;
    let targets = if args.targets.is_empty() {
        vec![policy.compaction.target()]
    } else {
        args.targets.clone()
    };
    anyhow::ensure!(
        !targets.contains(&0),
        "--targets: a target must be at least 1 token"
    );
    let setup = Setup {
        kernel: &kernel,
        policy: &policy,
        strategy: args.strategy.into(),
        tokens: &tokens,
        now,
    };
    let bar = crate::progress::bar(
        (cases.len() * targets.len()) as u64,
        "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}",
        !args.quiet && !args.json,
    );
    let points = retention::run(&cases, &targets, &setup, summarizer.as_mut(), |r| {
        bar.set_message(r.session.clone());
        bar.inc(1);
    })?;
    bar.finish_and_clear();
    if args.json {
        super::print_json(&points)?;
    } else {
        println!(
            "tokens counted in {}",
            continuity_core::tokens::TokenCount::name(&tokens)
        );
        print!("{}", render::retention::table(&points));
    }
    Ok(())
}
