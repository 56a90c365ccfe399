//! Preflight of the tool calls in the provider's answers. Each call gets
//! the kernel's verdict (`continuity_core::governance::preflight`), written
//! to the request's log line and to the conversation's chained ledger.
//! With blocking on (`--block-tool-calls`), a call that is not allowed
//! never reaches the client: it becomes a text notice naming the rule.
//! Blocking rewrites whole answers here and streams in `hold`.

use std::path::PathBuf;
use std::sync::Mutex;

use continuity_core::digest::args_digest;
use continuity_core::error::GovernanceError;
use continuity_core::governance::ledger::ChainLog;
use continuity_core::governance::preflight::{Preflight, ToolCall, Verdict};
use continuity_core::redact::Redactor;
use continuity_core::MissionKernel;
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::calls::{block_call, chat_call, item_call};
use crate::error::Result;
use crate::request::Endpoint;

/// One call's verdict as the log and the ledger keep it. The arguments
/// are kept as a digest only; the reason is redacted (a condition's
/// reason quotes the argument it tested).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Checked {
    pub tool: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    pub args_sha256: String,
    pub decision: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    pub reason: String,
    /// Held back from the client (blocking on, and not allowed).
    pub blocked: bool,
}

/// The kernel's gate for every answer the proxy passes on.
pub struct Gate {
    preflight: Preflight,
    pub block: bool,
    data_dir: PathBuf,
    redactor: Mutex<Redactor>,
    /// One ledger writer at a time (two answers of a conversation may end
    /// together).
    ledger_lock: Mutex<()>,
}

impl Gate {
    /// A gate for `kernel`; `None` when the kernel has no constraints (the
    /// session's own mission), as every call would be allowed.
    pub fn new(
        kernel: &MissionKernel,
        block: bool,
        data_dir: PathBuf,
        redactor: Redactor,
    ) -> Option<Self> {
        if kernel.constraints().is_empty() {
            return None;
        }
        Some(Gate {
            preflight: Preflight::new(kernel),
            block,
            data_dir,
            redactor: Mutex::new(redactor),
            ledger_lock: Mutex::new(()),
        })
    }

    pub fn verdict(&self, call: &ToolCall) -> Verdict {
        self.preflight.check(call)
    }

    /// Whether `call` is held back from the client.
    pub fn blocks(&self, call: &ToolCall) -> bool {
        self.block && !self.verdict(call).allowed()
    }

    /// The verdicts of `calls`, redacted for writing.
    pub fn checked(&self, calls: &[ToolCall], blocking: bool) -> Vec<Checked> {
        let mut redactor = self.redactor.lock().ok();
        calls
            .iter()
            .map(|c| {
                let v = self.verdict(c);
                let mut log = Vec::new();
                let reason = match redactor.as_mut() {
                    Some(r) => r.redact_str(&v.reason, "preflight", &mut log),
                    None => String::new(),
                };
                Checked {
                    tool: c.name.clone(),
                    call_id: c.id.clone(),
                    args_sha256: args_digest(&c.args),
                    decision: v.decision.as_str(),
                    blocked: blocking && !v.allowed(),
                    rule: v.rule,
                    reason,
                }
            })
            .collect()
    }

    /// Append each verdict to the conversation's ledger (the data dir's own
    /// when the request had no conversation).
    pub fn record(&self, conversation: Option<&str>, checked: &[Checked]) -> Result<()> {
        if checked.is_empty() {
            return Ok(());
        }
        let path = match conversation {
            Some(id) => self.data_dir.join("conversations").join(id),
            None => self.data_dir.clone(),
        }
        .join("ledger.jsonl");
        let _held = self.ledger_lock.lock();
        let (mut log, _) = ChainLog::open(&path).map_err(GovernanceError::from)?;
        let ts = chrono::Utc::now().to_rfc3339();
        for c in checked {
            let mut body = Map::new();
            body.insert("kind".into(), "preflight".into());
            body.insert("ts".into(), ts.clone().into());
            body.insert(
                "kernel".into(),
                json!({"id": self.preflight.kernel_id, "version": self.preflight.kernel_version, "sha256": self.preflight.sha256}),
            );
            if let Value::Object(fields) = serde_json::to_value(c)? {
                body.extend(fields);
            }
            log.append(body).map_err(GovernanceError::from)?;
        }
        Ok(())
    }

    /// The text a blocked call becomes.
    pub fn notice(&self, call: &ToolCall) -> String {
        let v = self.verdict(call);
        format!(
            "[continuity: the tool call `{}` was not sent to you to run: {} by the mission kernel ({}): {}]",
            call.name,
            v.decision.as_str(),
            v.rule.unwrap_or_default(),
            v.reason
        )
    }

    /// Rewrite a whole answer: each blocked call becomes a notice. Returns
    /// whether anything changed.
    pub fn rewrite_body(&self, ep: Endpoint, body: &mut Value) -> bool {
        match ep {
            Endpoint::Messages => self.rewrite_anthropic(body),
            Endpoint::Chat => self.rewrite_chat(body),
            Endpoint::Responses => self.rewrite_responses(body),
            Endpoint::CountTokens | Endpoint::Other => false,
        }
    }

    fn rewrite_anthropic(&self, body: &mut Value) -> bool {
        let Some(blocks) = body.get_mut("content").and_then(Value::as_array_mut) else {
            return false;
        };
        let mut changed = false;
        for b in blocks.iter_mut() {
            if let Some(call) = block_call(b).filter(|c| self.blocks(c)) {
                *b = json!({"type": "text", "text": self.notice(&call)});
                changed = true;
            }
        }
        let calls_left = blocks.iter().any(crate::calls::is_tool_use);
        if changed && !calls_left && body.get("stop_reason") == Some(&json!("tool_use")) {
            body["stop_reason"] = json!("end_turn");
        }
        changed
    }

    fn rewrite_chat(&self, body: &mut Value) -> bool {
        let mut changed = false;
        let choices = body.get_mut("choices").and_then(Value::as_array_mut);
        for choice in choices.into_iter().flatten() {
            let Some(message) = choice.get_mut("message") else {
                continue;
            };
            let notices = self.drop_chat_calls(message);
            if notices.is_empty() {
                continue;
            }
            changed = true;
            let calls_left = message.get("tool_calls").is_some();
            let text = message.get("content").and_then(Value::as_str).unwrap_or("");
            let joined: Vec<&str> = std::iter::once(text)
                .filter(|t| !t.is_empty())
                .chain(notices.iter().map(String::as_str))
                .collect();
            message["content"] = json!(joined.join("\n"));
            if !calls_left && choice.get("finish_reason") == Some(&json!("tool_calls")) {
                choice["finish_reason"] = json!("stop");
            }
        }
        changed
    }

    /// Remove the blocked entries of a chat message's `tool_calls` (the key
    /// itself when none is left); their notices.
    fn drop_chat_calls(&self, message: &mut Value) -> Vec<String> {
        let Some(entries) = message.get_mut("tool_calls").and_then(Value::as_array_mut) else {
            return Vec::new();
        };
        let mut notices = Vec::new();
        entries.retain(|e| match chat_call(e).filter(|c| self.blocks(c)) {
            Some(call) => {
                notices.push(self.notice(&call));
                false
            }
            None => true,
        });
        if entries.is_empty() {
            if let Some(m) = message.as_object_mut() {
                m.remove("tool_calls");
            }
        }
        notices
    }

    fn rewrite_responses(&self, body: &mut Value) -> bool {
        let Some(items) = body.get_mut("output").and_then(Value::as_array_mut) else {
            return false;
        };
        let mut changed = false;
        for item in items.iter_mut() {
            if let Some(replaced) = self.blocked_item(item) {
                *item = replaced;
                changed = true;
            }
        }
        changed
    }

    /// The message item a blocked Responses call item becomes.
    pub fn blocked_item(&self, item: &Value) -> Option<Value> {
        let call = item_call(item).filter(|c| self.blocks(c))?;
        let id = call.id.clone().unwrap_or_default();
        Some(json!({
            "type": "message", "id": format!("msg_continuity_{id}"), "status": "completed", "role": "assistant",
            "content": [{"type": "output_text", "text": self.notice(&call), "annotations": []}],
        }))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use continuity_core::policy::PersonalDataRules;

    pub(crate) fn gate(block: bool, dir: &std::path::Path) -> Gate {
        let toml = r#"
id = "T"
version = "1"
objective = "Look things up."
permissions = ["read (tools: lookup)"]
[[prohibition]]
id = "no-contact"
text = "Never contact the customer."
tools = ["email_customer"]
effect = "deny"
source = "policy://test"
scope = []
version = "1"
"#;
        let kernel = MissionKernel::from_toml(
            toml,
            &continuity_core::error::Source("k".into()),
            chrono::Utc::now(),
        )
        .unwrap();
        let redactor = Redactor::new(&PersonalDataRules::default()).unwrap();
        Gate::new(&kernel, block, dir.to_path_buf(), redactor).unwrap()
    }

    #[test]
    fn a_denied_anthropic_call_becomes_a_notice_and_the_turn_ends() {
        let dir = tempfile::tempdir().unwrap();
        let g = gate(true, dir.path());
        let mut body = json!({"content": [
            {"type": "tool_use", "id": "a", "name": "lookup", "input": {}},
            {"type": "tool_use", "id": "b", "name": "email_customer", "input": {"to": "x"}}],
            "stop_reason": "tool_use"});
        assert!(g.rewrite_body(Endpoint::Messages, &mut body));
        assert_eq!(body["content"][0]["type"], "tool_use");
        let notice = body["content"][1]["text"].as_str().unwrap();
        assert!(notice.contains("no-contact"), "{notice}");
        assert_eq!(body["stop_reason"], "tool_use", "a call is left to run");
        let mut only_denied = json!({"content": [{"type": "tool_use", "id": "b", "name": "email_customer", "input": {}}], "stop_reason": "tool_use"});
        assert!(g.rewrite_body(Endpoint::Messages, &mut only_denied));
        assert_eq!(only_denied["stop_reason"], "end_turn");
    }

    #[test]
    fn without_blocking_nothing_is_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let g = gate(false, dir.path());
        let mut body = json!({"content": [{"type": "tool_use", "id": "b", "name": "email_customer", "input": {}}]});
        let before = body.clone();
        assert!(!g.rewrite_body(Endpoint::Messages, &mut body));
        assert_eq!(body, before);
    }

    #[test]
    fn chat_and_responses_calls_are_blocked_in_whole_answers() {
        let dir = tempfile::tempdir().unwrap();
        let g = gate(true, dir.path());
        let mut chat = json!({"choices": [{"finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
            "tool_calls": [{"id": "c", "type": "function", "function": {"name": "email_customer", "arguments": "{}"}}]}}]});
        assert!(g.rewrite_body(Endpoint::Chat, &mut chat));
        assert!(chat["choices"][0]["message"].get("tool_calls").is_none());
        assert_eq!(chat["choices"][0]["finish_reason"], "stop");
        assert!(chat["choices"][0]["message"]["content"]
            .as_str()
            .unwrap()
            .contains("email_customer"));
        let mut resp = json!({"output": [{"type": "function_call", "call_id": "k", "name": "email_customer", "arguments": "{}"},
            {"type": "function_call", "call_id": "l", "name": "lookup", "arguments": "{}"}]});
        assert!(g.rewrite_body(Endpoint::Responses, &mut resp));
        assert_eq!(resp["output"][0]["type"], "message");
        assert_eq!(resp["output"][1]["type"], "function_call");
    }

    #[test]
    fn verdicts_chain_in_the_conversation_ledger_without_the_arguments() {
        let dir = tempfile::tempdir().unwrap();
        let g = gate(false, dir.path());
        let calls = vec![
            ToolCall::new("email_customer", json!({"to": "jane.doe@example.com"})),
            ToolCall::new("lookup", json!({})),
        ];
        let checked = g.checked(&calls, false);
        assert_eq!(checked[0].decision, "deny");
        assert_eq!(checked[1].decision, "allow");
        g.record(Some("c1"), &checked).unwrap();
        g.record(Some("c1"), &checked[..1]).unwrap();
        let path = dir.path().join("conversations/c1/ledger.jsonl");
        let report = continuity_core::governance::ledger::verify(&path).unwrap();
        assert!(report.ok && report.total_lines == 3, "{report:?}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("jane.doe"), "{text}");
        assert!(text.contains("\"kind\":\"preflight\""));
    }
}
