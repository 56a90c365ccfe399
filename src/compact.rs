//! The compaction pipeline: redact → classify → pin → summarize → rebuild →
//! validate → audit and measure. Pure over typed data: no I/O here.

use std::collections::HashSet;
use std::time::Instant;

use crate::audit::{precedence_check, AuditRecord, Decision};
use crate::classify::{self, Stub};
use crate::error::{Error, Result};
use crate::evidence::{self, Pin};
use crate::formats;
use crate::kernel::MissionKernel;
use crate::policy::RetentionPolicy;
use crate::rebuild;
use crate::redact::{Redaction, Redactor};
use crate::report::{
    self, Counts, Floor, Identity, Report, SummarizerReport, Tokens, TriggerCheck,
};
use crate::summarize::{cap_words, NarrativeItem, Summarizer, SummaryJob, SummaryRequest};
use crate::tokens::TokenCount;
use crate::transcript::{compact_json, Part, Transcript};

/// How a compacted request is rebuilt. The two named designs of the seed are
/// `governed` and `summary-only`; the other two separate its factors (where
/// the mission lives, whether evidence is pinned) for experiments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
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
    pub pin: crate::governance::PolicyPin,
}

pub struct Inputs<'a> {
    pub transcript: &'a Transcript,
    /// Name of the input for the report (a path, or `<stdin>`).
    pub input_name: &'a str,
    pub kernel: &'a MissionKernel,
    pub policy: &'a RetentionPolicy,
    pub strategy: Strategy,
}

pub fn compact(
    inputs: &Inputs<'_>,
    summarizer: &mut dyn Summarizer,
    tokens: &dyn TokenCount,
    redactor: &mut Redactor,
) -> Result<Compaction> {
    let ctx =
        crate::governance::PinContext::first(inputs.kernel, inputs.input_name, chrono::Utc::now());
    compact_pinned(inputs, &ctx, summarizer, tokens, redactor)
}

/// [`compact`] for a given run: the rebuild's policy pin carries `ctx`'s run
/// id and sequence and is verified at `ctx.now` before anything is returned.
pub fn compact_pinned(
    inputs: &Inputs<'_>,
    ctx: &crate::governance::PinContext,
    summarizer: &mut dyn Summarizer,
    tokens: &dyn TokenCount,
    redactor: &mut Redactor,
) -> Result<Compaction> {
    let Inputs {
        kernel,
        policy,
        strategy,
        ..
    } = *inputs;
    let rules = &policy.compaction;
    let cached = crate::tokens::CachedCount::new(tokens);
    let tokens: &dyn TokenCount = &cached;

    // Redact first: everything downstream sees placeholders only.
    let (t, redactions) = redactor.redact_transcript(inputs.transcript);

    // Classify.
    let start = classify::tail_start(&t, rules.tail_rounds);
    let head = &t.messages[..start];

    // Pin (governed): fresh returns win over carried pins of the same record;
    // records whose result stays whole in the tail need no pin.
    let kernel_on = strategy.kernel_in_instructions();
    let pins_on = strategy.pins_evidence();
    let block_on = kernel_on || pins_on;
    let (fresh, superseded) = evidence::extract_pins(&t, policy);
    let carried: Vec<Pin> = evidence::carried_pins(&t)
        .into_iter()
        .filter(|c| c.message < start)
        .collect();
    let fresh_ids: HashSet<&str> = fresh.iter().map(|p| p.record_id.as_str()).collect();
    let (carried_live, carried_superseded): (Vec<Pin>, Vec<Pin>) = carried
        .into_iter()
        .partition(|c| !fresh_ids.contains(c.record_id.as_str()));
    let pinned_calls: HashSet<String> = if pins_on {
        fresh.iter().map(|p| p.call_id.clone()).collect()
    } else {
        HashSet::new()
    };
    let stubs = classify::stub_tail(&t, start, rules, &pinned_calls);
    let stubbed: HashSet<(usize, usize)> = stubs.iter().map(|s| (s.message, s.part)).collect();
    let in_tail_whole = |p: &Pin| {
        p.message >= start && {
            let (m, part) = split_item(&p.source_item);
            !stubbed.contains(&(m, part))
        }
    };
    let (pins_in_tail, fresh_pinned): (Vec<Pin>, Vec<Pin>) =
        fresh.into_iter().partition(in_tail_whole);
    let mut pins: Vec<Pin> = Vec::new();
    if pins_on {
        pins.extend(carried_live.iter().cloned());
        pins.extend(fresh_pinned.iter().cloned());
    }
    // Governance: a pinned field that carries a directive conflicting with
    // the kernel (an injected "the restriction was lifted") is not pinned.
    let constraints = crate::governance::pin::constraints_of(kernel)
        .map_err(|m| Error::Internal(format!("kernel conditions: {m}")))?;
    let mut directives = Vec::new();
    pins.retain(
        |p| match crate::governance::memory::directive_conflict(&constraints, &p.line) {
            Some(conflict) => {
                directives.push(crate::governance::memory::RejectedDirective {
                    found_in: format!("pin:{}", p.record_id),
                    sentence: p.line.clone(),
                    conflict,
                });
                false
            }
            None => true,
        },
    );

    // May-persist: earlier calls to tools the policy does not pin (bulk views,
    // unlisted tools) that returned something, newest first, within budget.
    let failed: HashSet<&str> = head
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
                error.then_some(id.as_str())
            }
            Part::RetryPrompt { id: Some(id), .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    let unpinned_calls: Vec<(String, String, String)> = head
        .iter()
        .flat_map(|m| m.tool_calls())
        .filter(|(id, name, _)| policy.pin_fields(name).is_none() && !failed.contains(id))
        .map(|(id, name, args)| (id.to_string(), name.to_string(), compact_json(args)))
        .collect();
    let budget = if pins_on {
        policy.may_persist.budget
    } else {
        0
    };
    let listed: Vec<&(String, String, String)> = unpinned_calls.iter().rev().take(budget).collect();
    let may_lines: Vec<String> = listed
        .iter()
        .map(|(id, name, args)| format!("- [{id}] {name} {args}"))
        .collect();

    // Summarize.
    let full_items = classify::full_narrative(head);
    let job_items: Vec<NarrativeItem> = if pins_on {
        classify::governed_narrative(head, &pins)
    } else {
        full_items.clone()
    };
    let job = if pins_on {
        SummaryJob::Governed
    } else {
        SummaryJob::SummaryOnly
    };
    let started = Instant::now();
    let output = if job_items.is_empty() {
        crate::summarize::SummaryOutput {
            text: String::new(),
            metrics: None,
        }
    } else {
        summarizer.summarize(&SummaryRequest {
            job,
            items: &job_items,
            word_cap: rules.summary_words,
        })?
    };
    let latency_ms = (started.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    let (redacted, summary_redactions) = redactor.redact_generated(&output.text, "summary");
    // Governance: with the kernel in force, summary sentences that conflict
    // with it (a "lifted" restriction, "ignore the earlier rule") are
    // withheld and audited, never shown to the agent as memory.
    let redacted = if kernel_on {
        let (kept, found) =
            crate::governance::memory::screen_text(&constraints, &redacted, "summary");
        directives.extend(found);
        kept
    } else {
        redacted
    };
    let (summary, capped) = cap_words(&redacted, rules.summary_words);

    // Rebuild.
    let block = rebuild::continuity_block(kernel_on.then_some(kernel), &pins, &may_lines, &summary);
    let head_text = if block_on {
        block.text()
    } else {
        rebuild::summary_only_head(&summary)
    };
    let instructions = rebuild::instructions(&t.instructions, kernel_on.then_some(kernel));
    let request = rebuild::assemble(&t, start, &stubs, instructions, head_text.clone());

    // Validate: the output must be a valid request of the input's format.
    formats::check_conversation(&request).map_err(|message| Error::InvalidOutput {
        format: request.format.name(),
        message,
    })?;
    let visible = request.visible_text();
    let mut must_persist = Vec::new();
    if kernel_on {
        must_persist.extend(kernel.must_persist_texts());
    }
    if pins_on {
        for (call, tool, group) in rebuild::group_by_call(&pins) {
            must_persist.push((
                format!("pin-call:{call}"),
                crate::evidence::call_header(call, tool),
            ));
            must_persist.extend(
                group
                    .iter()
                    .map(|p| (format!("pin:{}", p.record_id), p.line.clone())),
            );
        }
    }
    let precedence = precedence_check(&visible, &must_persist);
    let missing: Vec<&str> = precedence
        .iter()
        .filter(|p| !p.present)
        .map(|p| p.item.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(Error::PrecedenceViolation {
            count: missing.len(),
            missing: missing.join(", "),
        });
    }

    // Measure.
    let count = |s: &str| tokens.count(s);
    let before = count_transcript(&t, tokens)?;
    let fixed_overhead = request
        .instructions
        .iter()
        .map(|s| count(s))
        .sum::<Result<usize>>()?
        + t.tools
            .iter()
            .map(|s| count(&compact_json(s)))
            .sum::<Result<usize>>()?;
    let kernel_tokens = if kernel_on {
        count(&kernel.render())?
    } else {
        0
    };
    let (framing, pinned, may_persist, summary_tokens) = if block_on {
        (
            count(&block.framing)?,
            count(&block.facts)?,
            count(&block.may_persist)?,
            count(&block.summary)?,
        )
    } else {
        (0, 0, 0, count(&head_text)?)
    };
    let mut tail_tokens = 0;
    for m in &request.messages {
        for p in &m.parts {
            if matches!(&p.part, Part::Text(s) if *s == head_text) {
                continue;
            }
            tail_tokens += count(&p.part.visible_text())?;
        }
    }
    let after = fixed_overhead + framing + pinned + may_persist + summary_tokens + tail_tokens;
    let remains = after - fixed_overhead;
    let required = fixed_overhead + 2 * remains;
    let new_results = classify::new_tool_results(&t);

    // Audit.
    let summary_words = summary.split_whitespace().count();
    let audit = audit_trail(&AuditInputs {
        t: &t,
        tokens,
        kernel,
        kernel_on,
        kernel_tokens,
        strategy,
        pins_on,
        policy,
        start,
        stubs: &stubs,
        pins: &pins,
        superseded: &superseded,
        carried_superseded: &carried_superseded,
        pins_in_tail: &pins_in_tail,
        listed: &listed,
        failed: &failed,
        redactions: &redactions,
        summary_redactions: &summary_redactions,
        directives: &directives,
        summary_words,
        summarizer_name: summarizer.name(),
        summary_tokens,
        capped,
    })?;

    let job_text: Vec<&str> = job_items.iter().map(|i| i.text.as_str()).collect();
    let full_text: Vec<&str> = full_items.iter().map(|i| i.text.as_str()).collect();
    let report = Report {
        input: inputs.input_name.to_string(),
        format: t.format.name().to_string(),
        strategy: strategy.name().to_string(),
        tokenizer: tokens.name().to_string(),
        kernel: Identity {
            id: kernel.id.clone(),
            version: kernel.version.clone(),
            sha256: kernel.sha256.clone(),
        },
        policy: Identity {
            id: policy.id.clone(),
            version: policy.version.clone(),
            sha256: policy.sha256.clone(),
        },
        tokens: Tokens {
            before,
            after,
            fixed_overhead,
            kernel: kernel_tokens,
            pinned,
            summary: summary_tokens,
            tail: tail_tokens,
            framing,
            may_persist,
        },
        reduction_pct: report::reduction_pct(before, after),
        floor: Floor {
            trigger: rules.trigger_tokens,
            required,
            met: rules.trigger_tokens >= required,
            remains,
        },
        trigger: TriggerCheck {
            threshold: rules.trigger_tokens,
            input_tokens: before,
            min_new_tool_results: rules.min_new_tool_results,
            new_tool_results: new_results,
            would_trigger: before > rules.trigger_tokens
                && new_results >= rules.min_new_tool_results,
        },
        summarizer: SummarizerReport {
            name: summarizer.name().to_string(),
            input_tokens: count(&job_text.join("\n"))?,
            full_input_tokens: count(&full_text.join("\n"))?,
            words: summary_words,
            capped,
            latency_ms,
            model: output.metrics,
        },
        counts: Counts {
            messages_before: t.messages.len(),
            messages_after: request.messages.len(),
            pins: pins.len(),
            pins_carried: if pins_on { carried_live.len() } else { 0 },
            pins_superseded: superseded.len() + carried_superseded.len(),
            pins_in_tail: pins_in_tail.len(),
            stubs: stubs.len(),
            redactions: redactions.len() + summary_redactions.len(),
            may_persist_listed: may_lines.len(),
        },
        precedence,
        governance: None,
    };
    let mut all_redactions = redactions;
    all_redactions.extend(summary_redactions);
    // Release gate: pin the policy and verify it before anything leaves.
    let (pin, mut governance) = crate::governance::pin::seal_for_release(kernel, ctx)
        .map_err(crate::governance::GovernanceError::from)?;
    governance.directives_rejected = directives.len();
    let mut report = report;
    report.governance = Some(governance);
    Ok(Compaction {
        request,
        audit,
        report,
        summary,
        redactions: all_redactions,
        pin,
    })
}

/// What the audit trail is built from: the stages' results.
#[derive(Clone, Copy)]
struct AuditInputs<'a> {
    t: &'a Transcript,
    tokens: &'a dyn TokenCount,
    kernel: &'a MissionKernel,
    kernel_on: bool,
    kernel_tokens: usize,
    strategy: Strategy,
    pins_on: bool,
    policy: &'a RetentionPolicy,
    /// First tail message.
    start: usize,
    stubs: &'a [Stub],
    pins: &'a [Pin],
    superseded: &'a [Pin],
    carried_superseded: &'a [Pin],
    pins_in_tail: &'a [Pin],
    /// May-persist calls listed: (id, tool, args).
    listed: &'a [&'a (String, String, String)],
    /// Calls whose result was an error.
    failed: &'a HashSet<&'a str>,
    redactions: &'a [Redaction],
    summary_redactions: &'a [Redaction],
    directives: &'a [crate::governance::memory::RejectedDirective],
    summary_words: usize,
    summarizer_name: &'a str,
    summary_tokens: usize,
    capped: bool,
}

/// One record per input item, pin, redaction, rejected directive and the
/// summary: what was kept, pinned, summarized, stubbed, redacted or dropped,
/// by which rule, and its tokens before and after.
fn audit_trail(a: &AuditInputs<'_>) -> Result<Vec<AuditRecord>> {
    let AuditInputs {
        t,
        tokens,
        kernel,
        kernel_on,
        kernel_tokens,
        strategy,
        pins_on,
        policy,
        start,
        stubs,
        pins,
        superseded,
        carried_superseded,
        pins_in_tail,
        listed,
        failed,
        redactions,
        summary_redactions,
        directives,
        summary_words,
        summarizer_name,
        summary_tokens,
        capped,
    } = *a;
    let rules = &policy.compaction;
    let count = |s: &str| tokens.count(s);
    let mut audit = Vec::new();
    for (i, s) in t.instructions.iter().enumerate() {
        let n = count(s)?;
        audit.push(
            AuditRecord::new(
                format!("instructions.{i}"),
                "instructions",
                Decision::Kept,
                "fixed_overhead",
            )
            .tokens(n, n),
        );
    }
    for (i, s) in t.tools.iter().enumerate() {
        let n = count(&compact_json(s))?;
        audit.push(
            AuditRecord::new(
                format!("tools.{i}"),
                "tool_schema",
                Decision::Kept,
                "fixed_overhead",
            )
            .tokens(n, n),
        );
    }
    audit.push(if kernel_on {
        AuditRecord::new("kernel", "kernel", Decision::Pinned, "kernel.instructions")
            .tokens(0, kernel_tokens)
            .detail(format!(
                "{} v{} sha256 {}",
                kernel.id, kernel.version, kernel.sha256
            ))
    } else {
        AuditRecord::new(
            "kernel",
            "kernel",
            Decision::Dropped,
            format!("strategy.{}", strategy.name()),
        )
        .detail("the kernel is not rendered; the mission stays where the input had it")
    });
    let pinned_by_call: HashSet<&str> = pins.iter().map(|p| p.call_id.as_str()).collect();
    let listed_ids: HashSet<&str> = listed.iter().map(|(id, _, _)| id.as_str()).collect();
    for (mi, m) in t.messages.iter().enumerate() {
        for (pi, p) in m.parts.iter().enumerate() {
            let item = format!("m{mi}.p{pi}");
            let n = count(&p.part.visible_text())?;
            let rec = if mi >= start {
                match stubs
                    .iter()
                    .find(|s: &&Stub| s.message == mi && s.part == pi)
                {
                    Some(s) => {
                        let mut r = AuditRecord::new(
                            &item,
                            p.part.kind(),
                            Decision::Stubbed,
                            "tail.stub_threshold",
                        )
                        .tokens(n, count(&s.stub)?)
                        .tool(&s.tool, &s.call_id)
                        .detail(format!(
                            "{} chars > {}",
                            s.original.chars().count(),
                            rules.stub_threshold_chars
                        ));
                        r.original = Some(s.original.clone());
                        r
                    }
                    None => {
                        AuditRecord::new(&item, p.part.kind(), Decision::Kept, "tail.latest_round")
                            .tokens(n, n)
                    }
                }
            } else if !pins_on {
                AuditRecord::new(
                    &item,
                    p.part.kind(),
                    Decision::Summarized,
                    format!("strategy.{}.head", strategy.name()),
                )
                .tokens(n, 0)
            } else {
                match &p.part {
                    Part::ToolResult { id, name, .. } => {
                        if pinned_by_call.contains(id.as_str()) {
                            AuditRecord::new(
                                &item,
                                "tool_result",
                                Decision::Pinned,
                                format!("evidence.pins.{name}"),
                            )
                            .tokens(n, 0)
                            .tool(name, id)
                            .detail("record fields pinned verbatim; see the pin records")
                        } else {
                            let rule = match policy.evidence.pins.get(name) {
                                Some(fields) if fields.is_empty() => "evidence.bulk_view",
                                Some(_) => "evidence.superseded_or_no_records",
                                None => "evidence.unpinned_tool",
                            };
                            let detail = if listed_ids.contains(id.as_str()) {
                                "content dropped; the call is listed under earlier tool calls"
                            } else if failed.contains(id.as_str()) {
                                "content dropped; the call returned an error"
                            } else if policy.pin_fields(name).is_some() {
                                "content dropped; no record of it is pinned"
                            } else {
                                "content dropped; the call is beyond the may_persist budget"
                            };
                            AuditRecord::new(&item, "tool_result", Decision::Dropped, rule)
                                .tokens(n, 0)
                                .tool(name, id)
                                .detail(detail)
                        }
                    }
                    _ => AuditRecord::new(
                        &item,
                        p.part.kind(),
                        Decision::Summarized,
                        format!("strategy.{}.narrative", strategy.name()),
                    )
                    .tokens(n, 0),
                }
            };
            audit.push(rec);
        }
    }
    if pins_on {
        for p in pins {
            let rule = if p.source_item.starts_with("carried:") {
                "evidence.carried_forward".to_string()
            } else {
                format!("evidence.pins.{}", p.tool)
            };
            audit.push(
                AuditRecord::new(
                    format!("pin:{}", p.record_id),
                    "pinned_field",
                    Decision::Pinned,
                    rule,
                )
                .tokens(0, count(&p.line)?)
                .tool(&p.tool, &p.call_id)
                .record(&p.record_id)
                .detail(format!("from {}", p.source_item)),
            );
        }
        for p in superseded.iter().chain(carried_superseded.iter()) {
            audit.push(
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
                    p.source_item
                )),
            );
        }
        for p in pins_in_tail {
            audit.push(
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
    }
    for r in redactions.iter().chain(summary_redactions.iter()) {
        audit.push(
            AuditRecord::new(&r.item, "redaction", Decision::Redacted, &r.rule)
                .detail(&r.placeholder),
        );
    }
    for d in directives {
        audit.push(
            AuditRecord::new(
                &d.found_in,
                "directive",
                Decision::Dropped,
                "governance.directive_conflicts_with_kernel",
            )
            .detail(format!(
                "{} ({}): {}",
                d.conflict.rule, d.conflict.reason, d.sentence
            )),
        );
    }
    audit.push(
        AuditRecord::new(
            "summary",
            "summary",
            Decision::Kept,
            format!("summarizer.{summarizer_name}"),
        )
        .tokens(0, summary_tokens)
        .detail(if capped {
            format!("{summary_words} words, capped at {}", rules.summary_words)
        } else {
            format!("{summary_words} words")
        }),
    );

    Ok(audit)
}

fn split_item(item: &str) -> (usize, usize) {
    let parse = || -> Option<(usize, usize)> {
        let rest = item.strip_prefix('m')?;
        let (m, p) = rest.split_once(".p")?;
        Some((m.parse().ok()?, p.parse().ok()?))
    };
    parse().unwrap_or((usize::MAX, usize::MAX))
}

/// Tokens of a whole request: instructions, tool schemas and every part,
/// each counted as the model-visible text of its segment.
pub fn count_transcript(t: &Transcript, tokens: &dyn TokenCount) -> Result<usize> {
    let mut n = 0;
    for s in &t.instructions {
        n += tokens.count(s)?;
    }
    for s in &t.tools {
        n += tokens.count(&compact_json(s))?;
    }
    for m in &t.messages {
        for p in &m.parts {
            n += tokens.count(&p.part.visible_text())?;
        }
    }
    Ok(n)
}
