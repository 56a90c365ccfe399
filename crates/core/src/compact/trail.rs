//! The audit trail, built from the stages' typed outputs: one record per
//! input item, pin, redaction, rejected directive and the summary, saying
//! what was kept, pinned, summarized, stubbed, redacted or dropped, by
//! which rule, and its tokens before and after.

use std::collections::HashSet;

use crate::audit::{AuditRecord, Decision};
use crate::error::Result;
use crate::governance::memory::RejectedDirective;
use crate::kernel::MissionKernel;
use crate::policy::RetentionPolicy;
use crate::redact::Redaction;
use crate::report::Counts;
use crate::tokens::TokenCount;
use crate::transcript::{Part, PartRec, PartRef, Transcript};

use super::measure::fixed_segments;
use super::pins::{EarlierCalls, PinPlan};
use super::select::{Selection, Stub};
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
    pub selection: &'a Selection,
    pub pins: &'a PinPlan,
    pub earlier: &'a EarlierCalls,
    /// Personal data withheld from the input.
    pub redactions: &'a [Redaction],
    pub summary: &'a WrittenSummary,
    pub summary_tokens: usize,
}

impl Stages<'_> {
    /// The report's counts of what each stage did.
    pub fn counts(&self, messages_after: usize) -> Counts {
        Counts {
            messages_before: self.input.messages.len(),
            messages_after,
            pins: self.pins.pins.len(),
            pins_carried: self.pins.carried_live,
            pins_superseded: self.pins.superseded.len(),
            pins_in_tail: self.pins.in_tail.len(),
            stubs: self.selection.stubs.len(),
            redactions: self.redactions.len() + self.summary.redactions.len(),
            may_persist_listed: self.earlier.listed.len(),
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
    let pinned: HashSet<&str> = s.pins.pins.iter().map(|p| p.call_id.as_str()).collect();
    for (at, p) in s.input.parts() {
        let n = tokens.count(&p.part.visible_text())?;
        audit.push(match s.selection.stub_of(at) {
            Some(stub) => stub_record(at, p, stub, s.policy, n, tokens)?,
            None if s.selection.in_tail(at) => AuditRecord::new(
                at.to_string(),
                p.part.kind(),
                Decision::Kept,
                "tail.latest_round",
            )
            .tokens(n, n),
            None => head_record(s, &pinned, at, p, n),
        });
    }
    if s.strategy.pins_evidence() {
        audit.extend(pin_records(s.pins, tokens)?);
    }
    for r in s.redactions.iter().chain(&s.summary.redactions) {
        audit.push(
            AuditRecord::new(&r.item, "redaction", Decision::Redacted, &r.rule)
                .detail(&r.placeholder),
        );
    }
    for d in s.pins.rejected.iter().chain(&s.summary.rejected) {
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

/// A head part: summarized, or (when evidence is pinned) a tool result
/// pinned or dropped, by the rule that decided it.
fn head_record(
    s: &Stages<'_>,
    pinned: &HashSet<&str>,
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
    if pinned.contains(id.as_str()) {
        return AuditRecord::new(
            item,
            "tool_result",
            Decision::Pinned,
            format!("evidence.pins.{name}"),
        )
        .tokens(n, 0)
        .tool(name, id)
        .detail("record fields pinned verbatim; see the pin records");
    }
    let rule = match s.policy.evidence.pins.get(name) {
        Some(fields) if fields.is_empty() => "evidence.bulk_view",
        Some(_) => "evidence.superseded_or_no_records",
        None => "evidence.unpinned_tool",
    };
    let detail = if s.earlier.is_listed(id) {
        "content dropped; the call is listed under earlier tool calls"
    } else if s.earlier.failed.contains(id) {
        "content dropped; the call returned an error"
    } else if s.policy.pin_fields(name).is_some() {
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
        let rule = if p.source.is_carried() {
            "evidence.carried_forward".to_string()
        } else {
            format!("evidence.pins.{}", p.tool)
        };
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
    for p in &plan.superseded {
        out.push(
            AuditRecord::new(
                format!("pin:{}", p.record_id),
                "pinned_field",
                Decision::Dropped,
                "evidence.latest_wins",
            )
            .tool(&p.tool, &p.call_id)
            .record(&p.record_id)
            .detail(format!(
                "from {}; a later return of the same record is kept",
                p.source
            )),
        );
    }
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
