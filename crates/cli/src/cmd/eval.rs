//! `continuity eval`: judge summaries against the archive they summarise.

use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// The archived request the summary was made from
    #[arg(long, value_name = "ARCHIVE")]
    input: String,
    /// Answer key (TOML: [[fact]] id, statement, optional evidence)
    #[arg(long, value_name = "KEY.toml")]
    key: PathBuf,
    /// One summary (plain text)
    #[arg(long, value_name = "FILE", required_unless_present = "summaries")]
    summary: Option<PathBuf>,
    /// Many summaries, one JSON object {"id","text"} per line
    #[arg(long, value_name = "FILE.jsonl", conflicts_with = "summary")]
    summaries: Option<PathBuf>,
    /// One JSON object per summary instead of tables
    #[arg(long)]
    json: bool,
    /// Judge: the trained cross-encoder `minilm-xenc`, an LLM
    /// (smollm2-135m, qwen2.5-0.5b, gemma3-270m) or `none` (embedder and
    /// deterministic checks only)
    #[arg(long, value_name = "NAME|none", default_value = continuity_eval::evaluate::DEFAULT_JUDGE)]
    judge: String,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let out = continuity_eval::evaluate::cli::eval(
        &args.input,
        &args.key,
        args.summary.as_deref(),
        args.summaries.as_deref(),
        args.json,
        &args.judge,
    )?;
    print!("{out}");
    Ok(())
}
