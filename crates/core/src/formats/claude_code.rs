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
//! into one message, as Claude Code sends them. A file whose every message
//! is a side chain (a sub-agent's transcript) is read as its own
//! conversation.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde_json::{json, Map, Value};

use super::session::{AgentCompaction, At, Origin, Read, Warning};
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
        let mut log = Log {
            source: source.clone(),
            lines,
            by_uuid,
            total_lines,
            version,
            compactions: Vec::new(),
            skipped: tally.known,
            warnings,
            all_sidechain,
        };
        log.compactions = log.find_compactions();
        Ok(log)
    }

    pub fn compactions(&self) -> &[AgentCompaction] {
        &self.compactions
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
            .rposition(|l| {
                l.no <= limit
                    && matches!(l.kind, Kind::User | Kind::Assistant)
                    && (self.all_sidechain || !l.sidechain)
            })
            .ok_or_else(|| {
                self.points()
                    .bad_point(at, format!("no conversation at or before line {limit}"))
            })?;
        let chain = self.chain(leaf);
        let mut skipped = self.skipped.clone();
        let (messages, tools, model) = build_messages(&chain, &mut skipped);
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
        let invalid = |message: String| InputError::InvalidTranscript {
            file: self.source.clone(),
            format: NAME,
            line: self.lines[leaf].no,
            message,
        };
        let mut t = anthropic::parse(&Value::Object(body)).map_err(invalid)?;
        let mut warnings = self.warnings.clone();
        warnings.extend(repair::repair(&mut t).into_iter().map(Warning::general));
        super::check_conversation(&t).map_err(invalid)?;
        Ok(Read {
            transcript: t,
            origin: Origin {
                format: NAME.into(),
                version: self.version.clone(),
                lines: Some(self.total_lines),
                at: Some(at.to_string()),
                at_line: Some(limit),
                skipped,
                reconstructed,
                agent_compactions: self.compactions.clone(),
                warnings,
            },
        })
    }

    fn points(&self) -> jsonl::Points<'_> {
        jsonl::Points {
            source: &self.source,
            total_lines: self.total_lines,
            compactions: &self.compactions,
            what: "the transcript",
        }
    }

    /// The conversation lines from the root (or the last compaction
    /// boundary) to `leaf`, in order.
    fn chain(&self, leaf: usize) -> Vec<&Line> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut at = Some(leaf);
        while let Some(i) = at {
            if !seen.insert(i) {
                break;
            }
            let line = &self.lines[i];
            if line.kind == Kind::Boundary {
                break;
            }
            if matches!(line.kind, Kind::User | Kind::Assistant) {
                out.push(line);
            }
            at = line
                .parent
                .as_ref()
                .and_then(|p| self.by_uuid.get(p))
                .copied();
        }
        out.reverse();
        out
    }
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
    })
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
