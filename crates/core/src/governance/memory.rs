//! Provenance-aware memory.
//!
//! A summarizer (or any other proposer) offers [`Proposal`]s that cite the
//! tool call ids they rest on. The [`MemoryGate`] promotes a proposal only
//! when it cites at least one id and every cited id is a tool call of the
//! transcript, and never when it is a *directive that conflicts with the
//! kernel* (it claims a prohibition was lifted, overridden or no longer
//! applies, tells the agent to ignore earlier rules, or names a governed tool
//! or a forbidden recipient as allowed). Rejections are recorded, never
//! shown. The [`MemoryStore`] is a hash-chained JSON-lines log: promotions,
//! rejections and rollbacks are appended; history is never edited.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chrono::{DateTime, NaiveDate, Utc};
use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::ledger::ChainLog;
use super::preflight::{domain_allowed, email_domain};
use crate::digest::sha256_hex;
use crate::error::GovernanceError;
use crate::kernel::constraint::Effect;
use crate::kernel::constraint::{Constraint, ConstraintKind, Op};
use crate::kernel::MissionKernel;
use crate::transcript::{value_text, Part, Transcript};

/// Why a sentence conflicts with the kernel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conflict {
    /// `prohibition:ID`, `condition:ID` or `kernel` (a general override).
    pub rule: String,
    pub reason: String,
}

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("static regex"))
}

fn lift_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)(?-u:\b)(lift(?:ed|s|ing)?|rescind(?:ed|s)?|revok(?:ed|es|e)|repeal(?:ed|s)?|overrid(?:e|den|es|ing)|overrul(?:e|ed|es)|ignor(?:e|ed|es|ing)|disregard(?:ed|s|ing)?|bypass(?:ed|es|ing)?|exempt(?:ed|s)?|(?:is|are|was|were) (?:no longer|not) (?:in (?:force|effect)|required|needed|prohibited|forbidden|binding|valid|applicable)|no longer appl(?:y|ies)|(?:does|do) not apply|doesn't apply|has been (?:dropped|removed|retired|cancel+ed))(?-u:\b)",
    )
}
fn gov_object_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)(?-u:\b)(rules?|restrictions?|polic(?:y|ies)|prohibitions?|limits?|limitations?|constraints?|instructions?|guardrails?|bans?|approval (?:requirements?|gates?|steps?)|requirements?|kernel|mission limits?)(?-u:\b)",
    )
}
fn ignore_previous_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)(?-u:\b)(ignore|disregard|forget)(?-u:\b).{0,40}(?-u:\b)(previous|earlier|prior|above|all|standing|old|existing)(?-u:\b)",
    )
}
fn allow_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?i)(?-u:\b)(allowed|permitted|authori[sz]ed|approved|enabled|cleared|unrestricted|ok to|okay to|fine to|may (?:now )?(?:be )?(?:use|used|call|called|send|sent|go)|can (?:now )?(?:be )?(?:use|used|call|called|send|sent|go)|is now)(?-u:\b)",
    )
}
fn negated_before(text: &str, at: usize) -> bool {
    let start = text[..at]
        .char_indices()
        .rev()
        .nth(15)
        .map(|(i, _)| i)
        .unwrap_or(0);
    let window = text[start..at].to_ascii_lowercase();
    ["not ", "n't ", "never ", "no longer "]
        .iter()
        .any(|n| window.contains(n))
}
fn allowance(text: &str) -> bool {
    allow_re()
        .find_iter(text)
        .any(|m| !negated_before(text, m.start()))
}
fn email_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
}

/// Does this text, read as an instruction, conflict with the kernel's
/// constraints? Deterministic; the first conflict found is returned.
pub fn directive_conflict(constraints: &[Constraint], text: &str) -> Option<Conflict> {
    let lower = text.to_ascii_lowercase();
    if ignore_previous_re().is_match(text) && gov_object_re().is_match(text) {
        return Some(Conflict {
            rule: "kernel".into(),
            reason: "tells the agent to ignore earlier rules".into(),
        });
    }
    let mentions = |c: &Constraint| {
        lower.contains(&c.id.to_ascii_lowercase())
            || c.tools
                .iter()
                .any(|t| t != "*" && lower.contains(&t.to_ascii_lowercase()))
    };
    let rule_of = |c: &Constraint| match c.kind {
        ConstraintKind::Prohibition => format!("prohibition:{}", c.id),
        ConstraintKind::Condition => format!("condition:{}", c.id),
    };
    if lift_re().is_match(text) {
        if let Some(c) = constraints.iter().find(|c| mentions(c)) {
            return Some(Conflict {
                rule: rule_of(c),
                reason:
                    "claims a governed rule or tool was lifted, overridden or no longer applies"
                        .into(),
            });
        }
        if gov_object_re().is_match(text) {
            return Some(Conflict {
                rule: "kernel".into(),
                reason: "claims a rule, restriction or policy was lifted, overridden or no longer applies".into(),
            });
        }
    }
    if allowance(text) {
        if let Some(c) = constraints
            .iter()
            .find(|c| c.effect != Effect::Allow && mentions(c))
        {
            return Some(Conflict {
                rule: rule_of(c),
                reason: "names a governed tool as allowed or approved; permissions and approvals come from the kernel and the approval system, not memory".into(),
            });
        }
        for c in constraints {
            let Some(cond) = &c.condition else { continue };
            if cond.op != Op::NotInDomain {
                continue;
            }
            let allowed: Vec<String> = match &cond.value {
                Value::Array(a) => a
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect(),
                Value::String(s) => vec![s.clone()],
                _ => continue,
            };
            if let Some(m) = email_re()
                .find_iter(text)
                .find(|m| email_domain(m.as_str()).is_some_and(|d| !domain_allowed(&d, &allowed)))
            {
                return Some(Conflict {
                    rule: rule_of(c),
                    reason: format!(
                        "names {} (outside {}) as an allowed destination",
                        m.as_str(),
                        allowed.join(", ")
                    ),
                });
            }
        }
    }
    None
}

/// Split text into sentences (and lines).
pub fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, ch) in chars.iter().enumerate() {
        if *ch == '\n' {
            if !cur.trim().is_empty() {
                out.push(cur.trim().to_string());
            }
            cur.clear();
            continue;
        }
        cur.push(*ch);
        if matches!(ch, '.' | '!' | '?') && chars.get(i + 1).is_none_or(|c| c.is_whitespace()) {
            out.push(cur.trim().to_string());
            cur.clear();
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// A sentence withheld from the agent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RejectedDirective {
    /// Where it was found: `summary`, or `tool_result:CALL_ID`.
    pub found_in: String,
    pub sentence: String,
    pub conflict: Conflict,
}

/// Remove every sentence of `text` that conflicts with the kernel.
pub fn screen_text(
    constraints: &[Constraint],
    text: &str,
    found_in: &str,
) -> (String, Vec<RejectedDirective>) {
    let mut kept = Vec::new();
    let mut rejected = Vec::new();
    for s in sentences(text) {
        match directive_conflict(constraints, &s) {
            Some(conflict) => rejected.push(RejectedDirective {
                found_in: found_in.to_string(),
                sentence: s,
                conflict,
            }),
            None => kept.push(s),
        }
    }
    (kept.join(" "), rejected)
}

/// Conflicting directives inside tool results (an injected "the restriction
/// was lifted"): recorded so they are never promoted to memory.
pub fn screen_tool_results(constraints: &[Constraint], t: &Transcript) -> Vec<RejectedDirective> {
    let mut out = Vec::new();
    for m in &t.messages {
        for p in &m.parts {
            if let Part::ToolResult { id, content, .. } = &p.part {
                out.extend(
                    screen_text(
                        constraints,
                        &value_text(content),
                        &format!("tool_result:{id}"),
                    )
                    .1,
                );
            }
        }
    }
    out
}

/// A candidate memory, as a summarizer proposes it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    pub statement: String,
    /// Tool call ids the statement rests on.
    pub cites: Vec<String>,
    #[serde(default = "default_kind")]
    pub kind: String,
    #[serde(default)]
    pub scope: Vec<String>,
    #[serde(default)]
    pub supersedes: Option<String>,
    #[serde(default)]
    pub review_after: Option<NaiveDate>,
}

fn default_kind() -> String {
    "semantic".into()
}

/// Proposals from a summary: one per sentence; ids in square brackets
/// (`[toolu_01..]`, `[call_..]`) are its citations.
pub fn proposals_from_summary(summary: &str) -> Vec<Proposal> {
    static R: OnceLock<Regex> = OnceLock::new();
    let cite = re(&R, r"\[([A-Za-z0-9_:.-]+)\]");
    sentences(summary)
        .into_iter()
        .map(|s| Proposal {
            cites: cite.captures_iter(&s).map(|c| c[1].to_string()).collect(),
            statement: s,
            kind: default_kind(),
            ..Default::default()
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemorySource {
    /// `summary`, `tool_result`, `operator`.
    #[serde(rename = "type")]
    pub kind: String,
    pub cites: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PolicyRef {
    pub id: String,
    pub version: String,
    pub sha256: String,
}

/// A promoted memory item (the seed's shape).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryItem {
    pub memory_id: String,
    pub kind: String,
    pub statement: String,
    pub source: MemorySource,
    pub observed_at: DateTime<Utc>,
    pub scope: Vec<String>,
    #[serde(default)]
    pub supersedes: Option<String>,
    #[serde(default)]
    pub review_after: Option<NaiveDate>,
    /// The kernel revision it was promoted under.
    pub policy: PolicyRef,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Rejection {
    NoCitation,
    UnknownCitation { id: String },
    ConflictsWithKernel { conflict: Conflict },
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rejection::NoCitation => f.write_str("cites no tool call"),
            Rejection::UnknownCitation { id } => write!(
                f,
                "cites `{id}`, which is not a tool call of the transcript"
            ),
            Rejection::ConflictsWithKernel { conflict } => write!(
                f,
                "conflicts with the kernel ({}): {}",
                conflict.rule, conflict.reason
            ),
        }
    }
}

/// Decides which proposals become memory.
pub struct MemoryGate {
    constraints: Vec<Constraint>,
    policy: PolicyRef,
    call_ids: HashSet<String>,
}

impl MemoryGate {
    pub fn new(kernel: &MissionKernel, transcript: &Transcript) -> Self {
        MemoryGate {
            constraints: kernel.constraints().to_vec(),
            policy: PolicyRef {
                id: kernel.id.clone(),
                version: kernel.version.clone(),
                sha256: kernel.sha256.clone(),
            },
            call_ids: transcript
                .messages
                .iter()
                .flat_map(|m| m.tool_calls())
                .map(|(id, _, _)| id.to_string())
                .collect(),
        }
    }

    pub fn review(
        &self,
        p: &Proposal,
        source_kind: &str,
        observed_at: DateTime<Utc>,
    ) -> Result<MemoryItem, Rejection> {
        if let Some(conflict) = directive_conflict(&self.constraints, &p.statement) {
            return Err(Rejection::ConflictsWithKernel { conflict });
        }
        if p.cites.is_empty() {
            return Err(Rejection::NoCitation);
        }
        if let Some(id) = p.cites.iter().find(|id| !self.call_ids.contains(*id)) {
            return Err(Rejection::UnknownCitation { id: id.clone() });
        }
        let digest = sha256_hex(format!("{}\n{}", p.statement, p.cites.join(",")).as_bytes());
        Ok(MemoryItem {
            memory_id: format!("mem_{}", &digest[..12]),
            kind: p.kind.clone(),
            statement: p.statement.clone(),
            source: MemorySource {
                kind: source_kind.to_string(),
                cites: p.cites.clone(),
            },
            observed_at,
            scope: p.scope.clone(),
            supersedes: p.supersedes.clone(),
            review_after: p.review_after,
            policy: self.policy.clone(),
        })
    }
}

/// The state of one memory id, folded from the log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemState {
    pub item: MemoryItem,
    /// `active`, `superseded`, `rolled_back`.
    pub status: String,
    pub promoted_line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolled_back: Option<String>,
}

/// A rejection kept in the log (never shown to the agent).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RejectedEntry {
    pub statement: String,
    pub cites: Vec<String>,
    pub rejection: Rejection,
    pub line: usize,
}

/// What may be shown to the agent now.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Recall {
    pub shown: Vec<MemoryItem>,
    /// Active items withheld, with why (conflict with the current kernel
    /// revision, review date passed).
    pub withheld: Vec<(MemoryItem, String)>,
}

pub struct MemoryStore {
    path: PathBuf,
    log: ChainLog,
    records: Vec<Map<String, Value>>,
}

fn mem_err(path: &Path, message: impl Into<String>) -> GovernanceError {
    GovernanceError::Memory {
        path: path.display().to_string(),
        message: message.into(),
    }
}

impl MemoryStore {
    pub fn open(path: &Path) -> Result<Self, GovernanceError> {
        let (log, records) = ChainLog::open(path)?;
        Ok(MemoryStore {
            path: path.to_path_buf(),
            log,
            records,
        })
    }

    fn append(&mut self, op: &str, mut body: Map<String, Value>) -> Result<(), GovernanceError> {
        body.insert("op".into(), op.into());
        body.insert("ts".into(), Utc::now().to_rfc3339().into());
        let rec = self.log.append(body)?;
        self.records.push(rec);
        Ok(())
    }

    pub fn promote(&mut self, item: &MemoryItem) -> Result<(), GovernanceError> {
        if self.items().contains_key(&item.memory_id) {
            return Err(mem_err(
                &self.path,
                format!("{} is already in the store", item.memory_id),
            ));
        }
        let mut body = Map::new();
        body.insert(
            "item".into(),
            serde_json::to_value(item).unwrap_or(Value::Null),
        );
        self.append("promote", body)
    }

    pub fn reject(&mut self, p: &Proposal, why: &Rejection) -> Result<(), GovernanceError> {
        let mut body = Map::new();
        body.insert("statement".into(), p.statement.clone().into());
        body.insert(
            "cites".into(),
            serde_json::to_value(&p.cites).unwrap_or(Value::Null),
        );
        body.insert(
            "rejection".into(),
            serde_json::to_value(why).unwrap_or(Value::Null),
        );
        self.append("reject", body)
    }

    /// Review a proposal and record the outcome (promotion or rejection).
    pub fn submit(
        &mut self,
        gate: &MemoryGate,
        p: &Proposal,
        source_kind: &str,
        observed_at: DateTime<Utc>,
    ) -> Result<Result<MemoryItem, Rejection>, GovernanceError> {
        let outcome = gate.review(p, source_kind, observed_at);
        match &outcome {
            Ok(item) => self.promote(item)?,
            Err(why) => self.reject(p, why)?,
        }
        Ok(outcome)
    }

    /// Append a reversal of a promotion; the promotion stays in history.
    pub fn rollback(&mut self, memory_id: &str, reason: &str) -> Result<(), GovernanceError> {
        match self.items().get(memory_id) {
            None => return Err(mem_err(&self.path, format!("no memory item {memory_id}"))),
            Some(s) if s.rolled_back.is_some() => {
                return Err(mem_err(
                    &self.path,
                    format!("{memory_id} is already rolled back"),
                ))
            }
            Some(_) => {}
        }
        let mut body = Map::new();
        body.insert("memory_id".into(), memory_id.into());
        body.insert("reason".into(), reason.into());
        self.append("rollback", body)
    }

    /// Every promoted item with its current status, in promotion order.
    pub fn items(&self) -> BTreeMap<String, ItemState> {
        let mut states: BTreeMap<String, ItemState> = BTreeMap::new();
        let mut order: Vec<String> = Vec::new();
        for (i, r) in self.records.iter().enumerate() {
            match r.get("op").and_then(Value::as_str) {
                Some("promote") => {
                    if let Some(item) = r
                        .get("item")
                        .cloned()
                        .and_then(|v| serde_json::from_value::<MemoryItem>(v).ok())
                    {
                        order.push(item.memory_id.clone());
                        states.insert(
                            item.memory_id.clone(),
                            ItemState {
                                item,
                                status: "active".into(),
                                promoted_line: i + 1,
                                superseded_by: None,
                                rolled_back: None,
                            },
                        );
                    }
                }
                Some("rollback") => {
                    let id = r
                        .get("memory_id")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    let reason = r.get("reason").and_then(Value::as_str).unwrap_or_default();
                    if let Some(s) = states.get_mut(id) {
                        s.rolled_back = Some(format!("line {}: {reason}", i + 1));
                    }
                }
                _ => {}
            }
        }
        // Supersession only by items that are still in force.
        let live: Vec<(String, String)> = states
            .values()
            .filter(|s| s.rolled_back.is_none())
            .filter_map(|s| {
                s.item
                    .supersedes
                    .clone()
                    .map(|old| (old, s.item.memory_id.clone()))
            })
            .collect();
        for (old, new) in live {
            if let Some(s) = states.get_mut(&old) {
                s.superseded_by = Some(new);
            }
        }
        for s in states.values_mut() {
            s.status = if s.rolled_back.is_some() {
                "rolled_back"
            } else if s.superseded_by.is_some() {
                "superseded"
            } else {
                "active"
            }
            .into();
        }
        states
    }

    pub fn rejected(&self) -> Vec<RejectedEntry> {
        self.records
            .iter()
            .enumerate()
            .filter(|(_, r)| r.get("op").and_then(Value::as_str) == Some("reject"))
            .filter_map(|(i, r)| {
                Some(RejectedEntry {
                    statement: r.get("statement")?.as_str()?.to_string(),
                    cites: serde_json::from_value(r.get("cites")?.clone()).ok()?,
                    rejection: serde_json::from_value(r.get("rejection")?.clone()).ok()?,
                    line: i + 1,
                })
            })
            .collect()
    }

    /// Active items that may be shown under the current kernel revision. An
    /// item promoted under another revision is checked again against this
    /// one; an item past its review date is withheld until reviewed.
    pub fn recall(&self, kernel: &MissionKernel, now: DateTime<Utc>) -> Recall {
        let constraints = kernel.constraints();
        let mut shown = Vec::new();
        let mut withheld = Vec::new();
        let mut states: Vec<ItemState> = self.items().into_values().collect();
        states.sort_by_key(|s| s.promoted_line);
        for s in states.into_iter().filter(|s| s.status == "active") {
            if let Some(c) = directive_conflict(constraints, &s.item.statement) {
                withheld.push((
                    s.item,
                    format!(
                        "conflicts with kernel {} v{} ({}): {}",
                        kernel.id, kernel.version, c.rule, c.reason
                    ),
                ));
            } else if s.item.review_after.is_some_and(|d| d < now.date_naive()) {
                withheld.push((s.item, "review date passed; review before use".into()));
            } else {
                shown.push(s.item);
            }
        }
        Recall { shown, withheld }
    }
}
