//! The tool calls in a provider's answer, read the way the answer comes:
//! whole (a JSON body) or as server-sent events, in each API's shape.
//! - Anthropic: `tool_use` content blocks; streamed, a
//!   `content_block_start` then `input_json_delta` pieces until
//!   `content_block_stop`.
//! - OpenAI chat: `message.tool_calls`; streamed, `delta.tool_calls`
//!   pieces keyed by choice and call index.
//! - Responses: `function_call`, `custom_tool_call` and
//!   `local_shell_call` output items; streamed, each item whole in
//!   `response.output_item.done`.

use std::collections::BTreeMap;

use continuity_core::governance::preflight::ToolCall;
use serde_json::{json, Value};

use crate::request::Endpoint;

/// A call whose arguments are still arriving.
#[derive(Debug, Default)]
struct Partial {
    id: Option<String>,
    name: String,
    /// Arguments given whole at the start (Anthropic's `input`, when it is
    /// not the empty object the deltas fill).
    input: Option<Value>,
    /// Argument text from the deltas, concatenated.
    text: String,
}

impl Partial {
    fn call(self) -> ToolCall {
        let args = if self.text.trim().is_empty() {
            self.input.unwrap_or(Value::Null)
        } else {
            Value::String(self.text)
        };
        let mut c = ToolCall::new(&self.name, args);
        c.id = self.id;
        c
    }
}

/// Collects the tool calls of one answer, in the order they complete.
#[derive(Debug)]
pub struct CallReader {
    ep: Endpoint,
    open: BTreeMap<(u64, u64), Partial>,
    done: Vec<ToolCall>,
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn index(v: &Value) -> u64 {
    v.get("index").and_then(Value::as_u64).unwrap_or(0)
}

impl CallReader {
    pub fn new(ep: Endpoint) -> Self {
        CallReader {
            ep,
            open: BTreeMap::new(),
            done: Vec::new(),
        }
    }

    /// One event's data.
    pub fn event(&mut self, v: &Value) {
        match self.ep {
            Endpoint::Messages => self.anthropic_event(v),
            Endpoint::Chat => self.chat_event(v),
            Endpoint::Responses => {
                if v.get("type").and_then(Value::as_str) == Some("response.output_item.done") {
                    if let Some(c) = v.get("item").and_then(item_call) {
                        self.done.push(c);
                    }
                }
            }
            Endpoint::CountTokens | Endpoint::Other => {}
        }
    }

    /// A whole (not streamed) answer.
    pub fn body(&mut self, v: &Value) {
        self.done.extend(calls_in_body(self.ep, v));
    }

    /// Every call read, those still open included (a stream cut short).
    pub fn finish(&mut self) -> Vec<ToolCall> {
        let open = std::mem::take(&mut self.open);
        self.done.extend(open.into_values().map(Partial::call));
        std::mem::take(&mut self.done)
    }

    fn anthropic_event(&mut self, v: &Value) {
        let key = (0, index(v));
        match v.get("type").and_then(Value::as_str) {
            Some("content_block_start") => {
                let Some(block) = v.get("content_block").filter(|b| is_tool_use(b)) else {
                    return;
                };
                let input = block
                    .get("input")
                    .filter(|i| i.as_object().is_none_or(|o| !o.is_empty()))
                    .cloned();
                self.open.insert(
                    key,
                    Partial {
                        id: text(block, "id"),
                        name: text(block, "name").unwrap_or_default(),
                        input,
                        text: String::new(),
                    },
                );
            }
            Some("content_block_delta") => {
                let piece = v.get("delta").and_then(|d| d.get("partial_json"));
                if let (Some(p), Some(piece)) = (self.open.get_mut(&key), piece) {
                    p.text.push_str(piece.as_str().unwrap_or_default());
                }
            }
            Some("content_block_stop") => {
                if let Some(p) = self.open.remove(&key) {
                    self.done.push(p.call());
                }
            }
            _ => {}
        }
    }

    fn chat_event(&mut self, v: &Value) {
        let choices = v.get("choices").and_then(Value::as_array);
        for choice in choices.into_iter().flatten() {
            let Some(pieces) = choice
                .get("delta")
                .and_then(|d| d.get("tool_calls"))
                .and_then(Value::as_array)
            else {
                continue;
            };
            for piece in pieces {
                let p = self.open.entry((index(choice), index(piece))).or_default();
                if let Some(id) = text(piece, "id") {
                    p.id = Some(id);
                }
                let f = piece.get("function");
                if let Some(name) = f.and_then(|f| text(f, "name")) {
                    p.name.push_str(&name);
                }
                if let Some(args) = f.and_then(|f| f.get("arguments")).and_then(Value::as_str) {
                    p.text.push_str(args);
                }
            }
        }
    }
}

/// A content block the client runs as a tool (server tools run upstream).
pub fn is_tool_use(block: &Value) -> bool {
    block.get("type").and_then(Value::as_str) == Some("tool_use")
}

/// An Anthropic `tool_use` block as a call.
pub fn block_call(block: &Value) -> Option<ToolCall> {
    if !is_tool_use(block) {
        return None;
    }
    let mut c = ToolCall::new(
        block.get("name")?.as_str()?,
        block.get("input").cloned().unwrap_or(Value::Null),
    );
    c.id = text(block, "id");
    Some(c)
}

/// An OpenAI chat `tool_calls` entry as a call.
pub fn chat_call(entry: &Value) -> Option<ToolCall> {
    let f = entry.get("function")?;
    let mut c = ToolCall::new(
        f.get("name")?.as_str()?,
        f.get("arguments").cloned().unwrap_or(Value::Null),
    );
    c.id = text(entry, "id");
    Some(c)
}

/// A Responses output item the client runs, as a call.
pub fn item_call(item: &Value) -> Option<ToolCall> {
    let (name, args) = match item.get("type")?.as_str()? {
        "function_call" => (
            text(item, "name")?,
            item.get("arguments").cloned().unwrap_or(Value::Null),
        ),
        "custom_tool_call" => (
            text(item, "name")?,
            json!({"input": item.get("input").cloned().unwrap_or(Value::Null)}),
        ),
        "local_shell_call" => (
            "local_shell".to_string(),
            item.get("action").cloned().unwrap_or(Value::Null),
        ),
        _ => return None,
    };
    let mut c = ToolCall::new(&name, args);
    c.id = text(item, "call_id").or_else(|| text(item, "id"));
    Some(c)
}

/// Every call in a whole answer.
pub fn calls_in_body(ep: Endpoint, v: &Value) -> Vec<ToolCall> {
    let list = |key: &str| -> Vec<Value> {
        v.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    match ep {
        Endpoint::Messages => list("content").iter().filter_map(block_call).collect(),
        Endpoint::Chat => list("choices")
            .iter()
            .filter_map(|c| c.get("message")?.get("tool_calls")?.as_array().cloned())
            .flatten()
            .filter_map(|e| chat_call(&e))
            .collect(),
        Endpoint::Responses => list("output").iter().filter_map(item_call).collect(),
        Endpoint::CountTokens | Endpoint::Other => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(calls: &[ToolCall]) -> Vec<(String, Value)> {
        calls
            .iter()
            .map(|c| (c.name.clone(), c.args.clone()))
            .collect()
    }

    #[test]
    fn an_anthropic_stream_assembles_the_input_from_its_pieces() {
        let mut r = CallReader::new(Endpoint::Messages);
        for v in [
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "email_customer", "input": {}}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"to\": \"a"}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "b\"}"}}),
            json!({"type": "content_block_stop", "index": 1}),
            json!({"type": "content_block_stop", "index": 0}),
        ] {
            r.event(&v);
        }
        let calls = r.finish();
        assert_eq!(
            names(&calls),
            vec![("email_customer".into(), json!({"to": "ab"}))]
        );
        assert_eq!(calls[0].id.as_deref(), Some("toolu_1"));
    }

    #[test]
    fn chat_pieces_join_per_call_index() {
        let mut r = CallReader::new(Endpoint::Chat);
        for v in [
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c1", "function": {"name": "read", "arguments": "{\"pa"}}]}}]}),
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 1, "id": "c2", "function": {"name": "rm", "arguments": "{}"}}]}}]}),
            json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "th\": \"x\"}"}}]}}]}),
        ] {
            r.event(&v);
        }
        assert_eq!(
            names(&r.finish()),
            vec![
                ("read".into(), json!({"path": "x"})),
                ("rm".into(), json!({}))
            ]
        );
    }

    #[test]
    fn responses_items_are_read_when_done_and_in_whole_bodies() {
        let item = json!({"type": "function_call", "call_id": "call_9", "name": "shell", "arguments": "{\"cmd\": \"ls\"}"});
        let mut r = CallReader::new(Endpoint::Responses);
        r.event(&json!({"type": "response.output_item.added", "item": item}));
        r.event(&json!({"type": "response.output_item.done", "item": item}));
        let streamed = r.finish();
        assert_eq!(
            names(&streamed),
            vec![("shell".into(), json!({"cmd": "ls"}))]
        );
        let whole = calls_in_body(
            Endpoint::Responses,
            &json!({"output": [{"type": "message", "content": []}, item]}),
        );
        assert_eq!(whole, streamed);
    }

    #[test]
    fn whole_anthropic_and_chat_bodies() {
        let a = json!({"content": [{"type": "text", "text": "ok"}, {"type": "tool_use", "id": "t", "name": "get_invoice", "input": {"id": 7}}]});
        assert_eq!(
            names(&calls_in_body(Endpoint::Messages, &a)),
            vec![("get_invoice".into(), json!({"id": 7}))]
        );
        let c = json!({"choices": [{"message": {"tool_calls": [{"id": "x", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}]}}]});
        assert_eq!(
            names(&calls_in_body(Endpoint::Chat, &c)),
            vec![("f".into(), json!({"a": 1}))]
        );
    }
}
