//! Answer keys: the facts a compaction must keep and the mission terms, with
//! the keyword presence check the reference used (case-insensitive; a fact is
//! present when all its key terms appear). Keyword checks say what text is
//! there, not what it means.

use serde::{Deserialize, Serialize};

use continuity_core::error::{InputError, Source};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fact {
    pub id: String,
    /// One sentence: the true reading of the records.
    pub statement: String,
    /// Tool call ids the fact rests on, when known.
    #[serde(default)]
    pub evidence: Vec<String>,
    /// Terms that must all appear for the keyword check.
    #[serde(default)]
    pub key_terms: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FactKey {
    #[serde(default)]
    pub mission_terms: Vec<String>,
    #[serde(default, rename = "fact")]
    pub facts: Vec<Fact>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct KeywordCheck {
    pub terms_present: Vec<String>,
    pub terms_missing: Vec<String>,
    pub facts_present: Vec<String>,
    pub facts_missing: Vec<String>,
}

impl FactKey {
    pub fn from_toml(text: &str, source: &Source) -> Result<Self, InputError> {
        let key: FactKey = toml::from_str(text).map_err(|e| InputError::MalformedToml {
            file: source.clone(),
            message: e.to_string(),
        })?;
        Ok(key)
    }

    pub fn keyword_check(&self, text: &str) -> KeywordCheck {
        let lower = text.to_lowercase();
        let has = |t: &str| lower.contains(&t.to_lowercase());
        let mut check = KeywordCheck::default();
        for t in &self.mission_terms {
            if has(t) {
                check.terms_present.push(t.clone());
            } else {
                check.terms_missing.push(t.clone());
            }
        }
        for f in &self.facts {
            if !f.key_terms.is_empty() && f.key_terms.iter().all(|t| has(t)) {
                check.facts_present.push(f.id.clone());
            } else {
                check.facts_missing.push(f.id.clone());
            }
        }
        check
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_key_terms_must_appear() {
        let key = FactKey::from_toml(
            "mission_terms = [\"refund\", \"delete\"]\n[[fact]]\nid = \"F1\"\nstatement = \"s\"\nkey_terms = [\"TX-1\", \"authorization\"]\n",
            &Source("k".into()),
        )
        .unwrap();
        let c = key.keyword_check("Never issue a REFUND. TX-1 was an Authorization.");
        assert_eq!(c.terms_present, vec!["refund"]);
        assert_eq!(c.terms_missing, vec!["delete"]);
        assert_eq!(c.facts_present, vec!["F1"]);
        let c = key.keyword_check("TX-1 was charged.");
        assert_eq!(c.facts_missing, vec!["F1"]);
    }
}
