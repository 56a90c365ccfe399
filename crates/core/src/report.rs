//! The compaction report: the same request measured before and after, in
//! tokens, with the floor rule.

use serde::Serialize;

use crate::audit::PrecedenceItem;
use crate::summarize::SummarizerMetrics;

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Tokens {
    pub before: usize,
    pub after: usize,
    /// Instructions plus tool schemas of the compacted request (the kernel
    /// included, when governed).
    pub fixed_overhead: usize,
    pub kernel: usize,
    pub pinned: usize,
    pub summary: usize,
    /// What the user stated, carried verbatim (the mission included when
    /// there is no kernel).
    pub user: usize,
    pub tail: usize,
    /// Framing lines and the may-persist list of the continuity block.
    pub framing: usize,
    pub may_persist: usize,
    /// The working-state digest of the continuity block.
    pub working_state: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Floor {
    /// The policy's trigger, in tokens.
    pub trigger: usize,
    /// Fixed overhead + 2 × what remains after compaction.
    pub required: usize,
    pub met: bool,
    /// What remains after compaction above the fixed overhead.
    pub remains: usize,
}

/// What a compaction leaves before the next one: the trigger, the target
/// it compacted to, and the room between, in tokens and in turns at the
/// session's recent growth rate.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Headroom {
    pub trigger: usize,
    pub target: usize,
    pub after: usize,
    /// trigger − after.
    pub room: usize,
    /// Tokens per turn over the input's last turns (none with fewer than
    /// two assistant turns).
    pub growth_per_turn: Option<usize>,
    /// room ÷ growth, rounded down to a tenth: an estimate.
    pub turns: Option<f64>,
    /// The most one whole turn of the session has added.
    pub largest_turn: Option<usize>,
    /// Whole turns of room even if each were as large as the largest: the
    /// promise, kept unless a turn larger than any before comes.
    pub turns_at_largest: Option<usize>,
}

/// Our count beside the provider's, where the transcript records one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Recorded {
    /// The latest request the transcript recorded usage for (`--at N`).
    pub line: usize,
    /// The provider's count of that request (its own tokenizer, the
    /// harness's system prompt and tool schemas included).
    pub provider_tokens: u64,
    /// Our count of the same request, in the report's unit.
    pub our_tokens: usize,
    /// Of the provider's count, reasoning from earlier calls of the turn
    /// that the transcript holds only encrypted, as the transcript recorded
    /// it (Codex); 0 where none.
    pub hidden_reasoning_tokens: u64,
    /// What the transcript does not hold, fitted over the recorded
    /// requests: provider ≈ factor × ours + unseen.
    pub calibration: Option<crate::tokens::Calibration>,
    /// The provider's count of the request compacted here, estimated from
    /// the latest recorded one: its count plus what was added since, in the
    /// report's unit (the recorded count itself when the point is that
    /// request).
    pub estimated_provider_tokens: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TriggerCheck {
    pub threshold: usize,
    pub input_tokens: usize,
    pub min_new_tool_results: usize,
    pub new_tool_results: usize,
    /// Whether the policy's trigger rule would fire on this input.
    pub would_trigger: bool,
}

impl TriggerCheck {
    /// The policy's trigger rule on an input of `input_tokens` with
    /// `new_tool_results` results since the last compaction: over the
    /// threshold, and at least the minimum of new results.
    pub fn of(
        rules: &crate::policy::CompactionRules,
        input_tokens: usize,
        new_tool_results: usize,
    ) -> Self {
        TriggerCheck {
            threshold: rules.trigger_tokens,
            input_tokens,
            min_new_tool_results: rules.min_new_tool_results,
            new_tool_results,
            would_trigger: input_tokens > rules.trigger_tokens
                && new_tool_results >= rules.min_new_tool_results,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SummarizerReport {
    pub name: String,
    /// Tokens of the summarizer's input for this strategy.
    pub input_tokens: usize,
    /// Tokens of everything older than the tail (the summary-only input), for
    /// comparison with the narrower governed input.
    pub full_input_tokens: usize,
    pub words: usize,
    pub capped: bool,
    pub latency_ms: f64,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub model: Option<SummarizerMetrics>,
}

/// The budget as the report shows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BudgetReport {
    /// The compacted request must not exceed this many tokens (the
    /// policy's trigger, or `--target-tokens`).
    pub target: usize,
    /// What had to be kept whatever it cost.
    pub must_keep: usize,
    /// Flexible items (user statements, evidence nothing later mentions)
    /// kept and left out for lack of room, and the tokens kept.
    pub flexible_kept: usize,
    pub flexible_dropped: usize,
    pub flexible_tokens: usize,
    /// Room left after the flexible items, for earlier calls and the summary.
    pub remaining: usize,
    /// Tokens reserved for the summary before any flexible item
    /// (`compaction.summary_share` of the target, or what was left).
    pub summary_reserve: usize,
    /// Working-state digest lines kept and left out for lack of room.
    pub digest_kept: usize,
    pub digest_dropped: usize,
}

/// Where the mission of a compaction came from.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct MissionReport {
    /// `kernel`: a kernel file, rendered into the instructions; `session`:
    /// no kernel, so the input's instructions and its first user message
    /// are the mission, carried verbatim.
    pub source: String,
    /// The input's instruction blocks, kept unchanged.
    pub instructions: usize,
    /// The first user message carried verbatim as the mission (`m0.p0`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_user_message: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Counts {
    pub messages_before: usize,
    pub messages_after: usize,
    pub pins: usize,
    pub pins_carried: usize,
    pub pins_superseded: usize,
    pub pins_in_tail: usize,
    pub stubs: usize,
    pub redactions: usize,
    pub may_persist_listed: usize,
    /// Pins found by shape (no policy for the tool), of `pins`.
    pub pins_inferred: usize,
    /// Records of bulk listings nothing later mentions: not pinned.
    pub pins_bulk: usize,
    /// Pins left out for lack of room.
    pub pins_over_budget: usize,
    /// Of those, inferred evidence a later turn mentions: it yields only
    /// when keeping all of it would be over the target.
    pub pins_relied_on_over_budget: usize,
    /// User statements carried verbatim (the mission included).
    pub statements_carried: usize,
    /// Left out: every key set again later; off the mission by their own
    /// account; no room; the brief the kernel stands in for.
    pub statements_superseded: usize,
    pub statements_self_declared: usize,
    pub statements_over_budget: usize,
    pub statements_kernel: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Identity {
    pub id: String,
    pub version: String,
    pub sha256: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    pub input: String,
    pub format: String,
    pub strategy: String,
    /// The tokenizer behind every token figure of the report (the unit).
    pub tokenizer: String,
    pub kernel: Identity,
    pub policy: Identity,
    pub tokens: Tokens,
    pub reduction_pct: f64,
    pub floor: Floor,
    pub trigger: TriggerCheck,
    pub summarizer: SummarizerReport,
    pub counts: Counts,
    /// Must-persist items checked after the rebuild (governed only).
    pub precedence: Vec<PrecedenceItem>,
    pub budget: BudgetReport,
    pub headroom: Headroom,
    /// Our count beside the provider's (session transcripts that record
    /// usage).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded: Option<Recorded>,
    pub mission: MissionReport,
    /// Policy pin and freshness of this rebuild.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub governance: Option<crate::governance::pin::GovernanceReport>,
}

pub fn reduction_pct(before: usize, after: usize) -> f64 {
    if before == 0 {
        return 0.0;
    }
    let pct = (before as f64 - after as f64) / before as f64 * 100.0;
    (pct * 10.0).round() / 10.0
}
