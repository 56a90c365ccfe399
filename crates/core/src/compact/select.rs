//! Select: split the conversation into the head (compacted) and the tail
//! (the newest whole turns within a token bound, kept), and stub the
//! tail's large tool results.

use std::collections::HashSet;

use crate::error::Result;
use crate::evidence::relevance::self_declared_irrelevant;
use crate::markers::is_compacted_head;
use crate::tokens::TokenCount;
use crate::transcript::{value_text, Message, Part, PartRef, Role, Transcript};

/// A tail tool result replaced by a stub, or a write call whose long text
/// arguments are.
#[derive(Debug, Clone, PartialEq)]
pub struct Stub {
    pub part: PartRef,
    pub call_id: String,
    pub tool: String,
    pub original: String,
    pub stub: String,
    /// A write call's arguments with their long texts stubbed (`None`: the
    /// stub replaces a result's content).
    pub args: Option<serde_json::Value>,
}

/// The arguments of a write call that carry file content.
const WRITTEN_TEXT: &[&str] = &[
    "content",
    "new_string",
    "old_string",
    "file_text",
    "new_source",
];

/// A write call's arguments with every file text longer than the threshold
/// replaced by a stub: the file on disk holds what was written, so the
/// tail need not. `None` when nothing is that long or it is no write.
fn stubbed_write(
    name: &str,
    args: &serde_json::Value,
    threshold: usize,
) -> Option<serde_json::Value> {
    let no_overrides = std::collections::BTreeMap::new();
    if crate::working_state::kind_of(name, args, &no_overrides)
        != crate::working_state::ToolKind::Write
    {
        return None;
    }
    let defines: Vec<String> = crate::working_state::files::changes(args)
        .into_iter()
        .flat_map(|c| c.symbols)
        .collect();
    let defines = if defines.is_empty() {
        String::new()
    } else {
        format!("; it defines {}", defines.join(", "))
    };
    let mut out = args.clone();
    let mut changed = false;
    for key in WRITTEN_TEXT {
        let Some(text) = out.get(*key).and_then(serde_json::Value::as_str) else {
            continue;
        };
        let chars = text.chars().count();
        if chars > threshold {
            let defines = if *key == "old_string" {
                ""
            } else {
                defines.as_str()
            };
            out[*key] = serde_json::Value::String(format!(
                "[stub: {chars} chars of {key}{defines}; the file holds what was written, the original is in the compaction audit]"
            ));
            changed = true;
        }
    }
    changed.then_some(out)
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

/// What bounds the tail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TailRules {
    /// At most this many rounds of tool calls (their openers) back.
    pub rounds: usize,
    /// At most this many tokens beyond the last whole turn.
    pub tokens: usize,
    pub stub_threshold_chars: usize,
    /// Stop at a user turn whose opening declares it off the mission.
    pub stop_at_self_declared: bool,
}

/// The split: the tail keeps the newest whole turns that fit `rules.tokens`
/// (the last one always), never separates a call from its result, never
/// reaches past the opener of the `rules.rounds`-th latest round of tool
/// calls, and stops at a user turn that declares itself off the mission.
/// Tail results longer than the stub threshold become stubs; `pinned_calls`
/// are calls whose fields are pinned, so their stubs say where the content
/// went.
pub fn select(
    t: &Transcript,
    rules: &TailRules,
    pinned_calls: &HashSet<String>,
    tokens: &dyn TokenCount,
) -> Result<Selection> {
    let splits = split_points(t);
    let last = t.messages.len().saturating_sub(1);
    let Some(&minimal) = splits.iter().rev().find(|&&s| s <= last) else {
        return Ok(Selection {
            tail_start: t.messages.len(),
            stubs: Vec::new(),
        });
    };
    let limit = round_limit(t, rules.rounds);
    let mut start = minimal;
    let mut used = 0;
    let mut stopped = false;
    for &s in splits
        .iter()
        .rev()
        .filter(|&&s| s < minimal && s >= limit.max(1))
    {
        let cost = span_tokens(t, s, start, rules.stub_threshold_chars, tokens)?;
        if used + cost > rules.tokens {
            break;
        }
        if rules.stop_at_self_declared && declares_off_mission(&t.messages[s..start]) {
            stopped = true;
            break;
        }
        used += cost;
        start = s;
    }
    if stopped {
        // Begin at a user turn where one is kept, not at the reply to the
        // content that was left out.
        if let Some(&s) = splits
            .iter()
            .find(|&&s| s >= start && s <= minimal && t.messages[s].role == Role::User)
        {
            start = s;
        }
    }
    Ok(Selection {
        tail_start: start,
        stubs: stub_tail(t, start, rules.stub_threshold_chars, pinned_calls),
    })
}

/// Message indices where the conversation may split: every call before the
/// index is answered before it.
pub fn split_points(t: &Transcript) -> Vec<usize> {
    let mut open: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    for (i, m) in t.messages.iter().enumerate() {
        if open.is_empty() && i > 0 {
            out.push(i);
        }
        for p in &m.parts {
            if let Some(id) = p.part.answers() {
                open.remove(id);
            }
        }
        for (id, _, _) in m.tool_calls() {
            open.insert(id);
        }
    }
    out
}

/// The opener of the `rounds`-th latest round of tool calls (0 without
/// that many rounds).
fn round_limit(t: &Transcript, rounds: usize) -> usize {
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
        0
    }
}

fn declares_off_mission(messages: &[Message]) -> bool {
    messages.iter().filter(|m| m.role == Role::User).any(|m| {
        m.parts
            .iter()
            .any(|p| matches!(&p.part, Part::Text(s) if self_declared_irrelevant(s).is_some()))
    })
}

/// Tokens of messages `from..to` as the tail would keep them (long results
/// as their stubs).
fn span_tokens(
    t: &Transcript,
    from: usize,
    to: usize,
    threshold_chars: usize,
    tokens: &dyn TokenCount,
) -> Result<usize> {
    let mut n = 0;
    for m in &t.messages[from..to] {
        for p in &m.parts {
            n += match &p.part {
                Part::ToolResult { name, content, .. }
                    if value_text(content).chars().count() > threshold_chars =>
                {
                    tokens.count(&stub_text(name, value_text(content).chars().count(), false))?
                }
                Part::ToolCall { name, args, .. } => {
                    match stubbed_write(name, args, threshold_chars) {
                        Some(stubbed) => tokens.count(&format!("{name} {stubbed}"))?,
                        None => tokens.count(&p.part.visible_text())?,
                    }
                }
                other => tokens.count(&other.visible_text())?,
            };
        }
    }
    Ok(n)
}

fn stub_text(tool: &str, chars: usize, pinned: bool) -> String {
    let where_now = if pinned { "; fields pinned above" } else { "" };
    format!("[stub: {chars} chars of {tool} output; original in the compaction audit{where_now}]")
}

/// Index of the first tail message for `rounds` kept rounds, regardless of
/// tokens: the assistant message that opened the `rounds`-th latest round
/// of tool calls; with no rounds it is the last message.
pub fn tail_start(t: &Transcript, rounds: usize) -> usize {
    match round_limit(t, rounds) {
        0 => t.messages.len().saturating_sub(1),
        i => i,
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
        if let Part::ToolCall { id, name, args } = &p.part {
            if let Some(stubbed) = stubbed_write(name, args, threshold_chars) {
                stubs.push(Stub {
                    part: at,
                    call_id: id.clone(),
                    tool: name.clone(),
                    original: args.to_string(),
                    stub: stubbed.to_string(),
                    args: Some(stubbed),
                });
            }
            continue;
        }
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
        stubs.push(Stub {
            part: at,
            call_id: id.clone(),
            tool: name.clone(),
            stub: stub_text(name, chars, pinned_calls.contains(id)),
            original,
            args: None,
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

    /// One token per whitespace-separated word.
    struct Words;
    impl TokenCount for Words {
        fn count(&self, text: &str) -> Result<usize> {
            Ok(text.split_whitespace().count())
        }
        fn name(&self) -> &str {
            "words"
        }
    }

    fn rules(rounds: usize, tokens: usize) -> TailRules {
        TailRules {
            rounds,
            tokens,
            stub_threshold_chars: 10,
            stop_at_self_declared: true,
        }
    }

    #[test]
    fn a_write_in_the_tail_keeps_its_path_and_names_what_it_defines() {
        let mut t = transcript(&[("c1", "ok")]);
        let content = "defmodule Grid do\n  def expand_for(x), do: x\nend\n";
        t.messages[1].parts[0].part = Part::ToolCall {
            id: "c1".into(),
            name: "Write".into(),
            args: json!({"file_path": "lib/grid.ex", "content": content}),
        };
        let s = select(&t, &rules(1, 1000), &HashSet::new(), &Words).unwrap();
        let stub = s
            .stubs
            .iter()
            .find(|s| s.args.is_some())
            .expect("the write is stubbed");
        let args = stub.args.as_ref().unwrap();
        assert_eq!(args["file_path"], "lib/grid.ex");
        let text = args["content"].as_str().unwrap();
        assert!(text.contains("it defines Grid, expand_for"), "{text}");
        assert_eq!(
            stub.original,
            json!({"file_path": "lib/grid.ex", "content": content}).to_string()
        );
    }

    #[test]
    fn the_tail_opens_at_the_latest_rounds_and_stubs_only_long_results() {
        let long = "x".repeat(40);
        let t = transcript(&[("c1", "short"), ("c2", &long), ("c3", "ok")]);
        let pinned: HashSet<String> = ["c2".to_string()].into();
        let s = select(&t, &rules(2, 1000), &pinned, &Words).unwrap();
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
    fn the_tail_is_bounded_in_tokens_but_keeps_its_last_turn_whole() {
        let t = transcript(&[("c1", "a b c"), ("c2", "d e f"), ("c3", "g h i")]);
        // Each round costs 5 words (call `get {}` 2, result 3).
        assert_eq!(
            select(&t, &rules(9, 5), &HashSet::new(), &Words)
                .unwrap()
                .tail_start,
            3
        );
        assert_eq!(
            select(&t, &rules(9, 4), &HashSet::new(), &Words)
                .unwrap()
                .tail_start,
            5
        );
        assert_eq!(
            select(&t, &rules(9, 0), &HashSet::new(), &Words)
                .unwrap()
                .tail_start,
            5
        );
        assert_eq!(split_points(&t), vec![1, 3, 5]);
    }

    #[test]
    fn the_tail_stops_at_a_turn_that_declares_itself_off_the_mission() {
        let mut t = transcript(&[]);
        for text in [
            "Archived notes, unrelated to the work: a=1",
            "Resume the work now.",
        ] {
            t.messages
                .push(Message::new(Role::Assistant, vec![Part::Text("ok".into())]));
            t.messages
                .push(Message::new(Role::User, vec![Part::Text(text.into())]));
        }
        t.messages.push(Message::new(
            Role::Assistant,
            vec![Part::Text("Ready.".into())],
        ));
        let s = select(&t, &rules(1, 100), &HashSet::new(), &Words).unwrap();
        assert_eq!(
            s.tail_start, 4,
            "the reply to the archived notes stays in the head"
        );
    }

    #[test]
    fn without_enough_rounds_only_the_last_message_is_kept() {
        let t = transcript(&[("c1", "a")]);
        assert_eq!(tail_start(&t, 3), 2);
        assert_eq!(new_tool_results(&t), 1);
    }
}
