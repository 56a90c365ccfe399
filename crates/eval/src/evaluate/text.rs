//! Text units and values: sentences, clauses, and the ids, amounts and dates
//! a sentence asserts, normalised so they can be compared with the records.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::Regex;

/// A piece of summary text the evaluator aligns with facts: a whole sentence
/// or one clause of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub text: String,
    /// Index of the sentence this unit belongs to.
    pub sentence: usize,
}

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("static regex"))
}

const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "vs", "etc", "no", "co", "inc", "ltd", "mr", "ms", "dr", "approx", "jan", "feb",
    "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "st",
];

/// Split text into sentences: at `.`, `!`, `?` followed by whitespace (not
/// after a known abbreviation), at line breaks, and at list bullets.
pub fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim().trim_start_matches(['-', '*', '•']).trim_start();
        let chars: Vec<char> = line.chars().collect();
        let mut start = 0;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if matches!(c, '.' | '!' | '?') && chars.get(i + 1).is_some_and(|n| n.is_whitespace()) {
                let piece: String = chars[start..i].iter().collect();
                let last_word = piece
                    .rsplit(|ch: char| ch.is_whitespace() || ch == '(')
                    .next()
                    .unwrap_or("")
                    .to_lowercase();
                if !ABBREVIATIONS.contains(&last_word.as_str()) {
                    let s: String = chars[start..=i].iter().collect();
                    push_trimmed(&mut out, &s);
                    start = i + 1;
                }
            }
            i += 1;
        }
        let s: String = chars[start.min(chars.len())..].iter().collect();
        push_trimmed(&mut out, &s);
    }
    out
}

fn push_trimmed(out: &mut Vec<String>, s: &str) {
    let t = s.trim();
    if t.chars().any(|c| c.is_alphanumeric()) {
        out.push(t.to_string());
    }
}

/// Clauses of a sentence: split at `;`, `:`, and at a comma or dash followed
/// by a conjunction, and at a bare " and "/" but " when both sides are long
/// enough to be claims of their own.
pub fn clauses(sentence: &str) -> Vec<String> {
    static SPLIT: OnceLock<Regex> = OnceLock::new();
    let split = re(
        &SPLIT,
        r"(?i)\s*(?:;|:\s|\s[—–]\s|,\s*(?:and|but|while|whereas|although|though|yet|so)\s|\s(?:but|whereas|while)\s)\s*",
    );
    let mut parts = Vec::new();
    for piece in split.split(sentence) {
        // " and " between two long halves.
        let words: Vec<&str> = piece.split_whitespace().collect();
        let mut last = 0;
        for (i, w) in words.iter().enumerate() {
            if w.eq_ignore_ascii_case("and") && i >= last + 5 && words.len() - i > 5 {
                parts.push(words[last..i].join(" "));
                last = i + 1;
            }
        }
        parts.push(words[last..].join(" "));
    }
    parts.retain(|p| p.split_whitespace().count() >= 2);
    if parts.is_empty() {
        parts.push(sentence.to_string());
    }
    parts
}

/// The parts of a compound fact statement the judge reads one by one: the
/// statement split at semicolons, parts of fewer than four words joined to
/// the one before.
pub fn premise_parts(statement: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for piece in statement
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        match parts.last_mut() {
            Some(last) if piece.split_whitespace().count() < 4 => {
                last.push_str("; ");
                last.push_str(piece);
            }
            _ => parts.push(piece.to_string()),
        }
    }
    parts
}

/// Sentences and their clauses as alignment units (the whole sentence first,
/// then its clauses when it has more than one).
pub fn units(summary: &str) -> (Vec<String>, Vec<Unit>) {
    let sents = sentences(summary);
    let mut units = Vec::new();
    for (i, s) in sents.iter().enumerate() {
        units.push(Unit {
            text: s.clone(),
            sentence: i,
        });
        let cl = clauses(s);
        if cl.len() > 1 {
            for c in cl {
                units.push(Unit {
                    text: c,
                    sentence: i,
                });
            }
        }
    }
    (sents, units)
}

/// Record-style identifiers: letters, then separator-joined segments, at
/// least one of which starts with a digit (TX-9002, INV-2607P, U-2,
/// QA-ACC-3390, exp_5f31c2). Lowercased.
pub fn ids(text: &str) -> BTreeSet<String> {
    static ID: OnceLock<Regex> = OnceLock::new();
    let id = re(
        &ID,
        r"\b[A-Za-z]{1,10}(?:[-_][A-Za-z]+[0-9]?)*[-_][0-9][A-Za-z0-9]*(?:[-_][A-Za-z0-9]+)*\b",
    );
    id.find_iter(text)
        .map(|m| m.as_str().to_lowercase())
        .collect()
}

/// The letter prefix of an id (`tx` for `tx-9002`).
pub fn id_prefix(id: &str) -> &str {
    id.split(['-', '_']).next().unwrap_or(id)
}

/// Money amounts written with a currency ($149, $19.60, EUR 412.50, 61.88
/// euros), in cents.
pub fn amounts(text: &str) -> BTreeSet<i64> {
    static PRE: OnceLock<Regex> = OnceLock::new();
    static POST: OnceLock<Regex> = OnceLock::new();
    let pre = re(
        &PRE,
        r"(?i)(?:\$|€|£|\b(?:usd|eur|gbp)\s?)\s?([0-9][0-9,]*(?:\.[0-9]+)?)",
    );
    let post = re(
        &POST,
        r"(?i)\b([0-9][0-9,]*(?:\.[0-9]+)?)\s?(?:usd|eur|gbp|euros?|dollars?)\b",
    );
    pre.captures_iter(text)
        .chain(post.captures_iter(text))
        .filter_map(|c| cents(&c[1]))
        .collect()
}

pub fn cents(s: &str) -> Option<i64> {
    let v: f64 = s.replace(',', "").parse().ok()?;
    Some((v * 100.0).round() as i64)
}

/// Every number in a text, in cents (records: amounts appear as bare JSON
/// numbers).
pub fn numbers(text: &str) -> BTreeSet<i64> {
    static NUM: OnceLock<Regex> = OnceLock::new();
    let num = re(&NUM, r"[0-9][0-9,]*(?:\.[0-9]+)?");
    num.find_iter(text)
        .filter_map(|m| cents(m.as_str()))
        .collect()
}

/// A calendar date; `year` is absent when the text did not give one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub year: Option<i32>,
    pub month: u32,
    pub day: u32,
}

const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

fn month_of(name: &str) -> Option<u32> {
    let n = name.to_lowercase();
    MONTHS
        .iter()
        .position(|m| n.starts_with(m))
        .map(|i| i as u32 + 1)
}

/// Dates: ISO (2026-09-14, also inside timestamps), US m/d[/y], and month
/// names ("Sept 14", "14 September 2026", "September 14, 2026").
pub fn dates(text: &str) -> BTreeSet<Date> {
    static ISO: OnceLock<Regex> = OnceLock::new();
    static MD: OnceLock<Regex> = OnceLock::new();
    static NAMED: OnceLock<Regex> = OnceLock::new();
    static DAY_FIRST: OnceLock<Regex> = OnceLock::new();
    let iso = re(&ISO, r"\b([0-9]{4})-([0-9]{2})-([0-9]{2})");
    let md = re(&MD, r"\b([0-9]{1,2})/([0-9]{1,2})(?:/([0-9]{2,4}))?\b");
    let month = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
    let named = re(
        &NAMED,
        &format!(r"(?i)\b{month}\.?\s+([0-9]{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+([0-9]{{4}}))?"),
    );
    let day_first = re(
        &DAY_FIRST,
        &format!(r"(?i)\b([0-9]{{1,2}})(?:st|nd|rd|th)?\s+{month}\b\.?(?:\s+([0-9]{{4}}))?"),
    );
    let mut out = BTreeSet::new();
    let valid = |m: u32, d: u32| (1..=12).contains(&m) && (1..=31).contains(&d);
    for c in iso.captures_iter(text) {
        let (y, m, d) = (
            c[1].parse().ok(),
            c[2].parse().unwrap_or(0),
            c[3].parse().unwrap_or(0),
        );
        if valid(m, d) {
            out.insert(Date {
                year: y,
                month: m,
                day: d,
            });
        }
    }
    // Remove ISO dates before looking for m/d so "2026-09-14" is not re-read.
    let rest = iso.replace_all(text, " ");
    for c in md.captures_iter(&rest) {
        let m = c[1].parse().unwrap_or(0);
        let d = c[2].parse().unwrap_or(0);
        let y = c
            .get(3)
            .and_then(|y| y.as_str().parse::<i32>().ok())
            .map(|y| if y < 100 { 2000 + y } else { y });
        if valid(m, d) {
            out.insert(Date {
                year: y,
                month: m,
                day: d,
            });
        }
    }
    for c in named.captures_iter(&rest) {
        if let (Some(m), Ok(d)) = (month_of(&c[1]), c[2].parse()) {
            let y = c.get(3).and_then(|y| y.as_str().parse().ok());
            if valid(m, d) {
                out.insert(Date {
                    year: y,
                    month: m,
                    day: d,
                });
            }
        }
    }
    for c in day_first.captures_iter(&rest) {
        if let (Some(m), Ok(d)) = (month_of(&c[2]), c[1].parse()) {
            let y = c.get(3).and_then(|y| y.as_str().parse().ok());
            if valid(m, d) {
                out.insert(Date {
                    year: y,
                    month: m,
                    day: d,
                });
            }
        }
    }
    out
}

/// Does `known` contain a date that `d` may denote (same month and day, and
/// the same year when `d` gives one)?
pub fn date_known(d: &Date, known: &BTreeSet<Date>) -> bool {
    known
        .iter()
        .any(|k| k.month == d.month && k.day == d.day && (d.year.is_none() || k.year == d.year))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn premise_parts_split_at_semicolons_and_keep_short_tails() {
        assert_eq!(
            premise_parts(
                "Load A is on hold; payment P is an advance, not a settlement; not released"
            ),
            vec![
                "Load A is on hold".to_string(),
                "payment P is an advance, not a settlement; not released".to_string(),
            ]
        );
        assert_eq!(
            premise_parts("One claim only."),
            vec!["One claim only.".to_string()]
        );
    }

    #[test]
    fn splits_sentences_and_clauses() {
        let s = sentences("It cost $19.60 (CR-778). The admin U-2 added it on Sept. 12; the owner did not.\n- A bullet");
        assert_eq!(s.len(), 3, "{s:?}");
        let c = clauses("The admin U-2 added it on Sept 12; the owner did not");
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn extracts_values() {
        let t = "A duplicate $149 payment on 9/14 (TX-9002), EUR 412.50 on 3 May 2027, 61.88 euros, 2026-09-12, exp_5f31c2 and U-2.";
        let i = ids(t);
        assert!(
            i.contains("tx-9002") && i.contains("u-2") && i.contains("exp_5f31c2"),
            "{i:?}"
        );
        assert!(!i.iter().any(|x| x.starts_with("2026")));
        let a = amounts(t);
        assert_eq!(a.into_iter().collect::<Vec<_>>(), vec![6188, 14900, 41250]);
        let d = dates(t);
        assert!(d.contains(&Date {
            year: None,
            month: 9,
            day: 14
        }));
        assert!(d.contains(&Date {
            year: Some(2027),
            month: 5,
            day: 3
        }));
        assert!(d.contains(&Date {
            year: Some(2026),
            month: 9,
            day: 12
        }));
    }
}
