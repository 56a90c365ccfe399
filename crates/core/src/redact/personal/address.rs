//! Street addresses by shape: a house number, one to four capitalised
//! words and a street suffix (`221B Baker Street`, `12 Main St, Apt 4,
//! Springfield, IL 62704`), and postcodes whose shape names no code
//! (UK, Canadian, Irish Eircode; a US ZIP only after a state). A number
//! before lowercase words (`line 42 Main function`) is no address.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use regex::Regex;

use super::{trimmed, Finding, ADDRESS, POSTCODE};

const SUFFIXES: &str = "Street|St|Avenue|Ave|Av|Road|Rd|Lane|Ln|Boulevard|Blvd|Drive|Dr|Way|Court|Ct|Place|Pl|Square|Sq|Terrace|Ter|Terr|Crescent|Cres|Close|Parkway|Pkwy|Highway|Hwy|Circle|Cir|Trail|Trl|Row|Quay|Parade|Mews|Gardens|Gdns|Grove|Hill|Green|Park|Rise|Vale|Wharf|Plaza|Loop|Pike|Route|Rte|Esplanade|Embankment|Walk|Broadway|Alley";

/// UK, Canadian and Irish postcodes, and a US state with its ZIP.
const POSTCODES: &str = r"(?:[A-Z]{1,2}\d[A-Z\d]? \d[ABD-HJLNP-UW-Z]{2}|[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d|(?:[AC-FHKNPRTV-Y]\d{2}|D6W) ?[0-9AC-FHKNPRTV-Y]{4}|(?:A[LKZR]|C[AOT]|D[EC]|FL|GA|HI|I[DLNA]|K[SY]|LA|M[EDAINSOT]|N[EVHJMYCD]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[TA]|W[AVIY]) \d{5}(?:-\d{4})?)";

fn street_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let unit = r"(?:Apt|Apartment|Suite|Ste|Unit|Flat|Floor|Fl|Room|Rm|Bldg|Building|#)\.?\s*#?[A-Za-z0-9-]{1,6}";
        let word = r"(?:[A-Z][A-Za-z'’-]*\.?|\d{1,3}(?:st|nd|rd|th))";
        // Whole words only: `Leeds LS6 8XJ` is a city and a postcode.
        let place = r"[A-Z][A-Za-z.'’-]+(?-u:\b)(?:[ \t]+[A-Z][A-Za-z.'’-]+(?-u:\b)){0,2}(?:[ \t]+\d{1,2}(?-u:\b))?";
        // Capitalised or all caps: `3 Tests loop` is prose.
        let suffixes: Vec<String> = SUFFIXES
            .split('|')
            .flat_map(|s| [s.to_string(), s.to_uppercase()])
            .collect();
        let suffixes = suffixes.join("|");
        let pattern = format!(
            r"(?-u:\b)(?:{unit},?[ \t]+)?\d{{1,5}}[A-Za-z]?(?:-\d{{1,5}})?,?[ \t]+(?:(?:{word}[ \t]+){{1,4}}(?:{suffixes})(?-u:\b)\.?(?:[ \t]+(?:NE|NW|SE|SW|N|S|E|W)(?-u:\b))?|Broadway(?-u:\b))(?:,?[ \t]+{unit})?(?:,[ \t]*(?:{POSTCODES}|{place})){{0,3}}(?:,?[ \t]+{POSTCODES})?"
        );
        Regex::new(&pattern).expect("static regex")
    })
}

/// Whether `text` holds a street suffix as a whole word: most texts hold
/// none, and the street pattern starts at every number.
fn has_suffix(text: &str) -> bool {
    static AC: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    let ac = AC.get_or_init(|| {
        let words: Vec<String> = SUFFIXES
            .split('|')
            .flat_map(|s| [s.to_string(), s.to_uppercase()])
            .collect();
        AhoCorasick::new(words).ok()
    });
    let Some(ac) = ac else { return true };
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    ac.find_overlapping_iter(text).any(|m| {
        !word(text[..m.start()].chars().next_back()) && !word(text[m.end()..].chars().next())
    })
}

fn postcode_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // Alone, only shapes with their space: `D02X285` may be an id.
        let pattern = r"(?-u:\b)(?:[A-Z]{1,2}\d[A-Z\d]? \d[ABD-HJLNP-UW-Z]{2}|[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] \d[ABCEGHJ-NPRSTV-Z]\d|(?:[AC-FHKNPRTV-Y]\d{2}|D6W) [0-9AC-FHKNPRTV-Y]{4})(?-u:\b)|, (?:A[LKZR]|C[AOT]|D[EC]|FL|GA|HI|I[DLNA]|K[SY]|LA|M[EDAINSOT]|N[EVHJMYCD]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[TA]|W[AVIY]) \d{5}(?:-\d{4})?(?-u:\b)";
        Regex::new(pattern).expect("static regex")
    })
}

fn whole_postcode_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(&format!(r"^(?:{POSTCODES}|\d{{5}}(?:-\d{{4}})?)$")).expect("static regex")
    })
}

pub fn scan(text: &str, out: &mut Vec<Finding>) {
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return;
    }
    let mut streets = Vec::new();
    let matches = has_suffix(text).then(|| street_re().find_iter(text));
    for m in matches.into_iter().flatten() {
        let (start, end) = trimmed(text, m.start(), m.end());
        streets.push((start, end));
        out.push(Finding {
            start,
            end,
            kind: ADDRESS,
        });
    }
    for m in postcode_re().find_iter(text) {
        if streets.iter().any(|&(s, e)| m.start() < e && s < m.end()) {
            continue;
        }
        let (start, end) = trimmed(text, m.start(), m.end());
        let start = start
            + text[start..end]
                .find(|c: char| c.is_ascii_uppercase())
                .unwrap_or(0);
        out.push(Finding {
            start,
            end,
            kind: POSTCODE,
        });
    }
}

fn suffix_word(w: &str) -> bool {
    let w = w.trim_end_matches('.');
    SUFFIXES.split('|').any(|s| s.eq_ignore_ascii_case(w))
}

/// A field value that reads as a street address or a postcode: a number
/// and a street suffix, or a postcode shape, and nothing of a network
/// address, an email or a URL.
pub fn looks_like_address(value: &str) -> bool {
    let v = value.trim();
    if v.is_empty() || v.len() > 200 || v.contains("://") || v.contains('@') {
        return false;
    }
    if whole_postcode_re().is_match(v) {
        return true;
    }
    let mut found = Vec::new();
    scan(v, &mut found);
    if !found.is_empty() {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    let has_digit = v.chars().any(|c| c.is_ascii_digit());
    let has_word = v
        .split_whitespace()
        .any(|w| w.len() > 2 && w.chars().all(char::is_alphabetic));
    has_digit && has_word && (lower.starts_with("po box") || lower.starts_with("p.o. box"))
        || has_digit && has_word && v.contains(',') && v.split_whitespace().any(suffix_word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        scan(text, &mut out);
        out.iter().map(|f| &text[f.start..f.end]).collect()
    }

    #[test]
    fn addresses_are_found() {
        assert_eq!(
            found("Ship to 12 Main St, Apt 4, Springfield, IL 62704 today."),
            vec!["12 Main St, Apt 4, Springfield, IL 62704"]
        );
        assert_eq!(found("at 221B Baker Street."), vec!["221B Baker Street"]);
        assert_eq!(
            found("Unit 4, 17 Harbour Road, Cork T12 X5R2"),
            vec!["Unit 4, 17 Harbour Road, Cork T12 X5R2"]
        );
        assert_eq!(
            found("near 1600 Pennsylvania Ave NW"),
            vec!["1600 Pennsylvania Ave NW"]
        );
        assert_eq!(found("postcode SW1A 1AA"), vec!["SW1A 1AA"]);
        assert_eq!(found("Dublin 2, D02 X285"), vec!["D02 X285"]);
        assert_eq!(found("Toronto ON M5V 3L9"), vec!["M5V 3L9"]);
    }

    #[test]
    fn code_and_prose_are_not_addresses() {
        for text in [
            "line 42 Main function returns",
            "see src/main.rs:42 and 3 Way merges",
            "took 30 Dr visits",
            "version 1.2.3 on port 8080",
            "the 5 Park is closed",
            "ID 12345 and PR 12345",
            "commit 3f2a9c1 at 2024-03-01T12:00:00Z",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }

    #[test]
    fn field_values() {
        assert!(looks_like_address("12 Main St"));
        assert!(looks_like_address("94107"));
        assert!(looks_like_address("PO Box 1234, Galway"));
        assert!(!looks_like_address("10.0.0.12"));
        assert!(!looks_like_address("us-east-1"));
        assert!(!looks_like_address("Warehouse B"));
    }
}
