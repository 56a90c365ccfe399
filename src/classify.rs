//! Classify: split the conversation into what is compacted (the head) and
//! the latest rounds kept as they are (the tail), stub large tail results,
//! and build the summarizer's input for each strategy.

use std::collections::{HashMap, HashSet};

use crate::evidence::Pin;
use crate::policy::CompactionRules;
use crate::rebuild::{CONTINUITY_TAG, SUMMARY_ONLY_HEADER};
use crate::summarize::{NarrativeItem, NarrativeKind};
use crate::transcript::{value_text, Message, Part, Role, Transcript};

/// Index of the first tail message. The tail starts at the assistant message
/// that opened the `rounds`-th latest round of tool calls; with no rounds it
/// is the last message.
pub fn tail_start(t: &Transcript, rounds: usize) -> usize {
    let openers: Vec<usize> = t
        .messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m.role == Role::Assistant && m.has_tool_calls())
        .map(|(i, _)| i)
        .collect();
    if rounds > 0 && openers.len() >= rounds {
        openers[openers.len() - rounds]
    } else {
        t.messages.len().saturating_sub(1)
    }
}

/// A tail tool result replaced by a stub.
#[derive(Debug, Clone, PartialEq)]
pub struct Stub {
    pub message: usize,
    pub part: usize,
    pub call_id: String,
    pub tool: String,
    pub original: String,
    pub stub: String,
}

/// Stub every tool result in the tail longer than the threshold. Ids stay, so
/// the call is still answered and traceable; the original goes to the audit.
pub fn stub_tail(
    t: &Transcript,
    start: usize,
    rules: &CompactionRules,
    pinned_calls: &HashSet<String>,
) -> Vec<Stub> {
    let mut stubs = Vec::new();
    for (mi, m) in t.messages.iter().enumerate().skip(start) {
        for (pi, p) in m.parts.iter().enumerate() {
            let Part::ToolResult {
                id, name, content, ..
            } = &p.part
            else {
                continue;
            };
            let original = value_text(content);
            let chars = original.chars().count();
            if chars <= rules.stub_threshold_chars {
                continue;
            }
            // The call id stays on the result itself; the stub says where the
            // content went.
            let where_now = if pinned_calls.contains(id) {
                "; fields pinned above"
            } else {
                ""
            };
            stubs.push(Stub {
                message: mi,
                part: pi,
                call_id: id.clone(),
                tool: name.clone(),
                stub: format!("[stub: {chars} chars of {name} output; original in the compaction audit{where_now}]"),
                original,
            });
        }
    }
    stubs
}

/// The summary written at an earlier compaction, if `text` is the head that
/// compaction produced (ours or the reference's: both start the same way).
pub fn prior_summary(text: &str) -> Option<String> {
    if let Some(rest) = text.strip_prefix(SUMMARY_ONLY_HEADER) {
        return Some(rest.trim().to_string());
    }
    if !text.starts_with(CONTINUITY_TAG) {
        return None;
    }
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with("SUMMARY OF EARLIER WORK"));
    let header = lines.next()?;
    let mut out: Vec<&str> = Vec::new();
    if let Some((_, inline)) = header.split_once("): ") {
        out.push(inline);
    }
    out.extend(lines);
    Some(out.join("\n").trim().to_string())
}

/// Everything older than the tail, in full: the summary-only job.
pub fn full_narrative(head: &[Message]) -> Vec<NarrativeItem> {
    narrative(head, |_, _| None)
}

/// The governed job: user and assistant text, tool calls with their
/// arguments, and tool results reduced to their ids and stubs.
pub fn governed_narrative(head: &[Message], pins: &[Pin]) -> Vec<NarrativeItem> {
    let mut per_call: HashMap<&str, usize> = HashMap::new();
    for p in pins {
        *per_call.entry(p.call_id.as_str()).or_default() += 1;
    }
    narrative(head, |id, name| {
        Some(match per_call.get(id) {
            Some(n) => format!("[result of {name} {id}: {n} record(s) pinned verbatim elsewhere]"),
            None => format!("[result of {name} {id}: not pinned]"),
        })
    })
}

fn narrative(
    head: &[Message],
    reduce_result: impl Fn(&str, &str) -> Option<String>,
) -> Vec<NarrativeItem> {
    let mut items = Vec::new();
    for (mi, m) in head.iter().enumerate() {
        for (pi, p) in m.parts.iter().enumerate() {
            let item = format!("m{mi}.p{pi}");
            let (kind, text) = match &p.part {
                Part::Text(s) if m.role == Role::Assistant => {
                    (NarrativeKind::AssistantText, s.clone())
                }
                // An earlier compaction's head: its facts are carried as pins
                // and its framing is ours, so only its summary is narrative.
                Part::Text(s) => match prior_summary(s) {
                    Some(summary) => (NarrativeKind::PriorSummary, summary),
                    None => (NarrativeKind::UserText, s.clone()),
                },
                Part::SystemText(s) => (NarrativeKind::SystemText, s.clone()),
                Part::ToolCall { .. } => (NarrativeKind::ToolCall, p.part.visible_text()),
                Part::ToolResult { id, name, .. } => match reduce_result(id, name) {
                    Some(stub) => (NarrativeKind::ToolResult, stub),
                    None => (
                        NarrativeKind::ToolResult,
                        format!("{name} {id}: {}", p.part.visible_text()),
                    ),
                },
                Part::RetryPrompt { .. } => (NarrativeKind::UserText, p.part.visible_text()),
                Part::Opaque(_) => continue,
            };
            if !text.trim().is_empty() {
                items.push(NarrativeItem { item, kind, text });
            }
        }
    }
    items
}

/// Number of tool results after the last compaction in this conversation
/// (after the last continuity block), for the trigger rule.
pub fn new_tool_results(t: &Transcript) -> usize {
    let last_block = t.messages.iter().rposition(|m| {
        m.parts
            .iter()
            .any(|p| matches!(&p.part, Part::Text(s) if s.starts_with(CONTINUITY_TAG) || s.starts_with(SUMMARY_ONLY_HEADER)))
    });
    t.messages
        .iter()
        .skip(last_block.map_or(0, |i| i + 1))
        .flat_map(|m| m.parts.iter())
        .filter(|p| matches!(p.part, Part::ToolResult { .. }))
        .count()
}
