//! `continuity-eval`: measuring compaction. The meaning-level evaluator
//! ([`evaluate`]), replay of recorded sessions under every condition
//! ([`replay`]), timed compactions ([`bench`]), the adversarial compaction
//! suite ([`adversarial`]) and the tracked-fact keyword checks ([`facts`]).

pub mod adversarial;
pub mod bench;
pub mod evaluate;
pub mod facts;
pub mod replay;
