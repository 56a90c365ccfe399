//! What the archive's records say, indexed for the evaluator: tool results
//! (and the user's own messages) as text chunks for similarity, and the ids,
//! numbers and dates they contain for the value checks.

use std::collections::BTreeSet;

use serde_json::Value;

use super::text::{self, Date};
use super::Mismatch;
use crate::facts::Fact;
use continuity_core::evidence::structured;
use continuity_core::transcript::{value_text, Part, Role, Transcript};

pub struct Records {
    /// (tool call id, tool name, result text).
    pub results: Vec<(String, String, String)>,
    /// Record-sized pieces of text (one JSON object each, or one sentence of
    /// free text) for similarity.
    pub chunks: Vec<String>,
    pub ids: BTreeSet<String>,
    pub numbers: BTreeSet<i64>,
    pub dates: BTreeSet<Date>,
}

impl Records {
    pub fn from_transcript(t: &Transcript) -> Records {
        let mut results = Vec::new();
        let mut chunks = Vec::new();
        let mut all = String::new();
        all.push_str(&t.instructions_text());
        all.push('\n');
        for m in &t.messages {
            for p in &m.parts {
                match &p.part {
                    Part::ToolResult {
                        id, name, content, ..
                    } => {
                        let text = value_text(content);
                        match structured(content) {
                            Some(v) => flatten(&v, &mut chunks),
                            None => chunks.extend(text::sentences(&text)),
                        }
                        all.push_str(&text);
                        all.push('\n');
                        results.push((id.clone(), name.clone(), text));
                    }
                    Part::Text(s) | Part::SystemText(s) if m.role == Role::User => {
                        chunks.extend(text::sentences(s));
                        all.push_str(s);
                        all.push('\n');
                    }
                    // What the agent wrote and called is context for ids
                    // and values, not evidence to ground sentences on.
                    other => {
                        all.push_str(&other.visible_text());
                        all.push('\n');
                    }
                }
            }
        }
        chunks.retain(|c| c.split_whitespace().count() >= 3);
        chunks.sort();
        chunks.dedup();
        Records {
            results,
            chunks,
            ids: text::ids(&all),
            numbers: text::numbers(&all),
            dates: text::dates(&all),
        }
    }

    /// Values in the summary's sentences that the records do not have.
    pub fn mismatches(&self, sentences: &[String]) -> Vec<Mismatch> {
        let mut out = Vec::new();
        for s in sentences {
            for id in text::ids(s) {
                if !self.ids.contains(&id) {
                    out.push(Mismatch {
                        kind: "id",
                        value: id,
                        sentence: s.clone(),
                        reason: "no record has this id".into(),
                    });
                }
            }
            for a in text::amounts(s) {
                if !self.numbers.contains(&a) {
                    out.push(Mismatch {
                        kind: "amount",
                        value: format!("{:.2}", a as f64 / 100.0),
                        sentence: s.clone(),
                        reason: "no record has this amount".into(),
                    });
                }
            }
            for d in text::dates(s) {
                if !text::date_known(&d, &self.dates) {
                    let value = match d.year {
                        Some(y) => format!("{y:04}-{:02}-{:02}", d.month, d.day),
                        None => format!("{:02}-{:02}", d.month, d.day),
                    };
                    out.push(Mismatch {
                        kind: "date",
                        value,
                        sentence: s.clone(),
                        reason: "no record has this date".into(),
                    });
                }
            }
        }
        out
    }

    /// Ids of a fact that are specific enough to locate its records (found
    /// in at most half of the tool results).
    fn specific_ids(&self, fact: &Fact) -> Vec<String> {
        let n = self.results.len().max(1);
        text::ids(&fact.statement)
            .into_iter()
            .filter(|id| {
                let hits = self
                    .results
                    .iter()
                    .filter(|(_, _, t)| t.to_lowercase().contains(id.as_str()))
                    .count();
                hits > 0 && hits * 2 <= n.max(2)
            })
            .collect()
    }

    /// Tool calls the fact rests on: its `evidence` when the key gives it,
    /// else the calls whose results hold the fact's specific ids.
    pub fn evidence_for(&self, fact: &Fact) -> Vec<String> {
        let label = |id: &str| {
            self.results
                .iter()
                .find(|(c, _, _)| c == id)
                .map(|(c, n, _)| format!("{c} ({n})"))
                .unwrap_or_else(|| id.to_string())
        };
        if !fact.evidence.is_empty() {
            return fact.evidence.iter().map(|e| label(e)).collect();
        }
        let ids = self.specific_ids(fact);
        self.results
            .iter()
            .filter(|(_, _, t)| {
                let low = t.to_lowercase();
                ids.iter().any(|i| low.contains(i.as_str()))
            })
            .map(|(c, n, _)| format!("{c} ({n})"))
            .collect()
    }

    /// The record chunks holding the fact's ids, for an LLM judge's premise.
    pub fn evidence_text(&self, fact: &Fact) -> String {
        let ids = self.specific_ids(fact);
        self.chunks
            .iter()
            .filter(|c| {
                let low = c.to_lowercase();
                ids.iter().any(|i| low.contains(i.as_str()))
            })
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// One chunk per innermost object: its scalar fields as `key: value`.
fn flatten(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            let mut own = Vec::new();
            for (k, x) in map {
                match x {
                    Value::Object(_) => flatten(x, out),
                    Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
                        flatten(x, out)
                    }
                    Value::Null => {}
                    Value::String(s) if s.split_whitespace().count() > 25 => {
                        out.extend(text::sentences(s));
                    }
                    other => own.push(format!("{k}: {}", value_text(other))),
                }
            }
            if !own.is_empty() {
                out.push(own.join(", "));
            }
        }
        Value::Array(items) => {
            for i in items {
                flatten(i, out);
            }
        }
        Value::String(s) => out.extend(text::sentences(s)),
        _ => {}
    }
}
