//! `continuity eval-bench`: score the evaluator on the labeled set.

use std::path::PathBuf;

use crate::render;

#[derive(clap::Args)]
pub struct Args {
    /// The set's directory (cases.toml, summaries.jsonl, thresholds.toml)
    #[arg(long, default_value = "eval/faithfulness")]
    dir: PathBuf,
    /// Grid-search thresholds and train the combiner on the calibration
    /// split; write thresholds.toml and combiner.toml
    #[arg(long)]
    calibrate: bool,
    #[arg(long)]
    json: bool,
    /// Judge: `minilm-xenc`, an LLM (smollm2-135m, qwen2.5-0.5b,
    /// gemma3-270m) or `none`
    #[arg(long, value_name = "NAME|none", default_value = continuity_eval::evaluate::DEFAULT_JUDGE)]
    judge: String,
    /// Also write the calibration split's judge-input pairs (fact, the
    /// sentence the judge reads, label from the gold verdict) as JSON
    /// lines, for `eval-train --mix`
    #[arg(long, value_name = "PAIRS.jsonl")]
    export_pairs: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let report = continuity_eval::evaluate::suite::bench_report(
        &args.dir,
        args.calibrate,
        &args.judge,
        args.export_pairs.as_deref(),
    )?;
    if args.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&render::eval::bench_json(&report))?
        );
    } else {
        print!("{}", render::eval::bench(&report));
    }
    Ok(())
}
