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
    print!("{}", crate::render::plan(&plans));
    Ok(())
}
