//! Summarizers plug in behind one trait and are chosen by name.
//!
//! In the governed strategy the summary is advisory and its input is only the
//! narrative (what was said and asked, not what is pinned anyway); in
//! summary-only it is everything older than the tail.

mod extractive;

pub use extractive::{split_sentences, Extractive};

use serde::Serialize;

use crate::error::Error;
use crate::transcript::PartRef;

/// What a narrative item is, so a summarizer can weigh it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NarrativeKind {
    UserText,
    AssistantText,
    /// A tool call with its arguments, written by the assistant.
    ToolCall,
    /// A tool result: in full (summary-only) or as an id and stub (governed).
    ToolResult,
    SystemText,
    /// The advisory summary written at an earlier compaction.
    PriorSummary,
    /// A sub-agent's report: what a delegate call returned.
    Report,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NarrativeItem {
    /// The input part this came from.
    pub item: PartRef,
    pub kind: NarrativeKind,
    pub text: String,
}

/// The prompt variant a summarizer should use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SummaryJob {
    /// Everything older than the tail; the summary is all that remains of it.
    SummaryOnly,
    /// The narrative only; kernel and evidence are carried elsewhere.
    Governed,
    /// The governed job on a coding session: the working-state digest
    /// carries files, commands and errors, so the narrative says what the
    /// agent is doing, what it decided, what is open and what comes next.
    Coding,
}

pub struct SummaryRequest<'a> {
    pub job: SummaryJob,
    pub items: &'a [NarrativeItem],
    pub word_cap: usize,
    /// Text the compacted request carries verbatim anyway (pins, carried
    /// statements, the kernel): a summary need not repeat its values.
    pub retained: &'a str,
    /// The coding job's outline of where the work stands, read off the
    /// working state (empty for the other jobs).
    pub outline: &'a [String],
}

/// Measurements a model-backed summarizer reports for each compaction.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SummarizerMetrics {
    pub load_ms: f64,
    pub prompt_tokens: usize,
    pub prefill_tokens_per_s: f64,
    pub generated_tokens: usize,
    pub decode_tokens_per_s: f64,
    /// Forward passes after the prefill, and the speculative draft tokens
    /// they checked and kept (generated = passes + kept + 1 at most).
    pub decode_passes: usize,
    pub draft_tokens: usize,
    pub accepted_draft_tokens: usize,
    pub latency_ms: f64,
    pub peak_memory_bytes: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SummaryOutput {
    pub text: String,
    pub metrics: Option<SummarizerMetrics>,
}

pub trait Summarizer {
    fn name(&self) -> &str;
    fn summarize(&mut self, request: &SummaryRequest<'_>) -> Result<SummaryOutput, Error>;
    /// Free what `summarize` loaded (a model's weights); the next call
    /// loads it again.
    fn release(&mut self) {}
}

/// The empty summary: a baseline that shows what the rest carries alone.
pub struct NoSummary;

impl Summarizer for NoSummary {
    fn name(&self) -> &str {
        "none"
    }
    fn summarize(&mut self, _request: &SummaryRequest<'_>) -> Result<SummaryOutput, Error> {
        Ok(SummaryOutput {
            text: String::new(),
            metrics: None,
        })
    }
}

/// A summary written elsewhere (an archived re-summary, a deliberately
/// damaged one), put in place as it is.
pub struct FixedSummary {
    pub label: String,
    pub text: String,
}

impl Summarizer for FixedSummary {
    fn name(&self) -> &str {
        &self.label
    }
    fn summarize(&mut self, _request: &SummaryRequest<'_>) -> Result<SummaryOutput, Error> {
        Ok(SummaryOutput {
            text: self.text.clone(),
            metrics: None,
        })
    }
}

/// Cut text to at most `cap` words, ending at the last whole sentence that
/// fits (at a word boundary when not even one sentence does).
pub fn cap_words(text: &str, cap: usize) -> (String, bool) {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= cap {
        (words.join(" "), false)
    } else {
        (words[..whole_sentences(&words[..cap])].join(" "), true)
    }
}

/// Whether `word` ends a sentence: a full stop, `!` or `?`, before any
/// closing quote, bracket or emphasis (an ellipsis does not).
pub fn ends_sentence(word: &str) -> bool {
    let w = word.trim_end_matches(['"', '\'', ')', '*', '`']);
    w.ends_with(['.', '!', '?']) && !w.ends_with("..")
}

/// How many of `words` to keep so that a cut text ends with a whole
/// sentence: up to the last word that ends one, or none: a fragment reads
/// as a statement it never made.
pub fn whole_sentences(words: &[&str]) -> usize {
    match words.iter().rposition(|w| ends_sentence(w)) {
        Some(i) => i + 1,
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_words_cuts_and_reports() {
        assert_eq!(cap_words("a b  c", 5), ("a b c".to_string(), false));
        assert_eq!(cap_words("a b c d", 2), (String::new(), true));
        assert_eq!(cap_words("a b. c d", 3), ("a b.".to_string(), true));
        assert_eq!(
            cap_words("One two. Three four five.", 4),
            ("One two.".to_string(), true),
            "a cut ends at a whole sentence"
        );
    }
}
