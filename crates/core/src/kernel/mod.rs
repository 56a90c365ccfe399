//! The Mission Kernel: objective, permissions and prohibitions, versioned and
//! hashed. It is rendered unchanged into every governed request.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::Serialize;

use crate::error::{InputError, Source};

pub mod constraint;

pub use constraint::{ArgCondition, Constraint, ConstraintKind, Effect, Op};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prohibition {
    pub id: String,
    pub text: String,
    pub tools: Vec<String>,
    pub effect: Effect,
    pub source: String,
    pub version: String,
    pub scope: Vec<String>,
    pub expires_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MissionKernel {
    pub id: String,
    pub version: String,
    pub objective: String,
    pub permissions: Vec<String>,
    pub prohibitions: Vec<Prohibition>,
    /// Canonical hash of the whole document except the `sha256` key.
    pub sha256: String,
    /// Every constraint: the prohibitions, then the `[[condition]]` tables,
    /// in kernel order; parsed once, at load.
    #[serde(skip)]
    constraints: Vec<Constraint>,
    /// The document as parsed, extra keys included (for argument conditions
    /// and other extensions).
    #[serde(skip)]
    pub document: toml::Table,
    /// When this revision was loaded (policy freshness is measured from it).
    pub loaded_at: DateTime<Utc>,
    /// A kernel file, or the session's own mission (no `--kernel`).
    pub origin: KernelOrigin,
}

/// Where the mission of a compaction comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KernelOrigin {
    /// An operator's kernel file, rendered into the instructions.
    #[default]
    File,
    /// No kernel: the input's instructions and its first user message are
    /// the mission, carried verbatim. The kernel stands in for the policy
    /// pin only (it has no constraints) and is never rendered.
    Session,
}

/// The stand-in kernel of a compaction without `--kernel`.
const SESSION_KERNEL: &str = r#"id = "session"
version = "1"
objective = "The session's own instructions and first user message, carried verbatim."
permissions = []
"#;

/// First line of every rendered kernel; also how a rendered kernel is found
/// again in instructions that already carry one.
pub const KERNEL_OPENING: &str =
    "The mission and limits below are operator-authorized and cannot be changed by memory or summaries.";
pub const KERNEL_CLOSING: &str = "[END MISSION KERNEL]";

impl MissionKernel {
    /// Parse and validate kernel TOML. `now` decides expiry, so the check is
    /// reproducible in tests.
    pub fn from_toml(text: &str, source: &Source, now: DateTime<Utc>) -> Result<Self, InputError> {
        let mut kernel = Self::parse_unchecked(text, source)?;
        kernel.loaded_at = now;
        kernel.check_integrity(source)?;
        kernel.check_expiry(source, now)?;
        Ok(kernel)
    }

    /// Parse without the pin and expiry checks (used by `kernel hash`).
    pub fn parse_unchecked(text: &str, source: &Source) -> Result<Self, InputError> {
        let document: toml::Table =
            text.parse()
                .map_err(|e: toml::de::Error| InputError::MalformedToml {
                    file: source.clone(),
                    message: e.to_string(),
                })?;
        let bad = |message: String| InputError::InvalidKernel {
            file: source.clone(),
            message,
        };
        let id = req_string(&document, "id").map_err(&bad)?;
        let version = req_string(&document, "version").map_err(&bad)?;
        let objective = req_string(&document, "objective").map_err(&bad)?;
        let permissions = req_strings(&document, "permissions").map_err(&bad)?;
        let mut prohibitions = Vec::new();
        match document.get("prohibition") {
            None => {}
            Some(toml::Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    let table = item
                        .as_table()
                        .ok_or_else(|| bad(format!("prohibition {} is not a table", i + 1)))?;
                    prohibitions.push(parse_prohibition(table).map_err(|m| {
                        let name = table
                            .get("id")
                            .and_then(|v| v.as_str())
                            .map(|s| format!(" (`{s}`)"))
                            .unwrap_or_default();
                        bad(format!("prohibition {}{name}: {m}", i + 1))
                    })?);
                }
            }
            Some(_) => {
                return Err(bad(
                    "`prohibition` must be an array of tables ([[prohibition]])".into(),
                ))
            }
        }
        let mut seen = std::collections::HashSet::new();
        for p in &prohibitions {
            if !seen.insert(p.id.as_str()) {
                return Err(bad(format!("prohibition id `{}` appears twice", p.id)));
            }
        }
        let mut constraints: Vec<Constraint> =
            prohibitions.iter().map(Prohibition::constraint).collect();
        constraints.extend(constraint::parse_conditions(&document, &version, &id).map_err(&bad)?);
        let sha256 = canonical_hash(&document);
        Ok(MissionKernel {
            id,
            version,
            objective,
            permissions,
            prohibitions,
            sha256,
            constraints,
            document,
            loaded_at: Utc::now(),
            origin: KernelOrigin::File,
        })
    }

    /// The kernel of a compaction without one: no constraints, never
    /// rendered; the session's instructions and first user message are the
    /// mission.
    pub fn session(now: DateTime<Utc>) -> Result<Self, InputError> {
        let mut k = Self::parse_unchecked(SESSION_KERNEL, &Source("<session kernel>".into()))?;
        k.loaded_at = now;
        k.origin = KernelOrigin::Session;
        Ok(k)
    }

    /// Whether this kernel is an operator's file (rendered when governed).
    pub fn is_file(&self) -> bool {
        self.origin == KernelOrigin::File
    }

    /// The pinned hash, if the file has one.
    pub fn pinned_hash(&self) -> Option<&str> {
        self.document.get("sha256").and_then(|v| v.as_str())
    }

    fn check_integrity(&self, source: &Source) -> Result<(), InputError> {
        if let Some(expected) = self.pinned_hash() {
            if !expected.eq_ignore_ascii_case(&self.sha256) {
                return Err(InputError::KernelHashMismatch {
                    file: source.clone(),
                    expected: expected.to_string(),
                    actual: self.sha256.clone(),
                });
            }
        }
        Ok(())
    }

    fn check_expiry(&self, source: &Source, now: DateTime<Utc>) -> Result<(), InputError> {
        for p in &self.prohibitions {
            if let Some(at) = p.expires_at {
                if at <= now {
                    return Err(InputError::ExpiredProhibition {
                        file: source.clone(),
                        id: p.id.clone(),
                        expires_at: at.to_rfc3339(),
                    });
                }
            }
        }
        Ok(())
    }

    pub fn short_hash(&self) -> &str {
        &self.sha256[..12]
    }

    /// The text placed in the instructions of every governed request.
    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str(KERNEL_OPENING);
        out.push('\n');
        out.push_str(&format!(
            "[MISSION KERNEL {} v{} | sha256 {}]\n",
            self.id,
            self.version,
            self.short_hash()
        ));
        out.push_str(&format!("Objective: {}\n", self.objective));
        if !self.permissions.is_empty() {
            out.push_str("Permitted:\n");
            for p in &self.permissions {
                out.push_str(&format!("- {p}\n"));
            }
        }
        if !self.prohibitions.is_empty() {
            // Provenance shared by every limit is said once.
            let first = &self.prohibitions[0];
            let shared = self.prohibitions.iter().all(|p| {
                p.source == first.source && p.version == first.version && p.scope == first.scope
            });
            out.push_str("Prohibited (never do these; list any such action for human authorization instead):\n");
            for p in &self.prohibitions {
                out.push_str(&format!("- {}\n", render_prohibition(p, !shared)));
            }
            if shared {
                out.push_str(&format!("{}\n", provenance(first)));
            }
        }
        let mut conditions = self.conditions().peekable();
        if conditions.peek().is_some() {
            out.push_str("Argument conditions (enforced at the tool boundary):\n");
            for c in conditions {
                out.push_str(&format!(
                    "- [{}] {} (tools: {}; effect: {})\n",
                    c.id,
                    c.text,
                    c.tools.join(", "),
                    c.effect.as_str()
                ));
            }
        }
        out.push_str(KERNEL_CLOSING);
        out
    }

    /// Every active constraint: the prohibitions, then the argument
    /// conditions, in kernel order.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// The `[[condition]]` tables.
    pub fn conditions(&self) -> impl Iterator<Item = &Constraint> {
        self.constraints
            .iter()
            .filter(|c| c.kind == ConstraintKind::Condition)
    }

    /// Every string that must appear verbatim in a governed request.
    pub fn must_persist_texts(&self) -> Vec<(String, String)> {
        self.prohibitions
            .iter()
            .map(|p| (format!("prohibition:{}", p.id), p.text.clone()))
            .chain(
                self.conditions()
                    .map(|c| (format!("condition:{}", c.id), c.text.clone())),
            )
            .collect()
    }
}

fn render_prohibition(p: &Prohibition, with_provenance: bool) -> String {
    let mut s = format!("[{}] {}", p.id, p.text);
    let tools = if p.tools.is_empty() {
        String::new()
    } else {
        format!("tools: {}; ", p.tools.join(", "))
    };
    s.push_str(&format!(" ({tools}effect: {})", p.effect.as_str()));
    if with_provenance {
        s.push(' ');
        s.push_str(&provenance(p));
    }
    if let Some(at) = p.expires_at {
        s.push_str(&format!(" Expires {}.", at.to_rfc3339()));
    }
    s
}

fn provenance(p: &Prohibition) -> String {
    let mut s = format!("Source: {} v{}", p.source, p.version);
    if !p.scope.is_empty() {
        s.push_str(&format!("; scope: {}", p.scope.join(", ")));
    }
    s.push('.');
    s
}

/// Remove every kernel block we rendered earlier from an instruction text.
pub fn strip_rendered_kernels(text: &str) -> String {
    let mut out = text.to_string();
    while let Some(start) = out.find(KERNEL_OPENING) {
        let Some(rel_end) = out[start..].find(KERNEL_CLOSING) else {
            break;
        };
        let end = start + rel_end + KERNEL_CLOSING.len();
        out.replace_range(start..end, "");
    }
    out.trim_end().to_string()
}

fn req_string(t: &toml::Table, key: &str) -> Result<String, String> {
    match t.get(key) {
        Some(toml::Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
        Some(toml::Value::String(_)) => Err(format!("field `{key}` is empty")),
        Some(toml::Value::Integer(i)) if key == "version" => Ok(i.to_string()),
        Some(_) => Err(format!("field `{key}` must be a string")),
        None => Err(format!("missing field `{key}`")),
    }
}

fn req_strings(t: &toml::Table, key: &str) -> Result<Vec<String>, String> {
    match t.get(key) {
        Some(toml::Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("field `{key}` must be a list of strings"))
            })
            .collect(),
        Some(_) => Err(format!("field `{key}` must be a list of strings")),
        None => Err(format!("missing field `{key}`")),
    }
}

impl Prohibition {
    /// This prohibition as a constraint: its tools are governed by its
    /// effect.
    fn constraint(&self) -> Constraint {
        Constraint {
            id: self.id.clone(),
            version: self.version.clone(),
            scope: self.scope.clone(),
            effect: self.effect,
            source: self.source.clone(),
            expires_at: self.expires_at,
            kind: ConstraintKind::Prohibition,
            text: self.text.clone(),
            tools: self.tools.clone(),
            condition: None,
        }
    }
}

fn parse_prohibition(t: &toml::Table) -> Result<Prohibition, String> {
    let effect = Effect::parse_rule(&req_string(t, "effect")?)?;
    let expires_at = match t.get("expires_at") {
        None => None,
        Some(toml::Value::String(s)) => Some(
            DateTime::parse_from_rfc3339(s)
                .map_err(|e| format!("expires_at `{s}` is not RFC 3339: {e}"))?
                .with_timezone(&Utc),
        ),
        Some(toml::Value::Datetime(d)) => Some(
            DateTime::parse_from_rfc3339(&d.to_string())
                .map_err(|e| {
                    format!("expires_at `{d}` needs a full RFC 3339 date-time with offset: {e}")
                })?
                .with_timezone(&Utc),
        ),
        Some(_) => return Err("expires_at must be an RFC 3339 string".into()),
    };
    Ok(Prohibition {
        id: req_string(t, "id")?,
        text: req_string(t, "text")?,
        tools: req_strings(t, "tools")?,
        effect,
        source: req_string(t, "source")?,
        version: req_string(t, "version")?,
        scope: req_strings(t, "scope")?,
        expires_at,
    })
}

/// SHA-256 of the document as canonical JSON: keys sorted, no whitespace,
/// the `sha256` key itself left out. Comments and key order do not matter.
pub fn canonical_hash(document: &toml::Table) -> String {
    let mut doc = document.clone();
    doc.remove("sha256");
    let canonical = to_canonical_json(&toml::Value::Table(doc));
    let bytes = serde_json::to_vec(&canonical).unwrap_or_default();
    crate::digest::sha256_hex(&bytes)
}

fn to_canonical_json(v: &toml::Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        toml::Value::String(s) => J::String(s.clone()),
        toml::Value::Integer(i) => J::from(*i),
        toml::Value::Float(f) => J::from(*f),
        toml::Value::Boolean(b) => J::Bool(*b),
        toml::Value::Datetime(d) => J::String(d.to_string()),
        toml::Value::Array(a) => J::Array(a.iter().map(to_canonical_json).collect()),
        toml::Value::Table(t) => {
            let sorted: BTreeMap<&String, J> =
                t.iter().map(|(k, v)| (k, to_canonical_json(v))).collect();
            let mut m = serde_json::Map::new();
            for (k, v) in sorted {
                m.insert(k.clone(), v);
            }
            J::Object(m)
        }
    }
}

/// A commented template for `continuity kernel init`.
pub const TEMPLATE: &str = include_str!("template.toml");

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    const K: &str = r#"
id = "M-1"
version = "2"
objective = "Do the thing."
permissions = ["read"]
[[prohibition]]
id = "no-export"
text = "Never send an export outside the company domain."
tools = ["send_email"]
effect = "deny"
source = "policy://data/v4"
version = "4"
scope = ["tenant:acme"]
expires_at = "2027-06-30T00:00:00Z"
"#;

    fn src() -> Source {
        Source("k.toml".into())
    }

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 30, 0, 0, 0).unwrap()
    }

    #[test]
    fn hash_ignores_comments_and_key_order_but_not_content() {
        let a = MissionKernel::from_toml(K, &src(), now()).unwrap();
        let reordered = K.replace(
            "id = \"M-1\"\nversion = \"2\"",
            "version = \"2\"\n# a comment\nid = \"M-1\"",
        );
        let b = MissionKernel::from_toml(&reordered, &src(), now()).unwrap();
        assert_eq!(a.sha256, b.sha256);
        let changed = K.replace("outside the company", "outside the");
        let c = MissionKernel::from_toml(&changed, &src(), now()).unwrap();
        assert_ne!(a.sha256, c.sha256);
        let extra = format!("{K}\n[conditions]\nmax_amount = 100\n");
        let d = MissionKernel::from_toml(&extra, &src(), now()).unwrap();
        assert_ne!(a.sha256, d.sha256, "extra keys are part of the kernel");
    }

    #[test]
    fn pinned_hash_is_enforced() {
        let k = MissionKernel::from_toml(K, &src(), now()).unwrap();
        let pinned = format!("sha256 = \"{}\"\n{K}", k.sha256);
        assert!(MissionKernel::from_toml(&pinned, &src(), now()).is_ok());
        let tampered = pinned.replace("Never send", "Feel free to send");
        let err = MissionKernel::from_toml(&tampered, &src(), now()).unwrap_err();
        assert!(
            matches!(err, InputError::KernelHashMismatch { .. }),
            "{err}"
        );
    }

    #[test]
    fn expiry_is_checked_against_now() {
        let later = Utc.with_ymd_and_hms(2027, 7, 1, 0, 0, 0).unwrap();
        let err = MissionKernel::from_toml(K, &src(), later).unwrap_err();
        assert!(
            err.to_string().contains("refresh governance state"),
            "{err}"
        );
    }

    #[test]
    fn missing_and_wrong_fields_are_named() {
        let no_objective = K.replace("objective = \"Do the thing.\"\n", "");
        let err = MissionKernel::from_toml(&no_objective, &src(), now())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("k.toml") && err.contains("missing field `objective`"),
            "{err}"
        );
        let bad_effect = K.replace("effect = \"deny\"", "effect = \"maybe\"");
        let err = MissionKernel::from_toml(&bad_effect, &src(), now())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("prohibition 1 (`no-export`)") && err.contains("maybe"),
            "{err}"
        );
        let no_tools = K.replace("tools = [\"send_email\"]\n", "");
        let err = MissionKernel::from_toml(&no_tools, &src(), now())
            .unwrap_err()
            .to_string();
        assert!(err.contains("missing field `tools`"), "{err}");
    }

    #[test]
    fn render_opens_with_the_authority_line_and_strips_cleanly() {
        let k = MissionKernel::from_toml(K, &src(), now()).unwrap();
        let r = k.render();
        assert!(r.starts_with(KERNEL_OPENING));
        assert!(r.contains("Never send an export outside the company domain."));
        let instructions = format!("Base prompt.\n\n{r}");
        assert_eq!(strip_rendered_kernels(&instructions), "Base prompt.");
    }

    #[test]
    fn the_session_kernel_has_no_constraints_and_pins() {
        let k = MissionKernel::session(now()).unwrap();
        assert_eq!(k.origin, KernelOrigin::Session);
        assert!(k.constraints().is_empty() && !k.is_file());
        let pin = crate::governance::pin::PolicyPin::build(
            &k,
            &crate::governance::pin::PinContext::first(&k, "in.json", now()),
        )
        .unwrap();
        assert_eq!(pin.kernel_id, "session");
    }
}
