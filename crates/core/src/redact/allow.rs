//! Explicit opt-outs: personal-data kinds and fields a policy lets through
//! (`[personal_data] allow_kinds`, `allow_fields`), counted for the audit
//! by keyed hash, never by value. Credentials are never let through.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;

use super::carry;
use super::personal::normalise_key;
use super::{scalar_text, structured_values, Redaction, Redactor};
use crate::policy::PersonalDataRules;
use crate::transcript::Transcript;

/// What the policy lets through.
#[derive(Debug, Default)]
pub(super) struct Allow {
    kinds: Vec<String>,
    fields: Vec<String>,
    /// Values under an allowed field → that field: let through wherever
    /// they appear, so a file never holds one both withheld and in clear.
    values: HashMap<String, String>,
    /// Rule → keyed hashes of the values it let through.
    tally: BTreeMap<String, BTreeSet<String>>,
}

impl Allow {
    pub(super) fn new(rules: &PersonalDataRules) -> Self {
        Allow {
            kinds: rules
                .allow_kinds
                .iter()
                .map(|k| k.trim().to_lowercase())
                .collect(),
            fields: rules
                .allow_fields
                .iter()
                .map(|f| normalise_key(f))
                .collect(),
            ..Allow::default()
        }
    }

    pub(super) fn kind_allowed(&self, kind: &str) -> bool {
        !self.kinds.is_empty() && self.kinds.iter().any(|k| k == kind)
    }

    /// The allowed field that holds `value`, or a value it is part of (a
    /// detector may find an address's street alone).
    fn field_of(&self, value: &str) -> Option<&String> {
        if self.values.is_empty() || value.chars().count() < super::MIN_FREE_TEXT_LEN {
            return None;
        }
        self.values.get(value).or_else(|| {
            self.values
                .iter()
                .filter(|(v, _)| v.contains(value))
                .map(|(_, f)| f)
                .min()
        })
    }

    fn field_allowed(&self, key: &str) -> bool {
        !self.fields.is_empty() && self.fields.contains(&normalise_key(key))
    }
}

/// One opt-out, as the audit records it: the rule and how many distinct
/// values it let through.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LetThrough {
    pub rule: String,
    pub values: usize,
}

impl Redactor {
    /// The rule that lets `value` (of `kind`, under `key`) through, if any,
    /// counted.
    pub(super) fn lets_through(&mut self, value: &str, kind: &str, key: Option<&str>) -> bool {
        let a = &self.allow;
        let rule = if a.kind_allowed(kind) {
            format!("personal_data.allow_kinds.{kind}")
        } else if let Some(key) = key.filter(|k| a.field_allowed(k)) {
            format!("personal_data.allow_fields.{}", normalise_key(key))
        } else if let Some(field) = a.field_of(value.trim()) {
            format!("personal_data.allow_fields.{field}")
        } else {
            return false;
        };
        let hash = carry::keyed_hash(&self.salt, &carry::normal_form(value));
        self.allow.tally.entry(rule).or_default().insert(hash);
        true
    }

    /// Pass 0: the values under allowed fields, before any is withheld.
    pub(super) fn collect_allowed(&mut self, t: &Transcript) {
        if self.allow.fields.is_empty() {
            return;
        }
        for m in &t.messages {
            for p in &m.parts {
                for v in structured_values(&p.part) {
                    self.collect_allowed_in(&v);
                }
            }
        }
    }

    fn collect_allowed_in(&mut self, v: &Value) {
        match v {
            Value::Array(items) => items.iter().for_each(|i| self.collect_allowed_in(i)),
            Value::Object(map) => {
                for (k, child) in map {
                    match scalar_text(child) {
                        Some(text) if self.allow.field_allowed(k) => {
                            self.allow
                                .values
                                .insert(text.trim().to_string(), normalise_key(k));
                        }
                        _ => self.collect_allowed_in(child),
                    }
                }
            }
            _ => {}
        }
    }

    /// A scalar under a field the policy lets through, counted.
    pub(super) fn allowed_field(&mut self, key: &str, v: &Value) -> bool {
        if !self.allow.field_allowed(key) || v.is_object() || v.is_array() {
            return false;
        }
        let text = scalar_text(v).unwrap_or_default();
        !text.is_empty() && self.lets_through(&text, "", Some(key))
    }

    /// A value let through: only the credentials in it are withheld.
    pub(super) fn secrets_only(&mut self, v: &mut Value, item: &str, log: &mut Vec<Redaction>) {
        if let Value::String(s) = v {
            let redacted = self.redact_secrets(s, item, log);
            if redacted != *s {
                *s = redacted;
            }
        }
    }

    /// Every opt-out that let something through in this run.
    pub fn let_through(&self) -> Vec<LetThrough> {
        self.allow
            .tally
            .iter()
            .map(|(rule, hashes)| LetThrough {
                rule: rule.clone(),
                values: hashes.len(),
            })
            .collect()
    }
}
