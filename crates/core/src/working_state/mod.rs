//! The working-state digest: what a coding agent's tool calls did, read
//! deterministically from the compacted head. Files touched and what
//! changed in them, each distinct command with its exit status and the
//! output lines that matter, errors and what fixed them, the latest plan,
//! and the user's answers to the agent's questions. Every line names the
//! message it came from (`[m12]`, as the audit names input items).
//!
//! The digest carries what a file's content cannot: the agent can re-read
//! a file, not the history of what it did to it. Lines are ranked so that,
//! at a small target, what matters most is kept first.

pub mod exec;
pub mod files;
pub mod kinds;
mod names;
mod state;

use std::collections::BTreeMap;

use crate::markers::{WORKING_STATE_HEADER, WORKING_STATE_PREFIX};
use crate::transcript::{Message, Part, PartRef, Transcript};

pub use kinds::{kind_of, ToolKind};

/// The sections of the digest, in the order they are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    Plan,
    Answers,
    Pointed,
    Errors,
    Files,
    Commands,
    Identifiers,
    Read,
}

impl Section {
    pub const ALL: [Section; 8] = [
        Section::Plan,
        Section::Answers,
        Section::Pointed,
        Section::Errors,
        Section::Files,
        Section::Commands,
        Section::Identifiers,
        Section::Read,
    ];

    /// The section's header line.
    pub fn header(self) -> &'static str {
        match self {
            Section::Plan => "Plan (latest):",
            Section::Answers => "The user's answers to the agent's questions (verbatim):",
            Section::Pointed => {
                "What the user pointed the agent to (the output, verbatim; ⏎ ends a line):"
            }
            Section::Errors => "Errors and what fixed them:",
            Section::Files => "Files (content not kept; read them again if needed):",
            Section::Commands => "Commands (latest run of each):",
            Section::Identifiers => {
                "Names from tool results that the conversation used again (source first):"
            }
            Section::Read => "Names the files read last use most (source first):",
        }
    }

    fn of_header(line: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.header() == line)
    }
}

/// One line of the digest.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub section: Section,
    /// What makes two entries the same thing (a path, a command), so a
    /// later one replaces an earlier or carried one.
    pub key: String,
    /// The line as written, `- …`.
    pub line: String,
    /// The part it came from (a carried line: the earlier block's part).
    pub at: PartRef,
    /// Lower is kept first when the budget is short.
    pub rank: u8,
}

/// The digest of a head, in section order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorkingState {
    pub entries: Vec<Entry>,
    /// Where the work stands, in whole sentences (see `state::outline`).
    pub outline: Vec<String>,
    /// The directory every absolute path named in files and errors is
    /// under: written once in the header, not on every line.
    pub root: Option<String>,
}

impl WorkingState {
    /// The digest of `head` (the messages being compacted). Tool kinds come
    /// from the built-in tables and the policy's `overrides`. A digest an
    /// earlier compaction wrote is carried forward; a fresher line about
    /// the same path or command replaces its carried one.
    pub fn of(head: &[Message], overrides: &BTreeMap<String, ToolKind>) -> Self {
        let (fresh, outline) = state::digest(head, overrides);
        let mut entries: Vec<Entry> = carried(head)
            .into_iter()
            .filter(|c| {
                !fresh
                    .iter()
                    .any(|f| f.section == c.section && f.key == c.key)
            })
            .collect();
        entries.extend(fresh);
        entries.sort_by_key(|e| e.section);
        let root = common_root(&entries);
        if let Some(root) = &root {
            let prefix = format!("{root}/");
            for e in entries
                .iter_mut()
                .filter(|e| matches!(e.section, Section::Files | Section::Errors))
            {
                e.line = e.line.replace(&prefix, "");
            }
        }
        WorkingState {
            entries,
            outline,
            root,
        }
    }

    /// The digest's first line: the header, with the root its relative
    /// paths are under.
    pub fn header(&self) -> String {
        match &self.root {
            Some(root) => format!(
                "{}; relative paths are under {root}/):",
                WORKING_STATE_HEADER.trim_end_matches("):")
            ),
            None => WORKING_STATE_HEADER.to_string(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether the digest holds what tools did (not only the user's
    /// answers): the session is a coding one.
    pub fn is_coding(&self) -> bool {
        self.entries.iter().any(|e| e.section != Section::Answers)
    }

    /// The digest's text with only the entries `keep` accepts (by index).
    pub fn render(&self, keep: impl Fn(usize) -> bool) -> String {
        let mut out: Vec<String> = Vec::new();
        let mut section = None;
        for (_, e) in self.entries.iter().enumerate().filter(|(i, _)| keep(*i)) {
            if out.is_empty() {
                out.push(self.header());
            }
            if section != Some(e.section) {
                out.push(e.section.header().to_string());
                section = Some(e.section);
            }
            out.push(e.line.clone());
        }
        out.join("\n")
    }
}

/// Whether a transcript is a coding session: a tool call reads or writes a
/// file, runs a command or updates a plan.
pub fn is_coding(t: &Transcript, overrides: &BTreeMap<String, ToolKind>) -> bool {
    t.messages
        .iter()
        .flat_map(|m| m.tool_calls())
        .any(|(_, name, args)| {
            matches!(
                kind_of(name, args, overrides),
                ToolKind::Read | ToolKind::Write | ToolKind::Exec | ToolKind::Plan
            )
        })
}

/// The digest lines an earlier compaction wrote into its continuity block,
/// read back with their sections.
fn carried(head: &[Message]) -> Vec<Entry> {
    let mut out = Vec::new();
    for (mi, m) in head.iter().enumerate() {
        for (pi, p) in m.parts.iter().enumerate() {
            let Part::Text(text) = &p.part else {
                continue;
            };
            if !crate::markers::is_compacted_head(text) {
                continue;
            }
            out.extend(carried_lines(text, PartRef::new(mi, pi)));
        }
    }
    out
}

/// The directory the session works in, where the file paths show it: the
/// deepest directory of the absolute paths' common one that a command
/// enters (`cd DIR`) or names a path relative to (`./cmd/x`, ` test/x`:
/// a directory the file paths have under it).
/// Paths written relative to it read as the agent's own commands write
/// them. `None` when no command shows it: a guess would cut a path short.
fn common_root(entries: &[Entry]) -> Option<String> {
    let paths: Vec<&str> = entries
        .iter()
        .filter(|e| e.section == Section::Files && e.key.starts_with('/'))
        .map(|e| e.key.as_str())
        .collect();
    let (first, rest) = paths.split_first()?;
    let dirs = |p: &str| -> Vec<String> {
        let parts: Vec<&str> = p.split('/').collect();
        parts[..parts.len() - 1]
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    let mut root = dirs(first);
    for p in rest {
        let d = dirs(p);
        let same = root.iter().zip(&d).take_while(|(a, b)| a == b).count();
        root.truncate(same);
    }
    let commands: Vec<&str> = entries
        .iter()
        .filter(|e| e.section == Section::Commands)
        .map(|e| e.key.as_str())
        .collect();
    // `["", "home", "user"]` is `/home/user`: two levels at least.
    (3..=root.len()).rev().find_map(|len| {
        let dir = root[..len].join("/");
        let entered = commands.iter().any(|c| c.contains(&format!("cd {dir}")));
        let children: Vec<&str> = paths
            .iter()
            .filter_map(|p| p.strip_prefix(&format!("{dir}/")))
            .filter_map(|rel| rel.split_once('/').map(|(child, _)| child))
            .collect();
        let named = commands.iter().any(|c| {
            children.iter().any(|child| {
                [" ", "./", "'", "\""]
                    .iter()
                    .any(|before| c.contains(&format!("{before}{child}/")))
            })
        });
        (entered || named).then_some(dir)
    })
}

/// The root a digest header names, if any.
fn root_of_header(line: &str) -> Option<&str> {
    line.split("; relative paths are under ")
        .nth(1)
        .and_then(|r| r.strip_suffix("/):"))
}

fn carried_lines(text: &str, at: PartRef) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut inside = false;
    let mut section = None;
    let mut root = None;
    for line in text.lines() {
        if line.starts_with(WORKING_STATE_PREFIX) {
            inside = true;
            root = root_of_header(line).map(|r| format!("{r}/"));
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(s) = Section::of_header(line) {
            section = Some(s);
        } else if let (Some(s), Some(body)) = (section, line.strip_prefix("- ")) {
            // A file line written under a root names its path relative to
            // it: read back whole, so a fresh line about it replaces it.
            let line = match (&root, s) {
                (Some(r), Section::Files) if !body.starts_with('/') => format!("- {r}{body}"),
                _ => line.to_string(),
            };
            out.push(Entry {
                section: s,
                key: state::key_of_line(s, &line),
                line,
                at,
                rank: state::rank_of_carried(s),
            });
        } else {
            // The digest ends at the first line that is neither a header
            // nor an entry (the next section of the block).
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::Role;

    #[test]
    fn a_digest_written_before_is_read_back_and_a_fresher_line_replaces_it() {
        let state = WorkingState {
            entries: vec![
                Entry {
                    section: Section::Files,
                    key: "a.rs".into(),
                    line: "- a.rs: edited 1× [m3]".into(),
                    at: PartRef::new(3, 0),
                    rank: 1,
                },
                Entry {
                    section: Section::Commands,
                    key: "cargo test".into(),
                    line: "- `cargo test` → exit 101 [m4]".into(),
                    at: PartRef::new(4, 0),
                    rank: 1,
                },
            ],
            outline: Vec::new(),
            root: None,
        };
        let block = format!(
            "{}]\nEarlier conversation was compacted.\n{}\nFACTS RETURNED BY TOOLS:",
            crate::markers::CONTINUITY_TAG,
            state.render(|_| true)
        );
        let head = vec![Message::new(Role::User, vec![Part::Text(block)])];
        let read = carried(&head);
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].key, "a.rs");
        assert_eq!(read[1].key, "cargo test");
        assert_eq!(read[1].line, "- `cargo test` → exit 101 [m4]");
    }
}
