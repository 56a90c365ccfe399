//! `continuity plan`: per strategy, the smallest trigger meeting the floor
//! rule and the compactions to expect per 100k tokens.

use super::Common;

#[derive(clap::Args)]
pub struct Args {
    input: String,
    #[command(flatten)]
    common: Common,
    /// Print JSON instead of a table
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let super::Loaded {
        transcript,
        source,
        kernel,
        policy,
        mut summarizer,
        tokens,
    } = super::load(&args.input, &args.common, chrono::Utc::now())?;
    let plans = continuity_core::plan::plan(
        &transcript,
        &source.to_string(),
        &kernel,
        &policy,
        chrono::Utc::now(),
        summarizer.as_mut(),
        &tokens,
    )?;
    if args.json {
        return super::print_json(&plans);
    }
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
    Ok(())
}
