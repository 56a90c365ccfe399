//! Anthropic Messages API request bodies.

use serde_json::{json, Map, Value};

use super::resolve_result_names;
use crate::transcript::{Format, Message, Part, PartRec, Role, Transcript};

pub(super) fn parse(v: &Value) -> Result<Transcript, String> {
    let obj = v.as_object().ok_or("the request body is not an object")?;
    let mut envelope = obj.clone();
    envelope.remove("messages");
    envelope.remove("tools");
    let mut instruction_style = Map::new();
    let instructions = match envelope.remove("system") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(s)) => vec![s],
        Some(Value::Array(blocks)) => {
            instruction_style.insert("blocks".into(), Value::Bool(true));
            let mut out = Vec::new();
            for (i, b) in blocks.iter().enumerate() {
                let text = b
                    .get("text")
                    .and_then(Value::as_str)
                    .ok_or(format!("system block {i} has no text"))?;
                out.push(text.to_string());
            }
            out
        }
        Some(_) => return Err("`system` must be a string or a list of text blocks".into()),
    };
    let (tools, raw_messages) = super::tools_and_messages(obj)?;
    let mut messages = Vec::with_capacity(raw_messages.len());
    for (i, m) in raw_messages.iter().enumerate() {
        messages.push(parse_message(m).map_err(|e| format!("message {i}: {e}"))?);
    }
    let mut t = Transcript {
        format: Format::Anthropic,
        instructions,
        tools,
        messages,
        envelope,
        instruction_style,
    };
    resolve_result_names(&mut t);
    Ok(t)
}

fn parse_message(m: &Value) -> Result<Message, String> {
    let obj = m.as_object().ok_or("not an object")?;
    let role = match obj.get("role").and_then(Value::as_str) {
        Some("user") => Role::User,
        Some("assistant") => Role::Assistant,
        // A system message between turns (Claude Code's beta
        // `mid-conversation-system`): harness instructions.
        Some("system") => Role::System,
        Some(other) => return Err(format!("role `{other}` is not user, assistant or system")),
        None => return Err("missing role".into()),
    };
    let mut meta = obj.clone();
    if role != Role::System {
        // Kept for a system message, so it is written back as one (a
        // system message from another format is written as the user's).
        meta.remove("role");
    }
    let content = meta.remove("content").ok_or("missing content")?;
    let mut msg = Message::new(role, vec![]);
    match content {
        Value::String(s) => {
            msg.string_content = true;
            msg.parts.push(PartRec::new(Part::Text(s)));
        }
        Value::Array(blocks) => {
            for (j, b) in blocks.into_iter().enumerate() {
                msg.parts
                    .push(parse_block(b).map_err(|e| format!("block {j}: {e}"))?);
            }
        }
        _ => return Err("content must be a string or a list of blocks".into()),
    }
    msg.meta = meta;
    Ok(msg)
}

fn parse_block(b: Value) -> Result<PartRec, String> {
    let Value::Object(mut obj) = b else {
        return Err("not an object".into());
    };
    let kind = obj
        .get("type")
        .and_then(Value::as_str)
        .ok_or("missing type")?
        .to_string();
    let str_field = |obj: &mut Map<String, Value>, k: &str| -> Result<String, String> {
        match obj.remove(k) {
            Some(Value::String(s)) => Ok(s),
            _ => Err(format!("{kind} block needs a string `{k}`")),
        }
    };
    let part = match kind.as_str() {
        "text" => {
            obj.remove("type");
            Part::Text(str_field(&mut obj, "text")?)
        }
        "tool_use" => {
            obj.remove("type");
            let id = str_field(&mut obj, "id")?;
            let name = str_field(&mut obj, "name")?;
            let args = obj.remove("input").unwrap_or(Value::Object(Map::new()));
            Part::ToolCall { id, name, args }
        }
        "tool_result" => {
            obj.remove("type");
            let id = str_field(&mut obj, "tool_use_id")?;
            let content = obj
                .remove("content")
                .unwrap_or(Value::String(String::new()));
            let is_error = obj
                .remove("is_error")
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
            Part::ToolResult {
                id,
                name: String::new(),
                content,
                is_error,
            }
        }
        "thinking" | "redacted_thinking" => {
            // Carried whole: the signature covers the thinking text.
            let text = obj
                .get("thinking")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            return Ok(PartRec::new(Part::Reasoning {
                text,
                item: Value::Object(obj),
                altered: false,
            }));
        }
        _ => return Ok(PartRec::new(Part::Opaque(Value::Object(obj)))),
    };
    Ok(PartRec { part, meta: obj })
}

pub(super) fn render(t: &Transcript) -> Value {
    let mut body = Map::new();
    for (k, v) in &t.envelope {
        body.insert(k.clone(), v.clone());
    }
    if !t.instructions.is_empty() {
        let blocks = t.instruction_style.get("blocks") == Some(&Value::Bool(true));
        let system = if blocks || t.instructions.len() > 1 {
            Value::Array(
                t.instructions
                    .iter()
                    .map(|s| json!({"type": "text", "text": s}))
                    .collect(),
            )
        } else {
            Value::String(t.instructions[0].clone())
        };
        body.insert("system".into(), system);
    }
    if !t.tools.is_empty() {
        body.insert("tools".into(), Value::Array(t.tools.clone()));
    }
    let messages = t.messages.iter().map(render_message).collect();
    body.insert("messages".into(), Value::Array(messages));
    Value::Object(body)
}

fn render_message(m: &Message) -> Value {
    let mut obj = Map::new();
    let role = match m.role {
        Role::Assistant => "assistant",
        Role::User | Role::System => "user",
    };
    obj.insert("role".into(), role.into());
    let single_text = match m.parts.as_slice() {
        [PartRec {
            part: Part::Text(s),
            meta,
        }] if meta.is_empty() => Some(s.clone()),
        _ => None,
    };
    let content = match single_text {
        Some(s) if m.string_content => Value::String(s),
        // An altered reasoning block is never written (see `Part::Reasoning`).
        _ => Value::Array(
            m.parts
                .iter()
                .filter(|p| !matches!(p.part, Part::Reasoning { altered: true, .. }))
                .map(render_block)
                .collect(),
        ),
    };
    obj.insert("content".into(), content);
    for (k, v) in &m.meta {
        obj.insert(k.clone(), v.clone());
    }
    Value::Object(obj)
}

fn render_block(p: &PartRec) -> Value {
    let mut obj = Map::new();
    match &p.part {
        Part::Text(s) | Part::SystemText(s) => {
            obj.insert("type".into(), "text".into());
            obj.insert("text".into(), s.clone().into());
        }
        Part::ToolCall { id, name, args } => {
            obj.insert("type".into(), "tool_use".into());
            obj.insert("id".into(), id.clone().into());
            obj.insert("name".into(), name.clone().into());
            obj.insert("input".into(), args.clone());
        }
        Part::ToolResult {
            id,
            content,
            is_error,
            ..
        } => {
            obj.insert("type".into(), "tool_result".into());
            obj.insert("tool_use_id".into(), id.clone().into());
            obj.insert("content".into(), content.clone());
            if *is_error {
                obj.insert("is_error".into(), true.into());
            }
        }
        Part::RetryPrompt { id, content, .. } => {
            // A retry answers a call as an error result, or is plain user text.
            match id {
                Some(id) => {
                    obj.insert("type".into(), "tool_result".into());
                    obj.insert("tool_use_id".into(), id.clone().into());
                    obj.insert("content".into(), content.clone());
                    obj.insert("is_error".into(), true.into());
                }
                None => {
                    obj.insert("type".into(), "text".into());
                    obj.insert("text".into(), crate::transcript::value_text(content).into());
                }
            }
        }
        Part::Reasoning { item, .. } | Part::Compaction { item } | Part::Opaque(item) => {
            return item.clone()
        }
    }
    for (k, v) in &p.meta {
        obj.insert(k.clone(), v.clone());
    }
    Value::Object(obj)
}
