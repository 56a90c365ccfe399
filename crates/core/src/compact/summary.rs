//! Summarize: run the summarizer on its input, withhold personal data from
//! what it wrote, screen out sentences that conflict with the kernel, and
//! cap it at the word limit.

use std::time::Instant;

use crate::error::Result;
use crate::governance::memory::{screen_text, RejectedDirective};
use crate::kernel::constraint::Constraint;
use crate::redact::{Redaction, Redactor};
use crate::summarize::{cap_words, Summarizer, SummarizerMetrics, SummaryRequest};

use super::narrative::SummarizerInput;

/// The summary as placed in the compacted request, with what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenSummary {
    pub summarizer: String,
    pub text: String,
    pub words: usize,
    pub capped: bool,
    pub word_cap: usize,
    pub latency_ms: f64,
    pub metrics: Option<SummarizerMetrics>,
    /// Personal data withheld from the summary.
    pub redactions: Vec<Redaction>,
    /// Sentences withheld because they conflict with the kernel.
    pub rejected: Vec<RejectedDirective>,
}

/// Write the summary. With `screen` (the kernel is in force), sentences
/// that conflict with its constraints are withheld and audited, never shown
/// to the agent as memory. An empty input gets an empty summary without
/// calling the summarizer.
pub fn write(
    summarizer: &mut dyn Summarizer,
    input: &SummarizerInput,
    word_cap: usize,
    redactor: &mut Redactor,
    screen: Option<&[Constraint]>,
) -> Result<WrittenSummary> {
    let started = Instant::now();
    let output = if input.items.is_empty() {
        None
    } else {
        Some(summarizer.summarize(&SummaryRequest {
            job: input.job,
            items: &input.items,
            word_cap,
        })?)
    };
    let latency_ms = (started.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    let (text, metrics) = match output {
        Some(o) => (o.text, o.metrics),
        None => (String::new(), None),
    };
    let (redacted, redactions) = redactor.redact_generated(&text, "summary");
    let (kept, rejected) = match screen {
        Some(constraints) => screen_text(constraints, &redacted, "summary"),
        None => (redacted, Vec::new()),
    };
    let (text, capped) = cap_words(&kept, word_cap);
    Ok(WrittenSummary {
        summarizer: summarizer.name().to_string(),
        words: text.split_whitespace().count(),
        text,
        capped,
        word_cap,
        latency_ms,
        metrics,
        redactions,
        rejected,
    })
}
