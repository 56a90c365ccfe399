//! `continuity bench`: one timed compaction per archive and summarizer; a
//! table of medians per summarizer and a CSV row per compaction.

use std::path::{Path, PathBuf};

use anyhow::Context;
use continuity_core::io;
use continuity_eval::bench::{self, BenchSummary};
use continuity_models::LlmSettings;

use super::StrategyArg;

#[derive(clap::Args)]
pub struct Args {
    /// Archived requests (any supported format)
    #[arg(required = true, value_name = "ARCHIVE")]
    inputs: Vec<String>,
    /// Mission Kernel (TOML)
    #[arg(long, value_name = "K.toml")]
    kernel: PathBuf,
    /// Retention policy (TOML); built-in defaults when absent
    #[arg(long, value_name = "P.toml")]
    policy: Option<PathBuf>,
    /// Summarizers to time [default: every fetched on-device model]
    #[arg(long, value_delimiter = ',')]
    summarizers: Vec<String>,
    #[arg(long, value_enum, default_value = "governed")]
    strategy: StrategyArg,
    /// Tokenizer: o200k_base, a tokenizer.json, a .gguf, or a model name [default: the first input's agent's: o200k_base for OpenAI models, else the bundled smollm2-135m]
    #[arg(long, value_name = "SPEC")]
    tokenizer: Option<String>,
    /// CSV file, one row per compaction
    #[arg(long, value_name = "FILE.csv", default_value = "bench.csv")]
    csv: PathBuf,
    /// Speculative draft tokens checked per forward pass (0: none; the
    /// summaries are the same, only the time changes)
    #[arg(long, value_name = "N", default_value_t = LlmSettings::default().lookahead)]
    lookahead: usize,
    /// No progress bar
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let settings = LlmSettings {
        lookahead: args.lookahead,
        ..Default::default()
    };
    let strategy = args.strategy.into();
    let kernel = io::load_kernel(&args.kernel, chrono::Utc::now())?;
    let policy = io::load_policy(args.policy.as_deref())?;
    let mut cases = Vec::with_capacity(args.inputs.len());
    for input in &args.inputs {
        let (transcript, source) = io::read_transcript(input)?;
        cases.push(bench::BenchInput {
            name: source.to_string(),
            transcript,
        });
    }
    let tokens = super::tokenizer_for(
        args.tokenizer.as_deref(),
        cases.first().map(|c| &c.transcript),
    )?;
    let names = summarizer_names(&args.summarizers)?;
    let mut boxed: Vec<Box<dyn continuity_core::summarize::Summarizer>> =
        Vec::with_capacity(names.len());
    for n in &names {
        boxed.push(continuity_models::by_name_with(n, &settings)?);
    }
    let bar = crate::progress::bar(
        (cases.len() * boxed.len()) as u64,
        "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}",
        !args.quiet,
    );
    bar.set_message(format!("{} on {}", names[0], cases[0].name));
    let rows = bench::run(
        &cases,
        &mut boxed,
        &kernel,
        &policy,
        strategy,
        &tokens,
        |row| {
            bar.inc(1);
            bar.set_message(format!(
                "{} on {}: {:.1} s",
                row.summarizer,
                row.input,
                row.compaction_ms / 1e3
            ));
        },
    )?;
    bar.finish_and_clear();
    write_whole(&args.csv, &bench::to_csv(&rows))?;
    println!(
        "tokens counted in {}",
        continuity_core::tokens::TokenCount::name(&tokens)
    );
    print!("{}", table(&bench::summarize(&rows)));
    if !args.quiet {
        eprintln!(
            "{} compaction(s), {} strategy; wrote {}",
            rows.len(),
            strategy.name(),
            args.csv.display()
        );
    }
    Ok(())
}

/// The names given, else every on-device model already fetched.
fn summarizer_names(given: &[String]) -> anyhow::Result<Vec<String>> {
    if !given.is_empty() {
        return Ok(given.to_vec());
    }
    let fetched: Vec<String> = continuity_models::MODELS
        .iter()
        .filter(|m| continuity_llm::manifest::resolve_model_offline(m).is_ok())
        .map(|m| m.to_string())
        .collect();
    if fetched.is_empty() {
        anyhow::bail!(
            "no on-device model is fetched; fetch one with `python3 models/fetch.py smollm2-135m`, or pass --summarizers extractive"
        );
    }
    Ok(fetched)
}

/// Whole file or nothing: write beside it, then rename.
fn write_whole(path: &Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension("csv.partial");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .with_context(|| format!("writing {}", path.display()))
}

/// The per-summarizer table, Markdown so it pastes into README.
fn table(summaries: &[BenchSummary]) -> String {
    let mut out = String::from(
        "| summarizer | compactions | median latency (s) | max (s) | median prompt tokens | prefill tok/s | decode tok/s | peak memory (MiB) |\n|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for s in summaries {
        // Summarizers without a model have no token rates or memory figure.
        let model = s.median_prompt_tokens > 0.0;
        let or_dash = |v: String| if model { v } else { "-".to_string() };
        out.push_str(&format!(
            "| {} | {} | {:.2} | {:.2} | {} | {} | {} | {} |\n",
            s.summarizer,
            s.compactions,
            s.median_compaction_ms / 1e3,
            s.max_compaction_ms / 1e3,
            or_dash(format!("{:.0}", s.median_prompt_tokens)),
            or_dash(format!("{:.1}", s.median_prefill_tokens_per_s)),
            or_dash(format!("{:.1}", s.median_decode_tokens_per_s)),
            or_dash(format!(
                "{:.0}",
                s.peak_memory_bytes as f64 / (1024.0 * 1024.0)
            )),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(name: &str, ms: f64, prompt_tokens: f64) -> BenchSummary {
        BenchSummary {
            summarizer: name.into(),
            compactions: 3,
            median_compaction_ms: ms,
            max_compaction_ms: ms * 1.5,
            median_prompt_tokens: prompt_tokens,
            median_prefill_tokens_per_s: 50.0,
            median_decode_tokens_per_s: 0.0,
            peak_memory_bytes: 0,
        }
    }

    #[test]
    fn rows_without_a_model_show_dashes() {
        let t = table(&[summary("b", 20.0, 0.0), summary("a", 1.0, 100.0)]);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[2], "| b | 3 | 0.02 | 0.03 | - | - | - | - |");
        assert_eq!(lines[3], "| a | 3 | 0.00 | 0.00 | 100 | 50.0 | 0.0 | 0 |");
    }
}
