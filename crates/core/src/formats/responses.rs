//! OpenAI Responses API request bodies (`POST /v1/responses`): `input` is a
//! flat list of items.
//!
//! The items map onto the transcript's messages: consecutive output-side
//! items (assistant messages, reasoning, tool calls, compaction and other
//! output items) form one assistant message; consecutive tool outputs one
//! user-side message; every user item, and every developer or system item
//! after the first other item, is its own message. The top-level
//! `instructions` and the leading developer or system items are the
//! instructions, as OpenAI Chat's leading system messages are, and so are
//! leading user items that are an agent harness's context (Codex sends its
//! environment and AGENTS.md as user items: [`is_harness_context`]); each
//! text block of such an item is one instruction. Item fields
//! we do not model travel in part meta under the reserved keys below and are
//! written back as they came.

use serde_json::{json, Map, Value};

use super::resolve_result_names;
use crate::transcript::{compact_json, Format, Message, Part, PartRec, Role, Transcript};

/// On the first part of a message item: the item's fields other than
/// `content` (`type`, `role`, `id`, `status`, `phase`, ...).
const ITEM: &str = "_item";
/// The message item's `content` was a string.
const STRING: &str = "_string";
/// The message item's `content` was an empty list.
const EMPTY: &str = "_empty";
/// A call's argument field (`arguments`, `input`, `action`).
const ARGS: &str = "_args";
/// `arguments` as written (a JSON string), reused while the value is unchanged.
const RAW_ARGS: &str = "_raw_arguments";
/// The part is a whole item we do not interpret, written back as it came.
const OPAQUE_ITEM: &str = "_opaque_item";
/// The call item had no `name` (`local_shell_call`, `computer_call`).
const NO_NAME: &str = "_no_name";

/// Item types carried whole without a warning: server-side tools and other
/// output items that need no pairing.
const KNOWN_OPAQUE: &[&str] = &[
    "web_search_call",
    "file_search_call",
    "image_generation_call",
    "code_interpreter_call",
    "mcp_call",
    "mcp_list_tools",
    "mcp_approval_request",
    "mcp_approval_response",
    "item_reference",
    "tool_search_call",
    "tool_search_output",
];

/// Parse a request body; the warnings name input items carried opaque
/// because their type is unknown.
pub(super) fn parse(v: &Value) -> Result<(Transcript, Vec<String>), String> {
    let obj = v.as_object().ok_or("the request body is not an object")?;
    let mut envelope = obj.clone();
    let mut style = Map::new();
    let mut instructions = Vec::new();
    match envelope.remove("instructions") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => {
            style.insert("top_level".into(), true.into());
            instructions.push(s);
        }
        Some(_) => return Err("`instructions` must be a string".into()),
    }
    let tools = match envelope.remove("tools") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(t)) => {
            style.insert("tools".into(), true.into());
            t
        }
        Some(_) => return Err("`tools` must be a list".into()),
    };
    let items = match envelope.remove("input") {
        Some(Value::String(s)) => {
            style.insert("input_string".into(), true.into());
            vec![json!({"role": "user", "content": s})]
        }
        Some(Value::Array(items)) => items,
        _ => return Err("`input` must be a string or a list of items".into()),
    };
    let mut reader = Reader {
        messages: Vec::new(),
        instructions,
        leading: Vec::new(),
        warnings: Vec::new(),
    };
    for (i, item) in items.into_iter().enumerate() {
        reader
            .item(item)
            .map_err(|e| format!("input item {i}: {e}"))?;
    }
    if !reader.leading.is_empty() {
        style.insert("leading".into(), Value::Array(reader.leading));
    }
    let mut t = Transcript {
        format: Format::Responses,
        instructions: reader.instructions,
        tools,
        messages: reader.messages,
        envelope,
        instruction_style: style,
    };
    resolve_result_names(&mut t);
    Ok((t, reader.warnings))
}

struct Reader {
    messages: Vec<Message>,
    instructions: Vec<String>,
    /// The leading items taken as instructions, one a text: `{text, item,
    /// blocks, group}` (`group`: which item), so they are written back as
    /// items.
    leading: Vec<Value>,
    warnings: Vec<String>,
}

/// Which side of the conversation an item is on.
enum Side {
    Output,
    ToolOutput,
}

impl Reader {
    fn item(&mut self, item: Value) -> Result<(), String> {
        let Value::Object(obj) = item else {
            return Err("not an object".into());
        };
        let kind = obj.get("type").and_then(Value::as_str).map(str::to_string);
        if obj.contains_key("role") && matches!(kind.as_deref(), None | Some("message")) {
            return self.message(obj);
        }
        let kind = kind.ok_or("an item needs a `type` or a `role`")?;
        let (part, side) = match kind.as_str() {
            "reasoning" => {
                let text = reasoning_text(&obj);
                let part = Part::Reasoning {
                    text,
                    item: Value::Object(obj),
                    altered: false,
                };
                (PartRec::new(part), Side::Output)
            }
            "compaction" | "compaction_summary" => (
                PartRec::new(Part::Compaction {
                    item: Value::Object(obj),
                }),
                Side::Output,
            ),
            k if k.ends_with("_call_output") && obj.contains_key("call_id") => {
                (tool_output(obj)?, Side::ToolOutput)
            }
            k if k.ends_with("_call") && obj.contains_key("call_id") => {
                (tool_call(obj, k)?, Side::Output)
            }
            k => {
                if !KNOWN_OPAQUE.contains(&k) {
                    self.warnings.push(format!(
                        "input item of unknown type `{k}` carried as it came (not interpreted)"
                    ));
                }
                let side = if k.ends_with("_output") || k.ends_with("_response") {
                    Side::ToolOutput
                } else {
                    Side::Output
                };
                let mut rec = PartRec::new(Part::Opaque(Value::Object(obj)));
                rec.meta.insert(OPAQUE_ITEM.into(), true.into());
                (rec, side)
            }
        };
        match side {
            Side::Output => self.push_output(part),
            Side::ToolOutput => self.push_tool_output(part),
        }
        Ok(())
    }

    fn message(&mut self, mut obj: Map<String, Value>) -> Result<(), String> {
        let role = obj
            .get("role")
            .and_then(Value::as_str)
            .ok_or("`role` must be a string")?
            .to_string();
        let content = obj.remove("content").unwrap_or(Value::Null);
        let instruction_like = matches!(role.as_str(), "developer" | "system")
            || (role == "user" && is_harness_context(&content));
        if instruction_like && self.messages.is_empty() {
            if let Some(texts) = leading_texts(&content) {
                let group = self.leading.len();
                let item = Value::Object(obj);
                for text in texts {
                    self.leading.push(json!({
                        "text": text,
                        "item": item,
                        "blocks": content.is_array(),
                        "group": group,
                    }));
                    self.instructions.push(text);
                }
                return Ok(());
            }
        }
        let role_kind = match role.as_str() {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "developer" | "system" => Role::System,
            other => return Err(format!("unknown role `{other}`")),
        };
        let mut parts = content_parts(content, role_kind)?;
        if let Some(first) = parts.first_mut() {
            first.meta.insert(ITEM.into(), Value::Object(obj));
        }
        match role_kind {
            Role::Assistant => {
                for p in parts {
                    self.push_output(p);
                }
            }
            _ => {
                let mut msg = Message::new(role_kind, vec![]);
                msg.parts = parts;
                self.messages.push(msg);
            }
        }
        Ok(())
    }

    fn push_output(&mut self, part: PartRec) {
        match self.messages.last_mut() {
            Some(m) if m.role == Role::Assistant => m.parts.push(part),
            _ => {
                let mut m = Message::new(Role::Assistant, vec![]);
                m.parts.push(part);
                self.messages.push(m);
            }
        }
    }

    /// Tool outputs join the user-side group of outputs before them.
    fn push_tool_output(&mut self, part: PartRec) {
        match self.messages.last_mut() {
            Some(m) if m.role == Role::User && is_output_group(m) => m.parts.push(part),
            _ => {
                let mut m = Message::new(Role::User, vec![]);
                m.parts.push(part);
                self.messages.push(m);
            }
        }
    }
}

/// The texts of a developer or system item that can be instructions and be
/// written back the same way: a string, or plain `input_text` blocks (one
/// instruction each).
fn leading_texts(content: &Value) -> Option<Vec<String>> {
    match content {
        Value::String(s) => Some(vec![s.clone()]),
        Value::Array(blocks) if !blocks.is_empty() => blocks
            .iter()
            .map(|b| match b {
                Value::Object(b)
                    if b.len() == 2 && b.get("type") == Some(&Value::from("input_text")) =>
                {
                    b.get("text").and_then(Value::as_str).map(str::to_string)
                }
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// How the context an agent harness sends as user messages opens (Codex:
/// the environment, the user's instructions, AGENTS.md, a skill), compared
/// without case.
const HARNESS_CONTEXT_PREFIXES: &[&str] = &[
    "<environment_context>",
    "<user_instructions>",
    "# agents.md instructions",
    "<skill>",
];

/// Whether a text is context an agent harness sent as a user message.
pub(super) fn is_harness_context_text(text: &str) -> bool {
    let t = text.trim_start().to_lowercase();
    HARNESS_CONTEXT_PREFIXES.iter().any(|p| t.starts_with(p))
}

/// Whether user message content is wholly harness context: every text in it
/// opens as that context does.
pub(super) fn is_harness_context(content: &Value) -> bool {
    match content {
        Value::String(s) => is_harness_context_text(s),
        Value::Array(blocks) if !blocks.is_empty() => blocks.iter().all(|b| {
            b.get("text")
                .and_then(Value::as_str)
                .is_some_and(is_harness_context_text)
        }),
        _ => false,
    }
}

fn is_output_group(m: &Message) -> bool {
    !m.parts.is_empty()
        && m.parts
            .iter()
            .all(|p| matches!(p.part, Part::ToolResult { .. }) || p.meta.contains_key(OPAQUE_ITEM))
}

/// The readable text of a reasoning item: its summary and content texts.
fn reasoning_text(obj: &Map<String, Value>) -> String {
    let mut out = Vec::new();
    for key in ["summary", "content"] {
        if let Some(Value::Array(items)) = obj.get(key) {
            for i in items {
                if let Some(t) = i.get("text").and_then(Value::as_str) {
                    out.push(t.to_string());
                }
            }
        }
    }
    out.join("\n")
}

/// A message item's content as parts: text blocks become text (their other
/// fields kept in meta), other blocks stay opaque.
fn content_parts(content: Value, role: Role) -> Result<Vec<PartRec>, String> {
    let text = |s: String| match role {
        Role::System => Part::SystemText(s),
        _ => Part::Text(s),
    };
    match content {
        Value::String(s) => {
            let mut p = PartRec::new(text(s));
            p.meta.insert(STRING.into(), true.into());
            Ok(vec![p])
        }
        Value::Array(blocks) if blocks.is_empty() => {
            let mut p = PartRec::new(text(String::new()));
            p.meta.insert(EMPTY.into(), true.into());
            Ok(vec![p])
        }
        Value::Array(blocks) => Ok(blocks
            .into_iter()
            .map(|b| match b {
                Value::Object(mut o)
                    if matches!(
                        o.get("type").and_then(Value::as_str),
                        Some("input_text" | "output_text")
                    ) && o.get("text").is_some_and(Value::is_string) =>
                {
                    let t = match o.remove("text") {
                        Some(Value::String(t)) => t,
                        _ => String::new(),
                    };
                    PartRec {
                        part: text(t),
                        meta: o,
                    }
                }
                other => PartRec::new(Part::Opaque(other)),
            })
            .collect()),
        _ => Err("message `content` must be a string or a list".into()),
    }
}

fn take_string(obj: &mut Map<String, Value>, key: &str) -> Result<String, String> {
    match obj.remove(key) {
        Some(Value::String(s)) => Ok(s),
        _ => Err(format!("needs a string `{key}`")),
    }
}

/// A call item (`function_call`, `custom_tool_call`, `local_shell_call`,
/// `computer_call`, ...): its id, name and arguments; the rest in meta.
fn tool_call(mut obj: Map<String, Value>, kind: &str) -> Result<PartRec, String> {
    let id = take_string(&mut obj, "call_id")?;
    let mut meta = Map::new();
    let name = match obj.remove("name") {
        Some(Value::String(s)) => s,
        Some(other) => return Err(format!("`name` must be a string, not {other}")),
        None => {
            meta.insert(NO_NAME.into(), true.into());
            kind.trim_end_matches("_call").to_string()
        }
    };
    let field = ["arguments", "input", "action"]
        .into_iter()
        .find(|f| obj.contains_key(*f));
    let args = match field {
        Some(f) => {
            meta.insert(ARGS.into(), f.into());
            match obj.remove(f) {
                Some(Value::String(raw)) if f == "arguments" => {
                    let parsed = serde_json::from_str(&raw).unwrap_or(Value::String(raw.clone()));
                    meta.insert(RAW_ARGS.into(), raw.into());
                    parsed
                }
                Some(v) => v,
                None => Value::Null,
            }
        }
        None => Value::Null,
    };
    meta.extend(obj);
    Ok(PartRec {
        part: Part::ToolCall { id, name, args },
        meta,
    })
}

/// An output item (`function_call_output`, `custom_tool_call_output`, ...).
fn tool_output(mut obj: Map<String, Value>) -> Result<PartRec, String> {
    let id = take_string(&mut obj, "call_id")?;
    let content = obj.remove("output").unwrap_or(Value::Null);
    Ok(PartRec {
        part: Part::ToolResult {
            id,
            name: String::new(),
            content,
            is_error: false,
        },
        meta: obj,
    })
}

pub(super) fn render(t: &Transcript) -> Value {
    let mut body = Map::new();
    for (k, v) in &t.envelope {
        body.insert(k.clone(), v.clone());
    }
    let (leading, top) = split_instructions(t);
    if !top.is_empty() {
        body.insert("instructions".into(), top.join("\n\n").into());
    }
    let mut input = leading;
    for m in &t.messages {
        render_message(m, &mut input);
    }
    let single_string = t.instruction_style.get("input_string") == Some(&Value::Bool(true))
        && input.len() == 1
        && input[0].as_object().is_some_and(|o| {
            o.len() == 2 && o.get("role") == Some(&"user".into()) && o["content"].is_string()
        });
    if single_string {
        body.insert("input".into(), input[0]["content"].clone());
    } else {
        body.insert("input".into(), Value::Array(input));
    }
    if !t.tools.is_empty() || t.instruction_style.get("tools") == Some(&Value::Bool(true)) {
        body.insert("tools".into(), Value::Array(t.tools.clone()));
    }
    Value::Object(body)
}

/// The instructions written back as leading items (those that came as
/// leading items, matched by text; the blocks of one item back in one item)
/// and the rest, for the top-level `instructions`.
fn split_instructions(t: &Transcript) -> (Vec<Value>, Vec<String>) {
    let mut recorded: Vec<&Value> = match t.instruction_style.get("leading") {
        Some(Value::Array(items)) => items.iter().collect(),
        _ => Vec::new(),
    };
    let mut leading: Vec<Value> = Vec::new();
    let mut last_group = None;
    let mut top = Vec::new();
    for text in &t.instructions {
        let found = recorded
            .iter()
            .position(|r| r.get("text").and_then(Value::as_str) == Some(text.as_str()));
        let Some(i) = found else {
            top.push(text.clone());
            last_group = None;
            continue;
        };
        let r = recorded.remove(i);
        let group = r.get("group").and_then(Value::as_u64);
        let block = json!({"type": "input_text", "text": text});
        let blocks = r.get("blocks") == Some(&Value::Bool(true));
        let joined = match leading.last_mut() {
            Some(prev) if blocks && group.is_some() && group == last_group => prev
                .get_mut("content")
                .and_then(Value::as_array_mut)
                .map(|c| c.push(block.clone()))
                .is_some(),
            _ => false,
        };
        if !joined {
            let mut item = r
                .get("item")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let content = if blocks {
                Value::Array(vec![block])
            } else {
                Value::String(text.clone())
            };
            item.insert("content".into(), content);
            leading.push(Value::Object(item));
        }
        last_group = group;
    }
    (leading, top)
}

/// The message item being assembled from consecutive text and content parts.
struct Pending {
    item: Map<String, Value>,
    content: Vec<Value>,
    string: bool,
    empty: bool,
}

impl Pending {
    fn finish(self, out: &mut Vec<Value>) {
        let mut item = self.item;
        let content = if self.empty {
            Value::Array(Vec::new())
        } else if self.string && self.content.len() == 1 {
            self.content[0]
                .get("text")
                .cloned()
                .unwrap_or(Value::String(String::new()))
        } else {
            Value::Array(self.content)
        };
        item.insert("content".into(), content);
        out.push(Value::Object(item));
    }
}

fn role_name(m: &Message) -> &'static str {
    match m.role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::System => "developer",
    }
}

fn render_message(m: &Message, out: &mut Vec<Value>) {
    let mut pending: Option<Pending> = None;
    let flush = |p: &mut Option<Pending>, out: &mut Vec<Value>| {
        if let Some(p) = p.take() {
            p.finish(out);
        }
    };
    for p in &m.parts {
        let content_block = match &p.part {
            Part::Text(_) | Part::SystemText(_) => true,
            Part::Opaque(_) => !p.meta.contains_key(OPAQUE_ITEM),
            _ => false,
        };
        if !content_block {
            flush(&mut pending, out);
            if let Some(item) = render_item(p) {
                out.push(item);
            }
            continue;
        }
        if p.meta.contains_key(ITEM) || pending.is_none() {
            flush(&mut pending, out);
            pending = Some(new_pending(m, p));
        }
        if let Some(pending) = pending.as_mut() {
            pending.content.push(render_block(m, p));
        }
    }
    flush(&mut pending, out);
}

/// A message item opened by `p`: its recorded fields, or new ones.
fn new_pending(m: &Message, p: &PartRec) -> Pending {
    match p.meta.get(ITEM).and_then(Value::as_object) {
        Some(item) => Pending {
            item: item.clone(),
            content: Vec::new(),
            string: p.meta.get(STRING) == Some(&Value::Bool(true)),
            empty: p.meta.get(EMPTY) == Some(&Value::Bool(true)),
        },
        None => {
            let mut item = Map::new();
            item.insert("type".into(), "message".into());
            item.insert("role".into(), role_name(m).into());
            // A new item is a string when the message asks for it and this
            // is its only part (the head the rebuild writes).
            Pending {
                item,
                content: Vec::new(),
                string: m.string_content && m.parts.len() == 1,
                empty: false,
            }
        }
    }
}

fn render_block(m: &Message, p: &PartRec) -> Value {
    let text = match &p.part {
        Part::Text(s) | Part::SystemText(s) => s.clone(),
        Part::Opaque(v) => return v.clone(),
        other => other.visible_text(),
    };
    let mut block = Map::new();
    let kind = match m.role {
        Role::Assistant => "output_text",
        _ => "input_text",
    };
    block.insert(
        "type".into(),
        p.meta.get("type").cloned().unwrap_or(kind.into()),
    );
    block.insert("text".into(), text.into());
    for (k, v) in &p.meta {
        if !k.starts_with('_') && k != "type" {
            block.insert(k.clone(), v.clone());
        }
    }
    Value::Object(block)
}

/// An item that is not message content: a call, an output, reasoning,
/// compaction state or an opaque item. An altered reasoning item is never
/// written (it no longer matches its signature).
fn render_item(p: &PartRec) -> Option<Value> {
    let plain_meta = || -> Map<String, Value> {
        p.meta
            .iter()
            .filter(|(k, _)| !k.starts_with('_'))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    Some(match &p.part {
        Part::Reasoning { altered: true, .. } => return None,
        Part::Reasoning { item, .. } | Part::Compaction { item } | Part::Opaque(item) => {
            item.clone()
        }
        Part::ToolCall { id, name, args } => {
            let mut item = plain_meta();
            item.entry("type").or_insert("function_call".into());
            item.insert("call_id".into(), id.clone().into());
            if !p.meta.contains_key(NO_NAME) {
                item.insert("name".into(), name.clone().into());
            }
            let field = p
                .meta
                .get(ARGS)
                .and_then(Value::as_str)
                .unwrap_or("arguments");
            item.insert(field.into(), call_args(p, field, args));
            item
        }
        .into(),
        Part::ToolResult { id, content, .. }
        | Part::RetryPrompt {
            id: Some(id),
            content,
            ..
        } => {
            let mut item = plain_meta();
            item.entry("type").or_insert("function_call_output".into());
            item.insert("call_id".into(), id.clone().into());
            let output = match content {
                Value::String(_) | Value::Array(_) => content.clone(),
                other => Value::String(compact_json(other)),
            };
            item.insert("output".into(), output);
            item
        }
        .into(),
        Part::RetryPrompt {
            id: None, content, ..
        } => json!({
            "type": "message",
            "role": "user",
            "content": crate::transcript::value_text(content),
        }),
        Part::Text(_) | Part::SystemText(_) => return None,
    })
}

/// A call's arguments as the item writes them: `arguments` is a JSON string
/// (the one written, while the value is unchanged).
fn call_args(p: &PartRec, field: &str, args: &Value) -> Value {
    if field != "arguments" {
        return args.clone();
    }
    if let Some(Value::String(raw)) = p.meta.get(RAW_ARGS) {
        let same = serde_json::from_str::<Value>(raw)
            .map(|v| v == *args)
            .unwrap_or(*args == Value::String(raw.clone()));
        if same {
            return Value::String(raw.clone());
        }
    }
    match args {
        Value::String(s) => Value::String(s.clone()),
        other => Value::String(compact_json(other)),
    }
}
