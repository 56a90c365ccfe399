//! Digests: SHA-256 in hex, and the canonical JSON every governance
//! digest is computed over.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::transcript::tool_args;

/// Hex SHA-256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// JSON with object keys sorted at every level, compact: the form every
/// governance digest is computed over.
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

/// SHA-256 of the canonical JSON of a call's arguments.
pub fn args_digest(args: &Value) -> String {
    sha256_hex(canonical_json(&tool_args(args.clone())).as_bytes())
}
