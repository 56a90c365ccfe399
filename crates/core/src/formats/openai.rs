//! OpenAI Chat Completions request bodies.
//!
//! Consecutive `tool` messages are grouped into one user-side message so that
//! a round is always (assistant with tool_calls, results); they are written
//! back as separate `tool` messages.

use serde_json::{json, Map, Value};

use super::{resolve_result_names, text_of_blocks};
use crate::transcript::{Format, Message, Part, PartRec, Role, Transcript};

pub(super) fn parse(v: &Value) -> Result<Transcript, String> {
    let obj = v.as_object().ok_or("the request body is not an object")?;
    let mut envelope = obj.clone();
    envelope.remove("messages");
    envelope.remove("tools");
    let (tools, raw) = super::tools_and_messages(obj)?;

    let mut instructions = Vec::new();
    let mut instruction_style = Map::new();
    let mut messages: Vec<Message> = Vec::new();
    let mut leading = true;
    for (i, m) in raw.iter().enumerate() {
        let ctx = |e: String| format!("message {i}: {e}");
        let mobj = m.as_object().ok_or_else(|| ctx("not an object".into()))?;
        let role = mobj.get("role").and_then(Value::as_str).unwrap_or("");
        let mut meta = mobj.clone();
        meta.remove("role");
        let content = meta.remove("content").unwrap_or(Value::Null);
        match role {
            "system" | "developer" if leading => {
                let text = text_of_blocks(&content)
                    .ok_or_else(|| ctx("system content must be text".into()))?;
                instruction_style.insert("role".into(), role.into());
                if content.is_array() {
                    instruction_style.insert("blocks".into(), true.into());
                }
                instructions.push(text);
            }
            "system" | "developer" => {
                leading = false;
                let text = text_of_blocks(&content)
                    .ok_or_else(|| ctx("system content must be text".into()))?;
                let mut msg = Message::new(Role::System, vec![Part::SystemText(text)]);
                msg.string_content = content.is_string();
                meta.insert("role".into(), role.into());
                msg.meta = meta;
                messages.push(msg);
            }
            "user" => {
                leading = false;
                let mut msg = Message::new(Role::User, content_parts(content.clone()));
                msg.string_content = content.is_string();
                msg.meta = meta;
                messages.push(msg);
            }
            "assistant" => {
                leading = false;
                messages.push(parse_assistant(meta, content).map_err(ctx)?);
            }
            "tool" => {
                leading = false;
                push_tool_result(&mut messages, meta, content).map_err(ctx)?;
            }
            "function" => {
                return Err(ctx(
                    "legacy `function` role is not supported; use tool_calls and `tool` messages"
                        .into(),
                ))
            }
            other => return Err(ctx(format!("unknown role `{other}`"))),
        }
    }
    let mut t = Transcript {
        format: Format::OpenAi,
        instructions,
        tools,
        messages,
        envelope,
        instruction_style,
    };
    resolve_result_names(&mut t);
    Ok(t)
}

/// An assistant message: its content parts, then its tool calls.
fn parse_assistant(mut meta: Map<String, Value>, content: Value) -> Result<Message, String> {
    let calls = meta.remove("tool_calls");
    let mut msg = Message::new(Role::Assistant, vec![]);
    msg.string_content = content.is_string();
    if !content.is_null() {
        msg.parts
            .extend(content_parts(content).into_iter().map(PartRec::new));
    }
    if let Some(calls) = calls {
        let calls = calls.as_array().ok_or("tool_calls must be a list")?;
        for (j, c) in calls.iter().enumerate() {
            msg.parts
                .push(parse_call(c).map_err(|e| format!("tool call {j}: {e}"))?);
        }
    }
    msg.meta = meta;
    Ok(msg)
}

/// A `tool` message joins the user-side group of results before it, or
/// opens one.
fn push_tool_result(
    messages: &mut Vec<Message>,
    mut meta: Map<String, Value>,
    content: Value,
) -> Result<(), String> {
    let id = meta
        .remove("tool_call_id")
        .and_then(|v| v.as_str().map(str::to_string))
        .ok_or("tool message needs tool_call_id")?;
    let part = PartRec {
        part: Part::ToolResult {
            id,
            name: String::new(),
            content,
            is_error: false,
        },
        meta,
    };
    match messages.last_mut() {
        Some(prev) if prev.role == Role::User && is_tool_group(prev) => prev.parts.push(part),
        _ => {
            let mut msg = Message::new(Role::User, vec![]);
            msg.parts.push(part);
            messages.push(msg);
        }
    }
    Ok(())
}

fn is_tool_group(m: &Message) -> bool {
    !m.parts.is_empty()
        && m.parts
            .iter()
            .all(|p| matches!(p.part, Part::ToolResult { .. }))
}

fn content_parts(content: Value) -> Vec<Part> {
    match content {
        Value::String(s) => vec![Part::Text(s)],
        Value::Array(blocks) => blocks
            .into_iter()
            .map(
                |b| match (b.get("type").and_then(Value::as_str), b.get("text")) {
                    (Some("text"), Some(Value::String(t)))
                        if b.as_object().is_some_and(|o| o.len() == 2) =>
                    {
                        Part::Text(t.clone())
                    }
                    _ => Part::Opaque(b),
                },
            )
            .collect(),
        Value::Null => vec![],
        other => vec![Part::Opaque(other)],
    }
}

fn parse_call(c: &Value) -> Result<PartRec, String> {
    let mut obj = c.as_object().ok_or("not an object")?.clone();
    let id = obj
        .remove("id")
        .and_then(|v| v.as_str().map(str::to_string))
        .ok_or("missing id")?;
    let mut function = match obj.remove("function") {
        Some(Value::Object(f)) => f,
        _ => return Err("missing function".into()),
    };
    let name = function
        .remove("name")
        .and_then(|v| v.as_str().map(str::to_string))
        .ok_or("function has no name")?;
    // Arguments are a JSON string on the wire; keep the parsed value when it
    // parses, the raw string otherwise.
    let args = match function.remove("arguments") {
        Some(Value::String(s)) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
        Some(other) => other,
        None => Value::Object(Map::new()),
    };
    obj.remove("type");
    if !function.is_empty() {
        obj.insert("function_extra".into(), Value::Object(function));
    }
    Ok(PartRec {
        part: Part::ToolCall { id, name, args },
        meta: obj,
    })
}

pub(super) fn render(t: &Transcript) -> Value {
    let mut body = Map::new();
    for (k, v) in &t.envelope {
        body.insert(k.clone(), v.clone());
    }
    let mut out = Vec::new();
    if !t.instructions.is_empty() {
        let role = t
            .instruction_style
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or("system");
        let blocks = t.instruction_style.get("blocks") == Some(&Value::Bool(true));
        if blocks {
            let content: Vec<Value> = t
                .instructions
                .iter()
                .map(|s| json!({"type": "text", "text": s}))
                .collect();
            out.push(json!({"role": role, "content": content}));
        } else {
            for s in &t.instructions {
                out.push(json!({"role": role, "content": s}));
            }
        }
    }
    for m in &t.messages {
        render_message(m, &mut out);
    }
    body.insert("messages".into(), Value::Array(out));
    if !t.tools.is_empty() {
        body.insert("tools".into(), Value::Array(t.tools.clone()));
    }
    Value::Object(body)
}

fn text_content(parts: &[&PartRec], string_content: bool) -> Value {
    let texts: Vec<String> = parts
        .iter()
        .filter_map(|p| match &p.part {
            Part::Text(s) | Part::SystemText(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    let only_text = texts.len() == parts.len();
    if string_content && only_text && texts.len() <= 1 {
        return Value::String(texts.into_iter().next().unwrap_or_default());
    }
    Value::Array(
        parts
            .iter()
            .map(|p| match &p.part {
                Part::Text(s) | Part::SystemText(s) => json!({"type": "text", "text": s}),
                Part::Opaque(v) => v.clone(),
                other => json!({"type": "text", "text": other.visible_text()}),
            })
            .collect(),
    )
}

fn render_message(m: &Message, out: &mut Vec<Value>) {
    match m.role {
        Role::Assistant => out.push(render_assistant(m)),
        Role::User | Role::System => {
            // Results first: they must directly follow the assistant's calls.
            out.extend(m.parts.iter().filter_map(render_tool_result));
            let rest: Vec<&PartRec> = m
                .parts
                .iter()
                .filter(|p| p.part.answers().is_none())
                .collect();
            if !rest.is_empty() {
                let mut msg = Map::new();
                let role = if m.role == Role::System {
                    m.meta
                        .get("role")
                        .and_then(Value::as_str)
                        .unwrap_or("system")
                        .to_string()
                } else {
                    "user".to_string()
                };
                msg.insert("role".into(), role.into());
                msg.insert("content".into(), text_content(&rest, m.string_content));
                for (k, v) in &m.meta {
                    if k != "role" {
                        msg.insert(k.clone(), v.clone());
                    }
                }
                out.push(Value::Object(msg));
            }
        }
    }
}

fn render_assistant(m: &Message) -> Value {
    let content_parts: Vec<&PartRec> = m
        .parts
        .iter()
        .filter(|p| !matches!(p.part, Part::ToolCall { .. }))
        .collect();
    let calls: Vec<Value> = m.parts.iter().filter_map(render_call).collect();
    let mut msg = Map::new();
    msg.insert("role".into(), "assistant".into());
    msg.insert(
        "content".into(),
        if content_parts.is_empty() {
            Value::Null
        } else {
            text_content(&content_parts, m.string_content)
        },
    );
    if !calls.is_empty() {
        msg.insert("tool_calls".into(), Value::Array(calls));
    }
    let mut obj = m.meta.clone();
    obj.remove("role");
    for (k, v) in obj {
        msg.insert(k, v);
    }
    Value::Object(msg)
}

fn render_call(p: &PartRec) -> Option<Value> {
    let Part::ToolCall { id, name, args } = &p.part else {
        return None;
    };
    let mut c = Map::new();
    c.insert("id".into(), id.clone().into());
    c.insert("type".into(), "function".into());
    let arguments = match args {
        Value::String(s) => s.clone(),
        other => crate::transcript::compact_json(other),
    };
    let mut f = match p.meta.get("function_extra") {
        Some(Value::Object(extra)) => extra.clone(),
        _ => Map::new(),
    };
    f.insert("name".into(), name.clone().into());
    f.insert("arguments".into(), arguments.into());
    c.insert("function".into(), Value::Object(f));
    for (k, v) in &p.meta {
        if k != "function_extra" {
            c.insert(k.clone(), v.clone());
        }
    }
    Some(Value::Object(c))
}

/// A result (or a retry prompt answering a call) as a `tool` message.
fn render_tool_result(p: &PartRec) -> Option<Value> {
    let (id, content) = match &p.part {
        Part::ToolResult { id, content, .. } => (id.clone(), content.clone()),
        Part::RetryPrompt {
            id: Some(id),
            content,
            ..
        } => (id.clone(), content.clone()),
        _ => return None,
    };
    let mut msg = Map::new();
    msg.insert("role".into(), "tool".into());
    msg.insert("tool_call_id".into(), id.into());
    let content = match content {
        Value::String(_) | Value::Array(_) => content,
        other => Value::String(crate::transcript::compact_json(&other)),
    };
    msg.insert("content".into(), content);
    for (k, v) in &p.meta {
        msg.insert(k.clone(), v.clone());
    }
    Some(Value::Object(msg))
}
