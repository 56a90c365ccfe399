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

use crate::digest::{canonical_json, sha256_hex};
pub use crate::error::PinError;
use crate::error::Source;
use crate::kernel::constraint::Constraint;
use crate::kernel::{canonical_hash, MissionKernel};
use crate::redact::carry::WithheldCarry;

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
    /// The values withheld so far in the run, as keyed hashes with the
    /// run's salt: the next compaction withholds them again. Absent from
    /// pins written before it existed, whose seals still verify.
    #[serde(default, skip_serializing_if = "WithheldCarry::is_empty")]
    pub withheld: WithheldCarry,
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
            || reparsed.constraints() != kernel.constraints()
            || reparsed.id != kernel.id
            || reparsed.version != kernel.version
        {
            return Err(PinError::Integrity {
                expected: expected_hash(kernel).to_string(),
                actual: format!("{sha256} (typed prohibitions differ from the hashed document)"),
            });
        }
        let constraints = kernel.constraints().to_vec();
        let mut pin = PolicyPin {
            run_id: ctx.run_id.clone(),
            sequence: ctx.sequence,
            kernel_id: kernel.id.clone(),
            kernel_version: kernel.version.clone(),
            constraints,
            sha256,
            policy_loaded_at: kernel.loaded_at,
            pinned_at: ctx.now,
            withheld: WithheldCarry::default(),
            seal: String::new(),
        };
        pin.seal = pin.compute_seal();
        Ok(pin)
    }
}

impl PolicyPin {
    /// The pin with the run's withheld values, sealed again.
    pub fn with_withheld(mut self, withheld: WithheldCarry) -> Self {
        self.withheld = withheld;
        self.seal = self.compute_seal();
        self
    }
}

/// The hash a pin must carry: the kernel's pinned `sha256` when present,
/// else the hash computed when the kernel was loaded.
pub fn expected_hash(kernel: &MissionKernel) -> &str {
    kernel.pinned_hash().unwrap_or(&kernel.sha256)
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
    withheld: WithheldCarry,
) -> Result<(PolicyPin, GovernanceReport), PinError> {
    let pin = PolicyPin::build(kernel, ctx)?.with_withheld(withheld);
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
