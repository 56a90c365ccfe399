//! What the user stated: each user text of the compacted head is carried
//! verbatim with its position, unless a later statement restates every key
//! it set (the latest value wins per key) or it declares itself off the
//! mission. Without a kernel the first user text is the mission.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;

use crate::markers::{is_agent_summary, is_compacted_head};
use crate::transcript::{Part, PartRef, Role, Transcript};

use super::relevance::self_declared_irrelevant;

/// A ledger-like statement is superseded only when what is left of it
/// beyond its `key=value` pairs is at most this many words (a header such as
/// "Candidates, batch 3:"): a statement with prose besides its values says
/// more than its keys.
const LEDGER_REST_WORDS: usize = 16;

/// What becomes of one user statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StatementStatus {
    /// The mission when there is no kernel: always carried.
    Mission,
    /// Carried verbatim when the budget allows (newest first).
    Carried,
    /// Every key it set is set again by a later user statement.
    Superseded { by: PartRef },
    /// Its opening says it is off the mission.
    SelfDeclared { cue: String },
    /// The mission brief a kernel formalises (it names the kernel or
    /// repeats its objective): the kernel stands in for it.
    CoveredByKernel,
}

/// One user text of the head.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    pub part: PartRef,
    pub text: String,
    /// Keys it sets (`key=value`, `key: value`, `key -> value`), lowercased.
    pub keys: Vec<String>,
    pub status: StatementStatus,
    /// The text a harness expanded a command into (a Claude Code slash
    /// command's file), not words the user typed: it yields to the digest.
    pub expansion: bool,
}

/// Whether a user text invokes a harness command (Claude Code writes
/// `<command-name>/name</command-name>`); the text after it in the same
/// turn is that command's file, expanded.
fn invokes_command(text: &str) -> bool {
    let t = text.trim_start();
    (t.starts_with("<command-message>") || t.starts_with("<command-name>"))
        && t.contains("</command-name>")
}

fn pair_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // A key is one identifier-like token: letters, digits, `_ . - /`.
        Regex::new(
            r"(?:^|[\s;,(\[])([A-Za-z][A-Za-z0-9_./-]*[A-Za-z0-9_])\s?(?:=|->|→|:)\s?[^\s;,]",
        )
        .expect("static regex")
    })
}

/// The keys a text sets, in order, lowercased. A bare word before a colon
/// (`Note: …`) is prose, not a key: keys with a colon need a digit or an
/// inner separator.
pub fn keys_of(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut from = 0;
    // Matches may overlap (`values: f-1=x`): resume after each key, not
    // after each whole match.
    while let Some(c) = pair_re().captures_at(text, from) {
        let (Some(whole), Some(key)) = (c.get(0), c.get(1)) else {
            break;
        };
        from = key.end();
        let (whole, key) = (whole.as_str(), key.as_str());
        let colon = !whole.contains('=') && !whole.contains("->") && !whole.contains('→');
        let identifier =
            key.chars().any(|ch| ch.is_ascii_digit()) || key.contains(['_', '-', '.', '/']);
        if !colon || identifier {
            keys.push(key.to_lowercase());
        }
    }
    keys
}

/// Words of `text` outside its `key=value` pairs.
fn rest_words(text: &str) -> usize {
    let mut n = 0;
    for token in text.split([';', ',', '\n']) {
        if keys_of(token).is_empty() {
            n += token.split_whitespace().count();
        } else {
            // "Header: k=v" keeps its header words.
            n += token
                .split_whitespace()
                .filter(|w| !w.contains(['=', '>']))
                .count()
                .saturating_sub(1);
        }
    }
    n
}

/// `text` with each fenced code block replaced by one line that says how
/// many lines were left out; an unclosed fence is kept as it is.
fn without_code_blocks(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let fence = line.trim_start().starts_with("```");
        let close = fence
            .then(|| (i + 1..lines.len()).find(|&j| lines[j].trim_start().starts_with("```")))
            .flatten();
        match close {
            Some(j) => {
                let indent = &line[..line.len() - line.trim_start().len()];
                out.push(format!(
                    "{indent}[{} lines of code left out; the file has them]",
                    j - i - 1
                ));
                i = j + 1;
            }
            None => {
                out.push(line.to_string());
                i += 1;
            }
        }
    }
    out.join("\n")
}

/// Every user text part before `head_end` (the compacted head), classified.
/// `mission` is the part that acts as the mission (no kernel), if any.
pub fn statements(t: &Transcript, head_end: usize, mission: Option<PartRef>) -> Vec<Statement> {
    let mut out: Vec<Statement> = Vec::new();
    for (at, p) in t.parts() {
        let Part::Text(text) = &p.part else { continue };
        if t.messages[at.message].role != Role::User || is_compacted_head(text) {
            continue;
        }
        if text.trim().is_empty() {
            continue;
        }
        let expansion = out.last().is_some_and(|prev| {
            prev.part.message == at.message && !prev.expansion && invokes_command(&prev.text)
        });
        // An agent's own earlier summary quotes code the agent can re-read.
        let text = if is_agent_summary(text) {
            without_code_blocks(text)
        } else {
            text.clone()
        };
        out.push(Statement {
            part: at,
            keys: keys_of(&text),
            text,
            status: StatementStatus::Carried,
            expansion,
        });
    }
    // The latest statement of each key, over the whole conversation.
    let mut latest: HashMap<&str, PartRef> = HashMap::new();
    for s in &out {
        for k in &s.keys {
            latest.insert(k.as_str(), s.part);
        }
    }
    let mut classified = Vec::new();
    for s in &out {
        if s.part.message >= head_end {
            continue;
        }
        let status = if Some(s.part) == mission {
            StatementStatus::Mission
        } else if let Some(by) = superseded_by(s, &latest) {
            StatementStatus::Superseded { by }
        } else if let Some(cue) = self_declared_irrelevant(&s.text) {
            StatementStatus::SelfDeclared { cue }
        } else {
            StatementStatus::Carried
        };
        classified.push(Statement {
            status,
            ..s.clone()
        });
    }
    classified
}

/// The later statement that restates the last of `s`'s keys, when every key
/// of a ledger-like `s` is restated later.
fn superseded_by(s: &Statement, latest: &HashMap<&str, PartRef>) -> Option<PartRef> {
    if s.keys.is_empty() || rest_words(&s.text) > LEDGER_REST_WORDS {
        return None;
    }
    let mut by: Option<PartRef> = None;
    for k in &s.keys {
        let at = *latest.get(k.as_str())?;
        if at <= s.part {
            return None;
        }
        by = by.max(Some(at));
    }
    by
}

/// The part that acts as the mission without a kernel: the first user text
/// that is not an earlier compaction's head, ours or the agent's own.
pub fn first_user_text(t: &Transcript) -> Option<PartRef> {
    t.parts()
        .find(|(at, p)| {
            t.messages[at.message].role == Role::User
                && matches!(&p.part, Part::Text(s)
                    if !is_compacted_head(s) && !is_agent_summary(s) && !s.trim().is_empty())
        })
        .map(|(at, _)| at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{Format, Message};

    #[test]
    fn an_agents_own_compaction_summary_is_not_the_mission() {
        let t = t(&[
            "This session is being continued from a previous conversation that ran out of context. Summary: …",
            "Now add the tests.",
        ]);
        assert_eq!(first_user_text(&t), Some(PartRef::new(2, 0)));
    }

    fn t(texts: &[&str]) -> Transcript {
        Transcript {
            format: Format::OpenAi,
            instructions: vec![],
            tools: vec![],
            messages: texts
                .iter()
                .flat_map(|s| {
                    [
                        Message::new(Role::User, vec![Part::Text(s.to_string())]),
                        Message::new(Role::Assistant, vec![Part::Text("Noted.".into())]),
                    ]
                })
                .collect(),
            envelope: Default::default(),
            instruction_style: Default::default(),
        }
    }

    #[test]
    fn an_agents_summary_loses_its_code_blocks_and_keeps_its_prose() {
        let summary = "This session is being continued from a previous conversation.\n   - Added `f()`:\n     ```go\n     func f() {}\n     // more\n     ```\n   - Tests pass.\n```\nunclosed";
        let tr = t(&[summary, "Now push it."]);
        let s = statements(&tr, tr.messages.len(), first_user_text(&tr));
        assert_eq!(
            s[0].text,
            "This session is being continued from a previous conversation.\n   - Added `f()`:\n     [2 lines of code left out; the file has them]\n   - Tests pass.\n```\nunclosed"
        );
        assert_eq!(s[1].text, "Now push it.");
    }

    #[test]
    fn a_commands_expanded_file_is_marked_and_the_command_line_is_not() {
        let mut tr = t(&["<command-message>review</command-message>\n<command-name>/review</command-name>\n<command-args>42</command-args>"]);
        tr.messages[0]
            .parts
            .push(crate::transcript::PartRec::new(Part::Text(
                "# Review\nRun every check.".into(),
            )));
        let s = statements(&tr, tr.messages.len(), first_user_text(&tr));
        assert_eq!(
            s.iter().map(|s| s.expansion).collect::<Vec<_>>(),
            vec![false, true]
        );
        assert_eq!(s[0].status, StatementStatus::Mission);
    }

    #[test]
    fn keys_are_identifiers_not_prose_labels() {
        assert_eq!(
            keys_of("Ledger, batch 2: alpha-1=x-9; beta_2 = y; route-a -> node-b; Note: keep it. port: 22"),
            vec!["alpha-1", "beta_2", "route-a"]
        );
        assert_eq!(
            keys_of("gateway-1: ledger-1 and config/path.toml: ok"),
            vec!["gateway-1", "config/path.toml"]
        );
    }

    #[test]
    fn a_ledger_restated_later_is_superseded_and_the_rest_is_carried() {
        let tr = t(&[
            "Mission: keep the ledger.",
            "Candidates, batch 1: f-1=old-a; f-2=old-b.",
            "Keep f-1 as decided, and write the report with every number you find today please.",
            "Final values: f-1=new-a; f-2=new-b.",
            "Archived notes, unrelated to the current work: z-1=q.",
        ]);
        let s = statements(&tr, tr.messages.len(), first_user_text(&tr));
        let status: Vec<&StatementStatus> = s.iter().map(|s| &s.status).collect();
        assert_eq!(status[0], &StatementStatus::Mission);
        assert_eq!(
            status[1],
            &StatementStatus::Superseded {
                by: PartRef::new(6, 0)
            }
        );
        assert_eq!(status[2], &StatementStatus::Carried);
        assert_eq!(status[3], &StatementStatus::Carried);
        assert!(matches!(status[4], StatementStatus::SelfDeclared { .. }));
    }
}
