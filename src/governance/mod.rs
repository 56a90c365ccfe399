//! The governance boundary around compaction (second seed, "Context
//! compaction is a governance boundary"):
//!
//! - [`pin`]: every rebuild produces a [`pin::PolicyPin`] that is verified
//!   against the expected kernel hash before the request is released;
//! - [`preflight`]: deterministic tool-boundary checks, independent of what
//!   the model can see;
//! - [`ledger`]: an append-only, fsynced, hash-chained PREPARE/COMMIT effect
//!   ledger with reconcile and verify;
//! - [`memory`]: provenance-aware memory that never promotes an uncited item
//!   or a directive that conflicts with the kernel;
//! - [`adversarial`]: the six adversarial compaction scenarios, measured.
//!
//! Command line (bodies in [`commands`]):
//!
//! ```text
//! continuity compact IN --kernel K --out DIR [--run-id R]   # also writes DIR/policy_pin.json
//! continuity preflight --kernel K [--scope dim:value]... [--ledger L] [--json] CALLS
//! continuity ledger prepare L --run-id R --effect-id E --tool T --args JSON
//! continuity ledger commit  L --run-id R --effect-id E --receipt X
//! continuity ledger reconcile L [--json]
//! continuity ledger verify L [--json]
//! continuity memory propose PROPOSALS --store M --kernel K --transcript T [--scope ..]
//! continuity memory list --store M [--json] | show ID --store M | rollback ID --store M
//! continuity adversarial [--dir eval/adversarial] [--json]
//! ```
//!
//! Exit codes: 0 success; 1 internal error; 2 bad input; **3** a governance
//! check said no (preflight: a call is not allowed; ledger reconcile: effects
//! are pending or the chain is broken; ledger verify: the chain is broken);
//! **4** a governance check failed closed (policy pin integrity, expiry or
//! seal; an unusable ledger or memory store).
//!
//! Scope of a preflight call: `--scope tenant:acme` (repeatable) for every
//! call, and/or a `scope` list in the call JSON (wins per dimension); see
//! [`preflight`] for how a rule's scope is matched.

pub mod adversarial;
pub mod commands;
pub mod ledger;
pub mod memory;
pub mod pin;
pub mod preflight;

use sha2::{Digest, Sha256};

pub use ledger::{Ledger, LedgerError};
pub use memory::{MemoryGate, MemoryStore};
pub use pin::{Constraint, PinContext, PinError, PolicyPin};
pub use preflight::{Preflight, ToolCall, Verdict};

/// What a rule does to a tool call, and what preflight decides.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
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
    pub fn as_str(self) -> &'static str {
        match self {
            Effect::Allow => "allow",
            Effect::Deny => "deny",
            Effect::RequireApproval => "require_approval",
            Effect::Escalate => "escalate",
        }
    }
}

impl From<crate::kernel::Effect> for Effect {
    fn from(e: crate::kernel::Effect) -> Self {
        match e {
            crate::kernel::Effect::Deny => Effect::Deny,
            crate::kernel::Effect::RequireApproval => Effect::RequireApproval,
            crate::kernel::Effect::Escalate => Effect::Escalate,
        }
    }
}

/// Hex SHA-256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// JSON with object keys sorted at every level, compact: the form every
/// digest in this module is computed over.
pub fn canonical_json(v: &serde_json::Value) -> String {
    fn sort(v: &serde_json::Value) -> serde_json::Value {
        use serde_json::Value as J;
        match v {
            J::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                let mut out = serde_json::Map::new();
                for k in keys {
                    out.insert(k.clone(), sort(&m[k]));
                }
                J::Object(out)
            }
            J::Array(a) => J::Array(a.iter().map(sort).collect()),
            other => other.clone(),
        }
    }
    serde_json::to_string(&sort(v)).unwrap_or_default()
}

/// Errors of the governance boundary. All of them fail closed.
#[derive(Debug, thiserror::Error)]
pub enum GovernanceError {
    #[error(transparent)]
    Pin(#[from] PinError),
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    #[error("memory store {path}: {message}")]
    Memory { path: String, message: String },
}
