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
//!
//! Command line (in the `continuity` binary):
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

pub mod ledger;
pub mod memory;
pub mod pin;
pub mod preflight;

pub use crate::digest::{canonical_json, sha256_hex};
pub use crate::error::{GovernanceError, LedgerError, PinError};
pub use crate::kernel::constraint::{ArgCondition, Constraint, ConstraintKind, Effect, Op};
pub use ledger::Ledger;
pub use memory::{MemoryGate, MemoryStore};
pub use pin::{PinContext, PolicyPin};
pub use preflight::{Preflight, ToolCall, Verdict};
