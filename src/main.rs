//! `continuity` command line: a thin layer over the library.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

use continuity::compact::{compact, Inputs, Strategy};
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
    /// Summarizer: none | extractive
    #[arg(long, default_value = "extractive")]
    summarizer: String,
    /// tokenizer.json used to count tokens [default: bundled smollm2-135m]
    #[arg(long, value_name = "PATH")]
    tokenizer: Option<PathBuf>,
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
        /// tokenizer.json used to count tokens [default: bundled smollm2-135m]
        #[arg(long, value_name = "PATH")]
        tokenizer: Option<PathBuf>,
        /// No progress bar, no summary line
        #[arg(short, long)]
        quiet: bool,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            let code = err
                .downcast_ref::<Error>()
                .map(Error::exit_code)
                .or_else(|| err.downcast_ref::<InputError>().map(|_| 2))
                .unwrap_or(1);
            ExitCode::from(code as u8)
        }
    }
}

fn load_tokenizer(path: Option<&Path>) -> anyhow::Result<TokenCounter> {
    Ok(match path {
        Some(p) => TokenCounter::from_file(p)?,
        None => TokenCounter::default_tokenizer()?,
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
        } => {
            let (transcript, source) = io::read_transcript(&input)?;
            let kernel = io::load_kernel(&common.kernel, now)?;
            let policy = io::load_policy(common.policy.as_deref())?;
            let mut summarizer = summarize::by_name(&common.summarizer)?;
            let tokens = load_tokenizer(common.tokenizer.as_deref())?;
            let mut redactor = Redactor::new(&policy.personal_data)?;
            let input_name = source.to_string();
            let c = compact(
                &Inputs {
                    transcript: &transcript,
                    input_name: &input_name,
                    kernel: &kernel,
                    policy: &policy,
                    strategy,
                },
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
                println!("       wrote {}", names.join(", "));
            }
        }
        Command::Plan {
            input,
            common,
            json,
        } => {
            let (transcript, source) = io::read_transcript(&input)?;
            let kernel = io::load_kernel(&common.kernel, now)?;
            let policy = io::load_policy(common.policy.as_deref())?;
            let mut summarizer = summarize::by_name(&common.summarizer)?;
            let tokens = load_tokenizer(common.tokenizer.as_deref())?;
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
