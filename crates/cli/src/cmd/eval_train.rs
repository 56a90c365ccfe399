//! `continuity eval-train`: train the cross-encoder judge's adapters.

use std::path::PathBuf;

use continuity_eval::evaluate::suite::{train_judge, TrainFiles};
use continuity_eval::evaluate::xenc::train::TrainOptions;

#[derive(clap::Args)]
pub struct Args {
    /// Training pairs: JSON lines {"premise","hypothesis","label","source"}
    #[arg(
        long,
        default_value = "eval/xenc/pairs.jsonl",
        value_name = "PAIRS.jsonl"
    )]
    pairs: PathBuf,
    /// Where to write the trained adapters (safetensors)
    #[arg(
        long,
        default_value = "eval/faithfulness/xenc.safetensors",
        value_name = "FILE"
    )]
    out: PathBuf,
    #[arg(long, default_value_t = 600)]
    steps: usize,
    #[arg(long, default_value_t = 16)]
    batch: usize,
    #[arg(long, default_value_t = 1e-3)]
    lr: f64,
    #[arg(long, default_value_t = 20261130)]
    seed: u64,
    /// Hold out every Nth source (domain) of the pairs as a dev set
    #[arg(long, default_value_t = 5)]
    dev_every: usize,
    /// Leave out the pairs of these sources (comma-separated)
    #[arg(long, value_delimiter = ',', value_name = "SOURCE,...")]
    exclude_sources: Vec<String>,
    /// Fine-tune: start from these trained adapters instead of fresh ones
    #[arg(long, value_name = "ADAPTERS.safetensors")]
    init: Option<PathBuf>,
    /// Pairs files (comma-separated) that every batch draws --mix-share
    /// of its examples from (e.g. the calibration sentences `eval-bench
    /// --export-pairs` writes)
    #[arg(long, value_delimiter = ',', value_name = "PAIRS.jsonl,...")]
    mix: Vec<PathBuf>,
    #[arg(long, default_value_t = 0.5)]
    mix_share: f64,
    #[arg(long)]
    json: bool,
    /// No progress bar
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if !(0.0..=1.0).contains(&args.mix_share) {
        anyhow::bail!(
            "--mix-share must be between 0 and 1, got {}",
            args.mix_share
        );
    }
    let opts = TrainOptions {
        steps: args.steps,
        batch: args.batch,
        lr: args.lr,
        seed: args.seed,
        dev_every: args.dev_every,
        exclude: args.exclude_sources,
        mix_share: args.mix_share,
        ..Default::default()
    };
    let files = TrainFiles {
        pairs: &args.pairs,
        mix: &args.mix,
        init: args.init.as_deref(),
        out: &args.out,
    };
    let bar = crate::progress::bar(
        opts.steps as u64,
        "train {bar:30} {pos}/{len} steps {elapsed_precise} eta {eta} {msg}",
        !args.quiet,
    );
    let steps = opts.steps;
    let report = train_judge(&files, opts, &mut |_, loss| {
        bar.set_message(format!("loss {loss:.3}"));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let report = report?;
    if args.json {
        print!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!(
            "{}",
            crate::render::eval::training(&report, steps, &args.out)
        );
    }
    Ok(())
}
