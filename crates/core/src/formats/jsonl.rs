//! JSON lines: which agent wrote a session transcript, and its lines as
//! JSON objects, each with its line number.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::session::{AgentCompaction, At, Origin, Warning};
use crate::error::{InputError, Source};

/// The session transcripts we read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    ClaudeCode,
    Codex,
}

const CODEX_TYPES: &[&str] = &[
    "session_meta",
    "response_item",
    "event_msg",
    "turn_context",
    "compacted",
];

const CLAUDE_CODE_MARKERS: &[&str] = &["sessionId", "uuid", "parentUuid", "leafUuid"];

/// Which agent wrote this line, if any.
fn kind_of(v: &Value) -> Option<Kind> {
    let obj = v.as_object()?;
    let kind = obj.get("type").and_then(Value::as_str);
    if obj.contains_key("payload") && kind.is_some_and(|k| CODEX_TYPES.contains(&k)) {
        return Some(Kind::Codex);
    }
    // Early Codex rollouts: a bare meta line, then bare items.
    if kind.is_none() && obj.contains_key("id") && obj.contains_key("timestamp") {
        return Some(Kind::Codex);
    }
    if obj.contains_key("record_type") {
        return Some(Kind::Codex);
    }
    let claude_line = CLAUDE_CODE_MARKERS.iter().any(|k| obj.contains_key(*k))
        || matches!(kind, Some("file-history-snapshot" | "queue-operation"));
    claude_line.then_some(Kind::ClaudeCode)
}

/// A whole JSON document that is one line of a session transcript (a
/// transcript of one line), not a request body.
pub(super) fn looks_like_a_transcript_line(v: &Value) -> bool {
    let request_like = v
        .as_object()
        .is_some_and(|o| o.contains_key("messages") || o.contains_key("input"));
    !request_like && kind_of(v).is_some()
}

fn non_empty_lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    bytes
        .split(|b| *b == b'\n')
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix(b"\r").unwrap_or(l)))
        .filter(|(_, l)| l.iter().any(|b| !b.is_ascii_whitespace()))
}

/// The agent that wrote these JSON lines, from the first lines that parse.
pub(super) fn detect(bytes: &[u8]) -> Option<Kind> {
    non_empty_lines(bytes)
        .take(20)
        .filter_map(|(_, l)| serde_json::from_slice::<Value>(l).ok())
        .find_map(|v| kind_of(&v))
}

pub(super) fn first_line_is_json(bytes: &[u8]) -> bool {
    non_empty_lines(bytes)
        .next()
        .is_some_and(|(_, l)| serde_json::from_slice::<Value>(l).is_ok_and(|v| v.is_object()))
}

/// Numbered JSON objects, one a line, and the warnings of reading them.
pub(super) type Lines = (Vec<(usize, Map<String, Value>)>, Vec<Warning>);

/// Every non-empty line as a JSON object, with its number. A line that is
/// not a JSON object is an error naming it, except a last line cut short
/// (an agent stopped mid-write), which is skipped with a warning.
pub(super) fn objects(
    bytes: &[u8],
    source: &Source,
    format: &'static str,
) -> Result<Lines, InputError> {
    let lines: Vec<(usize, &[u8])> = non_empty_lines(bytes).collect();
    let last = lines.last().map(|(n, _)| *n);
    let mut out = Vec::with_capacity(lines.len());
    let mut warnings = Vec::new();
    for (n, raw) in lines {
        match serde_json::from_slice::<Value>(raw) {
            Ok(Value::Object(obj)) => out.push((n, obj)),
            Ok(_) => {
                return Err(InputError::InvalidTranscript {
                    file: source.clone(),
                    format,
                    line: n,
                    message: "the line is not a JSON object".into(),
                })
            }
            Err(e) if Some(n) == last && e.is_eof() => {
                warnings.push(Warning::at(
                    n,
                    "the last line is cut short (incomplete JSON); skipped",
                ));
            }
            Err(e) => {
                return Err(InputError::MalformedJson {
                    file: source.clone(),
                    line: n,
                    column: e.column(),
                    message: e.to_string(),
                })
            }
        }
    }
    Ok((out, warnings))
}

/// One warning per unknown line type, `(type, (first line, count))`.
pub(super) fn unknown_type_warnings(
    unknown: BTreeMap<String, (usize, usize)>,
) -> impl Iterator<Item = Warning> {
    unknown.into_iter().map(|(k, (first, n))| {
        Warning::at(
            first,
            format!("{n} line(s) of unknown type `{k}` skipped (first at this line); they are not read into the request"),
        )
    })
}

/// The points of a transcript a request can be read at: its lines, and
/// the agent's compactions (`what` names the file in messages: "the
/// transcript", "the rollout"); `format` and `version` go into the origin
/// of a request read there.
pub(super) struct Points<'a> {
    pub source: &'a Source,
    pub format: &'static str,
    pub version: Option<&'a str>,
    pub total_lines: usize,
    pub compactions: &'a [AgentCompaction],
    pub what: &'static str,
}

impl Points<'_> {
    /// Where the request read at `at` (up to line `at_line`) came from, with
    /// what reading it skipped, filled in and warned of.
    pub fn origin(
        &self,
        at: At,
        at_line: usize,
        skipped: BTreeMap<String, usize>,
        reconstructed: Vec<String>,
        warnings: Vec<Warning>,
    ) -> Origin {
        Origin {
            format: self.format.into(),
            version: self.version.map(str::to_string),
            lines: Some(self.total_lines),
            at: Some(at.to_string()),
            at_line: Some(at_line),
            skipped,
            reconstructed,
            agent_compactions: self.compactions.to_vec(),
            warnings,
        }
    }

    /// The last line number `at` reads.
    pub fn resolve(&self, at: At) -> Result<usize, InputError> {
        match at {
            At::Last => Ok(self.total_lines),
            At::Line(n) if n <= self.total_lines => Ok(n),
            At::Line(n) => Err(self.bad_point(
                at,
                format!("line {n} is past the end ({} lines)", self.total_lines),
            )),
            At::BeforeCompaction(k) => self
                .compactions
                .get(k.wrapping_sub(1))
                .map(|c| c.before_line)
                .ok_or_else(|| {
                    self.bad_point(
                        at,
                        format!(
                            "{} records {} compaction(s) by the agent",
                            self.what,
                            self.compactions.len()
                        ),
                    )
                }),
        }
    }

    pub fn bad_point(&self, at: At, message: String) -> InputError {
        InputError::BadPoint {
            file: self.source.clone(),
            at: at.to_string(),
            message,
        }
    }
}
