//! Summarize: run the summarizer on its input, withhold personal data from
//! what it wrote, screen out sentences that conflict with the kernel, and
//! cap it at the word limit and at the tokens the budget leaves.

use std::time::Instant;

use crate::error::Result;
use crate::governance::memory::{screen_text, RejectedDirective};
use crate::kernel::constraint::Constraint;
use crate::markers::SUMMARY_HEADER;
use crate::redact::{Redaction, Redactor};
use crate::summarize::{cap_words, Summarizer, SummarizerMetrics, SummaryRequest};
use crate::tokens::TokenCount;

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

/// What bounds a summary.
pub struct Limits<'a> {
    /// The policy's hard cap on words.
    pub word_cap: usize,
    /// Tokens the budget leaves for the summary section (its header
    /// included).
    pub max_tokens: usize,
    /// Text the request carries verbatim anyway (a summary need not repeat
    /// its values).
    pub retained: &'a str,
}

/// Write the summary. With `screen` (the kernel is in force), sentences
/// that conflict with its constraints are withheld and audited, never shown
/// to the agent as memory. An empty input, or no room, gets an empty
/// summary without calling the summarizer.
pub fn write(
    summarizer: &mut dyn Summarizer,
    input: &SummarizerInput,
    limits: &Limits<'_>,
    redactor: &mut Redactor,
    screen: Option<&[Constraint]>,
    tokens: &dyn TokenCount,
) -> Result<WrittenSummary> {
    let started = Instant::now();
    let word_cap = limits.word_cap;
    let header = tokens.count(SUMMARY_HEADER)? + 1;
    let nothing = input.items.is_empty() && input.outline.is_empty();
    let output = if nothing || limits.max_tokens <= header {
        None
    } else {
        Some(summarizer.summarize(&SummaryRequest {
            job: input.job,
            items: &input.items,
            word_cap,
            retained: limits.retained,
            outline: &input.outline,
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
    let (text, mut capped) = cap_words(&kept, word_cap);
    let fitted = fit_tokens(&text, limits.max_tokens, tokens)?;
    capped |= fitted.len() < text.len();
    let text = fitted;
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

/// The longest word prefix of `text` whose summary section (header, newline,
/// text) fits `max_tokens`, cut back to its last whole sentence; empty when
/// not even one word fits.
pub fn fit_tokens(text: &str, max_tokens: usize, tokens: &dyn TokenCount) -> Result<String> {
    let section = |t: &str| tokens.count(&format!("{SUMMARY_HEADER}\n{t}"));
    if text.is_empty() || section(text)? <= max_tokens {
        return Ok(text.to_string());
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let (mut lo, mut hi) = (0, words.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if section(&words[..mid].join(" "))? <= max_tokens {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Ok(words[..crate::summarize::whole_sentences(&words[..lo])].join(" "))
}
