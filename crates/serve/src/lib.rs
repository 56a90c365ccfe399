//! `continuity serve`: a local proxy that agents talk through.
//!
//! Point `ANTHROPIC_BASE_URL` or `OPENAI_BASE_URL` at it. A request under
//! the trigger goes upstream byte for byte; a conversation's request over
//! it is compacted with the governed pipeline (the kernel kept verbatim),
//! and later turns reuse the compacted prefix so the provider's prompt
//! cache keeps hitting. See docs/live.md.

pub mod calls;
pub mod config;
pub mod error;
pub mod forward;
pub mod gate;
pub mod hold;
pub mod request;
pub mod rewrite;
pub mod server;
pub mod store;
pub mod usage;

pub use config::Config;
pub use error::{Result, ServeError};
pub use server::{bind, router, serve, App};
