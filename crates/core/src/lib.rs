//! `continuity-core`: a local-first context compaction engine for long-running
//! LLM agents.
//!
//! The pipeline is a chain of stages over typed data: [`formats`] (parse)
//! → [`redact`] → [`compact`]'s stages (select, pin plan, summarizer input,
//! summary, rebuild, validate, measure, audit), driven by
//! [`compact::compact`]. I/O lives in [`io`] and the binary. No model,
//! tokenizer, database or network dependency: token counts come in through
//! [`tokens::TokenCount`], summaries through [`summarize::Summarizer`].

pub mod audit;
pub mod compact;
pub mod digest;
pub mod error;
pub mod evidence;
pub mod formats;
pub mod governance;
pub mod io;
pub mod kernel;
pub mod markers;
pub mod plan;
pub mod policy;
pub mod redact;
pub mod report;
pub mod side_by_side;
pub mod summarize;
pub mod tokens;
pub mod transcript;
pub mod working_state;

pub use compact::{compact, Compaction, Inputs, Strategy};
pub use error::{Error, InputError, Result};
pub use kernel::MissionKernel;
pub use policy::RetentionPolicy;
pub use transcript::{Format, Transcript};
