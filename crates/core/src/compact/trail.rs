//! The audit trail, built from the stages' typed outputs: one record per
//! input item, pin, redaction, rejected directive and the summary, saying
//! what was kept, pinned, summarized, stubbed, redacted or dropped, by
//! which rule, and its tokens before and after.

use std::collections::{HashMap, HashSet};

use crate::audit::{AuditRecord, Decision};
use crate::error::Result;
use crate::evidence::stated::StatementStatus;
use crate::evidence::{Pin, PinKind};
use crate::governance::memory::RejectedDirective;
use crate::kernel::MissionKernel;
use crate::policy::RetentionPolicy;
use crate::redact::{LetThrough, Redaction};
use crate::report::Counts;
use crate::tokens::TokenCount;
use crate::transcript::{Part, PartRec, PartRef, Transcript};

use super::measure::fixed_segments;
use super::pins::PinPlan;
use super::retain::Retained;
use super::select::Stub;
use super::summary::WrittenSummary;
use super::Strategy;

/// What the trail is built from: the inputs and each stage's output.
pub struct Stages<'a> {
    /// The redacted input.
    pub input: &'a Transcript,
    pub strategy: Strategy,
    pub kernel: &'a MissionKernel,
    pub kernel_tokens: usize,
    pub policy: &'a RetentionPolicy,
    /// What was kept: the selection, the pin plan, the statements, the
    /// earlier calls.
    pub retained: &'a Retained,
    /// Personal data withheld from the input.
    pub redactions: &'a [Redaction],
    /// The policy's opt-outs that let personal data through.
    pub let_through: &'a [LetThrough],
    pub summary: &'a WrittenSummary,
    pub summary_tokens: usize,
}

impl Stages<'_> {
    /// The report's counts of what each stage did.
    pub fn counts(&self, messages_after: usize) -> Counts {
        let r = self.retained;
        let plan = &r.plan;
        let status =
            |f: fn(&StatementStatus) -> bool| r.statements.iter().filter(|s| f(&s.status)).count();
        Counts {
            messages_before: self.input.messages.len(),
            messages_after,
            pins: plan.pins.len(),
            pins_carried: plan.carried_live,
            pins_superseded: plan.superseded.len(),
            pins_in_tail: plan.in_tail.len(),
            stubs: r.selection.stubs.len(),
            redactions: self.redactions.len() + self.summary.redactions.len(),
            may_persist_listed: r.earlier.listed.len(),
            pins_inferred: plan
                .pins
                .iter()
                .filter(|p| p.kind != PinKind::Policy)
                .count(),
            pins_bulk: plan.bulk.len(),
            pins_over_budget: plan.over_budget.len(),
            pins_relied_on_over_budget: plan.over_budget.iter().filter(|p| p.relied_on).count(),
            statements_carried: r.carried.len(),
            statements_superseded: status(|s| matches!(s, StatementStatus::Superseded { .. })),
            statements_self_declared: status(|s| matches!(s, StatementStatus::SelfDeclared { .. })),
            statements_over_budget: (0..r.statements.len())
                .filter(|&i| r.over_budget(i))
                .count(),
            statements_kernel: status(|s| *s == StatementStatus::CoveredByKernel),
        }
    }
}

pub fn trail(s: &Stages<'_>, tokens: &dyn TokenCount) -> Result<Vec<AuditRecord>> {
    let mut audit = Vec::new();
    for seg in fixed_segments(s.input) {
        let n = tokens.count(&seg.text)?;
        audit.push(
            AuditRecord::new(seg.item, seg.kind, Decision::Kept, "fixed_overhead").tokens(n, n),
        );
    }
    audit.push(kernel_record(s));
    let selection = &s.retained.selection;
    let calls = CallFates::of(&s.retained.plan);
    let statements: HashMap<PartRef, usize> = s
        .retained
        .statements
        .iter()
        .enumerate()
        .map(|(i, st)| (st.part, i))
        .collect();
    for (at, p) in s.input.parts() {
        let n = tokens.count(&p.part.visible_text())?;
        audit.push(match selection.stub_of(at) {
            Some(stub) => stub_record(at, p, stub, s.policy, n, tokens)?,
            None if selection.in_tail(at) => AuditRecord::new(
                at.to_string(),
                p.part.kind(),
                Decision::Kept,
                "tail.latest_turns",
            )
            .tokens(n, n),
            None => match statements.get(&at) {
                Some(&i) => {
                    let kept = tokens.count(&s.retained.statements[i].text)?;
                    statement_record(s.retained, i, n, kept)
                }
                None => head_record(s, &calls, at, p, n),
            },
        });
    }
    if s.strategy.pins_evidence() {
        audit.extend(pin_records(&s.retained.plan, tokens)?);
    }
    for r in s.redactions.iter().chain(&s.summary.redactions) {
        audit.push(
            AuditRecord::new(&r.item, "redaction", Decision::Redacted, &r.rule)
                .detail(&r.placeholder),
        );
    }
    for l in s.let_through {
        audit.push(
            AuditRecord::new("personal_data", "redaction", Decision::Kept, &l.rule).detail(
                format!(
                    "{} value(s) let through by the policy, not withheld",
                    l.values
                ),
            ),
        );
    }
    for d in s.retained.plan.rejected.iter().chain(&s.summary.rejected) {
        audit.push(directive_record(d));
    }
    audit.push(summary_record(s.summary, s.summary_tokens));
    Ok(audit)
}

fn kernel_record(s: &Stages<'_>) -> AuditRecord {
    if s.strategy.kernel_in_instructions() {
        let k = s.kernel;
        AuditRecord::new("kernel", "kernel", Decision::Pinned, "kernel.instructions")
            .tokens(0, s.kernel_tokens)
            .detail(format!("{} v{} sha256 {}", k.id, k.version, k.sha256))
    } else {
        AuditRecord::new(
            "kernel",
            "kernel",
            Decision::Dropped,
            format!("strategy.{}", s.strategy.name()),
        )
        .detail("the kernel is not rendered; the mission stays where the input had it")
    }
}

fn stub_record(
    at: PartRef,
    p: &PartRec,
    stub: &Stub,
    policy: &RetentionPolicy,
    n: usize,
    tokens: &dyn TokenCount,
) -> Result<AuditRecord> {
    let mut r = AuditRecord::new(
        at.to_string(),
        p.part.kind(),
        Decision::Stubbed,
        "tail.stub_threshold",
    )
    .tokens(n, tokens.count(&stub.stub)?)
    .tool(&stub.tool, &stub.call_id)
    .detail(format!(
        "{} chars > {}",
        stub.original.chars().count(),
        policy.compaction.stub_threshold_chars
    ));
    r.original = Some(stub.original.clone());
    Ok(r)
}

/// What became of each call's evidence, for the audit of its result.
struct CallFates<'a> {
    pinned: HashMap<&'a str, &'a Pin>,
    superseded: HashSet<&'a str>,
    bulk: HashSet<&'a str>,
    over_budget: HashSet<&'a str>,
    in_digest: HashSet<&'a str>,
    code_only: HashSet<&'a str>,
}

impl<'a> CallFates<'a> {
    fn of(plan: &'a PinPlan) -> Self {
        let ids = |pins: &'a [Pin]| pins.iter().map(|p| p.call_id.as_str()).collect();
        CallFates {
            pinned: plan.pins.iter().map(|p| (p.call_id.as_str(), p)).collect(),
            superseded: ids(&plan.superseded),
            bulk: ids(&plan.bulk),
            over_budget: ids(&plan.over_budget),
            in_digest: ids(&plan.in_digest),
            code_only: ids(&plan.code_only),
        }
    }
}

/// A user text of the head: carried verbatim (an agent's own summary
/// without its code blocks: `kept` tokens of `n`), or why not.
fn statement_record(r: &Retained, i: usize, n: usize, kept: usize) -> AuditRecord {
    let s = &r.statements[i];
    let item = s.part.to_string();
    let (decision, rule, detail, after) = match &s.status {
        StatementStatus::Carried if r.carried.contains(&i) && kept != n => (
            Decision::Kept,
            "user.statement",
            "carried after the continuity block without its fenced code (an agent's own summary; the files hold the code)".to_string(),
            kept,
        ),
        StatementStatus::Carried if s.expansion && !r.carried.contains(&i) => (
            Decision::Dropped,
            "budget.newest_first",
            "a command's expanded file (the harness's text; the command line is kept): it yields to the digest, and there was no room left for it".to_string(),
            0,
        ),
        StatementStatus::Mission => (
            Decision::Kept,
            "mission.session",
            "no kernel: the first user message is the mission, carried verbatim".to_string(),
            n,
        ),
        StatementStatus::Carried if r.carried.contains(&i) => (
            Decision::Kept,
            "user.statement",
            "carried verbatim after the continuity block".to_string(),
            n,
        ),
        StatementStatus::Carried => (
            Decision::Summarized,
            "budget.newest_first",
            "no room left for it; newer statements were kept first".to_string(),
            0,
        ),
        StatementStatus::Superseded { by } => (
            Decision::Dropped,
            "user.superseded",
            format!("every key it sets is set again in {by}"),
            0,
        ),
        StatementStatus::SelfDeclared { cue } => (
            Decision::Dropped,
            "relevance.self_declared",
            format!("its opening declares it off the mission (`{cue}`)"),
            0,
        ),
        StatementStatus::CoveredByKernel => (
            Decision::Summarized,
            "mission.kernel",
            "the mission brief the kernel formalises".to_string(),
            0,
        ),
    };
    AuditRecord::new(item, "text", decision, rule)
        .tokens(n, after)
        .detail(detail)
}

/// A head part: summarized, or (when evidence is pinned) a tool result
/// pinned or dropped, by the rule that decided it.
fn head_record(
    s: &Stages<'_>,
    calls: &CallFates<'_>,
    at: PartRef,
    p: &PartRec,
    n: usize,
) -> AuditRecord {
    let item = at.to_string();
    let strategy = s.strategy.name();
    if !s.strategy.pins_evidence() {
        return AuditRecord::new(
            item,
            p.part.kind(),
            Decision::Summarized,
            format!("strategy.{strategy}.head"),
        )
        .tokens(n, 0);
    }
    let Part::ToolResult { id, name, .. } = &p.part else {
        return AuditRecord::new(
            item,
            p.part.kind(),
            Decision::Summarized,
            format!("strategy.{strategy}.narrative"),
        )
        .tokens(n, 0);
    };
    if let Some(pin) = calls.pinned.get(id.as_str()) {
        return AuditRecord::new(item, "tool_result", Decision::Pinned, pin.rule())
            .tokens(n, 0)
            .tool(name, id)
            .detail("record fields pinned verbatim; see the pin records");
    }
    let earlier = &s.retained.earlier;
    let rule = match s.policy.evidence.pins.get(name) {
        Some(fields) if fields.is_empty() => "evidence.bulk_view",
        _ if calls.bulk.contains(id.as_str()) => "evidence.bulk_listing",
        _ if calls.over_budget.contains(id.as_str()) => "budget.newest_first",
        _ if calls.in_digest.contains(id.as_str()) => "working_state.digest",
        _ if calls.code_only.contains(id.as_str()) => "working_state.code",
        Some(_) => "evidence.superseded_or_no_records",
        None if calls.superseded.contains(id.as_str()) => "evidence.latest_wins",
        None if s.policy.retention.infer_evidence => "evidence.no_values",
        None => "evidence.unpinned_tool",
    };
    let detail = if earlier.is_listed(id) {
        "content dropped; the call is listed under earlier tool calls"
    } else if earlier.failed.contains(id) {
        "content dropped; the call returned an error"
    } else if s.policy.pin_fields(name).is_some() || calls.superseded.contains(id.as_str()) {
        "content dropped; no record of it is pinned"
    } else {
        "content dropped; the call is beyond the may_persist budget"
    };
    AuditRecord::new(item, "tool_result", Decision::Dropped, rule)
        .tokens(n, 0)
        .tool(name, id)
        .detail(detail)
}

/// Each pin, each superseded record and each record the tail holds whole.
fn pin_records(plan: &PinPlan, tokens: &dyn TokenCount) -> Result<Vec<AuditRecord>> {
    let mut out = Vec::new();
    for p in &plan.pins {
        let rule = p.rule();
        out.push(
            AuditRecord::new(
                format!("pin:{}", p.record_id),
                "pinned_field",
                Decision::Pinned,
                rule,
            )
            .tokens(0, tokens.count(&p.line)?)
            .tool(&p.tool, &p.call_id)
            .record(&p.record_id)
            .detail(format!("from {}", p.source)),
        );
    }
    out.extend(unpinned_records(plan));
    for p in &plan.in_tail {
        out.push(
            AuditRecord::new(
                format!("pin:{}", p.record_id),
                "pinned_field",
                Decision::Kept,
                "evidence.dedupe_tail",
            )
            .tool(&p.tool, &p.call_id)
            .record(&p.record_id)
            .detail("the whole result stays in the tail; not pinned twice"),
        );
    }
    Ok(out)
}

/// The records that are not pinned, and why: superseded, bulk, over the
/// budget, said by the digest, or only code.
fn unpinned_records(plan: &PinPlan) -> Vec<AuditRecord> {
    let mut out = Vec::new();
    for (pins, decision, rule, detail) in [
        (
            &plan.superseded,
            Decision::Dropped,
            "evidence.latest_wins",
            "a later return of the same record is kept",
        ),
        (
            &plan.bulk,
            Decision::Dropped,
            "evidence.bulk_listing",
            "a record of a bulk listing that no later turn mentions",
        ),
        (
            &plan.over_budget,
            Decision::Dropped,
            "budget.newest_first",
            "no later turn mentions it and there was no room left; newer evidence was kept first",
        ),
        (
            &plan.in_digest,
            Decision::Kept,
            "working_state.digest",
            "the working-state digest's line for the same call says it, word for word",
        ),
        (
            &plan.code_only,
            Decision::Dropped,
            "working_state.code",
            "only lines of code; the files are on disk",
        ),
    ] {
        for p in pins {
            let detail = if p.relied_on && rule == "budget.newest_first" {
                "a later turn mentions it, but keeping all such evidence was over the target; newer evidence was kept first"
            } else {
                detail
            };
            out.push(
                AuditRecord::new(
                    format!("pin:{}", p.record_id),
                    "pinned_field",
                    decision,
                    rule,
                )
                .tool(&p.tool, &p.call_id)
                .record(&p.record_id)
                .detail(format!("from {}; {detail}", p.source)),
            );
        }
    }
    out
}

fn directive_record(d: &RejectedDirective) -> AuditRecord {
    AuditRecord::new(
        &d.found_in,
        "directive",
        Decision::Dropped,
        "governance.directive_conflicts_with_kernel",
    )
    .detail(format!(
        "{} ({}): {}",
        d.conflict.rule, d.conflict.reason, d.sentence
    ))
}

fn summary_record(summary: &WrittenSummary, summary_tokens: usize) -> AuditRecord {
    AuditRecord::new(
        "summary",
        "summary",
        Decision::Kept,
        format!("summarizer.{}", summary.summarizer),
    )
    .tokens(0, summary_tokens)
    .detail(if summary.capped {
        format!("{} words, capped at {}", summary.words, summary.word_cap)
    } else {
        format!("{} words", summary.words)
    })
}
