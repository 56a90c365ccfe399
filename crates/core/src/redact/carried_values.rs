//! The redactor's part in keyed placeholders and in the values carried
//! across the compactions of a run (`carry.rs`).

use super::carry::{self, CarriedValue, WithheldCarry, SHORT_HASH};
use super::{Redactor, MIN_FREE_TEXT_LEN};
use crate::transcript::Transcript;

impl Redactor {
    /// `<withheld:KIND:HASH>`, HASH the first digits of the value's keyed
    /// hash: stable across the run, and never shared by two values.
    pub(super) fn keyed_placeholder(&mut self, value: &str, kind: &str) -> String {
        let hash = carry::keyed_hash(&self.salt, &carry::normal_form(value));
        // Found again by a detector: as an earlier compaction wrote it (a
        // name's last word reads as the whole name did).
        if let Some(p) = self.carried.placeholder_of(&hash) {
            return p.to_string();
        }
        let mut n = SHORT_HASH;
        loop {
            let p = format!("<withheld:{kind}:{}>", &hash[..n]);
            match self.used.get(&p) {
                Some(owner) if *owner != hash && n < hash.len() => n += 2,
                _ => {
                    self.used.insert(p.clone(), hash);
                    return p;
                }
            }
        }
    }

    /// The salt of a run that starts with `t`, unless one is set already.
    pub(super) fn salt_from(&mut self, t: &Transcript) {
        if !self.salt.is_empty() {
            return;
        }
        let texts: Vec<String> = t
            .instructions
            .iter()
            .cloned()
            .chain(t.parts().map(|(_, p)| p.part.visible_text()))
            .collect();
        self.salt = carry::derive_salt(texts.iter().map(String::as_str));
    }

    /// Continue a run: its salt, and the values earlier compactions
    /// withheld, looked for in every text from now on. Call before the
    /// first text is redacted.
    pub fn resume(&mut self, carry: &WithheldCarry) {
        if !carry.salt.is_empty() {
            self.salt = carry.salt.clone();
        }
        for v in &carry.values {
            // A placeholder made for this very value: no other may take it.
            let short = v.placeholder.rsplit(':').next().unwrap_or_default();
            let short = short.trim_end_matches('>');
            if !short.is_empty() && v.hash.starts_with(short) {
                self.used
                    .entry(v.placeholder.clone())
                    .or_insert_with(|| v.hash.clone());
            }
        }
        self.carried_in.extend(carry.values.iter().cloned());
        self.carried = carry::Carried::new(&self.carried_in);
    }

    /// What the next compaction of the run needs: the salt and every value
    /// withheld so far (looked for in free text), as keyed hashes.
    pub fn carry(&self) -> WithheldCarry {
        let mut values: Vec<CarriedValue> = self.carried_in.clone();
        for v in &self.propagate {
            if let Some((placeholder, kind)) = self.known.get(v) {
                values.push(carry::carried_value(&self.salt, v, placeholder, kind));
            }
        }
        values.retain(|v| v.words > 0);
        // Stable: a value carried in keeps its placeholder.
        values.sort_by(|a, b| a.hash.cmp(&b.hash));
        values.dedup_by(|a, b| a.hash == b.hash);
        WithheldCarry {
            salt: self.salt.clone(),
            values,
        }
    }

    /// Remember every carried value in `text` as written there, so that
    /// it is replaced here and found by the leak check.
    pub(super) fn learn_carried(&mut self, text: &str) {
        if self.carried.is_empty() {
            return;
        }
        for f in self.carried.find(&self.salt, text) {
            let raw = &text[f.start..f.end];
            if self.known.contains_key(raw) || self.allow.kind_allowed(&f.kind) {
                continue;
            }
            self.known.insert(raw.to_string(), (f.placeholder, f.kind));
            if raw.chars().count() >= MIN_FREE_TEXT_LEN {
                self.propagate.push(raw.to_string());
                self.known_regex = None;
            }
        }
    }
}
