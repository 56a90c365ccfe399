//! `continuity compact DIR --out OUTDIR`: every session under a folder, in
//! parallel, with a progress bar; the batch runner is `continuity_batch`,
//! this module parses and prints.

use std::path::Path;

use continuity_batch::{self as batch, Measured, NotDone, Status};
use continuity_core::error::{Error, InputError, Source};
use continuity_core::formats::{self, At};

use super::session::{self, Setup};
use crate::{progress, render};

pub struct Batch<'a> {
    pub input: &'a Path,
    pub out: &'a Path,
    pub at: At,
    pub jobs: Option<usize>,
    pub summarizer: &'a str,
    pub quiet: bool,
}

pub fn run(b: &Batch, setup: &Setup) -> anyhow::Result<()> {
    let jobs = batch::discover(b.input, b.out)?;
    let threads = b.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let bar = progress::bar(
        jobs.len() as u64,
        "{bar:40} {pos}/{len} sessions {elapsed} {msg}",
        !b.quiet,
    );
    let rows = batch::run(
        &jobs,
        threads,
        |job| -> Result<Measured, NotDone> {
            let bytes = std::fs::read(&job.input)
                .map_err(|e| NotDone::Failed(format!("{}: {e}", job.input.display())))?;
            let mut summarizer = continuity_models::by_name(b.summarizer)
                .map_err(|e| NotDone::Failed(e.to_string()))?;
            let o = session::compact_one(
                &bytes,
                &Source::path(&job.input),
                b.at,
                &job.out,
                setup,
                summarizer.as_mut(),
                None,
            )
            .map_err(not_done)?;
            Ok(measured(&o))
        },
        |row| {
            if row.status == Status::Failed {
                bar.set_message(format!("{} failed", row.name));
            }
            bar.inc(1);
        },
    )?;
    bar.finish_and_clear();
    batch::write_summary(b.out, &rows)?;
    if !b.quiet {
        print!("{}", render::batch(&rows, b.out));
    }
    Ok(())
}

/// A file whose format is not detected is not a session (a configuration,
/// a manifest, a report beside the sessions): skipped. Any other error,
/// a malformed session among them, is a failure.
fn not_done(e: anyhow::Error) -> NotDone {
    let input = e
        .downcast_ref::<InputError>()
        .or_else(|| match e.downcast_ref::<Error>() {
            Some(Error::Input(i)) => Some(i),
            _ => None,
        });
    if input.is_some_and(formats::is_not_a_session) {
        NotDone::NotASession(format!("{e:#}"))
    } else {
        NotDone::Failed(format!("{e:#}"))
    }
}

fn measured(o: &session::Outcome) -> Measured {
    let r = &o.compaction.report;
    Measured {
        format: o.read.origin.format.clone(),
        version: o.read.origin.version.clone(),
        at: o.read.origin.at.clone().unwrap_or_else(|| "last".into()),
        messages: o.read.transcript.messages.len(),
        tokens_before: r.tokens.before,
        tokens_after: r.tokens.after,
        tokenizer: r.tokenizer.clone(),
        agent_compactions: o.read.origin.agent_compactions.len(),
        warnings: o.read.origin.warnings.len(),
        literal_ours: o.side.as_ref().map(|s| s.ours.fraction),
        literal_agent: o.side.as_ref().map(|s| s.agent.fraction),
    }
}
