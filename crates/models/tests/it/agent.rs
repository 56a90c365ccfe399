//! The agent's own tokens: o200k_base counts exactly; each session is
//! counted in its agent's unit; our count beside the provider's on the real
//! transcripts in `../shared/external/real-archives` (skipped, with one
//! line, when absent); headroom in a replay of a long real session.

use std::path::{Path, PathBuf};

use continuity_core::compact::{compact, count_transcript, Inputs, Strategy};
use continuity_core::error::Source;
use continuity_core::formats::{self, At, Document};
use continuity_core::redact::Redactor;
use continuity_core::summarize::Extractive;
use continuity_core::tokens::{relative_error, TokenCount};
use continuity_core::{MissionKernel, RetentionPolicy};
use continuity_models::agent::{self, Pair};
use continuity_models::TokenCounter;
use continuity_test_support::real_archives_or_skip;

#[test]
fn o200k_counts_known_strings_exactly() {
    let o = TokenCounter::o200k_base().unwrap();
    assert_eq!(o.name(), "o200k_base");
    // Ids from OpenAI's tiktoken on o200k_base.
    for (text, n) in [
        ("hello world", 2),
        ("Hello, world!", 4),
        ("The quick brown fox jumps over the lazy dog.", 10),
        ("", 0),
    ] {
        assert_eq!(o.count(text).unwrap(), n, "{text:?}");
    }
    // The same name through `--tokenizer`.
    let by_spec = TokenCounter::from_spec("o200k_base").unwrap();
    assert_eq!(by_spec.count("hello world").unwrap(), 2);
    // SmolLM2 splits hex and ids finer: the unit matters.
    let smol = TokenCounter::default_tokenizer().unwrap();
    let hex = "sha 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    assert!(smol.count(hex).unwrap() > o.count(hex).unwrap());
}

fn open(path: &Path) -> Document {
    let bytes = std::fs::read(path).unwrap();
    formats::open(&bytes, &Source::path(path)).unwrap()
}

fn sessions(dir: &Path, kind: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir.join(kind))
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// Fitted on the first half of a session's recorded requests, the mean
/// relative error on the second half (turns the fit did not see): the fit
/// alone (`recorded ≈ factor × ours + reasoning + unseen`), and the
/// estimate a report gives, from the request recorded before each one.
fn held_out_error(pairs: &[Pair], exact: bool) -> (f64, f64) {
    let half = pairs.len() / 2;
    let c = agent::calibrate(&pairs[..half], exact).unwrap();
    let mean = |errors: Vec<f64>| errors.iter().sum::<f64>() / errors.len() as f64;
    let fit = pairs[half..]
        .iter()
        .map(|p| relative_error(p.predict(&c), p.recorded as f64))
        .collect();
    let estimate = pairs[half - 1..]
        .windows(2)
        .map(|w| relative_error(w[0].estimate(w[1].ours, c.factor), w[1].recorded as f64))
        .collect();
    (mean(fit), mean(estimate))
}

/// Per session: its name and the held-out errors (fit, estimate), for
/// sessions with at least eight recorded requests whose content the
/// transcript holds (a rollout whose tool outputs were redacted before
/// publication counts 5% of what the provider counted, and is left out).
fn accuracy(kind: &str, counter: &TokenCounter, exact: bool) -> Option<Vec<(String, f64, f64)>> {
    let dir = real_archives_or_skip(&format!("agent tokens on {kind}"))?;
    let mut rows = Vec::new();
    for path in sessions(&dir, kind) {
        let doc = open(&path);
        let usage = agent::sample(doc.recorded_usage(), 40);
        let pairs = agent::pairs(&doc, &usage, counter).unwrap();
        let last = pairs.last().map(|p| p.ours as f64 / p.recorded as f64);
        if pairs.len() < 8 || last.is_some_and(|r| r < 0.1) {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (fit, estimate) = held_out_error(&pairs, exact);
        rows.push((name, fit, estimate));
    }
    for (name, fit, estimate) in &rows {
        eprintln!(
            "{kind}: {name}: held-out error: fit {:.2}%, estimate from the request before {:.2}%",
            100.0 * fit,
            100.0 * estimate
        );
    }
    Some(rows)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

#[test]
fn codex_requests_in_o200k_beside_the_recorded_count() {
    let o = TokenCounter::o200k_base().unwrap();
    let Some(rows) = accuracy("codex-rollout", &o, true) else {
        return;
    };
    assert!(rows.len() >= 3, "{rows:?}");
    for (name, fit, estimate) in &rows {
        // The estimate a report gives is within 2% of the provider's count.
        assert!(*estimate <= 0.02, "{name}: {estimate}");
        // The fit alone misses what a session adds that the rollout does
        // not hold (web results, truncated outputs: docs/budgets.md).
        assert!(*fit < 0.12, "{name}: {fit}");
    }
}

#[test]
fn claude_requests_calibrated_on_earlier_turns() {
    let smol = TokenCounter::default_tokenizer().unwrap();
    let Some(rows) = accuracy("claude-code", &smol, false) else {
        return;
    };
    assert!(rows.len() >= 5, "{rows:?}");
    // The fit alone is within 5% on held-out turns for four sessions of
    // seven; not for all (docs/budgets.md names the ones over it). The
    // estimate a report gives is, for every one.
    let within = rows.iter().filter(|r| r.1 <= 0.05).count();
    assert!(within >= 4, "{within} of {} within 5%", rows.len());
    assert!(median(rows.iter().map(|r| r.1).collect()) <= 0.05);
    for (name, fit, estimate) in &rows {
        assert!(*fit < 0.20, "{name}: {fit}");
        assert!(*estimate <= 0.05, "{name}: {estimate}");
    }
}

#[test]
fn each_session_is_counted_in_its_agents_unit() {
    let Some(dir) = real_archives_or_skip("agent unit choice") else {
        return;
    };
    let codex = open(&sessions(&dir, "codex-rollout")[0]);
    let read = codex.read(At::Last).unwrap();
    let a = agent::for_session(&codex, &read, None).unwrap();
    assert_eq!(a.counter.name(), "o200k_base");
    assert!(a.recorded.is_some());
    let claude = sessions(&dir, "claude-code")
        .into_iter()
        .find(|p| p.to_string_lossy().contains("jimmc414"))
        .unwrap();
    let doc = open(&claude);
    let read = doc.read(At::Last).unwrap();
    let a = agent::for_session(&doc, &read, None).unwrap();
    assert!(
        a.counter.name().contains("calibrated"),
        "{}",
        a.counter.name()
    );
    let rec = a.recorded.unwrap();
    let c = rec.calibration.unwrap();
    assert!((0.5..=2.0).contains(&c.factor), "{c:?}");
    // --tokenizer still overrides.
    let over = TokenCounter::from_spec("o200k_base").unwrap();
    let a = agent::for_session(&doc, &read, Some(over)).unwrap();
    assert_eq!(a.counter.name(), "o200k_base");
}

/// The last compaction of a replay, and what it promised.
struct LastCompaction {
    call: usize,
    after: usize,
    full_then: usize,
    estimated: f64,
    promised: usize,
    largest_turn: usize,
    /// The most a call added since: over `largest_turn`, the promise was
    /// made before a turn larger than any the session had had.
    largest_since: usize,
}

/// Replay a long real session as if compacted live: at each recorded model
/// call, the request is what the last compaction left plus what the session
/// added since; over the trigger, it is compacted (the real request at that
/// point) and the headroom noted. What holds: every compaction ends under
/// its target, none comes at the next turn (no compaction loop), and the
/// turns promised at the session's largest turn are kept unless a larger
/// turn than any before comes. The estimate at the recent rate is only
/// that (docs/budgets.md).
#[test]
fn a_replay_never_compacts_again_at_the_next_turn() {
    let Some(dir) = real_archives_or_skip("headroom replay") else {
        return;
    };
    let path = sessions(&dir, "codex-rollout")
        .into_iter()
        .find(|p| p.to_string_lossy().contains("11-26-55"))
        .unwrap();
    let doc = open(&path);
    let o = TokenCounter::o200k_base().unwrap();
    let mut policy = RetentionPolicy::default();
    policy.compaction.trigger_tokens = 30_000;
    let kernel = MissionKernel::session(chrono::Utc::now()).unwrap();
    // (calls between compactions, estimated, promised, a larger turn came)
    let mut gaps = Vec::new();
    let mut last: Option<LastCompaction> = None;
    let mut previous_full = 0;
    for (call, u) in doc.recorded_usage().iter().enumerate() {
        let read = doc.read(At::Line(u.line)).unwrap();
        let full = count_transcript(&read.transcript, &o).unwrap();
        let added = full.saturating_sub(previous_full);
        previous_full = full;
        let live = match &mut last {
            Some(l) => {
                l.largest_since = l.largest_since.max(added);
                l.after + full.saturating_sub(l.full_then)
            }
            None => full,
        };
        if live <= policy.compaction.trigger_tokens {
            continue;
        }
        if let Some(l) = &last {
            let larger = l.largest_since > l.largest_turn;
            gaps.push((call - l.call, l.estimated, l.promised, larger));
        }
        let inputs = Inputs {
            transcript: &read.transcript,
            input_name: "replay",
            kernel: &kernel,
            policy: &policy,
            strategy: Strategy::Governed,
        };
        let mut redactor = Redactor::new(&policy.personal_data).unwrap();
        let c = compact(
            &inputs,
            chrono::Utc::now(),
            &mut Extractive,
            &o,
            &mut redactor,
        )
        .unwrap();
        let h = &c.report.headroom;
        assert!(h.after <= h.target, "{h:?}");
        assert_eq!(h.target, 21_000);
        last = Some(LastCompaction {
            call,
            after: h.after,
            full_then: full,
            estimated: h.turns.unwrap_or(0.0),
            promised: h.turns_at_largest.unwrap_or(0),
            largest_turn: h.largest_turn.unwrap_or(0),
            largest_since: 0,
        });
    }
    eprintln!(
        "headroom replay: (calls between compactions, turns estimated at the recent rate, promised at the largest turn, a larger turn came) {gaps:?}"
    );
    assert!(gaps.len() >= 2, "{gaps:?}");
    for (gap, _, promised, larger) in &gaps {
        assert!(*gap >= 2, "{gaps:?}");
        // Never sooner than promised; and the promised turns all fitted,
        // unless a turn larger than any before came.
        assert!(*gap >= *promised, "{gaps:?}");
        assert!(*gap > *promised || *larger, "{gaps:?}");
    }
}
