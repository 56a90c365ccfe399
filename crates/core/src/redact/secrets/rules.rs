//! Provider key formats as data: gitleaks' rules (MIT, see the header of
//! `data/secrets/gitleaks.toml`) and our own (`data/secrets/continuity.toml`),
//! embedded at build time and loaded once per process, since every
//! `Redactor` of a run (and of a batch) uses the same rules. Each rule's
//! regex is checked at load and compiled the first time its keywords
//! turn up: a one-shot compaction that meets few providers' keywords
//! compiles a handful of the 200-odd rules.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
use regex::Regex;
use serde::Deserialize;

use super::Finding;

const RULE_FILES: &[(&str, &str)] = &[
    (
        "gitleaks.toml",
        include_str!("../../../data/secrets/gitleaks.toml"),
    ),
    (
        "continuity.toml",
        include_str!("../../../data/secrets/continuity.toml"),
    ),
];

#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    #[error("secret rules {file}: {source}")]
    Parse {
        file: &'static str,
        #[source]
        source: Box<toml::de::Error>,
    },
    #[error("secret rule {id}: {source}")]
    Regex {
        id: String,
        #[source]
        source: Box<regex_syntax::Error>,
    },
    #[error("secret rule keywords: {0}")]
    Keywords(#[from] aho_corasick::BuildError),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleFile {
    source: String,
    rules: Vec<RuleSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleSpec {
    id: String,
    #[serde(default)]
    #[allow(dead_code)] // kept in the data for people reading it
    description: String,
    regex: String,
    #[serde(default)]
    keywords: Vec<String>,
    entropy: Option<f64>,
    secret_group: Option<usize>,
    #[serde(default)]
    allow: Vec<String>,
    #[serde(default)]
    stopwords: Vec<String>,
    #[serde(default)]
    generic: bool,
}

/// One rule, its regexes compiled on first use.
pub struct Rule {
    pub id: String,
    /// Where the rule comes from (`gitleaks`, `continuity`): attribution.
    pub source: String,
    regex: String,
    allow: Vec<String>,
    compiled: OnceLock<Option<Compiled>>,
    entropy: Option<f64>,
    secret_group: Option<usize>,
    stopwords: Vec<String>,
    /// Finds a secret by its surroundings (`curl -H`, `Bearer`), not its format.
    generic: bool,
}

/// Every rule, and one keyword automaton that says which rules can match a
/// text and where a key naming a secret may be: most strings hit no keyword
/// and run no regex at all.
pub struct RuleSet {
    pub rules: Vec<Rule>,
    keywords: AhoCorasick,
    /// Keyword index → the rules it gates.
    gated: Vec<Vec<usize>>,
    /// The first `triggers` keywords are the context rules' trigger words.
    triggers: usize,
    /// Rules without keywords, run on every text.
    ungated: Vec<usize>,
}

/// The rule set, compiled on first use.
pub fn rule_set() -> Result<&'static RuleSet, String> {
    static SET: OnceLock<Result<RuleSet, String>> = OnceLock::new();
    SET.get_or_init(|| RuleSet::load().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(Clone::clone)
}

impl RuleSet {
    fn load() -> Result<RuleSet, RuleError> {
        let mut rules = Vec::new();
        let mut keyword_rules: Vec<(String, usize)> = Vec::new();
        for (file, text) in RULE_FILES {
            let parsed: RuleFile = toml::from_str(text).map_err(|e| RuleError::Parse {
                file,
                source: Box::new(e),
            })?;
            for spec in parsed.rules {
                let index = rules.len();
                keyword_rules.extend(spec.keywords.iter().map(|k| (k.to_lowercase(), index)));
                rules.push(compile(spec, &parsed.source)?);
            }
        }
        let mut words: Vec<String> = super::context::TRIGGERS
            .iter()
            .map(|t| t.to_string())
            .collect();
        let mut gated: Vec<Vec<usize>> = vec![Vec::new(); words.len()];
        let triggers = words.len();
        for (word, rule) in keyword_rules {
            match words.iter().position(|w| *w == word) {
                Some(i) => gated[i].push(rule),
                None => {
                    words.push(word);
                    gated.push(vec![rule]);
                }
            }
        }
        let ungated = (0..rules.len())
            .filter(|i| !gated.iter().any(|g| g.contains(i)))
            .collect();
        // A DFA: every string of a transcript goes through this automaton
        // (twice), so search speed matters more than its few MB.
        let keywords = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .kind(Some(AhoCorasickKind::DFA))
            .build(&words)?;
        Ok(RuleSet {
            rules,
            keywords,
            gated,
            triggers,
            ungated,
        })
    }

    /// Every rule's findings in `text`, and the context rules' (`key = …`).
    pub fn scan(&self, text: &str, out: &mut Vec<Finding>) {
        for &i in &self.ungated {
            self.rules[i].scan(text, out);
        }
        let mut wanted: Option<Vec<bool>> = None;
        let mut trigger_hits = Vec::new();
        for m in self.keywords.find_overlapping_iter(text) {
            let keyword = m.pattern().as_usize();
            if keyword < self.triggers {
                trigger_hits.push(m.start());
            }
            for &rule in &self.gated[keyword] {
                wanted.get_or_insert_with(|| vec![false; self.rules.len()])[rule] = true;
            }
        }
        if let Some(wanted) = wanted {
            for (rule, _) in wanted.iter().enumerate().filter(|(_, w)| **w) {
                self.rules[rule].scan(text, out);
            }
        }
        if !trigger_hits.is_empty() {
            trigger_hits.sort_unstable();
            super::context::scan_at(text, &trigger_hits, out);
        }
    }
}

/// A rule's regex and allowlist, compiled.
struct Compiled {
    regex: Regex,
    allow: Vec<Regex>,
}

/// A rule whose regexes parse; compiling them waits for the first text
/// that holds the rule's keywords.
fn compile(spec: RuleSpec, source: &str) -> Result<Rule, RuleError> {
    for pattern in std::iter::once(&spec.regex).chain(&spec.allow) {
        regex_syntax::Parser::new()
            .parse(pattern)
            .map_err(|e| RuleError::Regex {
                id: spec.id.clone(),
                source: Box::new(e),
            })?;
    }
    Ok(Rule {
        id: spec.id,
        source: source.to_string(),
        regex: spec.regex,
        allow: spec.allow,
        compiled: OnceLock::new(),
        entropy: spec.entropy,
        secret_group: spec.secret_group,
        stopwords: spec.stopwords.iter().map(|s| s.to_lowercase()).collect(),
        generic: spec.generic,
    })
}

impl Rule {
    /// The compiled regexes; `None` only for a rule that parses but does
    /// not compile, which `every_rule_compiles_and_names_its_source` rules out.
    fn compiled(&self) -> Option<&Compiled> {
        self.compiled
            .get_or_init(|| {
                let regex = Regex::new(&self.regex).ok()?;
                let allow = self
                    .allow
                    .iter()
                    .map(|a| Regex::new(a).ok())
                    .collect::<Option<_>>()?;
                Some(Compiled { regex, allow })
            })
            .as_ref()
    }

    fn scan(&self, text: &str, out: &mut Vec<Finding>) {
        let Some(compiled) = self.compiled() else {
            return;
        };
        for caps in compiled.regex.captures_iter(text) {
            let secret = match self.secret_group {
                Some(g) => caps.get(g),
                // gitleaks' reading: the first non-empty group, else the match.
                None => caps.iter().skip(1).flatten().find(|m| !m.is_empty()),
            }
            .or_else(|| caps.get(0));
            let Some(secret) = secret else { continue };
            if self.accepts(secret.as_str(), &compiled.allow) {
                out.push(Finding {
                    start: secret.start(),
                    end: secret.end(),
                    kind: self.id.clone(),
                    by_format: !self.generic,
                });
            }
        }
    }

    /// The rule's own checks: entropy, allowlist, stopwords.
    fn accepts(&self, secret: &str, allow: &[Regex]) -> bool {
        if self
            .entropy
            .is_some_and(|least| super::shannon_entropy(secret) < least)
        {
            return false;
        }
        if allow.iter().any(|a| a.is_match(secret)) {
            return false;
        }
        let lower = secret.to_lowercase();
        !self.stopwords.iter().any(|s| lower.contains(s.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_compiles_and_names_its_source() {
        let set = rule_set().unwrap();
        assert!(set.rules.len() > 200, "{}", set.rules.len());
        for rule in &set.rules {
            assert!(
                rule.compiled().is_some(),
                "rule {} does not compile",
                rule.id
            );
        }
        assert!(set.rules.iter().any(|r| r.source == "gitleaks"));
        assert!(set.rules.iter().any(|r| r.source == "continuity"));
    }

    #[test]
    fn a_text_without_keywords_runs_no_rule() {
        let set = rule_set().unwrap();
        assert!(set.keywords.find("Round 4: TX-40 was captured.").is_none());
    }
}
