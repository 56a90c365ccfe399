//! Blocking in a stream. The events of a tool call are held until the call
//! is whole, then passed on as they came, or replaced by a text notice when
//! the gate blocks it. Every other event passes on as it arrives, and an
//! event is never split or merged with another.
//! - Anthropic: from a `tool_use` block's `content_block_start` to its
//!   `content_block_stop`; a blocked block becomes a text block at the same
//!   index, and `stop_reason: tool_use` becomes `end_turn` when no call is
//!   left.
//! - Responses: from a call item's `response.output_item.added` to its
//!   `response.output_item.done`; a blocked item becomes a message item,
//!   in `response.completed` too.
//! - OpenAI chat: the chunks carrying `tool_calls` pieces, until the chunk
//!   that gives the finish reason; blocked calls' pieces are removed and a
//!   content chunk carries their notices.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{json, Value};

use crate::calls::{item_call, CallReader};
use crate::gate::Gate;
use crate::request::Endpoint;

/// One server-sent event: its bytes as they came, its event name and its
/// data read as JSON (`None` for `[DONE]` and anything else).
#[derive(Debug, Clone)]
struct Event {
    raw: Vec<u8>,
    name: Option<String>,
    data: Option<Value>,
}

impl Event {
    fn parse(raw: Vec<u8>) -> Self {
        let text = String::from_utf8_lossy(&raw);
        let mut name = None;
        let mut data = Vec::new();
        for line in text.lines() {
            if let Some(n) = line.strip_prefix("event:") {
                name = Some(n.trim().to_string());
            } else if let Some(d) = line.strip_prefix("data:") {
                data.push(d.strip_prefix(' ').unwrap_or(d));
            }
        }
        let data = serde_json::from_str(&data.join("\n")).ok();
        Event { raw, name, data }
    }

    /// A new event with this one's name and `data`.
    fn with_data(&self, data: &Value) -> Vec<u8> {
        let mut out = String::new();
        if let Some(n) = &self.name {
            out.push_str(&format!("event: {n}\n"));
        }
        out.push_str(&format!("data: {data}\n\n"));
        out.into_bytes()
    }

    fn kind(&self) -> &str {
        self.data
            .as_ref()
            .and_then(|d| d.get("type"))
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    fn field(&self, key: &str) -> Option<&Value> {
        self.data.as_ref().and_then(|d| d.get(key))
    }
}

/// The end of the first event in `buf`: after its blank line.
fn event_end(buf: &[u8]) -> Option<usize> {
    let lf = buf.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4);
    match (lf, crlf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Holds back a stream's tool calls for the gate.
pub struct Holder {
    ep: Endpoint,
    gate: Arc<Gate>,
    pending: Vec<u8>,
    held: Vec<Event>,
    kept_calls: bool,
    blocked_calls: bool,
}

impl Holder {
    pub fn new(ep: Endpoint, gate: Arc<Gate>) -> Self {
        Holder {
            ep,
            gate,
            pending: Vec::new(),
            held: Vec::new(),
            kept_calls: false,
            blocked_calls: false,
        }
    }

    /// The bytes to pass on now, given the next chunk.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<u8> {
        self.pending.extend_from_slice(chunk);
        let mut out = Vec::new();
        while let Some(end) = event_end(&self.pending) {
            let raw: Vec<u8> = self.pending.drain(..end).collect();
            for bytes in self.event(Event::parse(raw)) {
                out.extend(bytes);
            }
        }
        out
    }

    /// What is left when the upstream's stream ends: a call still held is
    /// judged on what arrived of it.
    pub fn finish(&mut self) -> Vec<u8> {
        let mut out = self.release(None).concat();
        out.append(&mut self.pending);
        out
    }

    fn event(&mut self, ev: Event) -> Vec<Vec<u8>> {
        match self.ep {
            Endpoint::Messages => self.anthropic(ev),
            Endpoint::Responses => self.responses(ev),
            Endpoint::Chat => self.chat(ev),
            Endpoint::CountTokens | Endpoint::Other => vec![ev.raw],
        }
    }

    fn anthropic(&mut self, ev: Event) -> Vec<Vec<u8>> {
        if let Some(first) = self.held.first() {
            let closes =
                ev.kind() == "content_block_stop" && ev.field("index") == first.field("index");
            self.held.push(ev);
            return if closes {
                self.release(None)
            } else {
                Vec::new()
            };
        }
        let starts_call = ev.kind() == "content_block_start"
            && ev
                .field("content_block")
                .is_some_and(crate::calls::is_tool_use);
        if starts_call {
            self.held.push(ev);
            return Vec::new();
        }
        let ends_for_calls = ev.kind() == "message_delta"
            && ev.field("delta").and_then(|d| d.get("stop_reason")) == Some(&json!("tool_use"));
        if ends_for_calls && self.blocked_calls && !self.kept_calls {
            let mut data = ev.data.clone().unwrap_or_default();
            data["delta"]["stop_reason"] = json!("end_turn");
            return vec![ev.with_data(&data)];
        }
        vec![ev.raw]
    }

    fn responses(&mut self, ev: Event) -> Vec<Vec<u8>> {
        if let Some(first) = self.held.first() {
            let closes = ev.kind() == "response.output_item.done"
                && ev.field("output_index") == first.field("output_index");
            self.held.push(ev);
            return if closes {
                self.release(None)
            } else {
                Vec::new()
            };
        }
        let starts_call = ev.kind() == "response.output_item.added"
            && ev.field("item").and_then(item_call).is_some();
        if starts_call {
            self.held.push(ev);
            return Vec::new();
        }
        if self.blocked_calls && ev.field("response").is_some() {
            let mut data = ev.data.clone().unwrap_or_default();
            if self
                .gate
                .rewrite_body(Endpoint::Responses, &mut data["response"])
            {
                return vec![ev.with_data(&data)];
            }
        }
        vec![ev.raw]
    }

    fn chat(&mut self, ev: Event) -> Vec<Vec<u8>> {
        let has_pieces = ev
            .field("choices")
            .and_then(Value::as_array)
            .is_some_and(|cs| cs.iter().any(|c| c["delta"].get("tool_calls").is_some()));
        let finishes = ev.data.is_none()
            || ev
                .field("choices")
                .and_then(Value::as_array)
                .is_some_and(|cs| cs.iter().any(|c| !c["finish_reason"].is_null()));
        if has_pieces && !finishes {
            self.held.push(ev);
            return Vec::new();
        }
        if self.held.is_empty() {
            return vec![ev.raw];
        }
        if has_pieces {
            self.held.push(ev);
            return self.release(None);
        }
        self.release(Some(ev))
    }

    /// Pass on the held events, or what replaces their blocked calls;
    /// `then` is the event that ended the hold, when it is not one of them.
    fn release(&mut self, then: Option<Event>) -> Vec<Vec<u8>> {
        let held = std::mem::take(&mut self.held);
        let mut out = if held.is_empty() {
            Vec::new()
        } else {
            match self.ep {
                Endpoint::Messages => self.release_block(held),
                Endpoint::Responses => self.release_item(held),
                _ => return self.release_chat(held, then),
            }
        };
        out.extend(then.map(|e| e.raw));
        out
    }

    fn release_block(&mut self, held: Vec<Event>) -> Vec<Vec<u8>> {
        let mut reader = CallReader::new(Endpoint::Messages);
        held.iter()
            .filter_map(|e| e.data.as_ref())
            .for_each(|d| reader.event(d));
        let call = reader.finish().into_iter().next();
        let Some(call) = call.filter(|c| self.gate.blocks(c)) else {
            self.kept_calls = true;
            return held.into_iter().map(|e| e.raw).collect();
        };
        self.blocked_calls = true;
        let index = held[0].field("index").cloned().unwrap_or(json!(0));
        let notice = self.gate.notice(&call);
        let name = |n: &str| Event {
            raw: Vec::new(),
            name: Some(n.into()),
            data: None,
        };
        vec![
            name("content_block_start").with_data(&json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}})),
            name("content_block_delta").with_data(&json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": notice}})),
            name("content_block_stop").with_data(&json!({"type": "content_block_stop", "index": index})),
        ]
    }

    fn release_item(&mut self, held: Vec<Event>) -> Vec<Vec<u8>> {
        let last = held
            .last()
            .filter(|e| e.kind() == "response.output_item.done");
        let item = last.or(held.first()).and_then(|e| e.field("item"));
        let Some(message) = item.and_then(|i| self.gate.blocked_item(i)) else {
            self.kept_calls = true;
            return held.into_iter().map(|e| e.raw).collect();
        };
        self.blocked_calls = true;
        let replaced = |e: &Event, kind: &str| {
            let mut data = e.data.clone().unwrap_or_default();
            data["type"] = json!(kind);
            data["item"] = message.clone();
            e.with_data(&data)
        };
        let first = &held[0];
        let done = held.last().unwrap_or(first);
        vec![
            replaced(first, "response.output_item.added"),
            replaced(done, "response.output_item.done"),
        ]
    }

    /// The held chat chunks without the blocked calls' pieces, a chunk with
    /// their notices, then `then` (the finishing chunk).
    fn release_chat(&mut self, held: Vec<Event>, then: Option<Event>) -> Vec<Vec<u8>> {
        let blocked = self.blocked_chat_calls(&held);
        if blocked.is_empty() {
            self.kept_calls = true;
            return held.into_iter().chain(then).map(|e| e.raw).collect();
        }
        self.blocked_calls = true;
        let mut out: Vec<Vec<u8>> = held
            .iter()
            .filter_map(|e| without_pieces(e, &blocked))
            .collect();
        let template = held[0].data.clone().unwrap_or_default();
        let notices: Vec<String> = blocked.iter().map(|(_, _, n)| n.clone()).collect();
        let mut chunk = template.clone();
        chunk["choices"] = json!([{"index": blocked[0].0, "delta": {"content": notices.join("\n")}, "finish_reason": null}]);
        out.push(held[0].with_data(&chunk));
        let calls_left = out.len() > 1;
        if let Some(e) = then {
            let mut data = e.data.clone();
            if let Some(cs) = data.as_mut().and_then(|d| d["choices"].as_array_mut()) {
                for c in cs.iter_mut().filter(|c| c["finish_reason"] == "tool_calls") {
                    if !calls_left {
                        c["finish_reason"] = json!("stop");
                    }
                }
            }
            out.push(match data {
                Some(d) => e.with_data(&d),
                None => e.raw,
            });
        }
        out
    }

    /// (choice index, call index, notice) of each blocked call.
    fn blocked_chat_calls(&self, held: &[Event]) -> Vec<(u64, u64, String)> {
        let mut keys = BTreeSet::new();
        for e in held {
            for c in e
                .field("choices")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                for p in c["delta"]["tool_calls"].as_array().into_iter().flatten() {
                    keys.insert((
                        c["index"].as_u64().unwrap_or(0),
                        p["index"].as_u64().unwrap_or(0),
                    ));
                }
            }
        }
        keys.into_iter()
            .filter_map(|(choice, call)| {
                let mut reader = CallReader::new(Endpoint::Chat);
                for e in held.iter().filter_map(|e| e.data.as_ref()) {
                    reader.event(&only_piece(e, choice, call));
                }
                let c = reader.finish().into_iter().next()?;
                self.gate
                    .blocks(&c)
                    .then(|| (choice, call, self.gate.notice(&c)))
            })
            .collect()
    }
}

/// A chat chunk with only the pieces of one call.
fn only_piece(data: &Value, choice: u64, call: u64) -> Value {
    let mut d = data.clone();
    for c in d["choices"].as_array_mut().into_iter().flatten() {
        let mine = c["index"].as_u64().unwrap_or(0) == choice;
        if let Some(ps) = c["delta"]["tool_calls"].as_array_mut() {
            ps.retain(|p| mine && p["index"].as_u64().unwrap_or(0) == call);
        }
    }
    d
}

/// A held chat chunk without the blocked calls' pieces; `None` when
/// nothing else was in it.
fn without_pieces(e: &Event, blocked: &[(u64, u64, String)]) -> Option<Vec<u8>> {
    let mut d = e.data.clone()?;
    let mut left = false;
    for c in d["choices"].as_array_mut().into_iter().flatten() {
        let choice = c["index"].as_u64().unwrap_or(0);
        if let Some(ps) = c["delta"]["tool_calls"].as_array_mut() {
            ps.retain(|p| {
                let call = p["index"].as_u64().unwrap_or(0);
                !blocked.iter().any(|(b, k, _)| *b == choice && *k == call)
            });
            left |= !ps.is_empty();
        }
        let other = c["delta"].as_object().is_some_and(|o| {
            o.iter()
                .any(|(k, v)| k != "tool_calls" && k != "role" && !v.is_null())
        });
        left |= other;
    }
    left.then(|| e.with_data(&d))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate() -> Arc<Gate> {
        let dir = std::env::temp_dir();
        Arc::new(crate::gate::tests::gate(true, &dir))
    }

    fn sse(events: &[(Option<&str>, Value)]) -> Vec<u8> {
        events
            .iter()
            .flat_map(|(n, d)| {
                let mut s = String::new();
                if let Some(n) = n {
                    s.push_str(&format!("event: {n}\n"));
                }
                s.push_str(&format!("data: {d}\n\n"));
                s.into_bytes()
            })
            .collect()
    }

    fn datas(bytes: &[u8]) -> Vec<Value> {
        String::from_utf8_lossy(bytes)
            .split("\n\n")
            .filter_map(|e| e.lines().find_map(|l| l.strip_prefix("data: ")))
            .filter_map(|d| serde_json::from_str(d).ok())
            .collect()
    }

    /// Feed `bytes` a few bytes at a time, as a network would.
    fn through(h: &mut Holder, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for piece in bytes.chunks(7) {
            out.extend(h.feed(piece));
        }
        out.extend(h.finish());
        out
    }

    fn anthropic_call(index: u64, name: &str, args: &str) -> Vec<(Option<&'static str>, Value)> {
        vec![
            (
                Some("content_block_start"),
                json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": format!("t{index}"), "name": name, "input": {}}}),
            ),
            (
                Some("content_block_delta"),
                json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": args}}),
            ),
            (
                Some("content_block_stop"),
                json!({"type": "content_block_stop", "index": index}),
            ),
        ]
    }

    #[test]
    fn an_allowed_anthropic_stream_passes_byte_for_byte() {
        let mut events = vec![(
            Some("message_start"),
            json!({"type": "message_start", "message": {}}),
        )];
        events.extend(anthropic_call(0, "lookup", "{\"id\": 1}"));
        events.push((
            Some("message_delta"),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        ));
        let bytes = sse(&events);
        let mut h = Holder::new(Endpoint::Messages, gate());
        assert_eq!(through(&mut h, &bytes), bytes);
    }

    #[test]
    fn a_blocked_anthropic_call_becomes_a_text_block_and_the_turn_ends() {
        let mut events = vec![(
            Some("message_start"),
            json!({"type": "message_start", "message": {}}),
        )];
        events.extend(anthropic_call(0, "email_customer", "{\"to\": \"x\"}"));
        events.push((
            Some("message_delta"),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}}),
        ));
        let mut h = Holder::new(Endpoint::Messages, gate());
        let out = datas(&through(&mut h, &sse(&events)));
        assert_eq!(out.len(), 5);
        assert_eq!(out[1]["content_block"]["type"], "text");
        assert!(out[2]["delta"]["text"]
            .as_str()
            .unwrap()
            .contains("no-contact"));
        assert_eq!(out[4]["delta"]["stop_reason"], "end_turn");
        assert!(!out
            .iter()
            .any(|d| d.to_string().contains("email_customer\",\"input")));
    }

    #[test]
    fn responses_blocked_item_is_replaced_in_the_stream_and_the_final_response() {
        let call = json!({"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "email_customer", "arguments": ""});
        let mut done = call.clone();
        done["arguments"] = json!("{}");
        let events = vec![
            (
                Some("response.output_item.added"),
                json!({"type": "response.output_item.added", "output_index": 0, "sequence_number": 1, "item": call}),
            ),
            (
                Some("response.function_call_arguments.delta"),
                json!({"type": "response.function_call_arguments.delta", "output_index": 0, "delta": "{}"}),
            ),
            (
                Some("response.output_item.done"),
                json!({"type": "response.output_item.done", "output_index": 0, "sequence_number": 3, "item": done}),
            ),
            (
                Some("response.completed"),
                json!({"type": "response.completed", "response": {"output": [done]}}),
            ),
        ];
        let mut h = Holder::new(Endpoint::Responses, gate());
        let out = datas(&through(&mut h, &sse(&events)));
        let kinds: Vec<&str> = out.iter().map(|d| d["type"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            [
                "response.output_item.added",
                "response.output_item.done",
                "response.completed"
            ]
        );
        assert_eq!(out[0]["item"]["type"], "message");
        assert_eq!(out[2]["response"]["output"][0]["type"], "message");
    }

    #[test]
    fn chat_keeps_allowed_pieces_and_drops_blocked_ones() {
        let chunk = |delta: Value, finish: Value| json!({"id": "x", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
        let events = vec![
            (
                None,
                chunk(json!({"role": "assistant", "content": "ok"}), Value::Null),
            ),
            (
                None,
                chunk(
                    json!({"tool_calls": [{"index": 0, "id": "a", "function": {"name": "lookup", "arguments": "{}"}}]}),
                    Value::Null,
                ),
            ),
            (
                None,
                chunk(
                    json!({"tool_calls": [{"index": 1, "id": "b", "function": {"name": "email_customer", "arguments": "{}"}}]}),
                    Value::Null,
                ),
            ),
            (None, chunk(json!({}), json!("tool_calls"))),
        ];
        let mut bytes = sse(&events);
        bytes.extend(b"data: [DONE]\n\n");
        let mut h = Holder::new(Endpoint::Chat, gate());
        let raw = through(&mut h, &bytes);
        let out = datas(&raw);
        let text: String = out.iter().map(|d| d.to_string()).collect();
        assert!(
            text.contains("lookup") && !text.contains("\"name\":\"email_customer\""),
            "{text}"
        );
        assert!(text.contains("no-contact"));
        assert_eq!(
            out.last().unwrap()["choices"][0]["finish_reason"],
            "tool_calls"
        );
        assert!(raw.ends_with(b"data: [DONE]\n\n"));
    }
}
