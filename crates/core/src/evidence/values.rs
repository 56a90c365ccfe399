//! Literal values in text: ids, numbers, paths, versions, the tokens a later
//! turn repeats when it relies on an earlier result, and an index of where
//! each one was last mentioned outside tool results.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;

use crate::transcript::{value_text, Part, Transcript};

fn token_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"[A-Za-z0-9_$€£#~/][A-Za-z0-9_.:/@#%+~-]*[A-Za-z0-9_%]|[0-9]")
            .expect("static regex")
    })
}

/// Whether a token is a literal value rather than a word: it has a digit
/// (ids, amounts, versions, dates), or is a path or a dotted or snake/kebab
/// identifier with a separator inside, or an all-caps code of 3+ letters.
pub fn is_literal(token: &str) -> bool {
    let n = token.chars().count();
    if n < 2 {
        return false;
    }
    let digits = token.chars().filter(char::is_ascii_digit).count();
    if digits > 0 {
        // A bare one- or two-digit number is too common to identify anything.
        return digits < n || n >= 3;
    }
    if token.contains('/') && n >= 4 {
        return true;
    }
    let inner_sep = token
        .trim_matches(|c: char| !c.is_alphanumeric())
        .contains(['_', '.', '@']);
    let upper_code = n >= 3
        && token.chars().all(|c| c.is_ascii_uppercase() || c == '-')
        && token.chars().filter(char::is_ascii_uppercase).count() >= 3;
    inner_sep || upper_code
}

/// The literal values in a text, in order (duplicates included).
pub fn literals(text: &str) -> impl Iterator<Item = &str> {
    token_re()
        .find_iter(text)
        .map(|m| m.as_str().trim_end_matches(['.', ':', '-']))
        .filter(|t| is_literal(t))
}

/// Where each literal value was last mentioned outside tool results (user
/// and assistant text, tool-call arguments): a later mention means a later
/// turn relies on whatever returned the value.
#[derive(Debug, Default, Clone)]
pub struct Mentions {
    last: HashMap<String, usize>,
}

impl Mentions {
    pub fn of(t: &Transcript) -> Self {
        let mut last = HashMap::new();
        for (mi, m) in t.messages.iter().enumerate() {
            for p in &m.parts {
                let text = match &p.part {
                    Part::Text(s) | Part::SystemText(s) => s.clone(),
                    Part::ToolCall { args, .. } => value_text(args),
                    _ => continue,
                };
                for v in literals(&text) {
                    last.insert(v.to_string(), mi);
                }
            }
        }
        Mentions { last }
    }

    /// Whether `value` is mentioned in a message after `message`.
    pub fn after(&self, value: &str, message: usize) -> bool {
        self.last.get(value).is_some_and(|&at| at > message)
    }

    /// Whether any literal of `text` is mentioned after `message`.
    pub fn any_after(&self, text: &str, message: usize) -> bool {
        literals(text).any(|v| self.after(v, message))
    }
}

const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "vs", "etc", "mr", "mrs", "dr", "inc", "co", "no", "approx",
];

/// Split prose into sentences without breaking amounts, ids or abbreviations.
pub fn split_sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for block in text.split('\n') {
        let chars: Vec<char> = block.chars().collect();
        let mut start = 0;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if matches!(c, '.' | '!' | '?') {
                let next_ws = chars.get(i + 1).is_some_and(|n| n.is_whitespace());
                let after = chars[i + 1..].iter().find(|n| !n.is_whitespace());
                let starts_new = after.is_some_and(|n| {
                    n.is_uppercase() || n.is_ascii_digit() || matches!(n, '(' | '"' | '\'' | '[')
                });
                let word_before: String = chars[start..i]
                    .iter()
                    .rev()
                    .take_while(|ch| !ch.is_whitespace())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let abbreviation = c == '.'
                    && ABBREVIATIONS.contains(&word_before.to_lowercase().trim_start_matches('('));
                if next_ws && starts_new && !abbreviation {
                    push_sentence(&mut out, &chars[start..=i]);
                    start = i + 1;
                }
            }
            i += 1;
        }
        if start < chars.len() {
            push_sentence(&mut out, &chars[start..]);
        }
    }
    out
}

fn push_sentence(out: &mut Vec<String>, chars: &[char]) {
    let s: String = chars.iter().collect();
    let s = s.trim().trim_start_matches(['-', '*', '•']).trim();
    if s.split_whitespace().count() >= 3 {
        out.push(s.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_ids_numbers_and_paths_not_words() {
        let found: Vec<&str> = literals(
            "Deploy rel-2026-a to eu-west-3 from /srv/app/config.toml; exit code: 1; status open, owner Casey, RC-77. Port 5413.",
        )
        .collect();
        assert_eq!(
            found,
            vec![
                "rel-2026-a",
                "eu-west-3",
                "/srv/app/config.toml",
                "RC-77",
                "5413"
            ]
        );
        assert!(is_literal("snake_case_name") && is_literal("MEMENTO-4") && is_literal("ABC"));
        assert!(!is_literal("open") && !is_literal("1") && !is_literal("Casey"));
    }
}
