//! Personal data found by shape and by context in free text, and judged by
//! key in structured fields, with no model:
//!
//! - street addresses and postcodes (`address.rs`);
//! - phone numbers in any national or international format, validated with
//!   libphonenumber's rules (`phone.rs`);
//! - bank, account and routing numbers, sort codes and national ids after a
//!   key or a phrase that names them (`keyed.rs`);
//! - names under role keys (`assignee: Jane Doe`) and names beside an email
//!   or a phone in prose (`names.rs`);
//! - the same, in CSV and Markdown tables whose header names the column
//!   (`table.rs`).
//!
//! Every finding is a span and a kind; the redactor turns it into the
//! personal-data placeholder `<withheld:KIND:HASH>` and withholds the same
//! value wherever it appears again.

mod address;
mod keyed;
mod names;
mod phone;
mod table;

pub use keyed::field_kind;
pub use names::looks_like_name;

/// A personal value's span in a text, and its kind.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub start: usize,
    pub end: usize,
    pub kind: &'static str,
}

pub const ADDRESS: &str = "address";
pub const POSTCODE: &str = "postcode";
pub const PHONE: &str = "phone";
pub const BANK_ACCOUNT: &str = "bank_account";
pub const ROUTING_NUMBER: &str = "routing_number";
pub const SORT_CODE: &str = "sort_code";
pub const NATIONAL_ID: &str = "national_id";
pub const NAME: &str = "name";

/// The personal values in `text`, in order, without overlaps (the earlier,
/// then the longer wins). Our own placeholders are never part of one.
pub fn scan(text: &str) -> Vec<Finding> {
    let masked;
    let text = if text.contains("<withheld:") {
        masked = mask_placeholders(text);
        masked.as_str()
    } else {
        text
    };
    let mut found = Vec::new();
    address::scan(text, &mut found);
    keyed::scan(text, &mut found);
    table::scan(text, &mut found);
    let phones = phone::scan(text);
    names::scan(text, &phones, &mut found);
    found.extend(phones);
    found.retain(|f| f.end > f.start && !text[f.start..f.end].contains('\u{1}'));
    found.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    let mut out: Vec<Finding> = Vec::with_capacity(found.len());
    for f in found {
        if out.last().is_none_or(|last| f.start >= last.end) {
            out.push(f);
        }
    }
    out
}

/// `text` with each placeholder's bytes blanked (same length, so spans
/// hold): `<withheld:phone:1>` is no word "phone" before a number.
fn mask_placeholders(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("<withheld:") {
        out.push_str(&rest[..i]);
        let len = rest[i..].find('>').map_or(rest.len() - i, |j| j + 1);
        out.extend(std::iter::repeat_n('\u{1}', len));
        rest = &rest[i + len..];
    }
    out.push_str(rest);
    out
}

/// `text[start..end]` with surrounding spaces and trailing punctuation off.
fn trimmed(text: &str, start: usize, end: usize) -> (usize, usize) {
    let s = &text[start..end];
    let lead = s.len() - s.trim_start().len();
    let body = s.trim_start().trim_end_matches(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ';' | '.' | ')' | '"' | '\'' | '|')
    });
    (start + lead, start + lead + body.len())
}

/// A key as written, normalised: `propertyAddress`, `Property-Address` and
/// `loss.location` read `property_address`, `property_address` and
/// `location` (the last segment of a path).
pub fn normalise_key(key: &str) -> String {
    let last = key.rsplit(['.', '/']).next().unwrap_or(key);
    let mut out = String::with_capacity(last.len() + 4);
    let mut prev_lower = false;
    for c in last.trim().chars() {
        if c.is_uppercase() && prev_lower {
            out.push('_');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        match c {
            ' ' | '-' => out.push('_'),
            c => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// What one scanner finds in `text`, as (kind, value) pairs, for its tests.
#[cfg(test)]
fn kinds_and_values(text: &str, scan: fn(&str, &mut Vec<Finding>)) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    scan(text, &mut out);
    out.iter()
        .map(|f| (f.kind, &text[f.start..f.end]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_normalised() {
        assert_eq!(normalise_key("propertyAddress"), "property_address");
        assert_eq!(normalise_key("loss.location"), "location");
        assert_eq!(normalise_key("Resolved-By"), "resolved_by");
        assert_eq!(normalise_key("Account Number"), "account_number");
    }
}
