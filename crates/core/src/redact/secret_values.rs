//! The redactor's part in withholding credentials: collecting every secret
//! of a transcript before anything is replaced (so a password read from a
//! `.env` dump is also withheld where the agent repeats it earlier or later
//! without its key), and replacing secrets in text and in JSON fields.

use serde_json::Value;

use super::{replace_spans, secrets, Redaction, Redactor};

/// Shortest secret also searched for as a bare value in free text: shorter
/// ones (a URL password `pw`) would corrupt ordinary words.
const MIN_SECRET_FREE_TEXT_LEN: usize = 6;

impl Redactor {
    /// The placeholder of a secret; the first kind found for a value names it.
    pub(super) fn secret_placeholder(&mut self, value: &str, kind: &str) -> String {
        if let Some((p, _)) = self.known.get(value) {
            return p.clone();
        }
        let p = secrets::placeholder(value, kind);
        self.known
            .insert(value.to_string(), (p.clone(), format!("secret:{kind}")));
        if value.chars().count() >= MIN_SECRET_FREE_TEXT_LEN {
            self.propagate.push(value.to_string());
            self.known_regex = None;
        }
        p
    }

    /// Pass 1: every secret in `text`, remembered.
    pub(super) fn collect_secrets_in(&mut self, text: &str) {
        for f in secrets::scan(self.secret_rules, text) {
            self.secret_placeholder(&text[f.start..f.end], &f.kind);
        }
    }

    /// Pass 1: every secret in `v`'s strings and in its fields whose key
    /// names a secret.
    pub(super) fn collect_secrets(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.collect_secrets_in(s),
            Value::Array(items) => items.iter().for_each(|i| self.collect_secrets(i)),
            Value::Object(map) => {
                for (k, child) in map {
                    // The value's format first: it names the kind better
                    // than the key (`"api_key": "AIza…"` is a Google key).
                    self.collect_secrets(child);
                    if secrets::key_kind(k).is_none() {
                        continue;
                    }
                    if let Some(text) = super::scalar_text(child) {
                        if let Some((start, end, kind)) = secrets::field_secret(k, &text) {
                            self.secret_placeholder(&text[start..end], kind);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Replace every secret in `text`.
    pub(super) fn redact_secrets(
        &mut self,
        text: &str,
        item: &str,
        log: &mut Vec<Redaction>,
    ) -> String {
        let found = secrets::scan(self.secret_rules, text);
        if found.is_empty() {
            return text.to_string();
        }
        let spans = found
            .into_iter()
            .map(|f| (f.start, f.end, f.kind))
            .collect();
        replace_spans(text, spans, "secrets", item, log, |value, kind| {
            Some(self.secret_placeholder(value, kind))
        })
    }

    /// A JSON field whose key names a secret (`"password": "…"`): its value,
    /// or the credential after an authorization scheme, withheld. `false`
    /// when the field holds no secret.
    pub(super) fn redact_secret_field(
        &mut self,
        key: &str,
        child: &mut Value,
        item: &str,
        log: &mut Vec<Redaction>,
    ) -> bool {
        if secrets::key_kind(key).is_none() {
            return false;
        }
        let Some(text) = super::scalar_text(child) else {
            return false;
        };
        let Some((start, end, kind)) = secrets::field_secret(key, &text) else {
            return false;
        };
        let placeholder = self.secret_placeholder(&text[start..end], kind);
        log.push(Redaction {
            item: format!("{item}:{key}"),
            rule: format!("secrets.{kind}"),
            placeholder: placeholder.clone(),
        });
        let replaced = format!("{}{placeholder}{}", &text[..start], &text[end..]);
        *child = Value::String(self.redact_str(&replaced, item, log));
        true
    }
}
