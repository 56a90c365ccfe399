//! Personal data and credentials are never persisted.
//!
//! Personal data: every value under a personal-data key, the name in a
//! person-shaped object (a name beside an email, phone, role, title or
//! address), the name under a signature, every pattern match (emails,
//! phones, Luhn-valid cards, IBANs) and every collected value found again in
//! free text (a name's first and last word included) becomes a placeholder
//! `<withheld:KIND:HASH>`, HASH the first digits of a keyed hash of the
//! value with the run's salt (`carry.rs`). This holds with no policy; a
//! policy adds keys and patterns.
//!
//! Credentials (`secrets/`): provider key formats, values under keys that
//! name a secret, URL passwords, authorization headers, private keys and
//! connection-string keys become `<withheld:secret:KIND:HASH>`, HASH from
//! the value, so the same secret reads the same in every run.
//!
//! Placeholders are stable within a run, across its compactions too: the
//! same value always gets the same placeholder, and the policy pin carries
//! the keyed hashes of every value withheld so far, so the next compaction
//! withholds them wherever they reappear. Values already withheld upstream
//! are left alone.

mod allow;
mod carried_values;
pub mod carry;
mod patterns;
pub mod personal;
mod personal_values;
mod secret_values;
pub mod secrets;

pub use allow::LetThrough;
pub use patterns::{iban_valid, luhn_valid};

use std::collections::HashMap;
use std::sync::Arc;

use regex::Regex;
use serde_json::Value;

use crate::error::Error;
use crate::policy::PersonalDataRules;
use crate::transcript::{Part, Transcript};

/// Keys that are personal data in any schema. Ambiguous keys such as `name`
/// or `address` (tool names, product names, network addresses) are personal
/// only when a policy says so.
const BUILTIN_FIELDS: &[&str] = &[
    "full_name",
    "first_name",
    "last_name",
    "email",
    "email_address",
    "phone",
    "owner_phone",
    "phone_number",
    "mobile",
    "billing_address",
    "shipping_address",
    "home_address",
    "street",
    "card_number",
    "iban",
    "ssn",
    "dob",
    "date_of_birth",
    "birth_date",
    "passport",
    "passport_number",
    "tax_id",
];

/// Keys that hold a name; personal in a person-shaped object.
const NAME_KEYS: &[&str] = &[
    "name",
    "full_name",
    "fullname",
    "display_name",
    "displayname",
    "contact_name",
    "person_name",
    "customer_name",
    "employee_name",
    "holder_name",
    "account_holder",
    "contact",
    "person",
];

/// Keys that make an object with a name person-shaped (the name must also
/// look like one: capitalised words, no digits, so a server `web-1` beside
/// its `address` stays).
const PERSON_KEYS: &[&str] = &[
    "email",
    "email_address",
    "emailaddress",
    "mail",
    "phone",
    "phone_number",
    "phonenumber",
    "mobile",
    "cell",
    "telephone",
    "role",
    "address",
    "street",
    "home_address",
    "postal_address",
    "date_of_birth",
    "dob",
    "birth_date",
];

/// Shortest collected value replaced in free text; shorter ones would
/// corrupt ordinary words.
const MIN_FREE_TEXT_LEN: usize = 3;

fn sign_off_re() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?i)^(?:--\s*|(?:(?:best|kind|warm|many)\s+)?(?:regards|wishes|thanks)|thank\s+you|cheers|sincerely|yours(?:\s+(?:truly|sincerely))?|best|br|rgds|cordially|respectfully)[,.!]?$")
            .expect("static regex")
    })
}

/// A signature's name line: one to four capitalised words.
fn name_line_re() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"^\p{Lu}[\p{L}'.-]+(?:\s+\p{Lu}[\p{L}'.-]*){0,3}$").expect("static regex")
    })
}

/// A sign-off and a name on one line (`Thanks, Dana`).
fn inline_sign_off_re() -> &'static Regex {
    static RE: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?:^|\n)\s*(?i:(?:(?:best|kind|warm|many)\s+)?(?:regards|wishes|thanks)|thank\s+you|cheers|sincerely|best|yours(?:\s+(?:truly|sincerely))?)[,!]\s+(\p{Lu}[\p{L}'.-]+(?:\s+\p{Lu}[\p{L}'.-]*){0,3})\s*(?:$|\n)")
            .expect("static regex")
    })
}

/// Names under a sign-off (`Thanks,` then `Dana Whitfield`, or `Thanks,
/// Dana` on one line), in order.
pub fn signature_names(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if !sign_off_re().is_match(line) {
            continue;
        }
        if let Some(next) = lines[i + 1..].iter().find(|l| !l.is_empty()) {
            if name_line_re().is_match(next) && next.chars().count() <= 60 {
                out.push(next.to_string());
            }
        }
    }
    for c in inline_sign_off_re().captures_iter(text) {
        if let Some(name) = c.get(1) {
            out.push(name.as_str().to_string());
        }
    }
    out
}

/// One redaction, as the audit records it. Never holds the value itself.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Redaction {
    pub item: String,
    pub rule: String,
    pub placeholder: String,
}

struct Pattern {
    name: String,
    /// Shared, not cloned: a cloned `Regex` starts with cold caches, and
    /// every string of a transcript goes through each pattern.
    regex: Arc<Regex>,
}

pub struct Redactor {
    fields: Vec<String>,
    patterns: Vec<Pattern>,
    /// value → (placeholder, kind)
    known: HashMap<String, (String, String)>,
    /// Values also searched for in free text (not identifier-like).
    propagate: Vec<String>,
    known_regex: Option<Arc<Regex>>,
    secret_rules: &'static secrets::RuleSet,
    /// The run's key for hashing values; set from the first transcript
    /// redacted, or from the previous compaction's pin.
    salt: String,
    /// placeholder → the keyed hash of the value it was made for, so two
    /// values never share one.
    used: HashMap<String, String>,
    /// Values withheld by earlier compactions of the run, as hashes.
    carried: carry::Carried,
    carried_in: Vec<carry::CarriedValue>,
    /// Kinds and fields the policy lets through.
    allow: allow::Allow,
    /// What the personal-data scan found in each text: every text is
    /// scanned to collect and again to replace, and a side-by-side redacts
    /// the same transcript twice.
    personal_scans: personal_values::Scans,
}

impl Redactor {
    pub fn new(rules: &PersonalDataRules) -> Result<Self, Error> {
        let mut fields: Vec<String> = BUILTIN_FIELDS.iter().map(|s| s.to_string()).collect();
        for f in &rules.fields {
            let f = f.to_lowercase();
            if !fields.contains(&f) {
                fields.push(f);
            }
        }
        let mut named: Vec<(String, String)> = patterns::BUILTIN_PATTERNS
            .iter()
            .map(|(n, p)| (n.to_string(), p.to_string()))
            .collect();
        for (name, pattern) in &rules.patterns {
            match named.iter_mut().find(|(n, _)| n == name) {
                Some(slot) => slot.1 = pattern.clone(),
                None => named.push((name.clone(), pattern.clone())),
            }
        }
        let patterns = named
            .into_iter()
            .map(|(name, p)| {
                Regex::new(&p)
                    .map(|regex| Pattern {
                        name: name.clone(),
                        regex: Arc::new(regex),
                    })
                    .map_err(|e| Error::Internal(format!("personal-data pattern {name}: {e}")))
            })
            .collect::<Result<_, _>>()?;
        Ok(Redactor {
            fields,
            patterns,
            known: HashMap::new(),
            propagate: Vec::new(),
            known_regex: None,
            secret_rules: secrets::rule_set().map_err(Error::Internal)?,
            salt: String::new(),
            used: HashMap::new(),
            carried: carry::Carried::default(),
            carried_in: Vec::new(),
            allow: allow::Allow::new(rules),
            personal_scans: Default::default(),
        })
    }

    fn is_field(&self, key: &str) -> bool {
        let k = key.to_lowercase();
        self.fields.contains(&k)
    }

    /// The placeholder of a personal value, or `None` when the policy lets
    /// it through.
    fn withhold(&mut self, value: &str, kind: &str, key: Option<&str>) -> Option<String> {
        if self.lets_through(value, kind, key) {
            return None;
        }
        Some(self.placeholder(value, kind))
    }

    fn placeholder(&mut self, value: &str, kind: &str) -> String {
        if let Some((p, _)) = self.known.get(value) {
            return p.clone();
        }
        let p = self.keyed_placeholder(value, kind);
        self.known
            .insert(value.to_string(), (p.clone(), kind.to_string()));
        if value.chars().count() >= MIN_FREE_TEXT_LEN && !identifier_like(value) {
            self.propagate.push(value.to_string());
            self.known_regex = None;
        }
        p
    }

    /// Redact a whole transcript. Tool schemas are developer configuration
    /// and are left as they are.
    pub fn redact_transcript(&mut self, t: &Transcript) -> (Transcript, Vec<Redaction>) {
        self.salt_from(t);
        self.collect_allowed(t);
        self.collect_transcript(t);
        let mut out = t.clone();
        let mut log = Vec::new();
        for (i, text) in out.instructions.iter_mut().enumerate() {
            *text = self.redact_str(text, &format!("instructions.{i}"), &mut log);
        }
        for (mi, m) in out.messages.iter_mut().enumerate() {
            for (pi, p) in m.parts.iter_mut().enumerate() {
                let item = format!("m{mi}.p{pi}");
                match &mut p.part {
                    Part::Text(s) | Part::SystemText(s) => *s = self.redact_str(s, &item, &mut log),
                    Part::ToolCall { args, .. } => self.redact_value(args, &item, &mut log),
                    Part::ToolResult { content, .. } | Part::RetryPrompt { content, .. } => {
                        self.redact_value(content, &item, &mut log)
                    }
                    Part::Opaque(v) => self.redact_value(v, &item, &mut log),
                    // Reasoning is signed or encrypted: redacted text marks
                    // it altered, and an altered item is never written.
                    Part::Reasoning { text, altered, .. } => {
                        let redacted = self.redact_str(text, &item, &mut log);
                        *altered |= redacted != *text;
                        *text = redacted;
                    }
                    // Encrypted compaction state: nothing readable to redact.
                    Part::Compaction { .. } => {}
                }
            }
        }
        (out, log)
    }

    /// Pass 1: collect values under personal-data keys and every secret,
    /// so that a value found in one place is also caught where it reappears
    /// in free text, before or after. Secrets are looked for in the same
    /// strings pass 2 redacts (JSON text as text: the key rules read it).
    fn collect_transcript(&mut self, t: &Transcript) {
        for text in &t.instructions {
            self.collect_secrets_in(text);
            self.collect_personal_in(text);
        }
        for m in &t.messages {
            for p in &m.parts {
                for v in structured_values(&p.part) {
                    self.collect(&v, false);
                    self.collect_signatures(&v);
                    self.collect_personal(&v);
                }
                match &p.part {
                    Part::Text(s) | Part::SystemText(s) => {
                        self.collect_signatures_in(s);
                        self.collect_secrets_in(s);
                        self.collect_personal_in(s);
                    }
                    Part::Reasoning { text, .. } => {
                        self.collect_secrets_in(text);
                        self.collect_personal_in(text);
                    }
                    Part::ToolCall { args: v, .. }
                    | Part::ToolResult { content: v, .. }
                    | Part::RetryPrompt { content: v, .. }
                    | Part::Opaque(v) => self.collect_secrets(v),
                    Part::Compaction { .. } => {}
                }
            }
        }
    }

    /// A person-shaped object's name: withheld, and its first and last
    /// words too, wherever they appear again.
    fn collect_person(&mut self, map: &serde_json::Map<String, Value>) {
        let person = map
            .keys()
            .any(|k| PERSON_KEYS.contains(&k.to_lowercase().as_str()));
        if !person {
            return;
        }
        for (k, v) in map {
            if !NAME_KEYS.contains(&k.to_lowercase().as_str()) {
                continue;
            }
            if let Some(name) = v.as_str().filter(|n| name_line_re().is_match(n.trim())) {
                self.name(name, "name");
            }
        }
    }

    /// Withhold a name and its capitalised words of 3+ letters.
    fn name(&mut self, name: &str, kind: &str) {
        let name = name.trim();
        if is_withheld(name) || name.chars().count() < MIN_FREE_TEXT_LEN {
            return;
        }
        let Some(placeholder) = self.withhold(name, kind, None) else {
            return;
        };
        let words: Vec<&str> = name.split_whitespace().collect();
        if words.len() < 2 {
            return;
        }
        for w in [words[0], words[words.len() - 1]] {
            let w = w.trim_matches(|c: char| !c.is_alphanumeric());
            let capitalised = w.chars().next().is_some_and(char::is_uppercase);
            if capitalised && w.chars().count() >= MIN_FREE_TEXT_LEN && !self.known.contains_key(w)
            {
                self.known
                    .insert(w.to_string(), (placeholder.clone(), kind.to_string()));
                self.propagate.push(w.to_string());
                self.known_regex = None;
            }
        }
    }

    fn collect_signatures_in(&mut self, text: &str) {
        for name in signature_names(text) {
            self.name(&name, "signature");
        }
    }

    /// Names under sign-offs anywhere in `v`'s strings.
    fn collect_signatures(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.collect_signatures_in(s),
            Value::Array(items) => items.iter().for_each(|i| self.collect_signatures(i)),
            Value::Object(map) => map.values().for_each(|i| self.collect_signatures(i)),
            _ => {}
        }
    }

    fn collect(&mut self, v: &Value, under_field: bool) {
        match v {
            Value::Object(map) => {
                self.collect_person(map);
                for (k, child) in map {
                    let field = under_field || self.is_field(k);
                    if field && !child.is_object() && !child.is_array() {
                        if let Some(s) = scalar_text(child) {
                            if !is_withheld(&s) && s.chars().count() >= MIN_FREE_TEXT_LEN {
                                self.withhold(&s, &k.to_lowercase(), Some(k));
                            }
                        }
                    } else {
                        self.collect(child, field);
                    }
                }
            }
            Value::Array(items) => {
                for item in items {
                    // Scalars in a list under a personal-data key are personal too.
                    if under_field && !item.is_object() && !item.is_array() {
                        if let Some(s) = scalar_text(item) {
                            if !is_withheld(&s) && s.chars().count() >= MIN_FREE_TEXT_LEN {
                                self.withhold(&s, "personal", None);
                            }
                        }
                    } else {
                        self.collect(item, under_field);
                    }
                }
            }
            _ => {}
        }
    }

    fn redact_value(&mut self, v: &mut Value, item: &str, log: &mut Vec<Redaction>) {
        match v {
            Value::String(s) => *s = self.redact_str(s, item, log),
            Value::Number(n) => {
                // A number withheld elsewhere (`"ref": 12345678`).
                let text = n.to_string();
                self.learn_carried(&text);
                if let Some((placeholder, kind)) = self.known.get(&text).cloned() {
                    log.push(Redaction {
                        item: item.to_string(),
                        rule: known_rule(&kind),
                        placeholder: placeholder.clone(),
                    });
                    *v = Value::String(placeholder);
                }
            }
            Value::Array(items) => {
                for x in items {
                    self.redact_value(x, item, log);
                }
            }
            Value::Object(map) => {
                let keys: Vec<String> = map.keys().cloned().collect();
                for k in keys {
                    let is_field = self.is_field(&k);
                    let Some(child) = map.get_mut(&k) else {
                        continue;
                    };
                    if self.allowed_field(&k, child) {
                        self.secrets_only(child, item, log);
                        continue;
                    }
                    if is_field && !child.is_object() && !child.is_array() && !child.is_null() {
                        let text = scalar_text(child).unwrap_or_default();
                        if is_withheld(&text) || text.is_empty() {
                            continue;
                        }
                        let kind = k.to_lowercase();
                        let Some(placeholder) = self.withhold(&text, &kind, Some(&k)) else {
                            self.secrets_only(child, item, log);
                            continue;
                        };
                        log.push(Redaction {
                            item: format!("{item}:{k}"),
                            rule: format!("personal_data.fields.{kind}"),
                            placeholder: placeholder.clone(),
                        });
                        *child = Value::String(placeholder);
                    } else if is_field {
                        // Everything inside a personal-data key is personal.
                        self.redact_all_scalars(child, &k.to_lowercase(), item, log);
                    } else if !self.redact_secret_field(&k, child, item, log)
                        && !self.redact_personal_field(&k, child, item, log)
                    {
                        self.redact_value(child, item, log);
                    }
                }
            }
            _ => {}
        }
    }

    fn redact_all_scalars(
        &mut self,
        v: &mut Value,
        kind: &str,
        item: &str,
        log: &mut Vec<Redaction>,
    ) {
        match v {
            Value::Array(items) => items
                .iter_mut()
                .for_each(|x| self.redact_all_scalars(x, kind, item, log)),
            Value::Object(map) => map
                .values_mut()
                .for_each(|x| self.redact_all_scalars(x, kind, item, log)),
            Value::Null | Value::Bool(_) => {}
            scalar => {
                let text = scalar_text(scalar).unwrap_or_default();
                if text.is_empty() || is_withheld(&text) {
                    return;
                }
                let Some(placeholder) = self.withhold(&text, kind, None) else {
                    self.secrets_only(scalar, item, log);
                    return;
                };
                log.push(Redaction {
                    item: item.to_string(),
                    rule: format!("personal_data.fields.{kind}"),
                    placeholder: placeholder.clone(),
                });
                *scalar = Value::String(placeholder);
            }
        }
    }

    fn known_regex(&mut self) -> Option<&Arc<Regex>> {
        if self.known_regex.is_none() && !self.propagate.is_empty() {
            let mut values: Vec<&String> = self.propagate.iter().collect();
            values.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
            let alternatives: Vec<String> = values
                .iter()
                .flat_map(|v| {
                    // The value as written, and as it appears inside JSON text.
                    let escaped = serde_json::to_string(v).unwrap_or_default();
                    let escaped = escaped.trim_matches('"').to_string();
                    let mut forms = vec![bounded(v)];
                    if escaped != **v {
                        forms.push(bounded(&escaped));
                    }
                    forms
                })
                .collect();
            if alternatives.is_empty() {
                return None;
            }
            self.known_regex = Regex::new(&alternatives.join("|")).ok().map(Arc::new);
        }
        self.known_regex.as_ref()
    }

    /// Redact free text: known values first, then secrets, then the
    /// wider personal data (`personal/`), then the
    /// personal-data patterns (after secrets, so that the password of
    /// `https://u:pw@host.com` is not read as an email).
    pub fn redact_str(&mut self, s: &str, item: &str, log: &mut Vec<Redaction>) -> String {
        self.learn_carried(s);
        let text = self.replace_known(s, item, log);
        let text = self.redact_secrets(&text, item, log);
        let text = self.redact_personal(&text, item, log);
        self.redact_patterns(text, item, log)
    }

    fn replace_known(&mut self, text: &str, item: &str, log: &mut Vec<Redaction>) -> String {
        let Some(re) = self.known_regex().cloned() else {
            return text.to_string();
        };
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for m in re.find_iter(text) {
            out.push_str(&text[last..m.start()]);
            let found = m.as_str();
            let (placeholder, kind) = self
                .known_value(found)
                .unwrap_or_else(|| ("<withheld:personal>".into(), "personal".into()));
            log.push(Redaction {
                item: item.to_string(),
                rule: known_rule(&kind),
                placeholder: placeholder.clone(),
            });
            out.push_str(&placeholder);
            last = m.end();
        }
        out.push_str(&text[last..]);
        out
    }

    fn redact_patterns(
        &mut self,
        mut text: String,
        item: &str,
        log: &mut Vec<Redaction>,
    ) -> String {
        for pi in 0..self.patterns.len() {
            let regex = self.patterns[pi].regex.clone();
            let name = self.patterns[pi].name.clone();
            let spans = regex
                .find_iter(&text)
                .filter(|m| !is_withheld(m.as_str()))
                .filter_map(|m| patterns::accept_match(&name, &text, m.start(), m.end()))
                .map(|(start, end)| (start, end, name.clone()))
                .collect();
            text = replace_spans(
                &text,
                spans,
                "personal_data.patterns",
                item,
                log,
                |value, kind| self.withhold(value, kind, None),
            );
        }
        text
    }

    /// Redact model-written text (a summary) with what this run collected.
    pub fn redact_generated(&mut self, s: &str, item: &str) -> (String, Vec<Redaction>) {
        let mut log = Vec::new();
        let out = self.redact_str(s, item, &mut log);
        (out, log)
    }

    /// The kind of the first value this run withheld that appears in `text`.
    /// Patterns are not re-run here: every conversation string already went
    /// through them, and our own numbers (hashes, timings) would trip them.
    /// Secrets (kind `secret:RULE`) are known values too, so a credential
    /// is looked for in every written file as personal data is; so are the
    /// values carried from earlier compactions of the run.
    pub fn find_leak(&mut self, text: &str) -> Option<String> {
        if let Some(re) = self.known_regex().cloned() {
            if let Some(m) = re.find(text) {
                let kind = self.known_value(m.as_str()).map(|(_, k)| k);
                return Some(kind.unwrap_or_else(|| "personal".into()));
            }
        }
        // A value carried from an earlier compaction, in any spelling.
        self.carried
            .find(&self.salt, text)
            .into_iter()
            .find(|f| !self.allow.kind_allowed(&f.kind))
            .map(|f| f.kind)
    }

    /// The placeholder and kind of a known value, as written or JSON-escaped.
    fn known_value(&self, found: &str) -> Option<(String, String)> {
        self.known.get(found).cloned().or_else(|| {
            let raw: String = serde_json::from_str(&format!("\"{found}\"")).ok()?;
            self.known.get(&raw).cloned()
        })
    }
}

/// The audit rule of a value withheld because it was known.
fn known_rule(kind: &str) -> String {
    match kind.strip_prefix("secret:") {
        Some(secret) => format!("secrets.{secret}"),
        None => format!("personal_data.fields.{kind}"),
    }
}

fn bounded(v: &str) -> String {
    let escaped = regex::escape(v);
    let starts_word = v
        .chars()
        .next()
        .is_some_and(|c| c.is_alphanumeric() || c == '_');
    let ends_word = v
        .chars()
        .last()
        .is_some_and(|c| c.is_alphanumeric() || c == '_');
    format!(
        "{}{}{}",
        if starts_word { r"(?-u:\b)" } else { "" },
        escaped,
        if ends_word { r"(?-u:\b)" } else { "" }
    )
}

/// Lowercase identifiers (`status`, `claim_id`) are schema words, not
/// someone's data: replacing them in free text would corrupt it.
fn identifier_like(s: &str) -> bool {
    s.chars().any(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-' | '.'))
}

/// `text` with each found span `(start, end, kind)` replaced by the
/// placeholder `withhold` gives it, and one audit record per replacement
/// under the rule `{rule_prefix}.{kind}`. A span `withhold` answers `None`
/// for (the policy lets it through) stays as written.
fn replace_spans<K: std::fmt::Display>(
    text: &str,
    spans: Vec<(usize, usize, K)>,
    rule_prefix: &str,
    item: &str,
    log: &mut Vec<Redaction>,
    mut withhold: impl FnMut(&str, &K) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (start, end, kind) in spans {
        let Some(placeholder) = withhold(&text[start..end], &kind) else {
            continue;
        };
        out.push_str(&text[last..start]);
        log.push(Redaction {
            item: item.to_string(),
            rule: format!("{rule_prefix}.{kind}"),
            placeholder: placeholder.clone(),
        });
        out.push_str(&placeholder);
        last = end;
    }
    out.push_str(&text[last..]);
    out
}

fn is_withheld(s: &str) -> bool {
    s.starts_with("<withheld:")
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The structured values of a part worth scanning for personal-data keys;
/// JSON held in strings is parsed.
fn structured_values(p: &Part) -> Vec<Value> {
    let v = match p {
        Part::ToolCall { args, .. } => args,
        Part::ToolResult { content, .. } | Part::RetryPrompt { content, .. } => content,
        Part::Opaque(v) => v,
        Part::Compaction { .. } => return Vec::new(),
        Part::Reasoning { text: s, .. } | Part::Text(s) | Part::SystemText(s) => {
            return crate::evidence::parse_json_text(s).into_iter().collect()
        }
    };
    match crate::evidence::structured(v) {
        Some(parsed) => vec![parsed],
        None => vec![v.clone()],
    }
}
