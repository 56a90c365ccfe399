//! Pydantic AI message history JSON (`ModelMessagesTypeAdapter`).
//!
//! Requests map to the user side, responses to the assistant side. Each
//! request carries the agent's `instructions`; the latest ones are the
//! transcript's instructions and are written onto every request.

use serde_json::{Map, Value};

use crate::transcript::{Format, Message, Part, PartRec, Role, Transcript};

pub(super) fn parse(v: &Value) -> Result<Transcript, String> {
    let items = v.as_array().ok_or("the history is not a list")?;
    let mut messages = Vec::with_capacity(items.len());
    let mut instructions: Option<String> = None;
    for (i, m) in items.iter().enumerate() {
        let mut obj = m
            .as_object()
            .ok_or(format!("message {i}: not an object"))?
            .clone();
        let kind = obj
            .remove("kind")
            .and_then(|k| k.as_str().map(str::to_string))
            .ok_or(format!("message {i}: missing kind"))?;
        let parts = match obj.remove("parts") {
            Some(Value::Array(p)) => p,
            _ => return Err(format!("message {i}: parts must be a list")),
        };
        let role = match kind.as_str() {
            "request" => {
                match obj.remove("instructions") {
                    Some(Value::String(s)) => instructions = Some(s),
                    Some(Value::Null) | None => {}
                    Some(_) => return Err(format!("message {i}: instructions must be a string")),
                }
                Role::User
            }
            "response" => Role::Assistant,
            other => return Err(format!("message {i}: unknown kind `{other}`")),
        };
        let mut msg = Message::new(role, vec![]);
        for (j, p) in parts.into_iter().enumerate() {
            msg.parts
                .push(parse_part(p, role).map_err(|e| format!("message {i}, part {j}: {e}"))?);
        }
        msg.meta = obj;
        messages.push(msg);
    }
    Ok(Transcript {
        format: Format::PydanticAi,
        instructions: instructions.into_iter().collect(),
        tools: Vec::new(),
        messages,
        envelope: Map::new(),
        instruction_style: Map::new(),
    })
}

fn take_str(obj: &mut Map<String, Value>, k: &str) -> Option<String> {
    match obj.remove(k) {
        Some(Value::String(s)) => Some(s),
        Some(other) => {
            obj.insert(k.to_string(), other);
            None
        }
        None => None,
    }
}

fn parse_part(p: Value, role: Role) -> Result<PartRec, String> {
    let Value::Object(mut obj) = p else {
        return Err("not an object".into());
    };
    let kind = obj
        .get("part_kind")
        .and_then(Value::as_str)
        .ok_or("missing part_kind")?
        .to_string();
    let part = match (role, kind.as_str()) {
        (Role::User, "user-prompt") => match obj.get("content") {
            Some(Value::String(_)) => {
                obj.remove("part_kind");
                Part::Text(take_str(&mut obj, "content").unwrap_or_default())
            }
            _ => Part::Opaque(Value::Object(obj.clone())),
        },
        (Role::User, "system-prompt") => {
            obj.remove("part_kind");
            Part::SystemText(take_str(&mut obj, "content").ok_or("system-prompt needs content")?)
        }
        (Role::User, "tool-return") => {
            obj.remove("part_kind");
            let id = take_str(&mut obj, "tool_call_id").ok_or("tool-return needs tool_call_id")?;
            let name = take_str(&mut obj, "tool_name").unwrap_or_default();
            let content = obj.remove("content").unwrap_or(Value::Null);
            Part::ToolResult {
                id,
                name,
                content,
                is_error: false,
            }
        }
        (Role::User, "retry-prompt") => {
            obj.remove("part_kind");
            let id = take_str(&mut obj, "tool_call_id");
            let name = take_str(&mut obj, "tool_name");
            let content = obj.remove("content").unwrap_or(Value::Null);
            Part::RetryPrompt { id, name, content }
        }
        (Role::Assistant, "text") => {
            obj.remove("part_kind");
            Part::Text(take_str(&mut obj, "content").ok_or("text part needs content")?)
        }
        (Role::Assistant, "tool-call") => {
            obj.remove("part_kind");
            let id = take_str(&mut obj, "tool_call_id").ok_or("tool-call needs tool_call_id")?;
            let name = take_str(&mut obj, "tool_name").ok_or("tool-call needs tool_name")?;
            let args = obj.remove("args").unwrap_or(Value::Null);
            Part::ToolCall { id, name, args }
        }
        (Role::User, k @ ("text" | "tool-call"))
        | (
            Role::Assistant,
            k @ ("user-prompt" | "system-prompt" | "tool-return" | "retry-prompt"),
        ) => {
            return Err(format!(
                "part kind `{k}` cannot appear in a {}",
                if role == Role::User {
                    "request"
                } else {
                    "response"
                }
            ));
        }
        _ => return Ok(PartRec::new(Part::Opaque(Value::Object(obj)))),
    };
    Ok(PartRec { part, meta: obj })
}

pub(super) fn render(t: &Transcript) -> Value {
    let instructions = if t.instructions.is_empty() {
        Value::Null
    } else {
        Value::String(t.instructions_text())
    };
    Value::Array(
        t.messages
            .iter()
            .map(|m| {
                let mut obj = Map::new();
                let parts: Vec<Value> = m.parts.iter().map(|p| render_part(p, m.role)).collect();
                obj.insert("parts".into(), Value::Array(parts));
                for (k, v) in &m.meta {
                    obj.insert(k.clone(), v.clone());
                }
                match m.role {
                    Role::Assistant => {
                        obj.insert("kind".into(), "response".into());
                    }
                    Role::User | Role::System => {
                        obj.insert("kind".into(), "request".into());
                        obj.insert("instructions".into(), instructions.clone());
                    }
                }
                Value::Object(obj)
            })
            .collect(),
    )
}

fn render_part(p: &PartRec, role: Role) -> Value {
    let mut obj = Map::new();
    match &p.part {
        Part::Text(s) => {
            obj.insert("content".into(), s.clone().into());
        }
        Part::SystemText(s) => {
            obj.insert("content".into(), s.clone().into());
        }
        Part::ToolCall { id, name, args } => {
            obj.insert("tool_name".into(), name.clone().into());
            obj.insert("args".into(), args.clone());
            obj.insert("tool_call_id".into(), id.clone().into());
        }
        Part::ToolResult {
            id, name, content, ..
        } => {
            obj.insert("tool_name".into(), name.clone().into());
            obj.insert("content".into(), content.clone());
            obj.insert("tool_call_id".into(), id.clone().into());
        }
        Part::RetryPrompt { id, name, content } => {
            obj.insert("content".into(), content.clone());
            if let Some(n) = name {
                obj.insert("tool_name".into(), n.clone().into());
            }
            if let Some(i) = id {
                obj.insert("tool_call_id".into(), i.clone().into());
            }
        }
        Part::Opaque(v) | Part::Reasoning { item: v, .. } | Part::Compaction { item: v } => {
            return v.clone()
        }
    }
    for (k, v) in &p.meta {
        obj.insert(k.clone(), v.clone());
    }
    obj.insert("part_kind".into(), part_kind(p, role).into());
    Value::Object(obj)
}

fn part_kind(p: &PartRec, role: Role) -> &'static str {
    match &p.part {
        Part::Text(_) if role == Role::Assistant => "text",
        Part::Text(_) => "user-prompt",
        Part::SystemText(_) => "system-prompt",
        Part::ToolCall { .. } => "tool-call",
        Part::ToolResult { .. } => "tool-return",
        Part::RetryPrompt { .. } => "retry-prompt",
        Part::Opaque(_) | Part::Reasoning { .. } | Part::Compaction { .. } => "opaque",
    }
}
