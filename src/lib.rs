//! `continuity`: a local-first context compaction engine for long-running
//! LLM agents.
//!
//! The pipeline is a chain of pure stages over typed data:
//! [`formats`] (parse) → [`redact`] → [`classify`] → [`evidence`] (pin) →
//! [`summarize`] → [`rebuild`] → [`audit`] and [`report`] (measure), driven by
//! [`compact::compact`]. I/O lives in [`io`] and the binary.

pub mod audit;
pub mod bench;
pub mod classify;
pub mod compact;
pub mod error;
pub mod evaluate;
pub mod evidence;
pub mod facts;
pub mod formats;
pub mod governance;
pub mod io;
pub mod kernel;
pub mod llm;
pub mod plan;
pub mod policy;
pub mod progress;
pub mod rebuild;
pub mod redact;
pub mod replay;
pub mod report;
pub mod summarize;
pub mod tokens;
pub mod transcript;

pub use compact::{compact, Compaction, Inputs, Strategy};
pub use error::{Error, InputError, Result};
pub use kernel::MissionKernel;
pub use policy::RetentionPolicy;
pub use transcript::{Format, Transcript};
