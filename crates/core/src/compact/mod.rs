//! The compaction pipeline, one stage per module, each a function over
//! typed data: [`retain`] runs [`select`] (the head and the token-bounded
//! tail), [`pins`] (the pin plan) and [`budget`] (what fits the target)
//! together → [`narrative`] (the summarizer's input) → [`summary`] →
//! [`rebuild`] → [`validate`] → [`measure`] and [`trail`] (the audit). No
//! I/O here: the clock, the caps and the budget come in with the inputs.

pub mod budget;
mod fold;
pub mod measure;
pub mod narrative;
pub mod pins;
pub mod rebuild;
pub mod retain;
pub mod select;
pub mod summary;
pub mod trail;
pub mod validate;

use chrono::{DateTime, Utc};

use crate::audit::AuditRecord;
use crate::error::{Error, Result};
use crate::governance::pin::{seal_for_release, PinContext, PolicyPin};
use crate::governance::GovernanceError;
use crate::kernel::MissionKernel;
use crate::policy::RetentionPolicy;
use crate::redact::carry::WithheldCarry;
use crate::redact::{LetThrough, Redaction, Redactor};
use crate::report::{self, Counts, Identity, Report, SummarizerReport};
use crate::summarize::Summarizer;
use crate::tokens::{CachedCount, TokenCount};
use crate::transcript::Transcript;

pub use measure::count_transcript;

/// How a compacted request is rebuilt. The two named designs of the seed are
/// `governed` and `summary-only`; the other two separate its factors (where
/// the mission lives, whether evidence is pinned) for experiments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// Kernel in the instructions, evidence pinned, summary advisory.
    Governed,
    /// The summary replaces everything older than the tail.
    SummaryOnly,
    /// Kernel in the instructions; no pins (the summary carries evidence).
    KernelOnly,
    /// Evidence pinned; the mission stays in the first message and is
    /// summarized.
    PinsOnly,
}

impl Strategy {
    pub const ALL: [Strategy; 4] = [
        Strategy::SummaryOnly,
        Strategy::KernelOnly,
        Strategy::PinsOnly,
        Strategy::Governed,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Governed => "governed",
            Strategy::SummaryOnly => "summary-only",
            Strategy::KernelOnly => "kernel-only",
            Strategy::PinsOnly => "pins-only",
        }
    }

    /// The mission kernel is rendered into the instructions.
    pub fn kernel_in_instructions(self) -> bool {
        matches!(self, Strategy::Governed | Strategy::KernelOnly)
    }

    /// Tool evidence is pinned verbatim.
    pub fn pins_evidence(self) -> bool {
        matches!(self, Strategy::Governed | Strategy::PinsOnly)
    }
}

impl std::str::FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Strategy::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Strategy::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown strategy `{s}`; expected one of {}",
                    names.join(", ")
                )
            })
    }
}

/// Everything one compaction produces, ready to be written.
#[derive(Debug, Clone)]
pub struct Compaction {
    pub request: Transcript,
    pub audit: Vec<AuditRecord>,
    pub report: Report,
    pub summary: String,
    /// The redactor's state, to check the written files for leaks.
    pub redactions: Vec<Redaction>,
    /// The verified policy pin of this rebuild (written as policy_pin.json).
    pub pin: PolicyPin,
    /// The input as the pipeline saw it, redacted: what a side-by-side
    /// compares against, without redacting it again.
    pub redacted_input: Transcript,
}

pub struct Inputs<'a> {
    pub transcript: &'a Transcript,
    /// Name of the input for the report (a path, or `<stdin>`).
    pub input_name: &'a str,
    pub kernel: &'a MissionKernel,
    pub policy: &'a RetentionPolicy,
    pub strategy: Strategy,
}

/// A first rebuild at `now`: the policy pin starts a run (its id derived
/// from the kernel and the input name).
pub fn compact(
    inputs: &Inputs<'_>,
    now: DateTime<Utc>,
    summarizer: &mut dyn Summarizer,
    tokens: &dyn TokenCount,
    redactor: &mut Redactor,
) -> Result<Compaction> {
    let ctx = PinContext::first(inputs.kernel, inputs.input_name, now);
    compact_pinned(inputs, &ctx, summarizer, tokens, redactor)
}

/// [`compact`] for a given run: the rebuild's policy pin carries `ctx`'s run
/// id and sequence and is verified at `ctx.now` before anything is returned.
/// The request fits the policy's target, or the run fails with
/// [`crate::error::Error::OverBudget`] naming what must be kept.
pub fn compact_pinned(
    inputs: &Inputs<'_>,
    ctx: &PinContext,
    summarizer: &mut dyn Summarizer,
    tokens: &dyn TokenCount,
    redactor: &mut Redactor,
) -> Result<Compaction> {
    let tokens = &CachedCount::new(tokens);
    // A value withheld earlier in the run stays withheld.
    if let Some(previous) = &ctx.previous {
        redactor.resume(&previous.withheld);
    }
    // Redact first: everything downstream sees placeholders only.
    let (t, redactions) = redactor.redact_transcript(inputs.transcript);
    let target = target_of(inputs.policy, &t, tokens)?;
    let mut built = build(inputs, &t, target, summarizer, tokens, redactor)?;
    let after = built.measured.tokens.after;
    if after > target {
        // The estimate fell short (a tokenizer that merges across line
        // breaks): once more with the overshoot taken off the target.
        let narrower = target.saturating_sub(after - target);
        built = build(inputs, &t, narrower, summarizer, tokens, redactor)?;
        let after = built.measured.tokens.after;
        if after > target {
            return Err(Error::OverBudget {
                target,
                must_keep: after,
                parts: built.retained.must.describe(),
            });
        }
    }
    let redacted = Redacted {
        redactions,
        withheld: redactor.carry(),
        let_through: redactor.let_through(),
    };
    finish(inputs, ctx, t, built, redacted, tokens, target)
}

/// What the redactor did in one compaction.
struct Redacted {
    redactions: Vec<Redaction>,
    /// The run's withheld values, for the pin.
    withheld: WithheldCarry,
    /// The policy's opt-outs and what each let through, for the audit.
    let_through: Vec<LetThrough>,
}

/// The target: the policy's (a fraction of its trigger by default), grown
/// over long instructions when it is only the built-in default (see
/// `CompactionRules::default_target`).
pub fn target_of(
    policy: &RetentionPolicy,
    t: &Transcript,
    tokens: &dyn TokenCount,
) -> Result<usize> {
    let rules = &policy.compaction;
    let target = rules.target();
    if !rules.default_target {
        return Ok(target);
    }
    let fixed = measure::fixed_tokens(t, tokens)?;
    Ok(if fixed > target / 2 {
        fixed + target / 2
    } else {
        target
    })
}

/// One rebuild at `target` tokens, validated and measured.
struct Built {
    retained: retain::Retained,
    input: narrative::SummarizerInput,
    summary: summary::WrittenSummary,
    rebuilt: rebuild::Rebuilt,
    precedence: Vec<crate::audit::PrecedenceItem>,
    measured: measure::Measured,
}

fn build(
    inputs: &Inputs<'_>,
    t: &Transcript,
    target: usize,
    summarizer: &mut dyn Summarizer,
    tokens: &dyn TokenCount,
    redactor: &mut Redactor,
) -> Result<Built> {
    let Inputs {
        kernel,
        policy,
        strategy,
        ..
    } = *inputs;
    let kernel_on = strategy.kernel_in_instructions() && kernel.is_file();
    let pins_on = strategy.pins_evidence();
    let rendered = kernel_on.then_some(kernel);
    let r = retain::retain(inputs, t, target, tokens)?;
    let unpinned = retain::unpinned_evidence(&r);
    let reports = if r.coding {
        narrative::delegate_reports(r.selection.head(t), &policy.tools.kinds)
    } else {
        Vec::new()
    };
    let narrower = narrative::Narrower {
        excluded: retain::excluded_from_summary(&r),
        unpinned: &unpinned,
        coding: r.coding,
        outline: &r.working_state.outline,
        reports: &reports,
    };
    let input = narrative::summarizer_input(r.selection.head(t), &r.plan.pins, pins_on, &narrower);
    let retained = retain::retained_text(&r, t, rendered);
    let limits = summary::Limits {
        word_cap: policy.compaction.word_cap(r.coding),
        max_tokens: r.summary_room,
        retained: &retained,
    };
    let screen = kernel_on.then(|| kernel.constraints());
    let summary = summary::write(summarizer, &input, &limits, redactor, screen, tokens)?;
    let r = match give_back(inputs, t, target, &r, &summary.text, tokens)? {
        Some(again) => again,
        None => r,
    };
    let statements = r.carried_texts();
    let working_state = r.working_state_text();
    let rebuilt = rebuild::rebuild(
        t,
        &r.selection,
        &rebuild::HeadParts {
            kernel: rendered,
            pins: &r.plan.pins,
            working_state: &working_state,
            earlier_calls: &r.earlier.lines(),
            summary: &summary.text,
            statements: &statements,
            block: kernel_on || pins_on,
        },
    );
    let must_persist = validate::must_persist(rendered, &r.plan.pins, &r.carried_must_persist());
    let precedence = validate::validate(&rebuilt.request, &must_persist)?;
    let measured = measure::measure(t, &rebuilt, rendered, &policy.compaction, tokens)?;
    Ok(Built {
        retained: r,
        input,
        summary,
        rebuilt,
        precedence,
        measured,
    })
}

/// The summary's reserve is held before the summary is written: what the
/// summary left unused goes back to the lines and evidence the budget
/// dropped, by a second retention with the reserve cut to what it took.
/// `None` when nothing was dropped or the reserve was used.
fn give_back(
    inputs: &Inputs<'_>,
    t: &Transcript,
    target: usize,
    r: &retain::Retained,
    summary: &str,
    tokens: &dyn TokenCount,
) -> Result<Option<retain::Retained>> {
    let report = &r.allocation.report;
    if report.summary_reserve == 0 || report.flexible_dropped == 0 {
        return Ok(None);
    }
    let used = if summary.is_empty() {
        0
    } else {
        let section = tokens.count(&format!("{}\n{summary}", crate::markers::SUMMARY_HEADER))?;
        // A margin: the section counted alone merges differently from the
        // same text inside the block.
        section + 8 + section / 20
    };
    if used >= report.summary_reserve {
        return Ok(None);
    }
    let mut policy = inputs.policy.clone();
    let share = (used as f64 + 0.5) / target.max(1) as f64;
    policy.compaction.summary_share = share;
    policy.compaction.coding_summary_share = share;
    let again = Inputs {
        policy: &policy,
        ..*inputs
    };
    let retained = retain::retain(&again, t, target, tokens)?;
    Ok((retained.summary_room >= used).then_some(retained))
}

/// Audit, report and seal one rebuild.
fn finish(
    inputs: &Inputs<'_>,
    ctx: &PinContext,
    t: Transcript,
    built: Built,
    redacted: Redacted,
    tokens: &dyn TokenCount,
    target: usize,
) -> Result<Compaction> {
    let input_transcript = t;
    let t = &input_transcript;
    let Built {
        retained: r,
        input,
        summary,
        rebuilt,
        precedence,
        measured,
    } = built;
    let Redacted {
        redactions,
        withheld,
        let_through,
    } = redacted;
    let stages = trail::Stages {
        input: t,
        strategy: inputs.strategy,
        kernel: inputs.kernel,
        kernel_tokens: measured.tokens.kernel,
        policy: inputs.policy,
        retained: &r,
        redactions: &redactions,
        let_through: &let_through,
        summary: &summary,
        summary_tokens: measured.tokens.summary,
    };
    let audit = trail::trail(&stages, tokens)?;
    let counts = stages.counts(rebuilt.request.messages.len());
    let summarizer_report = summarizer_report(&summary, &input, tokens)?;
    let mut report = report_of(
        inputs,
        t,
        tokens.name(),
        measured,
        summarizer_report,
        counts,
    );
    report.precedence = precedence;
    report.budget = r.allocation.report.clone();
    report.headroom = measure::headroom(
        inputs.policy.compaction.trigger_tokens,
        target,
        report.tokens.after,
        measure::growth_per_turn(t, tokens)?,
    );
    report.mission = mission_of(inputs.kernel, t, &r);
    // Release gate: pin the policy and verify it before anything leaves.
    let (pin, mut governance) =
        seal_for_release(inputs.kernel, ctx, withheld).map_err(GovernanceError::from)?;
    governance.directives_rejected = r.plan.rejected.len() + summary.rejected.len();
    report.governance = Some(governance);
    let mut all_redactions = redactions;
    all_redactions.extend(summary.redactions);
    Ok(Compaction {
        request: rebuilt.request,
        audit,
        report,
        summary: summary.text,
        redactions: all_redactions,
        pin,
        redacted_input: input_transcript,
    })
}

/// Where the mission came from: the kernel, or the session itself (its
/// instructions and the first user message, carried verbatim).
fn mission_of(
    kernel: &MissionKernel,
    t: &Transcript,
    r: &retain::Retained,
) -> report::MissionReport {
    let first_user_message = r
        .statements
        .iter()
        .enumerate()
        .find(|(i, s)| {
            s.status == crate::evidence::stated::StatementStatus::Mission && r.carried.contains(i)
        })
        .map(|(_, s)| s.part.to_string());
    report::MissionReport {
        source: if kernel.is_file() {
            "kernel"
        } else {
            "session"
        }
        .to_string(),
        instructions: t.instructions.len(),
        first_user_message,
    }
}

/// The summarizer's part of the report: its input sizes beside the full
/// history's, and what it wrote.
fn summarizer_report(
    summary: &summary::WrittenSummary,
    input: &narrative::SummarizerInput,
    tokens: &dyn TokenCount,
) -> Result<SummarizerReport> {
    let joined = |items: &[crate::summarize::NarrativeItem]| {
        items
            .iter()
            .map(|i| i.text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let (items, full) = (joined(&input.items), joined(&input.full));
    let counts = tokens.count_each(&[&items, &full])?;
    Ok(SummarizerReport {
        name: summary.summarizer.clone(),
        input_tokens: counts[0],
        full_input_tokens: counts[1],
        words: summary.words,
        capped: summary.capped,
        latency_ms: summary.latency_ms,
        model: summary.metrics.clone(),
    })
}

/// The report of one compaction, before its precedence check and pin.
fn report_of(
    inputs: &Inputs<'_>,
    t: &Transcript,
    tokenizer: &str,
    measured: measure::Measured,
    summarizer: SummarizerReport,
    counts: Counts,
) -> Report {
    let identity = |id: &str, version: &str, sha256: &str| Identity {
        id: id.to_string(),
        version: version.to_string(),
        sha256: sha256.to_string(),
    };
    let (k, p) = (inputs.kernel, inputs.policy);
    Report {
        input: inputs.input_name.to_string(),
        format: t.format.name().to_string(),
        strategy: inputs.strategy.name().to_string(),
        tokenizer: tokenizer.to_string(),
        kernel: identity(&k.id, &k.version, &k.sha256),
        policy: identity(&p.id, &p.version, &p.sha256),
        reduction_pct: report::reduction_pct(measured.tokens.before, measured.tokens.after),
        tokens: measured.tokens,
        floor: measured.floor,
        trigger: measured.trigger,
        summarizer,
        counts,
        precedence: Vec::new(),
        budget: Default::default(),
        headroom: Default::default(),
        recorded: None,
        mission: Default::default(),
        governance: None,
    }
}
