//! Text the commands print, kept apart from the work: each function turns
//! a library result into the lines a user reads.

pub mod eval;

use continuity_core::compact::Compaction;
use continuity_core::report::SummarizerReport;

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
        "      tokens {} -> {} ({:.1}% smaller; fixed {}, kernel {}, pinned {}, summary {}, tail {})\n",
        t.before, t.after, r.reduction_pct, t.fixed_overhead, t.kernel, t.pinned, t.summary, t.tail
    ));
    out.push_str(&format!(
        "       floor required {} vs trigger {}: {}\n",
        r.floor.required,
        r.floor.trigger,
        if r.floor.met { "met" } else { "NOT met" }
    ));
    out.push_str(&format!(
        "     audit {} records: {} pins, {} stubs, {} redactions\n",
        c.audit.len(),
        r.counts.pins,
        r.counts.stubs,
        r.counts.redactions
    ));
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

/// One model run's timings, from a summarizer's report or `generate`.
pub struct ModelTimings {
    pub load_ms: f64,
    pub prompt_tokens: usize,
    pub prefill_tokens_per_s: f64,
    pub generated_tokens: usize,
    pub decode_tokens_per_s: f64,
    pub decode_passes: usize,
    pub accepted_draft_tokens: usize,
    pub draft_tokens: usize,
}

impl ModelTimings {
    /// `load …, prefill …, decode … in N passes (k/n draft tokens kept)`.
    pub fn line(&self) -> String {
        format!(
            "load {:.2} s, prefill {} tokens at {:.1} tok/s, decode {} tokens at {:.1} tok/s in {} passes ({}/{} draft tokens kept)",
            self.load_ms / 1e3,
            self.prompt_tokens,
            self.prefill_tokens_per_s,
            self.generated_tokens,
            self.decode_tokens_per_s,
            self.decode_passes,
            self.accepted_draft_tokens,
            self.draft_tokens
        )
    }
}

/// One line of summarizer measurements (models only).
pub fn summarizer(s: &SummarizerReport) -> Option<String> {
    let m = s.model.as_ref()?;
    let timings = ModelTimings {
        load_ms: m.load_ms,
        prompt_tokens: m.prompt_tokens,
        prefill_tokens_per_s: m.prefill_tokens_per_s,
        generated_tokens: m.generated_tokens,
        decode_tokens_per_s: m.decode_tokens_per_s,
        decode_passes: m.decode_passes,
        accepted_draft_tokens: m.accepted_draft_tokens,
        draft_tokens: m.draft_tokens,
    };
    Some(format!(
        "  summarizer {}: {} input tokens (full history {}), {}, total {:.2} s, peak memory {:.0} MiB",
        s.name,
        s.input_tokens,
        s.full_input_tokens,
        timings.line(),
        m.latency_ms / 1e3,
        m.peak_memory_bytes as f64 / MIB
    ))
}

/// Bytes as MiB, rounded, for the perf lines.
pub fn mib(bytes: u64) -> String {
    format!("{:.0} MiB", bytes as f64 / MIB)
}
