//! Text the commands print, kept apart from the work: each function turns
//! a library result into the lines a user reads.

pub mod eval;
pub mod retention;

use continuity_core::compact::Compaction;
use continuity_core::report::SummarizerReport;
use continuity_core::side_by_side::SideBySide;
use continuity_core::summarize::SummarizerMetrics;
use continuity_eval::side_by_side::{verdict_counts, KeyedPair};

const MIB: f64 = 1024.0 * 1024.0;

/// What `compact` prints after writing its files.
pub fn compaction(c: &Compaction, written: &[String]) -> String {
    let r = &c.report;
    let t = &r.tokens;
    let mut out = format!(
        "   Compacted {} ({}, {}, summarizer {})\n",
        r.input, r.format, r.strategy, r.summarizer.name
    );
    out.push_str(&format!(
        "      tokens {} -> {} ({:.1}% smaller; fixed {}, kernel {}, pinned {}, user {}, summary {}, tail {}), counted in {}\n",
        t.before, t.after, r.reduction_pct, t.fixed_overhead, t.kernel, t.pinned, t.user, t.summary, t.tail, r.tokenizer
    ));
    if let Some(rec) = &r.recorded {
        out.push_str(&recorded(rec));
    }
    out.push_str(&headroom(r));
    out.push_str(&floor(r));
    out.push_str(&format!(
        "     audit {} records: {} pins, {} stubs, {} redactions\n",
        c.audit.len(),
        r.counts.pins,
        r.counts.stubs,
        r.counts.redactions
    ));
    if r.counts.pins_relied_on_over_budget > 0 {
        out.push_str(&format!(
            "     yielded {} pins a later turn mentions: keeping them all is over the target; the newest were kept (audit rule budget.newest_first)\n",
            r.counts.pins_relied_on_over_budget
        ));
    }
    if let Some(line) = summarizer(&r.summarizer) {
        out.push_str(&line);
        out.push('\n');
    }
    if let Some(g) = &r.governance {
        out.push_str(&format!(
            "  policy pin {} seq {} sha256 {}: {} constraints verified; policy loaded {:.1}s ago{}\n",
            g.run_id,
            g.sequence,
            &g.sha256[..12.min(g.sha256.len())],
            g.constraints,
            g.policy_freshness_s,
            if g.policy_changed {
                " (policy revision changed since the previous pin: rehydrated)"
            } else {
                ""
            }
        ));
    }
    out.push_str(&format!("       wrote {}\n", written.join(", ")));
    out
}

/// Our count beside the provider's, what the transcript does not hold, and
/// the provider's count this request is estimated at.
fn recorded(rec: &continuity_core::report::Recorded) -> String {
    let hidden = match rec.hidden_reasoning_tokens {
        0 => String::new(),
        n => format!(" (+{n} of the turn's reasoning, held only encrypted)"),
    };
    let mut out = format!(
        "    recorded the provider counted {} input tokens at line {}, where we count {} in the transcript{hidden}\n",
        rec.provider_tokens, rec.line, rec.our_tokens
    );
    out.push_str(&format!(
        "             this request: about {} of the provider's tokens (that count plus what was added since)",
        rec.estimated_provider_tokens
    ));
    if let Some(c) = &rec.calibration {
        out.push_str(&format!(
            "; over {} recorded requests, provider ≈ {:.3} × ours + reasoning + {:.0} unseen (the harness's system prompt and tool schemas)",
            c.pairs, c.factor, c.offset
        ));
    }
    out.push('\n');
    out
}

/// Trigger, target and the room a compaction leaves, in turns.
fn headroom(r: &continuity_core::report::Report) -> String {
    let h = &r.headroom;
    if h.after > h.trigger {
        // What must be kept raised the target over the trigger.
        return format!(
            "    headroom compacted to {} under the target {} (must keep {}), which is over the trigger {}: no room, the next request compacts again (a trigger above {} leaves some)\n",
            h.after, h.target, r.budget.must_keep, h.trigger, h.after
        );
    }
    let recent = match (h.turns, h.growth_per_turn) {
        (Some(n), Some(g)) => {
            format!(", about {n:.1} turns at the session's recent {g} tokens a turn")
        }
        _ => String::new(),
    };
    let turns = match (h.turns_at_largest, h.largest_turn) {
        (Some(0), Some(l)) => {
            format!("{recent}; a turn as large as its largest ({l} tokens) would not fit")
        }
        (Some(n), Some(l)) => {
            format!("{recent}; at least {n} even if each were as large as its largest ({l} tokens)")
        }
        _ => recent,
    };
    format!(
        "    headroom compacted to {} under the target {} (must keep {}); the next compaction starts over the trigger {}: room for {} tokens{}\n",
        h.after, h.target, r.budget.must_keep, h.trigger, h.room, turns
    )
}

/// The floor rule in words: whether a compaction frees as much as it keeps.
fn floor(r: &continuity_core::report::Report) -> String {
    let f = &r.floor;
    let fixed = r.tokens.fixed_overhead;
    if f.met {
        format!(
            "       floor met: kept {} beyond the fixed {}; the trigger {} is at least fixed + 2 × kept = {}, so each compaction frees at least what it keeps\n",
            f.remains, fixed, f.trigger, f.required
        )
    } else {
        format!(
            "       floor not met (not an error): kept {} beyond the fixed {}; the trigger {} is under fixed + 2 × kept = {}, so a compaction frees less than it keeps and they come often (a trigger of at least {} avoids that)\n",
            f.remains, fixed, f.trigger, f.required, f.required
        )
    }
}

/// One model run's timings, from a summarizer's report or `generate`:
/// `load …, prefill …, decode … in N passes (k/n draft tokens kept)`.
pub fn model_timings(m: &SummarizerMetrics) -> String {
    format!(
        "load {:.2} s, prefill {} tokens at {:.1} tok/s, decode {} tokens at {:.1} tok/s in {} passes ({}/{} draft tokens kept)",
        m.load_ms / 1e3,
        m.prompt_tokens,
        m.prefill_tokens_per_s,
        m.generated_tokens,
        m.decode_tokens_per_s,
        m.decode_passes,
        m.accepted_draft_tokens,
        m.draft_tokens
    )
}

/// One line of summarizer measurements (models only).
pub fn summarizer(s: &SummarizerReport) -> Option<String> {
    let m = s.model.as_ref()?;
    Some(format!(
        "  summarizer {}: {} input tokens (full history {}), {}, total {:.2} s, peak memory {:.0} MiB",
        s.name,
        s.input_tokens,
        s.full_input_tokens,
        model_timings(m),
        m.latency_ms / 1e3,
        m.peak_memory_bytes as f64 / MIB
    ))
}

/// Bytes as MiB, rounded, for the perf lines.
pub fn mib(bytes: u64) -> String {
    format!("{:.0} MiB", bytes as f64 / MIB)
}

/// The agent's compaction beside ours, as Markdown (`side_by_side.md`).
pub fn side_by_side(s: &SideBySide, key: Option<&KeyedPair>) -> String {
    let c = &s.compaction;
    let mut out = format!(
        "# The agent's compaction {} beside ours\n\nThe request read just before the agent's compaction {} (line {}, {}), compacted by both.\n\n",
        c.index,
        c.index,
        c.line,
        c.trigger.as_deref().unwrap_or("trigger not recorded"),
    );
    out.push_str(&format!(
        "| | tokens | literal state kept |\n|---|---:|---:|\n| request before | {} | {} literals |\n| agent's context after | {} | {}/{} ({:.1}%) |\n| ours | {} | {}/{} ({:.1}%) |\n\n",
        s.tokens_before,
        s.literals,
        s.tokens_agent,
        s.agent.present,
        s.agent.total,
        100.0 * s.agent.fraction,
        s.tokens_ours,
        s.ours.present,
        s.ours.total,
        100.0 * s.ours.fraction,
    ));
    if let Some(t) = c.recorded_tokens_before {
        out.push_str(&format!(
            "The agent recorded {t} tokens before its compaction (its own tokenizer).\n\n"
        ));
    }
    if s.agent_opaque {
        out.push_str("The agent's compaction is opaque (encrypted): only what it kept in the clear is counted.\n\n");
    }
    out.push_str("Literal state: the ids, paths, numbers and commands of the request's conversation, each counted as kept when it appears verbatim in that side's context.\n\n");
    if let Some(k) = key {
        out.push_str(&keyed_table(k));
    }
    for (name, p) in [("agent", &s.agent), ("ours", &s.ours)] {
        if !p.missing.is_empty() {
            out.push_str(&format!(
                "Missing from {name} (first {}): ",
                p.missing.len()
            ));
            let shown: Vec<String> = p
                .missing
                .iter()
                .map(|m| format!("`{}`", m.replace('`', "'")))
                .collect();
            out.push_str(&shown.join(", "));
            out.push_str("\n\n");
        }
    }
    out
}

/// The answer key judged on both sides: verdict counts, then each fact.
fn keyed_table(k: &KeyedPair) -> String {
    let mut out = format!(
        "Answer key, judged by `{}` against the records of the request before (as `continuity eval`):\n\n| | supported | omitted | contradicted | keyword facts present |\n|---|---:|---:|---:|---:|\n",
        k.judge
    );
    for (name, r) in [("agent", &k.agent), ("ours", &k.ours)] {
        let (s, o, c) = verdict_counts(r);
        out.push_str(&format!(
            "| {name} | {s} | {o} | {c} | {}/{} |\n",
            r.keyword.facts_present.len(),
            r.keyword.facts_present.len() + r.keyword.facts_missing.len()
        ));
    }
    out.push_str("\n| fact | agent | ours |\n|---|---|---|\n");
    for (a, o) in k.agent.facts.iter().zip(&k.ours.facts) {
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            a.id,
            a.verdict.name(),
            o.verdict.name()
        ));
    }
    out.push('\n');
    out
}

/// The end of a folder batch: counts, the failed sessions, the summary.
/// Files that are not sessions are counted as skipped; the summary names
/// them.
pub fn batch(rows: &[continuity_batch::Row], out: &std::path::Path) -> String {
    use continuity_batch::{Status, SUMMARY_CSV, SUMMARY_SQLITE};
    let failed: Vec<_> = rows.iter().filter(|r| r.status == Status::Failed).collect();
    let count = |resumed: bool| {
        rows.iter()
            .filter(|r| r.resumed == resumed && r.status == Status::Compacted)
            .count()
    };
    let skipped = rows.iter().filter(|r| r.status == Status::Skipped).count();
    let mut s = format!(
        "   Compacted {} session(s), {} already done, {} failed, {skipped} skipped (not a session)\n",
        count(false),
        count(true),
        failed.len()
    );
    for r in failed {
        s.push_str(&format!(
            "      failed {}: {}\n",
            r.name,
            r.error.as_deref().unwrap_or("")
        ));
    }
    s.push_str(&format!(
        "     summary {} and {}\n",
        out.join(SUMMARY_CSV).display(),
        out.join(SUMMARY_SQLITE).display()
    ));
    s
}

/// One line for the terminal: the agent's compaction beside ours.
pub fn side_by_side_line(s: &SideBySide, key: Option<&KeyedPair>) -> String {
    let mut out = format!(
        "  vs agent's compaction {}: literal state {:.1}% (agent, {} tokens) vs {:.1}% (ours, {} tokens) of {} literals\n",
        s.compaction.index,
        100.0 * s.agent.fraction,
        s.tokens_agent,
        100.0 * s.ours.fraction,
        s.tokens_ours,
        s.literals
    );
    if let Some(k) = key {
        let (a, _, ac) = verdict_counts(&k.agent);
        let (o, _, oc) = verdict_counts(&k.ours);
        out.push_str(&format!(
            "         answer key: {a}/{n} supported, {ac} contradicted (agent) vs {o}/{n} supported, {oc} contradicted (ours)\n",
            n = k.ours.facts.len()
        ));
    }
    out
}

/// `plan` as a table, with the unit and the headroom at the policy's
/// trigger and target.
pub fn plan(plans: &[continuity_core::plan::StrategyPlan]) -> String {
    let mut out = String::new();
    if let Some(p) = plans.first() {
        out.push_str(&format!("tokens counted in {}\n", p.tokenizer));
    }
    out.push_str(&format!(
        "{:<13} {:>7} {:>8} {:>7} {:>11} {:>15} {:>8} {:>7} {:>6} {:>20}\n",
        "strategy",
        "fixed",
        "remains",
        "after",
        "min trigger",
        "per 100k @ min",
        "trigger",
        "target",
        "room",
        "headroom turns"
    ));
    for p in plans {
        let turns = match (p.turns_at_largest, p.headroom_turns, p.growth_per_turn) {
            (Some(least), Some(n), Some(g)) => format!("≥{least}, ~{n:.1} @ {g}/turn"),
            _ => "n/a".into(),
        };
        out.push_str(&format!(
            "{:<13} {:>7} {:>8} {:>7} {:>11} {:>15.2} {:>8} {:>7} {:>6} {:>20}\n",
            p.strategy,
            p.fixed_overhead,
            p.remains,
            p.after,
            p.min_trigger,
            p.compactions_per_100k_at_min,
            p.policy_trigger,
            p.target,
            p.room,
            turns
        ));
    }
    out
}
