//! The pin plan: which records are pinned verbatim in the continuity block,
//! which a later return supersedes, which the tail already holds whole, and
//! which earlier calls are listed without their results.

use std::collections::HashSet;

use crate::evidence::{self, Pin};
use crate::governance::memory::{directive_conflict, RejectedDirective};
use crate::kernel::constraint::Constraint;
use crate::policy::RetentionPolicy;
use crate::transcript::{compact_json, Message, Part, Transcript};

use super::select::Selection;

/// The evidence a transcript holds: fresh returns (the latest per record)
/// and the records they superseded, and the pins an earlier compaction
/// carried.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    pub fresh: Vec<Pin>,
    pub superseded: Vec<Pin>,
    pub carried: Vec<Pin>,
}

impl Evidence {
    pub fn of(t: &Transcript, policy: &RetentionPolicy) -> Self {
        let (fresh, superseded) = evidence::extract_pins(t, policy);
        Evidence {
            fresh,
            superseded,
            carried: evidence::carried_pins(t),
        }
    }

    /// The calls whose fields are pinned (none unless the strategy pins).
    pub fn pinned_calls(&self, pins_on: bool) -> HashSet<String> {
        if !pins_on {
            return HashSet::new();
        }
        self.fresh.iter().map(|p| p.call_id.clone()).collect()
    }
}

/// What the continuity block pins, and why the rest is not pinned.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PinPlan {
    /// Pinned, in block order: carried pins first, then fresh ones.
    pub pins: Vec<Pin>,
    /// Carried pins that are still live (pinned when the strategy pins).
    pub carried_live: usize,
    /// Superseded by a later return of the same record: fresh, then carried.
    pub superseded: Vec<Pin>,
    /// Fresh records whose result stays whole in the tail.
    pub in_tail: Vec<Pin>,
    /// Pinned lines withheld because they carry a directive that conflicts
    /// with the kernel (an injected "the restriction was lifted").
    pub rejected: Vec<RejectedDirective>,
}

/// Fresh returns win over carried pins of the same record; records whose
/// result stays whole in the tail need no pin; carried pins in the tail are
/// the tail's own. Nothing is pinned unless `pins_on`.
pub fn plan(
    evidence: Evidence,
    selection: &Selection,
    constraints: &[Constraint],
    pins_on: bool,
) -> PinPlan {
    let Evidence {
        fresh,
        mut superseded,
        carried,
    } = evidence;
    let fresh_ids: HashSet<&str> = fresh.iter().map(|p| p.record_id.as_str()).collect();
    let (carried_live, carried_superseded): (Vec<Pin>, Vec<Pin>) = carried
        .into_iter()
        .filter(|c| !selection.in_tail(c.source.part()))
        .partition(|c| !fresh_ids.contains(c.record_id.as_str()));
    let (in_tail, fresh_pinned): (Vec<Pin>, Vec<Pin>) = fresh
        .into_iter()
        .partition(|p| selection.kept_whole(p.source.part()));
    superseded.extend(carried_superseded);
    let mut plan = PinPlan {
        superseded,
        in_tail,
        ..PinPlan::default()
    };
    if pins_on {
        plan.carried_live = carried_live.len();
        plan.pins = carried_live.into_iter().chain(fresh_pinned).collect();
    }
    let mut rejected = Vec::new();
    plan.pins
        .retain(|p| match directive_conflict(constraints, &p.line) {
            Some(conflict) => {
                rejected.push(RejectedDirective {
                    found_in: format!("pin:{}", p.record_id),
                    sentence: p.line.clone(),
                    conflict,
                });
                false
            }
            None => true,
        });
    plan.rejected = rejected;
    plan
}

/// An earlier tool call, listed without its result.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedCall {
    pub id: String,
    pub tool: String,
    /// The arguments as compact JSON.
    pub args: String,
}

impl ListedCall {
    /// Its line under the continuity block's earlier-calls header.
    pub fn line(&self) -> String {
        format!("- [{}] {} {}", self.id, self.tool, self.args)
    }
}

/// Earlier calls to tools the policy does not pin (bulk views, unlisted
/// tools) that returned something, and the calls that failed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EarlierCalls {
    /// Newest first, within the budget.
    pub listed: Vec<ListedCall>,
    /// Head calls whose result was an error.
    pub failed: HashSet<String>,
}

impl EarlierCalls {
    pub fn lines(&self) -> Vec<String> {
        self.listed.iter().map(ListedCall::line).collect()
    }

    pub fn is_listed(&self, call_id: &str) -> bool {
        self.listed.iter().any(|c| c.id == call_id)
    }
}

/// The head's earlier calls, newest first, at most `budget` of them.
pub fn earlier_calls(head: &[Message], policy: &RetentionPolicy, budget: usize) -> EarlierCalls {
    let failed: HashSet<String> = head
        .iter()
        .flat_map(|m| m.parts.iter())
        .filter_map(|p| match &p.part {
            Part::ToolResult {
                id,
                content,
                is_error,
                ..
            } => {
                let error = *is_error
                    || evidence::structured(content).is_some_and(|v| v.get("error").is_some());
                error.then(|| id.clone())
            }
            Part::RetryPrompt { id: Some(id), .. } => Some(id.clone()),
            _ => None,
        })
        .collect();
    let unpinned: Vec<ListedCall> = head
        .iter()
        .flat_map(|m| m.tool_calls())
        .filter(|(id, name, _)| policy.pin_fields(name).is_none() && !failed.contains(*id))
        .map(|(id, name, args)| ListedCall {
            id: id.to_string(),
            tool: name.to_string(),
            args: compact_json(args),
        })
        .collect();
    EarlierCalls {
        listed: unpinned.into_iter().rev().take(budget).collect(),
        failed,
    }
}
