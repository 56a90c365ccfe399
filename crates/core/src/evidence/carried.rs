//! Pins written by an earlier compaction, read back from the facts section
//! of its continuity block, so evidence survives any number of compactions.
//!
//! Three styles are read: ours (groups under `tool:` or `tool {args}:`
//! headers), our earlier one (records under `[CALL] tool` headers) and the
//! reference build's (`- [CALL] ID: field=...` lines).

use crate::markers::FACTS_PREFIX;
use crate::policy::RetentionPolicy;
use crate::transcript::{Part, Transcript};

use super::{Pin, PinKind, PinSource, RecordKey};

/// A group header of the facts section: `(tool, args)`; `args` is empty for
/// a plain `tool:` header.
pub fn parse_group_header(line: &str) -> Option<(String, String)> {
    if line.starts_with("- ") || line.starts_with('[') {
        return None;
    }
    let body = line.strip_suffix(':')?;
    match body.split_once(' ') {
        Some((tool, args))
            if !tool.is_empty() && (args.starts_with('{') || args.starts_with('[')) =>
        {
            Some((tool.to_string(), args.to_string()))
        }
        Some(_) => None,
        None if !body.is_empty() => Some((body.to_string(), String::new())),
        None => None,
    }
}

/// The first `field=value` of a record line `- field=value ...`.
fn first_pair(line: &str) -> Option<(String, String)> {
    let first = line.strip_prefix("- ")?.split_whitespace().next()?;
    let (k, v) = first.split_once('=')?;
    (!k.is_empty() && !v.is_empty()).then(|| (k.to_string(), v.to_string()))
}

enum Header {
    /// `[CALL] tool` (our earlier style).
    Call { call: String, tool: String },
    /// `tool:` or `tool {args}:`.
    Group { tool: String, args: String },
}

struct Reader<'a> {
    policy: &'a RetentionPolicy,
    source: PinSource,
    out: Vec<Pin>,
}

impl Reader<'_> {
    /// Pinned by a policy (or of unknown tool): must be kept.
    fn kind(&self, tool: &str) -> PinKind {
        if tool.is_empty() || self.policy.pin_fields(tool).is_some() {
            PinKind::Policy
        } else {
            PinKind::Record
        }
    }

    fn push(&mut self, call: &str, tool: &str, group: &str, line: &str, kind: PinKind) {
        let (key, record_id) = match first_pair(line) {
            Some((field, value)) if kind != PinKind::Text => (
                RecordKey::Field {
                    field,
                    value: value.clone(),
                },
                value,
            ),
            _ => (
                RecordKey::Call {
                    tool: tool.to_string(),
                    args: line.to_string(),
                },
                call.to_string(),
            ),
        };
        self.out.push(Pin {
            call_id: call.to_string(),
            tool: tool.to_string(),
            record_id,
            key,
            group: group.to_string(),
            line: line.to_string(),
            fields: Vec::new(),
            present: Vec::new(),
            source: self.source,
            kind,
            relied_on: false,
        });
    }

    /// A line under a header; false when the line ends the facts section.
    fn line(&mut self, header: &Option<Header>, line: &str) -> bool {
        if !line.starts_with("- ") {
            return false;
        }
        match header {
            Some(Header::Call { call, tool }) => {
                if first_pair(line).is_none() {
                    return false;
                }
                let group = if tool.is_empty() {
                    call.clone()
                } else {
                    tool.clone()
                };
                let kind = self.kind(tool);
                self.push(call, tool, &group, line, kind);
            }
            Some(Header::Group { tool, args }) if !args.is_empty() => {
                // A call's own result: every line belongs to one pin.
                let group = format!("{tool} {args}");
                match self.out.last_mut() {
                    Some(last) if last.group == group && last.source == self.source => {
                        last.line.push('\n');
                        last.line.push_str(line);
                    }
                    _ => {
                        self.push("", tool, &group, line, PinKind::Text);
                        if let Some(last) = self.out.last_mut() {
                            last.key = RecordKey::Call {
                                tool: tool.clone(),
                                args: args.clone(),
                            };
                        }
                    }
                }
            }
            Some(Header::Group { tool, .. }) => {
                let kind = if first_pair(line).is_some() {
                    self.kind(tool)
                } else {
                    PinKind::Text
                };
                self.push("", tool, tool, line, kind);
            }
            None => return false,
        }
        true
    }

    fn text(&mut self, text: &str) {
        let mut in_facts = false;
        let mut header: Option<Header> = None;
        for line in text.lines() {
            if line.starts_with(FACTS_PREFIX) {
                in_facts = true;
                header = None;
                continue;
            }
            if !in_facts {
                continue;
            }
            if let Some((tool, args)) = parse_group_header(line) {
                header = Some(Header::Group { tool, args });
            } else if let Some((call, tool)) = parse_call_header(line) {
                header = Some(Header::Call { call, tool });
            } else if let Some((call, record_id, rest)) = parse_legacy_pin(line) {
                self.out.push(Pin {
                    call_id: call,
                    tool: String::new(),
                    key: match first_pair(&rest) {
                        Some((field, value)) => RecordKey::Field { field, value },
                        None => RecordKey::Call {
                            tool: String::new(),
                            args: record_id.clone(),
                        },
                    },
                    record_id,
                    group: String::new(),
                    line: rest,
                    fields: Vec::new(),
                    present: Vec::new(),
                    source: self.source,
                    kind: PinKind::Policy,
                    relied_on: false,
                });
            } else if !self.line(&header, line) {
                in_facts = false;
                header = None;
            }
        }
    }
}

/// Pins written by an earlier compaction, read back from every text part.
pub fn carried_pins(t: &Transcript, policy: &RetentionPolicy) -> Vec<Pin> {
    let mut reader = Reader {
        policy,
        source: PinSource::Carried(crate::transcript::PartRef::new(0, 0)),
        out: Vec::new(),
    };
    for (at, p) in t.parts() {
        let Part::Text(text) = &p.part else { continue };
        if !text.contains(FACTS_PREFIX) {
            continue;
        }
        reader.source = PinSource::Carried(at);
        reader.text(text);
    }
    reader.out
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

    #[test]
    fn reads_back_every_pin_style() {
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
            parse_group_header("get_ticket:"),
            Some(("get_ticket".into(), String::new()))
        );
        assert_eq!(
            parse_group_header(r#"read {"path":"/a b"}:"#),
            Some(("read".into(), r#"{"path":"/a b"}"#.into()))
        );
        assert_eq!(
            parse_group_header("SUMMARY OF EARLIER WORK (advisory):"),
            None
        );
        assert_eq!(parse_group_header("- x:"), None);
    }

    #[test]
    fn a_block_reads_back_into_records_and_call_results() {
        let block = "[CONTINUITY]\nFACTS RETURNED BY TOOLS (verbatim):\nget_ticket:\n- ticket_id=T-1 status=open\nread {\"path\":\"/a\"}:\n- port = 1\n- host = h\n[toolu_9] get_invoice\n- invoice_id=INV-1 total=3\nSUMMARY OF EARLIER WORK:\nx";
        let t = Transcript {
            format: crate::transcript::Format::Anthropic,
            instructions: vec![],
            tools: vec![],
            messages: vec![crate::transcript::Message::new(
                crate::transcript::Role::User,
                vec![Part::Text(block.into())],
            )],
            envelope: Default::default(),
            instruction_style: Default::default(),
        };
        let pins = carried_pins(&t, &RetentionPolicy::default());
        let lines: Vec<&str> = pins.iter().map(|p| p.line.as_str()).collect();
        assert_eq!(
            lines,
            vec![
                "- ticket_id=T-1 status=open",
                "- port = 1\n- host = h",
                "- invoice_id=INV-1 total=3"
            ]
        );
        assert_eq!(
            pins[0].key,
            RecordKey::Field {
                field: "ticket_id".into(),
                value: "T-1".into()
            }
        );
        assert_eq!(pins[1].kind, PinKind::Text);
        assert_eq!(pins[2].call_id, "toolu_9");
    }
}
