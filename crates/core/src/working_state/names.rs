//! Names that tools returned and the conversation used again: the
//! identifiers (functions, constants, members, short hashes) a later turn is
//! likely to need, found by their shape, not by any project's vocabulary.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;

use super::{Entry, Section};
use crate::transcript::PartRef;

/// The most names listed, and per line.
const NAMES: usize = 60;
/// The most names listed that only a later tool call used again.
const CALL_NAMES: usize = 40;
/// The most names listed that only a later tool result carried again.
const RETURNED_NAMES: usize = 40;
const PER_LINE: usize = 10;
/// The file contents read last whose names are listed.
const LATEST_READS: usize = 12;
/// The names of a file read last rank below everything else: they fill
/// what room is left, as the files an agent just read are what it works
/// on next.
pub const READ_RANK: u8 = 4;

fn name_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            // camelCase, PascalCase with an inner capital, snake_case,
            // SCREAMING_CASE, a member (`pkg.Name`), a short hex hash.
            r"(?-u:\b)(?:[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*",
            r"|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*",
            r"|[a-z][a-z0-9]*(?:_[a-z0-9]+)+",
            r"|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+",
            r"|[a-z][a-z0-9]*\.[A-Z][A-Za-z0-9]+",
            r"|[0-9a-f]{7,12})(?-u:\b)"
        ))
        .expect("static regex")
    })
}

/// A match that is a name: long enough, and a hash only when it mixes
/// digits and letters.
fn is_name(s: &str) -> bool {
    if s.len() < 6 {
        return false;
    }
    let hex = s.chars().all(|c| c.is_ascii_hexdigit());
    !hex || (s.chars().any(|c| c.is_ascii_digit()) && s.chars().any(|c| c.is_ascii_alphabetic()))
}

#[derive(Default)]
pub struct Names {
    /// Name → the message whose tool call or result first carried it.
    source: HashMap<String, usize>,
    /// Name → (source message, last message that used it).
    used: HashMap<String, (usize, usize)>,
    /// The same for names the agent's own later calls used again (an edit,
    /// a search), listed after those the conversation used.
    called: HashMap<String, (usize, usize)>,
    /// The same for names a later tool result carried again (a second
    /// file or search that names them), listed last, at the lowest rank.
    returned: HashMap<String, (usize, usize)>,
    /// The newest file contents read: their message, and the names they
    /// use more than once, the most used first.
    latest_reads: Vec<(usize, Vec<String>)>,
}

impl Names {
    /// Names in a tool's result: a name an earlier result carried is
    /// carried again; a new one is noted with its source.
    pub fn evidence(&mut self, text: &str, message: usize) {
        note_names(&mut self.source, &mut self.returned, text, message);
    }

    /// Names in a tool call's arguments: the agent typed a name a tool
    /// returned before (an edit, a search for it) or brings a new one.
    pub fn call(&mut self, text: &str, message: usize) {
        note_names(&mut self.source, &mut self.called, text, message);
    }

    /// A file's content as a read returned it: its most used names are
    /// kept while it is among the [`LATEST_READS`] newest.
    pub fn file_content(&mut self, text: &str, message: usize) {
        // Each name's count, and where it first appears.
        let mut seen: HashMap<&str, (usize, usize)> = HashMap::new();
        for m in name_re().find_iter(text).filter(|m| is_name(m.as_str())) {
            let first = seen.len();
            seen.entry(m.as_str()).or_insert((0, first)).0 += 1;
        }
        let mut counts: Vec<(&str, usize, usize)> = seen
            .into_iter()
            .map(|(n, (c, first))| (n, c, first))
            .collect();
        // Names used as often keep the order they first appear in.
        counts.sort_by_key(|&(_, c, first)| (std::cmp::Reverse(c), first));
        let most: Vec<String> = counts
            .into_iter()
            .take_while(|&(_, c, _)| c > 1)
            .take(PER_LINE)
            .map(|(n, _, _)| n.to_string())
            .collect();
        if most.is_empty() {
            return;
        }
        self.latest_reads.retain(|(m, _)| *m != message);
        self.latest_reads.push((message, most));
        if self.latest_reads.len() > LATEST_READS {
            self.latest_reads.remove(0);
        }
    }

    /// Names in what the user or the assistant wrote.
    pub fn conversation(&mut self, text: &str, message: usize) {
        for m in name_re().find_iter(text) {
            if let Some(&source) = self.source.get(m.as_str()) {
                if source < message {
                    self.used.insert(m.as_str().to_string(), (source, message));
                }
            }
        }
    }

    /// One line per source message, names the `elsewhere` text does not
    /// already hold, most recently used first; each line dated by its
    /// latest use, so the newest survive a short budget. Names only a
    /// later call used come after. Both rank with the files and commands:
    /// a name used again is what a later turn searches or edits by. Names
    /// that only another tool result carried again come last, at rank 3,
    /// below the verbatim evidence: two results naming one symbol mark it
    /// as one the work revolves around, but nobody has used it yet.
    pub fn entries(&self, elsewhere: &str) -> Vec<Entry> {
        let said = pick(&self.used, |n| !elsewhere.contains(n), NAMES);
        let called = pick(
            &self.called,
            |n| !elsewhere.contains(n) && !self.used.contains_key(n),
            CALL_NAMES,
        );
        let returned = pick(
            &self.returned,
            |n| {
                !elsewhere.contains(n) && !self.used.contains_key(n) && !self.called.contains_key(n)
            },
            RETURNED_NAMES,
        );
        let mut out = lines(said, 1);
        out.extend(lines(called, 1));
        out.extend(lines(returned, 3));
        let listed = out
            .iter()
            .map(|e| e.line.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        out.extend(self.read_entries(&format!("{elsewhere}\n{listed}")));
        out
    }

    /// One line per file content read last, newest first, with its most
    /// used names that `elsewhere` does not hold.
    fn read_entries(&self, elsewhere: &str) -> Vec<Entry> {
        self.latest_reads
            .iter()
            .rev()
            .filter_map(|(message, names)| {
                let names: Vec<&str> = names
                    .iter()
                    .map(String::as_str)
                    .filter(|n| !elsewhere.contains(n))
                    .collect();
                (!names.is_empty()).then(|| Entry {
                    section: Section::Read,
                    key: format!("read m{message} {}", names.join(",")),
                    line: format!("- [m{message}] {}", names.join(", ")),
                    at: PartRef::new(*message, 0),
                    rank: READ_RANK,
                })
            })
            .collect()
    }
}

/// Each name in `text`: one an earlier message carried goes into `again`
/// with that source; a new one becomes a source.
fn note_names(
    source: &mut HashMap<String, usize>,
    again: &mut HashMap<String, (usize, usize)>,
    text: &str,
    message: usize,
) {
    for m in name_re().find_iter(text) {
        let name = m.as_str();
        match source.get(name) {
            Some(&first) if first < message => {
                again.insert(name.to_string(), (first, message));
            }
            Some(_) => {}
            None if is_name(name) => {
                source.insert(name.to_string(), message);
            }
            None => {}
        }
    }
}

/// At most `max` names that pass `keep`, the most recently used first.
fn pick(
    uses: &HashMap<String, (usize, usize)>,
    keep: impl Fn(&str) -> bool,
    max: usize,
) -> Vec<(&String, &(usize, usize))> {
    let mut names: Vec<_> = uses.iter().filter(|(name, _)| keep(name)).collect();
    names.sort_by(|a, b| b.1 .1.cmp(&a.1 .1).then(a.0.cmp(b.0)));
    names.truncate(max);
    names
}

/// The names grouped by source message, `PER_LINE` to a line.
fn lines(names: Vec<(&String, &(usize, usize))>, rank: u8) -> Vec<Entry> {
    let mut by_source: Vec<(usize, usize, Vec<&str>)> = Vec::new();
    for (name, &(source, last)) in names {
        match by_source
            .iter_mut()
            .find(|(s, _, n)| *s == source && n.len() < PER_LINE)
        {
            Some((_, _, n)) => n.push(name),
            None => by_source.push((source, last, vec![name])),
        }
    }
    by_source
        .into_iter()
        .map(|(source, last, names)| Entry {
            section: Section::Identifiers,
            key: format!("names m{source} {}", names.join(",")),
            line: format!("- [m{source}] {}", names.join(", ")),
            at: PartRef::new(last, 0),
            rank,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_from_a_result_that_a_later_turn_uses_is_listed_once() {
        let mut n = Names::default();
        n.evidence(
            "func scanCommits() {}\nconst MAX_DEPTH = 3 // a1b2c3d\nlocal_only_name",
            2,
        );
        n.conversation(
            "I will call scanCommits before a1b2c3d; MAX_DEPTH stays.",
            5,
        );
        n.conversation("scanCommits again, and an unrelated otherName.", 7);
        let e = n.entries("");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, "- [m2] scanCommits, MAX_DEPTH, a1b2c3d");
        assert_eq!(e[0].at, PartRef::new(7, 0));
        assert!(
            n.entries("scanCommits MAX_DEPTH a1b2c3d").is_empty(),
            "already carried"
        );
    }

    #[test]
    fn a_name_a_later_call_used_again_comes_after_those_said() {
        let mut n = Names::default();
        n.evidence("fn update_inputs() {}\nlet last_index = 0; spokenName", 2);
        n.call("edit: update_inputs(socket) and last_index + 1", 4);
        n.call("grep fresh_name_here", 5);
        n.conversation("spokenName stays", 6);
        let e = n.entries("");
        let lines: Vec<(&str, u8)> = e.iter().map(|e| (e.line.as_str(), e.rank)).collect();
        assert_eq!(
            lines,
            vec![
                ("- [m2] spokenName", 1),
                ("- [m2] last_index, update_inputs", 1)
            ]
        );
    }

    #[test]
    fn a_name_two_results_carried_comes_last_at_the_lowest_rank() {
        let mut n = Names::default();
        n.evidence("export const renderQueue = []; once_only_name", 2);
        n.evidence("import { renderQueue } from './m'", 2);
        assert!(n.entries("").is_empty(), "the same result is not another");
        n.evidence("renderQueue.map(render)", 4);
        n.conversation("spokenName is unrelated", 5);
        let lines: Vec<(String, u8)> = n
            .entries("")
            .into_iter()
            .map(|e| (e.line, e.rank))
            .collect();
        assert_eq!(lines, vec![("- [m2] renderQueue".to_string(), 3)]);
        assert!(n.entries("renderQueue").is_empty(), "already carried");
    }

    #[test]
    fn a_name_said_before_the_tool_returned_it_is_not_reuse() {
        let mut n = Names::default();
        n.conversation("look for parseConfig", 1);
        n.evidence("function parseConfig() {}", 3);
        assert!(n.entries("").is_empty());
        assert!(!is_name("deadbeef"), "letters only: a word, not a hash");
        assert!(!is_name("1234567"), "digits only: a number");
    }

    #[test]
    fn the_names_a_file_read_last_uses_most_fill_the_lowest_rank() {
        let mut n = Names::default();
        n.file_content("parseConfig(a); parseConfig(b); onceName", 2);
        for i in 0..LATEST_READS - 3 {
            n.file_content("olderRead olderRead", 3 + i);
        }
        n.file_content("createEnv(); createEnv(); MAX_ROWS MAX_ROWS MAX_ROWS", 100);
        n.file_content("loadPlugins loadPlugins", 101);
        n.file_content("buildIndex buildIndex", 102);
        let lines: Vec<(String, u8)> = n
            .entries("loadPlugins olderRead are already carried")
            .into_iter()
            .map(|e| (e.line, e.rank))
            .collect();
        assert_eq!(
            lines,
            vec![
                ("- [m102] buildIndex".to_string(), READ_RANK),
                ("- [m100] MAX_ROWS, createEnv".to_string(), READ_RANK),
            ],
            "the newest reads, newest first, most used first; \
             a name carried elsewhere and the oldest read are left out"
        );
        n.file_content("no name used twice here", 103);
        assert_eq!(
            n.entries("").len(),
            LATEST_READS,
            "a read without names keeps the rest"
        );
    }
}
