//! Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`.
//!
//! Each line is `{timestamp, type, payload}`. `session_meta` holds the
//! instructions and the CLI version; `response_item` lines are the items of
//! the conversation, as Codex sends them to the Responses API; `turn_context`
//! holds the model and reasoning settings of a turn; `compacted` marks a
//! compaction the agent made: the history is replaced by its
//! `replacement_history` (a remote compaction), or rebuilt the way Codex
//! rebuilds it on resume (a local one: the initial context, the user's
//! messages newest first within 20,000 approximate tokens, and the summary).
//! `event_msg` lines are the UI's copy of the same events and are counted,
//! not read; a line of an unknown type is skipped with a warning naming it.
//! Early rollouts (a bare meta line, then bare items) are read the same way.
//!
//! The request at a point is written as a Responses request: `model` and
//! reasoning settings from the latest `turn_context`, `instructions` from
//! the session, `input` the history; `ghost_snapshot` items, which Codex
//! never sends, are left out. The harness's messages (developer and system
//! messages, and the environment and AGENTS.md context Codex sends as user
//! messages) lead the input wherever they came, each once, so they are read
//! as instructions, never as the user's request or the conversation.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use super::session::{AgentCompaction, At, Read, RecordedUsage, Warning};
use super::{jsonl, repair, responses};
use crate::error::{InputError, Source};

pub(super) const NAME: &str = "codex-rollout";

/// Codex's prefix of the user message that carries a local summary.
const SUMMARY_PREFIX: &str = "Another language model started to solve this problem and produced a summary of its thinking process.";

/// The user-message budget of a local compaction, in approximate tokens
/// (Codex: `COMPACT_USER_MESSAGE_MAX_TOKENS`, 4 bytes a token).
const USER_MESSAGE_BUDGET: usize = 20_000;

#[derive(Debug, Clone)]
enum Entry {
    Item(Value),
    Compacted {
        message: String,
        replacement: Option<Vec<Value>>,
    },
    Context(Map<String, Value>),
    Skip,
}

/// A parsed Codex rollout, readable at any point.
#[derive(Debug, Clone)]
pub struct Log {
    source: Source,
    /// (line number, entry), in order.
    entries: Vec<(usize, Entry)>,
    total_lines: usize,
    version: Option<String>,
    instructions: Option<String>,
    compactions: Vec<AgentCompaction>,
    skipped: BTreeMap<String, usize>,
    warnings: Vec<Warning>,
    usage: Vec<RecordedUsage>,
}

/// What parsing gathers beside the entries.
#[derive(Default)]
struct Gathered {
    version: Option<String>,
    instructions: Option<String>,
    skipped: BTreeMap<String, usize>,
    unknown: BTreeMap<String, (usize, usize)>,
    /// The input tokens of the last request Codex measured.
    last_input_tokens: Option<u64>,
    compactions: Vec<AgentCompaction>,
    /// The first line of the model's output being written, until its
    /// `token_count` arrives: that request ends on the line before it.
    call_start: Option<usize>,
    in_output: bool,
    usage: Vec<RecordedUsage>,
    /// Reasoning the model re-reads within a turn (see `ReasoningInTurn`).
    reasoning: ReasoningInTurn,
}

/// The reasoning a turn's calls wrote so far, which the provider feeds back
/// (encrypted) to each later call of the turn and drops at the next user
/// message. A call's `token_count` can arrive after that message; its
/// reasoning then belongs to the turn that ended.
#[derive(Default)]
struct ReasoningInTurn {
    turn: usize,
    so_far: u64,
    /// The turn the pending call started in, and the reasoning before it.
    call_turn: usize,
    before_call: u64,
}

impl ReasoningInTurn {
    fn user_message(&mut self) {
        self.turn += 1;
        self.so_far = 0;
    }

    fn call_started(&mut self) {
        self.call_turn = self.turn;
        self.before_call = self.so_far;
    }

    /// The pending call's usage arrived: the reasoning it was fed, and its
    /// own reasoning added to its turn.
    fn call_counted(&mut self, reasoning: u64) -> u64 {
        if self.call_turn == self.turn {
            self.so_far += reasoning;
        }
        self.before_call
    }
}

impl Log {
    pub fn parse(bytes: &[u8], source: &Source) -> Result<Log, InputError> {
        let (objects, mut warnings) = jsonl::objects(bytes, source, NAME)?;
        let total_lines = objects.last().map_or(0, |(n, _)| *n);
        let mut g = Gathered::default();
        let mut entries = Vec::with_capacity(objects.len());
        for (no, obj) in objects {
            let entry = g
                .entry(no, obj)
                .map_err(|message| InputError::InvalidTranscript {
                    file: source.clone(),
                    format: NAME,
                    line: no,
                    message,
                })?;
            entries.push((no, entry));
        }
        warnings.extend(jsonl::unknown_type_warnings(g.unknown));
        Ok(Log {
            source: source.clone(),
            entries,
            total_lines,
            version: g.version,
            instructions: g.instructions,
            compactions: g.compactions,
            skipped: g.skipped,
            warnings,
            usage: g.usage,
        })
    }

    pub fn compactions(&self) -> &[AgentCompaction] {
        &self.compactions
    }

    pub fn recorded_usage(&self) -> &[RecordedUsage] {
        &self.usage
    }

    /// The request at `at`.
    pub fn read(&self, at: At) -> Result<Read, InputError> {
        let limit = self.points().resolve(at)?;
        let mut history: Vec<Value> = Vec::new();
        let mut context = Map::new();
        for (_, e) in self.entries.iter().take_while(|(no, _)| *no <= limit) {
            match e {
                Entry::Item(v) => history.push(v.clone()),
                Entry::Compacted {
                    replacement: Some(items),
                    ..
                } => history = items.clone(),
                Entry::Compacted { message, .. } => history = local_compaction(&history, message),
                Entry::Context(c) => context = c.clone(),
                Entry::Skip => {}
            }
        }
        history.retain(|i| i.get("type").and_then(Value::as_str) != Some("ghost_snapshot"));
        if history.is_empty() {
            return Err(self
                .points()
                .bad_point(at, format!("no conversation at or before line {limit}")));
        }
        let (history, repeated) = context_first(history);
        let mut skipped = self.skipped.clone();
        if repeated > 0 {
            skipped.insert("repeated harness context".into(), repeated);
        }
        let (body, reconstructed) = self.request(history, &context);
        let invalid = |message: String| InputError::InvalidTranscript {
            file: self.source.clone(),
            format: NAME,
            line: limit,
            message,
        };
        let (mut t, item_warnings) = responses::parse(&body).map_err(invalid)?;
        let mut warnings = self.warnings.clone();
        warnings.extend(item_warnings.into_iter().map(Warning::general));
        warnings.extend(repair::repair(&mut t));
        super::check_conversation(&t).map_err(invalid)?;
        Ok(Read {
            transcript: t,
            origin: self
                .points()
                .origin(at, limit, skipped, reconstructed, warnings),
        })
    }

    /// The Responses request for `history`, and what it had to fill in.
    fn request(&self, history: Vec<Value>, context: &Map<String, Value>) -> (Value, Vec<String>) {
        let mut body = Map::new();
        let mut reconstructed = Vec::new();
        match context.get("model") {
            Some(m @ Value::String(_)) => {
                body.insert("model".into(), m.clone());
            }
            _ => reconstructed.push("model: no turn_context before this point; left out".into()),
        }
        if let Some(i) = &self.instructions {
            body.insert("instructions".into(), i.clone().into());
        }
        let mut reasoning = Map::new();
        for (from, to) in [("effort", "effort"), ("summary", "summary")] {
            if let Some(v) = context.get(from).filter(|v| v.is_string()) {
                reasoning.insert(to.into(), v.clone());
            }
        }
        if !reasoning.is_empty() {
            body.insert("reasoning".into(), Value::Object(reasoning));
        }
        let tools = declared_tools(&history);
        if !tools.is_empty() {
            reconstructed.push(format!(
                "tools: {} declared from the calls with an open schema (the rollout records no schemas)",
                tools.len()
            ));
        }
        let encrypted = history.iter().any(|i| {
            i.get("type").and_then(Value::as_str) == Some("reasoning")
                && i.get("encrypted_content").is_some_and(Value::is_string)
        });
        body.insert("input".into(), Value::Array(history));
        if !tools.is_empty() {
            body.insert("tools".into(), Value::Array(tools));
        }
        body.insert("store".into(), false.into());
        if encrypted {
            body.insert("include".into(), json!(["reasoning.encrypted_content"]));
        }
        (Value::Object(body), reconstructed)
    }

    fn points(&self) -> jsonl::Points<'_> {
        jsonl::Points {
            source: &self.source,
            format: NAME,
            version: self.version.as_deref(),
            total_lines: self.total_lines,
            compactions: &self.compactions,
            what: "the rollout",
        }
    }
}

impl Gathered {
    /// One line as an entry, gathering what it says about the session.
    fn entry(&mut self, no: usize, mut obj: Map<String, Value>) -> Result<Entry, String> {
        let kind = obj.get("type").and_then(Value::as_str).map(str::to_string);
        let Some(payload) = obj.remove("payload") else {
            return self.bare(no, obj, kind.as_deref());
        };
        let Some(kind) = kind else {
            return Err("a line with a `payload` and no string `type`".into());
        };
        let sub = payload
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        Ok(match kind.as_str() {
            "session_meta" => {
                self.meta(&payload);
                Entry::Skip
            }
            "response_item" if payload.is_object() => {
                if sub == "ghost_snapshot" {
                    self.count("response_item/ghost_snapshot");
                } else {
                    self.call_boundary(no, &payload);
                }
                Entry::Item(payload)
            }
            "response_item" => {
                return Err("a `response_item` whose payload is not an object".into())
            }
            "turn_context" => match payload {
                Value::Object(c) => Entry::Context(c),
                _ => return Err("a `turn_context` whose payload is not an object".into()),
            },
            "compacted" => self.compacted(no, &payload)?,
            "event_msg" => {
                if sub == "token_count" {
                    self.token_count(&payload);
                }
                self.count(&format!("event_msg/{sub}"));
                Entry::Skip
            }
            other => {
                self.unknown.entry(other.to_string()).or_insert((no, 0)).1 += 1;
                Entry::Skip
            }
        })
    }

    /// A call's usage: the request that ends on the line before the call's
    /// output started.
    fn token_count(&mut self, payload: &Value) {
        let last = &payload["info"]["last_token_usage"];
        let Some(t) = last["input_tokens"].as_u64().filter(|t| *t > 0) else {
            return;
        };
        self.last_input_tokens = Some(t);
        if let Some(start) = self.call_start.take() {
            let reasoning = last["reasoning_output_tokens"].as_u64().unwrap_or(0);
            self.usage.push(RecordedUsage {
                line: start.saturating_sub(1),
                input_tokens: t,
                hidden_reasoning_tokens: self.reasoning.call_counted(reasoning),
            });
        }
    }

    /// Track where each model call's output starts: the model's items
    /// (reasoning, calls, its messages) after anything it was sent.
    fn call_boundary(&mut self, no: usize, item: &Value) {
        let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
        let output = matches!(
            kind,
            "reasoning"
                | "function_call"
                | "custom_tool_call"
                | "web_search_call"
                | "local_shell_call"
        ) || (kind == "message"
            && item.get("role").and_then(Value::as_str) == Some("assistant"));
        if kind == "message" && item.get("role").and_then(Value::as_str) == Some("user") {
            self.reasoning.user_message();
        }
        if output && !self.in_output {
            self.call_start = Some(no);
            self.reasoning.call_started();
        }
        self.in_output = output;
    }

    fn count(&mut self, what: &str) {
        *self.skipped.entry(what.to_string()).or_default() += 1;
    }

    /// A line of an early rollout: the bare meta line, a bare item, or a
    /// `record_type` state line.
    fn bare(
        &mut self,
        no: usize,
        obj: Map<String, Value>,
        kind: Option<&str>,
    ) -> Result<Entry, String> {
        if obj.contains_key("record_type") {
            self.count("record_type");
            return Ok(Entry::Skip);
        }
        match kind {
            None if obj.contains_key("id") && obj.contains_key("timestamp") => {
                self.meta(&Value::Object(obj));
                Ok(Entry::Skip)
            }
            Some(_) => Ok(Entry::Item(Value::Object(obj))),
            None => {
                self.unknown.entry("(no type)".into()).or_insert((no, 0)).1 += 1;
                Ok(Entry::Skip)
            }
        }
    }

    fn meta(&mut self, p: &Value) {
        if let Some(v) = p.get("cli_version").and_then(Value::as_str) {
            self.version = Some(v.to_string());
        }
        let text = p
            .get("base_instructions")
            .and_then(|b| b.get("text"))
            .or_else(|| p.get("instructions"))
            .and_then(Value::as_str);
        if let Some(t) = text {
            self.instructions = Some(t.to_string());
        }
    }

    fn compacted(&mut self, no: usize, p: &Value) -> Result<Entry, String> {
        let message = p
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let replacement = match p.get("replacement_history") {
            None | Some(Value::Null) => None,
            Some(Value::Array(items)) => Some(items.clone()),
            Some(_) => return Err("`replacement_history` must be a list".into()),
        };
        self.compactions.push(AgentCompaction {
            index: self.compactions.len() + 1,
            line: no,
            before_line: no.saturating_sub(1),
            after_line: no,
            trigger: Some(
                if replacement.is_some() {
                    "remote"
                } else {
                    "local"
                }
                .into(),
            ),
            recorded_tokens_before: self.last_input_tokens,
            summary: message.clone(),
        });
        Ok(Entry::Compacted {
            message,
            replacement,
        })
    }
}

/// The text of a message item, its text blocks joined.
fn message_text(item: &Value) -> Option<String> {
    if item
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("message")
        != "message"
    {
        return None;
    }
    match item.get("content")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(blocks) => Some(
            blocks
                .iter()
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => None,
    }
}

fn role(item: &Value) -> Option<&str> {
    item.get("role").and_then(Value::as_str)
}

/// A message of the harness, not of the conversation: a developer or system
/// message, or the context Codex sends as a user message (environment,
/// AGENTS.md, the user's instructions).
fn is_context(item: &Value) -> bool {
    let message = item
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("message")
        == "message";
    match role(item) {
        Some("developer" | "system") => message,
        Some("user") => {
            message
                && item
                    .get("content")
                    .is_some_and(responses::is_harness_context)
        }
        _ => false,
    }
}

/// The history with the harness's messages first, wherever they came (a
/// permissions notice between a call and its output, the context sent again
/// on resume), each once (its last copy, so the latest state is last): the
/// request reads them as instructions, and its first user message is the
/// user's own. Returns how many repeated copies were left out.
fn context_first(history: Vec<Value>) -> (Vec<Value>, usize) {
    let (context, conversation): (Vec<Value>, Vec<Value>) =
        history.into_iter().partition(is_context);
    let mut kept: Vec<Value> = Vec::with_capacity(context.len());
    let mut repeated = 0;
    for item in context.into_iter().rev() {
        if kept.contains(&item) {
            repeated += 1;
        } else {
            kept.push(item);
        }
    }
    kept.reverse();
    kept.extend(conversation);
    (kept, repeated)
}

fn user_message(text: String) -> Value {
    json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
}

/// The history after a local compaction, as Codex rebuilds it on resume:
/// the session context it opened with, the user's own messages newest first
/// within the budget (the one that does not fit is cut), then the summary.
fn local_compaction(history: &[Value], summary: &str) -> Vec<Value> {
    let mut out: Vec<Value> = history
        .iter()
        .take_while(|i| is_context(i))
        .cloned()
        .collect();
    let users: Vec<String> = history
        .iter()
        .filter(|i| role(i) == Some("user") && !is_context(i))
        .filter_map(message_text)
        .filter(|t| !t.starts_with(SUMMARY_PREFIX))
        .collect();
    let mut remaining = USER_MESSAGE_BUDGET;
    let mut kept = Vec::new();
    for text in users.iter().rev() {
        if remaining == 0 {
            break;
        }
        let tokens = text.len().div_ceil(4);
        if tokens <= remaining {
            kept.push(text.clone());
            remaining -= tokens;
        } else {
            let mut cut = remaining * 4;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            kept.push(format!(
                "{}…{} tokens truncated…",
                &text[..cut],
                tokens - remaining
            ));
            break;
        }
    }
    out.extend(kept.into_iter().rev().map(user_message));
    let summary = if summary.is_empty() {
        "(no summary available)".to_string()
    } else {
        summary.to_string()
    };
    out.push(user_message(summary));
    out
}

/// A tool declaration for each tool the history calls, with an open schema.
fn declared_tools(history: &[Value]) -> Vec<Value> {
    let mut seen: Vec<(String, String)> = Vec::new();
    for i in history {
        let kind = i.get("type").and_then(Value::as_str).unwrap_or("");
        let name = i.get("name").and_then(Value::as_str).unwrap_or("");
        let key = match kind {
            "function_call" | "custom_tool_call" if !name.is_empty() => {
                (kind.to_string(), name.to_string())
            }
            "local_shell_call" | "web_search_call" => (kind.to_string(), String::new()),
            _ => continue,
        };
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    seen.into_iter()
        .map(|(kind, name)| match kind.as_str() {
            "function_call" => {
                json!({"type": "function", "name": name, "parameters": {"type": "object"}})
            }
            "custom_tool_call" => json!({"type": "custom", "name": name}),
            "local_shell_call" => json!({"type": "local_shell"}),
            _ => json!({"type": "web_search"}),
        })
        .collect()
}
