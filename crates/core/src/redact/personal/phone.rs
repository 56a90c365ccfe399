//! Phone numbers in any format: a loose pattern finds candidates, and
//! libphonenumber's rules (the `phonenumber` crate) decide. An
//! international number (`+353 1 234 5678`, `0044 20 7946 0958`) needs no
//! context; a national one (`020 7946 0958`) needs a word that names a
//! phone just before it, or the North American shape `(415) 555-0132`.
//! Versions, dates, times, addresses of hosts, ids and durations are none:
//! their separators or their neighbours say so before any parsing.

use std::sync::OnceLock;

use phonenumber::country::Id;
use regex::Regex;

use super::{Finding, PHONE};

/// Regions a national number is tried in, most used first.
const REGIONS: &[Id] = &[
    Id::US,
    Id::GB,
    Id::IE,
    Id::CA,
    Id::AU,
    Id::NZ,
    Id::IN,
    Id::DE,
    Id::FR,
    Id::ES,
    Id::IT,
    Id::NL,
    Id::ZA,
    Id::SG,
];

fn candidate_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?:\+[ \t]?|(?-u:\b)00[ \t]?|\(|(?-u:\b))\d[\d \t().-]{5,22}\d(?-u:\b)")
            .expect("static regex")
    })
}

/// Words that name a phone number just before one.
fn context_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)(?-u:\b)(?:phone|tel|telephone|mobile|mob|cell|cellphone|call|called|calling|ring|fax|sms|text|whatsapp|contact|reach|reached|dial|ph|landline|hotline|helpline)(?-u:\b)|☎|📞")
            .expect("static regex")
    })
}

fn nanp_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^(?:\+?1[ .-]?)?(?:\(\d{3}\)[ .-]?|\d{3}[ .-])\d{3}[ .-]\d{4}$")
            .expect("static regex")
    })
}

pub fn scan(text: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    if text.bytes().filter(u8::is_ascii_digit).count() < 7 {
        return out;
    }
    for m in candidate_re().find_iter(text) {
        let (mut start, end) = (m.start(), m.end());
        let mut found = m.as_str().trim_end();
        // `(0044 20 7946 0058)`: the bracket is prose, not an area code.
        if found.starts_with('(') && !found.contains(')') {
            start += 1;
            found = &found[1..];
        }
        if !bounded(text, start, start + found.len()) || !plausible(found) {
            continue;
        }
        let international = found.starts_with('+') || found.starts_with("00");
        let context = || {
            let from = floor_char(text, start.saturating_sub(40));
            context_re().is_match(&text[from..start])
        };
        // `0046201834` run together reads as an order or ticket id as much
        // as a dialled number: unseparated, `00` needs a word that names a phone.
        let run_together = !found.contains(|c: char| !c.is_ascii_digit());
        let accepted = if international && !(found.starts_with("00") && run_together) {
            valid_international(found)
        } else if international {
            context() && valid_international(found)
        } else {
            (nanp_re().is_match(found) || context()) && valid_national(found)
        };
        if accepted {
            out.push(Finding {
                start,
                end: start + found.len().min(end - start),
                kind: PHONE,
            });
        }
    }
    out
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Neighbours that make a number part of something else: a word, a path,
/// a version, a key (`id-1234567`), a decimal.
fn bounded(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after: Vec<char> = text[end..].chars().take(2).collect();
    let glued = |c: char| c.is_alphanumeric() || matches!(c, '_' | '/' | '\\' | '#' | ':' | '$');
    if before.is_some_and(|c| glued(c) || matches!(c, '.' | '-' | '+')) {
        return false;
    }
    match after.as_slice() {
        [c, ..] if glued(*c) || *c == '%' => false,
        ['.' | '-' | ',', d, ..] if d.is_ascii_digit() => false,
        _ => true,
    }
}

/// Shapes that are never a phone: too few or too many digits, only dots
/// (versions, addresses of hosts) unless 3-3-4, dates, and unbalanced
/// parentheses.
fn plausible(found: &str) -> bool {
    let digits = found.chars().filter(char::is_ascii_digit).count();
    if !(7..=15).contains(&digits) {
        return false;
    }
    if found.matches('(').count() != found.matches(')').count() {
        return false;
    }
    let groups: Vec<usize> = found
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .map(str::len)
        .collect();
    let dotted = found.contains('.') && !found.contains(' ') && !found.contains('-');
    if dotted && groups != [3, 3, 4] {
        return false;
    }
    let date = !found.contains(' ')
        && matches!(
            groups.as_slice(),
            [4, 1 | 2, 1 | 2, ..] | [1 | 2, 1 | 2, 4, ..]
        );
    !date && !found.contains("  ")
}

/// A whole field value that is a phone number, in any format.
pub fn valid_any(value: &str) -> bool {
    let v = value.trim();
    plausible(v)
        && match v.starts_with('+') || v.starts_with("00") {
            true => valid_international(v),
            false => valid_national(v),
        }
}

fn valid_international(found: &str) -> bool {
    let number = match found.strip_prefix("00") {
        Some(rest) => format!("+{}", rest.trim_start()),
        None => found.to_string(),
    };
    phonenumber::parse(None, &number).is_ok_and(|n| phonenumber::is_valid(&n))
}

fn valid_national(found: &str) -> bool {
    REGIONS
        .iter()
        .any(|&r| phonenumber::parse(Some(r), found).is_ok_and(|n| phonenumber::is_valid(&n)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        scan(text).iter().map(|f| &text[f.start..f.end]).collect()
    }

    #[test]
    fn phones_in_any_format() {
        assert_eq!(found("Ring +353 1 234 5678 today"), vec!["+353 1 234 5678"]);
        assert_eq!(found("office (415) 555-0132."), vec!["(415) 555-0132"]);
        assert_eq!(found("call 020 7946 0958 after 5"), vec!["020 7946 0958"]);
        assert_eq!(found("+44 20 7946 0958"), vec!["+44 20 7946 0958"]);
        assert_eq!(found("tel: 0049 30 901820"), vec!["0049 30 901820"]);
        assert_eq!(found("mobile 087 123 4567"), vec!["087 123 4567"]);
        assert_eq!(found("(0044 20 7946 0958)"), vec!["0044 20 7946 0958"]);
        assert_eq!(found("tel 00442079460958"), vec!["00442079460958"]);
    }

    #[test]
    fn look_alikes_are_not_phones() {
        for text in [
            "version 10.2.3.4567 released",
            "at 2024-03-01 12:30:45",
            "order 4155550132 shipped",
            "order 0046201834 shipped",
            "host 192.168.100.200",
            "took 1 234 567 ms",
            "id-4155550132",
            "build 20240301.1234567",
            "sha 3f2a9c1 port 8080",
            "span 1712345678901 ns",
            "020 7946 0958 rows",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
