//! Policy pins: the governance state of a run, rebuilt and verified at every
//! compaction instead of being left to a summary.
//!
//! A [`PolicyPin`] lists every active [`Constraint`] of the kernel (its
//! prohibitions and argument conditions) with id, version, scope, effect,
//! source and expiry, plus `sha256`, the kernel's canonical hash recomputed
//! at rebuild time. [`verify_pin`] checks it against the expected hash (the
//! kernel's pinned `sha256` when it has one, else the hash computed when the
//! kernel was loaded) and fails closed on any mismatch or expired constraint.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{canonical_json, sha256_hex, Effect};
use crate::error::Source;
use crate::kernel::{canonical_hash, MissionKernel};

/// Where a constraint comes from in the kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConstraintKind {
    /// A `[[prohibition]]`: the listed tools are governed by its effect.
    Prohibition,
    /// A `[[condition]]`: an argument test on one tool's calls.
    Condition,
}

/// The comparison of an argument condition. The condition *fires* (its
/// effect applies) when the test is true.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// An e-mail address (or bare domain) whose domain is not one of the
    /// listed domains or a subdomain of one.
    NotInDomain,
    Gt,
    Ge,
    Lt,
    Le,
    /// The value is not one of the listed values.
    NotIn,
    /// The value is one of the listed values.
    In,
    /// The value matches the regular expression.
    Matches,
}

impl Op {
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "not_in_domain" => Op::NotInDomain,
            "gt" => Op::Gt,
            "ge" => Op::Ge,
            "lt" => Op::Lt,
            "le" => Op::Le,
            "not_in" => Op::NotIn,
            "in" => Op::In,
            "matches" => Op::Matches,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Op::NotInDomain => "not_in_domain",
            Op::Gt => "gt",
            Op::Ge => "ge",
            Op::Lt => "lt",
            Op::Le => "le",
            Op::NotIn => "not_in",
            Op::In => "in",
            Op::Matches => "matches",
        }
    }
}

/// The argument test of a `[[condition]]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArgCondition {
    /// Dotted path into the call's arguments (`to`, `payment.amount`,
    /// `recipients.0`); arrays met on the way are fanned out.
    pub field: String,
    pub op: Op,
    pub value: Value,
    /// When true a call without the field fires the condition (fail closed);
    /// by default a missing field does not.
    #[serde(default)]
    pub required: bool,
}

/// One active rule, in the seed's shape (`id`, `version`, `scope`, `effect`,
/// `source`, `expires_at`) plus what preflight needs to enforce it from the
/// pin alone (`kind`, `text`, `tools`, `condition`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Constraint {
    pub id: String,
    pub version: String,
    pub scope: Vec<String>,
    pub effect: Effect,
    pub source: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<DateTime<Utc>>,
    pub kind: ConstraintKind,
    pub text: String,
    pub tools: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<ArgCondition>,
}

/// Parse the kernel's `[[condition]]` tables. Called at kernel load, so a
/// kernel with a malformed condition never loads.
pub fn parse_conditions(
    document: &toml::Table,
    kernel_version: &str,
    kernel_id: &str,
) -> Result<Vec<Constraint>, String> {
    let items = match document.get("condition") {
        None => return Ok(Vec::new()),
        Some(toml::Value::Array(items)) => items,
        Some(_) => return Err("`condition` must be an array of tables ([[condition]])".into()),
    };
    let mut out: Vec<Constraint> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let t = item
            .as_table()
            .ok_or_else(|| format!("condition {} is not a table", i + 1))?;
        let c = parse_condition(t, kernel_version, kernel_id).map_err(|m| {
            let name = t
                .get("id")
                .and_then(|v| v.as_str())
                .map(|s| format!(" (`{s}`)"))
                .unwrap_or_default();
            format!("condition {}{name}: {m}", i + 1)
        })?;
        if out.iter().any(|o| o.id == c.id) {
            return Err(format!("condition id `{}` appears twice", c.id));
        }
        out.push(c);
    }
    Ok(out)
}

fn str_field(t: &toml::Table, key: &str) -> Result<Option<String>, String> {
    match t.get(key) {
        None => Ok(None),
        Some(toml::Value::String(s)) if !s.trim().is_empty() => Ok(Some(s.clone())),
        Some(toml::Value::Integer(i)) if key == "version" => Ok(Some(i.to_string())),
        Some(_) => Err(format!("field `{key}` must be a non-empty string")),
    }
}

fn strings_field(t: &toml::Table, key: &str) -> Result<Option<Vec<String>>, String> {
    match t.get(key) {
        None => Ok(None),
        Some(toml::Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("field `{key}` must be a list of strings"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(format!("field `{key}` must be a list of strings")),
    }
}

pub(crate) fn toml_to_json(v: &toml::Value) -> Value {
    match v {
        toml::Value::String(s) => Value::String(s.clone()),
        toml::Value::Integer(i) => Value::from(*i),
        toml::Value::Float(f) => Value::from(*f),
        toml::Value::Boolean(b) => Value::Bool(*b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(a) => Value::Array(a.iter().map(toml_to_json).collect()),
        toml::Value::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.clone(), toml_to_json(v)))
                .collect(),
        ),
    }
}

fn parse_condition(
    t: &toml::Table,
    kernel_version: &str,
    kernel_id: &str,
) -> Result<Constraint, String> {
    let id = str_field(t, "id")?.ok_or("missing field `id`")?;
    let mut tools = strings_field(t, "tools")?.unwrap_or_default();
    if let Some(tool) = str_field(t, "tool")? {
        tools.insert(0, tool);
    }
    if tools.is_empty() {
        return Err("missing field `tool` (or `tools`)".into());
    }
    let field = str_field(t, "field")?.ok_or("missing field `field`")?;
    let op_text = str_field(t, "op")?.ok_or("missing field `op`")?;
    let op = Op::parse(&op_text).ok_or_else(|| {
        format!("op `{op_text}` must be one of not_in_domain, gt, ge, lt, le, not_in, in, matches")
    })?;
    let value = toml_to_json(t.get("value").ok_or("missing field `value`")?);
    match op {
        Op::Gt | Op::Ge | Op::Lt | Op::Le => {
            if !value.is_number() {
                return Err(format!("op `{op_text}` needs a number `value`"));
            }
        }
        Op::NotIn | Op::In | Op::NotInDomain => {
            let ok = value.is_string()
                || value
                    .as_array()
                    .is_some_and(|a| a.iter().all(|v| v.is_string() || v.is_number()));
            if !ok {
                return Err(format!(
                    "op `{op_text}` needs a string or a list of strings as `value`"
                ));
            }
        }
        Op::Matches => {
            let re = value
                .as_str()
                .ok_or("op `matches` needs a regex string `value`")?;
            regex::Regex::new(re).map_err(|e| format!("value is not a valid regex: {e}"))?;
        }
    }
    let effect_text = str_field(t, "effect")?.ok_or("missing field `effect`")?;
    let effect = match Effect::parse(&effect_text) {
        Some(Effect::Allow) | None => {
            return Err(format!(
                "effect `{effect_text}` must be one of deny, require_approval, escalate"
            ))
        }
        Some(e) => e,
    };
    let required = match t.get("required") {
        None => false,
        Some(toml::Value::Boolean(b)) => *b,
        Some(_) => return Err("field `required` must be true or false".into()),
    };
    let expires_at = match str_field(t, "expires_at").ok().flatten().or_else(|| {
        t.get("expires_at")
            .and_then(|v| v.as_datetime())
            .map(|d| d.to_string())
    }) {
        None => None,
        Some(s) => Some(
            DateTime::parse_from_rfc3339(&s)
                .map_err(|e| format!("expires_at `{s}` is not RFC 3339: {e}"))?
                .with_timezone(&Utc),
        ),
    };
    let text = match str_field(t, "text")? {
        Some(s) => s,
        None => format!(
            "{} calls where `{field}` {} {}: {}.",
            tools.join("/"),
            op.as_str(),
            crate::transcript::compact_json(&value),
            effect.as_str()
        ),
    };
    Ok(Constraint {
        id,
        version: str_field(t, "version")?.unwrap_or_else(|| kernel_version.to_string()),
        scope: strings_field(t, "scope")?.unwrap_or_default(),
        effect,
        source: str_field(t, "source")?.unwrap_or_else(|| format!("kernel://{kernel_id}")),
        expires_at,
        kind: ConstraintKind::Condition,
        text,
        tools,
        condition: Some(ArgCondition {
            field,
            op,
            value,
            required,
        }),
    })
}

/// Every active constraint of a kernel: its prohibitions, then its
/// argument conditions, in kernel order.
pub fn constraints_of(kernel: &MissionKernel) -> Result<Vec<Constraint>, String> {
    let mut out: Vec<Constraint> = kernel
        .prohibitions
        .iter()
        .map(|p| Constraint {
            id: p.id.clone(),
            version: p.version.clone(),
            scope: p.scope.clone(),
            effect: p.effect.into(),
            source: p.source.clone(),
            expires_at: p.expires_at,
            kind: ConstraintKind::Prohibition,
            text: p.text.clone(),
            tools: p.tools.clone(),
            condition: None,
        })
        .collect();
    out.extend(parse_conditions(
        &kernel.document,
        &kernel.version,
        &kernel.id,
    )?);
    Ok(out)
}

/// The pinned governance state of one rebuild.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PolicyPin {
    pub run_id: String,
    /// 1 for the first rebuild of a run, then +1 per rebuild.
    pub sequence: u64,
    pub kernel_id: String,
    pub kernel_version: String,
    pub constraints: Vec<Constraint>,
    /// The policy bundle hash: the kernel's canonical sha256, recomputed from
    /// the kernel document when the pin is built.
    pub sha256: String,
    /// When the policy revision in force was loaded.
    pub policy_loaded_at: DateTime<Utc>,
    pub pinned_at: DateTime<Utc>,
    /// SHA-256 of the canonical JSON of every other field: a pin edited after
    /// it was written no longer verifies.
    pub seal: String,
}

impl PolicyPin {
    fn compute_seal(&self) -> String {
        let mut v = serde_json::to_value(self).unwrap_or(Value::Null);
        if let Some(m) = v.as_object_mut() {
            m.remove("seal");
        }
        sha256_hex(canonical_json(&v).as_bytes())
    }

    pub fn seal_ok(&self) -> bool {
        self.seal == self.compute_seal()
    }

    /// Parse a pin written by [`PolicyPin::to_json`].
    pub fn from_json(bytes: &[u8]) -> Result<Self, PinError> {
        serde_json::from_slice(bytes).map_err(|e| PinError::Invalid(e.to_string()))
    }

    pub fn to_json(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(self).unwrap_or_default();
        out.push(b'\n');
        out
    }

    /// Build the pin for one rebuild. Fails when the kernel in memory no
    /// longer matches the document it was hashed from.
    pub fn build(kernel: &MissionKernel, ctx: &PinContext) -> Result<Self, PinError> {
        let sha256 = canonical_hash(&kernel.document);
        // The typed prohibitions must be exactly those of the hashed document.
        let text =
            toml::to_string(&kernel.document).map_err(|e| PinError::Invalid(e.to_string()))?;
        let reparsed = MissionKernel::parse_unchecked(&text, &Source("<kernel in memory>".into()))
            .map_err(|e| PinError::Invalid(e.to_string()))?;
        if reparsed.prohibitions != kernel.prohibitions
            || reparsed.id != kernel.id
            || reparsed.version != kernel.version
        {
            return Err(PinError::Integrity {
                expected: expected_hash(kernel).to_string(),
                actual: format!("{sha256} (typed prohibitions differ from the hashed document)"),
            });
        }
        let constraints = constraints_of(kernel).map_err(PinError::Invalid)?;
        let mut pin = PolicyPin {
            run_id: ctx.run_id.clone(),
            sequence: ctx.sequence,
            kernel_id: kernel.id.clone(),
            kernel_version: kernel.version.clone(),
            constraints,
            sha256,
            policy_loaded_at: kernel.loaded_at,
            pinned_at: ctx.now,
            seal: String::new(),
        };
        pin.seal = pin.compute_seal();
        Ok(pin)
    }
}

/// The hash a pin must carry: the kernel's pinned `sha256` when present,
/// else the hash computed when the kernel was loaded.
pub fn expected_hash(kernel: &MissionKernel) -> &str {
    kernel.pinned_hash().unwrap_or(&kernel.sha256)
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PinError {
    #[error("policy pin integrity failure: expected sha256 {expected} but the pinned policy hashes to {actual}; stop before tool execution")]
    Integrity { expected: String, actual: String },
    #[error("policy pin expired: constraint `{id}` expired at {expires_at}; refresh governance state (issue a new kernel version) before releasing the request")]
    Expired { id: String, expires_at: String },
    #[error("policy pin seal mismatch: the pin was altered after it was written; stop before tool execution")]
    Seal,
    #[error("policy pin invalid: {0}")]
    Invalid(String),
}

/// Check a pin before anything it governs is released.
pub fn verify_pin(pin: &PolicyPin, expected: &str, now: DateTime<Utc>) -> Result<(), PinError> {
    if !pin.seal_ok() {
        return Err(PinError::Seal);
    }
    if !pin.sha256.eq_ignore_ascii_case(expected) {
        return Err(PinError::Integrity {
            expected: expected.to_string(),
            actual: pin.sha256.clone(),
        });
    }
    for c in &pin.constraints {
        if let Some(at) = c.expires_at {
            if at <= now {
                return Err(PinError::Expired {
                    id: c.id.clone(),
                    expires_at: at.to_rfc3339(),
                });
            }
        }
    }
    Ok(())
}

/// Run identity and clock for one rebuild.
#[derive(Debug, Clone, PartialEq)]
pub struct PinContext {
    pub run_id: String,
    pub sequence: u64,
    pub now: DateTime<Utc>,
    /// The pin of the previous rebuild of this run, when there was one.
    pub previous: Option<PolicyPin>,
}

impl PinContext {
    /// A first rebuild. The default run id is derived from the kernel and the
    /// input name, so the same input under the same kernel gets the same id.
    pub fn first(kernel: &MissionKernel, input_name: &str, now: DateTime<Utc>) -> Self {
        let digest = sha256_hex(format!("{}\n{}", kernel.id, input_name).as_bytes());
        PinContext {
            run_id: format!("run_{}", &digest[..12]),
            sequence: 1,
            now,
            previous: None,
        }
    }

    /// The rebuild after `previous`: same run id unless one is given, next
    /// sequence. A previous pin that fails its seal is refused.
    pub fn after(
        previous: PolicyPin,
        run_id: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Self, PinError> {
        if !previous.seal_ok() {
            return Err(PinError::Seal);
        }
        let same_run = run_id.is_none_or(|r| r == previous.run_id);
        Ok(PinContext {
            run_id: run_id
                .map(str::to_string)
                .unwrap_or_else(|| previous.run_id.clone()),
            sequence: if same_run { previous.sequence + 1 } else { 1 },
            now,
            previous: same_run.then_some(previous),
        })
    }
}

/// What the report says about governance.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GovernanceReport {
    pub run_id: String,
    pub sequence: u64,
    pub sha256: String,
    pub constraints: usize,
    pub verified: bool,
    pub policy_loaded_at: String,
    /// Seconds since the policy revision in force was loaded, at release.
    pub policy_freshness_s: f64,
    /// The previous rebuild's policy hash, when this run had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_sha256: Option<String>,
    /// The policy revision changed since the previous rebuild (rehydrated).
    pub policy_changed: bool,
    /// Summary sentences withheld because they conflict with the kernel.
    pub directives_rejected: usize,
}

/// Build and verify the pin of one rebuild; the report entry comes with it.
pub fn seal_for_release(
    kernel: &MissionKernel,
    ctx: &PinContext,
) -> Result<(PolicyPin, GovernanceReport), PinError> {
    let pin = PolicyPin::build(kernel, ctx)?;
    verify_pin(&pin, expected_hash(kernel), ctx.now)?;
    let freshness = (ctx.now - kernel.loaded_at).num_milliseconds().max(0) as f64 / 1000.0;
    let previous_sha256 = ctx.previous.as_ref().map(|p| p.sha256.clone());
    let report = GovernanceReport {
        run_id: pin.run_id.clone(),
        sequence: pin.sequence,
        sha256: pin.sha256.clone(),
        constraints: pin.constraints.len(),
        verified: true,
        policy_loaded_at: kernel.loaded_at.to_rfc3339(),
        policy_freshness_s: freshness,
        policy_changed: previous_sha256.as_deref().is_some_and(|p| p != pin.sha256),
        previous_sha256,
        directives_rejected: 0,
    };
    Ok((pin, report))
}
