//! The summarizer prompts, kept as text files in `prompts/` and embedded at
//! compile time.

pub const PROMPT_SUMMARY_ONLY: &str = include_str!("../../../prompts/summary-only.txt");
pub const PROMPT_GOVERNED: &str = include_str!("../../../prompts/governed.txt");
pub const PROMPT_SYSTEM: &str = include_str!("../../../prompts/system.txt");
pub const PROMPT_CODING: &str = include_str!("../../../prompts/coding.txt");
/// The coding job's fields, one `Label: question` per line: each question
/// is asked on its own after the log ([`PROMPT_CODING`]'s `{question}`).
pub const PROMPT_CODING_FIELDS: &str = include_str!("../../../prompts/coding-fields.txt");
