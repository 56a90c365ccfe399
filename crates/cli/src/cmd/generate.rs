//! `continuity generate`: one on-device model run on one prompt, with its
//! timings (used by benches/llama_cpp_side_by_side.py).

use std::path::PathBuf;

use continuity_core::error::{InputError, Source};
use continuity_core::io;
use continuity_core::summarize::SummarizerMetrics;
use continuity_llm::arch::decoder::LoadOptions;
use continuity_llm::generate::{self, GenerateOptions};
use continuity_llm::model::Model;

use crate::render::{mib, model_timings};

#[derive(clap::Args)]
pub struct Args {
    /// smollm2-135m | qwen2.5-0.5b | gemma3-270m, or a label with --model-path
    #[arg(long)]
    model: String,
    /// A GGUF to use instead of the model cache
    #[arg(long, value_name = "PATH")]
    model_path: Option<PathBuf>,
    /// Prompt text (chat templates are not applied)
    #[arg(long, required_unless_present = "prompt_ids")]
    prompt: Option<String>,
    /// Prompt token ids: a JSON array
    #[arg(long, value_name = "FILE.json", conflicts_with = "prompt")]
    prompt_ids: Option<PathBuf>,
    #[arg(long, default_value_t = 64)]
    max_new_tokens: usize,
    /// Keep generating past stop tokens (fixed-length timing runs)
    #[arg(long)]
    ignore_stop: bool,
    /// Check up to N prompt-lookup draft tokens per forward pass (greedy
    /// output unchanged; 0: one token per pass, as llama.cpp's default)
    #[arg(long, value_name = "N", default_value_t = 0)]
    lookahead: usize,
    /// With --json: also the N highest logits at each step (greedy margins,
    /// for comparing picks with another implementation)
    #[arg(long, value_name = "N", default_value_t = 0, requires = "json")]
    top_logits: usize,
    /// Print JSON (ids, text, timings) instead of text
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let mut m = Model::load_by_name(
        &args.model,
        args.model_path.as_deref(),
        LoadOptions::default(),
        Some(&continuity_models::hub::HfHub),
    )?;
    let ids: Vec<u32> = match (&args.prompt, &args.prompt_ids) {
        (Some(text), _) => m.encode(text)?,
        (None, Some(path)) => {
            serde_json::from_str(&io::read_text(path)?).map_err(|e| InputError::Unreadable {
                file: Source::path(path),
                message: format!("expected a JSON array of token ids: {e}"),
            })?
        }
        (None, None) => anyhow::bail!("give --prompt or --prompt-ids"),
    };
    if args.ignore_stop {
        m.stop_tokens.clear();
    }
    let opts = GenerateOptions {
        max_new_tokens: args.max_new_tokens,
        lookahead: args.lookahead,
        top_logits: args.top_logits,
        ..Default::default()
    };
    let g = generate::generate(&mut m, &ids, &opts)?;
    let t = &g.timings;
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "model": args.model,
                "prompt_tokens": t.prompt_tokens,
                "generated_ids": g.tokens,
                "text": g.text,
                "load_ms": t.load_ms,
                "weights": m.weights.to_string(),
                "prefill_ms": t.prefill_ms,
                "prefill_tokens_per_s": t.prefill_tokens_per_s(),
                "decode_ms": t.decode_ms,
                "generated_tokens": t.generated_tokens,
                "decode_tokens_per_s": t.decode_tokens_per_s(),
                "decode_passes": t.decode_passes,
                "draft_tokens": t.draft_tokens,
                "accepted_draft_tokens": t.accepted_draft_tokens,
                "peak_memory_bytes": t.peak_rss_bytes,
                "top_logits": g.top_logits,
            })
        );
        return Ok(());
    }
    println!("{}", g.text);
    // A summarizer's measurements, so the line reads as `compact`'s does;
    // `generate` prints no total latency.
    let timings = SummarizerMetrics {
        load_ms: t.load_ms,
        prompt_tokens: t.prompt_tokens,
        prefill_tokens_per_s: t.prefill_tokens_per_s(),
        generated_tokens: t.generated_tokens,
        decode_tokens_per_s: t.decode_tokens_per_s(),
        decode_passes: t.decode_passes,
        draft_tokens: t.draft_tokens,
        accepted_draft_tokens: t.accepted_draft_tokens,
        latency_ms: 0.0,
        peak_memory_bytes: t.peak_rss_bytes,
    };
    eprintln!(
        "{}: {}, peak memory {}",
        args.model,
        model_timings(&timings),
        mib(timings.peak_memory_bytes)
    );
    Ok(())
}
