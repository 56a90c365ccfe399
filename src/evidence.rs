//! Evidence pins: fields that tools returned, copied word for word under the
//! retention policy, one line per record, each carrying its tool call id.
//!
//! Pins from an earlier compaction (a continuity block in the conversation)
//! are read back and carried forward, so evidence survives any number of
//! compactions; a fresher return of the same record supersedes them.

use serde_json::Value;

use crate::policy::RetentionPolicy;
use crate::transcript::{compact_json, Part, Transcript};

/// Header of the pinned-facts section of a continuity block.
pub const FACTS_HEADER: &str = "FACTS RETURNED BY TOOLS (verbatim; must persist; not interpretations):";

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Pin {
    pub call_id: String,
    pub tool: String,
    pub record_id: String,
    /// The rendered line, exactly as it will appear in the request.
    pub line: String,
    /// Where it came from: `m{i}.p{j}` of the input, or `carried:m{i}.p{j}`.
    pub source_item: String,
    /// Index of the message holding the source (for the tail rule).
    pub message: usize,
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
        Value::Array(items) => items.iter().filter(|i| i.is_object() && has_id(i)).collect(),
        _ => Vec::new(),
    }
}

fn render_value(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        // One line per pin: newlines inside a value are written as `\n`.
        Value::String(s) => Some(s.replace('\n', "\\n")),
        other => Some(compact_json(other)),
    }
}

/// Render one record's pinned fields; `None` without a record id.
pub fn render_record(call_id: &str, record: &Value, fields: &[String]) -> Option<(String, String)> {
    let id_field = fields.first()?;
    let record_id = lookup(record, id_field).and_then(|v| render_value(&v))?;
    let mut line = format!("- [{call_id}]");
    for f in fields {
        if let Some(text) = lookup(record, f).and_then(|v| render_value(&v)) {
            line.push_str(&format!(" {f}={text}"));
        }
    }
    Some((record_id, line))
}

/// Pins from every pinned tool result, in transcript order (later returns
/// of the same tool and record replace earlier ones).
pub fn extract_pins(t: &Transcript, policy: &RetentionPolicy) -> (Vec<Pin>, Vec<Pin>) {
    let mut live: Vec<Pin> = Vec::new();
    let mut superseded: Vec<Pin> = Vec::new();
    for (mi, m) in t.messages.iter().enumerate() {
        for (pi, p) in m.parts.iter().enumerate() {
            let Part::ToolResult { id, name, content, is_error } = &p.part else { continue };
            if *is_error {
                continue;
            }
            let Some(fields) = policy.pin_fields(name) else { continue };
            let Some(content) = structured(content) else { continue };
            for rec in records(&content, &fields[0]) {
                let Some((record_id, line)) = render_record(id, rec, fields) else { continue };
                let pin = Pin {
                    call_id: id.clone(),
                    tool: name.clone(),
                    record_id,
                    line,
                    source_item: format!("m{mi}.p{pi}"),
                    message: mi,
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
    }
    (live, superseded)
}

/// Pins written by an earlier compaction, read back from continuity blocks
/// in the conversation's text.
pub fn carried_pins(t: &Transcript) -> Vec<Pin> {
    let mut out = Vec::new();
    for (mi, m) in t.messages.iter().enumerate() {
        for (pi, p) in m.parts.iter().enumerate() {
            let Part::Text(text) = &p.part else { continue };
            let mut in_facts = false;
            for line in text.lines() {
                if line.starts_with("FACTS RETURNED BY TOOLS") {
                    in_facts = true;
                    continue;
                }
                if !in_facts {
                    continue;
                }
                match parse_pin_line(line) {
                    Some((call_id, record_id)) => out.push(Pin {
                        line: normalize_pin_line(line, &call_id, &record_id),
                        call_id,
                        tool: String::new(),
                        record_id,
                        source_item: format!("carried:m{mi}.p{pi}"),
                        message: mi,
                    }),
                    None => in_facts = false,
                }
            }
        }
    }
    out
}

/// `- [CALL] ID: field=ID ...` repeats the id; carried forward as
/// `- [CALL] field=ID ...`, every field still verbatim.
fn normalize_pin_line(line: &str, call_id: &str, record_id: &str) -> String {
    let prefix = format!("- [{call_id}] {record_id}: ");
    match line.strip_prefix(&prefix) {
        Some(rest) if rest.split_whitespace().next().and_then(|f| f.split_once('=')).map(|(_, v)| v) == Some(record_id) => {
            format!("- [{call_id}] {rest}")
        }
        _ => line.to_string(),
    }
}

/// `- [CALL] LABEL: ...` (the reference's style) or `- [CALL] field=ID ...`.
fn parse_pin_line(line: &str) -> Option<(String, String)> {
    let rest = line.strip_prefix("- [")?;
    let close = rest.find(']')?;
    let call_id = rest[..close].to_string();
    let body = rest[close + 1..].trim_start();
    let first = body.split_whitespace().next()?;
    let record_id = if let Some(label) = first.strip_suffix(':') {
        label.to_string()
    } else {
        first.split_once('=')?.1.to_string()
    };
    Some((call_id, record_id))
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
        assert_eq!(lookup(&payment, "record_type"), Some(json!("authorization")));
        let fields: Vec<String> = ["payment_id", "record_type", "settled_at"].iter().map(|s| s.to_string()).collect();
        let (id, line) = render_record("call-1", &payment, &fields).unwrap();
        assert_eq!(id, "TX-1");
        assert_eq!(line, "- [call-1] payment_id=TX-1 record_type=authorization");
    }

    #[test]
    fn dotted_paths_map_over_lists() {
        let account = json!({"customer_id": "C-1", "seats": [{"user_id": "U-1"}, {"user_id": "U-2"}]});
        assert_eq!(lookup(&account, "seats.user_id"), Some(json!(["U-1", "U-2"])));
    }

    #[test]
    fn reads_back_both_pin_line_styles() {
        assert_eq!(
            parse_pin_line("- [toolu_1] SE-1: event_id=SE-1 date=2025-11-14"),
            Some(("toolu_1".into(), "SE-1".into()))
        );
        assert_eq!(
            parse_pin_line("- [call_9] payment_id=TX-9 amount=1.0"),
            Some(("call_9".into(), "TX-9".into()))
        );
        assert_eq!(parse_pin_line("SUMMARY: nothing"), None);
        assert_eq!(
            normalize_pin_line("- [t1] SE-1: event_id=SE-1 date=x", "t1", "SE-1"),
            "- [t1] event_id=SE-1 date=x"
        );
        assert_eq!(normalize_pin_line("- [t1] SE-1: note=y", "t1", "SE-1"), "- [t1] SE-1: note=y");
    }
}
