//! Repairs to a request read from a session transcript, so it is a valid
//! request of its API the way the agents themselves make it one before they
//! send it. Each repair is said in a warning; request bodies given as
//! requests are never repaired.
//!
//! - In formats whose roles alternate, the conversation opens on the user
//!   side (assistant messages before the first user message are dropped),
//!   neighbours of the same role are merged, and in a user message the tool
//!   results come first.
//! - A tool result that answers no call of the message before it is dropped.
//! - A call that the next message does not answer gets an error result
//!   saying no result was recorded (a call in the last message stays open).

use std::collections::HashSet;

use serde_json::Value;

use crate::transcript::{Format, Message, Part, PartRec, Role, Transcript};

/// The text of the result given to a call whose result was not recorded.
pub(super) const NO_RESULT: &str = "[no result recorded in the transcript]";

pub(super) fn repair(t: &mut Transcript) -> Vec<String> {
    let mut said = Vec::new();
    let alternating = matches!(t.format, Format::Anthropic | Format::PydanticAi);
    if alternating {
        let lead = t
            .messages
            .iter()
            .position(|m| m.role == Role::User)
            .unwrap_or(t.messages.len());
        if lead > 0 {
            said.push(format!(
                "{lead} assistant message(s) before the first user message dropped (the request must open on the user side)"
            ));
            t.messages.drain(..lead);
        }
        merge_neighbours(&mut t.messages);
    }
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

fn drop_orphans(messages: &mut [Message], said: &mut Vec<String>) {
    for i in 0..messages.len() {
        let prev = i
            .checked_sub(1)
            .map(|p| calls_of(&messages[p]))
            .unwrap_or_default();
        messages[i].parts.retain(|p| match p.part.answers() {
            Some(id) if !prev.contains(id) => {
                said.push(format!(
                    "tool result `{id}` answers no call of the message before it; dropped"
                ));
                false
            }
            _ => true,
        });
    }
}

fn answer_open_calls(messages: &mut Vec<Message>, flag_errors: bool, said: &mut Vec<String>) {
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
                    said.push(format!(
                        "tool call `{id}` ({name}) has no recorded result; an error result saying so was added"
                    ));
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
