//! Withheld values carried from one compaction of a run to the next, as
//! keyed hashes and never as values.
//!
//! Every value is hashed in its normal form (its words, the maximal runs
//! of letters and digits, joined by single spaces) with the run's salt.
//! The personal placeholder shows the first hex digits of that hash, so the
//! same value reads the same in every compaction of the run. The policy pin
//! carries the salt, and each value's kind, placeholder, hash and shape
//! (words and bytes of its normal form); the next compaction hashes every
//! span of text with a carried shape and withholds the spans whose hash was
//! carried, even where no detector would find them again.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Hex digits of the keyed hash in a personal placeholder; two values of a
/// run that share them get longer ones.
pub const SHORT_HASH: usize = 6;

/// Hex digits of the keyed hash that is carried (128 bits).
const CARRIED_HASH: usize = 32;

/// What one compaction hands the next about the values it withheld.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WithheldCarry {
    /// The run's key for hashing values (hex). It is derived from the whole
    /// first input, so only someone who holds that input, and so the values
    /// themselves, can recompute it; it stays in the local pin.
    pub salt: String,
    /// Every value withheld so far in the run, in hash order.
    pub values: Vec<CarriedValue>,
}

impl WithheldCarry {
    pub fn is_empty(&self) -> bool {
        self.salt.is_empty() && self.values.is_empty()
    }
}

/// One withheld value, as a keyed hash and a shape.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarriedValue {
    /// `email`, `name`, `secret:github-pat`, ...
    pub kind: String,
    pub placeholder: String,
    /// The keyed hash of the value's normal form.
    pub hash: String,
    /// Words in the normal form.
    pub words: usize,
    /// Bytes of the normal form.
    pub bytes: usize,
}

/// The byte spans of a text's words: maximal runs of letters and digits.
fn words(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

/// A value's words joined by single spaces: `+353 (1) 555-0199` and
/// `353 1 555 0199` are the same value.
pub fn normal_form(value: &str) -> String {
    words(value)
        .into_iter()
        .map(|(s, e)| &value[s..e])
        .collect::<Vec<_>>()
        .join(" ")
}

/// The keyed hash of a normal form (hex, 128 bits).
pub fn keyed_hash(salt: &str, normal: &str) -> String {
    let mut h = Sha256::new();
    h.update(salt.as_bytes());
    h.update([0u8]);
    h.update(normal.as_bytes());
    let mut hex = hex::encode(h.finalize());
    hex.truncate(CARRIED_HASH);
    hex
}

/// A run's salt, from its first input: every text of it, in order.
pub fn derive_salt<'a>(texts: impl Iterator<Item = &'a str>) -> String {
    let mut h = Sha256::new();
    h.update(b"continuity/withheld-salt/v1");
    for t in texts {
        h.update((t.len() as u64).to_le_bytes());
        h.update(t.as_bytes());
    }
    hex::encode(h.finalize())
}

/// The carried values of a run, ready to be looked for in text.
#[derive(Debug, Default)]
pub struct Carried {
    by_hash: HashMap<String, (String, String)>,
    shapes: HashSet<(usize, usize)>,
    /// Distinct word counts, longest first (a longer value wins).
    lengths: Vec<usize>,
}

/// A carried value found in a text: its span, placeholder and kind.
pub struct Found {
    pub start: usize,
    pub end: usize,
    pub placeholder: String,
    pub kind: String,
}

impl Carried {
    pub fn new(values: &[CarriedValue]) -> Self {
        let mut c = Carried::default();
        for v in values.iter().filter(|v| v.words > 0) {
            c.by_hash
                .insert(v.hash.clone(), (v.placeholder.clone(), v.kind.clone()));
            c.shapes.insert((v.words, v.bytes));
        }
        let mut lengths: Vec<usize> = c.shapes.iter().map(|(w, _)| *w).collect();
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        lengths.dedup();
        c.lengths = lengths;
        c
    }

    pub fn is_empty(&self) -> bool {
        self.by_hash.is_empty()
    }

    /// The placeholder an earlier compaction gave the value of this hash.
    pub fn placeholder_of(&self, hash: &str) -> Option<&str> {
        self.by_hash.get(hash).map(|(p, _)| p.as_str())
    }

    /// Every span of `text` whose words hash to a carried value, in order
    /// and without overlaps. Only spans of a carried shape are hashed.
    pub fn find(&self, salt: &str, text: &str) -> Vec<Found> {
        let mut out = Vec::new();
        if self.is_empty() {
            return out;
        }
        let spans = words(text);
        let mut i = 0;
        while i < spans.len() {
            match self.match_at(salt, text, &spans, i) {
                Some((k, placeholder, kind)) => {
                    out.push(Found {
                        start: spans[i].0,
                        end: spans[i + k - 1].1,
                        placeholder,
                        kind,
                    });
                    i += k;
                }
                None => i += 1,
            }
        }
        out
    }

    /// The longest carried value that starts at word `i`: its word count,
    /// placeholder and kind.
    fn match_at(
        &self,
        salt: &str,
        text: &str,
        spans: &[(usize, usize)],
        i: usize,
    ) -> Option<(usize, String, String)> {
        for &k in &self.lengths {
            let Some(run) = spans.get(i..i + k) else {
                continue;
            };
            let bytes = run.iter().map(|(s, e)| e - s).sum::<usize>() + k - 1;
            if !self.shapes.contains(&(k, bytes)) {
                continue;
            }
            let normal = run
                .iter()
                .map(|(s, e)| &text[*s..*e])
                .collect::<Vec<_>>()
                .join(" ");
            if let Some((p, kind)) = self.by_hash.get(&keyed_hash(salt, &normal)) {
                return Some((k, p.clone(), kind.clone()));
            }
        }
        None
    }
}

/// The carried entry of a value.
pub fn carried_value(salt: &str, value: &str, placeholder: &str, kind: &str) -> CarriedValue {
    let normal = normal_form(value);
    CarriedValue {
        kind: kind.to_string(),
        placeholder: placeholder.to_string(),
        hash: keyed_hash(salt, &normal),
        words: words(&normal).len(),
        bytes: normal.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_forms_ignore_punctuation_and_spacing() {
        assert_eq!(normal_form("+353 (1) 555-0199"), "353 1 555 0199");
        assert_eq!(normal_form("dana.w@example.org"), "dana w example org");
        assert_eq!(normal_form("  Dana  Whitfield "), "Dana Whitfield");
    }

    #[test]
    fn a_carried_value_is_found_in_any_spelling() {
        let v = carried_value("s", "+353 1 555 0199", "<withheld:phone:abc123>", "phone");
        let c = Carried::new(&[v]);
        let text = "call (353) 1-555-0199 now";
        let found = c.find("s", text);
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].start..found[0].end], "353) 1-555-0199");
        assert!(c.find("other salt", text).is_empty());
        assert!(c.find("s", "call 353 1 555 0198").is_empty());
    }
}
