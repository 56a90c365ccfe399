//! `continuity-eval`: measuring compaction. The meaning-level evaluator
//! ([`evaluate`]), replay of recorded sessions under every condition
//! ([`replay`]), timed compactions ([`bench`]), the adversarial compaction
//! suite ([`adversarial`]), the tracked-fact keyword checks ([`facts`]), an
//! answer key judged on both sides of an agent's compaction
//! ([`side_by_side`]) and the answer-presence curve over targets
//! ([`retention`]).

pub mod adversarial;
pub mod bench;
pub mod evaluate;
pub mod facts;
pub mod replay;
pub mod retention;
pub mod side_by_side;
