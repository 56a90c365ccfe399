//! `continuity bench`: every summarizer over a set of archives, one governed
//! (or other) compaction each, timed end to end. Rows per compaction for the
//! CSV; medians per summarizer for the table. The compactions themselves are
//! the library's; this module only times and aggregates them.

use std::time::Instant;

use serde::Serialize;

use continuity_core::compact::{compact, Inputs, Strategy};
use continuity_core::error::Result;
use continuity_core::kernel::MissionKernel;
use continuity_core::policy::RetentionPolicy;
use continuity_core::redact::Redactor;
use continuity_core::summarize::{Summarizer, SummarizerMetrics};
use continuity_core::tokens::TokenCount;
use continuity_core::transcript::Transcript;

/// One archive to compact.
pub struct BenchInput {
    pub name: String,
    pub transcript: Transcript,
}

/// One timed compaction.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BenchRow {
    pub summarizer: String,
    pub input: String,
    pub strategy: String,
    pub tokens_before: usize,
    pub tokens_after: usize,
    /// Summarizer input (the narrative) and the whole history before the tail.
    pub summarizer_input_tokens: usize,
    pub full_input_tokens: usize,
    /// Wall time of the whole compaction, summarizer included.
    pub compaction_ms: f64,
    pub summary_words: usize,
    /// The model's measurements; zero for a summarizer without one.
    #[serde(flatten)]
    pub model: SummarizerMetrics,
    /// The summarizer's wall time: the model's latency, else its own.
    pub summarizer_ms: f64,
}

/// Medians over one summarizer's compactions.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BenchSummary {
    pub summarizer: String,
    pub compactions: usize,
    pub median_compaction_ms: f64,
    pub max_compaction_ms: f64,
    pub median_prompt_tokens: f64,
    pub median_prefill_tokens_per_s: f64,
    pub median_decode_tokens_per_s: f64,
    pub peak_memory_bytes: u64,
}

/// Compact every input with every summarizer (each loaded once, by its first
/// compaction; the load shows in that row's `load_ms`). `progress` is called
/// after each compaction.
#[allow(clippy::too_many_arguments)]
pub fn run(
    inputs: &[BenchInput],
    summarizers: &mut [Box<dyn Summarizer>],
    kernel: &MissionKernel,
    policy: &RetentionPolicy,
    strategy: Strategy,
    tokens: &dyn TokenCount,
    mut progress: impl FnMut(&BenchRow),
) -> Result<Vec<BenchRow>> {
    let mut rows = Vec::with_capacity(inputs.len() * summarizers.len());
    for summarizer in summarizers.iter_mut() {
        // Each summarizer's peak memory is its own: the previous one's model
        // is freed and the process's high-water mark restarts here.
        continuity_llm::model::reset_peak_rss();
        for input in inputs {
            let mut redactor = Redactor::new(&policy.personal_data)?;
            let started = Instant::now();
            let c = compact(
                &Inputs {
                    transcript: &input.transcript,
                    input_name: &input.name,
                    kernel,
                    policy,
                    strategy,
                },
                chrono::Utc::now(),
                summarizer.as_mut(),
                tokens,
                &mut redactor,
            )?;
            let compaction_ms = started.elapsed().as_secs_f64() * 1e3;
            let r = &c.report;
            let s = &r.summarizer;
            let row = BenchRow {
                summarizer: s.name.clone(),
                input: input.name.clone(),
                strategy: strategy.name().to_string(),
                tokens_before: r.tokens.before,
                tokens_after: r.tokens.after,
                summarizer_input_tokens: s.input_tokens,
                full_input_tokens: s.full_input_tokens,
                compaction_ms: round1(compaction_ms),
                summary_words: s.words,
                model: s.model.clone().unwrap_or_default(),
                summarizer_ms: s.model.as_ref().map_or(s.latency_ms, |m| m.latency_ms),
            };
            progress(&row);
            rows.push(row);
        }
        summarizer.release();
    }
    Ok(rows)
}

/// The median (mean of the middle two for an even count); 0 when empty.
pub fn median(values: &[f64]) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Per-summarizer medians, in the order the summarizers first appear.
pub fn summarize(rows: &[BenchRow]) -> Vec<BenchSummary> {
    let mut names: Vec<&str> = Vec::new();
    for r in rows {
        if !names.contains(&r.summarizer.as_str()) {
            names.push(&r.summarizer);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let mine: Vec<&BenchRow> = rows.iter().filter(|r| r.summarizer == name).collect();
            let col = |f: fn(&BenchRow) -> f64| -> Vec<f64> { mine.iter().map(|r| f(r)).collect() };
            BenchSummary {
                summarizer: name.to_string(),
                compactions: mine.len(),
                median_compaction_ms: round1(median(&col(|r| r.compaction_ms))),
                max_compaction_ms: col(|r| r.compaction_ms).into_iter().fold(0.0, f64::max),
                median_prompt_tokens: median(&col(|r| r.model.prompt_tokens as f64)),
                median_prefill_tokens_per_s: round1(median(&col(|r| r.model.prefill_tokens_per_s))),
                median_decode_tokens_per_s: round1(median(&col(|r| r.model.decode_tokens_per_s))),
                peak_memory_bytes: mine
                    .iter()
                    .map(|r| r.model.peak_memory_bytes)
                    .max()
                    .unwrap_or(0),
            }
        })
        .collect()
}

/// One CSV line per compaction, with a header.
pub fn to_csv(rows: &[BenchRow]) -> String {
    let mut out = String::from(
        "summarizer,input,strategy,tokens_before,tokens_after,summarizer_input_tokens,full_input_tokens,compaction_ms,summary_words,load_ms,prompt_tokens,prefill_tokens_per_s,generated_tokens,decode_tokens_per_s,decode_passes,draft_tokens,accepted_draft_tokens,summarizer_ms,peak_memory_bytes\n",
    );
    for r in rows {
        let m = &r.model;
        let fields = [
            csv_field(&r.summarizer),
            csv_field(&r.input),
            csv_field(&r.strategy),
            r.tokens_before.to_string(),
            r.tokens_after.to_string(),
            r.summarizer_input_tokens.to_string(),
            r.full_input_tokens.to_string(),
            r.compaction_ms.to_string(),
            r.summary_words.to_string(),
            m.load_ms.to_string(),
            m.prompt_tokens.to_string(),
            m.prefill_tokens_per_s.to_string(),
            m.generated_tokens.to_string(),
            m.decode_tokens_per_s.to_string(),
            m.decode_passes.to_string(),
            m.draft_tokens.to_string(),
            m.accepted_draft_tokens.to_string(),
            r.summarizer_ms.to_string(),
            m.peak_memory_bytes.to_string(),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

/// RFC 4180 quoting where needed (paths may hold commas).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[f64::NAN, 5.0]), 5.0);
    }

    fn row(name: &str, ms: f64, mem: u64) -> BenchRow {
        BenchRow {
            summarizer: name.into(),
            input: "a,b.json".into(),
            compaction_ms: ms,
            model: SummarizerMetrics {
                peak_memory_bytes: mem,
                ..Default::default()
            },
            ..Default::default()
        }
    }

    #[test]
    fn summaries_group_by_summarizer_in_order() {
        let rows = [
            row("b", 10.0, 5),
            row("a", 1.0, 1),
            row("b", 30.0, 7),
            row("b", 20.0, 6),
        ];
        let s = summarize(&rows);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].summarizer, "b");
        assert_eq!(s[0].compactions, 3);
        assert_eq!(s[0].median_compaction_ms, 20.0);
        assert_eq!(s[0].max_compaction_ms, 30.0);
        assert_eq!(s[0].peak_memory_bytes, 7);
        assert_eq!(s[1].median_compaction_ms, 1.0);
        let mut with_model = rows[1].clone();
        with_model.model.prompt_tokens = 100;
        with_model.model.prefill_tokens_per_s = 50.0;
        let m = &summarize(&[with_model])[0];
        assert_eq!(
            (m.median_prompt_tokens, m.median_prefill_tokens_per_s),
            (100.0, 50.0)
        );
    }

    #[test]
    fn csv_quotes_fields_with_commas() {
        let csv = to_csv(&[row("x", 1.5, 0)]);
        let mut lines = csv.lines();
        assert_eq!(lines.next().unwrap().split(',').count(), 19);
        assert!(lines.next().unwrap().starts_with("x,\"a,b.json\","));
    }
}
