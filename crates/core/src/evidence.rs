//! Evidence pins: fields that tools returned, copied word for word under the
//! retention policy, one line per record, grouped under the tool call id that
//! returned them:
//!
//! ```text
//! [toolu_01S9] list_subscription_events
//! - event_id=SE-1 date=2025-11-14 type=subscription.created actor=U-1
//! ```
//!
//! Pins from an earlier compaction (a continuity block in the conversation)
//! are read back and carried forward, so evidence survives any number of
//! compactions; a fresher return of the same record supersedes them.

use serde_json::Value;

use crate::markers::FACTS_PREFIX;
use crate::policy::RetentionPolicy;
use crate::transcript::{compact_json, Part, PartRef, Transcript};

#[derive(Debug, Clone, PartialEq)]
pub struct Pin {
    pub call_id: String,
    pub tool: String,
    pub record_id: String,
    /// The rendered record line (`- field=value ...`), exactly as it will
    /// appear under its call's header.
    pub line: String,
    pub source: PinSource,
}

/// Where a pin came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PinSource {
    /// A tool result in this transcript.
    Returned(PartRef),
    /// The continuity block of an earlier compaction, in this part.
    Carried(PartRef),
}

impl PinSource {
    /// The part holding the source.
    pub fn part(self) -> PartRef {
        match self {
            PinSource::Returned(p) | PinSource::Carried(p) => p,
        }
    }

    pub fn is_carried(self) -> bool {
        matches!(self, PinSource::Carried(_))
    }
}

/// `m{i}.p{j}`, or `carried:m{i}.p{j}`, as the audit names it.
impl std::fmt::Display for PinSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PinSource::Returned(p) => write!(f, "{p}"),
            PinSource::Carried(p) => write!(f, "carried:{p}"),
        }
    }
}

/// A string that holds a JSON object or array, parsed.
pub fn parse_json_text(s: &str) -> Option<Value> {
    let t = s.trim_start();
    if t.starts_with('{') || t.starts_with('[') {
        serde_json::from_str(s).ok()
    } else {
        None
    }
}

/// A tool result's content as structured JSON when it is, or holds, JSON.
pub fn structured(v: &Value) -> Option<Value> {
    match v {
        Value::Object(_) => Some(v.clone()),
        Value::Array(items) => {
            // Anthropic/OpenAI content blocks: join their text and parse it.
            if !items.is_empty() && items.iter().all(|b| b.get("type").is_some()) {
                let text: Option<Vec<&str>> = items
                    .iter()
                    .map(|b| b.get("text").and_then(Value::as_str))
                    .collect();
                text.and_then(|t| parse_json_text(&t.join("")))
            } else {
                Some(v.clone())
            }
        }
        Value::String(s) => parse_json_text(s),
        _ => None,
    }
}

/// Look a field up in a record: a dotted path from the root (lists along the
/// way are mapped over), or a bare name found in nested objects.
pub fn lookup(record: &Value, field: &str) -> Option<Value> {
    if let Some(v) = path_lookup(record, &field.split('.').collect::<Vec<_>>()) {
        return Some(v);
    }
    if !field.contains('.') {
        return nested_lookup(record, field);
    }
    None
}

fn path_lookup(v: &Value, path: &[&str]) -> Option<Value> {
    let Some((head, rest)) = path.split_first() else {
        return Some(v.clone());
    };
    match v {
        Value::Object(map) => path_lookup(map.get(*head)?, rest),
        Value::Array(items) => {
            let found: Vec<Value> = items.iter().filter_map(|i| path_lookup(i, path)).collect();
            if found.is_empty() {
                None
            } else {
                Some(Value::Array(found))
            }
        }
        _ => None,
    }
}

fn nested_lookup(v: &Value, field: &str) -> Option<Value> {
    let map = v.as_object()?;
    if let Some(x) = map.get(field) {
        return Some(x.clone());
    }
    map.values()
        .filter(|c| c.is_object())
        .find_map(|c| nested_lookup(c, field))
}

/// The records in a tool result: the result itself when it has the id field,
/// else the objects in its lists that do.
pub fn records<'a>(content: &'a Value, id_field: &str) -> Vec<&'a Value> {
    let has_id = |v: &Value| lookup(v, id_field).is_some_and(|x| !x.is_null() && !x.is_array());
    match content {
        Value::Object(map) => {
            if has_id(content) {
                return vec![content];
            }
            map.values()
                .filter_map(Value::as_array)
                .flat_map(|items| items.iter().filter(|i| i.is_object() && has_id(i)))
                .collect()
        }
        Value::Array(items) => items
            .iter()
            .filter(|i| i.is_object() && has_id(i))
            .collect(),
        _ => Vec::new(),
    }
}

/// `None` for values that say nothing (null, empty), which are left out.
fn render_value(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::Array(a) if a.is_empty() => None,
        Value::Object(o) if o.is_empty() => None,
        // One line per pin: newlines inside a value are written as `\n`.
        Value::String(s) => Some(s.replace('\n', "\\n")),
        other => Some(compact_json(other)),
    }
}

/// Render one record's pinned fields; `None` without a record id.
pub fn render_record(record: &Value, fields: &[String]) -> Option<(String, String)> {
    let id_field = fields.first()?;
    let record_id = lookup(record, id_field).and_then(|v| render_value(&v))?;
    let mut line = String::from("-");
    for f in fields {
        if let Some(text) = lookup(record, f).and_then(|v| render_value(&v)) {
            line.push_str(&format!(" {f}={text}"));
        }
    }
    Some((record_id, line))
}

/// The header a group of pins sits under.
pub fn call_header(call_id: &str, tool: &str) -> String {
    if tool.is_empty() {
        format!("[{call_id}]")
    } else {
        format!("[{call_id}] {tool}")
    }
}

/// Pins from every pinned tool result, in transcript order (later returns
/// of the same tool and record replace earlier ones).
pub fn extract_pins(t: &Transcript, policy: &RetentionPolicy) -> (Vec<Pin>, Vec<Pin>) {
    let mut live: Vec<Pin> = Vec::new();
    let mut superseded: Vec<Pin> = Vec::new();
    for (at, p) in t.parts() {
        let Part::ToolResult {
            id,
            name,
            content,
            is_error,
        } = &p.part
        else {
            continue;
        };
        if *is_error {
            continue;
        }
        let Some(fields) = policy.pin_fields(name) else {
            continue;
        };
        let Some(content) = structured(content) else {
            continue;
        };
        for rec in records(&content, &fields[0]) {
            let Some((record_id, line)) = render_record(rec, fields) else {
                continue;
            };
            let pin = Pin {
                call_id: id.clone(),
                tool: name.clone(),
                record_id,
                line,
                source: PinSource::Returned(at),
            };
            if let Some(pos) = live
                .iter()
                .position(|x| x.tool == pin.tool && x.record_id == pin.record_id)
            {
                superseded.push(live.remove(pos));
            }
            live.push(pin);
        }
    }
    (live, superseded)
}

/// Pins written by an earlier compaction, read back from continuity blocks
/// in the conversation's text: ours (records under `[CALL] tool` headers) and
/// the reference build's (`- [CALL] ID: field=...` lines).
pub fn carried_pins(t: &Transcript) -> Vec<Pin> {
    let mut out = Vec::new();
    for (at, p) in t.parts() {
        let Part::Text(text) = &p.part else { continue };
        let source = PinSource::Carried(at);
        let mut in_facts = false;
        let mut call: Option<(String, String)> = None;
        for line in text.lines() {
            if line.starts_with(FACTS_PREFIX) {
                in_facts = true;
                continue;
            }
            if !in_facts {
                continue;
            }
            if let Some((call_id, tool)) = parse_call_header(line) {
                call = Some((call_id, tool));
            } else if let Some((call_id, record_id, rest)) = parse_legacy_pin(line) {
                out.push(Pin {
                    call_id,
                    tool: String::new(),
                    record_id,
                    line: rest,
                    source,
                });
            } else if let (Some((call_id, tool)), Some(record_id)) = (&call, record_line_id(line)) {
                out.push(Pin {
                    call_id: call_id.clone(),
                    tool: tool.clone(),
                    record_id,
                    line: line.to_string(),
                    source,
                });
            } else {
                in_facts = false;
                call = None;
            }
        }
    }
    out
}

/// `[CALL] tool` or `[CALL]`.
fn parse_call_header(line: &str) -> Option<(String, String)> {
    let rest = line.strip_prefix('[')?;
    let close = rest.find(']')?;
    let tool = rest[close + 1..].trim();
    let call = &rest[..close];
    if call.is_empty() || call.contains(char::is_whitespace) || tool.contains(char::is_whitespace) {
        return None;
    }
    Some((rest[..close].to_string(), tool.to_string()))
}

/// The record id of `- field=ID ...`.
fn record_line_id(line: &str) -> Option<String> {
    let first = line.strip_prefix("- ")?.split_whitespace().next()?;
    Some(first.split_once('=')?.1.to_string())
}

/// `- [CALL] ID: field=ID ...` (the reference build's style) or
/// `- [CALL] field=ID ...`, as (call, record id, `- field=...` line). The
/// `ID: ` label repeats the first field and is dropped; every field stays.
fn parse_legacy_pin(line: &str) -> Option<(String, String, String)> {
    let rest = line.strip_prefix("- [")?;
    let close = rest.find(']')?;
    let call_id = rest[..close].to_string();
    let body = rest[close + 1..].trim_start();
    let first = body.split_whitespace().next()?;
    if let Some(label) = first.strip_suffix(':') {
        let after = body[first.len()..].trim_start();
        let repeats = after
            .split_whitespace()
            .next()
            .and_then(|f| f.split_once('='))
            .map(|(_, v)| v)
            == Some(label);
        let line = if repeats {
            format!("- {after}")
        } else {
            format!("- {body}")
        };
        Some((call_id, label.to_string(), line))
    } else {
        let id = first.split_once('=')?.1.to_string();
        Some((call_id, id, format!("- {body}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_records_in_lists_and_nested_fields() {
        let content = json!({"synthetic": true, "events": [
            {"event_id": "SE-1", "actor": "U-1"}, {"event_id": "SE-2", "actor": "U-2"}]});
        let recs = records(&content, "event_id");
        assert_eq!(recs.len(), 2);
        let payment = json!({"payment_id": "TX-1", "detail": {"record_type": "authorization", "settled_at": null}});
        assert_eq!(
            lookup(&payment, "record_type"),
            Some(json!("authorization"))
        );
        let fields: Vec<String> = ["payment_id", "record_type", "settled_at"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (id, line) = render_record(&payment, &fields).unwrap();
        assert_eq!(id, "TX-1");
        assert_eq!(line, "- payment_id=TX-1 record_type=authorization");
    }

    #[test]
    fn dotted_paths_map_over_lists() {
        let account =
            json!({"customer_id": "C-1", "seats": [{"user_id": "U-1"}, {"user_id": "U-2"}]});
        assert_eq!(
            lookup(&account, "seats.user_id"),
            Some(json!(["U-1", "U-2"]))
        );
    }

    #[test]
    fn reads_back_both_pin_styles() {
        assert_eq!(
            parse_legacy_pin("- [toolu_1] SE-1: event_id=SE-1 date=2025-11-14"),
            Some((
                "toolu_1".into(),
                "SE-1".into(),
                "- event_id=SE-1 date=2025-11-14".into()
            ))
        );
        assert_eq!(
            parse_legacy_pin("- [t1] SE-1: note=y"),
            Some(("t1".into(), "SE-1".into(), "- SE-1: note=y".into()))
        );
        assert_eq!(
            parse_call_header("[toolu_1] get_ticket"),
            Some(("toolu_1".into(), "get_ticket".into()))
        );
        assert_eq!(parse_call_header("[CONTINUITY | mission X]"), None);
        assert_eq!(
            record_line_id("- payment_id=TX-9 amount=1.0"),
            Some("TX-9".into())
        );
        assert_eq!(record_line_id("SUMMARY: nothing"), None);
    }
}
