//! Plan: for each strategy, the smallest trigger that meets the floor rule
//! and the compactions to expect per 100k tokens of session.

use serde::Serialize;

use crate::compact::{compact, Inputs, Strategy};
use crate::error::Result;
use crate::kernel::MissionKernel;
use crate::policy::RetentionPolicy;
use crate::redact::Redactor;
use crate::summarize::Summarizer;
use crate::tokens::TokenCount;
use crate::transcript::Transcript;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StrategyPlan {
    pub strategy: String,
    /// The tokenizer behind every figure (the unit).
    pub tokenizer: String,
    pub fixed_overhead: usize,
    pub remains: usize,
    pub after: usize,
    /// Fixed overhead + 2 × what remains: the smallest trigger worth using.
    pub min_trigger: usize,
    /// At `min_trigger`, a compaction frees room for `remains` new tokens.
    pub compactions_per_100k_at_min: f64,
    pub policy_trigger: usize,
    /// At the policy's trigger; `None` when the request after compaction is
    /// already above it (compaction would repeat at once).
    pub compactions_per_100k_at_policy: Option<f64>,
    pub floor_met_at_policy: bool,
    /// What the compaction was held under, and the room it leaves before
    /// the trigger, in tokens and in turns at the recent growth rate.
    pub target: usize,
    pub room: usize,
    pub growth_per_turn: Option<usize>,
    pub headroom_turns: Option<f64>,
    /// Whole turns of room even at the session's largest turn.
    pub turns_at_largest: Option<usize>,
}

pub fn plan(
    transcript: &Transcript,
    input_name: &str,
    kernel: &MissionKernel,
    policy: &RetentionPolicy,
    now: chrono::DateTime<chrono::Utc>,
    summarizer: &mut dyn Summarizer,
    tokens: &dyn TokenCount,
) -> Result<Vec<StrategyPlan>> {
    let mut out = Vec::new();
    for strategy in [Strategy::SummaryOnly, Strategy::Governed] {
        let mut redactor = Redactor::new(&policy.personal_data)?;
        let c = compact(
            &Inputs {
                transcript,
                input_name,
                kernel,
                policy,
                strategy,
            },
            now,
            summarizer,
            tokens,
            &mut redactor,
        )?;
        let t = &c.report.tokens;
        let remains = c.report.floor.remains;
        let policy_trigger = policy.compaction.trigger_tokens;
        let per_100k = |room: usize| (room > 0).then(|| round2(100_000.0 / room as f64));
        out.push(StrategyPlan {
            strategy: strategy.name().to_string(),
            tokenizer: c.report.tokenizer.clone(),
            fixed_overhead: t.fixed_overhead,
            remains,
            after: t.after,
            min_trigger: c.report.floor.required,
            compactions_per_100k_at_min: per_100k(remains).unwrap_or(f64::INFINITY),
            policy_trigger,
            compactions_per_100k_at_policy: per_100k(policy_trigger.saturating_sub(t.after)),
            floor_met_at_policy: c.report.floor.met,
            target: c.report.headroom.target,
            room: c.report.headroom.room,
            growth_per_turn: c.report.headroom.growth_per_turn,
            headroom_turns: c.report.headroom.turns,
            turns_at_largest: c.report.headroom.turns_at_largest,
        });
    }
    Ok(out)
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
