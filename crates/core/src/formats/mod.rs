//! Adapters between request formats and the internal [`Transcript`].
//!
//! [`open`] detects the input: a request body (Anthropic Messages, OpenAI
//! Chat Completions, OpenAI Responses, a Pydantic AI history) or a session
//! transcript in JSON lines (Claude Code, Codex CLI), read as the request
//! the agent would have sent at a chosen point ([`At`]). `render` writes a
//! transcript back in its own format; `check_conversation` enforces the
//! tool-call rules every API shares.

mod anthropic;
mod claude_code;
mod codex;
mod jsonl;
mod openai;
mod pydantic;
mod repair;
mod responses;
mod session;

use serde_json::Value;

use crate::error::{InputError, Source};
use crate::transcript::{Format, Part, Role, Transcript};

pub use session::{AgentCompaction, At, Origin, Read, RecordedUsage, Warning};

/// An input, opened: a request body, or a session transcript that can be
/// read at any point.
#[derive(Debug, Clone)]
pub enum Document {
    Request { value: Value, source: Source },
    ClaudeCode(claude_code::Log),
    Codex(codex::Log),
}

impl Document {
    /// The input's format: a request format's name, `claude-code` or
    /// `codex-rollout`.
    pub fn kind(&self) -> &'static str {
        match self {
            Document::Request { value, .. } => detect(value).map(Format::name).unwrap_or("unknown"),
            Document::ClaudeCode(_) => claude_code::NAME,
            Document::Codex(_) => codex::NAME,
        }
    }

    /// The compactions the agent made, as the transcript records them.
    pub fn compactions(&self) -> &[AgentCompaction] {
        match self {
            Document::Request { .. } => &[],
            Document::ClaudeCode(log) => log.compactions(),
            Document::Codex(log) => log.compactions(),
        }
    }

    /// Every request whose provider usage the transcript records, in order
    /// (none for a request body).
    pub fn recorded_usage(&self) -> &[RecordedUsage] {
        match self {
            Document::Request { .. } => &[],
            Document::ClaudeCode(log) => log.recorded_usage(),
            Document::Codex(log) => log.recorded_usage(),
        }
    }

    /// The request at `at` (a request body has only one point).
    pub fn read(&self, at: At) -> Result<Read, InputError> {
        match self {
            Document::Request { value, source } => {
                // Detected first: a file of no format is that, at any point.
                let (transcript, warnings) = parse_request(value, source)?;
                if at != At::Last {
                    return Err(InputError::BadPoint {
                        file: source.clone(),
                        at: at.to_string(),
                        message: "a request body has one point only; `--at` applies to session transcripts (Claude Code, Codex)".into(),
                    });
                }
                let mut origin = Origin::request(transcript.format.name());
                origin.warnings = warnings;
                Ok(Read { transcript, origin })
            }
            Document::ClaudeCode(log) => log.read(at),
            Document::Codex(log) => log.read(at),
        }
    }
}

/// Open raw bytes: one JSON document (a request body), or JSON lines (a
/// session transcript).
pub fn open(bytes: &[u8], source: &Source) -> Result<Document, InputError> {
    let whole = match serde_json::from_slice::<Value>(bytes) {
        Ok(value) if !jsonl::looks_like_a_transcript_line(&value) => {
            return Ok(Document::Request {
                value,
                source: source.clone(),
            })
        }
        whole => whole,
    };
    match jsonl::detect(bytes) {
        Some(jsonl::Kind::ClaudeCode) => Ok(Document::ClaudeCode(claude_code::Log::parse(
            bytes, source,
        )?)),
        Some(jsonl::Kind::Codex) => Ok(Document::Codex(codex::Log::parse(bytes, source)?)),
        None => match whole {
            Ok(value) => Ok(Document::Request {
                value,
                source: source.clone(),
            }),
            Err(e) if jsonl::first_line_is_json(bytes) => Err(InputError::UnknownFormat {
                file: source.clone(),
                reason: format!("JSON lines that are neither a Claude Code transcript nor a Codex rollout (as one JSON document: {e})"),
            }),
            Err(e) => Err(InputError::MalformedJson {
                file: source.clone(),
                line: e.line(),
                column: e.column(),
                message: e.to_string(),
            }),
        },
    }
}

/// Open and read at `at`.
pub fn read(bytes: &[u8], source: &Source, at: At) -> Result<Read, InputError> {
    open(bytes, source)?.read(at)
}

/// Parse raw bytes into a transcript: a request body, or a session
/// transcript at its last point. Warnings are dropped; [`read`] returns
/// them.
pub fn parse_bytes(bytes: &[u8], source: &Source) -> Result<Transcript, InputError> {
    Ok(read(bytes, source, At::Last)?.transcript)
}

pub fn parse_value(value: &Value, source: &Source) -> Result<Transcript, InputError> {
    Ok(parse_request(value, source)?.0)
}

/// Whether reading failed because the input is not a session or request of
/// any format we read (its format is not detected: a configuration file, a
/// report), rather than because a session we recognise is malformed. A
/// folder run skips those.
pub fn is_not_a_session(e: &InputError) -> bool {
    matches!(e, InputError::UnknownFormat { .. })
}

/// What a document that is shaped as a request but detected as none is
/// called in its error: it is a malformed request, not some other file.
fn request_shape(value: &Value) -> Option<&'static str> {
    match value {
        Value::Object(obj) if obj.contains_key("messages") => Some("Messages or Chat Completions"),
        Value::Array(items)
            if items.iter().any(|m| {
                matches!(
                    m.get("kind").and_then(Value::as_str),
                    Some("request" | "response")
                )
            }) =>
        {
            Some(Format::PydanticAi.name())
        }
        _ => None,
    }
}

/// A request body and the warnings of its adapter.
fn parse_request(value: &Value, source: &Source) -> Result<(Transcript, Vec<Warning>), InputError> {
    let format = detect(value).map_err(|reason| match request_shape(value) {
        Some(format) => InputError::InvalidRequest {
            file: source.clone(),
            format,
            message: reason,
        },
        None => InputError::UnknownFormat {
            file: source.clone(),
            reason,
        },
    })?;
    let invalid = |message: String| InputError::InvalidRequest {
        file: source.clone(),
        format: format.name(),
        message,
    };
    let (transcript, warnings) = match format {
        Format::Anthropic => (anthropic::parse(value).map_err(invalid)?, Vec::new()),
        Format::OpenAi => (openai::parse(value).map_err(invalid)?, Vec::new()),
        Format::PydanticAi => (pydantic::parse(value).map_err(invalid)?, Vec::new()),
        Format::Responses => responses::parse(value).map_err(invalid)?,
    };
    // A request body is never repaired: one its API would refuse (an
    // orphaned result, an unanswered call) is bad input, said at once.
    check_conversation(&transcript).map_err(invalid)?;
    Ok((
        transcript,
        warnings.into_iter().map(Warning::general).collect(),
    ))
}

/// Decide which of the request formats a JSON document is.
pub fn detect(value: &Value) -> Result<Format, String> {
    match value {
        Value::Array(items) => {
            if items.is_empty() {
                return Err("an empty JSON array has no messages".into());
            }
            let pydantic = items.iter().all(|m| {
                matches!(
                    m.get("kind").and_then(Value::as_str),
                    Some("request" | "response")
                ) && m.get("parts").is_some_and(Value::is_array)
            });
            if pydantic {
                Ok(Format::PydanticAi)
            } else {
                Err("a JSON array whose items are not Pydantic AI messages (each needs `kind` request/response and `parts`)".into())
            }
        }
        Value::Object(obj) => {
            if !obj.contains_key("messages")
                && obj
                    .get("input")
                    .is_some_and(|i| i.is_array() || i.is_string())
            {
                return Ok(Format::Responses);
            }
            let Some(messages) = obj.get("messages").and_then(Value::as_array) else {
                return Err("a JSON object without a `messages` array (Chat, Messages) or an `input` (Responses)".into());
            };
            let roles: Vec<&str> = messages
                .iter()
                .filter_map(|m| m.get("role").and_then(Value::as_str))
                .collect();
            if roles.len() != messages.len() {
                return Err("a `messages` item has no string `role`".into());
            }
            // A `system` message is Chat's, unless the rest is Anthropic's:
            // Claude Code sends system messages between turns (beta
            // `mid-conversation-system`).
            let openai_only = roles
                .iter()
                .any(|r| matches!(*r, "tool" | "developer" | "function"))
                || messages.iter().any(|m| m.get("tool_calls").is_some())
                || tools_have(obj.get("tools"), "function");
            let block_types = messages
                .iter()
                .filter_map(|m| m.get("content").and_then(Value::as_array))
                .flatten()
                .filter_map(|b| b.get("type").and_then(Value::as_str));
            let anthropic_hint = obj.contains_key("system")
                || block_types
                    .clone()
                    .any(|t| matches!(t, "tool_use" | "tool_result"))
                || tools_have(obj.get("tools"), "input_schema");
            let openai_hint = openai_only || (!anthropic_hint && roles.contains(&"system"));
            match (anthropic_hint, openai_hint) {
                (true, false) => Ok(Format::Anthropic),
                (false, true) => Ok(Format::OpenAi),
                (true, true) => Err("the request mixes Anthropic markers (system, tool_use/tool_result blocks, input_schema) with OpenAI markers (tool/developer/function roles, tool_calls, function tools)".into()),
                (false, false) => {
                    if roles.iter().all(|r| matches!(*r, "user" | "assistant")) {
                        // Plain chat is valid in both; Anthropic requires max_tokens.
                        if obj.contains_key("max_tokens") && !obj.contains_key("max_completion_tokens") {
                            Ok(Format::Anthropic)
                        } else {
                            Ok(Format::OpenAi)
                        }
                    } else {
                        Err(format!("unrecognised message roles {:?}", dedup(&roles)))
                    }
                }
            }
        }
        _ => Err("the document is neither a JSON object nor a JSON array".into()),
    }
}

fn dedup<'a>(roles: &[&'a str]) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for r in roles {
        if !out.contains(r) {
            out.push(r);
        }
    }
    out
}

fn tools_have(tools: Option<&Value>, key: &str) -> bool {
    tools.and_then(Value::as_array).is_some_and(|ts| {
        ts.iter()
            .any(|t| t.get(key).is_some() || t.get("type").and_then(Value::as_str) == Some(key))
    })
}

/// Write a transcript back as a request body in its own format.
pub fn render(t: &Transcript) -> Value {
    match t.format {
        Format::Anthropic => anthropic::render(t),
        Format::OpenAi => openai::render(t),
        Format::PydanticAi => pydantic::render(t),
        Format::Responses => responses::render(t),
    }
}

/// The tool-call rules every supported API enforces: each call is answered
/// in the next message, and each result answers a call of the message just
/// before it. Anthropic and Pydantic AI also need user/assistant alternation
/// starting with the user.
pub fn check_conversation(t: &Transcript) -> Result<(), String> {
    let msgs = &t.messages;
    let needs_alternation = matches!(t.format, Format::Anthropic | Format::PydanticAi);
    if needs_alternation {
        if let Some(first) = msgs.first() {
            if first.role != Role::User {
                return Err("the first message must come from the user side".into());
            }
        }
        for (i, pair) in msgs.windows(2).enumerate() {
            if pair[0].role == pair[1].role {
                return Err(format!(
                    "messages {} and {} have the same role; roles must alternate",
                    i,
                    i + 1
                ));
            }
        }
    }
    for (i, m) in msgs.iter().enumerate() {
        let calls: Vec<&str> = m.tool_calls().map(|(id, _, _)| id).collect();
        let answered: Vec<&str> = msgs
            .get(i + 1)
            .map(|n| n.parts.iter().filter_map(|p| p.part.answers()).collect())
            .unwrap_or_default();
        let is_last = i + 1 == msgs.len();
        if !is_last {
            for id in &calls {
                if !answered.contains(id) {
                    return Err(format!(
                        "tool call `{id}` in message {i} is not answered in message {}",
                        i + 1
                    ));
                }
            }
        }
        let own_results: Vec<&str> = m.parts.iter().filter_map(|p| p.part.answers()).collect();
        if !own_results.is_empty() {
            let prev_calls: Vec<&str> = i
                .checked_sub(1)
                .map(|p| msgs[p].tool_calls().map(|(id, _, _)| id).collect())
                .unwrap_or_default();
            for id in own_results {
                if !prev_calls.contains(&id) {
                    return Err(format!(
                        "tool result `{id}` in message {i} answers no call of the message before it (orphaned result)"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The `tools` list and `messages` array shared by the Anthropic and OpenAI
/// request bodies.
pub(crate) fn tools_and_messages(
    obj: &serde_json::Map<String, Value>,
) -> Result<(Vec<Value>, &Vec<Value>), String> {
    let tools = match obj.get("tools") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(t)) => t.clone(),
        Some(_) => return Err("`tools` must be a list".into()),
    };
    let messages = obj
        .get("messages")
        .and_then(Value::as_array)
        .ok_or("`messages` must be a list")?;
    Ok((tools, messages))
}

/// Tool names for results that the format does not name (Anthropic, OpenAI).
pub(crate) fn resolve_result_names(t: &mut Transcript) {
    let names: std::collections::HashMap<String, String> = t
        .messages
        .iter()
        .flat_map(|m| m.tool_calls())
        .map(|(id, name, _)| (id.to_string(), name.to_string()))
        .collect();
    for m in &mut t.messages {
        for p in &mut m.parts {
            if let Part::ToolResult { id, name, .. } = &mut p.part {
                if name.is_empty() {
                    if let Some(n) = names.get(id.as_str()) {
                        *name = n.clone();
                    }
                }
            }
        }
    }
}

/// Text of a content value that may be a string or a list of text blocks.
pub(crate) fn text_of_blocks(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(blocks) => {
            let mut out = Vec::new();
            for b in blocks {
                if b.get("type").and_then(Value::as_str) == Some("text") {
                    out.push(b.get("text")?.as_str()?.to_string());
                } else {
                    return None;
                }
            }
            Some(out.join("\n"))
        }
        _ => None,
    }
}
