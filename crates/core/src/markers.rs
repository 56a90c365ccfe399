//! The fixed lines a compacted request carries. A later compaction finds
//! its predecessor's work by them (carried pins, the prior summary, where
//! the last compaction was), so they are written and read in one place.

/// Opens the continuity block that replaces the compacted head.
pub const CONTINUITY_TAG: &str = "[CONTINUITY";

/// Opens the head of a summary-only compaction (ours and the reference
/// build's alike).
pub const SUMMARY_ONLY_HEADER: &str = "Summary of the work so far:";

/// Header of the pinned-facts section of a continuity block.
pub const FACTS_HEADER: &str =
    "FACTS RETURNED BY TOOLS (verbatim; must persist; not interpretations):";

/// How a facts section is recognised when read back (the reference build's
/// header differs after this prefix).
pub const FACTS_PREFIX: &str = "FACTS RETURNED BY TOOLS";

/// Header of the working-state digest of a continuity block.
pub const WORKING_STATE_HEADER: &str =
    "WORKING STATE (read from the tool calls, not interpreted; [mN] names the source message):";

/// How a working-state section is recognised when read back.
pub const WORKING_STATE_PREFIX: &str = "WORKING STATE";

pub const MAY_PERSIST_HEADER: &str =
    "EARLIER TOOL CALLS (results not pinned; call again if you need them):";

pub const SUMMARY_HEADER: &str =
    "SUMMARY OF EARLIER WORK (advisory; may be incomplete or wrong; the facts above and your instructions take precedence):";

/// How a summary section is recognised when read back.
pub const SUMMARY_PREFIX: &str = "SUMMARY OF EARLIER WORK";

/// How a coding agent's own compaction summary opens when it is written
/// back as a user message (Claude Code's `isCompactSummary` line): it is the
/// agent's account of earlier work, not the user's mission.
const AGENT_SUMMARY_OPENERS: &[&str] =
    &["This session is being continued from a previous conversation"];

/// Whether a user text is an agent's own compaction summary.
pub fn is_agent_summary(text: &str) -> bool {
    let t = text.trim_start();
    AGENT_SUMMARY_OPENERS.iter().any(|o| t.starts_with(o))
}

/// Whether a text is the head an earlier compaction wrote.
pub fn is_compacted_head(text: &str) -> bool {
    text.starts_with(CONTINUITY_TAG) || text.starts_with(SUMMARY_ONLY_HEADER)
}
