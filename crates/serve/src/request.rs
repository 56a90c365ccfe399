//! The pure side of a request: which endpoint it is, whether the client
//! compacts with the provider (we step aside), which conversation it
//! belongs to, the hash of a prefix of its messages, and splicing new
//! turns after a compacted prefix.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The endpoints the proxy reads; every other path is forwarded untouched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// Anthropic `POST /v1/messages`.
    Messages,
    /// Anthropic `POST /v1/messages/count_tokens`: spliced, never compacted.
    CountTokens,
    /// OpenAI `POST /v1/chat/completions`.
    Chat,
    /// OpenAI `POST /v1/responses`.
    Responses,
    Other,
}

impl Endpoint {
    pub fn name(self) -> &'static str {
        match self {
            Endpoint::Messages => "messages",
            Endpoint::CountTokens => "count_tokens",
            Endpoint::Chat => "chat_completions",
            Endpoint::Responses => "responses",
            Endpoint::Other => "other",
        }
    }

    /// Whether the upstream is Anthropic's.
    pub fn anthropic(self) -> bool {
        matches!(self, Endpoint::Messages | Endpoint::CountTokens)
    }

    /// The array of turns: `messages`, or the Responses API's `input`.
    pub fn list_key(self) -> &'static str {
        match self {
            Endpoint::Responses => "input",
            _ => "messages",
        }
    }

    /// Fields a compaction rewrites besides the turns: the instructions
    /// and tool schemas. Every other field comes from the client each turn.
    pub fn head_keys(self) -> &'static [&'static str] {
        match self {
            Endpoint::Messages | Endpoint::CountTokens => &["system", "tools"],
            Endpoint::Chat => &["tools"],
            Endpoint::Responses => &["instructions", "tools"],
            Endpoint::Other => &[],
        }
    }
}

/// Block and item types that carry the provider's own compaction.
const PROVIDER_COMPACTION: &[&str] = &["compaction", "compaction_summary"];

fn is_compaction(v: &Value) -> bool {
    v.get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| PROVIDER_COMPACTION.contains(&t))
}

/// The client compacts with the provider: `context_management` with any
/// edit but a thinking clear, or a compaction block (Anthropic) or item
/// (Responses) in its turns.
pub fn provider_compaction(body: &Value, ep: Endpoint) -> bool {
    if body
        .get("context_management")
        .is_some_and(|m| !only_clears_thinking(m))
    {
        return true;
    }
    items(body, ep).iter().any(|m| {
        is_compaction(m)
            || m.get("content")
                .and_then(Value::as_array)
                .is_some_and(|blocks| blocks.iter().any(is_compaction))
    })
}

/// Anthropic context edits that only clear old thinking blocks (Claude
/// Code sends `clear_thinking_*` with `keep: all` on every request): the
/// provider leaves the turns as they are, so they are ours to compact. Any
/// other shape or edit (clearing tool results, `compact_*`) is the
/// provider's management of the context.
fn only_clears_thinking(management: &Value) -> bool {
    let Some(edits) = management.get("edits").and_then(Value::as_array) else {
        return false;
    };
    let only_key = management.as_object().is_some_and(|o| o.len() == 1);
    only_key
        && edits.iter().all(|e| {
            e.get("type")
                .and_then(Value::as_str)
                .is_some_and(|t| t.starts_with("clear_thinking_"))
        })
}

/// The request's turns (empty when absent or a plain string).
pub fn items(body: &Value, ep: Endpoint) -> &[Value] {
    body.get(ep.list_key())
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

fn feed(h: &mut Sha256, v: Option<&Value>) {
    // serde_json writes a parsed value the same way each time: the hash
    // does not depend on the client's whitespace.
    if let Some(v) = v {
        h.update(serde_json::to_vec(&without_cache_marks(v)).unwrap_or_default());
    }
    h.update([0u8]);
}

/// `v` without its `cache_control` marks. They are caching hints, not
/// content, and clients move them: Claude Code marks its latest turn, so a
/// turn marked in one request is unmarked in the next.
fn without_cache_marks(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| k.as_str() != "cache_control")
                .map(|(k, v)| (k.clone(), without_cache_marks(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(without_cache_marks).collect()),
        other => other.clone(),
    }
}

/// One conversation, across turns: the instructions and its first two
/// turns, as the client sends them (compaction never changes what the
/// client sends), cache marks aside.
pub fn conversation_id(body: &Value, ep: Endpoint) -> String {
    let mut h = Sha256::new();
    h.update(ep.list_key());
    feed(
        &mut h,
        body.get("system").or_else(|| body.get("instructions")),
    );
    for m in items(body, ep).iter().take(2) {
        feed(&mut h, Some(m));
    }
    hex::encode(&h.finalize()[..8])
}

/// The hash of the head fields and the first `n` turns, cache marks aside.
pub fn prefix_hash(body: &Value, ep: Endpoint, n: usize) -> Option<String> {
    let list = items(body, ep);
    if list.len() < n {
        return None;
    }
    let mut h = Sha256::new();
    for k in ep.head_keys() {
        feed(&mut h, body.get(*k));
    }
    for m in &list[..n] {
        feed(&mut h, Some(m));
    }
    Some(hex::encode(h.finalize()))
}

/// The client's first `original_len` turns (with its head fields), hashed,
/// stood for by the compacted request we sent in their place.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Mapping {
    pub original_len: usize,
    pub original_hash: String,
    /// The compacted request as sent: its head fields and turns are the
    /// prefix every later turn starts with.
    pub compacted: Value,
}

impl Mapping {
    pub fn matches(&self, body: &Value, ep: Endpoint) -> bool {
        prefix_hash(body, ep, self.original_len).as_deref() == Some(&self.original_hash)
    }
}

/// The longest mapping whose original prefix this request starts with.
pub fn best<'a>(maps: &'a [Mapping], body: &Value, ep: Endpoint) -> Option<&'a Mapping> {
    maps.iter()
        .filter(|m| m.matches(body, ep))
        .max_by_key(|m| m.original_len)
}

/// The compacted request's head and turns, then the client's turns after
/// the mapped prefix; every other field as the client sent it this turn.
pub fn splice(body: &Value, ep: Endpoint, m: &Mapping) -> Option<Value> {
    let client = body.as_object()?;
    let compacted = m.compacted.as_object()?;
    let new = items(body, ep).get(m.original_len..)?;
    let prefix = compacted.get(ep.list_key())?.as_array()?;
    let reused = |k: &str| ep.head_keys().contains(&k) || k == ep.list_key();
    let mut out = Map::new();
    for (k, v) in compacted {
        if reused(k) {
            out.insert(k.clone(), v.clone());
        } else if let Some(c) = client.get(k) {
            out.insert(k.clone(), c.clone());
        }
    }
    for (k, v) in client {
        if !reused(k) && !out.contains_key(k) {
            out.insert(k.clone(), v.clone());
        }
    }
    let mut turns = prefix.clone();
    turns.extend(new.iter().cloned());
    out.insert(ep.list_key().into(), Value::Array(turns));
    let mut out = Value::Object(out);
    if ep.anthropic() {
        cap_cache_breakpoints(&mut out, prefix.len());
    }
    Some(out)
}

/// Anthropic allows 4 `cache_control` breakpoints. The compacted prefix
/// keeps the one the client had put on its last turn, and the client adds
/// its own on the new turns: over 4, the prefix's go first, oldest first.
pub const MAX_BREAKPOINTS: usize = 4;

fn breakpoints(v: &Value) -> usize {
    match v {
        Value::Object(o) => {
            usize::from(o.contains_key("cache_control"))
                + o.values().map(breakpoints).sum::<usize>()
        }
        Value::Array(a) => a.iter().map(breakpoints).sum(),
        _ => 0,
    }
}

fn cap_cache_breakpoints(body: &mut Value, prefix_len: usize) {
    let mut over = breakpoints(body).saturating_sub(MAX_BREAKPOINTS);
    let Some(turns) = body.get_mut("messages").and_then(Value::as_array_mut) else {
        return;
    };
    for m in turns.iter_mut().take(prefix_len) {
        let Some(blocks) = m.get_mut("content").and_then(Value::as_array_mut) else {
            continue;
        };
        for b in blocks.iter_mut().filter_map(Value::as_object_mut) {
            if over > 0 && b.remove("cache_control").is_some() {
                over -= 1;
            }
        }
    }
}
