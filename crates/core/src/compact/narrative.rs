//! The summarizer's input. Summary-only gets everything older than the
//! tail; governed gets the narrower job: what was said and asked that is not
//! carried verbatim, one line per tool call, and the evidence that was not
//! pinned, since the pins and the carried statements are in the request.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::evidence::Pin;
use crate::markers::{CONTINUITY_TAG, SUMMARY_ONLY_HEADER, SUMMARY_PREFIX};
use crate::summarize::{NarrativeItem, NarrativeKind, SummaryJob};
use crate::transcript::{Message, Part, PartRef, Role};
use crate::working_state::{kind_of, ToolKind};

/// What the summarizer is asked to summarize, and the summary-only input
/// beside it (the report compares their sizes).
#[derive(Debug, Clone, PartialEq)]
pub struct SummarizerInput {
    pub job: SummaryJob,
    pub items: Vec<NarrativeItem>,
    /// Everything older than the tail, in full.
    pub full: Vec<NarrativeItem>,
    /// The coding job's outline of where the work stands.
    pub outline: Vec<String>,
}

/// Characters of unpinned evidence the governed input takes, newest first:
/// a small model's prompt is the compaction's largest cost.
pub const UNPINNED_CHARS: usize = 1200;
/// Characters of sub-agents' reports the coding input takes, newest first:
/// as with unpinned evidence, a small model's prompt is the largest cost.
pub const REPORT_CHARS: usize = 1200;

/// What the governed job leaves out or adds beyond the head itself.
#[derive(Debug, Clone, Default)]
pub struct Narrower<'a> {
    /// User texts carried verbatim, superseded, or off the mission: not
    /// summarized.
    pub excluded: HashSet<PartRef>,
    /// Evidence that was not pinned, `(part, text)`, in transcript order.
    pub unpinned: &'a [(PartRef, String)],
    /// A working-state digest carries what the tools did: the narrative's
    /// job is the coding one.
    pub coding: bool,
    /// The digest's outline of where the work stands (the coding job).
    pub outline: &'a [String],
    /// Sub-agents' reports, `(part, text)`: the agent's own findings,
    /// narrative in the coding job (see [`delegate_reports`]).
    pub reports: &'a [(PartRef, String)],
}

/// The input for a strategy that pins evidence (`pins_on`: the governed
/// job) or does not (the summary-only job).
pub fn summarizer_input(
    head: &[Message],
    pins: &[Pin],
    pins_on: bool,
    narrower: &Narrower<'_>,
) -> SummarizerInput {
    let full = full_narrative(head);
    let (job, items) = if pins_on {
        let mut items: Vec<NarrativeItem> = governed_narrative(head, pins)
            .into_iter()
            .filter(|i| !(i.kind == NarrativeKind::UserText && narrower.excluded.contains(&i.item)))
            .collect();
        // In a coding session the digest lists commands and their output
        // lines; as summary sentences they would be fragments. A
        // sub-agent's report is prose: the agent's own findings.
        if narrower.coding {
            items.extend(report_items(narrower.reports));
        } else {
            items.extend(unpinned_items(narrower.unpinned));
        }
        items.sort_by_key(|i| i.item);
        let job = if narrower.coding {
            SummaryJob::Coding
        } else {
            SummaryJob::Governed
        };
        (job, items)
    } else {
        (SummaryJob::SummaryOnly, full.clone())
    };
    let outline = if job == SummaryJob::Coding {
        narrower.outline.to_vec()
    } else {
        Vec::new()
    };
    SummarizerInput {
        job,
        items,
        full,
        outline,
    }
}

/// The newest unpinned evidence within [`UNPINNED_CHARS`].
fn unpinned_items(unpinned: &[(PartRef, String)]) -> Vec<NarrativeItem> {
    let mut out = Vec::new();
    let mut used = 0;
    for (at, text) in unpinned.iter().rev() {
        let n = text.chars().count();
        if used + n > UNPINNED_CHARS {
            continue;
        }
        used += n;
        out.push(NarrativeItem {
            item: *at,
            kind: NarrativeKind::ToolResult,
            text: text.clone(),
        });
    }
    out
}

/// Sub-agents' reports within [`REPORT_CHARS`], newest first; a report
/// longer than what is left keeps its first lines (a report leads with its
/// findings).
fn report_items(reports: &[(PartRef, String)]) -> Vec<NarrativeItem> {
    let mut out = Vec::new();
    let mut left = REPORT_CHARS;
    for (at, text) in reports.iter().rev() {
        let mut kept = String::new();
        for line in text.lines() {
            if kept.chars().count() + line.chars().count() + 1 > left {
                break;
            }
            kept.push_str(line);
            kept.push('\n');
        }
        left -= kept.chars().count();
        if !kept.trim().is_empty() {
            out.push(NarrativeItem {
                item: *at,
                kind: NarrativeKind::Report,
                text: kept.trim_end().to_string(),
            });
        }
    }
    out
}

/// What each delegate call in the head returned (a sub-agent's report),
/// with the part it is in. Kinds come from the built-in tables and the
/// policy's `overrides`.
pub fn delegate_reports(
    head: &[Message],
    overrides: &BTreeMap<String, ToolKind>,
) -> Vec<(PartRef, String)> {
    let delegates: HashSet<&str> = head
        .iter()
        .flat_map(|m| &m.parts)
        .filter_map(|p| match &p.part {
            Part::ToolCall { id, name, args } => {
                (kind_of(name, args, overrides) == ToolKind::Delegate).then_some(id.as_str())
            }
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for (mi, m) in head.iter().enumerate() {
        for (pi, p) in m.parts.iter().enumerate() {
            if let Part::ToolResult {
                id,
                is_error: false,
                ..
            } = &p.part
            {
                let text = p.part.visible_text();
                if delegates.contains(id.as_str()) && !text.trim().is_empty() {
                    out.push((PartRef::new(mi, pi), text));
                }
            }
        }
    }
    out
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
    let mut lines = text.lines().skip_while(|l| !l.starts_with(SUMMARY_PREFIX));
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
            let item = PartRef::new(mi, pi);
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
                (Part::Opaque(_) | Part::Reasoning { .. } | Part::Compaction { .. }, _) => continue,
            };
            if !text.trim().is_empty() {
                items.push(NarrativeItem { item, kind, text });
            }
        }
    }
    items
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
            source: crate::evidence::PinSource::Returned(PartRef::new(2, 0)),
            key: crate::evidence::RecordKey::Field {
                field: "invoice_id".into(),
                value: "INV-7".into(),
            },
            group: "get_invoice".into(),
            fields: vec![],
            present: vec![],
            kind: crate::evidence::PinKind::Policy,
            relied_on: false,
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
        assert_eq!(items[4].item, PartRef::new(2, 2));
        assert_eq!(items[1].item, PartRef::new(1, 0));
    }

    #[test]
    fn the_governed_input_leaves_out_carried_user_text_and_adds_unpinned_evidence() {
        let unpinned = vec![(
            PartRef::new(2, 1),
            "get_refund: reason: duplicate".to_string(),
        )];
        let narrower = Narrower {
            excluded: [PartRef::new(0, 0)].into(),
            unpinned: &unpinned,
            coding: false,
            outline: &[],
            reports: &[],
        };
        let input = summarizer_input(&head(), &[pin("toolu_01AbC")], true, &narrower);
        let texts: Vec<&str> = input.items.iter().map(|i| i.text.as_str()).collect();
        assert!(!texts.contains(&"Check INV-7."), "{texts:?}");
        assert!(
            texts.contains(&"get_refund: reason: duplicate"),
            "{texts:?}"
        );
        assert_eq!(input.full.len(), 7, "the full history is unchanged");
    }

    #[test]
    fn a_sub_agents_report_is_narrative_in_the_coding_job() {
        let report = "The loader caches by path; the stale key is in load_all.";
        let head = vec![
            Message::new(Role::User, vec![Part::Text("Fix the loader.".into())]),
            Message::new(
                Role::Assistant,
                vec![
                    call("t1", "Task", json!({"prompt": "Survey the loader"})),
                    call("r1", "Read", json!({"file_path": "src/a.rs"})),
                ],
            ),
            Message::new(
                Role::User,
                vec![
                    Part::ToolResult {
                        id: "t1".into(),
                        name: "Task".into(),
                        content: json!(report),
                        is_error: false,
                    },
                    result("r1", "Read", false),
                ],
            ),
        ];
        let reports = delegate_reports(&head, &BTreeMap::new());
        assert_eq!(reports, vec![(PartRef::new(2, 0), report.to_string())]);
        let narrower = Narrower {
            coding: true,
            reports: &reports,
            ..Narrower::default()
        };
        let input = summarizer_input(&head, &[], true, &narrower);
        let kinds: Vec<(NarrativeKind, &str)> = input
            .items
            .iter()
            .map(|i| (i.kind, i.text.as_str()))
            .collect();
        assert!(
            kinds.contains(&(NarrativeKind::Report, report)),
            "{kinds:?}"
        );
        assert!(
            !kinds.iter().any(|(k, _)| *k == NarrativeKind::ToolResult),
            "other results stay out: {kinds:?}"
        );
    }

    #[test]
    fn full_narrative_keeps_every_result_with_its_id() {
        let items = full_narrative(&head());
        assert_eq!(items.len(), 7);
        assert!(items[4].text.starts_with("get_invoice toolu_01AbC: "));
        assert!(items[4].text.contains("INV-7"));
    }
}
