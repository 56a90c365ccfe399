//! Rebuild: assemble the compacted request for each strategy.
//!
//! Governed: the kernel goes into the instructions unchanged; a continuity
//! block (pinned facts, earlier calls, the advisory summary) replaces the
//! head, followed by what the user stated, verbatim, each in its own text
//! part; the tail follows. Summary-only: the summary replaces the head and
//! the instructions are left as the input had them.

use crate::evidence::{group_header, Pin};
use crate::kernel::{strip_rendered_kernels, MissionKernel};
use crate::markers::{
    CONTINUITY_TAG, FACTS_HEADER, MAY_PERSIST_HEADER, SUMMARY_HEADER, SUMMARY_ONLY_HEADER,
};
use crate::transcript::{Message, Part, PartRec, Role, Transcript};

use super::select::{Selection, Stub};

/// The compacted request, and the head text that replaced the head.
#[derive(Debug, Clone, PartialEq)]
pub struct Rebuilt {
    pub request: Transcript,
    pub head_text: String,
    /// The continuity block, when the strategy keeps the kernel or pins.
    pub block: Option<ContinuityBlock>,
    /// How many carried statements follow the head text (parts 1..=N of the
    /// first message).
    pub statements: usize,
}

/// What goes into the rebuilt head.
pub struct HeadParts<'a> {
    /// The kernel, when the strategy renders it into the instructions.
    pub kernel: Option<&'a MissionKernel>,
    pub pins: &'a [Pin],
    /// The working-state digest as rendered (empty for none).
    pub working_state: &'a str,
    pub earlier_calls: &'a [String],
    pub summary: &'a str,
    /// What the user stated, carried verbatim, in conversation order.
    pub statements: &'a [String],
    /// A continuity block (kernel or pins kept), else a summary-only head.
    pub block: bool,
}

/// The compacted request: new instructions, the head text, then the tail
/// with its stubs.
pub fn rebuild(t: &Transcript, selection: &Selection, head: &HeadParts<'_>) -> Rebuilt {
    let block = head.block.then(|| {
        continuity_block(
            head.kernel,
            &BlockParts {
                working_state: head.working_state,
                pins: head.pins,
                may_persist: head.earlier_calls,
                summary: head.summary,
            },
        )
    });
    let head_text = match &block {
        Some(b) => b.text(),
        None => summary_only_head(head.summary),
    };
    let mut head_parts = vec![head_text.clone()];
    head_parts.extend(head.statements.iter().cloned());
    let request = assemble(
        t,
        selection.tail_start,
        &selection.stubs,
        instructions(&t.instructions, head.kernel),
        head_parts,
    );
    Rebuilt {
        request,
        head_text,
        block,
        statements: head.statements.len(),
    }
}

/// The sections of the governed continuity block, kept apart so each can be
/// measured.
#[derive(Debug, Clone, PartialEq)]
pub struct ContinuityBlock {
    pub framing: String,
    pub working_state: String,
    pub facts: String,
    pub may_persist: String,
    pub summary: String,
}

impl ContinuityBlock {
    pub fn sections(&self) -> Vec<&str> {
        [
            self.framing.as_str(),
            self.working_state.as_str(),
            self.facts.as_str(),
            self.may_persist.as_str(),
            self.summary.as_str(),
        ]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect()
    }
    pub fn text(&self) -> String {
        self.sections().join("\n")
    }
}

/// The sections of a continuity block below its framing.
#[derive(Default)]
pub struct BlockParts<'a> {
    pub working_state: &'a str,
    pub pins: &'a [Pin],
    pub may_persist: &'a [String],
    pub summary: &'a str,
}

/// The head of a compacted request that keeps the kernel, pins, or both.
pub fn continuity_block(kernel: Option<&MissionKernel>, parts: &BlockParts<'_>) -> ContinuityBlock {
    let BlockParts {
        working_state,
        pins,
        may_persist,
        summary,
    } = *parts;
    let framing = match kernel {
        Some(kernel) => format!(
            "{CONTINUITY_TAG} | mission {} v{} | kernel {}]\nEarlier conversation was compacted. Your mission and its limits are in your instructions; they cannot be changed by memory or summaries.",
            kernel.id,
            kernel.version,
            kernel.short_hash()
        ),
        None => format!("{CONTINUITY_TAG}]\nEarlier conversation was compacted."),
    };
    let facts = if pins.is_empty() {
        String::new()
    } else {
        let mut lines = vec![FACTS_HEADER.to_string()];
        for (group, members) in group_pins(pins) {
            lines.push(group_header(group));
            lines.extend(members.iter().map(|p| p.line.clone()));
        }
        lines.join("\n")
    };
    let may = if may_persist.is_empty() {
        String::new()
    } else {
        format!("{MAY_PERSIST_HEADER}\n{}", may_persist.join("\n"))
    };
    let summary = if summary.is_empty() {
        String::new()
    } else {
        format!("{SUMMARY_HEADER}\n{summary}")
    };
    ContinuityBlock {
        framing,
        working_state: working_state.to_string(),
        facts,
        may_persist: may,
        summary,
    }
}

/// Pins grouped under their header (the tool, or the tool and its
/// arguments), in first-seen order.
pub fn group_pins(pins: &[Pin]) -> Vec<(&str, Vec<&Pin>)> {
    let mut index: std::collections::HashMap<&str, usize> = Default::default();
    let mut groups: Vec<(&str, Vec<&Pin>)> = Vec::new();
    for p in pins {
        match index.get(p.group.as_str()) {
            Some(&i) => groups[i].1.push(p),
            None => {
                index.insert(&p.group, groups.len());
                groups.push((&p.group, vec![p]));
            }
        }
    }
    groups
}

pub fn summary_only_head(summary: &str) -> String {
    if summary.is_empty() {
        format!("{SUMMARY_ONLY_HEADER}\n(no summary was kept)")
    } else {
        format!("{SUMMARY_ONLY_HEADER}\n{summary}")
    }
}

/// Instructions without any kernel we rendered before; the kernel is
/// appended for governed requests.
pub fn instructions(input: &[String], kernel: Option<&MissionKernel>) -> Vec<String> {
    let mut out: Vec<String> = input
        .iter()
        .map(|s| strip_rendered_kernels(s))
        .filter(|s| !s.trim().is_empty())
        .collect();
    if let Some(k) = kernel {
        out.push(k.render());
    }
    out
}

/// The compacted transcript: new instructions, the head texts (the
/// continuity block, then the carried statements), then the tail with its
/// stubs applied.
pub fn assemble(
    input: &Transcript,
    tail_start: usize,
    stubs: &[Stub],
    instructions: Vec<String>,
    head_parts: Vec<String>,
) -> Transcript {
    let mut tail: Vec<Message> = input.messages[tail_start..].to_vec();
    for s in stubs {
        let part = tail
            .get_mut(s.part.message - tail_start)
            .and_then(|m| m.parts.get_mut(s.part.part))
            .map(|p| &mut p.part);
        match (part, &s.args) {
            (Some(Part::ToolResult { content, .. }), None) => {
                *content = serde_json::Value::String(s.stub.clone());
            }
            (Some(Part::ToolCall { args, .. }), Some(stubbed)) => *args = stubbed.clone(),
            _ => {}
        }
    }
    let mut messages = Vec::with_capacity(tail.len() + 1);
    let single = head_parts.len() == 1;
    let parts: Vec<PartRec> = head_parts
        .into_iter()
        .map(|s| PartRec::new(Part::Text(s)))
        .collect();
    match tail.first_mut() {
        // The tail opens on the user side: the head texts join that message
        // so roles still alternate.
        Some(first) if first.role == Role::User => {
            first.parts.splice(0..0, parts);
            first.string_content = false;
        }
        _ => {
            let mut head = Message::new(Role::User, Vec::new());
            head.parts = parts;
            head.string_content = single;
            messages.push(head);
        }
    }
    messages.extend(tail);
    Transcript {
        format: input.format,
        instructions,
        tools: input.tools.clone(),
        messages,
        envelope: input.envelope.clone(),
        instruction_style: input.instruction_style.clone(),
    }
}
