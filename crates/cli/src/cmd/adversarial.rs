//! `continuity adversarial`: the six adversarial compaction scenarios,
//! each under summary-only and governed, as a Markdown table.

use std::path::PathBuf;

use continuity_eval::adversarial::{run_suite, CaseResult};

#[derive(clap::Args)]
pub struct Args {
    /// Suite folder
    #[arg(long, default_value = "eval/adversarial")]
    dir: PathBuf,
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let results = run_suite(&args.dir)?;
    if args.json {
        return super::print_json(&results);
    }
    print!("{}", markdown_table(&results));
    Ok(())
}

/// The suite's table, in Markdown (for the README).
pub fn markdown_table(results: &[CaseResult]) -> String {
    let mut out = String::from(
        "| Case | Strategy | Constraints survived | Survival rate | Forbidden calls caught at preflight | Replay fidelity | Conflicting directives shown |\n|---|---|---|---|---|---|---|\n",
    );
    for c in results {
        for r in &c.results {
            out.push_str(&format!(
                "| {} | {} | {}/{} | {:.1}% | {}/{} | {}/{} ({:.1}%) | {} |\n",
                c.id,
                r.strategy,
                r.constraints_survived,
                r.constraints_total,
                r.survival_pct,
                r.caught_at_preflight,
                r.forbidden_calls,
                r.replay_matches,
                r.calls,
                r.replay_fidelity_pct,
                r.conflicting_directives_shown
            ));
        }
    }
    out
}
