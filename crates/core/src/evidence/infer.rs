//! Evidence without a policy: what a tool returned, read by its shape.
//!
//! - JSON: every object with an id-like key is a record (the key that names
//!   the collection or the tool wins: `event_id` in `events`, `payment_id`
//!   from `get_payment`); its scalar fields are kept at any depth as dotted
//!   paths, lists of scalars as lists, small lists of objects without ids as
//!   compact JSON; objects with their own id inside lists become records of
//!   their own. Top-level values of a result that has no id are one record
//!   of the call itself. Long prose strings are narrative, not literal
//!   state: they go to the summarizer.
//! - Text: a short output is kept whole; a long one keeps the lines that
//!   carry values (`key=value`, `key: value`, exit codes, paths, ids,
//!   numbers, failures), long lines cut to their value-bearing sentences.

use serde_json::{Map, Value};

use super::values::literals;
use crate::transcript::compact_json;

/// A string longer than this (characters) or [`PROSE_WORDS`] words is prose.
pub const PROSE_CHARS: usize = 200;
pub const PROSE_WORDS: usize = 30;
/// A list of id-less objects is kept inline up to this many characters.
pub const INLINE_LIST_CHARS: usize = 300;
/// A text output up to this many characters is kept whole.
pub const SHORT_TEXT_CHARS: usize = 400;
/// A kept text line longer than this is cut to its value-bearing sentences.
pub const LONG_LINE_CHARS: usize = 300;

/// One inferred record: its id, and its fields rendered `(path, value)` in
/// the order the result gave them (the id first).
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub id_field: String,
    pub id: String,
    pub fields: Vec<(String, String)>,
    /// Every field path present, empty and null ones included.
    pub present: Vec<String>,
    /// Text left out as prose (for the summarizer).
    pub prose: Vec<String>,
}

/// What a JSON result holds: its records, and the values of a result that
/// has no id of its own (one record of the call).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JsonEvidence {
    pub records: Vec<Record>,
    pub call_fields: Vec<(String, String)>,
    pub call_present: Vec<String>,
    pub prose: Vec<String>,
}

/// Whether a key names an identifier.
pub fn id_like(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    if matches!(k.as_str(), "id" | "uuid" | "guid" | "key" | "sku" | "slug") {
        return true;
    }
    // Not `_code` or `_key`: an exit code or an API key names no record.
    ["_id", "-id", "_uuid", "_ref", "_number"]
        .iter()
        .any(|s| k.ends_with(s))
        || key.ends_with("Id")
        || key.ends_with("ID")
        || key.ends_with("Number")
}

/// The stem an id key names (`payment_id` → `payment`).
fn stem(key: &str) -> String {
    let k = key.to_ascii_lowercase();
    for s in ["_id", "-id", "_uuid", "_ref", "_number", "id", "number"] {
        if let Some(x) = k.strip_suffix(s) {
            return x.trim_end_matches(['_', '-']).to_string();
        }
    }
    k
}

fn singular(word: &str) -> String {
    let w = word.to_ascii_lowercase();
    if let Some(x) = w.strip_suffix("ies") {
        format!("{x}y")
    } else if let Some(x) = w.strip_suffix("ses") {
        format!("{x}s")
    } else if let Some(x) = w.strip_suffix('s') {
        x.to_string()
    } else {
        w
    }
}

fn scalar_id(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() && s.chars().count() <= 120 => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The id key of an object: an id-like key with a scalar value, preferring
/// one whose stem names `hint` (the collection or the tool), then `id`.
pub fn id_key<'a>(map: &'a Map<String, Value>, hint: &str) -> Option<&'a str> {
    let hint = hint.to_ascii_lowercase();
    let mut best: Option<(u8, &str)> = None;
    for (k, v) in map {
        if !id_like(k) || scalar_id(v).is_none() {
            continue;
        }
        let s = stem(k);
        let score = if !s.is_empty() && (hint.contains(&s) || singular(&hint) == s) {
            3
        } else if k.eq_ignore_ascii_case("id") {
            2
        } else {
            1
        };
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, k));
        }
    }
    best.map(|(_, k)| k)
}

fn is_prose(s: &str) -> bool {
    s.chars().count() > PROSE_CHARS || s.split_whitespace().count() > PROSE_WORDS
}

/// One line per value: newlines inside a value are written `\n`.
fn render(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) if s.trim().is_empty() => None,
        Value::Array(a) if a.is_empty() => None,
        Value::Object(o) if o.is_empty() => None,
        Value::String(s) => Some(s.replace('\n', "\\n")),
        other => Some(compact_json(other)),
    }
}

struct Walk<'a> {
    tool: &'a str,
    out: JsonEvidence,
}

impl Walk<'_> {
    /// Flatten `map` into `fields` under `prefix`, splitting off records.
    fn flatten(
        &mut self,
        map: &Map<String, Value>,
        prefix: &str,
        fields: &mut Vec<(String, String)>,
        present: &mut Vec<String>,
        prose: &mut Vec<String>,
    ) {
        for (k, v) in map {
            let path = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            match v {
                Value::Object(child) if id_key(child, k).is_some() => self.record(child, k),
                Value::Object(child) => self.flatten(child, &path, fields, present, prose),
                Value::Array(items) if items.iter().any(Value::is_object) => {
                    self.list(items, k, &path, fields, present, prose)
                }
                Value::String(s) if is_prose(s) => {
                    present.push(path.clone());
                    prose.push(format!("{path}: {s}"));
                }
                other => {
                    present.push(path.clone());
                    if let Some(text) = render(other) {
                        fields.push((path, text));
                    }
                }
            }
        }
    }

    fn list(
        &mut self,
        items: &[Value],
        key: &str,
        path: &str,
        fields: &mut Vec<(String, String)>,
        present: &mut Vec<String>,
        prose: &mut Vec<String>,
    ) {
        let (with_id, plain): (Vec<&Value>, Vec<&Value>) = items
            .iter()
            .partition(|i| i.as_object().is_some_and(|o| id_key(o, key).is_some()));
        for item in with_id {
            if let Some(o) = item.as_object() {
                self.record(o, key);
            }
        }
        present.push(path.to_string());
        if plain.is_empty() {
            return;
        }
        let inline = compact_json(&Value::Array(plain.into_iter().cloned().collect()));
        if inline.chars().count() <= INLINE_LIST_CHARS {
            fields.push((path.to_string(), inline));
        } else {
            prose.push(format!("{path}: {inline}"));
        }
    }

    fn record(&mut self, map: &Map<String, Value>, hint: &str) {
        let hint = if hint.is_empty() { self.tool } else { hint };
        let Some(id_field) = id_key(map, hint).map(str::to_string) else {
            return;
        };
        let Some(id) = map.get(&id_field).and_then(scalar_id) else {
            return;
        };
        let (mut fields, mut present, mut prose) = (Vec::new(), Vec::new(), Vec::new());
        self.flatten(map, "", &mut fields, &mut present, &mut prose);
        // The id first, the rest in the order the result gave them.
        if let Some(pos) = fields.iter().position(|(k, _)| *k == id_field) {
            let f = fields.remove(pos);
            fields.insert(0, f);
        }
        let id_field = if id_field.eq_ignore_ascii_case("id") {
            format!("{}.{id_field}", singular(hint))
        } else {
            id_field
        };
        self.out.records.push(Record {
            id_field,
            id,
            fields,
            present,
            prose,
        });
    }
}

/// The evidence in a JSON result of `tool`.
pub fn json_evidence(content: &Value, tool: &str) -> JsonEvidence {
    let mut w = Walk {
        tool,
        out: JsonEvidence::default(),
    };
    match content {
        Value::Object(map) if id_key(map, tool).is_some() => w.record(map, tool),
        Value::Object(map) => {
            let (mut fields, mut present, mut prose) = (Vec::new(), Vec::new(), Vec::new());
            w.flatten(map, "", &mut fields, &mut present, &mut prose);
            // An acknowledgement ({"ok": true}) carries no value worth pinning.
            if fields.iter().any(|(_, v)| v != "true" && v != "false") {
                w.out.call_fields = fields;
                w.out.call_present = present;
            }
            w.out.prose.extend(prose);
        }
        Value::Array(items) => {
            let (mut fields, mut present, mut prose) = (Vec::new(), Vec::new(), Vec::new());
            w.list(items, tool, "items", &mut fields, &mut present, &mut prose);
            w.out.call_fields = fields;
            w.out.prose.extend(prose);
        }
        _ => {}
    }
    w.out
}

/// Whether a line reports a failure or an exit status.
pub fn failure(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    [
        "error",
        "fail",
        "exit",
        "exception",
        "denied",
        "timeout",
        "timed out",
        "refused",
        "panic",
        "warning",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// Whether a line carries a value: a `key=value` or `key: value` pair, a
/// literal (id, number, path), or a failure or exit status.
pub fn value_bearing(line: &str) -> bool {
    if literals(line).next().is_some() {
        return true;
    }
    let pair = line
        .split_once(['=', ':'])
        .is_some_and(|(k, v)| !v.trim().is_empty() && k.split_whitespace().count() <= 4);
    pair || failure(line)
}

/// The lines of a text output worth keeping verbatim, trimmed.
pub fn text_evidence(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if text.chars().count() <= SHORT_TEXT_CHARS {
        return lines.into_iter().map(str::to_string).collect();
    }
    let mut out = Vec::new();
    for line in lines {
        if line.chars().count() <= LONG_LINE_CHARS {
            if value_bearing(line) {
                out.push(line.to_string());
            }
            continue;
        }
        for sentence in super::values::split_sentences(line) {
            if value_bearing(&sentence) {
                out.push(sentence);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn records_are_found_by_their_id_keys_at_any_depth() {
        let v = json!({"synthetic": true, "events": [
            {"event_id": "E-1", "actor_id": "U-1", "detail": {"amount": 5, "note": null}},
            {"event_id": "E-2", "actor_id": "U-2", "tags": ["a", "b"]}],
            "total": 2});
        let e = json_evidence(&v, "list_events");
        assert_eq!(e.records.len(), 2);
        let r = &e.records[0];
        assert_eq!((r.id_field.as_str(), r.id.as_str()), ("event_id", "E-1"));
        assert_eq!(
            r.fields,
            vec![
                ("event_id".into(), "E-1".into()),
                ("actor_id".into(), "U-1".into()),
                ("detail.amount".into(), "5".into())
            ]
        );
        assert!(r.present.contains(&"detail.note".to_string()));
        assert_eq!(
            e.records[1].fields[2],
            ("tags".into(), r#"["a","b"]"#.into())
        );
        assert_eq!(
            e.call_fields,
            vec![
                ("synthetic".into(), "true".into()),
                ("total".into(), "2".into())
            ]
        );
    }

    #[test]
    fn the_key_naming_the_tool_is_the_id_and_nested_records_split_off() {
        let v = json!({"invoice_id": "INV-1", "customer_id": "C-1", "id": 7,
            "lines": [{"line_id": "L-1", "amount": 3}], "memo": "x ".repeat(150)});
        let e = json_evidence(&v, "get_invoice");
        assert_eq!(e.records[0].id, "L-1");
        let inv = &e.records[1];
        assert_eq!(
            (inv.id_field.as_str(), inv.id.as_str()),
            ("invoice_id", "INV-1")
        );
        assert_eq!(inv.prose.len(), 1, "long prose goes to the summarizer");
        let plain = json_evidence(&json!({"id": 3, "name": "x"}), "get_widget");
        assert_eq!(plain.records[0].id_field, "get_widget.id");
    }

    #[test]
    fn short_text_is_kept_whole_and_long_text_keeps_its_values() {
        assert_eq!(
            text_evidence("FAIL test_a_1\nExpected order\nexit code: 1"),
            vec!["FAIL test_a_1", "Expected order", "exit code: 1"]
        );
        let long = format!(
            "{}\nport = 5413\nall good here\nERROR disk full\n{}",
            "intro words ".repeat(40),
            "see /var/log/app.log"
        );
        assert_eq!(
            text_evidence(&long),
            vec!["port = 5413", "ERROR disk full", "see /var/log/app.log"]
        );
    }
}
