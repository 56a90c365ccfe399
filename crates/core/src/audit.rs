//! Audit: one record per input item (message part, tool result, pinned field,
//! redaction) saying what happened to it, by which rule, at what token cost.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Kept,
    Pinned,
    Summarized,
    Stubbed,
    Redacted,
    Dropped,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditRecord {
    /// `instructions.N`, `tools.N`, `m{i}.p{j}` (input positions), `kernel`,
    /// `summary`, or `pin:RECORD`.
    pub item: String,
    pub kind: String,
    pub decision: Decision,
    pub rule: String,
    pub tokens_before: usize,
    pub tokens_after: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The original of a stubbed result (personal data already withheld).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original: Option<String>,
}

impl AuditRecord {
    pub fn new(
        item: impl Into<String>,
        kind: impl Into<String>,
        decision: Decision,
        rule: impl Into<String>,
    ) -> Self {
        AuditRecord {
            item: item.into(),
            kind: kind.into(),
            decision,
            rule: rule.into(),
            tokens_before: 0,
            tokens_after: 0,
            tool: None,
            call_id: None,
            record_id: None,
            detail: None,
            original: None,
        }
    }
    pub fn tokens(mut self, before: usize, after: usize) -> Self {
        self.tokens_before = before;
        self.tokens_after = after;
        self
    }
    pub fn tool(mut self, tool: &str, call_id: &str) -> Self {
        if !tool.is_empty() {
            self.tool = Some(tool.to_string());
        }
        self.call_id = Some(call_id.to_string());
        self
    }
    pub fn record(mut self, record_id: &str) -> Self {
        self.record_id = Some(record_id.to_string());
        self
    }
    pub fn detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }
}

/// A must-persist item and whether it made it into the compacted request.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrecedenceItem {
    pub item: String,
    pub present: bool,
}

/// Every must-persist text must appear verbatim in the compacted request.
/// Whole lines (pins) are looked up in a line index, so the check stays
/// linear in the request size.
pub fn precedence_check(
    output_text: &str,
    must_persist: &[(String, String)],
) -> Vec<PrecedenceItem> {
    let lines: std::collections::HashSet<&str> = output_text.lines().collect();
    must_persist
        .iter()
        .map(|(item, text)| PrecedenceItem {
            item: item.clone(),
            present: lines.contains(text.as_str()) || output_text.contains(text.as_str()),
        })
        .collect()
}
