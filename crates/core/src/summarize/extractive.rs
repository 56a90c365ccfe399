//! Extractive baseline: a deterministic, budgeted pick of the assistant's own
//! sentences (its text and the free-text notes in its tool calls), in the
//! spirit of observation masking and extractive compression.
//!
//! Sentences are scored by what tends to carry findings (record ids, amounts,
//! verdict words) and by recency, picked greedily under the word cap without
//! near-duplicates, and emitted in their original order.

use std::collections::HashSet;
use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

use super::{NarrativeKind, Summarizer, SummaryOutput, SummaryRequest};
use crate::error::Error;

/// Free-text strings in tool-call arguments shorter than this many words are
/// ids and options, not prose.
const MIN_NOTE_WORDS: usize = 6;
/// Word-set overlap above which a sentence counts as a repeat.
const DUPLICATE_JACCARD: f64 = 0.6;

#[derive(Debug, Default, Clone)]
pub struct Extractive;

fn id_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\b[A-Za-z]{1,8}[-_]\d[\w-]*\b").expect("static regex"))
}
fn amount_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?:[$€£]\s?\d[\d,]*(?:\.\d+)?)|(?:\b\d[\d,]*(?:\.\d+)?\s?(?:USD|EUR|GBP)\b)")
            .expect("static regex")
    })
}
fn cue_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:not|never|only|actually|error|incorrect(?:ly)?|wrong|correct(?:ly)?|because|therefore|verdict|conclu\w*|finding\w*|owed|due|violat\w*|must|should|requires?|approv\w*|authoriz\w*|pending|open|unresolved|remaining|next|found|confirm\w*)\b")
            .expect("static regex")
    })
}

#[derive(Debug)]
struct Candidate {
    order: usize,
    text: String,
    words: usize,
    score: f64,
}

impl Summarizer for Extractive {
    fn name(&self) -> &str {
        "extractive"
    }

    fn summarize(&mut self, request: &SummaryRequest<'_>) -> Result<SummaryOutput, Error> {
        let mut sentences = Vec::new();
        for item in request.items {
            match item.kind {
                NarrativeKind::AssistantText | NarrativeKind::PriorSummary => {
                    sentences.extend(split_sentences(&item.text))
                }
                NarrativeKind::ToolCall => {
                    for note in prose_in_args(&item.text) {
                        sentences.extend(split_sentences(&note));
                    }
                }
                _ => {}
            }
        }
        Ok(SummaryOutput {
            text: pick(&sentences, request.word_cap),
            metrics: None,
        })
    }
}

/// Prose strings inside a tool call rendered as `name {json args}`.
fn prose_in_args(call_text: &str) -> Vec<String> {
    let json_start = call_text.find(['{', '[']);
    let Some(start) = json_start else {
        return Vec::new();
    };
    let Ok(args) = serde_json::from_str::<Value>(&call_text[start..]) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    collect_prose(&args, &mut out);
    out
}

fn collect_prose(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s.split_whitespace().count() >= MIN_NOTE_WORDS => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| collect_prose(i, out)),
        Value::Object(map) => map.values().for_each(|i| collect_prose(i, out)),
        _ => {}
    }
}

const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "vs", "etc", "mr", "mrs", "dr", "inc", "co", "no", "approx",
];

/// Split prose into sentences without breaking amounts, ids or abbreviations.
pub fn split_sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for block in text.split('\n') {
        let chars: Vec<char> = block.chars().collect();
        let mut start = 0;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if matches!(c, '.' | '!' | '?') {
                let next_ws = chars.get(i + 1).is_some_and(|n| n.is_whitespace());
                let after = chars[i + 1..].iter().find(|n| !n.is_whitespace());
                let starts_new = after.is_some_and(|n| {
                    n.is_uppercase() || n.is_ascii_digit() || matches!(n, '(' | '"' | '\'' | '[')
                });
                let word_before: String = chars[start..i]
                    .iter()
                    .rev()
                    .take_while(|ch| !ch.is_whitespace())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let abbreviation = c == '.'
                    && ABBREVIATIONS.contains(&word_before.to_lowercase().trim_start_matches('('));
                if next_ws && starts_new && !abbreviation {
                    push_sentence(&mut out, &chars[start..=i]);
                    start = i + 1;
                }
            }
            i += 1;
        }
        if start < chars.len() {
            push_sentence(&mut out, &chars[start..]);
        }
    }
    out
}

fn push_sentence(out: &mut Vec<String>, chars: &[char]) {
    let s: String = chars.iter().collect();
    let s = s.trim().trim_start_matches(['-', '*', '•']).trim();
    if s.split_whitespace().count() >= 3 {
        out.push(s.to_string());
    }
}

fn score(sentence: &str, order: usize, total: usize) -> f64 {
    let ids = id_re().find_iter(sentence).count().min(3) as f64;
    let amounts = amount_re().find_iter(sentence).count().min(3) as f64;
    let cues = cue_re().find_iter(sentence).count().min(4) as f64;
    let words = sentence.split_whitespace().count();
    let length = if words < 5 {
        -2.0
    } else if words > 60 {
        -1.0
    } else {
        0.0
    };
    let recency = if total > 1 {
        order as f64 / (total - 1) as f64
    } else {
        1.0
    };
    2.0 * ids + 1.5 * amounts + cues + length + recency
}

fn word_set(s: &str) -> HashSet<String> {
    s.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

fn jaccard(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    let inter = a.intersection(b).count() as f64;
    let union = a.union(b).count() as f64;
    if union == 0.0 {
        0.0
    } else {
        inter / union
    }
}

/// Greedy pick under the word cap, best first, no near-duplicates, then
/// written back in the order the assistant said them.
fn pick(sentences: &[String], cap: usize) -> String {
    let total = sentences.len();
    let mut candidates: Vec<Candidate> = sentences
        .iter()
        .enumerate()
        .map(|(order, s)| Candidate {
            order,
            words: s.split_whitespace().count(),
            score: score(s, order, total),
            text: s.clone(),
        })
        .collect();
    candidates.sort_by(|a, b| b.score.total_cmp(&a.score).then(b.order.cmp(&a.order)));
    let mut chosen: Vec<&Candidate> = Vec::new();
    let mut sets: Vec<HashSet<String>> = Vec::new();
    let mut used = 0;
    for c in &candidates {
        if used + c.words > cap {
            continue;
        }
        let set = word_set(&c.text);
        if sets.iter().any(|s| jaccard(s, &set) > DUPLICATE_JACCARD) {
            continue;
        }
        used += c.words;
        sets.push(set);
        chosen.push(c);
    }
    if chosen.is_empty() {
        // Every sentence is longer than the cap: keep the best one, cut.
        return candidates
            .first()
            .map(|c| super::cap_words(&c.text, cap).0)
            .unwrap_or_default();
    }
    chosen.sort_by_key(|c| c.order);
    chosen
        .iter()
        .map(|c| c.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summarize::{NarrativeItem, SummaryJob};

    #[test]
    fn splits_without_breaking_amounts_or_abbreviations() {
        let s = split_sentences("The charge was $59.60 on 2026-07-02. It is correct, e.g. per POL-B-PRO. Next, check CR-778.");
        assert_eq!(
            s,
            vec![
                "The charge was $59.60 on 2026-07-02.",
                "It is correct, e.g. per POL-B-PRO.",
                "Next, check CR-778."
            ]
        );
    }

    #[test]
    fn picks_findings_under_the_cap_in_original_order() {
        let items = vec![
            NarrativeItem { item: crate::transcript::PartRef::new(1, 0), kind: NarrativeKind::AssistantText, text: "Let me look at the account now please.".into() },
            NarrativeItem { item: crate::transcript::PartRef::new(3, 0), kind: NarrativeKind::AssistantText, text: "TX-9002 was only an authorization and was never captured. The weather is nice today in the office.".into() },
            NarrativeItem { item: crate::transcript::PartRef::new(5, 0), kind: NarrativeKind::ToolCall, text: r#"record_progress {"note":"Credit CR-778 of $19.60 is unapplied and the owner was not notified."}"#.into() },
            NarrativeItem { item: crate::transcript::PartRef::new(0, 0), kind: NarrativeKind::UserText, text: "User text is never picked by this baseline at all.".into() },
        ];
        let req = SummaryRequest {
            job: SummaryJob::Governed,
            items: &items,
            word_cap: 25,
        };
        let out = Extractive.summarize(&req).unwrap().text;
        assert_eq!(out, "TX-9002 was only an authorization and was never captured. Credit CR-778 of $19.60 is unapplied and the owner was not notified.");
        assert!(out.split_whitespace().count() <= 25);
    }

    #[test]
    fn is_deterministic_and_skips_repeats() {
        let text = "CR-778 of $19.60 is unapplied. CR-778 of $19.60 is unapplied! Something else entirely happened here.";
        let items = vec![NarrativeItem {
            item: crate::transcript::PartRef::new(1, 0),
            kind: NarrativeKind::AssistantText,
            text: text.into(),
        }];
        let req = SummaryRequest {
            job: SummaryJob::SummaryOnly,
            items: &items,
            word_cap: 150,
        };
        let a = Extractive.summarize(&req).unwrap().text;
        let b = Extractive.summarize(&req).unwrap().text;
        assert_eq!(a, b);
        assert_eq!(a.matches("CR-778").count(), 1);
    }
}
