//! Select: split the conversation into the head (compacted) and the tail
//! (the latest rounds, kept), and stub the tail's large tool results.

use std::collections::HashSet;

use crate::markers::is_compacted_head;
use crate::transcript::{value_text, Message, Part, PartRef, Role, Transcript};

/// A tail tool result replaced by a stub.
#[derive(Debug, Clone, PartialEq)]
pub struct Stub {
    pub part: PartRef,
    pub call_id: String,
    pub tool: String,
    pub original: String,
    pub stub: String,
}

/// Where the conversation splits, and what the tail stubs.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    /// Index of the first tail message.
    pub tail_start: usize,
    pub stubs: Vec<Stub>,
}

impl Selection {
    /// The messages that are compacted.
    pub fn head<'t>(&self, t: &'t Transcript) -> &'t [Message] {
        &t.messages[..self.tail_start.min(t.messages.len())]
    }

    pub fn in_tail(&self, part: PartRef) -> bool {
        part.message >= self.tail_start
    }

    pub fn stub_of(&self, part: PartRef) -> Option<&Stub> {
        self.stubs.iter().find(|s| s.part == part)
    }

    /// In the tail and not stubbed: the part stays as it was.
    pub fn kept_whole(&self, part: PartRef) -> bool {
        self.in_tail(part) && self.stub_of(part).is_none()
    }
}

/// The split for `tail_rounds` kept rounds, stubbing tail results longer
/// than `stub_threshold_chars`. `pinned_calls` are calls whose fields are
/// pinned, so their stubs say where the content went.
pub fn select(
    t: &Transcript,
    tail_rounds: usize,
    stub_threshold_chars: usize,
    pinned_calls: &HashSet<String>,
) -> Selection {
    let tail_start = tail_start(t, tail_rounds);
    Selection {
        tail_start,
        stubs: stub_tail(t, tail_start, stub_threshold_chars, pinned_calls),
    }
}

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

/// Stub every tool result from `start` on longer than the threshold. Ids
/// stay, so the call is still answered and traceable; the original goes to
/// the audit.
pub fn stub_tail(
    t: &Transcript,
    start: usize,
    threshold_chars: usize,
    pinned_calls: &HashSet<String>,
) -> Vec<Stub> {
    let mut stubs = Vec::new();
    for (at, p) in t.parts().filter(|(at, _)| at.message >= start) {
        let Part::ToolResult {
            id, name, content, ..
        } = &p.part
        else {
            continue;
        };
        let original = value_text(content);
        let chars = original.chars().count();
        if chars <= threshold_chars {
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
            part: at,
            call_id: id.clone(),
            tool: name.clone(),
            stub: format!(
                "[stub: {chars} chars of {name} output; original in the compaction audit{where_now}]"
            ),
            original,
        });
    }
    stubs
}

/// Number of tool results after the last compaction in this conversation
/// (after the last continuity block), for the trigger rule.
pub fn new_tool_results(t: &Transcript) -> usize {
    let last_block = t.messages.iter().rposition(|m| {
        m.parts
            .iter()
            .any(|p| matches!(&p.part, Part::Text(s) if is_compacted_head(s)))
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

    fn round(id: &str, content: &str) -> [Message; 2] {
        [
            Message::new(
                Role::Assistant,
                vec![Part::ToolCall {
                    id: id.into(),
                    name: "get".into(),
                    args: json!({}),
                }],
            ),
            Message::new(
                Role::User,
                vec![Part::ToolResult {
                    id: id.into(),
                    name: "get".into(),
                    content: json!(content),
                    is_error: false,
                }],
            ),
        ]
    }

    fn transcript(rounds: &[(&str, &str)]) -> Transcript {
        let mut messages = vec![Message::new(Role::User, vec![Part::Text("go".into())])];
        for (id, content) in rounds {
            messages.extend(round(id, content));
        }
        Transcript {
            format: crate::transcript::Format::Anthropic,
            instructions: vec![],
            tools: vec![],
            messages,
            envelope: Default::default(),
            instruction_style: Default::default(),
        }
    }

    #[test]
    fn the_tail_opens_at_the_latest_rounds_and_stubs_only_long_results() {
        let long = "x".repeat(40);
        let t = transcript(&[("c1", "short"), ("c2", &long), ("c3", "ok")]);
        let pinned: HashSet<String> = ["c2".to_string()].into();
        let s = select(&t, 2, 10, &pinned);
        assert_eq!(s.tail_start, 3);
        assert_eq!(s.head(&t).len(), 3);
        assert_eq!(s.stubs.len(), 1);
        assert_eq!(s.stubs[0].part, PartRef::new(4, 0));
        assert!(
            s.stubs[0].stub.contains("40 chars of get output")
                && s.stubs[0].stub.ends_with("fields pinned above]")
        );
        assert!(!s.kept_whole(PartRef::new(4, 0)) && s.kept_whole(PartRef::new(6, 0)));
        assert!(!s.kept_whole(PartRef::new(2, 0)), "a head part is not kept");
    }

    #[test]
    fn without_enough_rounds_only_the_last_message_is_kept() {
        let t = transcript(&[("c1", "a")]);
        assert_eq!(tail_start(&t, 3), 2);
        assert_eq!(new_tool_results(&t), 1);
    }
}
