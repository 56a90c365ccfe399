//! The kernel's constraints: its prohibitions and argument conditions in
//! one shape (id, version, scope, effect, source, expiry), parsed once when
//! the kernel loads. Policy pins, preflight and memory all read these.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a rule does to a tool call, and what preflight decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    // Declared in increasing severity: the most severe matching rule decides.
    Allow,
    RequireApproval,
    Escalate,
    Deny,
}

impl Effect {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "allow" => Some(Effect::Allow),
            "deny" => Some(Effect::Deny),
            "require_approval" => Some(Effect::RequireApproval),
            "escalate" => Some(Effect::Escalate),
            _ => None,
        }
    }

    /// The effect of a kernel rule: anything but `allow`.
    pub fn parse_rule(s: &str) -> Result<Self, String> {
        match Effect::parse(s) {
            Some(Effect::Allow) | None => Err(format!(
                "effect `{s}` must be one of deny, require_approval, escalate"
            )),
            Some(e) => Ok(e),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Allow => "allow",
            Effect::Deny => "deny",
            Effect::RequireApproval => "require_approval",
            Effect::Escalate => "escalate",
        }
    }
}

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

pub fn toml_to_json(v: &toml::Value) -> Value {
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

/// The `value` a condition's op can compare with.
fn check_value(op: Op, value: &Value) -> Result<(), String> {
    let op_text = op.as_str();
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
    Ok(())
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
    check_value(op, &value)?;
    let effect_text = str_field(t, "effect")?.ok_or("missing field `effect`")?;
    let effect = Effect::parse_rule(&effect_text)?;
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
            serde_json::to_string(&value).unwrap_or_default(),
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
