//! What reading an input yields besides the transcript: where in a session
//! transcript the request was read (`At`), where it came from (`Origin`),
//! the compactions the agent itself made (`AgentCompaction`) and the
//! warnings for what was skipped (`Warning`). Warnings are data: the caller
//! decides how to show them.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::transcript::Transcript;

/// Where in a session transcript the request is read: the request the agent
/// would have sent once that line was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum At {
    /// After the last line.
    #[default]
    Last,
    /// After line N (1-based, as an editor numbers them).
    Line(usize),
    /// Just before the agent's k-th compaction (1-based): the request it
    /// compacted.
    BeforeCompaction(usize),
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            At::Last => f.write_str("last"),
            At::Line(n) => write!(f, "{n}"),
            At::BeforeCompaction(k) => write!(f, "compaction:{k}"),
        }
    }
}

impl std::str::FromStr for At {
    type Err = String;

    /// `last`, a line number `N`, or `compaction:K`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || {
            format!("`{s}` is not a point: expected `last`, a line number, or `compaction:K` (before the agent's K-th compaction)")
        };
        let positive = |t: &str| t.parse::<usize>().ok().filter(|n| *n > 0);
        match s.trim() {
            "last" => Ok(At::Last),
            t => match t.strip_prefix("compaction:") {
                Some(k) => positive(k).map(At::BeforeCompaction).ok_or_else(bad),
                None => positive(t).map(At::Line).ok_or_else(bad),
            },
        }
    }
}

/// Something read that is not part of the request and not a known kind of
/// line, or a repair: skipped or repaired, and said so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// The line (session transcripts), when one line is meant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    pub message: String,
    /// The tool calls whose calls or results the warning is about (a result
    /// dropped or not read, a result added), so an audit can count them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_ids: Vec<String>,
}

impl Warning {
    pub fn at(line: usize, message: impl Into<String>) -> Self {
        Warning {
            line: Some(line),
            message: message.into(),
            tool_ids: Vec::new(),
        }
    }

    pub fn general(message: impl Into<String>) -> Self {
        Warning {
            line: None,
            message: message.into(),
            tool_ids: Vec::new(),
        }
    }

    /// The same warning, about these tool calls.
    pub fn about(mut self, tool_ids: impl IntoIterator<Item = String>) -> Self {
        self.tool_ids.extend(tool_ids);
        self
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// A compaction the agent made, as its transcript records it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AgentCompaction {
    /// 1-based, in file order.
    pub index: usize,
    /// The line that records it (Claude Code `system/compact_boundary`,
    /// Codex `compacted`).
    pub line: usize,
    /// The request it compacted is the one read at this line.
    pub before_line: usize,
    /// The agent's compacted context is complete at this line (Claude Code:
    /// its summary message; Codex: the `compacted` record).
    pub after_line: usize,
    /// `auto` or `manual` (Claude Code); `local` or `remote` (Codex).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// The agent's own token count of the request it compacted, where the
    /// transcript records one (Claude Code `preTokens`, Codex's last
    /// `token_count` before it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded_tokens_before: Option<u64>,
    /// The summary the agent wrote (empty when its compaction is opaque:
    /// a remote Codex compaction).
    #[serde(skip)]
    pub summary: String,
}

/// The size of one request the agent sent, as its transcript records the
/// provider's usage: Claude Code's `input_tokens` plus both cache counts,
/// Codex's `token_count` `input_tokens` (cached tokens included).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RecordedUsage {
    /// The request is the one read at this line (`--at N`).
    pub line: usize,
    /// Input tokens the provider counted, in its own tokenizer.
    pub input_tokens: u64,
    /// Of those, reasoning the transcript holds only encrypted: the
    /// reasoning the model wrote in the earlier calls of the same turn
    /// (Codex records each call's `reasoning_output_tokens`; the provider
    /// feeds a turn's reasoning back until the next user message). 0 where
    /// none is recorded.
    pub hidden_reasoning_tokens: u64,
}

/// Where a request came from: the input's format and, for a session
/// transcript, the point it was read at and what reading it skipped.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Origin {
    /// The input's format: a request format's name, `claude-code` or
    /// `codex-rollout`.
    pub format: String,
    /// The agent's version the transcript records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Lines in the transcript.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<usize>,
    /// The point asked for (`last`, `N`, `compaction:K`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// The last line read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_line: Option<usize>,
    /// Known kinds of lines that are not part of a request, with counts
    /// (`progress`, `event_msg/token_count`, ...).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub skipped: BTreeMap<String, usize>,
    /// What the request needs that the transcript does not record, and what
    /// was put there instead.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reconstructed: Vec<String>,
    /// The compactions the agent made, in the whole transcript.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub agent_compactions: Vec<AgentCompaction>,
    /// Everything that was skipped or repaired with a warning.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
}

impl Origin {
    /// The origin of a request file: its format, nothing else.
    pub fn request(format: &str) -> Self {
        Origin {
            format: format.to_string(),
            version: None,
            lines: None,
            at: None,
            at_line: None,
            skipped: BTreeMap::new(),
            reconstructed: Vec::new(),
            agent_compactions: Vec::new(),
            warnings: Vec::new(),
        }
    }
}

/// A request read from an input, with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    pub transcript: Transcript,
    pub origin: Origin,
}

impl Read {
    pub fn warnings(&self) -> &[Warning] {
        &self.origin.warnings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_parse_and_print_the_same() {
        for (s, at) in [
            ("last", At::Last),
            ("120", At::Line(120)),
            ("compaction:2", At::BeforeCompaction(2)),
        ] {
            assert_eq!(s.parse::<At>().unwrap(), at);
            assert_eq!(at.to_string(), s);
        }
        for bad in ["0", "compaction:0", "compaction:", "first", "-3"] {
            assert!(bad.parse::<At>().is_err(), "{bad}");
        }
    }
}
