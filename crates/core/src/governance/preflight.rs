//! Deterministic tool-boundary preflight. Each tool call gets a verdict
//! (allow, deny, require_approval, escalate) from the kernel's constraints
//! alone, independent of whatever the model can still see.
//!
//! Rules: a prohibition applies to a call of one of its tools; an argument
//! condition applies to a call of its tool when its test fires; a pending
//! effect of the ledger (prepared, never committed) escalates a call with the
//! same tool and arguments. The most severe applicable rule decides
//! (deny > escalate > require_approval > allow); ties go to the earlier rule.
//!
//! Scope: a call's scope is a list of `dimension:value` entries
//! (`tenant:acme`, `region:eu-west-1`), given by the runtime (CLI `--scope`)
//! and/or by a `scope` list in the call itself. A rule with a scope is out of
//! scope for a call only when the call names a value for one of the rule's
//! dimensions and that value is not among the rule's values; dimensions the
//! call does not name are assumed to match (fail closed). A rule without a
//! scope applies everywhere.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::ledger::PendingEffect;
use super::pin::PolicyPin;
use crate::digest::args_digest;
use crate::error::{InputError, Source};
use crate::kernel::constraint::{ArgCondition, Constraint, ConstraintKind, Effect, Op};
use crate::kernel::MissionKernel;
use crate::transcript::tool_args;
use crate::transcript::{Part, Transcript};

/// A tool call as a runtime is about to make it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolCall {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub name: String,
    pub args: Value,
    /// `dimension:value` entries (see the module docs).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scope: Vec<String>,
}

impl ToolCall {
    pub fn new(name: &str, args: Value) -> Self {
        ToolCall {
            id: None,
            name: name.to_string(),
            args: tool_args(args),
            scope: Vec::new(),
        }
    }
}

/// One rule that applied to a call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleHit {
    /// `prohibition:ID`, `condition:ID` or `ledger:EFFECT_ID`.
    pub rule: String,
    pub effect: Effect,
    pub reason: String,
    /// The rule's scope entries the call matched (empty: unscoped rule, or
    /// the call named none of the rule's dimensions).
    pub scope_matched: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    pub tool: String,
    pub decision: Effect,
    /// The rule that decided (`None` when nothing applied: allow).
    pub rule: Option<String>,
    pub reason: String,
    pub scope: Vec<String>,
    /// Every rule that applied, most severe first.
    pub hits: Vec<RuleHit>,
}

impl Verdict {
    pub fn allowed(&self) -> bool {
        self.decision == Effect::Allow
    }
}

/// The preflight gate for one kernel revision.
#[derive(Debug, Clone)]
pub struct Preflight {
    pub kernel_id: String,
    pub kernel_version: String,
    pub sha256: String,
    constraints: Vec<Constraint>,
    default_scope: Vec<String>,
    pending: Vec<PendingEffect>,
}

impl Preflight {
    pub fn new(kernel: &MissionKernel) -> Self {
        Self::from_constraints(
            &kernel.id,
            &kernel.version,
            &kernel.sha256,
            kernel.constraints().to_vec(),
        )
    }

    /// Rebuild the gate from a checkpointed pin alone (replay).
    pub fn from_pin(pin: &PolicyPin) -> Self {
        Self::from_constraints(
            &pin.kernel_id,
            &pin.kernel_version,
            &pin.sha256,
            pin.constraints.clone(),
        )
    }

    pub fn from_constraints(
        id: &str,
        version: &str,
        sha256: &str,
        constraints: Vec<Constraint>,
    ) -> Self {
        Preflight {
            kernel_id: id.to_string(),
            kernel_version: version.to_string(),
            sha256: sha256.to_string(),
            constraints,
            default_scope: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// Scope entries applied to every call (a call's own entries win per
    /// dimension).
    pub fn with_scope(mut self, scope: Vec<String>) -> Self {
        self.default_scope = scope;
        self
    }

    /// Effects prepared but never committed (from [`super::ledger::reconcile`]):
    /// a call repeating one of them is escalated.
    pub fn with_pending(mut self, pending: Vec<PendingEffect>) -> Self {
        self.pending = pending;
        self
    }

    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    pub fn check(&self, call: &ToolCall) -> Verdict {
        let scope = merge_scope(&self.default_scope, &call.scope);
        let args = tool_args(call.args.clone());
        let mut hits: Vec<RuleHit> = Vec::new();
        for c in &self.constraints {
            if !c.tools.iter().any(|t| t == &call.name || t == "*") {
                continue;
            }
            let Some(scope_matched) = scope_applies(&c.scope, &scope) else {
                continue;
            };
            match (&c.kind, &c.condition) {
                (ConstraintKind::Prohibition, _) | (_, None) => hits.push(RuleHit {
                    rule: format!("prohibition:{}", c.id),
                    effect: c.effect,
                    reason: c.text.clone(),
                    scope_matched,
                }),
                (ConstraintKind::Condition, Some(cond)) => {
                    if let Some(why) = fires(cond, &args) {
                        hits.push(RuleHit {
                            rule: format!("condition:{}", c.id),
                            effect: c.effect,
                            reason: format!("{} ({why})", c.text),
                            scope_matched,
                        });
                    }
                }
            }
        }
        let digest = args_digest(&args);
        for p in &self.pending {
            if p.tool == call.name && p.args_sha256 == digest {
                hits.push(RuleHit {
                    rule: format!("ledger:{}", p.effect_id),
                    effect: Effect::Escalate,
                    reason: format!(
                        "the same call was prepared as effect `{}` and never committed; its outcome is unknown: query the system of record with idempotency key {} before retrying",
                        p.effect_id, p.idempotency_key
                    ),
                    scope_matched: Vec::new(),
                });
            }
        }
        // Most severe first; stable, so kernel order breaks ties.
        hits.sort_by_key(|h| std::cmp::Reverse(h.effect));
        let (decision, rule, reason) = match hits.first() {
            Some(h) => (h.effect, Some(h.rule.clone()), h.reason.clone()),
            None => (Effect::Allow, None, "no rule applies".to_string()),
        };
        Verdict {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            decision,
            rule,
            reason,
            scope,
            hits,
        }
    }
}

fn split_scope(s: &str) -> (&str, &str) {
    s.split_once(':').unwrap_or(("", s))
}

fn merge_scope(default: &[String], own: &[String]) -> Vec<String> {
    let own_dims: Vec<&str> = own.iter().map(|s| split_scope(s).0).collect();
    let mut out: Vec<String> = default
        .iter()
        .filter(|s| !own_dims.contains(&split_scope(s).0))
        .cloned()
        .collect();
    out.extend(own.iter().cloned());
    out
}

/// `None` when the rule is out of scope for the call; else the rule's
/// entries the call matched.
fn scope_applies(rule: &[String], call: &[String]) -> Option<Vec<String>> {
    if rule.is_empty() {
        return Some(Vec::new());
    }
    let mut by_dim: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for r in rule {
        let (d, v) = split_scope(r);
        by_dim.entry(d).or_default().push(v);
    }
    let mut matched = Vec::new();
    for (dim, values) in &by_dim {
        let named: Vec<&str> = call
            .iter()
            .map(|c| split_scope(c))
            .filter(|(d, _)| d == dim)
            .map(|(_, v)| v)
            .collect();
        if named.is_empty() {
            continue; // unnamed dimension: assumed to match
        }
        match named
            .iter()
            .find(|v| values.contains(v) || values.contains(&"*"))
        {
            Some(v) => matched.push(format!("{dim}:{v}")),
            None => return None,
        }
    }
    Some(matched)
}

/// The values at a dotted path; arrays met on the way are fanned out, and a
/// final array gives its elements.
fn resolve<'a>(v: &'a Value, path: &str) -> Vec<&'a Value> {
    let mut cur: Vec<&Value> = vec![v];
    for seg in path.split('.').filter(|s| !s.is_empty()) {
        let mut next = Vec::new();
        for c in cur {
            match c {
                Value::Object(m) => {
                    if let Some(x) = m.get(seg) {
                        next.push(x);
                    }
                }
                Value::Array(a) => match seg.parse::<usize>() {
                    Ok(i) => next.extend(a.get(i)),
                    Err(_) => next.extend(a.iter().filter_map(|e| e.get(seg))),
                },
                _ => {}
            }
        }
        cur = next;
    }
    cur.into_iter()
        .flat_map(|v| match v {
            Value::Array(a) => a.iter().collect::<Vec<_>>(),
            other => vec![other],
        })
        .collect()
}

fn as_number(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s
            .trim()
            .trim_start_matches(['$', '€', '£'])
            .replace(',', "")
            .parse()
            .ok(),
        _ => None,
    }
}

fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => crate::transcript::compact_json(other),
    }
}

fn list_of(v: &Value) -> Vec<String> {
    match v {
        Value::Array(a) => a.iter().map(scalar_text).collect(),
        other => vec![scalar_text(other)],
    }
}

/// The domain of an address (`Name <a@b.example>`, `a@b.example`) or a bare
/// domain, lowercased.
pub fn email_domain(s: &str) -> Option<String> {
    let s = s.trim();
    let addr = match (s.rfind('<'), s.rfind('>')) {
        (Some(a), Some(b)) if a < b => &s[a + 1..b],
        _ => s,
    };
    let domain = match addr.rsplit_once('@') {
        Some((_, d)) => d,
        None if addr.contains('.') && !addr.contains(' ') => addr,
        None => return None,
    };
    let d = domain.trim().trim_end_matches('.').to_ascii_lowercase();
    (!d.is_empty()).then_some(d)
}

pub fn domain_allowed(domain: &str, allowed: &[String]) -> bool {
    allowed.iter().any(|a| {
        let a = a.trim().trim_start_matches('@').to_ascii_lowercase();
        domain == a || domain.ends_with(&format!(".{a}"))
    })
}

/// Why the condition fires on these arguments, or `None`.
fn fires(c: &ArgCondition, args: &Value) -> Option<String> {
    let values = resolve(args, &c.field);
    if values.is_empty() {
        return c
            .required
            .then(|| format!("`{}` is missing; the condition requires it", c.field));
    }
    for v in values {
        let text = scalar_text(v);
        let fired = match c.op {
            Op::NotInDomain => match email_domain(&text) {
                Some(d) => !domain_allowed(&d, &list_of(&c.value)),
                None => true,
            },
            Op::Gt | Op::Ge | Op::Lt | Op::Le => {
                let limit = c.value.as_f64().unwrap_or(f64::NAN);
                match as_number(v) {
                    // A value that is not a number cannot be shown safe.
                    None => true,
                    Some(x) => match c.op {
                        Op::Gt => x > limit,
                        Op::Ge => x >= limit,
                        Op::Lt => x < limit,
                        _ => x <= limit,
                    },
                }
            }
            Op::NotIn | Op::In => {
                let listed = list_of(&c.value)
                    .iter()
                    .any(|l| l.eq_ignore_ascii_case(&text));
                (c.op == Op::NotIn) != listed
            }
            Op::Matches => regex::Regex::new(c.value.as_str().unwrap_or(""))
                .map(|re| re.is_match(&text))
                .unwrap_or(true),
        };
        if fired {
            return Some(format!(
                "`{}` = {} {} {}",
                c.field,
                crate::transcript::compact_json(v),
                c.op.as_str(),
                crate::transcript::compact_json(&c.value)
            ));
        }
    }
    None
}

/// Tool calls from any of the accepted inputs:
/// - a single call object `{"name": .., "arguments"|"args"|"input": ..}`
///   (optionally `id`, `scope`), or an OpenAI `{"function": {..}}` call;
/// - a JSON array of such objects;
/// - a request in any of the three formats (every tool call in it);
/// - JSON lines of recorded tool events (`tool_name`, `args`,
///   `tool_call_id`, as in a reference run's `run/tools.jsonl`).
pub fn calls_from_json(bytes: &[u8], source: &Source) -> Result<Vec<ToolCall>, InputError> {
    let text = String::from_utf8_lossy(bytes);
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v) => {
            if let Some(c) = call_from_value(&v) {
                return Ok(vec![c]);
            }
            if let Value::Array(items) = &v {
                let calls: Vec<ToolCall> = items.iter().filter_map(call_from_value).collect();
                if !items.is_empty() && calls.len() == items.len() {
                    return Ok(calls);
                }
            }
            let t = crate::formats::parse_value(&v, source)?;
            Ok(calls_from_transcript(&t))
        }
        Err(first_err) => {
            // JSON lines.
            let mut calls = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let v: Value =
                    serde_json::from_str(line).map_err(|e| InputError::MalformedJson {
                        file: source.clone(),
                        line: i + 1,
                        column: e.column(),
                        message: e.to_string(),
                    })?;
                if let Some(c) = call_from_value(&v) {
                    calls.push(c);
                }
            }
            if calls.is_empty() {
                return Err(InputError::MalformedJson {
                    file: source.clone(),
                    line: first_err.line(),
                    column: first_err.column(),
                    message: first_err.to_string(),
                });
            }
            Ok(calls)
        }
    }
}

fn call_from_value(v: &Value) -> Option<ToolCall> {
    let obj = v.as_object()?;
    if obj.contains_key("messages") {
        return None;
    }
    let (name, args, id) = if let Some(f) = obj.get("function").and_then(Value::as_object) {
        (
            f.get("name")?.as_str()?,
            f.get("arguments").cloned().unwrap_or(Value::Null),
            obj.get("id"),
        )
    } else {
        let name = obj
            .get("name")
            .or_else(|| obj.get("tool_name"))
            .and_then(Value::as_str)?;
        let args = ["arguments", "args", "input"]
            .iter()
            .find_map(|k| obj.get(*k))
            .cloned()
            .unwrap_or(Value::Null);
        (
            name,
            args,
            obj.get("id").or_else(|| obj.get("tool_call_id")),
        )
    };
    let scope = obj
        .get("scope")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    Some(ToolCall {
        id: id.and_then(Value::as_str).map(str::to_string),
        name: name.to_string(),
        args: tool_args(args),
        scope,
    })
}

/// Every tool call of a transcript, in order.
pub fn calls_from_transcript(t: &Transcript) -> Vec<ToolCall> {
    t.messages
        .iter()
        .flat_map(|m| m.parts.iter())
        .filter_map(|p| match &p.part {
            Part::ToolCall { id, name, args } => Some(ToolCall {
                id: Some(id.clone()),
                name: name.clone(),
                args: tool_args(args.clone()),
                scope: Vec::new(),
            }),
            _ => None,
        })
        .collect()
}
