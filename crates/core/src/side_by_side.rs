//! The agent's own compaction beside ours, measured without a model: the
//! tokens each side's context takes, and which of the exact literals of the
//! compacted request (ids, paths, numbers, commands) each side still holds.
//!
//! A check for sessions without an answer key. The literals are taken from
//! the request's conversation by pattern; each counts as present in a side
//! when it appears there verbatim. The fraction present is comparable
//! between the two sides of the same request. (These literals are wider
//! than [`crate::evidence::values::literals`], the value tokens the pipeline
//! tracks mentions of.) Judging an answer key on both sides is evaluation:
//! `continuity_eval::side_by_side`.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;
use serde::Serialize;

use crate::compact::count_transcript;
use crate::error::Error;
use crate::formats::AgentCompaction;
use crate::tokens::TokenCount;
use crate::transcript::{Part, Transcript};

/// The kinds of literal, in the order they are searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A backticked command or a `$ ` shell line.
    Command,
    /// A file path: two or more segments with a slash, or a name with an
    /// extension.
    Path,
    /// An identifier: letters and digits joined by `-` or `_` with at least
    /// one digit (`INC-4521`, `call_x1`), a hex hash of 7+ digits, a UUID.
    Id,
    /// A number of 3+ digits, or with a decimal point.
    Number,
}

/// One literal of the span.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Literal {
    pub kind: Kind,
    pub text: String,
}

fn patterns() -> &'static [(Kind, Regex)] {
    static P: OnceLock<Vec<(Kind, Regex)>> = OnceLock::new();
    P.get_or_init(|| {
        let make = |k, re: &str| Regex::new(re).ok().map(|r| (k, r));
        [
            make(Kind::Command, r"`([A-Za-z./~][^`\n\\*]{2,80})`|(?m)^\s*\$ ([^\n\\]{3,80})$"),
            make(
                Kind::Path,
                r"(?:[A-Za-z0-9_.~-]*/)+[A-Za-z0-9_.-]+|(?-u:\b)[A-Za-z0-9_-]+\.(?:rs|py|ts|tsx|js|json|jsonl|toml|md|yaml|yml|go|java|c|h|cpp|sh|txt|csv|sql|html|css)(?-u:\b)",
            ),
            make(
                Kind::Id,
                r"(?-u:\b)[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?-u:\b)|(?-u:\b)[A-Za-z]+(?:[-_][A-Za-z0-9]+)*[-_][A-Za-z]*[0-9][A-Za-z0-9]*(?-u:\b)|(?-u:\b)[0-9a-f]{7,40}(?-u:\b)",
            ),
            make(Kind::Number, r"(?-u:\b)\d+\.\d+(?-u:\b)|(?-u:\b)\d{3,}(?-u:\b)"),
        ]
        .into_iter()
        .flatten()
        .collect()
    })
}

/// The distinct literals of `text`, sorted. A literal inside a longer one
/// of an earlier kind (a number inside a path) is not counted again.
pub fn literals(text: &str) -> Vec<Literal> {
    let mut out = BTreeSet::new();
    let mut taken: Vec<(usize, usize)> = Vec::new();
    for (kind, re) in patterns() {
        for caps in re.captures_iter(text) {
            let Some(m) = (1..caps.len())
                .find_map(|i| caps.get(i))
                .or_else(|| caps.get(0))
            else {
                continue;
            };
            let inside = taken.iter().any(|(s, e)| m.start() >= *s && m.end() <= *e);
            let t = m.as_str().trim();
            if inside || t.len() < 3 || t.len() > 160 {
                continue;
            }
            taken.push((m.start(), m.end()));
            out.insert(Literal {
                kind: *kind,
                text: t.to_string(),
            });
        }
    }
    out.into_iter().collect()
}

/// How many of the span's literals an output holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Presence {
    pub present: usize,
    pub total: usize,
    /// `present / total`; 1 when the span has no literal.
    pub fraction: f64,
    /// Present, by kind: (kind, present, total).
    pub by_kind: Vec<(Kind, usize, usize)>,
    /// The literals the output lacks, at most `MISSING_SHOWN`.
    pub missing: Vec<String>,
}

/// Missing literals listed in a [`Presence`].
pub const MISSING_SHOWN: usize = 20;

/// Which of `literals` appear verbatim in `output`.
pub fn presence(literals: &[Literal], output: &str) -> Presence {
    let mut by_kind: Vec<(Kind, usize, usize)> = Vec::new();
    let mut missing = Vec::new();
    let mut present = 0;
    for l in literals {
        let found = output.contains(&l.text);
        present += usize::from(found);
        if !found && missing.len() < MISSING_SHOWN {
            missing.push(l.text.clone());
        }
        match by_kind.iter_mut().find(|(k, _, _)| *k == l.kind) {
            Some(e) => {
                e.1 += usize::from(found);
                e.2 += 1;
            }
            None => by_kind.push((l.kind, usize::from(found), 1)),
        }
    }
    let total = literals.len();
    Presence {
        present,
        total,
        fraction: if total == 0 {
            1.0
        } else {
            present as f64 / total as f64
        },
        by_kind,
        missing,
    }
}

/// The agent's own compaction beside ours, on the same request: the
/// literal state of what was compacted each side still holds, and the
/// tokens each side's context takes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideBySide {
    pub compaction: AgentCompaction,
    /// The request both compacted, and its tokens.
    pub tokens_before: usize,
    /// The agent's context right after its compaction (its summary, and
    /// whatever it carried on with), and ours.
    pub tokens_agent: usize,
    pub tokens_ours: usize,
    /// The literals of the request's conversation (not its instructions).
    pub literals: usize,
    pub agent: Presence,
    pub ours: Presence,
    /// The agent's compaction is opaque (a remote Codex compaction): its
    /// state cannot be read, so its presence counts only what it kept in
    /// the clear.
    pub agent_opaque: bool,
}

/// The instructions and the conversation of a request, as a model reads them.
pub fn whole_text(t: &Transcript) -> String {
    format!("{}\n{}", t.instructions_text(), conversation_text(t))
}

/// The visible text of a request's conversation.
pub fn conversation_text(t: &Transcript) -> String {
    let mut out = String::new();
    for (_, p) in t.parts() {
        out.push_str(&p.part.visible_text());
        out.push('\n');
    }
    out
}

/// Compare the agent's compaction (`agent`, the context it carried on with)
/// with ours (`ours`) of the same request `before`.
pub fn side_by_side(
    compaction: &AgentCompaction,
    before: &Transcript,
    agent: &Transcript,
    ours: &Transcript,
    tokens: &dyn TokenCount,
) -> Result<SideBySide, Error> {
    let span = literals(&conversation_text(before));
    let agent_opaque = agent
        .parts()
        .any(|(_, p)| matches!(p.part, Part::Compaction { .. }));
    Ok(SideBySide {
        compaction: compaction.clone(),
        tokens_before: count_transcript(before, tokens)?,
        tokens_agent: count_transcript(agent, tokens)?,
        tokens_ours: count_transcript(ours, tokens)?,
        literals: span.len(),
        agent: presence(&span, &whole_text(agent)),
        ours: presence(&span, &whole_text(ours)),
        agent_opaque,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_kind_once() {
        let text = "Ran `cargo test -p app` in crates/app/src/lib.rs; INC-4521 failed after 1200 ms (2.5 s). Commit 3f9a2b1c.";
        let got: Vec<(Kind, String)> = literals(text)
            .into_iter()
            .map(|l| (l.kind, l.text))
            .collect();
        for want in [
            (Kind::Command, "cargo test -p app"),
            (Kind::Path, "crates/app/src/lib.rs"),
            (Kind::Id, "INC-4521"),
            (Kind::Number, "1200"),
            (Kind::Number, "2.5"),
            (Kind::Id, "3f9a2b1c"),
        ] {
            assert!(
                got.contains(&(want.0, want.1.to_string())),
                "{want:?} in {got:?}"
            );
        }
        // The digits inside the path and the id are not counted again.
        assert!(!got.iter().any(|(_, t)| t == "4521"), "{got:?}");
    }

    #[test]
    fn presence_counts_verbatim_matches() {
        let l = literals("Fix crates/app/src/lib.rs and INC-4521 by 1200.");
        let p = presence(&l, "Still open: INC-4521.");
        assert_eq!((p.present, p.total), (1, 3));
        assert!((p.fraction - 1.0 / 3.0).abs() < 1e-9);
        assert!(p.missing.contains(&"crates/app/src/lib.rs".to_string()));
        assert_eq!(presence(&[], "x").fraction, 1.0);
    }
}
