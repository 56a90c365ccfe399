//! Retain: the evidence, the user's statements and the tail, fitted to the
//! budget. It runs the select, pin-plan and budget stages together, since
//! each bounds the others: the tail is bounded in tokens, what the tail
//! holds whole is not pinned twice, and when what must be kept is over the
//! target the tail shrinks to its last turn before the run gives up.

use std::collections::HashSet;

use crate::error::{Error, Result};
use crate::evidence::stated::{self, Statement, StatementStatus};
use crate::evidence::{group_header, Pin, PinKind};
use crate::kernel::MissionKernel;
use crate::markers::{FACTS_HEADER, MAY_PERSIST_HEADER};
use crate::tokens::TokenCount;
use crate::transcript::{compact_json, Part, Transcript};
use crate::working_state::WorkingState;

use super::budget::{self, Allocation, FlexItem, Flexible, MustKeep};
use super::pins::{self, EarlierCalls, Evidence, PinPlan};
use super::rebuild;
use super::select::{self, Selection, TailRules};
use super::Inputs;

/// What a compaction keeps, and why the rest is not kept.
#[derive(Debug, Clone)]
pub struct Retained {
    pub selection: Selection,
    pub plan: PinPlan,
    /// Every user text of the head, classified (empty when the strategy
    /// does not carry them).
    pub statements: Vec<Statement>,
    /// Indices of the statements carried verbatim.
    pub carried: HashSet<usize>,
    pub earlier: EarlierCalls,
    pub allocation: Allocation,
    pub must: MustKeep,
    /// Tokens the summary section may take.
    pub summary_room: usize,
    /// Prose left out of inferred records, for the summarizer.
    pub prose: Vec<(crate::transcript::PartRef, String)>,
    /// The working-state digest of the head, and the lines kept.
    pub working_state: WorkingState,
    pub digest_kept: HashSet<usize>,
    /// A coding session: the digest says what the tools did, and the
    /// narrative gets the coding word cap and reserve.
    pub coding: bool,
}

impl Retained {
    /// The digest's kept lines, as the continuity block writes them.
    pub fn working_state_text(&self) -> String {
        self.working_state.render(|i| self.digest_kept.contains(&i))
    }

    /// The carried statements' texts, in conversation order.
    pub fn carried_texts(&self) -> Vec<String> {
        self.carried_indices()
            .map(|i| self.statements[i].text.clone())
            .collect()
    }

    fn carried_indices(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.statements.len()).filter(|i| self.carried.contains(i))
    }

    /// `(statement:PART, text)` of each carried statement, for validation.
    pub fn carried_must_persist(&self) -> Vec<(String, String)> {
        self.carried_indices()
            .map(|i| {
                let s = &self.statements[i];
                (format!("statement:{}", s.part), s.text.clone())
            })
            .collect()
    }

    /// Whether statement `i` was left out for lack of room.
    pub fn over_budget(&self, i: usize) -> bool {
        self.statements[i].status == StatementStatus::Carried && !self.carried.contains(&i)
    }
}

/// Where the strategy puts the mission, and what it carries.
#[derive(Clone, Copy)]
struct Mode<'a> {
    kernel: &'a MissionKernel,
    /// The kernel is rendered into the instructions.
    kernel_on: bool,
    pins_on: bool,
    /// What the user stated is carried verbatim.
    carry_user: bool,
    /// How evidence a later turn relies on is budgeted in this attempt.
    relied: ReliedOn,
}

impl<'a> Mode<'a> {
    fn of(inputs: &Inputs<'a>) -> Self {
        let pins_on = inputs.strategy.pins_evidence();
        Mode {
            kernel: inputs.kernel,
            kernel_on: inputs.strategy.kernel_in_instructions() && inputs.kernel.is_file(),
            pins_on,
            carry_user: pins_on && inputs.policy.retention.user_statements,
            relied: ReliedOn::Kept,
        }
    }

    fn rendered_kernel(&self) -> Option<&'a MissionKernel> {
        self.kernel_on.then_some(self.kernel)
    }
}

/// How evidence a later turn relies on is budgeted (a policy's pins are
/// always kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReliedOn {
    /// Kept whatever it costs.
    Kept,
    /// Kept newest first while it fits, like the rest: only when keeping it
    /// all is over the target, so a long session still compacts.
    Yields,
}

fn must_keep_pin(p: &Pin, relied: ReliedOn) -> bool {
    p.kind == PinKind::Policy || (p.relied_on && relied == ReliedOn::Kept)
}

/// Fit the compaction to `target` tokens. When what must be kept is over
/// it, the tail shrinks to its last turn first, then inferred evidence a
/// later turn relies on yields (newest kept first), then with the last
/// turn only; the last refusal names what is still too big.
pub fn retain(
    inputs: &Inputs<'_>,
    t: &Transcript,
    target: usize,
    tokens: &dyn TokenCount,
) -> Result<Retained> {
    let policy = inputs.policy;
    let rules = &policy.compaction;
    let mode = Mode::of(inputs);
    let evidence = Evidence::of(t, policy);
    let tail_budget = rules.tail_budget();
    let try_with = |relied: ReliedOn, tail_tokens: usize| -> Result<Retained> {
        let tail = TailRules {
            rounds: rules.tail_rounds,
            tokens: tail_tokens,
            stub_threshold_chars: rules.stub_threshold_chars,
            stop_at_self_declared: policy.retention.drop_self_declared,
        };
        let pinned_calls = evidence.pinned_calls(mode.pins_on);
        let selection = select::select(t, &tail, &pinned_calls, tokens)?;
        let mode = Mode { relied, ..mode };
        attempt(
            inputs,
            &mode,
            t,
            evidence.clone(),
            selection,
            target,
            tokens,
        )
    };
    let yields = evidence
        .live
        .iter()
        .any(|p| p.relied_on && p.kind != PinKind::Policy);
    // In a coding session the working-state digest says what the tools did
    // more densely than their output: evidence yields to it from the start.
    let coding = mode.pins_on
        && policy.retention.working_state
        && crate::working_state::is_coding(t, &policy.tools.kinds);
    let first = if coding {
        ReliedOn::Yields
    } else {
        ReliedOn::Kept
    };
    let mut outcome = try_with(first, tail_budget);
    for (relied, tail_tokens) in [
        (ReliedOn::Kept, 0),
        (ReliedOn::Yields, tail_budget),
        (ReliedOn::Yields, 0),
    ] {
        if !matches!(outcome, Err(Error::OverBudget { .. })) {
            break;
        }
        let redundant = (tail_tokens == 0 && tail_budget == 0 && relied == ReliedOn::Kept)
            || (relied == ReliedOn::Yields && !yields)
            || (relied == ReliedOn::Kept && coding)
            || (relied == first && tail_tokens == tail_budget);
        if !redundant {
            outcome = try_with(relied, tail_tokens);
        }
    }
    outcome
}

/// Tokens of a pin's lines in the facts section (each line and its newline).
fn pin_tokens(p: &Pin, tokens: &dyn TokenCount) -> Result<usize> {
    Ok(tokens.count(&p.line)? + 1)
}

fn header_tokens(group: &str, tokens: &dyn TokenCount) -> Result<usize> {
    Ok(tokens.count(&group_header(group))? + 1)
}

/// What must be kept, by part, and which group headers it pays for.
fn must_keep(
    mode: &Mode<'_>,
    t: &Transcript,
    selection: &Selection,
    plan: &PinPlan,
    statements: &[Statement],
    digest: &WorkingState,
    tokens: &dyn TokenCount,
) -> Result<(MustKeep, HashSet<String>)> {
    let kernel = mode.rendered_kernel();
    let mut must = MustKeep {
        tail_start: selection.tail_start,
        ..MustKeep::default()
    };
    for s in rebuild::instructions(&t.instructions, kernel) {
        must.fixed += tokens.count(&s)?;
    }
    for schema in &t.tools {
        must.fixed += tokens.count(&compact_json(schema))?;
    }
    must.kernel = kernel
        .map(|k| tokens.count(&k.render()))
        .transpose()?
        .unwrap_or(0);
    let block = mode.kernel_on || mode.pins_on;
    must.framing = if block {
        let empty = rebuild::BlockParts::default();
        tokens.count(&rebuild::continuity_block(kernel, &empty).framing)?
    } else {
        tokens.count(&rebuild::summary_only_head(""))?
    };
    if !plan.pins.is_empty() {
        must.framing += tokens.count(FACTS_HEADER)? + 1;
    }
    if !digest.is_empty() {
        must.framing += tokens.count(&digest.header())? + 1;
    }
    let mut paid = HashSet::new();
    let mut groups: Vec<(String, usize)> = Vec::new();
    for p in plan.pins.iter().filter(|p| must_keep_pin(p, mode.relied)) {
        let mut n = pin_tokens(p, tokens)?;
        if paid.insert(p.group.clone()) {
            n += header_tokens(&p.group, tokens)?;
        }
        must.evidence += n;
        match groups.iter_mut().find(|(g, _)| *g == p.group) {
            Some((_, total)) => *total += n,
            None => groups.push((p.group.clone(), n)),
        }
    }
    must.largest_evidence = groups.into_iter().max_by_key(|(_, n)| *n);
    for s in statements
        .iter()
        .filter(|s| s.status == StatementStatus::Mission)
    {
        must.mission += tokens.count(&s.text)?;
        must.mission_part = Some(s.part);
    }
    for (at, p) in t.parts().filter(|(at, _)| selection.in_tail(*at)) {
        must.tail += match selection.stub_of(at) {
            Some(stub) => tokens.count(&stub.stub)?,
            None => tokens.count(&p.part.visible_text())?,
        };
    }
    Ok((must, paid))
}

/// Pins that need not be kept rank below the user's words and the
/// digest's first lines: the digest says what the work did more densely.
const PIN_RANK: u8 = 2;
/// Evidence a later turn mentions ranks with the digest's files and
/// commands, when it has to yield at all.
const RELIED_PIN_RANK: u8 = 1;
/// A command's expanded file ranks with the files only read: the user's own
/// words (the command line) stay first, and the file is on disk.
const EXPANSION_RANK: u8 = 2;

/// The flexible items: carried statements, working-state lines, and pins
/// that need not be kept.
fn flexible(
    plan: &PinPlan,
    relied: ReliedOn,
    statements: &[Statement],
    working_state: &WorkingState,
    tokens: &dyn TokenCount,
) -> Result<Vec<FlexItem>> {
    let mut items = Vec::new();
    for (i, s) in statements.iter().enumerate() {
        if s.status == StatementStatus::Carried {
            items.push(FlexItem {
                what: Flexible::Statement(i),
                at: s.part,
                tokens: tokens.count(&s.text)?,
                group: None,
                rank: if s.expansion { EXPANSION_RANK } else { 0 },
            });
        }
    }
    for (i, e) in working_state.entries.iter().enumerate() {
        let header = e.section.header();
        items.push(FlexItem {
            what: Flexible::Digest(i),
            at: e.at,
            tokens: tokens.count(&e.line)? + 1,
            group: Some((header.to_string(), tokens.count(header)? + 1)),
            rank: e.rank,
        });
    }
    for (i, p) in plan
        .pins
        .iter()
        .enumerate()
        .filter(|(_, p)| !must_keep_pin(p, relied))
    {
        items.push(FlexItem {
            what: Flexible::Pin(i),
            at: p.source.part(),
            tokens: pin_tokens(p, tokens)?,
            group: Some((p.group.clone(), header_tokens(&p.group, tokens)?)),
            rank: if p.relied_on {
                RELIED_PIN_RANK
            } else {
                PIN_RANK
            },
        });
    }
    Ok(items)
}

/// The statements of the head for `mode`: the mission (no kernel), or the
/// brief the kernel formalises (it names the kernel or repeats its
/// objective), then everything else as [`stated::statements`] classifies it.
fn classify_statements(
    inputs: &Inputs<'_>,
    mode: &Mode<'_>,
    t: &Transcript,
    head_end: usize,
) -> Vec<Statement> {
    if !mode.carry_user {
        return Vec::new();
    }
    let retention = &inputs.policy.retention;
    let mission = (!mode.kernel.is_file())
        .then(|| stated::first_user_text(t))
        .flatten();
    let kernel = mode.kernel;
    let objective = kernel.objective.trim();
    stated::statements(t, head_end, mission)
        .into_iter()
        .map(|mut s| {
            let covered = kernel.is_file()
                && (s.text.contains(kernel.id.as_str())
                    || (objective.len() >= 20 && s.text.contains(objective)));
            s.status = match s.status {
                StatementStatus::Carried if covered => StatementStatus::CoveredByKernel,
                StatementStatus::Superseded { .. } if !retention.drop_superseded => {
                    StatementStatus::Carried
                }
                StatementStatus::SelfDeclared { .. } if !retention.drop_self_declared => {
                    StatementStatus::Carried
                }
                other => other,
            };
            s
        })
        .collect()
}

fn attempt(
    inputs: &Inputs<'_>,
    mode: &Mode<'_>,
    t: &Transcript,
    evidence: Evidence,
    selection: Selection,
    target: usize,
    tokens: &dyn TokenCount,
) -> Result<Retained> {
    let relied = mode.relied;
    let prose = evidence.prose.clone();
    let mut plan = pins::plan(
        evidence,
        &selection,
        inputs.kernel.constraints(),
        mode.pins_on,
    );
    let statements = classify_statements(inputs, mode, t, selection.tail_start);
    let mut working_state = digest_of(inputs, mode, selection.head(t));
    let coding = working_state.is_coding();
    if coding {
        fold_for_coding(&mut plan, &mut working_state, relied);
    }
    let (must, paid) = must_keep(
        mode,
        t,
        &selection,
        &plan,
        &statements,
        &working_state,
        tokens,
    )?;
    let items = flexible(&plan, relied, &statements, &working_state, tokens)?;
    let reserve = inputs.policy.compaction.summary_reserve(target, coding);
    let allocation = budget::allocate(target, &must, &items, &paid, reserve)?;
    let digest_kept: HashSet<usize> = (0..working_state.entries.len())
        .filter(|i| allocation.keeps(Flexible::Digest(*i)))
        .collect();
    keep_allocated_pins(&mut plan, &allocation, relied);
    super::fold::unfold_dropped(&mut plan, &working_state, &digest_kept);
    let carried: HashSet<usize> = statements
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            s.status == StatementStatus::Mission || allocation.keeps(Flexible::Statement(*i))
        })
        .map(|(i, _)| i)
        .collect();
    let (earlier, earlier_tokens) = earlier_calls(
        inputs,
        mode,
        selection.head(t),
        &plan,
        !working_state.is_empty(),
        allocation.report.remaining,
        tokens,
    )?;
    let summary_room =
        allocation.report.remaining - earlier_tokens + allocation.report.summary_reserve;
    Ok(Retained {
        selection,
        plan,
        statements,
        carried,
        earlier,
        allocation,
        must,
        summary_room,
        prose,
        working_state,
        digest_kept,
        coding,
    })
}

/// The pins that must stay or that the allocation kept; the rest were left
/// out for room.
fn keep_allocated_pins(plan: &mut PinPlan, allocation: &Allocation, relied: ReliedOn) {
    let kept: Vec<bool> = plan
        .pins
        .iter()
        .enumerate()
        .map(|(i, p)| must_keep_pin(p, relied) || allocation.keeps(Flexible::Pin(i)))
        .collect();
    plan.keep_only(|i| kept[i]);
}

/// A coding session's pins without their code lines, and without those the
/// digest already says (see [`super::fold`]).
fn fold_for_coding(plan: &mut PinPlan, digest: &mut WorkingState, relied: ReliedOn) {
    super::fold::drop_code_and_repeated_lines(plan);
    super::fold::fold_into_digest(
        plan,
        digest,
        |p| must_keep_pin(p, relied),
        |p| {
            if p.relied_on {
                RELIED_PIN_RANK
            } else {
                PIN_RANK
            }
        },
    );
}

/// The working-state digest of the head, where the strategy pins evidence
/// and the policy keeps a digest.
fn digest_of(
    inputs: &Inputs<'_>,
    mode: &Mode<'_>,
    head: &[crate::transcript::Message],
) -> WorkingState {
    if mode.pins_on && inputs.policy.retention.working_state {
        WorkingState::of(head, &inputs.policy.tools.kinds)
    } else {
        WorkingState::default()
    }
}

/// The earlier calls to list, newest first, within the policy's count and
/// the tokens left; and their tokens.
fn earlier_calls(
    inputs: &Inputs<'_>,
    mode: &Mode<'_>,
    head: &[crate::transcript::Message],
    plan: &PinPlan,
    digest_on: bool,
    room: usize,
    tokens: &dyn TokenCount,
) -> Result<(EarlierCalls, usize)> {
    if !mode.pins_on {
        return Ok((EarlierCalls::default(), 0));
    }
    let mut accounted: HashSet<&str> = plan
        .pins
        .iter()
        .chain(&plan.superseded)
        .chain(&plan.in_tail)
        .map(|p| p.call_id.as_str())
        .collect();
    if digest_on {
        accounted.extend(covered_by_digest(head, inputs.policy));
    }
    let mut earlier = pins::earlier_calls(
        head,
        inputs.policy,
        &accounted,
        inputs.policy.may_persist.budget,
    );
    let header = tokens.count(MAY_PERSIST_HEADER)? + 1;
    let mut used = 0;
    let mut fits = 0;
    for line in earlier.lines() {
        let n = tokens.count(&line)? + 1 + if fits == 0 { header } else { 0 };
        if used + n > room {
            break;
        }
        used += n;
        fits += 1;
    }
    earlier.listed.truncate(fits);
    Ok((earlier, used))
}

/// Calls the working-state digest already says what became of: writes,
/// commands, plans, questions, and reads of a named file.
fn covered_by_digest<'t>(
    head: &'t [crate::transcript::Message],
    policy: &crate::policy::RetentionPolicy,
) -> Vec<&'t str> {
    use crate::working_state::ToolKind;
    head.iter()
        .flat_map(|m| m.tool_calls())
        .filter(|(_, name, args)| match policy.tools.kind_of(name, args) {
            ToolKind::Write | ToolKind::Exec | ToolKind::Plan | ToolKind::Ask => true,
            ToolKind::Read => crate::working_state::files::file_read(args).is_some(),
            _ => false,
        })
        .map(|(id, _, _)| id)
        .collect()
}

/// Parts of the head the governed summary leaves out: carried, superseded
/// and off-mission user texts, and a command's expanded file (the harness's
/// text, not the work).
pub fn excluded_from_summary(r: &Retained) -> HashSet<crate::transcript::PartRef> {
    r.statements
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            r.carried.contains(i)
                || s.expansion
                || matches!(
                    s.status,
                    StatementStatus::Superseded { .. } | StatementStatus::SelfDeclared { .. }
                )
        })
        .map(|(_, s)| s.part)
        .collect()
}

/// The evidence that was not pinned, for the summarizer: prose left out of
/// records, and records left out of bulk listings or for lack of room.
pub fn unpinned_evidence(r: &Retained) -> Vec<(crate::transcript::PartRef, String)> {
    let mut out = r.prose.clone();
    for p in r.plan.bulk.iter().chain(&r.plan.over_budget) {
        out.push((
            p.source.part(),
            format!("{}: {}", p.tool, p.line.trim_start_matches("- ")),
        ));
    }
    out.sort_by_key(|(at, _)| *at);
    out
}

/// The text the request carries verbatim: instructions, pins, carried
/// statements and the tail.
pub fn retained_text(r: &Retained, t: &Transcript, kernel: Option<&MissionKernel>) -> String {
    let mut out = rebuild::instructions(&t.instructions, kernel).join("\n");
    out.push('\n');
    out.push_str(&r.working_state_text());
    for p in &r.plan.pins {
        out.push('\n');
        out.push_str(&p.line);
    }
    for s in r.carried_texts() {
        out.push('\n');
        out.push_str(&s);
    }
    for (_, p) in t.parts().filter(|(at, _)| r.selection.kept_whole(*at)) {
        if let Part::Text(s) = &p.part {
            out.push('\n');
            out.push_str(s);
        }
    }
    out
}
