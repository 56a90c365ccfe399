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
    narrative(head, None)
}

/// The governed job: user and assistant text, and one line per tool call
/// with its arguments and what became of its result (`N pinned`: its N
/// records are kept verbatim elsewhere; `not pinned`; `failed`), in few
/// tokens: the prompt says once what the words mean. The results themselves
/// and their opaque call ids stay out: the pins carry the evidence, and a
/// small model's prompt is the compaction's largest cost.
pub fn governed_narrative(head: &[Message], pins: &[Pin]) -> Vec<NarrativeItem> {
    let mut pinned: HashMap<&str, usize> = HashMap::new();
    for p in pins {
        *pinned.entry(p.call_id.as_str()).or_default() += 1;
    }
    narrative(head, Some(&pinned))
}

/// What became of a tool call's result, for the governed narrative
/// (`failed`: call id -> whether its result was an error).
fn call_outcome(id: &str, failed: &HashMap<&str, bool>, pinned: &HashMap<&str, usize>) -> String {
    match (failed.get(id), pinned.get(id)) {
        (_, Some(n)) => format!("{n} pinned"),
        (Some(true), None) => "failed".to_string(),
        (Some(false), None) => "not pinned".to_string(),
        (None, None) => "no result yet".to_string(),
    }
}

/// Narrative items of the head; with `pinned` (the governed job), results
/// of calls in the head fold into their call's line.
fn narrative(head: &[Message], pinned: Option<&HashMap<&str, usize>>) -> Vec<NarrativeItem> {
    let parts = || head.iter().flat_map(|m| m.parts.iter());
    let calls: HashSet<&str> = parts()
        .filter_map(|p| match &p.part {
            Part::ToolCall { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    let failed: HashMap<&str, bool> = parts()
        .filter_map(|p| match &p.part {
            Part::ToolResult { id, is_error, .. } => Some((id.as_str(), *is_error)),
            Part::RetryPrompt { id: Some(id), .. } => Some((id.as_str(), true)),
            _ => None,
        })
        .collect();
    let mut items = Vec::new();
    for (mi, m) in head.iter().enumerate() {
        for (pi, p) in m.parts.iter().enumerate() {
            let item = format!("m{mi}.p{pi}");
            let (kind, text) = match (&p.part, pinned) {
                (Part::Text(s), _) if m.role == Role::Assistant => {
                    (NarrativeKind::AssistantText, s.clone())
                }
                // An earlier compaction's head: its facts are carried as pins
                // and its framing is ours, so only its summary is narrative.
                (Part::Text(s), _) => match prior_summary(s) {
                    Some(summary) => (NarrativeKind::PriorSummary, summary),
                    None => (NarrativeKind::UserText, s.clone()),
                },
                (Part::SystemText(s), _) => (NarrativeKind::SystemText, s.clone()),
                (Part::ToolCall { id, .. }, Some(pinned)) => (
                    NarrativeKind::ToolCall,
                    format!(
                        "{} -> {}",
                        p.part.visible_text(),
                        call_outcome(id, &failed, pinned)
                    ),
                ),
                (Part::ToolCall { .. }, None) => (NarrativeKind::ToolCall, p.part.visible_text()),
                (Part::ToolResult { id, .. } | Part::RetryPrompt { id: Some(id), .. }, Some(_))
                    if calls.contains(id.as_str()) =>
                {
                    continue
                }
                (Part::ToolResult { id, name, .. }, Some(pinned)) => (
                    NarrativeKind::ToolResult,
                    match pinned.get(id.as_str()) {
                        Some(n) => {
                            format!("[result of {name}: {n} pinned]")
                        }
                        None => format!("[result of {name}: not pinned]"),
                    },
                ),
                (Part::ToolResult { id, name, .. }, None) => (
                    NarrativeKind::ToolResult,
                    format!("{name} {id}: {}", p.part.visible_text()),
                ),
                (Part::RetryPrompt { .. }, _) => (NarrativeKind::UserText, p.part.visible_text()),
                (Part::Opaque(_), _) => continue,
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn call(id: &str, name: &str, args: serde_json::Value) -> Part {
        Part::ToolCall {
            id: id.into(),
            name: name.into(),
            args,
        }
    }

    fn result(id: &str, name: &str, is_error: bool) -> Part {
        Part::ToolResult {
            id: id.into(),
            name: name.into(),
            content: json!({"invoice_id": "INV-7", "status": "paid"}),
            is_error,
        }
    }

    fn pin(call_id: &str) -> Pin {
        Pin {
            call_id: call_id.into(),
            tool: "get_invoice".into(),
            record_id: "INV-7".into(),
            line: "- invoice_id=INV-7 status=paid".into(),
            source_item: "m2.p0".into(),
            message: 2,
        }
    }

    fn head() -> Vec<Message> {
        vec![
            Message::new(Role::User, vec![Part::Text("Check INV-7.".into())]),
            Message::new(
                Role::Assistant,
                vec![
                    call("toolu_01AbC", "get_invoice", json!({"invoice_id": "INV-7"})),
                    call("toolu_02DeF", "get_refund", json!({"refund_id": "RF-1"})),
                    call("toolu_03GhI", "list_notes", json!({})),
                ],
            ),
            Message::new(
                Role::User,
                vec![
                    result("toolu_01AbC", "get_invoice", false),
                    result("toolu_02DeF", "get_refund", true),
                    result("toolu_04Orphan", "get_ticket", false),
                ],
            ),
        ]
    }

    #[test]
    fn governed_narrative_folds_results_into_their_calls_without_opaque_ids() {
        let items = governed_narrative(&head(), &[pin("toolu_01AbC")]);
        let texts: Vec<&str> = items.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "Check INV-7.",
                r#"get_invoice {"invoice_id":"INV-7"} -> 1 pinned"#,
                r#"get_refund {"refund_id":"RF-1"} -> failed"#,
                "list_notes {} -> no result yet",
                "[result of get_ticket: not pinned]",
            ]
        );
        assert!(texts.iter().all(|t| !t.contains("toolu_")), "{texts:?}");
        // The orphan result keeps its own item; folded results have none.
        assert_eq!(items[4].item, "m2.p2");
        assert_eq!(items[1].item, "m1.p0");
    }

    #[test]
    fn full_narrative_keeps_every_result_with_its_id() {
        let items = full_narrative(&head());
        assert_eq!(items.len(), 7);
        assert!(items[4].text.starts_with("get_invoice toolu_01AbC: "));
        assert!(items[4].text.contains("INV-7"));
    }
}
