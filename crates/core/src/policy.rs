//! The deterministic retention policy: what is pinned verbatim, what is
//! personal data, and the compaction mechanics shared by both strategies.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::{InputError, Source};
use crate::working_state::ToolKind;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetentionPolicy {
    #[serde(default = "default_id")]
    pub id: String,
    #[serde(default = "default_version")]
    pub version: String,
    #[serde(default)]
    pub compaction: CompactionRules,
    #[serde(default)]
    pub evidence: EvidenceRules,
    #[serde(default)]
    pub personal_data: PersonalDataRules,
    #[serde(default)]
    pub may_persist: MayPersist,
    #[serde(default)]
    pub retention: RetentionRules,
    #[serde(default)]
    pub tools: ToolRules,
    /// Hash of the policy file as given (empty for the built-in default).
    #[serde(skip)]
    pub sha256: String,
}

fn default_id() -> String {
    "builtin-default".into()
}
fn default_version() -> String {
    "1".into()
}

/// Mechanics shared by every strategy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CompactionRules {
    /// Compact when the last measured input exceeds this many tokens.
    pub trigger_tokens: usize,
    /// Compact down to this many tokens [default: `target_fraction` of the
    /// trigger]. Below the trigger, so the next turns have room.
    pub target_tokens: Option<usize>,
    /// The default target as a share of the trigger (see
    /// [`DEFAULT_TARGET_FRACTION`]).
    pub target_fraction: f64,
    /// ...and at least this many new tool results arrived since the last one.
    pub min_new_tool_results: usize,
    /// Rounds of tool calls and their results kept verbatim at the end.
    pub tail_rounds: usize,
    /// Tool results in the tail longer than this (characters) become stubs.
    pub stub_threshold_chars: usize,
    /// Hard cap on summary words.
    pub summary_words: usize,
    /// Most tokens the kept tail may take beyond its last turn, which is
    /// always kept whole [default: an eighth of the trigger].
    pub tail_tokens: Option<usize>,
    /// Share of the target reserved for the summary, so that evidence never
    /// squeezes the narrative out (0 reserves nothing).
    pub summary_share: f64,
    /// The word cap and reserved share in a coding session (one with a
    /// working-state digest), whose narrative carries what was tried and
    /// decided, the current work and the next step.
    pub coding_summary_words: usize,
    pub coding_summary_share: f64,
    /// The target was nobody's choice (no policy, no `--target-tokens`):
    /// when the instructions alone take more than half of it, it grows to
    /// them plus half the default, so a harness's long system prompt does
    /// not make every compaction refuse.
    #[serde(skip)]
    pub default_target: bool,
}

/// The default target is 70% of the trigger: a compaction leaves 30% of the
/// trigger free, so the session grows for several turns before the next
/// one (at 11k, 3.3k tokens: three to six turns of a typical coding session)
/// instead of compacting again at the next turn, while the target still
/// holds what a compaction must keep (under half the trigger by the floor
/// rule) with room for the tail.
pub const DEFAULT_TARGET_FRACTION: f64 = 0.7;

/// The default share of the target reserved for the summary: room for the
/// default word cap with a tokenizer that splits finely.
pub const DEFAULT_SUMMARY_SHARE: f64 = 0.05;

impl CompactionRules {
    /// Tokens of `target` reserved for the summary.
    pub fn summary_reserve(&self, target: usize, coding: bool) -> usize {
        let share = if coding {
            self.coding_summary_share
        } else {
            self.summary_share
        };
        (target as f64 * share).floor() as usize
    }

    /// The summary's word cap.
    pub fn word_cap(&self, coding: bool) -> usize {
        if coding {
            self.coding_summary_words
        } else {
            self.summary_words
        }
    }

    /// What a compaction must fit under: `target_tokens`, else the
    /// trigger times `target_fraction`.
    pub fn target(&self) -> usize {
        self.target_tokens.unwrap_or_else(|| {
            ((self.trigger_tokens as f64 * self.target_fraction).floor() as usize).max(1)
        })
    }

    /// Set the target and a trigger above it at the default fraction
    /// (`--target-tokens` alone).
    pub fn set_target(&mut self, target: usize) {
        self.target_tokens = Some(target);
        self.trigger_tokens = ((target as f64 / self.target_fraction).ceil() as usize).max(target);
    }

    /// The tail's token bound.
    pub fn tail_budget(&self) -> usize {
        self.tail_tokens.unwrap_or(self.trigger_tokens / 8)
    }
}

impl Default for CompactionRules {
    fn default() -> Self {
        CompactionRules {
            trigger_tokens: 11_000,
            target_tokens: None,
            target_fraction: DEFAULT_TARGET_FRACTION,
            min_new_tool_results: 3,
            tail_rounds: 1,
            stub_threshold_chars: 300,
            summary_words: 150,
            tail_tokens: None,
            summary_share: DEFAULT_SUMMARY_SHARE,
            coding_summary_words: 400,
            coding_summary_share: 0.15,
            default_target: false,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvidenceRules {
    /// Tool name → fields pinned verbatim. The first field is the record id
    /// (the latest return wins per record id). An empty list marks a bulk
    /// view: never pinned.
    #[serde(default)]
    pub pins: BTreeMap<String, Vec<String>>,
}

/// Retention without a hand-written policy: which signals decide what is
/// kept. Every one is on by default; turning one off measures what it adds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RetentionRules {
    /// Read the results of tools the policy does not name by their shape.
    pub infer_evidence: bool,
    /// Carry what the user said verbatim, newest first within the budget.
    pub user_statements: bool,
    /// Leave out a user statement whose every key a later one sets again.
    pub drop_superseded: bool,
    /// Leave out content whose opening declares it off the mission.
    pub drop_self_declared: bool,
    /// Write the working-state digest (files, commands, errors, the plan,
    /// the user's answers) read from the tool calls.
    pub working_state: bool,
}

impl Default for RetentionRules {
    fn default() -> Self {
        RetentionRules {
            infer_evidence: true,
            user_statements: true,
            drop_superseded: true,
            drop_self_declared: true,
            working_state: true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PersonalDataRules {
    /// Keys whose values are personal data wherever they appear. Added to
    /// the built-in list, never replacing it.
    #[serde(default)]
    pub fields: Vec<String>,
    /// Named regular expressions, added to the built-in ones (a policy entry
    /// with a built-in name replaces that pattern).
    #[serde(default)]
    pub patterns: BTreeMap<String, String>,
    /// Personal-data kinds let through, where a task needs them (`address`
    /// for a field engineer's visit). The audit counts what each let
    /// through. A name that matches no kind lets nothing through;
    /// credentials are never let through.
    #[serde(default)]
    pub allow_kinds: Vec<String>,
    /// Keys whose scalar values are let through as they are, wherever that
    /// value appears (`site_address`); credentials in them are still
    /// withheld.
    #[serde(default)]
    pub allow_fields: Vec<String>,
}

/// What each tool does to the work, where the built-in tables and the shape
/// of its arguments are wrong (`[tools.kinds] run_sql = "other"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolRules {
    #[serde(default)]
    pub kinds: BTreeMap<String, ToolKind>,
}

impl ToolRules {
    /// The kind of a call to `name` with `args`.
    pub fn kind_of(&self, name: &str, args: &serde_json::Value) -> ToolKind {
        crate::working_state::kind_of(name, args, &self.kinds)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MayPersist {
    /// Entries that may persist (earlier tool calls whose results were not
    /// pinned) shown after compaction, newest first.
    pub budget: usize,
}

impl Default for MayPersist {
    fn default() -> Self {
        MayPersist { budget: 10 }
    }
}

impl Default for RetentionPolicy {
    fn default() -> Self {
        RetentionPolicy {
            id: default_id(),
            version: default_version(),
            compaction: CompactionRules::default(),
            evidence: EvidenceRules::default(),
            personal_data: PersonalDataRules::default(),
            may_persist: MayPersist::default(),
            retention: RetentionRules::default(),
            tools: ToolRules::default(),
            sha256: String::new(),
        }
    }
}

impl RetentionPolicy {
    pub fn from_toml(text: &str, source: &Source) -> Result<Self, InputError> {
        let mut policy: RetentionPolicy =
            toml::from_str(text).map_err(|e| InputError::InvalidPolicy {
                file: source.clone(),
                message: e.to_string(),
            })?;
        let bad = |message: String| InputError::InvalidPolicy {
            file: source.clone(),
            message,
        };
        if policy.compaction.trigger_tokens == 0 {
            return Err(bad("compaction.trigger_tokens must be at least 1".into()));
        }
        for (name, share) in [
            ("summary_share", policy.compaction.summary_share),
            (
                "coding_summary_share",
                policy.compaction.coding_summary_share,
            ),
        ] {
            if !(0.0..=0.5).contains(&share) {
                return Err(bad(format!("compaction.{name} must be between 0 and 0.5")));
            }
        }
        let c = &policy.compaction;
        if !(c.target_fraction > 0.0 && c.target_fraction <= 1.0) {
            return Err(bad(
                "compaction.target_fraction must be above 0 and at most 1".into(),
            ));
        }
        if c.target_tokens
            .is_some_and(|t| t == 0 || t > c.trigger_tokens)
        {
            return Err(bad(
                "compaction.target_tokens must be at least 1 and at most trigger_tokens".into(),
            ));
        }
        if policy.compaction.tail_rounds == 0 {
            return Err(bad("compaction.tail_rounds must be at least 1".into()));
        }
        for (name, pattern) in &policy.personal_data.patterns {
            regex::Regex::new(pattern).map_err(|e| {
                bad(format!(
                    "personal_data.patterns.{name} is not a valid regex: {e}"
                ))
            })?;
        }
        if let Some(kind) = policy
            .personal_data
            .allow_kinds
            .iter()
            .find(|k| k.trim().is_empty() || k.trim().to_lowercase().starts_with("secret"))
        {
            return Err(bad(format!(
                "personal_data.allow_kinds: `{kind}` cannot be let through (credentials never are)"
            )));
        }
        for (tool, fields) in &policy.evidence.pins {
            if fields.iter().any(|f| f.trim().is_empty()) {
                return Err(bad(format!("evidence.pins.{tool} has an empty field name")));
            }
        }
        policy.sha256 = crate::digest::sha256_hex(text.as_bytes());
        Ok(policy)
    }

    /// A tool the policy lists with no fields: a bulk view, never pinned.
    pub fn is_bulk_view(&self, tool: &str) -> bool {
        self.evidence.pins.get(tool).is_some_and(Vec::is_empty)
    }

    /// Pinned fields for a tool; `None` when the tool is not pinned.
    pub fn pin_fields(&self, tool: &str) -> Option<&[String]> {
        self.evidence
            .pins
            .get(tool)
            .map(Vec::as_slice)
            .filter(|f| !f.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_overrides() {
        let p = RetentionPolicy::from_toml("[compaction]\nsummary_words = 80\n[evidence.pins]\nget_x = [\"x_id\", \"status\"]\nlist_x = []\n", &Source("p".into())).unwrap();
        assert_eq!(p.compaction.summary_words, 80);
        assert_eq!(p.compaction.trigger_tokens, 11_000);
        assert_eq!(p.pin_fields("get_x").map(|f| f.len()), Some(2));
        assert_eq!(p.pin_fields("list_x"), None, "bulk views are never pinned");
        assert_eq!(p.pin_fields("unknown"), None);
    }

    #[test]
    fn typos_and_bad_regexes_are_errors() {
        let err = RetentionPolicy::from_toml(
            "[compaction]\nsumary_words = 80\n",
            &Source("p.toml".into()),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("p.toml") && err.contains("sumary_words"),
            "{err}"
        );
        let err = RetentionPolicy::from_toml(
            "[personal_data.patterns]\nx = '('\n",
            &Source("p.toml".into()),
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("personal_data.patterns.x"), "{err}");
    }
}
