//! `continuity eval`: judge summaries against the archive they summarise.

use std::path::{Path, PathBuf};

use continuity_core::error::{InputError, Source};
use continuity_core::io;
use continuity_eval::evaluate::{load_embedder, Evaluator, Records};
use continuity_eval::facts::FactKey;

use crate::render;

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
    let (transcript, _) = io::read_transcript(&args.input)?;
    let key = FactKey::from_toml(&io::read_text(&args.key)?, &Source::path(&args.key))?;
    let summaries = read_summaries(args.summary.as_deref(), args.summaries.as_deref())?;
    let records = Records::from_transcript(&transcript);
    let mut evaluator = Evaluator::with_judge(load_embedder()?, &args.judge)?;
    for (id, text) in summaries {
        let report = evaluator.evaluate(&records, &key, &id, &text)?;
        if args.json {
            println!("{}", serde_json::to_string(&report)?);
        } else {
            println!("{}", render::eval::summary_table(&report));
        }
    }
    Ok(())
}

#[derive(serde::Deserialize)]
struct Line {
    id: String,
    text: String,
}

/// `(id, text)` of each summary: one plain-text file (its stem is the id),
/// and JSON lines `{"id","text"}`.
fn read_summaries(
    summary: Option<&Path>,
    summaries: Option<&Path>,
) -> Result<Vec<(String, String)>, InputError> {
    let mut out = Vec::new();
    if let Some(p) = summary {
        let id = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "summary".into());
        out.push((id, io::read_text(p)?));
    }
    if let Some(p) = summaries {
        for (n, line) in io::read_text(p)?.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let l: Line = serde_json::from_str(line).map_err(|e| InputError::MalformedJson {
                file: Source::path(p),
                line: n + 1,
                column: e.column(),
                message: e.to_string(),
            })?;
            out.push((l.id, l.text));
        }
    }
    Ok(out)
}
