//! Measure: the same request before and after, in tokens, segment by
//! segment over the model-visible text, with the floor and trigger rules.

use crate::error::Result;
use crate::kernel::MissionKernel;
use crate::policy::CompactionRules;
use crate::report::{Floor, Headroom, Tokens, TriggerCheck};
use crate::tokens::TokenCount;
use crate::transcript::Role;
use crate::transcript::{compact_json, Transcript};

use super::rebuild::Rebuilt;
use super::select::new_tool_results;

/// A fixed segment of a request: an instruction block or a tool schema.
pub struct FixedSegment {
    /// `instructions.N` or `tools.N`.
    pub item: String,
    pub kind: &'static str,
    pub text: String,
}

/// The segments no compaction removes: each instruction block, then each
/// tool schema as compact JSON.
pub fn fixed_segments(t: &Transcript) -> Vec<FixedSegment> {
    let instructions = t
        .instructions
        .iter()
        .enumerate()
        .map(|(i, s)| FixedSegment {
            item: format!("instructions.{i}"),
            kind: "instructions",
            text: s.clone(),
        });
    let tools = t.tools.iter().enumerate().map(|(i, s)| FixedSegment {
        item: format!("tools.{i}"),
        kind: "tool_schema",
        text: compact_json(s),
    });
    instructions.chain(tools).collect()
}

/// Tokens of a request's fixed segments.
pub fn fixed_tokens(t: &Transcript, tokens: &dyn TokenCount) -> Result<usize> {
    fixed_segments(t)
        .iter()
        .map(|s| tokens.count(&s.text))
        .sum()
}

/// Tokens of a whole request: its fixed segments and every part, each
/// counted as the model-visible text of its segment.
pub fn count_transcript(t: &Transcript, tokens: &dyn TokenCount) -> Result<usize> {
    let texts: Vec<String> = t.parts().map(|(_, p)| p.part.visible_text()).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let parts: usize = tokens.count_each(&texts)?.iter().sum();
    Ok(fixed_tokens(t, tokens)? + parts)
}

/// The request measured before and after, and the two rules.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    pub tokens: Tokens,
    pub floor: Floor,
    pub trigger: TriggerCheck,
}

/// Measure `input` (redacted, uncompacted) against its rebuild. `kernel` is
/// the rendered kernel, when the strategy renders it.
pub fn measure(
    input: &Transcript,
    rebuilt: &Rebuilt,
    kernel: Option<&MissionKernel>,
    rules: &CompactionRules,
    tokens: &dyn TokenCount,
) -> Result<Measured> {
    let count = |s: &str| tokens.count(s);
    let before = count_transcript(input, tokens)?;
    let fixed_overhead = fixed_tokens(&rebuilt.request, tokens)?;
    let kernel_tokens = kernel.map(|k| count(&k.render())).transpose()?.unwrap_or(0);
    let (framing, working_state, pinned, may_persist, summary) = match &rebuilt.block {
        Some(b) => (
            count(&b.framing)?,
            count(&b.working_state)?,
            count(&b.facts)?,
            count(&b.may_persist)?,
            count(&b.summary)?,
        ),
        None => (0, 0, 0, 0, count(&rebuilt.head_text)?),
    };
    let (mut tail, mut user) = (0, 0);
    for (at, p) in rebuilt.request.parts() {
        let head_message = at.message == 0;
        if head_message && at.part == 0 {
            continue;
        }
        let n = count(&p.part.visible_text())?;
        if head_message && at.part <= rebuilt.statements {
            user += n;
        } else {
            tail += n;
        }
    }
    let after =
        fixed_overhead + framing + working_state + pinned + may_persist + summary + user + tail;
    let remains = after - fixed_overhead;
    let required = fixed_overhead + 2 * remains;
    let new_tool_results = new_tool_results(input);
    Ok(Measured {
        tokens: Tokens {
            before,
            after,
            fixed_overhead,
            kernel: kernel_tokens,
            pinned,
            summary,
            user,
            tail,
            framing,
            may_persist,
            working_state,
        },
        floor: Floor {
            trigger: rules.trigger_tokens,
            required,
            met: rules.trigger_tokens >= required,
            remains,
        },
        trigger: TriggerCheck::of(rules, before, new_tool_results),
    })
}

/// Turns the growth rate is taken over: recent enough to follow the
/// session's current work, long enough to smooth one large result.
pub const GROWTH_TURNS: usize = 10;

/// How fast a session grows, turn by turn (a turn: an assistant message and
/// what follows it up to the next one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Growth {
    /// Tokens a turn adds, on average over the last [`GROWTH_TURNS`]
    /// whole turns.
    pub recent: f64,
    /// The most one whole turn of the session has added.
    pub largest: usize,
}

/// The session's growth per turn; `None` with fewer than two assistant
/// messages.
pub fn growth_per_turn(t: &Transcript, tokens: &dyn TokenCount) -> Result<Option<Growth>> {
    let starts: Vec<usize> = t
        .messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m.role == Role::Assistant)
        .map(|(i, _)| i)
        .collect();
    if starts.len() < 2 {
        return Ok(None);
    }
    let mut turns = Vec::with_capacity(starts.len() - 1);
    for w in starts.windows(2) {
        let mut n = 0;
        for m in &t.messages[w[0]..w[1]] {
            for p in &m.parts {
                n += tokens.count(&p.part.visible_text())?;
            }
        }
        turns.push(n);
    }
    let recent = &turns[turns.len() - GROWTH_TURNS.min(turns.len())..];
    Ok(Some(Growth {
        recent: recent.iter().sum::<usize>() as f64 / recent.len() as f64,
        largest: turns.iter().copied().max().unwrap_or(0),
    }))
}

/// Room between the compacted request and the trigger, in turns: about how
/// many at the session's recent rate, and how many even if each were as
/// large as its largest turn.
pub fn headroom(trigger: usize, target: usize, after: usize, growth: Option<Growth>) -> Headroom {
    let room = trigger.saturating_sub(after);
    let turns = growth
        .filter(|g| g.recent > 0.0)
        .map(|g| (room as f64 / g.recent * 10.0).floor() / 10.0);
    Headroom {
        trigger,
        target,
        after,
        room,
        growth_per_turn: growth.map(|g| g.recent.round() as usize),
        turns,
        largest_turn: growth.map(|g| g.largest),
        turns_at_largest: growth.filter(|g| g.largest > 0).map(|g| room / g.largest),
    }
}
