//! Claude Code session transcripts: `~/.claude/projects/<project>/<session>.jsonl`.
//!
//! Each line has a `type`. `user` and `assistant` lines carry an Anthropic
//! message in `message`; `uuid` and `parentUuid` link the lines into a tree
//! (a rewound or edited turn starts a branch). A `system` line with subtype
//! `compact_boundary` marks a compaction the agent made: the chain after it
//! restarts there, and its summary is the `isCompactSummary` user line that
//! follows. Other known lines (`summary` titles, `file-history-snapshot`,
//! `progress`, `queue-operation`, other `system` subtypes) are not part of a
//! request and are counted; a line of an unknown type is skipped with a
//! warning naming it.
//!
//! The request at a point is the chain from the last conversation line at
//! or before it back to the root or the last compaction boundary, written
//! as an Anthropic Messages request: consecutive lines of one role merge
//! into one message, as Claude Code sends them. Parallel tool calls are
//! written one line per call, each result a child of its own call, so all
//! but one hang off the chain: those lines are read with it. Tool results
//! of a branch not taken are named in a warning. A file whose every message
//! is a side chain (a sub-agent's transcript) is read as its own
//! conversation; otherwise side-chain lines are counted, not read.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{json, Map, Value};

use super::session::{AgentCompaction, At, Read, RecordedUsage, Warning};
use super::{anthropic, jsonl, repair};
use crate::error::{InputError, Source};

pub(super) const NAME: &str = "claude-code";

/// Claude Code does not record `max_tokens`; its default output cap.
const MAX_TOKENS: u64 = 32_000;

/// Line types that are not part of any request.
const KNOWN_OTHER: &[&str] = &[
    "summary",
    "file-history-snapshot",
    "progress",
    "queue-operation",
    "custom-title",
    "tag",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    User,
    Assistant,
    Boundary,
    Other,
}

#[derive(Debug, Clone)]
struct Line {
    no: usize,
    kind: Kind,
    uuid: Option<String>,
    parent: Option<String>,
    sidechain: bool,
    /// The `message` object of a user or assistant line.
    message: Value,
    compact_summary: bool,
    /// A boundary's `compactMetadata`: its trigger and `preTokens`.
    trigger: Option<String>,
    pre_tokens: Option<u64>,
    /// An assistant line's `usage`: every input token of its request
    /// (uncached, cache written, cache read).
    usage: Option<u64>,
}

/// A parsed Claude Code transcript, readable at any point.
#[derive(Debug, Clone)]
pub struct Log {
    source: Source,
    lines: Vec<Line>,
    by_uuid: HashMap<String, usize>,
    total_lines: usize,
    version: Option<String>,
    compactions: Vec<AgentCompaction>,
    usage: Vec<RecordedUsage>,
    skipped: BTreeMap<String, usize>,
    warnings: Vec<Warning>,
    /// No line is on the main chain: a sub-agent's transcript.
    all_sidechain: bool,
}

impl Log {
    pub fn parse(bytes: &[u8], source: &Source) -> Result<Log, InputError> {
        let (objects, mut warnings) = jsonl::objects(bytes, source, NAME)?;
        let total_lines = objects.last().map_or(0, |(n, _)| *n);
        let mut tally = Tally::default();
        let mut lines = Vec::with_capacity(objects.len());
        let mut version = None;
        for (no, obj) in objects {
            if version.is_none() {
                version = obj
                    .get("version")
                    .and_then(Value::as_str)
                    .map(str::to_string);
            }
            lines.push(classify(no, &obj, &mut tally).map_err(|message| {
                InputError::InvalidTranscript {
                    file: source.clone(),
                    format: NAME,
                    line: no,
                    message,
                }
            })?);
        }
        warnings.extend(jsonl::unknown_type_warnings(tally.unknown));
        let by_uuid = lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.uuid.clone().map(|u| (u, i)))
            .collect();
        let all_sidechain = !lines
            .iter()
            .any(|l| matches!(l.kind, Kind::User | Kind::Assistant) && !l.sidechain);
        // A sub-agent's lines written inline (Claude Code 1.0) are its own
        // conversation, not this one's: counted, not read.
        let side = lines
            .iter()
            .filter(|l| matches!(l.kind, Kind::User | Kind::Assistant) && l.sidechain)
            .count();
        if side > 0 && !all_sidechain {
            tally.known.insert("sidechain (sub-agent)".into(), side);
        }
        let mut log = Log {
            source: source.clone(),
            lines,
            by_uuid,
            total_lines,
            version,
            compactions: Vec::new(),
            usage: Vec::new(),
            skipped: tally.known,
            warnings,
            all_sidechain,
        };
        log.compactions = log.find_compactions();
        log.usage = log.find_usage();
        Ok(log)
    }

    pub fn compactions(&self) -> &[AgentCompaction] {
        &self.compactions
    }

    pub fn recorded_usage(&self) -> &[RecordedUsage] {
        &self.usage
    }

    /// One figure per API response (its first line: parallel calls repeat
    /// the message id and its usage), for the request read just before it.
    fn find_usage(&self) -> Vec<RecordedUsage> {
        let mut seen = HashSet::new();
        self.lines
            .iter()
            .filter(|l| l.kind == Kind::Assistant && self.is_conversation(l))
            .filter(|l| message_id(l).is_none_or(|id| seen.insert(id.to_string())))
            .filter_map(|l| {
                Some(RecordedUsage {
                    line: l.no.checked_sub(1).filter(|n| *n > 0)?,
                    input_tokens: l.usage.filter(|u| *u > 0)?,
                    hidden_reasoning_tokens: 0,
                })
            })
            .collect()
    }

    fn find_compactions(&self) -> Vec<AgentCompaction> {
        let mut out = Vec::new();
        for (i, b) in self.lines.iter().enumerate() {
            if b.kind != Kind::Boundary {
                continue;
            }
            let summary = self.lines[i + 1..]
                .iter()
                .take_while(|l| l.kind != Kind::Boundary)
                .find(|l| l.kind == Kind::User && l.compact_summary);
            out.push(AgentCompaction {
                index: out.len() + 1,
                line: b.no,
                before_line: b.no.saturating_sub(1),
                after_line: summary.map_or(b.no, |l| l.no),
                trigger: b.trigger.clone(),
                recorded_tokens_before: b.pre_tokens,
                summary: summary
                    .map(|l| text_of(&l.message["content"]))
                    .unwrap_or_default(),
            });
        }
        out
    }

    /// The request at `at`.
    pub fn read(&self, at: At) -> Result<Read, InputError> {
        let limit = self.points().resolve(at)?;
        let leaf = self
            .lines
            .iter()
            .rposition(|l| l.no <= limit && self.is_conversation(l))
            .ok_or_else(|| {
                self.points()
                    .bad_point(at, format!("no conversation at or before line {limit}"))
            })?;
        let (chain, start) = self.chain(leaf);
        let chain = self.with_parallel_lines(chain, start, leaf);
        let mut warnings = self.warnings.clone();
        warnings.extend(self.unread_results(&chain, start, leaf));
        let lines: Vec<&Line> = chain.iter().map(|i| &self.lines[*i]).collect();
        let mut skipped = self.skipped.clone();
        let (body, reconstructed) = request_body(&lines, &mut skipped);
        let invalid = |message: String| InputError::InvalidTranscript {
            file: self.source.clone(),
            format: NAME,
            line: self.lines[leaf].no,
            message,
        };
        let mut t = anthropic::parse(&body).map_err(invalid)?;
        warnings.extend(repair::repair(&mut t));
        super::check_conversation(&t).map_err(invalid)?;
        Ok(Read {
            transcript: t,
            origin: self
                .points()
                .origin(at, limit, skipped, reconstructed, warnings),
        })
    }

    fn points(&self) -> jsonl::Points<'_> {
        jsonl::Points {
            source: &self.source,
            format: NAME,
            version: self.version.as_deref(),
            total_lines: self.total_lines,
            compactions: &self.compactions,
            what: "the transcript",
        }
    }

    /// A user or assistant line of the conversation read (a sub-agent's
    /// side chain only when the whole file is one).
    fn is_conversation(&self, l: &Line) -> bool {
        matches!(l.kind, Kind::User | Kind::Assistant) && (self.all_sidechain || !l.sidechain)
    }

    /// The conversation lines (indices) from the root or the last compaction
    /// boundary to `leaf`, in order, and where that span starts (the
    /// boundary's index, or 0).
    fn chain(&self, leaf: usize) -> (Vec<usize>, usize) {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut start = 0;
        let mut at = Some(leaf);
        while let Some(i) = at {
            if !seen.insert(i) {
                break;
            }
            let line = &self.lines[i];
            if line.kind == Kind::Boundary {
                start = i;
                break;
            }
            if matches!(line.kind, Kind::User | Kind::Assistant) {
                out.push(i);
            }
            at = line
                .parent
                .as_ref()
                .and_then(|p| self.by_uuid.get(p))
                .copied();
        }
        out.reverse();
        (out, start)
    }

    /// The chain with the lines Claude Code writes beside it: an assistant
    /// turn with parallel tool calls is one line per call, and each result
    /// is a child of its own call's line, so all but one of the calls and
    /// results hang off the chain as if they were branches. Taken in: a
    /// line of an assistant message on the chain that adds a call, and a
    /// line whose results all answer calls on the chain that nothing there
    /// answers yet. Each goes after the line it belongs to, in file order.
    fn with_parallel_lines(&self, chain: Vec<usize>, start: usize, leaf: usize) -> Vec<usize> {
        let mut linked = Linked::default();
        for i in &chain {
            linked.add(&self.lines[*i]);
        }
        let on_chain: HashSet<usize> = chain.iter().copied().collect();
        let mut candidates: Vec<usize> = (start..=leaf)
            .filter(|i| !on_chain.contains(i) && self.is_conversation(&self.lines[*i]))
            .collect();
        let mut out = chain;
        loop {
            let before = candidates.len();
            candidates.retain(|i| {
                let line = &self.lines[*i];
                let Some(anchor) = linked.anchor(line, &out, &self.lines) else {
                    return true;
                };
                let mut at = anchor + 1;
                while at < out.len() && out[at] < *i {
                    at += 1;
                }
                out.insert(at, *i);
                linked.add(line);
                false
            });
            if candidates.len() == before {
                return out;
            }
        }
    }

    /// A warning naming the tool results in the span read that are not
    /// read: those of a rewound or edited turn (a branch not taken).
    fn unread_results(&self, chain: &[usize], start: usize, leaf: usize) -> Option<Warning> {
        let read: HashSet<&str> = chain
            .iter()
            .flat_map(|i| block_ids(&self.lines[*i].message, "tool_result", "tool_use_id"))
            .collect();
        let unread: Vec<(usize, &str)> = (start..=leaf)
            .map(|i| &self.lines[i])
            .filter(|l| l.kind == Kind::User && self.is_conversation(l))
            .flat_map(|l| {
                block_ids(&l.message, "tool_result", "tool_use_id").map(move |id| (l.no, id))
            })
            .filter(|(_, id)| !read.contains(id))
            .collect();
        let (first, _) = unread.first()?;
        Some(
            Warning::at(
                *first,
                format!(
                    "{} tool result(s) on a branch not taken (a rewound or edited turn) not read (first at this line)",
                    unread.len()
                ),
            )
            .about(unread.iter().map(|(_, id)| id.to_string())),
        )
    }
}

/// The calls, results and assistant messages of the lines read so far.
#[derive(Default)]
struct Linked {
    calls: HashSet<String>,
    answered: HashSet<String>,
    messages: HashSet<String>,
}

impl Linked {
    fn add(&mut self, line: &Line) {
        let m = &line.message;
        self.calls
            .extend(block_ids(m, "tool_use", "id").map(str::to_string));
        self.answered
            .extend(block_ids(m, "tool_result", "tool_use_id").map(str::to_string));
        if line.kind == Kind::Assistant {
            self.messages.extend(message_id(line).map(str::to_string));
        }
    }

    /// Where in `read` the line belongs, after the last line read of its
    /// assistant message or of the call its first result answers; `None`
    /// when it is not linked to them.
    fn anchor(&self, line: &Line, read: &[usize], lines: &[Line]) -> Option<usize> {
        let m = &line.message;
        match line.kind {
            Kind::Assistant => {
                let id = message_id(line).filter(|id| self.messages.contains(*id))?;
                let adds_a_call = block_ids(m, "tool_use", "id").any(|c| !self.calls.contains(c));
                if !adds_a_call {
                    return None;
                }
                read.iter().rposition(|i| {
                    lines[*i].kind == Kind::Assistant && message_id(&lines[*i]) == Some(id)
                })
            }
            Kind::User => {
                let results: Vec<&str> = block_ids(m, "tool_result", "tool_use_id").collect();
                let first = *results.first()?;
                let all_open = results
                    .iter()
                    .all(|id| self.calls.contains(*id) && !self.answered.contains(*id));
                if !all_open {
                    return None;
                }
                read.iter().rposition(|i| {
                    block_ids(&lines[*i].message, "tool_use", "id").any(|c| c == first)
                })
            }
            _ => None,
        }
    }
}

/// The API message id of an assistant line (one per model response, shared
/// by the lines Claude Code splits it into).
fn message_id(line: &Line) -> Option<&str> {
    line.message.get("id").and_then(Value::as_str)
}

/// The `key` of each content block of type `kind` (`tool_use` ids,
/// `tool_result` call ids).
fn block_ids<'a>(message: &'a Value, kind: &'a str, key: &'a str) -> impl Iterator<Item = &'a str> {
    message
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(move |b| b.get("type").and_then(Value::as_str) == Some(kind))
        .filter_map(move |b| b.get(key).and_then(Value::as_str))
}

/// The Anthropic request body for the chain's lines, and what it had to
/// fill in that Claude Code does not record.
fn request_body(lines: &[&Line], skipped: &mut BTreeMap<String, usize>) -> (Value, Vec<String>) {
    let (messages, tools, model) = build_messages(lines, skipped);
    let mut body = Map::new();
    let mut reconstructed = vec![format!(
        "max_tokens: {MAX_TOKENS} (Claude Code's default output cap; not recorded)"
    )];
    match model {
        Some(m) => {
            body.insert("model".into(), m.into());
        }
        None => reconstructed.push("model: not recorded before this point; left out".into()),
    }
    body.insert("max_tokens".into(), MAX_TOKENS.into());
    if !tools.is_empty() {
        reconstructed.push(format!(
            "tools: {} declared from the calls with an open input schema (the transcript records no schemas)",
            tools.len()
        ));
        body.insert("tools".into(), Value::Array(tools));
    }
    reconstructed.push("system prompt: not recorded; left out".into());
    body.insert("messages".into(), Value::Array(messages));
    (Value::Object(body), reconstructed)
}

/// Counts of the lines that are not part of a request: known kinds, and
/// unknown types with their first line.
#[derive(Default)]
struct Tally {
    known: BTreeMap<String, usize>,
    unknown: BTreeMap<String, (usize, usize)>,
}

/// One line, classified.
fn classify(no: usize, obj: &Map<String, Value>, tally: &mut Tally) -> Result<Line, String> {
    let kind_name = obj
        .get("type")
        .and_then(Value::as_str)
        .ok_or("the line has no string `type`")?;
    let kind = match kind_name {
        "user" => Kind::User,
        "assistant" => Kind::Assistant,
        "system" => match obj.get("subtype").and_then(Value::as_str).unwrap_or("") {
            "compact_boundary" => Kind::Boundary,
            sub => {
                *tally.known.entry(format!("system/{sub}")).or_default() += 1;
                Kind::Other
            }
        },
        k if KNOWN_OTHER.contains(&k) => {
            *tally.known.entry(k.to_string()).or_default() += 1;
            Kind::Other
        }
        k => {
            tally.unknown.entry(k.to_string()).or_insert((no, 0)).1 += 1;
            Kind::Other
        }
    };
    let message = match kind {
        Kind::User | Kind::Assistant => match obj.get("message") {
            Some(m @ Value::Object(_)) => m.clone(),
            _ => return Err(format!("a `{kind_name}` line without a `message` object")),
        },
        _ => Value::Null,
    };
    let text = |k: &str| obj.get(k).and_then(Value::as_str).map(str::to_string);
    let meta = obj.get("compactMetadata");
    let usage = usage_of(&message);
    Ok(Line {
        no,
        kind,
        uuid: text("uuid"),
        parent: text("parentUuid"),
        sidechain: obj.get("isSidechain") == Some(&Value::Bool(true)),
        message,
        compact_summary: obj.get("isCompactSummary") == Some(&Value::Bool(true)),
        trigger: meta
            .and_then(|m| m.get("trigger"))
            .and_then(Value::as_str)
            .map(str::to_string),
        pre_tokens: meta
            .and_then(|m| m.get("preTokens"))
            .and_then(Value::as_u64),
        usage,
    })
}

/// Every input token of the request an assistant message answered.
fn usage_of(message: &Value) -> Option<u64> {
    let u = message.get("usage")?;
    let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
    u.get("input_tokens")?;
    Some(n("input_tokens") + n("cache_creation_input_tokens") + n("cache_read_input_tokens"))
}

/// The text of message content: a string, or its text blocks joined.
fn text_of(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// A line's content as blocks, without the whitespace-only text blocks the
/// API refuses (counted in `skipped`).
fn blocks_of(content: &Value, skipped: &mut BTreeMap<String, usize>) -> Vec<Value> {
    let blocks = match content {
        Value::String(s) => vec![json!({"type": "text", "text": s})],
        Value::Array(b) => b.clone(),
        _ => Vec::new(),
    };
    blocks
        .into_iter()
        .filter(|b| {
            let blank = b.get("type").and_then(Value::as_str) == Some("text")
                && b.get("text")
                    .and_then(Value::as_str)
                    .is_some_and(|t| t.trim().is_empty());
            if blank {
                *skipped.entry("empty text block".into()).or_default() += 1;
            }
            !blank
        })
        .collect()
}

/// The chain as Anthropic messages (consecutive lines of one role merged),
/// the tools it calls (declared with an open schema) and the model of its
/// last assistant line.
fn build_messages(
    chain: &[&Line],
    skipped: &mut BTreeMap<String, usize>,
) -> (Vec<Value>, Vec<Value>, Option<String>) {
    let mut messages: Vec<(String, Vec<Value>)> = Vec::new();
    let mut tools: Vec<String> = Vec::new();
    let mut model = None;
    for line in chain {
        let role = if line.kind == Kind::Assistant {
            "assistant"
        } else {
            "user"
        };
        if line.kind == Kind::Assistant {
            if let Some(m) = line.message.get("model").and_then(Value::as_str) {
                if m != "<synthetic>" {
                    model = Some(m.to_string());
                }
            }
        }
        let blocks = blocks_of(&line.message["content"], skipped);
        for b in &blocks {
            if b.get("type").and_then(Value::as_str) == Some("tool_use") {
                if let Some(n) = b.get("name").and_then(Value::as_str) {
                    if !tools.iter().any(|t| t == n) {
                        tools.push(n.to_string());
                    }
                }
            }
        }
        if blocks.is_empty() {
            continue;
        }
        match messages.last_mut() {
            Some((r, b)) if r == role => b.extend(blocks),
            _ => messages.push((role.to_string(), blocks)),
        }
    }
    let messages = messages
        .into_iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect();
    let tools = tools
        .into_iter()
        .map(|name| json!({"name": name, "input_schema": {"type": "object"}}))
        .collect();
    (messages, tools, model)
}
