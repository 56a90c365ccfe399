//! Values a key or a phrase names: `account_number=12345678`, `"sort_code":
//! "20-00-00"`, `routing number is 021000021`, `SSN 123456789`,
//! `assignee: Jane Doe`, `property_address: 12 Main St`. The key alone is
//! not enough: the value must have the shape of its kind, so `owner:
//! team-infra`, `address: 10.0.0.12` and `account_number: null` stay.

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use regex::Regex;

use super::address::looks_like_address;
use super::names::looks_like_name;
use super::{normalise_key, trimmed, Finding};
use super::{ADDRESS, BANK_ACCOUNT, NAME, NATIONAL_ID, PHONE, POSTCODE, ROUTING_NUMBER, SORT_CODE};

/// Keys (normalised) of a bank account number.
const ACCOUNT_KEYS: &[&str] = &[
    "account_number",
    "account_no",
    "account_num",
    "account_nr",
    "acct",
    "acct_no",
    "acct_num",
    "acct_number",
    "bank_account",
    "bank_account_number",
    "bank_account_no",
    "bank_acct",
    "checking_account",
    "savings_account",
    "payee_account",
    "beneficiary_account",
    "deposit_account",
    "direct_deposit_account",
];
const ROUTING_KEYS: &[&str] = &[
    "routing_number",
    "routing_no",
    "routing",
    "aba",
    "aba_number",
    "aba_routing",
    "rtn",
    "transit_number",
    "bsb",
];
const SORT_CODE_KEYS: &[&str] = &["sort_code", "sortcode", "bank_sort_code"];
const NATIONAL_ID_KEYS: &[&str] = &[
    "ssn",
    "social_security_number",
    "social_security",
    "social_security_no",
    "national_id",
    "national_id_number",
    "national_insurance",
    "national_insurance_number",
    "ni_number",
    "ni_no",
    "nino",
    "tax_id",
    "tax_number",
    "tin",
    "ein",
    "itin",
    "sin",
    "social_insurance_number",
    "pps",
    "ppsn",
    "pps_number",
    "passport",
    "passport_number",
    "passport_no",
    "drivers_license",
    "driver_license",
    "drivers_licence",
    "driving_licence",
    "license_number",
    "licence_number",
    "nhs_number",
    "medicare_number",
    "personal_id",
    "personnummer",
    "bsn",
    "aadhaar",
    "curp",
    "cpf",
];
const POSTCODE_KEYS: &[&str] = &[
    "zip",
    "zip_code",
    "zipcode",
    "postcode",
    "post_code",
    "postal_code",
    "eircode",
];
/// Keys that hold a person's name when the value reads as one.
const ROLE_KEYS: &[&str] = &[
    "contact_person",
    "point_of_contact",
    "poc",
    "on_call",
    "oncall",
    "full_name",
    "name_on_account",
    "next_of_kin",
    "emergency_contact",
];
/// The last word of a key that names a person's role (`rollback_owner`,
/// `claims_adjuster`, `referring_doctor`); keys ending `_by` do too.
const ROLE_WORDS: &[&str] = &[
    "assignee",
    "approver",
    "owner",
    "contact",
    "reporter",
    "requester",
    "requestor",
    "reviewer",
    "inspector",
    "manager",
    "supervisor",
    "adjuster",
    "technician",
    "engineer",
    "employee",
    "customer",
    "client",
    "patient",
    "physician",
    "doctor",
    "nurse",
    "clinician",
    "driver",
    "courier",
    "recipient",
    "consignee",
    "shipper",
    "author",
    "committer",
    "handler",
    "witness",
    "claimant",
    "insured",
    "policyholder",
    "holder",
    "beneficiary",
    "payee",
    "tenant",
    "landlord",
    "signatory",
    "caller",
    "attendee",
    "guardian",
    "dispatcher",
    "coordinator",
    "lead",
    "surveyor",
    "assessor",
    "officer",
    "representative",
    "worker",
    "member",
    "person",
    "user",
    "sender",
    "therapist",
    "dentist",
    "surgeon",
    "pharmacist",
    "carer",
    "caregiver",
    "applicant",
    "candidate",
    "student",
    "teacher",
    "agent_name",
];

/// A key that names a person by role: `assignee`, `resolved_by`,
/// `rollback_owner`, `patient_name`.
pub fn role_key(k: &str) -> bool {
    let k = k
        .strip_suffix("_full_name")
        .or_else(|| k.strip_suffix("_name"))
        .unwrap_or(k);
    ROLE_KEYS.contains(&k)
        || (k.ends_with("_by") && k.len() > 3)
        || ROLE_WORDS.contains(&k.rsplit('_').next().unwrap_or(k))
}

/// Keys of a phone number, for table columns and fields the built-in
/// field list does not name.
fn phone_key(k: &str) -> bool {
    let last = k.rsplit('_').next().unwrap_or(k);
    matches!(
        last,
        "phone" | "mobile" | "tel" | "telephone" | "cell" | "cellphone" | "fax"
    ) || matches!(
        k,
        "phone_number" | "contact_number" | "mobile_number" | "phone_no"
    )
}

/// The kind of a structured field's value, judged by its key and its shape,
/// or `None` when it is not personal data.
pub fn field_kind(key: &str, value: &str) -> Option<&'static str> {
    let key = normalise_key(key);
    let k = key.as_str();
    let v = value.trim();
    if v.is_empty() || v.contains("<withheld:") {
        return None;
    }
    if ACCOUNT_KEYS.contains(&k) {
        return bank_number(v, 4, 20).then_some(BANK_ACCOUNT);
    }
    if ROUTING_KEYS.contains(&k) {
        return bank_number(v, 6, 9).then_some(ROUTING_NUMBER);
    }
    if SORT_CODE_KEYS.contains(&k) {
        return sort_code_re().is_match(v).then_some(SORT_CODE);
    }
    if NATIONAL_ID_KEYS.contains(&k) {
        return national_id(v).then_some(NATIONAL_ID);
    }
    if POSTCODE_KEYS.contains(&k) {
        return looks_like_address(v).then_some(POSTCODE);
    }
    if address_key(k) {
        return looks_like_address(v).then_some(ADDRESS);
    }
    if phone_key(k) {
        return super::phone::valid_any(v).then_some(PHONE);
    }
    if role_key(k) {
        return looks_like_name(v).then_some(NAME);
    }
    None
}

/// `address`, `property_address`, `mailing_address`, `street`,
/// `address_line1`, `location`: what they hold must still read as a street.
fn address_key(k: &str) -> bool {
    k == "address"
        || k == "addr"
        || k.ends_with("_address")
        || k.ends_with("_addr")
        || k.starts_with("address_line")
        || k.starts_with("street")
        || k.ends_with("_street")
        || k == "location"
        || k.ends_with("_location")
        || k == "residence"
        || k == "premises"
}

fn sort_code_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^\d{2}[- ]?\d{2}[- ]?\d{2}$").expect("static regex"))
}

/// Digits with spaces or dashes between groups; no mask (`****1234`).
fn bank_number(v: &str, min: usize, max: usize) -> bool {
    let digits = v.chars().filter(char::is_ascii_digit).count();
    (min..=max).contains(&digits)
        && v.chars()
            .all(|c| c.is_ascii_digit() || c == ' ' || c == '-')
        && v.starts_with(|c: char| c.is_ascii_digit())
}

/// Letters and digits, at least four digits: `123-45-6789`, `QQ123456C`,
/// `1234567TA`, `X1234567`.
fn national_id(v: &str) -> bool {
    let digits = v.chars().filter(char::is_ascii_digit).count();
    (5..=24).contains(&v.len())
        && digits >= 4
        && v.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-')
}

/// Text keys, spelled with `_`, `-`, a space or nothing between words.
fn text_key(k: &str) -> String {
    regex::escape(k).replace('_', r"[ _-]?")
}

struct Keyed {
    regex: Regex,
    kind: &'static str,
    /// Words one of which the text must hold for the regex to run: most
    /// texts hold none, and a case-blind regex of many keys is slow.
    trigger: Option<AhoCorasick>,
}

/// Trigger words of each kind, lowercase; a match must start a word.
const TRIGGERS: &[(&str, &[&str])] = &[
    (BANK_ACCOUNT, &["account", "acct"]),
    (ROUTING_NUMBER, &["routing", "aba", "rtn", "transit", "bsb"]),
    (SORT_CODE, &["sort"]),
    (
        NATIONAL_ID,
        &[
            "ssn",
            "social",
            "national",
            "ni",
            "nino",
            "nin",
            "tax",
            "tin",
            "ein",
            "itin",
            "sin",
            "pps",
            "passport",
            "driv",
            "licen",
            "nhs",
            "medicare",
            "personal",
            "personnummer",
            "bsn",
            "aadhaar",
            "curp",
            "cpf",
        ],
    ),
    (POSTCODE, &["zip", "post", "eircode"]),
    (ADDRESS, &["address", "addr", "street", "location"]),
];

/// Whether `text` holds one of `ac`'s words; address keys may end a
/// longer key (`property_address`), the others start a word.
fn triggered(ac: &AhoCorasick, text: &str, kind: &str) -> bool {
    ac.find_iter(text).any(|m| {
        kind == ADDRESS
            || !text[..m.start()]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric())
    })
}

/// One pattern per kind: the key, a separator (`:`, `=`, `is`, a quote),
/// and the value. Names and addresses need `:` or `=`: prose reads "the
/// owner" and "the address" without one.
fn keyed() -> &'static [Keyed] {
    static RES: OnceLock<Vec<Keyed>> = OnceLock::new();
    RES.get_or_init(|| {
        let number_sep =
            r#"\.?["']?[ \t]*(?:[:=]|=>|(?-u:\b)is(?-u:\b)|(?-u:\b)was(?-u:\b)|(?-u:\b)of(?-u:\b))?[ \t]*["']?[ \t]*(?:#[ \t]*)?"#;
        let strict_sep = r#"["']?[ \t]*(?:[:=]|=>)[ \t]*["']?[ \t]*"#;
        // Longest first: `pps number` before `pps`.
        let keys = |list: &[&str]| {
            let mut list = list.to_vec();
            list.sort_by_key(|k| std::cmp::Reverse(k.len()));
            list.iter()
                .map(|k| text_key(k))
                .collect::<Vec<_>>()
                .join("|")
        };
        let name = super::names::NAME_PATTERN;
        // Any key; `role_key` judges it.
        let role = r"[A-Za-z][A-Za-z0-9]*(?:[ _.-][A-Za-z][A-Za-z0-9]*){0,3}";
        let address_keys = r"(?:[a-z]+[ _-]?)?address|addr|street(?:[ _-]?address)?|location";
        let specs: Vec<(String, &'static str)> = vec![
            (
                format!(
                    r"(?i:(?-u:\b)(?:{}))(?-u:\b){number_sep}(\d[\d -]{{2,24}}\d)",
                    keys(ACCOUNT_KEYS)
                ),
                BANK_ACCOUNT,
            ),
            (
                format!(
                    r"(?i:(?-u:\b)(?:{}))(?-u:\b){number_sep}(\d[\d -]{{4,10}}\d)",
                    keys(ROUTING_KEYS)
                ),
                ROUTING_NUMBER,
            ),
            (
                format!(
                    r"(?i:(?-u:\b)(?:{}))(?-u:\b){number_sep}(\d{{2}}[- ]?\d{{2}}[- ]?\d{{2}})(?-u:\b)",
                    keys(SORT_CODE_KEYS)
                ),
                SORT_CODE,
            ),
            (
                format!(
                    r"(?i:(?-u:\b)(?:{}))(?-u:\b){number_sep}([A-Za-z0-9][A-Za-z0-9 -]{{3,22}}[A-Za-z0-9])",
                    keys(NATIONAL_ID_KEYS)
                ),
                NATIONAL_ID,
            ),
            (
                format!(
                    r"(?i:(?-u:\b)(?:{}))(?-u:\b){strict_sep}([^\n\r|;\t]{{4,120}})",
                    keys(POSTCODE_KEYS)
                ),
                POSTCODE,
            ),
            (
                format!(r"(?i:(?-u:\b)(?:{address_keys}))(?-u:\b){strict_sep}([^\n\r|;\t]{{4,200}})"),
                ADDRESS,
            ),
            (format!(r"(?-u:\b)({role})(?-u:\b){strict_sep}({name})"), NAME),
        ];
        specs
            .into_iter()
            .map(|(p, kind)| Keyed {
                regex: Regex::new(&p).expect("static regex"),
                kind,
                trigger: TRIGGERS
                    .iter()
                    .find(|(k, _)| *k == kind)
                    .and_then(|(_, words)| {
                        AhoCorasick::builder()
                            .ascii_case_insensitive(true)
                            .build(*words)
                            .ok()
                    }),
            })
            .collect()
    })
}

pub fn scan(text: &str, out: &mut Vec<Finding>) {
    let separated = text.contains(':') || text.contains('=');
    for k in keyed() {
        let run = match &k.trigger {
            Some(ac) => triggered(ac, text, k.kind),
            None => separated && role_value_re().is_match(text),
        };
        if !run {
            continue;
        }
        let mut pos = 0;
        // A rejected value may hide the next key (`id_type="SIN"
        // national_id="…"`): search again just past the rejected key.
        while let Some(c) = k.regex.captures_at(text, pos) {
            let (Some(whole), Some(m)) = (c.get(0), c.get(c.len() - 1)) else {
                break;
            };
            // `Claude Opus 4.5`: a name has no version after it.
            let versioned = version_after_re().is_match(&text[m.end()..]);
            let role_ok = k.kind != NAME
                || !versioned
                    && c.get(1)
                        .is_some_and(|key| role_key(&normalise_key(key.as_str())));
            let (start, end) = value_span(text, m.start(), m.end(), k.kind);
            if role_ok && start < end && accept(k.kind, &text[start..end]) {
                out.push(Finding {
                    start,
                    end,
                    kind: k.kind,
                });
                pos = end;
            } else {
                pos = whole.start()
                    + text[whole.start()..]
                        .chars()
                        .next()
                        .map_or(1, char::len_utf8);
            }
        }
    }
}

/// The value of a keyed match: up to a closing quote, a following key
/// (`, city: …`, ` zip=…`) or a JSON delimiter; trailing punctuation off.
fn value_span(text: &str, start: usize, end: usize, kind: &str) -> (usize, usize) {
    let s = &text[start..end];
    let mut cut = s.len();
    for stop in ["\"", "\\\"", "',", "' ", "}", "]", " <", "\\n"] {
        if let Some(i) = s.find(stop) {
            cut = cut.min(i);
        }
    }
    if let Some(m) = next_key_re().find(&s[..cut]) {
        cut = m.start();
    }
    if matches!(kind, BANK_ACCOUNT | ROUTING_NUMBER | NATIONAL_ID) {
        // A number ends where a word starts: `acct 12345678 and 2 more`.
        cut = cut.min(s.find("  ").unwrap_or(cut));
        if let Some(m) = trailing_word_re().find(&s[..cut]) {
            cut = m.start();
        }
    }
    trimmed(text, start, start + cut)
}

fn next_key_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r#"[,\s]+["']?[A-Za-z_][A-Za-z0-9_.-]*["']?\s*[:=]"#).expect("static regex")
    })
}

/// A space and a word of two or more lowercase letters, or of a letter
/// and no digit: where a number in prose stops.
fn trailing_word_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"[ -]+[A-Za-z]{2,}").expect("static regex"))
}

/// A separator and a capital letter: where a role key's name may start.
fn role_value_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r#"(?:[:=]|=>)[ \t]*["']?[ \t]*\p{Lu}"#).expect("static regex"))
}

fn version_after_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^[ \t]+v?\d+(?:\.\d+)+(?-u:\b)").expect("static regex"))
}

fn accept(kind: &str, value: &str) -> bool {
    match kind {
        BANK_ACCOUNT => bank_number(value, 4, 20),
        ROUTING_NUMBER => bank_number(value, 6, 9),
        SORT_CODE => true,
        NATIONAL_ID => national_id(value),
        POSTCODE | ADDRESS => looks_like_address(value),
        NAME => looks_like_name(value),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(&str, &str)> {
        super::super::kinds_and_values(text, scan)
    }

    #[test]
    fn keyed_values() {
        assert_eq!(
            found("account_number=12345678 routing_number=021000021"),
            vec![
                ("bank_account", "12345678"),
                ("routing_number", "021000021")
            ]
        );
        assert_eq!(
            found(r#"{"bank_account": "4020 1234 5678"}"#),
            vec![("bank_account", "4020 1234 5678")]
        );
        assert_eq!(
            found("sort code 20-00-00, account no. 31926819"),
            vec![("bank_account", "31926819"), ("sort_code", "20-00-00")]
        );
        assert_eq!(
            found("SSN: 123456789 on file"),
            vec![("national_id", "123456789")]
        );
        assert_eq!(
            found("NI number QQ 12 34 56 C."),
            vec![("national_id", "QQ 12 34 56 C")]
        );
        assert_eq!(
            found("resolved_by: Dana Whitfield\nstatus: done"),
            vec![("name", "Dana Whitfield")]
        );
        assert_eq!(
            found("property_address: 14 Elm Grove, Leeds LS6 2AB\n"),
            vec![("address", "14 Elm Grove, Leeds LS6 2AB")]
        );
        assert_eq!(
            found("location=12 Quay Street, Galway zip=H91 X2Y3"),
            vec![
                ("postcode", "H91 X2Y3"),
                ("address", "12 Quay Street, Galway")
            ]
        );
    }

    #[test]
    fn keys_with_other_values_stay() {
        for text in [
            "owner: team-infra",
            "assignee: ops-bot",
            "address: 10.0.0.12:8080",
            "account_number: null",
            "account_id=123456789012",
            "location: us-east-1",
            "the owner of this module is Platform",
            "ssn: ${SSN}",
            "email_address: <withheld:email:1>",
            "Co-Authored-By: Claude Opus 4.5 <noreply@anthropic.com>",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
