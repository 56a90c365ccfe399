//! Extractive baseline: a deterministic, budgeted pick of sentences that
//! carry values, from any role (user and assistant text, the free-text notes
//! in tool calls, unpinned evidence, an earlier summary), in the spirit of
//! observation masking and extractive compression.
//!
//! A sentence is a candidate when it carries a value the request does not
//! already carry verbatim (an id, number or path absent from the retained
//! text), or, written by the assistant, a finding about a value (a value
//! and a verdict word); a sentence whose words the retained text already
//! holds is left out. Candidates are scored by those values, amounts,
//! verdict words and recency, picked greedily under the word cap without
//! near-duplicates, and emitted in their original order.

use std::collections::HashSet;
use std::sync::OnceLock;

use regex::Regex;
use serde_json::Value;

use super::{NarrativeKind, Summarizer, SummaryJob, SummaryOutput, SummaryRequest};
use crate::error::Error;
use crate::evidence::values::literals;

/// Free-text strings in tool-call arguments shorter than this many words are
/// ids and options, not prose.
const MIN_NOTE_WORDS: usize = 6;
/// Word-set overlap above which a sentence counts as a repeat.
const DUPLICATE_JACCARD: f64 = 0.6;
/// A sentence of at least this many words restates another sentence that
/// holds at least [`DUPLICATE_CONTAINED`] of its words.
const CONTAINED_MIN_WORDS: usize = 5;
const DUPLICATE_CONTAINED: f64 = 0.8;
/// Share of a sentence's words found in the retained text above which it
/// says nothing the request does not already say.
const RETAINED_SHARE: f64 = 0.7;

#[derive(Debug, Default, Clone)]
pub struct Extractive;

fn id_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?-u:\b)[A-Za-z]{1,8}[-_]\d[\w-]*(?-u:\b)").expect("static regex")
    })
}
fn amount_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?:[$€£]\s?\d[\d,]*(?:\.\d+)?)|(?:(?-u:\b)\d[\d,]*(?:\.\d+)?\s?(?:USD|EUR|GBP)(?-u:\b))")
            .expect("static regex")
    })
}
/// A JSON object key: `"name":`.
fn json_key_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r#""[\w.-]+"\s*:"#).expect("static regex"))
}
fn cue_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:not|never|only|actually|error|incorrect(?:ly)?|wrong|correct(?:ly)?|because|therefore|verdict|conclu\w*|finding\w*|owed|due|violat\w*|must|should|requires?|approv\w*|authoriz\w*|pending|open|unresolved|remaining|next|found|confirm\w*)(?-u:\b)")
            .expect("static regex")
    })
}

/// What a coding agent states when it decides, finds a cause or says
/// where the work stands.
fn decision_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:decid\w*|chose|choos\w*|instead|switch\w* to|going with|(?:we|I) will use|approach|root cause|the (?:fix|issue|problem|bug|cause) (?:is|was)|fixed|turns out|now pass\w*|all \d* ?tests? pass\w*|trade-?off|so that|the plan|next step|remaining|left to do|done with|completed?)(?-u:\b)")
            .expect("static regex")
    })
}

/// Narration of the agent's own next tool call or a bare interjection:
/// boilerplate, not a decision.
fn boilerplate_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)^(?:let me|let's|now let me|now i'll|i'll (?:read|check|look|start|run|update|now)|i need to (?:read|check|look)|perfect|great|good|excellent|okay|ok|sure|now)(?-u:\b)")
            .expect("static regex")
    })
}

/// A sentence from the assistant that states a decision or where the work
/// stands, and is more than narration.
fn decision(s: &Sentence) -> bool {
    s.by_assistant
        && s.text.split_whitespace().count() >= MIN_NOTE_WORDS
        && decision_re().is_match(&s.text)
        && !boilerplate_re().is_match(s.text.trim_start())
}

#[derive(Debug)]
struct Candidate {
    order: usize,
    text: String,
    words: usize,
    score: f64,
}

/// A sentence and who wrote it.
struct Sentence {
    text: String,
    by_assistant: bool,
}

/// What the request already carries verbatim: its literal values and words.
struct Retained {
    values: HashSet<String>,
    words: HashSet<String>,
}

impl Retained {
    fn of(text: &str) -> Self {
        Retained {
            values: literals(text).map(str::to_string).collect(),
            words: word_set(text),
        }
    }

    /// Literal values of `s` the request does not carry, and all of them.
    fn novel_values(&self, s: &str) -> (usize, usize) {
        let all: Vec<&str> = literals(s).collect();
        let novel = all.iter().filter(|v| !self.values.contains(**v)).count();
        (novel, all.len())
    }

    fn share_of_words(&self, s: &str) -> f64 {
        let words = word_set(s);
        if words.is_empty() || self.words.is_empty() {
            return 0.0;
        }
        words.iter().filter(|w| self.words.contains(*w)).count() as f64 / words.len() as f64
    }
}

impl Summarizer for Extractive {
    fn name(&self) -> &str {
        "extractive"
    }

    fn summarize(&mut self, request: &SummaryRequest<'_>) -> Result<SummaryOutput, Error> {
        let mut sentences = Vec::new();
        for item in request.items {
            let by_assistant = matches!(
                item.kind,
                NarrativeKind::AssistantText
                    | NarrativeKind::PriorSummary
                    | NarrativeKind::ToolCall
                    | NarrativeKind::Report
            );
            let texts = match item.kind {
                NarrativeKind::ToolCall => prose_in_args(&item.text),
                _ => vec![item.text.clone()],
            };
            for t in texts {
                sentences.extend(
                    split_sentences(&t)
                        .into_iter()
                        .map(|text| Sentence { text, by_assistant }),
                );
            }
        }
        let retained = Retained::of(request.retained);
        let recent: Vec<String> = sentences
            .iter()
            .filter(|s| statement(s))
            .map(|s| s.text.clone())
            .collect();
        let candidates: Vec<String> = sentences
            .into_iter()
            .filter(|s| carries_something(s, &retained))
            .map(|s| s.text)
            .collect();
        let text = if request.job == SummaryJob::Coding {
            let latest = latest_words(request.word_cap);
            let narrative = with_outline(
                request.outline,
                &candidates,
                request.word_cap.saturating_sub(latest),
            );
            with_recent(narrative, &recent, request.word_cap)
        } else {
            pick(&candidates, request.word_cap, 1.0)
        };
        Ok(SummaryOutput {
            text,
            metrics: None,
        })
    }
}

/// A coding narrative shorter than this many words gets the agent's
/// latest statements too: they say what it was doing when the head ends.
const CODING_FLOOR: usize = 100;

/// How much a coding narrative prefers newer sentences: what the agent
/// found last is what the next turn builds on.
const CODING_RECENCY: f64 = 3.0;

/// The words of a coding narrative kept for the agent's latest statements
/// whatever else it holds: where the work stands when the head ends.
const LATEST_WORDS: usize = 80;

fn latest_words(cap: usize) -> usize {
    LATEST_WORDS.min(cap / 4)
}

/// An assistant sentence that states something, not narration. Its end is
/// read past markdown emphasis (`**Done!**`).
fn statement(s: &Sentence) -> bool {
    s.by_assistant
        && s.text.split_whitespace().count() >= MIN_NOTE_WORDS
        && !boilerplate_re().is_match(s.text.trim_start())
        && s.text
            .trim_end()
            .trim_end_matches(['*', '_', '`'])
            .ends_with(['.', '!'])
}

/// `narrative`, then the newest statements it does not hold yet, in the
/// order they were said: at least [`latest_words`] of them, and more while
/// the whole is under [`CODING_FLOOR`] words.
fn with_recent(narrative: String, recent: &[String], cap: usize) -> String {
    let mut used = narrative.split_whitespace().count();
    let floor = CODING_FLOOR.min(cap);
    let latest = latest_words(cap);
    let mut added_words = 0;
    let mut added: Vec<&String> = Vec::new();
    for s in recent.iter().rev() {
        if used >= floor && added_words >= latest {
            break;
        }
        let words = s.split_whitespace().count();
        if used + words > cap || narrative.contains(s.as_str()) || added.contains(&s) {
            continue;
        }
        used += words;
        added_words += words;
        added.push(s);
    }
    if added.is_empty() {
        return narrative;
    }
    added.reverse();
    let recent: Vec<&str> = added.iter().map(|s| s.as_str()).collect();
    format!("{narrative} Most recently: {}", recent.join(" "))
        .trim()
        .to_string()
}

/// The coding narrative: the outline of where the work stands (whole
/// sentences, in order, as many as fit), then the agent's decisions and
/// findings in the words left.
fn with_outline(outline: &[String], candidates: &[String], cap: usize) -> String {
    let mut used = 0;
    let mut parts: Vec<&str> = Vec::new();
    for sentence in outline {
        let words = sentence.split_whitespace().count();
        if used + words > cap {
            break;
        }
        used += words;
        parts.push(sentence);
    }
    let decisions = pick(candidates, cap - used, CODING_RECENCY);
    let decisions = super::cap_words(&decisions, cap - used).0;
    parts.push(&decisions);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a sentence says something the request does not: a value it does
/// not carry, or, from the assistant, a finding about a value; and not
/// mostly words the request already holds.
fn carries_something(s: &Sentence, retained: &Retained) -> bool {
    if mostly_json(&s.text) {
        return false;
    }
    let (novel, all) = retained.novel_values(&s.text);
    let finding = s.by_assistant && all > 0 && cue_re().is_match(&s.text);
    (novel > 0 || finding || decision(s)) && retained.share_of_words(&s.text) <= RETAINED_SHARE
}

/// A sentence that is mostly a JSON value (a tool call a report echoed as
/// `[Tool: Read] {"file_path": …}`): a rendering, not a statement.
fn mostly_json(sentence: &str) -> bool {
    let mut json_len = 0;
    let mut rest = sentence;
    while let Some(start) = rest.find(['{', '[']) {
        let from = &rest[start..];
        let mut values = serde_json::Deserializer::from_str(from).into_iter::<Value>();
        let parsed = match values.next() {
            Some(Ok(Value::Object(_) | Value::Array(_))) => values.byte_offset(),
            // A value the sentence splitter cut: JSON to the sentence's end.
            Some(Err(e)) if e.is_eof() => from.len(),
            _ => 0,
        };
        json_len += parsed;
        // Past the value, or past the bracket that opened none.
        rest = &from[parsed.max(1)..];
    }
    2 * json_len.max(keyed_span(sentence)) >= sentence.trim().len()
}

/// The tail of an object whose start the sentence splitter cut off: from
/// the first `"key":`, what parses as the rest of an object.
fn keyed_span(sentence: &str) -> usize {
    let Some(key) = json_key_re().find(sentence) else {
        return 0;
    };
    let tail = format!("{{{}", &sentence[key.start()..]);
    let mut values = serde_json::Deserializer::from_str(&tail).into_iter::<Value>();
    match values.next() {
        Some(Ok(Value::Object(_))) => values.byte_offset() - 1,
        _ => 0,
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

pub use crate::evidence::values::split_sentences;

fn score(sentence: &str, order: usize, total: usize, recency_weight: f64) -> f64 {
    let ids = id_re()
        .find_iter(sentence)
        .count()
        .max(literals(sentence).count())
        .min(3) as f64;
    let amounts = amount_re().find_iter(sentence).count().min(3) as f64;
    let cues = cue_re().find_iter(sentence).count().min(4) as f64;
    let decided = if decision_re().is_match(sentence) && !boilerplate_re().is_match(sentence) {
        2.0
    } else if boilerplate_re().is_match(sentence) {
        -2.0
    } else {
        0.0
    };
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
    2.0 * ids + 1.5 * amounts + cues + decided + length + recency_weight * recency
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

/// Whether two sentences say the same: most words shared, or the shorter
/// one's words nearly all in the longer (a restatement in more words).
fn repeats(a: &HashSet<String>, b: &HashSet<String>) -> bool {
    let smaller = a.len().min(b.len());
    let contained = smaller >= CONTAINED_MIN_WORDS
        && a.intersection(b).count() as f64 >= DUPLICATE_CONTAINED * smaller as f64;
    contained || jaccard(a, b) > DUPLICATE_JACCARD
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
fn pick(sentences: &[String], cap: usize, recency_weight: f64) -> String {
    let total = sentences.len();
    let mut candidates: Vec<Candidate> = sentences
        .iter()
        .enumerate()
        .map(|(order, s)| Candidate {
            order,
            words: s.split_whitespace().count(),
            score: score(s, order, total, recency_weight),
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
        if sets.iter().any(|s| repeats(s, &set)) {
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
    use crate::summarize::NarrativeItem;

    /// The governed summary of `items`, 150 words at most, nothing retained.
    fn governed(items: &[NarrativeItem]) -> String {
        let req = SummaryRequest {
            job: SummaryJob::Governed,
            items,
            word_cap: 150,
            retained: "",
            outline: &[],
        };
        Extractive.summarize(&req).unwrap().text
    }

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
    fn picks_new_values_and_findings_from_any_role_in_original_order() {
        let at = crate::transcript::PartRef::new;
        let items = vec![
            NarrativeItem { item: at(0, 0), kind: NarrativeKind::UserText, text: "Account C-1042 is the one to check today.".into() },
            NarrativeItem { item: at(1, 0), kind: NarrativeKind::AssistantText, text: "Let me look at the account now please.".into() },
            NarrativeItem { item: at(3, 0), kind: NarrativeKind::AssistantText, text: "TX-9002 was only an authorization and was never captured. The weather is nice today in the office.".into() },
            NarrativeItem { item: at(5, 0), kind: NarrativeKind::ToolCall, text: r#"record_progress {"note":"Credit CR-778 of $19.60 is unapplied and the owner was not notified."}"#.into() },
            NarrativeItem { item: at(6, 0), kind: NarrativeKind::UserText, text: "The new port is 5413 and the region is eu-west-3.".into() },
        ];
        let req = SummaryRequest {
            job: SummaryJob::Governed,
            items: &items,
            word_cap: 40,
            retained: "- payment_id=TX-9002 record_type=authorization\n- customer_id=C-1042",
            outline: &[],
        };
        let out = Extractive.summarize(&req).unwrap().text;
        assert_eq!(out, "TX-9002 was only an authorization and was never captured. Credit CR-778 of $19.60 is unapplied and the owner was not notified. The new port is 5413 and the region is eu-west-3.");
        let capped = Extractive
            .summarize(&SummaryRequest {
                word_cap: 25,
                ..req
            })
            .unwrap()
            .text;
        assert!(capped.split_whitespace().count() <= 25, "{capped}");
    }

    #[test]
    fn a_tool_call_a_report_echoed_is_not_a_sentence_of_the_narrative() {
        assert!(mostly_json(
            r#"[Tool: Read] {"file_path":"/repo/src/cleanup.go"}"#
        ));
        assert!(mostly_json(r#"{"a": 1} and [1, 2]"#));
        assert!(
            mostly_json(r#"get_ticket t1: {"id": "T-1", "thread": [{"text": "Please add the PO."#),
            "a value cut at a full stop inside one of its strings"
        );
        assert!(
            mostly_json(
                r#"Forwarded it."}], "promises": ["refund"], "open": ["the SMS question"]}"#
            ),
            "the tail of a value whose start was cut"
        );
        assert!(!mostly_json(
            r#"The config now sets "retries": 3 and the loader reads it on start [see main.rs]."#
        ));
        assert!(!mostly_json(
            "The fix was to pass {strict: true} to the loader in cleanup.go instead."
        ));
        assert!(!mostly_json(
            "No JSON [here] at all, just words about cleanup.go."
        ));
        let at = crate::transcript::PartRef::new;
        let items = vec![NarrativeItem {
            item: at(2, 0),
            kind: NarrativeKind::Report,
            text: "[Tool: Read] {\"file_path\":\"/repo/src/cleanup.go\"}\nThe root cause was a stale key in cleanup.go.".into(),
        }];
        assert_eq!(
            governed(&items),
            "The root cause was a stale key in cleanup.go."
        );
    }

    #[test]
    fn a_coding_agents_decisions_are_picked_and_its_narration_is_not() {
        let at = crate::transcript::PartRef::new;
        let items = vec![
            NarrativeItem { item: at(1, 0), kind: NarrativeKind::AssistantText, text: "Let me read the renderer module to see how it works.".into() },
            NarrativeItem { item: at(3, 0), kind: NarrativeKind::AssistantText, text: "The root cause was a stale cache key in the loader. I decided to keep the cache and key it by file size instead.".into() },
            NarrativeItem { item: at(5, 0), kind: NarrativeKind::AssistantText, text: "Perfect! Now let me run the tests again.".into() },
        ];
        let out = governed(&items);
        assert_eq!(out, "The root cause was a stale cache key in the loader. I decided to keep the cache and key it by file size instead.");
    }

    #[test]
    fn a_restatement_in_more_words_is_a_repeat() {
        let picked = pick(
            &[
                "Major finding: the SQLite database is NOT required for sessions!".to_string(),
                "The SQLite database (`__store.db`) is NOT required.".to_string(),
                "Each port below 1024 needs root on this host.".to_string(),
            ],
            100,
            1.0,
        );
        assert_eq!(picked.matches("NOT required").count(), 1, "{picked}");
        assert!(picked.ends_with("Each port below 1024 needs root on this host."));
        let short = [
            "It works now.",
            "It works now, after the fix to the loader.",
        ];
        let sets: Vec<HashSet<String>> = short.iter().map(|s| word_set(s)).collect();
        assert!(!repeats(&sets[0], &sets[1]), "too short to tell");
    }

    #[test]
    fn the_coding_narrative_is_the_outline_then_decisions_in_whole_sentences() {
        let at = crate::transcript::PartRef::new;
        let items = vec![NarrativeItem {
            item: at(3, 0),
            kind: NarrativeKind::AssistantText,
            text: "The root cause was a stale cache key in the loader.".into(),
        }];
        let outline = vec![
            "The user's latest request: \"fix the loader\".".to_string(),
            "The agent changed 1 files, most recently src/loader.rs (edited 2×), and read 3 others.".to_string(),
        ];
        let req = SummaryRequest {
            job: SummaryJob::Coding,
            items: &items,
            word_cap: 40,
            retained: "",
            outline: &outline,
        };
        let out = Extractive.summarize(&req).unwrap().text;
        assert_eq!(
            out,
            format!(
                "{} {} Most recently: The root cause was a stale cache key in the loader.",
                outline[0], outline[1]
            ),
            "a quarter of the words is the latest statements'"
        );
        let roomy = Extractive
            .summarize(&SummaryRequest {
                word_cap: 80,
                ..req
            })
            .unwrap()
            .text;
        assert_eq!(
            roomy,
            format!(
                "{} {} The root cause was a stale cache key in the loader.",
                outline[0], outline[1]
            ),
            "a decision the narrative holds is not repeated as the latest"
        );
        let short = Extractive
            .summarize(&SummaryRequest {
                word_cap: 12,
                ..req
            })
            .unwrap()
            .text;
        assert_eq!(short, outline[0], "only whole outline sentences that fit");
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
            retained: "",
            outline: &[],
        };
        let a = Extractive.summarize(&req).unwrap().text;
        let b = Extractive.summarize(&req).unwrap().text;
        assert_eq!(a, b);
        assert_eq!(a.matches("CR-778").count(), 1);
    }
}
