//! The redactor's part in the wider personal data (`personal/`): collecting
//! every value found by shape, by context or by key before anything is
//! replaced, so that the same value is withheld wherever it appears again,
//! and replacing it in text and in structured fields.

use std::collections::HashMap;

use serde_json::Value;

use super::personal::{self, Finding, NAME};
use super::{is_withheld, replace_spans, scalar_text, Redaction, Redactor};

/// The personal-data scan's findings by text, emptied when its texts pass
/// [`SCANS_BYTES`] (a scan is a pure function of the text).
#[derive(Default)]
pub(super) struct Scans {
    found: HashMap<String, Vec<Finding>>,
    bytes: usize,
}

/// The most text [`Scans`] holds before it starts again.
const SCANS_BYTES: usize = 64 << 20;

impl Scans {
    fn scan(&mut self, text: &str) -> Vec<Finding> {
        if let Some(found) = self.found.get(text) {
            return found.clone();
        }
        let found = personal::scan(text);
        if self.bytes + text.len() > SCANS_BYTES {
            *self = Scans::default();
        }
        self.bytes += text.len();
        self.found.insert(text.to_string(), found.clone());
        found
    }
}

impl Redactor {
    /// The placeholder of a personal value found by shape, context or key
    /// (`None`: the policy lets it through).
    fn remember_personal(&mut self, value: &str, kind: &str, key: Option<&str>) -> Option<String> {
        if kind == NAME {
            self.name(value, NAME);
        }
        self.withhold(value.trim(), kind, key)
    }

    /// Pass 1: every personal value in `text`, remembered.
    pub(super) fn collect_personal_in(&mut self, text: &str) {
        for f in self.personal_scans.scan(text) {
            self.remember_personal(&text[f.start..f.end], f.kind, None);
        }
    }

    /// Pass 1: every personal value in `v`'s strings and in its fields
    /// whose key names one.
    pub(super) fn collect_personal(&mut self, v: &Value) {
        match v {
            Value::String(s) => self.collect_personal_in(s),
            Value::Array(items) => items.iter().for_each(|i| self.collect_personal(i)),
            Value::Object(map) => {
                for (k, child) in map {
                    if let Some(text) = scalar_text(child).filter(|t| !is_withheld(t)) {
                        if let Some(kind) = personal::field_kind(k, &text) {
                            self.remember_personal(&text, kind, Some(k));
                            continue;
                        }
                    }
                    self.collect_personal(child);
                }
            }
            _ => {}
        }
    }

    /// Replace every personal value found by shape or context in `text`.
    pub(super) fn redact_personal(
        &mut self,
        text: &str,
        item: &str,
        log: &mut Vec<Redaction>,
    ) -> String {
        let found = self.personal_scans.scan(text);
        if found.is_empty() {
            return text.to_string();
        }
        let spans = found
            .into_iter()
            .map(|f| (f.start, f.end, f.kind))
            .collect();
        replace_spans(text, spans, "personal_data", item, log, |value, kind| {
            self.remember_personal(value, kind, None)
        })
    }

    /// A structured field whose key names personal data and whose value
    /// has its shape (`"routing_number": 21000021`): withheld whole.
    /// `false` when the field holds none.
    pub(super) fn redact_personal_field(
        &mut self,
        key: &str,
        child: &mut Value,
        item: &str,
        log: &mut Vec<Redaction>,
    ) -> bool {
        let Some(text) = scalar_text(child).filter(|t| !is_withheld(t)) else {
            return false;
        };
        let Some(kind) = personal::field_kind(key, &text) else {
            return false;
        };
        let Some(placeholder) = self.remember_personal(&text, kind, Some(key)) else {
            self.secrets_only(child, item, log);
            return true;
        };
        log.push(Redaction {
            item: format!("{item}:{key}"),
            rule: format!("personal_data.{kind}"),
            placeholder: placeholder.clone(),
        });
        *child = Value::String(placeholder);
        true
    }
}
