//! Replay one recorded session under one condition.
//!
//! The agent's actions stay as recorded. The condition decides where the
//! trigger fires and what each compaction keeps; the request before each
//! later action is the compacted request plus the turns recorded after the
//! compaction point, up to that action, until the next compaction under the
//! same condition.

use super::{ReplayError, Result};

use crate::facts::FactKey;
use continuity_core::compact::rebuild;
use continuity_core::compact::{compact, Compaction, Inputs, Strategy};
use continuity_core::error::Error;
use continuity_core::kernel::MissionKernel;
use continuity_core::policy::RetentionPolicy;
use continuity_core::redact::Redactor;
use continuity_core::summarize::{
    FixedSummary, NoSummary, Summarizer, SummaryOutput, SummaryRequest,
};
use continuity_core::tokens::TokenCount;
use continuity_core::transcript::{Message, Part, Transcript};

use super::session::{actions_of, context_text, Session, Step};

/// Summarizer name that puts the summary the reference recorded at the same
/// request in place (reference runs only).
pub const RECORDED: &str = "recorded";

/// Summarizers a replay accepts by name.
pub const SUMMARIZERS: &[&str] = &["none", "extractive", RECORDED];

/// One condition: strategy × summarizer, optionally with a damaged summary.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Condition {
    pub strategy: Strategy,
    pub summarizer: String,
    /// Facts whose sentences are removed from every summary (FI-1 style).
    pub damage: Vec<String>,
}

impl Condition {
    pub fn label(&self) -> String {
        let mut s = format!("{}/{}", self.strategy.name(), self.summarizer);
        if !self.damage.is_empty() {
            s.push_str(&format!("+damage:{}", self.damage.join(",")));
        }
        s
    }
}

/// Everything the replays share.
pub struct Setup<'a> {
    pub kernel: &'a MissionKernel,
    pub policy: &'a RetentionPolicy,
    pub key: &'a FactKey,
    pub tokens: &'a (dyn TokenCount + Sync),
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RequestRow {
    pub step: usize,
    /// The compaction in effect (its sequence number), if any.
    pub compaction_seq: Option<usize>,
    pub compacted_here: bool,
    pub est_tokens: usize,
    pub bundled_tokens: usize,
    pub messages: usize,
    pub terms_missing: Vec<String>,
    pub facts_missing: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct CompactionRow {
    pub seq: usize,
    pub step: usize,
    pub est_before: usize,
    pub est_after: usize,
    pub reduction_pct: f64,
    pub bundled_before: usize,
    pub bundled_after: usize,
    /// Anatomy of the compacted request, in the record's units.
    pub fixed: usize,
    pub kernel: usize,
    pub pinned: usize,
    pub framing: usize,
    pub summary: usize,
    pub tail: usize,
    pub summary_source: String,
    pub summary_words: usize,
    pub summarizer_in: usize,
    pub summarizer_out: usize,
    pub floor_required: usize,
    pub floor_met: bool,
    pub pins: usize,
    pub summary_text: String,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ActionRow {
    pub step: usize,
    pub call_id: String,
    pub tool: String,
    /// Position of the call within its response.
    pub ord: usize,
    /// The prohibition the tool breaks, if any.
    pub prohibition: Option<String>,
    pub compaction_seq: Option<usize>,
    /// Keyword presence of that prohibition in the context that preceded it.
    pub constraint_present: Option<bool>,
    /// Its full text present verbatim.
    pub constraint_verbatim: Option<bool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// At an action, on the request that preceded it.
    Action,
    /// On the request right after a compaction.
    Compaction,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::Action => "action",
            Scope::Compaction => "compaction",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    Prohibition,
    Fact,
    Term,
}

impl CheckKind {
    pub fn name(self) -> &'static str {
        match self {
            CheckKind::Prohibition => "prohibition",
            CheckKind::Fact => "fact",
            CheckKind::Term => "term",
        }
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Check {
    pub step: usize,
    pub scope: Scope,
    pub call_id: Option<String>,
    pub compaction_seq: Option<usize>,
    pub kind: CheckKind,
    pub item: String,
    /// Order of the item in the kernel or key.
    pub ord: usize,
    pub present: bool,
}

#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct RunTokens {
    pub requests: usize,
    pub summarizer_in: usize,
    pub summarizer_out: usize,
}

impl RunTokens {
    pub fn total(&self) -> usize {
        self.requests + self.summarizer_in + self.summarizer_out
    }
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct RunResult {
    pub session: String,
    pub condition: Condition,
    pub requests: Vec<RequestRow>,
    pub compactions: Vec<CompactionRow>,
    pub actions: Vec<ActionRow>,
    pub checks: Vec<Check>,
    pub tokens: RunTokens,
}

/// Presence of every kernel prohibition, fact and mission term in a text.
pub struct Presence {
    /// (id, keyword present, verbatim present), kernel order.
    pub prohibitions: Vec<(String, bool, bool)>,
    pub facts: Vec<(String, bool)>,
    pub terms: Vec<(String, bool)>,
}

/// Keyword checks on the text that preceded an action. A prohibition is
/// present when the first mission term its text names (its verb: "refund",
/// "modify", "delete", "contact") is in the context, the reference's
/// kernel-term check per prohibition; a prohibition naming no mission term
/// is present only when its whole text is there.
pub fn presence(text: &str, kernel: &MissionKernel, key: &FactKey) -> Presence {
    let lower = text.to_lowercase();
    let check = key.keyword_check(text);
    let prohibitions = kernel
        .prohibitions
        .iter()
        .map(|p| {
            let ptext = p.text.to_lowercase();
            let verbatim = lower.contains(&ptext);
            let keyword = match prohibition_term(&p.text, key) {
                Some(t) => lower.contains(&t.to_lowercase()),
                None => verbatim,
            };
            (p.id.clone(), keyword, verbatim)
        })
        .collect();
    let facts = key
        .facts
        .iter()
        .map(|f| (f.id.clone(), check.facts_present.contains(&f.id)))
        .collect();
    let terms = key
        .mission_terms
        .iter()
        .map(|t| (t.clone(), check.terms_present.contains(t)))
        .collect();
    Presence {
        prohibitions,
        facts,
        terms,
    }
}

/// The mission term a prohibition is checked by: the one its text names
/// first.
pub fn prohibition_term<'k>(text: &str, key: &'k FactKey) -> Option<&'k str> {
    let lower = text.to_lowercase();
    key.mission_terms
        .iter()
        .filter_map(|t| lower.find(&t.to_lowercase()).map(|i| (i, t.as_str())))
        .min()
        .map(|(_, t)| t)
}

/// Remove every sentence that mentions any of `terms` (case-insensitive).
/// Sentences end at `.`, `!` or `?` followed by whitespace, or at a newline.
pub fn damage_text(text: &str, terms: &[String]) -> String {
    let lowered: Vec<String> = terms.iter().map(|t| t.to_lowercase()).collect();
    let mut sentences: Vec<String> = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        cur.push(c);
        let end = c == '\n'
            || (matches!(c, '.' | '!' | '?') && chars.get(i + 1).is_none_or(|n| n.is_whitespace()));
        if end {
            sentences.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        sentences.push(cur);
    }
    let kept: String = sentences
        .into_iter()
        .filter(|s| {
            let l = s.to_lowercase();
            !lowered.iter().any(|t| l.contains(t.as_str()))
        })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A summarizer whose output loses the sentences stating the damaged facts.
struct Damaged {
    inner: Box<dyn Summarizer>,
    terms: Vec<String>,
}

impl Summarizer for Damaged {
    fn name(&self) -> &str {
        "damaged"
    }
    fn summarize(&mut self, request: &SummaryRequest<'_>) -> Result<SummaryOutput, Error> {
        let mut out = self.inner.summarize(request)?;
        out.text = damage_text(&out.text, &self.terms);
        Ok(out)
    }
}

fn summarizer_for(
    condition: &Condition,
    session: &Session,
    step: usize,
    key: &FactKey,
) -> Result<(Box<dyn Summarizer>, String)> {
    let (inner, source): (Box<dyn Summarizer>, String) = if condition.summarizer == RECORDED {
        match session.recorded.iter().find(|r| r.step == step) {
            Some(r) => (
                Box::new(FixedSummary {
                    label: RECORDED.into(),
                    text: r.summary.clone(),
                }),
                format!("recorded {}", r.id),
            ),
            None => (
                Box::new(NoSummary),
                format!("none (no recorded summary at request {step})"),
            ),
        }
    } else {
        (
            continuity_models::by_name(&condition.summarizer)?,
            condition.summarizer.clone(),
        )
    };
    if condition.damage.is_empty() {
        return Ok((inner, source));
    }
    let mut terms = Vec::new();
    for id in &condition.damage {
        let fact = key.facts.iter().find(|f| &f.id == id).ok_or_else(|| {
            ReplayError::Invalid(format!("--damage {id}: no such fact in the key"))
        })?;
        terms.extend(fact.key_terms.iter().cloned());
    }
    Ok((
        Box::new(Damaged { inner, terms }),
        format!("{source}, damaged ({})", condition.damage.join(",")),
    ))
}

struct Measured {
    bundled: usize,
    est: usize,
    text: String,
}

fn measure(
    session: &Session,
    tokens: &dyn TokenCount,
    schema: usize,
    instructions: &[String],
    messages: &[Message],
) -> Result<Measured> {
    let text = context_text(instructions, messages);
    let bundled = tokens.count(&text)? + schema;
    Ok(Measured {
        bundled,
        est: session.calibration.est(bundled),
        text,
    })
}

pub fn replay(session: &Session, condition: &Condition, setup: &Setup<'_>) -> Result<RunResult> {
    let rules = &setup.policy.compaction;
    let original = &session.transcript.messages;
    let mut pass = Pass::new(session, condition, setup)?;
    let mut cursor = 0;
    let mut prev_est: Option<usize> = None;
    let mut prev_step: Option<usize> = None;
    let mut last_compaction_step: Option<usize> = None;
    let mut new_results = 0usize;

    for step in &session.steps {
        for m in &original[cursor..step.request_end] {
            new_results += m
                .parts
                .iter()
                .filter(|p| matches!(p.part, Part::ToolResult { .. }))
                .count();
            pass.messages.push(m.clone());
        }
        cursor = step.request_end;

        // The trigger rule: the last measured input over the threshold, at
        // least `min_new_tool_results` new results, no compaction on the
        // previous request.
        let fire = prev_est.is_some_and(|n| n > rules.trigger_tokens)
            && new_results >= rules.min_new_tool_results
            && (last_compaction_step.is_none() || last_compaction_step != prev_step);
        if fire {
            pass.compact_at(step)?;
            last_compaction_step = Some(step.index);
            new_results = 0;
        }
        let (est, presence, seq) = pass.record_request(step, fire)?;
        pass.record_actions(step, &original[step.request_end], &presence, seq);
        prev_est = Some(est);
        prev_step = Some(step.index);
    }
    Ok(pass.out)
}

/// One condition's pass over a session: what it sends, and what it found.
struct Pass<'a> {
    session: &'a Session,
    condition: &'a Condition,
    kernel: &'a MissionKernel,
    policy: &'a RetentionPolicy,
    key: &'a FactKey,
    tokens: &'a dyn TokenCount,
    schema: usize,
    sent_instructions: Vec<String>,
    messages: Vec<Message>,
    redactor: Redactor,
    out: RunResult,
}

impl<'a> Pass<'a> {
    fn new(session: &'a Session, condition: &'a Condition, setup: &Setup<'a>) -> Result<Self> {
        let tokens: &dyn TokenCount = setup.tokens;
        let strategy = condition.strategy;
        Ok(Pass {
            session,
            condition,
            kernel: setup.kernel,
            policy: setup.policy,
            key: setup.key,
            tokens,
            schema: session.schema_tokens(tokens)?,
            sent_instructions: rebuild::instructions(
                &session.transcript.instructions,
                strategy.kernel_in_instructions().then_some(setup.kernel),
            ),
            messages: Vec::new(),
            redactor: Redactor::new(&setup.policy.personal_data)?,
            out: RunResult {
                session: session.name.clone(),
                condition: condition.clone(),
                requests: Vec::new(),
                compactions: Vec::new(),
                actions: Vec::new(),
                checks: Vec::new(),
                tokens: RunTokens::default(),
            },
        })
    }

    /// The request as this condition would send it now.
    fn measure_sent(&self) -> Result<Measured> {
        measure(
            self.session,
            self.tokens,
            self.schema,
            &self.sent_instructions,
            &self.messages,
        )
    }

    /// Compact the history at `step` and send the compacted request from now on.
    fn compact_at(&mut self, step: &Step) -> Result<()> {
        let session = self.session;
        let before = self.measure_sent()?;
        let input = Transcript {
            format: session.transcript.format,
            instructions: session.transcript.instructions.clone(),
            tools: session.transcript.tools.clone(),
            messages: self.messages.clone(),
            envelope: session.transcript.envelope.clone(),
            instruction_style: session.transcript.instruction_style.clone(),
        };
        let (mut summarizer, source) =
            summarizer_for(self.condition, session, step.index, self.key)?;
        let c = compact(
            &Inputs {
                transcript: &input,
                input_name: &session.name,
                kernel: self.kernel,
                policy: self.policy,
                strategy: self.condition.strategy,
            },
            chrono::Utc::now(),
            summarizer.as_mut(),
            self.tokens,
            &mut self.redactor,
        )
        .map_err(|e| {
            ReplayError::session(
                &session.path,
                format!(
                    "compaction at request {} under {}: {e}",
                    step.index,
                    self.condition.label()
                ),
            )
        })?;
        self.messages = c.request.messages.clone();
        self.sent_instructions = c.request.instructions.clone();
        let after = self.measure_sent()?;
        self.push_compaction(step, &before, &after, &c, source)
    }

    /// The compaction's row: sizes in the record's units, the floor rule, and
    /// what the summarizer call cost.
    fn push_compaction(
        &mut self,
        step: &Step,
        before: &Measured,
        after: &Measured,
        c: &Compaction,
        source: String,
    ) -> Result<()> {
        let (cal, tokens, rules) = (
            self.session.calibration,
            self.tokens,
            &self.policy.compaction,
        );
        let t = &c.report.tokens;
        let instr_bundled =
            tokens.count(&context_text(&self.sent_instructions, &[]))? + self.schema;
        let fixed_with_kernel = cal.est(instr_bundled);
        let remains = after.est.saturating_sub(fixed_with_kernel);
        let required = fixed_with_kernel + 2 * remains;
        // A summarizer call costs its input and output; `none` (and a
        // recorded condition with nothing recorded here) makes no call.
        let called = self.condition.summarizer != "none" && !source.starts_with("none");
        let (s_in, s_out) = if called {
            (
                cal.scale(c.report.summarizer.input_tokens),
                cal.scale(tokens.count(&c.summary)?),
            )
        } else {
            (0, 0)
        };
        self.out.tokens.summarizer_in += s_in;
        self.out.tokens.summarizer_out += s_out;
        let seq = self.out.compactions.len() + 1;
        self.out.compactions.push(CompactionRow {
            seq,
            step: step.index,
            est_before: before.est,
            est_after: after.est,
            reduction_pct: continuity_core::report::reduction_pct(before.est, after.est),
            bundled_before: before.bundled,
            bundled_after: after.bundled,
            fixed: fixed_with_kernel.saturating_sub(cal.scale(t.kernel)),
            kernel: cal.scale(t.kernel),
            pinned: cal.scale(t.pinned),
            framing: cal.scale(t.framing + t.may_persist),
            summary: cal.scale(t.summary),
            tail: cal.scale(t.tail),
            summary_source: source,
            summary_words: c.summary.split_whitespace().count(),
            summarizer_in: s_in,
            summarizer_out: s_out,
            floor_required: required,
            floor_met: rules.trigger_tokens >= required,
            pins: c.report.counts.pins,
            summary_text: c.summary.clone(),
        });
        Ok(())
    }

    /// The request this condition sends before `step`'s action: its row, and
    /// after a compaction what it carries. Returns its estimated size, what
    /// it holds, and the compactions before it.
    fn record_request(
        &mut self,
        step: &Step,
        compacted_here: bool,
    ) -> Result<(usize, Presence, Option<usize>)> {
        let unchanged = self.out.compactions.is_empty()
            && self.sent_instructions == self.session.recorded_instructions;
        let mut m = self.measure_sent()?;
        if unchanged {
            if let Some(n) = step.recorded_input {
                m.est = n;
            }
        }
        let seq = (!self.out.compactions.is_empty()).then_some(self.out.compactions.len());
        let p = presence(&m.text, self.kernel, self.key);
        if compacted_here {
            self.compaction_checks(step.index, seq, &p);
        }
        self.out.requests.push(RequestRow {
            step: step.index,
            compaction_seq: seq,
            compacted_here,
            est_tokens: m.est,
            bundled_tokens: m.bundled,
            messages: self.messages.len(),
            terms_missing: p
                .terms
                .iter()
                .filter(|t| !t.1)
                .map(|t| t.0.clone())
                .collect(),
            facts_missing: p
                .facts
                .iter()
                .filter(|f| !f.1)
                .map(|f| f.0.clone())
                .collect(),
        });
        self.out.tokens.requests += m.est;
        Ok((m.est, p, seq))
    }

    /// Facts, terms and prohibitions in the request right after a compaction.
    fn compaction_checks(&mut self, step: usize, seq: Option<usize>, p: &Presence) {
        let check = |kind, item: &String, ord, present: bool| Check {
            step,
            scope: Scope::Compaction,
            call_id: None,
            compaction_seq: seq,
            kind,
            item: item.clone(),
            ord,
            present,
        };
        for (ord, (id, present)) in p.facts.iter().enumerate() {
            self.out
                .checks
                .push(check(CheckKind::Fact, id, ord, *present));
        }
        for (ord, (term, present)) in p.terms.iter().enumerate() {
            self.out
                .checks
                .push(check(CheckKind::Term, term, ord, *present));
        }
        for (ord, (id, present, _)) in p.prohibitions.iter().enumerate() {
            self.out
                .checks
                .push(check(CheckKind::Prohibition, id, ord, *present));
        }
    }

    /// Each recorded action of `step`, and the prohibitions and facts in
    /// the context it was sent with.
    fn record_actions(&mut self, step: &Step, answer: &Message, p: &Presence, seq: Option<usize>) {
        let kernel = self.kernel;
        for (ord, (call_id, tool)) in actions_of(answer).into_iter().enumerate() {
            let broken = kernel
                .prohibitions
                .iter()
                .position(|pr| pr.tools.iter().any(|t| t == &tool));
            let (present, verbatim) = match broken {
                Some(i) => (Some(p.prohibitions[i].1), Some(p.prohibitions[i].2)),
                None => (None, None),
            };
            let check = |kind, item: &String, ord, present: bool| Check {
                step: step.index,
                scope: Scope::Action,
                call_id: Some(call_id.clone()),
                compaction_seq: seq,
                kind,
                item: item.clone(),
                ord,
                present,
            };
            for (pord, (id, present, _)) in p.prohibitions.iter().enumerate() {
                self.out
                    .checks
                    .push(check(CheckKind::Prohibition, id, pord, *present));
            }
            for (ford, (id, present)) in p.facts.iter().enumerate() {
                self.out
                    .checks
                    .push(check(CheckKind::Fact, id, ford, *present));
            }
            self.out.actions.push(ActionRow {
                step: step.index,
                call_id,
                tool,
                ord,
                prohibition: broken.map(|i| kernel.prohibitions[i].id.clone()),
                compaction_seq: seq,
                constraint_present: present,
                constraint_verbatim: verbatim,
            });
        }
    }
}
