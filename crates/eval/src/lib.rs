//! `continuity-eval`: measuring compaction. The meaning-level evaluator
//! ([`evaluate`]), replay of recorded sessions under every condition
//! ([`replay`]), timed compactions ([`bench`]), the adversarial compaction
//! suite ([`adversarial`]), the tracked-fact keyword checks ([`facts`]), the
//! literal-state presence check ([`literal`]) and the answer-presence
//! curve over targets ([`retention`]).

pub mod adversarial;
pub mod bench;
pub mod evaluate;
pub mod facts;
pub mod literal;
pub mod replay;
pub mod retention;
