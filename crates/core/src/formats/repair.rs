//! Repairs to a request read from a session transcript, so it is a valid
//! request of its API the way the agents themselves make it one before they
//! send it. Each repair is said in a warning; request bodies given as
//! requests are never repaired.
//!
//! - In formats whose roles alternate, the conversation opens on the user
//!   side (assistant messages before the first user message are dropped),
//!   neighbours of the same role are merged, and in a user message the tool
//!   results come first.
//! - A tool result that is not next to its call (a message came between
//!   them: a late result, a notice written before it) is moved to just
//!   after the call, when nothing there answers it yet. A tool result that
//!   then answers no call of the message before it is dropped.
//! - A call that the next message does not answer gets an error result
//!   saying no result was recorded (a call in the last message stays open).

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::session::Warning;
use crate::transcript::{Format, Message, Part, PartRec, Role, Transcript};

/// The text of the result given to a call whose result was not recorded.
pub(super) const NO_RESULT: &str = "[no result recorded in the transcript]";

pub(super) fn repair(t: &mut Transcript) -> Vec<Warning> {
    let mut said = Vec::new();
    let alternating = matches!(t.format, Format::Anthropic | Format::PydanticAi);
    if alternating {
        let lead = t
            .messages
            .iter()
            .position(|m| m.role == Role::User)
            .unwrap_or(t.messages.len());
        if lead > 0 {
            said.push(Warning::general(format!(
                "{lead} assistant message(s) before the first user message dropped (the request must open on the user side)"
            )));
            t.messages.drain(..lead);
        }
        merge_neighbours(&mut t.messages);
    }
    reattach_results(&mut t.messages, alternating, &mut said);
    drop_orphans(&mut t.messages, &mut said);
    t.messages.retain(|m| !m.parts.is_empty());
    if alternating {
        merge_neighbours(&mut t.messages);
    }
    // Responses outputs carry no error flag: the text says it.
    let flag_errors = t.format != Format::Responses;
    answer_open_calls(&mut t.messages, flag_errors, &mut said);
    if alternating {
        for m in t.messages.iter_mut().filter(|m| m.role == Role::User) {
            m.parts.sort_by_key(|p| p.part.answers().is_none());
        }
    }
    said
}

fn merge_neighbours(messages: &mut Vec<Message>) {
    let mut out: Vec<Message> = Vec::with_capacity(messages.len());
    for m in messages.drain(..) {
        match out.last_mut() {
            Some(prev) if prev.role == m.role => {
                prev.parts.extend(m.parts);
                prev.string_content = false;
            }
            _ => out.push(m),
        }
    }
    *messages = out;
}

fn calls_of(m: &Message) -> HashSet<String> {
    m.tool_calls().map(|(id, _, _)| id.to_string()).collect()
}

/// Move each tool result that is not in the message after its call to
/// there, when that message does not answer the call already.
fn reattach_results(messages: &mut Vec<Message>, alternating: bool, said: &mut Vec<Warning>) {
    let mut call_at: HashMap<String, usize> = HashMap::new();
    for (i, m) in messages.iter().enumerate() {
        for (id, _, _) in m.tool_calls() {
            call_at.entry(id.to_string()).or_insert(i);
        }
    }
    let answered_next = |j: usize, id: &str| {
        messages
            .get(j + 1)
            .is_some_and(|n| n.parts.iter().any(|p| p.part.answers() == Some(id)))
    };
    // (the call's message, the result's message, the result's part)
    let mut moves: Vec<(usize, usize, usize)> = Vec::new();
    let mut moved: HashSet<&str> = HashSet::new();
    for (i, m) in messages.iter().enumerate() {
        for (k, p) in m.parts.iter().enumerate() {
            let Some(id) = p.part.answers() else { continue };
            match call_at.get(id) {
                // One result a call: a second copy stays, and is dropped.
                Some(&j) if j + 1 != i && !answered_next(j, id) && moved.insert(id) => {
                    moves.push((j, i, k))
                }
                _ => {}
            }
        }
    }
    if moves.is_empty() {
        return;
    }
    // Take the parts out, last first so the indices hold.
    let mut taken: Vec<(usize, PartRec)> = Vec::new();
    for &(j, i, k) in moves.iter().rev() {
        taken.push((j, messages[i].parts.remove(k)));
    }
    // Put them in, the latest call first so inserted messages shift none
    // still to come.
    taken.sort_by_key(|(j, _)| std::cmp::Reverse(*j));
    for (j, rec) in taken {
        if let Some(id) = rec.part.answers() {
            said.push(
                Warning::general(format!(
                    "tool result `{id}` was not next to its call (another message came between them); moved to just after the call"
                ))
                .about([id.to_string()]),
            );
        }
        let fits = messages.get(j + 1).is_some_and(|n| {
            n.role == Role::User
                && (alternating || n.parts.iter().all(|p| p.part.answers().is_some()))
        });
        if fits {
            let next = &mut messages[j + 1];
            next.string_content = false;
            next.parts.insert(0, rec);
        } else {
            let mut m = Message::new(Role::User, vec![]);
            m.parts.push(rec);
            messages.insert(j + 1, m);
        }
    }
}

fn drop_orphans(messages: &mut [Message], said: &mut Vec<Warning>) {
    for i in 0..messages.len() {
        let prev = i
            .checked_sub(1)
            .map(|p| calls_of(&messages[p]))
            .unwrap_or_default();
        messages[i].parts.retain(|p| match p.part.answers() {
            Some(id) if !prev.contains(id) => {
                said.push(
                    Warning::general(format!(
                        "tool result `{id}` answers no call of the message before it; dropped"
                    ))
                    .about([id.to_string()]),
                );
                false
            }
            _ => true,
        });
    }
}

fn answer_open_calls(messages: &mut Vec<Message>, flag_errors: bool, said: &mut Vec<Warning>) {
    let mut i = 0;
    while i + 1 < messages.len() {
        let answered: HashSet<&str> = messages[i + 1]
            .parts
            .iter()
            .filter_map(|p| p.part.answers())
            .collect();
        let open: Vec<(String, String, Option<String>)> = messages[i]
            .parts
            .iter()
            .filter_map(|p| match &p.part {
                Part::ToolCall { id, name, .. } if !answered.contains(id.as_str()) => {
                    // A Responses call item (`custom_tool_call`, ...) is
                    // answered by its own kind of output item.
                    let kind = p
                        .meta
                        .get("type")
                        .and_then(Value::as_str)
                        .filter(|k| k.ends_with("_call"))
                        .map(|k| format!("{k}_output"));
                    Some((id.clone(), name.clone(), kind))
                }
                _ => None,
            })
            .collect();
        if !open.is_empty() {
            let results: Vec<PartRec> = open
                .into_iter()
                .map(|(id, name, kind)| {
                    said.push(
                        Warning::general(format!(
                            "tool call `{id}` ({name}) has no recorded result; an error result saying so was added"
                        ))
                        .about([id.clone()]),
                    );
                    let mut rec = PartRec::new(Part::ToolResult {
                        id,
                        name,
                        content: Value::String(NO_RESULT.into()),
                        is_error: flag_errors,
                    });
                    if let Some(kind) = kind {
                        rec.meta.insert("type".into(), kind.into());
                    }
                    rec
                })
                .collect();
            if messages[i + 1].role == Role::User {
                let next = &mut messages[i + 1];
                next.string_content = false;
                next.parts.splice(0..0, results);
            } else {
                let mut m = Message::new(Role::User, vec![]);
                m.parts = results;
                messages.insert(i + 1, m);
            }
        }
        i += 1;
    }
}
