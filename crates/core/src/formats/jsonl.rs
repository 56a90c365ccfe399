//! JSON lines: which agent wrote a session transcript, and its lines as
//! JSON objects, each with its line number.

use serde_json::{Map, Value};

use super::session::Warning;
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
