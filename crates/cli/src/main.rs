//! `continuity` command line: parses, dispatches and prints. Each
//! subcommand is one module of [`cmd`]; the work is in the libraries.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;
mod exit;
mod progress;
mod render;

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

#[derive(Subcommand)]
enum Command {
    /// Compact one request or session transcript (Anthropic, OpenAI Chat or
    /// Responses, Pydantic AI, Claude Code, Codex; `-` for stdin), or a folder of them
    Compact(cmd::compact::Args),
    /// Smallest trigger meeting the floor rule, per strategy, and compactions per 100k tokens
    Plan(cmd::plan::Args),
    /// Tool-boundary preflight: a verdict per tool call (exit 3 when any is not allowed)
    Preflight(cmd::preflight::Args),
    /// Effect ledger (PREPARE/COMMIT, hash-chained)
    Ledger(cmd::ledger::Args),
    /// Provenance-aware memory store (operator view)
    Memory(cmd::memory::Args),
    /// Run the adversarial compaction suite and print its Markdown table
    Adversarial(cmd::adversarial::Args),
    /// Judge a summary against the archive it summarises: each fact of KEY
    /// supported, omitted or contradicted; unsupported sentences; value
    /// mismatches; keyword checks alongside
    Eval(cmd::eval::Args),
    /// Score the evaluator on the labeled faithfulness set
    EvalBench(cmd::eval_bench::Args),
    /// Train the cross-encoder judge (minilm-xenc): low-rank adapters and a
    /// 3-way head on MiniLM, from labeled (premise, hypothesis) pairs
    EvalTrain(cmd::eval_train::Args),
    /// Re-run compaction over recorded sessions under every condition and
    /// report what survived at each action (report.md, replay.sqlite, SVGs)
    Replay(cmd::replay::Args),
    /// Time compactions: every summarizer over every archive; a table of
    /// medians per summarizer and a CSV row per compaction
    Bench(cmd::bench::Args),
    /// Compact sessions at several targets: is each question's expected
    /// answer still in the request, per category, with reduction and tokens after
    Retention(cmd::retention::Args),
    /// Run an on-device model on one prompt (text or token ids) and report
    /// its timings; used by benches/llama_cpp_side_by_side.py
    Generate(cmd::generate::Args),
    /// Mission Kernel helpers
    Kernel(cmd::kernel::Args),
    /// A local proxy agents talk through (ANTHROPIC_BASE_URL /
    /// OPENAI_BASE_URL): requests under the trigger pass byte for byte, a
    /// conversation over it is compacted with the kernel kept
    Serve(cmd::serve::Args),
    /// Claude Code hooks: `pre-compact` and `session-start` read the hook's
    /// JSON on stdin and print the kernel and the carried state
    Hook(cmd::hook::Args),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Compact(args) => cmd::compact::run(args),
        Command::Plan(args) => cmd::plan::run(args),
        Command::Preflight(args) => cmd::preflight::run(args),
        Command::Ledger(args) => cmd::ledger::run(args),
        Command::Memory(args) => cmd::memory::run(args),
        Command::Adversarial(args) => cmd::adversarial::run(args),
        Command::Eval(args) => cmd::eval::run(args),
        Command::EvalBench(args) => cmd::eval_bench::run(args),
        Command::EvalTrain(args) => cmd::eval_train::run(args),
        Command::Replay(args) => cmd::replay::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Retention(args) => cmd::retention::run(args),
        Command::Generate(args) => cmd::generate::run(args),
        Command::Kernel(args) => cmd::kernel::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Hook(args) => cmd::hook::run(args),
    };
    exit::code(result)
}
