//! The pin plan: which records are pinned verbatim in the continuity block,
//! which a later return supersedes, which the tail already holds whole,
//! which a bulk listing leaves out, which the budget leaves out, and which
//! earlier calls are listed without their results.

use std::collections::HashSet;

use crate::evidence::{self, Pin};
use crate::governance::memory::{directive_conflict, RejectedDirective};
use crate::kernel::constraint::Constraint;
use crate::policy::RetentionPolicy;
use crate::transcript::{compact_json, Message, Part, PartRef, Transcript};

use super::select::Selection;

/// The evidence a transcript holds: the latest pin of each record (carried
/// ones first), the pins they superseded, bulk-listing records nothing later
/// mentions, and prose left out of inferred records.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    pub live: Vec<Pin>,
    pub superseded: Vec<Pin>,
    pub bulk: Vec<Pin>,
    pub prose: Vec<(PartRef, String)>,
}

impl Evidence {
    pub fn of(t: &Transcript, policy: &RetentionPolicy) -> Self {
        let e = evidence::extract_pins(t, policy);
        Evidence {
            live: e.live,
            superseded: e.superseded,
            bulk: e.bulk,
            prose: e.prose,
        }
    }

    /// The calls whose fields are pinned (none unless the strategy pins).
    pub fn pinned_calls(&self, pins_on: bool) -> HashSet<String> {
        if !pins_on {
            return HashSet::new();
        }
        self.live
            .iter()
            .filter(|p| !p.source.is_carried())
            .map(|p| p.call_id.clone())
            .collect()
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
    /// Records of bulk listings that no later turn mentions.
    pub bulk: Vec<Pin>,
    /// Left out for lack of room (nothing later mentions them).
    pub over_budget: Vec<Pin>,
    /// Not pinned again: the working-state digest's line for the same call
    /// already says every line of it (a command's short output).
    pub in_digest: Vec<Pin>,
    /// Not pinned in a coding session: every line was code (the files are
    /// on disk).
    pub code_only: Vec<Pin>,
    /// Pinned lines withheld because they carry a directive that conflicts
    /// with the kernel (an injected "the restriction was lifted").
    pub rejected: Vec<RejectedDirective>,
}

impl PinPlan {
    /// Keep only the pins `keep` accepts (by index); the rest were left out
    /// for lack of room.
    pub fn keep_only(&mut self, keep: impl Fn(usize) -> bool) {
        let pins = std::mem::take(&mut self.pins);
        for (i, p) in pins.into_iter().enumerate() {
            if keep(i) {
                self.pins.push(p);
            } else {
                self.over_budget.push(p);
            }
        }
        self.carried_live = self.pins.iter().filter(|p| p.source.is_carried()).count();
    }
}

/// Records whose result stays whole in the tail need no pin; carried pins
/// in the tail are the tail's own. Nothing is pinned unless `pins_on`.
pub fn plan(
    evidence: Evidence,
    selection: &Selection,
    constraints: &[Constraint],
    pins_on: bool,
) -> PinPlan {
    let Evidence {
        live,
        superseded,
        bulk,
        ..
    } = evidence;
    let (in_tail, candidates): (Vec<Pin>, Vec<Pin>) = live
        .into_iter()
        .filter(|p| !(p.source.is_carried() && selection.in_tail(p.source.part())))
        .partition(|p| !p.source.is_carried() && selection.kept_whole(p.source.part()));
    let mut plan = PinPlan {
        superseded,
        in_tail,
        bulk,
        ..PinPlan::default()
    };
    if pins_on {
        plan.carried_live = candidates.iter().filter(|p| p.source.is_carried()).count();
        plan.pins = candidates;
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

/// Earlier calls whose results left nothing pinned (bulk views, results
/// without evidence, results left out for room) that returned something,
/// and the calls that failed.
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

/// The head's earlier calls, newest first, at most `budget` of them: calls
/// to tools the policy does not pin whose results left no pin in `pinned`.
pub fn earlier_calls(
    head: &[Message],
    policy: &RetentionPolicy,
    pinned: &HashSet<&str>,
    budget: usize,
) -> EarlierCalls {
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
        .filter(|(id, name, _)| {
            policy.pin_fields(name).is_none() && !failed.contains(*id) && !pinned.contains(*id)
        })
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
