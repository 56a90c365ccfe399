//! `continuity` command line: a thin layer over the library.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

use continuity::compact::{compact_pinned, Inputs, Strategy};
use continuity::error::{Error, InputError, Source};
use continuity::facts::FactKey;
use continuity::io;
use continuity::kernel::{MissionKernel, TEMPLATE};
use continuity::redact::Redactor;
use continuity::replay;
use continuity::summarize;
use continuity::tokens::TokenCounter;

#[derive(Parser)]
#[command(
    name = "continuity",
    version,
    about = "Governed context compaction for long-running LLM agents, offline"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct Common {
    /// Mission Kernel (TOML)
    #[arg(long, value_name = "K.toml")]
    kernel: PathBuf,
    /// Retention policy (TOML); built-in defaults when absent
    #[arg(long, value_name = "P.toml")]
    policy: Option<PathBuf>,
    /// Summarizer: none | extractive | smollm2-135m | qwen2.5-0.5b | gemma3-270m | NAME:PATH.gguf (on-device models are experimental)
    #[arg(long, default_value = "extractive")]
    summarizer: String,
    /// Tokenizer for exact counts: a tokenizer.json, a .gguf, or a model name
    /// (smollm2-135m, qwen2.5-0.5b, gemma3-270m) [default: bundled smollm2-135m]
    #[arg(long, value_name = "SPEC")]
    tokenizer: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Compact one request (Anthropic, OpenAI or Pydantic AI JSON; `-` for stdin)
    Compact {
        input: String,
        #[command(flatten)]
        common: Common,
        #[arg(long, value_enum, default_value = "governed")]
        strategy: Strategy,
        /// Output directory for request.json, audit.jsonl, report.json, summary.txt
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Print nothing on success
        #[arg(short, long)]
        quiet: bool,
        /// Run id for the policy pin [default: the previous pin's in DIR, else derived]
        #[arg(long)]
        run_id: Option<String>,
    },
    /// Smallest trigger meeting the floor rule, per strategy, and compactions per 100k tokens
    Plan {
        input: String,
        #[command(flatten)]
        common: Common,
        /// Print JSON instead of a table
        #[arg(long)]
        json: bool,
    },
    /// Tool-boundary preflight: a verdict per tool call (exit 3 when any is not allowed)
    Preflight {
        /// Mission Kernel (TOML)
        #[arg(long, value_name = "K.toml")]
        kernel: PathBuf,
        /// A tool call JSON, an array of calls, a request (any format),
        /// tools.jsonl, or a reference run folder (`-` for stdin)
        calls: String,
        /// Scope of every call, `dimension:value` (repeatable); a call's own
        /// `scope` list wins per dimension
        #[arg(long, value_name = "DIM:VALUE")]
        scope: Vec<String>,
        /// Effect ledger: a call repeating a prepared, uncommitted effect escalates
        #[arg(long, value_name = "FILE")]
        ledger: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Effect ledger (PREPARE/COMMIT, hash-chained)
    Ledger {
        #[command(subcommand)]
        command: LedgerCommand,
    },
    /// Provenance-aware memory store (operator view)
    Memory {
        #[command(subcommand)]
        command: MemoryCommand,
    },
    /// Run the adversarial compaction suite and print its Markdown table
    Adversarial {
        /// Suite folder
        #[arg(long, default_value = "eval/adversarial")]
        dir: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Judge a summary against the archive it summarises: each fact of KEY
    /// supported, omitted or contradicted; unsupported sentences; value
    /// mismatches; keyword checks alongside
    Eval {
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
        #[arg(long, value_name = "NAME|none", default_value = continuity::evaluate::DEFAULT_JUDGE)]
        judge: String,
    },
    /// Score the evaluator on the labeled faithfulness set
    EvalBench {
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
        #[arg(long, value_name = "NAME|none", default_value = continuity::evaluate::DEFAULT_JUDGE)]
        judge: String,
        /// Also write the calibration split's judge-input pairs (fact, the
        /// sentence the judge reads, label from the gold verdict) as JSON
        /// lines, for `eval-train --mix`
        #[arg(long, value_name = "PAIRS.jsonl")]
        export_pairs: Option<PathBuf>,
    },
    /// Train the cross-encoder judge (minilm-xenc): low-rank adapters and a
    /// 3-way head on MiniLM, from labeled (premise, hypothesis) pairs
    EvalTrain {
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
    },
    /// Re-run compaction over recorded sessions under every condition and
    /// report what survived at each action (report.md, replay.sqlite, SVGs)
    Replay {
        /// Reference run folders (replays/E1-baseline) or request files
        #[arg(required = true, value_name = "SESSION")]
        sessions: Vec<PathBuf>,
        #[arg(
            long,
            value_enum,
            value_delimiter = ',',
            default_value = "summary-only,kernel-only,pins-only,governed"
        )]
        strategies: Vec<Strategy>,
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
    },
    /// Time compactions: every summarizer over every archive; a table of
    /// medians per summarizer and a CSV row per compaction
    Bench {
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
        strategy: Strategy,
        /// Tokenizer: a tokenizer.json, a .gguf, or a model name [default: bundled smollm2-135m]
        #[arg(long, value_name = "SPEC")]
        tokenizer: Option<String>,
        /// CSV file, one row per compaction
        #[arg(long, value_name = "FILE.csv", default_value = "bench.csv")]
        csv: PathBuf,
        /// Speculative draft tokens checked per forward pass (0: none; the
        /// summaries are the same, only the time changes)
        #[arg(long, value_name = "N", default_value_t = continuity::summarize::llm::LlmSettings::default().lookahead)]
        lookahead: usize,
        /// No progress bar
        #[arg(short, long)]
        quiet: bool,
    },
    /// Run an on-device model on one prompt (text or token ids) and report
    /// its timings; used by benches/llama_cpp_side_by_side.py
    Generate {
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
        /// Print JSON (ids, text, timings) instead of text
        #[arg(long)]
        json: bool,
    },
    /// Mission Kernel helpers
    Kernel {
        #[command(subcommand)]
        command: KernelCommand,
    },
}

#[derive(Subcommand)]
enum KernelCommand {
    /// Write a commented kernel template (to stdout without PATH)
    Init {
        path: Option<PathBuf>,
        /// Overwrite an existing file
        #[arg(long)]
        force: bool,
    },
    /// Print the kernel's canonical sha256 (the value for its `sha256` key)
    Hash { path: PathBuf },
}

#[derive(Subcommand)]
enum LedgerCommand {
    /// Check the hash chain; exit 3 and name the first broken line when it fails
    Verify {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// List effects prepared but never committed (exit 3 when any)
    Reconcile {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Append PREPARE before a side-effecting call; prints the idempotency key
    Prepare {
        file: PathBuf,
        #[arg(long)]
        run_id: String,
        #[arg(long)]
        effect_id: String,
        #[arg(long)]
        tool: String,
        /// Arguments as JSON
        #[arg(long, default_value = "{}")]
        args: String,
    },
    /// Append COMMIT after the system of record confirmed the effect
    Commit {
        file: PathBuf,
        #[arg(long)]
        run_id: String,
        #[arg(long)]
        effect_id: String,
        #[arg(long)]
        receipt: String,
    },
}

#[derive(Subcommand)]
enum MemoryCommand {
    /// Every promoted item with its status, and the rejections
    List {
        #[arg(long, value_name = "FILE")]
        store: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Review proposals (a JSON array of {statement, cites, ...} or a summary
    /// text whose [call_id] brackets are citations) and record each promotion
    /// or rejection; conflicting directives in the transcript's tool results
    /// are recorded as rejected too
    Propose {
        proposals: PathBuf,
        #[arg(long, value_name = "FILE")]
        store: PathBuf,
        #[arg(long, value_name = "K.toml")]
        kernel: PathBuf,
        /// The transcript the citations must point into
        #[arg(long, value_name = "REQUEST")]
        transcript: String,
        /// Scope of the promoted items (repeatable)
        #[arg(long, value_name = "DIM:VALUE")]
        scope: Vec<String>,
    },
    /// One item, in full
    Show {
        id: String,
        #[arg(long, value_name = "FILE")]
        store: PathBuf,
    },
    /// Append a reversal of a promotion (history is never edited)
    Rollback {
        id: String,
        #[arg(long, value_name = "FILE")]
        store: PathBuf,
        #[arg(long, default_value = "operator rollback")]
        reason: String,
    },
}

/// A finished command whose outcome is a non-zero exit code (not an error
/// message): 3 = a governance check said no.
#[derive(Debug)]
struct Exit(u8);

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit {}", self.0)
    }
}

impl std::error::Error for Exit {}

/// The error and its causes, each cause once: library errors often quote
/// their source in their own message already.
fn error_chain(err: &anyhow::Error) -> String {
    let mut msg = err.to_string();
    for cause in err.chain().skip(1) {
        let c = cause.to_string();
        if !msg.contains(&c) {
            msg.push_str(": ");
            msg.push_str(&c);
        }
    }
    msg
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            if let Some(Exit(code)) = err.downcast_ref::<Exit>() {
                return ExitCode::from(*code);
            }
            eprintln!("error: {}", error_chain(&err));
            let code = err
                .downcast_ref::<Error>()
                .map(Error::exit_code)
                .or_else(|| err.downcast_ref::<InputError>().map(|_| 2))
                .unwrap_or(1);
            ExitCode::from(code as u8)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn run_bench(
    inputs: &[String],
    kernel: &std::path::Path,
    policy: Option<&std::path::Path>,
    summarizers: &[String],
    strategy: Strategy,
    tokenizer: Option<&str>,
    csv: &std::path::Path,
    lookahead: usize,
    quiet: bool,
    now: chrono::DateTime<chrono::Utc>,
) -> anyhow::Result<()> {
    use continuity::bench;
    let settings = summarize::llm::LlmSettings {
        lookahead,
        ..Default::default()
    };
    let kernel = io::load_kernel(kernel, now)?;
    let policy = io::load_policy(policy)?;
    let tokens = load_tokenizer(tokenizer)?;
    let mut cases = Vec::with_capacity(inputs.len());
    for input in inputs {
        let (transcript, source) = io::read_transcript(input)?;
        cases.push(bench::BenchInput {
            name: source.to_string(),
            transcript,
        });
    }
    let names: Vec<String> = if summarizers.is_empty() {
        let fetched: Vec<String> = summarize::llm::MODELS
            .iter()
            .filter(|m| continuity::llm::manifest::resolve_model_offline(m).is_ok())
            .map(|m| m.to_string())
            .collect();
        if fetched.is_empty() {
            anyhow::bail!(
                "no on-device model is fetched; fetch one with `python3 models/fetch.py smollm2-135m`, or pass --summarizers extractive"
            );
        }
        fetched
    } else {
        summarizers.to_vec()
    };
    let mut boxed = Vec::with_capacity(names.len());
    for n in &names {
        boxed.push(summarize::by_name_with(n, &settings)?);
    }
    let bar = continuity::progress::bar(
        (cases.len() * boxed.len()) as u64,
        "{spinner} [{elapsed_precise}] {bar:30} {pos}/{len} {msg}",
        !quiet,
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
    // Whole file or nothing: write beside it, then rename.
    let tmp = csv.with_extension("csv.partial");
    std::fs::write(&tmp, bench::to_csv(&rows))
        .and_then(|()| std::fs::rename(&tmp, csv))
        .with_context(|| format!("writing {}", csv.display()))?;
    print!("{}", bench::table(&bench::summarize(&rows)));
    if !quiet {
        eprintln!(
            "{} compaction(s), {} strategy; wrote {}",
            rows.len(),
            strategy.name(),
            csv.display()
        );
    }
    Ok(())
}

fn run_generate(
    model: &str,
    model_path: Option<&std::path::Path>,
    prompt: Option<&str>,
    prompt_ids: Option<&std::path::Path>,
    opts: &continuity::llm::generate::GenerateOptions,
    ignore_stop: bool,
    json: bool,
) -> anyhow::Result<()> {
    use continuity::llm::{arch::decoder::LoadOptions, generate, model::Model};
    let mut m = Model::load_by_name(model, model_path, LoadOptions::default())?;
    let ids: Vec<u32> = match (prompt, prompt_ids) {
        (Some(text), _) => m.encode(text)?,
        (None, Some(path)) => {
            let text = std::fs::read_to_string(path).map_err(|e| InputError::Unreadable {
                file: Source::path(path),
                message: e.to_string(),
            })?;
            serde_json::from_str(&text).map_err(|e| InputError::Unreadable {
                file: Source::path(path),
                message: format!("expected a JSON array of token ids: {e}"),
            })?
        }
        (None, None) => anyhow::bail!("give --prompt or --prompt-ids"),
    };
    if ignore_stop {
        m.stop_tokens.clear();
    }
    let g = generate::generate(&mut m, &ids, opts)?;
    let t = &g.timings;
    if json {
        println!(
            "{}",
            serde_json::json!({
                "model": model,
                "prompt_tokens": t.prompt_tokens,
                "generated_ids": g.tokens,
                "text": g.text,
                "load_ms": t.load_ms,
                "prefill_ms": t.prefill_ms,
                "prefill_tokens_per_s": t.prefill_tokens_per_s(),
                "decode_ms": t.decode_ms,
                "generated_tokens": t.generated_tokens,
                "decode_tokens_per_s": t.decode_tokens_per_s(),
                "decode_passes": t.decode_passes,
                "draft_tokens": t.draft_tokens,
                "accepted_draft_tokens": t.accepted_draft_tokens,
                "peak_memory_bytes": t.peak_rss_bytes,
            })
        );
    } else {
        println!("{}", g.text);
        eprintln!(
            "{}: load {:.2} s, prefill {} tokens at {:.1} tok/s, decode {} tokens at {:.1} tok/s in {} passes ({}/{} draft tokens kept), peak memory {:.0} MiB",
            model,
            t.load_ms / 1e3,
            t.prompt_tokens,
            t.prefill_tokens_per_s(),
            t.generated_tokens,
            t.decode_tokens_per_s(),
            t.decode_passes,
            t.accepted_draft_tokens,
            t.draft_tokens,
            t.peak_rss_bytes as f64 / (1024.0 * 1024.0)
        );
    }
    Ok(())
}

/// One line of summarizer measurements (models only).
fn print_summarizer(s: &continuity::report::SummarizerReport) {
    let Some(m) = &s.model else {
        return;
    };
    println!(
        "  summarizer {}: {} input tokens (full history {}), load {:.2} s, prefill {} tokens at {:.1} tok/s, decode {} tokens at {:.1} tok/s in {} passes ({}/{} draft tokens kept), total {:.2} s, peak memory {:.0} MiB",
        s.name,
        s.input_tokens,
        s.full_input_tokens,
        m.load_ms / 1e3,
        m.prompt_tokens,
        m.prefill_tokens_per_s,
        m.generated_tokens,
        m.decode_tokens_per_s,
        m.decode_passes,
        m.accepted_draft_tokens,
        m.draft_tokens,
        m.latency_ms / 1e3,
        m.peak_memory_bytes as f64 / (1024.0 * 1024.0)
    );
}

fn load_tokenizer(spec: Option<&str>) -> anyhow::Result<TokenCounter> {
    Ok(match spec {
        Some(s) => TokenCounter::from_spec(s)?,
        None => TokenCounter::default_tokenizer()?,
    })
}

/// What `compact` and `plan` read before they start.
struct Loaded {
    transcript: continuity::Transcript,
    source: Source,
    kernel: MissionKernel,
    policy: continuity::RetentionPolicy,
    summarizer: Box<dyn summarize::Summarizer>,
    tokens: TokenCounter,
}

fn load(
    input: &str,
    common: &Common,
    now: chrono::DateTime<chrono::Utc>,
) -> anyhow::Result<Loaded> {
    let (transcript, source) = io::read_transcript(input)?;
    Ok(Loaded {
        transcript,
        source,
        kernel: io::load_kernel(&common.kernel, now)?,
        policy: io::load_policy(common.policy.as_deref())?,
        summarizer: summarize::by_name(&common.summarizer)?,
        tokens: load_tokenizer(common.tokenizer.as_deref())?,
    })
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let now = chrono::Utc::now();
    match cli.command {
        Command::Compact {
            input,
            common,
            strategy,
            out,
            quiet,
            run_id,
        } => {
            let Loaded {
                transcript,
                source,
                kernel,
                policy,
                mut summarizer,
                tokens,
            } = load(&input, &common, now)?;
            let mut redactor = Redactor::new(&policy.personal_data)?;
            let input_name = source.to_string();
            // Freshness: from the kernel load to this release.
            let ctx = continuity::governance::commands::pin_context(
                &out,
                &kernel,
                &input_name,
                run_id.as_deref(),
                chrono::Utc::now(),
            )?;
            let c = compact_pinned(
                &Inputs {
                    transcript: &transcript,
                    input_name: &input_name,
                    kernel: &kernel,
                    policy: &policy,
                    strategy,
                },
                &ctx,
                summarizer.as_mut(),
                &tokens,
                &mut redactor,
            )?;
            let files = io::serialize(&c)?;
            io::check_leaks(&files, &mut redactor)?;
            io::write_atomically(&out, &files)?;
            if !quiet {
                let r = &c.report;
                let t = &r.tokens;
                println!(
                    "   Compacted {} ({}, {}, summarizer {})",
                    r.input, r.format, r.strategy, r.summarizer.name
                );
                println!(
                    "      tokens {} -> {} ({:.1}% smaller; fixed {}, kernel {}, pinned {}, summary {}, tail {})",
                    t.before, t.after, r.reduction_pct, t.fixed_overhead, t.kernel, t.pinned, t.summary, t.tail
                );
                println!(
                    "       floor required {} vs trigger {}: {}",
                    r.floor.required,
                    r.floor.trigger,
                    if r.floor.met { "met" } else { "NOT met" }
                );
                println!(
                    "     audit {} records: {} pins, {} stubs, {} redactions",
                    c.audit.len(),
                    r.counts.pins,
                    r.counts.stubs,
                    r.counts.redactions
                );
                let names: Vec<String> = files
                    .files
                    .iter()
                    .map(|(n, _)| out.join(n).display().to_string())
                    .collect();
                print_summarizer(&r.summarizer);
                if let Some(g) = &r.governance {
                    println!(
                        "  policy pin {} seq {} sha256 {}: {} constraints verified; policy loaded {:.1}s ago{}",
                        g.run_id,
                        g.sequence,
                        &g.sha256[..12],
                        g.constraints,
                        g.policy_freshness_s,
                        if g.policy_changed { " (policy revision changed since the previous pin: rehydrated)" } else { "" }
                    );
                }
                println!("       wrote {}", names.join(", "));
            }
        }
        Command::Plan {
            input,
            common,
            json,
        } => {
            let Loaded {
                transcript,
                source,
                kernel,
                policy,
                mut summarizer,
                tokens,
            } = load(&input, &common, now)?;
            let plans = continuity::plan::plan(
                &transcript,
                &source.to_string(),
                &kernel,
                &policy,
                summarizer.as_mut(),
                &tokens,
            )?;
            if json {
                println!("{}", serde_json::to_string_pretty(&plans)?);
            } else {
                println!(
                    "{:<13} {:>9} {:>8} {:>8} {:>12} {:>16} {:>18}",
                    "strategy",
                    "fixed",
                    "remains",
                    "after",
                    "min trigger",
                    "per 100k @ min",
                    "per 100k @ policy"
                );
                for p in &plans {
                    let at_policy = p
                        .compactions_per_100k_at_policy
                        .map(|x| format!("{x:.2} (T={})", p.policy_trigger))
                        .unwrap_or_else(|| format!("n/a (T={} < after)", p.policy_trigger));
                    println!(
                        "{:<13} {:>9} {:>8} {:>8} {:>12} {:>16.2} {:>18}",
                        p.strategy,
                        p.fixed_overhead,
                        p.remains,
                        p.after,
                        p.min_trigger,
                        p.compactions_per_100k_at_min,
                        at_policy
                    );
                }
            }
        }
        Command::Preflight {
            kernel,
            calls,
            scope,
            ledger,
            json,
        } => {
            let kernel = io::load_kernel(&kernel, now)?;
            let ok = continuity::governance::commands::preflight(
                &kernel,
                &calls,
                scope,
                ledger.as_deref(),
                json,
            )?;
            if !ok {
                return Err(Exit(3).into());
            }
        }
        Command::Ledger { command } => {
            use continuity::governance::commands as g;
            let ok = match command {
                LedgerCommand::Verify { file, json } => g::ledger_verify(&file, json)?,
                LedgerCommand::Reconcile { file, json } => g::ledger_reconcile(&file, json)?,
                LedgerCommand::Prepare {
                    file,
                    run_id,
                    effect_id,
                    tool,
                    args,
                } => g::ledger_prepare(&file, &run_id, &effect_id, &tool, &args)?,
                LedgerCommand::Commit {
                    file,
                    run_id,
                    effect_id,
                    receipt,
                } => g::ledger_commit(&file, &run_id, &effect_id, &receipt)?,
            };
            if !ok {
                return Err(Exit(3).into());
            }
        }
        Command::Memory { command } => {
            use continuity::governance::commands as g;
            match command {
                MemoryCommand::List { store, json } => g::memory_list(&store, json)?,
                MemoryCommand::Show { id, store } => g::memory_show(&store, &id)?,
                MemoryCommand::Propose {
                    proposals,
                    store,
                    kernel,
                    transcript,
                    scope,
                } => {
                    let kernel = io::load_kernel(&kernel, now)?;
                    let (t, _) = io::read_transcript(&transcript)?;
                    g::memory_propose(&store, &kernel, &t, &proposals, scope)?
                }
                MemoryCommand::Rollback { id, store, reason } => {
                    g::memory_rollback(&store, &id, &reason)?
                }
            }
        }
        Command::Adversarial { dir, json } => {
            let results = continuity::governance::adversarial::run_suite(&dir)?;
            if json {
                println!("{}", serde_json::to_string_pretty(&results)?);
            } else {
                print!(
                    "{}",
                    continuity::governance::adversarial::markdown_table(&results)
                );
            }
        }
        Command::Eval {
            input,
            key,
            summary,
            summaries,
            json,
            judge,
        } => {
            let out = continuity::evaluate::cli::eval(
                &input,
                &key,
                summary.as_deref(),
                summaries.as_deref(),
                json,
                &judge,
            )?;
            print!("{out}");
        }
        Command::EvalBench {
            dir,
            calibrate,
            json,
            judge,
            export_pairs,
        } => {
            print!(
                "{}",
                continuity::evaluate::cli::eval_bench(
                    &dir,
                    calibrate,
                    json,
                    &judge,
                    export_pairs.as_deref()
                )?
            );
        }
        Command::EvalTrain {
            pairs,
            out,
            steps,
            batch,
            lr,
            seed,
            dev_every,
            exclude_sources,
            init,
            mix,
            mix_share,
            json,
            quiet,
        } => {
            if !(0.0..=1.0).contains(&mix_share) {
                anyhow::bail!("--mix-share must be between 0 and 1, got {mix_share}");
            }
            let opts = continuity::evaluate::xenc::train::TrainOptions {
                steps,
                batch,
                lr,
                seed,
                dev_every,
                exclude: exclude_sources,
                mix_share,
                ..Default::default()
            };
            let files = continuity::evaluate::cli::TrainFiles {
                pairs: &pairs,
                mix: &mix,
                init: init.as_deref(),
                out: &out,
            };
            print!(
                "{}",
                continuity::evaluate::cli::eval_train(&files, opts, !quiet, json)?
            );
        }
        Command::Replay {
            sessions,
            strategies,
            summarizers,
            kernel,
            policy,
            key,
            out,
            jobs,
            damage,
            tokenizer,
            quiet,
        } => {
            let kernel = io::load_kernel(&kernel, now)?;
            let policy = io::load_policy(policy.as_deref())?;
            let key_text = std::fs::read_to_string(&key).map_err(|e| InputError::Unreadable {
                file: Source::path(&key),
                message: e.to_string(),
            })?;
            let key = FactKey::from_toml(&key_text, &Source::path(&key))?;
            let tokens = load_tokenizer(tokenizer.as_deref())?;
            let loaded = replay::load_sessions(&sessions, &kernel, &tokens)?;
            let conditions = replay::conditions(&strategies, &summarizers, &damage);
            let setup = replay::Setup {
                kernel: &kernel,
                policy: &policy,
                key: &key,
                tokens: &tokens,
            };
            let result = replay::replay_all(loaded, conditions, &setup, jobs, !quiet)?;
            let written = replay::write(&result, &kernel, &key, &policy, &out)?;
            if !quiet {
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
        }
        Command::Bench {
            inputs,
            kernel,
            policy,
            summarizers,
            strategy,
            tokenizer,
            csv,
            lookahead,
            quiet,
        } => run_bench(
            &inputs,
            &kernel,
            policy.as_deref(),
            &summarizers,
            strategy,
            tokenizer.as_deref(),
            &csv,
            lookahead,
            quiet,
            now,
        )?,
        Command::Generate {
            model,
            model_path,
            prompt,
            prompt_ids,
            max_new_tokens,
            ignore_stop,
            lookahead,
            json,
        } => run_generate(
            &model,
            model_path.as_deref(),
            prompt.as_deref(),
            prompt_ids.as_deref(),
            &continuity::llm::generate::GenerateOptions {
                max_new_tokens,
                lookahead,
                ..Default::default()
            },
            ignore_stop,
            json,
        )?,
        Command::Kernel { command } => match command {
            KernelCommand::Init { path, force } => match path {
                None => print!("{TEMPLATE}"),
                Some(p) => {
                    if p.exists() && !force {
                        return Err(InputError::BadOutputDir {
                            path: p.clone(),
                            message: "already exists; pass --force to overwrite".into(),
                        }
                        .into());
                    }
                    std::fs::write(&p, TEMPLATE)
                        .with_context(|| format!("writing {}", p.display()))?;
                    eprintln!("wrote {}", p.display());
                }
            },
            KernelCommand::Hash { path } => {
                let text = std::fs::read_to_string(&path).map_err(|e| InputError::Unreadable {
                    file: Source::path(&path),
                    message: e.to_string(),
                })?;
                let kernel = MissionKernel::parse_unchecked(&text, &Source::path(&path))?;
                println!("{}", kernel.sha256);
                match kernel.pinned_hash() {
                    Some(pinned) if pinned.eq_ignore_ascii_case(&kernel.sha256) => {
                        eprintln!("pinned sha256 matches")
                    }
                    Some(pinned) => eprintln!("pinned sha256 {pinned} does NOT match"),
                    None => eprintln!("not pinned: add  sha256 = \"{}\"  to pin it", kernel.sha256),
                }
            }
        },
    }
    Ok(())
}
