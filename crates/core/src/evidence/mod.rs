//! Evidence: what tools returned, pinned word for word.
//!
//! A policy names the fields to pin for a tool (the first is the record id);
//! every other tool's results are read by their shape ([`infer`]): JSON
//! records by their id keys and scalar fields, text by its value-bearing
//! lines. Pins sit in groups under the tool that returned them:
//!
//! ```text
//! list_subscription_events:
//! - event_id=SE-1 date=2025-11-14 type=subscription.created actor=U-1
//! read {"path":"/srv/app.toml"}:
//! - timeout_ms = 7137
//! ```
//!
//! The latest value wins per record and field: a later return of the same
//! record supersedes the fields it states again, and a later identical call
//! supersedes a text result. Each pin keeps its provenance (the call and the
//! message part) for the audit. Pins from an earlier compaction are read
//! back and carried forward ([`carried`]); a fresher return supersedes them.
//! What the user stated is in [`stated`]; what declares itself off the
//! mission in [`relevance`].

pub mod carried;
pub mod infer;
pub mod relevance;
pub mod stated;
pub mod values;

use std::collections::HashMap;

use serde_json::Value;

use crate::policy::RetentionPolicy;
use crate::transcript::{compact_json, Part, PartRef, Transcript};
use crate::working_state::{exec, ToolKind};

pub use carried::carried_pins;
use values::Mentions;

/// A result with more records than this is a bulk listing: only the
/// records a later turn mentions are pinned.
pub const BULK_RECORDS: usize = 8;
/// A text result keeping more lines than this is a bulk listing too.
pub const BULK_LINES: usize = 40;

/// The most characters of a call's arguments its group header shows.
pub const HEADER_ARGS_CHARS: usize = 160;

/// Which rule pinned a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PinKind {
    /// The policy names the tool and its fields.
    Policy,
    /// A JSON record found by its id key (no policy for the tool).
    Record,
    /// Value-bearing lines of a text result, or the values of a JSON result
    /// without an id (no policy for the tool).
    Text,
}

/// What makes two pins the same record, for latest-wins.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RecordKey {
    /// A record: its id field and value (`payment_id`, `TX-9002`).
    Field { field: String, value: String },
    /// A call's own result: its tool and arguments (a re-run replaces it).
    Call { tool: String, args: String },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Pin {
    pub call_id: String,
    pub tool: String,
    /// The record id (`TX-9002`); for a call's own result, its call id.
    pub record_id: String,
    pub key: RecordKey,
    /// The header of the group the pin sits under: the tool, or the tool and
    /// its arguments when the lines do not say what they are about.
    pub group: String,
    /// The rendered line(s), each `- …`, exactly as they appear under the
    /// group header.
    pub line: String,
    /// The fields stated, `(path, value)`, id first; empty for text.
    pub fields: Vec<(String, String)>,
    /// Every field path the return had, null and empty ones included.
    pub present: Vec<String>,
    pub source: PinSource,
    pub kind: PinKind,
    /// A later turn mentions one of its values.
    pub relied_on: bool,
}

impl Pin {
    /// The audit rule that pinned it.
    pub fn rule(&self) -> String {
        if self.source.is_carried() {
            return "evidence.carried_forward".into();
        }
        match self.kind {
            PinKind::Policy => format!("evidence.pins.{}", self.tool),
            PinKind::Record => "evidence.inferred.record".into(),
            PinKind::Text => "evidence.inferred.text".into(),
        }
    }
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

/// The line of a record's fields: `- f=v f=v`.
pub fn record_line(fields: &[(String, String)]) -> String {
    let mut line = String::from("-");
    for (f, v) in fields {
        line.push_str(&format!(" {f}={v}"));
    }
    line
}

/// The header line of a group.
pub fn group_header(group: &str) -> String {
    format!("{group}:")
}

/// A policy record: its id, its `(field, value)` pairs, the fields present.
type PolicyRecord = (String, Vec<(String, String)>, Vec<String>);

/// A policy record's fields, `(id, fields, present)`; `None` without an id.
fn policy_record(record: &Value, fields: &[String]) -> Option<PolicyRecord> {
    let id_field = fields.first()?;
    let record_id = lookup(record, id_field).and_then(|v| render_value(&v))?;
    let mut out = Vec::new();
    let mut present = Vec::new();
    for f in fields {
        if let Some(v) = lookup(record, f) {
            present.push(f.clone());
            if let Some(text) = render_value(&v) {
                out.push((f.clone(), text));
            }
        }
    }
    Some((record_id, out, present))
}

/// Everything [`extract_pins`] found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Extracted {
    /// The latest pin of each record, in transcript order.
    pub live: Vec<Pin>,
    /// Pins (or the fields of pins) a later return stated again.
    pub superseded: Vec<Pin>,
    /// Records of bulk listings that no later turn mentions: not pinned.
    pub bulk: Vec<Pin>,
    /// Prose left out of inferred records (for the summarizer), by part.
    pub prose: Vec<(PartRef, String)>,
}

/// The pins of one tool result, before latest-wins.
struct ResultPins {
    pins: Vec<Pin>,
    prose: Vec<String>,
}

/// The call's arguments, or `{}`.
fn args_of<'a>(calls: &HashMap<&str, &'a Value>, id: &str) -> &'a Value {
    static EMPTY: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    calls
        .get(id)
        .copied()
        .unwrap_or_else(|| EMPTY.get_or_init(|| Value::Object(Default::default())))
}

/// The group of a call's own result: the tool, with its arguments when the
/// text does not already name every argument value.
fn call_group(tool: &str, args: &Value, text: &str) -> String {
    let mut values = Vec::new();
    arg_values(args, &mut values);
    if values.iter().all(|v| text.contains(v.as_str())) {
        tool.to_string()
    } else {
        format!("{tool} {}", short_args(args))
    }
}

/// A call's arguments for its group header, cut to [`HEADER_ARGS_CHARS`]:
/// an edit's arguments can be a whole file, and its result says the rest.
fn short_args(args: &Value) -> String {
    let json = compact_json(args);
    match json.char_indices().nth(HEADER_ARGS_CHARS) {
        Some((cut, _)) => format!("{}…", &json[..cut]),
        None => json,
    }
}

fn arg_values(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if !s.is_empty() => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(items) => items.iter().for_each(|i| arg_values(i, out)),
        Value::Object(map) => map.values().for_each(|i| arg_values(i, out)),
        _ => {}
    }
}

struct ResultRef<'a> {
    at: PartRef,
    id: &'a str,
    tool: &'a str,
    args: &'a Value,
    kind: ToolKind,
}

/// The record a call's own result is: its tool and arguments. A command is
/// keyed by what it runs, so a re-run through another filter (`| tail -5`
/// after `| tail -10`) or with another description replaces its output.
fn call_key(r: &ResultRef<'_>) -> RecordKey {
    let command = (r.kind == ToolKind::Exec)
        .then(|| exec::command_line(r.args))
        .flatten();
    RecordKey::Call {
        tool: r.tool.to_string(),
        args: match command {
            Some(line) => exec::command_key(&line),
            None => compact_json(r.args),
        },
    }
}

fn policy_pins(r: &ResultRef<'_>, content: &Value, fields: &[String]) -> ResultPins {
    let mut pins = Vec::new();
    for rec in records(content, &fields[0]) {
        let Some((record_id, stated, present)) = policy_record(rec, fields) else {
            continue;
        };
        pins.push(Pin {
            call_id: r.id.to_string(),
            tool: r.tool.to_string(),
            key: RecordKey::Field {
                field: fields[0].clone(),
                value: record_id.clone(),
            },
            record_id,
            group: r.tool.to_string(),
            line: record_line(&stated),
            fields: stated,
            present,
            source: PinSource::Returned(r.at),
            kind: PinKind::Policy,
            relied_on: false,
        });
    }
    ResultPins {
        pins,
        prose: Vec::new(),
    }
}

fn call_pin(r: &ResultRef<'_>, fields: Vec<(String, String)>, lines: Vec<String>) -> Pin {
    let (line, present) = if fields.is_empty() {
        let rendered: Vec<String> = lines.iter().map(|l| format!("- {l}")).collect();
        (rendered.join("\n"), Vec::new())
    } else {
        (
            record_line(&fields),
            fields.iter().map(|(k, _)| k.clone()).collect(),
        )
    };
    Pin {
        call_id: r.id.to_string(),
        tool: r.tool.to_string(),
        record_id: r.id.to_string(),
        key: call_key(r),
        group: call_group(r.tool, r.args, &line),
        line,
        fields,
        present,
        source: PinSource::Returned(r.at),
        kind: PinKind::Text,
        relied_on: false,
    }
}

fn inferred_pins(r: &ResultRef<'_>, content: &Value, mentions: &Mentions) -> ResultPins {
    let Some(json) = structured(content) else {
        let text = crate::transcript::value_text(content);
        let mut lines = infer::text_evidence(&text);
        if lines.len() > BULK_LINES {
            // A bulk listing: the lines a later turn relies on, and failures.
            lines.retain(|l| mentions.any_after(l, r.at.message) || infer::failure(l));
        }
        let pins = if lines.is_empty() {
            Vec::new()
        } else {
            vec![call_pin(r, Vec::new(), lines)]
        };
        return ResultPins {
            pins,
            prose: Vec::new(),
        };
    };
    if json.get("error").is_some() {
        return ResultPins {
            pins: Vec::new(),
            prose: Vec::new(),
        };
    }
    let found = infer::json_evidence(&json, r.tool);
    let mut prose = found.prose;
    let mut pins = Vec::new();
    if !found.call_fields.is_empty() {
        let mut p = call_pin(r, found.call_fields, Vec::new());
        p.present = found.call_present;
        pins.push(p);
    }
    for rec in found.records {
        prose.extend(rec.prose);
        pins.push(Pin {
            call_id: r.id.to_string(),
            tool: r.tool.to_string(),
            key: RecordKey::Field {
                field: rec.id_field,
                value: rec.id.clone(),
            },
            record_id: rec.id,
            group: r.tool.to_string(),
            line: record_line(&rec.fields),
            fields: rec.fields,
            present: rec.present,
            source: PinSource::Returned(r.at),
            kind: PinKind::Record,
            relied_on: false,
        });
    }
    ResultPins { pins, prose }
}

/// What of a result its shape is read from, by the tool's kind: nothing
/// of a re-readable result (a file, a listing, a page), of a write, a plan
/// or an answer (the working-state digest carries those), or of a command
/// that only reads or failed; a command's own output, without the harness's
/// wrapper; anything else whole.
fn inferable<'a>(
    kind: ToolKind,
    content: &'a Value,
    args: &Value,
) -> Option<std::borrow::Cow<'a, Value>> {
    use std::borrow::Cow;
    match kind {
        ToolKind::Read | ToolKind::Fetch | ToolKind::Write | ToolKind::Plan | ToolKind::Ask => None,
        ToolKind::Exec => {
            let command = exec::command_line(args)?;
            if exec::read_only(&command) {
                return None;
            }
            let outcome = exec::outcome(content, false);
            (outcome.status == exec::Status::Ok).then(|| Cow::Owned(Value::String(outcome.output)))
        }
        ToolKind::Delegate | ToolKind::Other => Some(Cow::Borrowed(content)),
    }
}

/// Latest-wins over the pins found so far. Pins are kept in arrival order;
/// a superseded one becomes `None`.
#[derive(Default)]
struct Ledger {
    pins: Vec<Option<Pin>>,
    by_key: HashMap<RecordKey, Vec<usize>>,
    superseded: Vec<Pin>,
}

impl Ledger {
    /// Add `new`: earlier pins of its record lose the fields it states
    /// again, and are superseded whole when nothing else remains (carried
    /// pins and text results always are).
    fn add(&mut self, new: Pin) {
        let slots = self.by_key.entry(new.key.clone()).or_default();
        for &i in slots.iter() {
            let Some(old) = self.pins[i].as_mut() else {
                continue;
            };
            let whole = old.source.is_carried()
                || old.fields.is_empty()
                || new.fields.is_empty()
                || old.fields[1..].iter().all(|(k, _)| new.present.contains(k));
            if whole {
                if let Some(p) = self.pins[i].take() {
                    self.superseded.push(p);
                }
                continue;
            }
            let (gone, kept): (Vec<_>, Vec<_>) = old.fields[1..]
                .iter()
                .cloned()
                .partition(|(k, _)| new.present.contains(k));
            if gone.is_empty() {
                continue;
            }
            let id = old.fields[0].clone();
            let mut stated_again = old.clone();
            stated_again.fields = std::iter::once(id.clone()).chain(gone).collect();
            stated_again.line = record_line(&stated_again.fields);
            old.fields = std::iter::once(id).chain(kept).collect();
            old.line = record_line(&old.fields);
            self.superseded.push(stated_again);
        }
        slots.push(self.pins.len());
        self.pins.push(Some(new));
    }

    fn live(self) -> (Vec<Pin>, Vec<Pin>) {
        (self.pins.into_iter().flatten().collect(), self.superseded)
    }
}

/// Every tool result's pins, carried pins first, with latest-wins applied.
/// Tools the policy names are pinned by its fields (an empty list: a bulk
/// view, never pinned); the others are read by their shape when the policy
/// infers (the default).
pub fn extract_pins(t: &Transcript, policy: &RetentionPolicy) -> Extracted {
    let calls: HashMap<&str, &Value> = t
        .messages
        .iter()
        .flat_map(|m| m.tool_calls())
        .map(|(id, _, args)| (id, args))
        .collect();
    let infer = policy.retention.infer_evidence;
    let mentions = if infer {
        Mentions::of(t)
    } else {
        Mentions::default()
    };
    let mut ledger = Ledger::default();
    let mut out = Extracted::default();
    for pin in carried_pins(t, policy) {
        ledger.add(pin);
    }
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
        if *is_error || policy.is_bulk_view(name) {
            continue;
        }
        let args = args_of(&calls, id);
        let kind = policy.tools.kind_of(name, args);
        let r = ResultRef {
            at,
            id,
            tool: name,
            args,
            kind,
        };
        let found = match policy.pin_fields(name) {
            Some(fields) => match structured(content) {
                Some(json) => policy_pins(&r, &json, fields),
                None => continue,
            },
            None if infer => match inferable(kind, content, r.args) {
                Some(content) => inferred_pins(&r, &content, &mentions),
                None => continue,
            },
            None => continue,
        };
        out.prose.extend(found.prose.into_iter().map(|s| (at, s)));
        let bulk = found.pins.len() > BULK_RECORDS;
        for mut pin in found.pins {
            // A command's output and a sub-agent's report yield to the
            // digest and the budget: they are never kept whatever they cost.
            if pin.kind != PinKind::Policy && !matches!(kind, ToolKind::Exec | ToolKind::Delegate) {
                pin.relied_on = mentions.any_after(&pin.line, at.message);
            }
            if bulk && pin.kind == PinKind::Record && !pin.relied_on {
                out.bulk.push(pin);
            } else {
                ledger.add(pin);
            }
        }
    }
    let (live, superseded) = ledger.live();
    out.live = live;
    out.superseded = superseded;
    for p in out.live.iter_mut().filter(|p| p.source.is_carried()) {
        p.relied_on = p.relied_on || mentions.any_after(&p.line, p.source.part().message);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{Format, Message, Role};
    use serde_json::json;

    fn run(id: &str, command: &str, output: &str) -> Vec<Message> {
        vec![
            Message::new(
                Role::Assistant,
                vec![Part::ToolCall {
                    id: id.into(),
                    name: "Bash".into(),
                    args: json!({"command": command, "description": format!("run {id}")}),
                }],
            ),
            Message::new(
                Role::User,
                vec![Part::ToolResult {
                    id: id.into(),
                    name: "Bash".into(),
                    content: json!(output),
                    is_error: false,
                }],
            ),
        ]
    }

    fn transcript(runs: &[(&str, &str, &str)]) -> Transcript {
        let mut messages = vec![Message::new(Role::User, vec![Part::Text("go".into())])];
        for (id, command, output) in runs {
            messages.extend(run(id, command, output));
        }
        Transcript {
            format: Format::Anthropic,
            instructions: vec![],
            tools: vec![],
            messages,
            envelope: Default::default(),
            instruction_style: Default::default(),
        }
    }

    fn calls(pins: &[Pin]) -> Vec<&str> {
        pins.iter().map(|p| p.call_id.as_str()).collect()
    }

    #[test]
    fn a_command_run_again_through_another_filter_replaces_its_output() {
        let t = transcript(&[
            ("1", "mix test 2>&1 | tail -10", "84 tests, 2 failures"),
            ("2", "mix test 2>&1 | tail -5", "84 tests, 0 failures"),
            ("3", "mix test test/a_test.exs", "3 tests, 0 failures"),
        ]);
        let e = extract_pins(&t, &RetentionPolicy::default());
        assert_eq!(calls(&e.live), ["2", "3"], "the latest run of each command");
        assert_eq!(calls(&e.superseded), ["1"]);
    }

    #[test]
    fn two_different_commands_keep_their_own_outputs() {
        let t = transcript(&[
            ("1", "bd show task-1", "task-1: open"),
            ("2", "bd show task-2", "task-2: open"),
        ]);
        let e = extract_pins(&t, &RetentionPolicy::default());
        assert_eq!(calls(&e.live), ["1", "2"]);
        assert!(e.superseded.is_empty());
    }
}
