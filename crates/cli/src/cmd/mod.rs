//! One module per subcommand: its arguments (`Args`) and `run`, which
//! loads the inputs, calls the library and prints. Shared here: the
//! arguments and loaders that several subcommands use.

pub mod adversarial;
pub mod bench;
pub mod compact;
pub mod compact_dir;
pub mod eval;
pub mod eval_bench;
pub mod eval_train;
pub mod generate;
pub mod hook;
pub mod kernel;
pub mod ledger;
pub mod memory;
pub mod plan;
pub mod preflight;
pub mod replay;
pub mod retention;
pub mod serve;
pub mod session;

use std::path::PathBuf;

use continuity_core::compact::Strategy;
use continuity_core::error::Source;
use continuity_core::io;
use continuity_core::summarize::Summarizer;
use continuity_core::{MissionKernel, RetentionPolicy, Transcript};
use continuity_models::TokenCounter;

/// The arguments `compact` and `plan` share.
#[derive(clap::Args)]
pub struct Common {
    /// Mission Kernel (TOML); without it the session's instructions and
    /// first user message are the mission, carried verbatim
    #[arg(long, value_name = "K.toml")]
    pub kernel: Option<PathBuf>,
    /// Retention policy (TOML); built-in defaults when absent
    #[arg(long, value_name = "P.toml")]
    pub policy: Option<PathBuf>,
    /// Target in tokens: the compacted request stays at or under it, or the
    /// run fails with exit code 5 [default: the policy's target, 0.7 of its
    /// trigger]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub target_tokens: Option<u64>,
    /// Trigger in tokens: compact when the request is over it [default: the
    /// policy's compaction.trigger_tokens; with --target-tokens alone, the
    /// target ÷ 0.7]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub trigger_tokens: Option<u64>,
    /// Summarizer: none | extractive | smollm2-135m | qwen2.5-0.5b | gemma3-270m | NAME:PATH.gguf (on-device models are experimental)
    #[arg(long, default_value = "extractive")]
    pub summarizer: String,
    /// Tokenizer for exact counts: o200k_base, a tokenizer.json, a .gguf, or
    /// a model name (smollm2-135m, qwen2.5-0.5b, gemma3-270m) [default: the
    /// agent's: o200k_base for OpenAI models, the bundled smollm2-135m
    /// calibrated on the recorded usage for Claude, else the bundled one]
    #[arg(long, value_name = "SPEC")]
    pub tokenizer: Option<String>,
}

/// How a compacted request is rebuilt (the core's [`Strategy`], with the
/// help text the command line shows).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StrategyArg {
    /// Kernel in the instructions, evidence pinned, summary advisory.
    Governed,
    /// The summary replaces everything older than the tail.
    SummaryOnly,
    /// Kernel in the instructions; no pins (the summary carries evidence).
    KernelOnly,
    /// Evidence pinned; the mission stays in the first message and is
    /// summarized.
    PinsOnly,
}

impl From<StrategyArg> for Strategy {
    fn from(s: StrategyArg) -> Self {
        match s {
            StrategyArg::Governed => Strategy::Governed,
            StrategyArg::SummaryOnly => Strategy::SummaryOnly,
            StrategyArg::KernelOnly => Strategy::KernelOnly,
            StrategyArg::PinsOnly => Strategy::PinsOnly,
        }
    }
}

/// `--tokenizer SPEC`, else the bundled tokenizer.
pub fn load_tokenizer(spec: Option<&str>) -> anyhow::Result<TokenCounter> {
    Ok(match spec {
        Some(s) => TokenCounter::from_spec(s)?,
        None => TokenCounter::default_tokenizer()?,
    })
}

/// `--tokenizer SPEC`, else the tokenizer of the model `t` names.
pub fn tokenizer_for(spec: Option<&str>, t: Option<&Transcript>) -> anyhow::Result<TokenCounter> {
    Ok(match spec {
        Some(s) => TokenCounter::from_spec(s)?,
        None => continuity_models::agent::for_model(t.and_then(Transcript::model))?,
    })
}

/// What `compact` and `plan` read before they start.
pub struct Loaded {
    pub transcript: Transcript,
    pub source: Source,
    pub kernel: MissionKernel,
    pub policy: RetentionPolicy,
    pub summarizer: Box<dyn Summarizer>,
    pub tokens: TokenCounter,
}

pub fn load(
    input: &str,
    common: &Common,
    now: chrono::DateTime<chrono::Utc>,
) -> anyhow::Result<Loaded> {
    let (bytes, source) = io::read_input(input)?;
    let doc = continuity_core::formats::open(&bytes, &source)?;
    let read = doc.read(continuity_core::formats::At::Last)?;
    let over = common
        .tokenizer
        .as_deref()
        .map(TokenCounter::from_spec)
        .transpose()?;
    let agent = continuity_models::agent::for_session(&doc, &read, over)?;
    let (kernel, policy) = load_rules(common, now)?;
    Ok(Loaded {
        transcript: read.transcript,
        source,
        kernel,
        policy,
        summarizer: continuity_models::by_name(&common.summarizer)?,
        tokens: agent.counter,
    })
}

/// `--kernel` (else the session's own mission) and `--policy` (else the
/// defaults), with `--trigger-tokens` and `--target-tokens` over the
/// policy's.
pub fn load_rules(
    common: &Common,
    now: chrono::DateTime<chrono::Utc>,
) -> anyhow::Result<(MissionKernel, RetentionPolicy)> {
    let kernel = match &common.kernel {
        Some(path) => io::load_kernel(path, now)?,
        None => MissionKernel::session(now)?,
    };
    let mut policy = io::load_policy(common.policy.as_deref())?;
    let c = &mut policy.compaction;
    let target = common.target_tokens.map(usize::try_from).transpose()?;
    let trigger = common.trigger_tokens.map(usize::try_from).transpose()?;
    match (trigger, target) {
        (Some(tr), Some(ta)) if ta > tr => {
            return Err(crate::exit::Usage(format!(
                "--target-tokens {ta} is above --trigger-tokens {tr}: a compaction must end below the point that starts it"
            ))
            .into())
        }
        (Some(tr), Some(ta)) => (c.trigger_tokens, c.target_tokens) = (tr, Some(ta)),
        (None, Some(ta)) => c.set_target(ta),
        (Some(tr), None) => (c.trigger_tokens, c.target_tokens) = (tr, None),
        (None, None) => {}
    }
    c.default_target = common.policy.is_none() && target.is_none() && trigger.is_none();
    Ok((kernel, policy))
}

/// Print a value as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(v: &T) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}
