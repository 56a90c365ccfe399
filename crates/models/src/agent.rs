//! The agent's own tokens: which counter a session is measured in, chosen
//! from the model its request or transcript records, and our count beside
//! the provider's where the transcript recorded usage.
//!
//! - OpenAI models (gpt-*, o1/o3/o4*, codex-*): o200k_base, their public
//!   tokenizer, exact.
//! - Claude: its tokenizer is not public. The bundled SmolLM2 counts times
//!   the factor fitted on the usage the transcript recorded
//!   (`recorded ≈ factor × ours + unseen`); without recorded usage, the
//!   bundled counts, labelled as such.
//! - Anything else: the bundled SmolLM2 tokenizer, labelled as such.

use continuity_core::compact::count_transcript;
use continuity_core::error::Error;
use continuity_core::formats::{At, Document, Read, RecordedUsage};
use continuity_core::report::Recorded;
use continuity_core::tokens::{fit, fit_offset, CachedCount, Calibration, TokenCount};

use crate::tokenizer::{TokenCounter, DEFAULT_TOKENIZER_NAME};

/// Whose tokenizer a model name implies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// o200k_base.
    OpenAi,
    Claude,
    Unknown,
}

/// The family of a recorded model name (`gpt-5.1-codex`, `claude-opus-4-5`).
pub fn family(model: Option<&str>) -> Family {
    let Some(m) = model.map(|m| m.trim().to_ascii_lowercase()) else {
        return Family::Unknown;
    };
    let m = m.rsplit('/').next().unwrap_or_default();
    let openai = m.starts_with("gpt-")
        || m.starts_with("chatgpt-")
        || m.starts_with("codex-")
        || ["o1", "o3", "o4"]
            .iter()
            .any(|p| m == *p || m.starts_with(&format!("{p}-")));
    if openai {
        Family::OpenAi
    } else if m.starts_with("claude") || ["opus", "sonnet", "haiku"].contains(&m) {
        Family::Claude
    } else {
        Family::Unknown
    }
}

/// The counter a model name implies when no usage is recorded: o200k_base
/// for OpenAI models, else the bundled tokenizer.
pub fn for_model(model: Option<&str>) -> Result<TokenCounter, Error> {
    match family(model) {
        Family::OpenAi => TokenCounter::o200k_base(),
        _ => TokenCounter::default_tokenizer(),
    }
}

/// Requests whose usage is compared at most: evenly spaced, the last one
/// always among them.
pub const MAX_POINTS: usize = 24;

/// The counter a session is measured in, and our count beside the
/// provider's.
pub struct AgentTokens {
    pub counter: TokenCounter,
    pub recorded: Option<Recorded>,
}

/// The agent's counter for the request `read` from `doc`: `over` when given
/// (`--tokenizer`), else chosen by the recorded model (see the module).
pub fn for_session(
    doc: &Document,
    read: &Read,
    over: Option<TokenCounter>,
) -> Result<AgentTokens, Error> {
    let usage = usage_until(doc, read.origin.at_line);
    let fam = family(read.transcript.model());
    let base = match over {
        Some(c) => c,
        None => for_model(read.transcript.model())?,
    };
    if usage.is_empty() {
        return Ok(AgentTokens {
            counter: base,
            recorded: None,
        });
    }
    let pairs = pairs(doc, &sample(&usage, MAX_POINTS), &base)?;
    let ours_now = match (pairs.last(), read.origin.at_line) {
        (Some(last), Some(line)) if line == last.line => last.ours,
        _ => count_transcript(&read.transcript, &base)?,
    };
    let exact = base.name() == crate::tokenizer::O200K_NAME || fam != Family::Claude;
    let calibration = calibrate(&pairs, exact);
    let counter = match calibration.filter(|_| !exact) {
        Some(c) => {
            let name = format!(
                "{}x{:.3} (calibrated on {} recorded Claude requests)",
                base.name(),
                c.factor,
                c.pairs
            );
            base.scaled(c.factor, name)
        }
        None => base,
    };
    let Some(last) = pairs.last().copied() else {
        return Ok(AgentTokens {
            counter,
            recorded: None,
        });
    };
    let factor = calibration.map_or(1.0, |c| c.factor);
    let recorded = Recorded {
        line: last.line,
        provider_tokens: last.recorded,
        our_tokens: (factor * last.ours as f64).round() as usize,
        hidden_reasoning_tokens: last.hidden,
        calibration,
        estimated_provider_tokens: last.estimate(ours_now, factor).round().max(0.0) as u64,
    };
    Ok(AgentTokens {
        counter,
        recorded: Some(recorded),
    })
}

/// One request counted both ways.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pair {
    pub line: usize,
    pub ours: usize,
    /// Of `recorded`, the reasoning the transcript holds only encrypted.
    pub hidden: u64,
    pub recorded: u64,
}

impl Pair {
    /// The provider's count predicted from ours: the fit over what the
    /// transcript holds, plus the hidden reasoning the transcript recorded.
    pub fn predict(&self, c: &Calibration) -> f64 {
        c.predict(self.ours as f64) + self.hidden as f64
    }

    /// The provider's count of a later request of which we count
    /// `ours_now`: this one's recorded count plus what was added since, in
    /// the provider's unit (`factor` × ours). What the transcript does not
    /// hold (the harness's prompt, the turn's reasoning so far) is in the
    /// recorded count already, so only the change since is estimated.
    pub fn estimate(&self, ours_now: usize, factor: f64) -> f64 {
        self.recorded as f64 + factor * (ours_now as f64 - self.ours as f64)
    }
}

/// The recorded requests at or before `at_line` (all without one).
pub fn usage_until(doc: &Document, at_line: Option<usize>) -> Vec<RecordedUsage> {
    doc.recorded_usage()
        .iter()
        .filter(|u| at_line.is_none_or(|l| u.line <= l))
        .copied()
        .collect()
}

/// At most `n` of `usage`, evenly spaced, the last one kept.
pub fn sample(usage: &[RecordedUsage], n: usize) -> Vec<RecordedUsage> {
    if usage.len() <= n || n < 2 {
        return usage.to_vec();
    }
    let last = usage.len() - 1;
    (0..n).map(|i| usage[i * last / (n - 1)]).collect()
}

/// Each recorded request read again and counted with `counter`. A point
/// that no longer reads (a transcript cut short) is left out.
pub fn pairs(
    doc: &Document,
    usage: &[RecordedUsage],
    counter: &dyn TokenCount,
) -> Result<Vec<Pair>, Error> {
    let cached = CachedCount::new(counter);
    let mut out = Vec::new();
    for u in usage {
        let Ok(read) = doc.read(At::Line(u.line)) else {
            continue;
        };
        out.push(Pair {
            line: u.line,
            ours: count_transcript(&read.transcript, &cached)?,
            hidden: u.hidden_reasoning_tokens,
            recorded: u.input_tokens,
        });
    }
    Ok(out)
}

/// The fit over `pairs` of what the transcript holds against the provider's
/// count less the hidden reasoning: only the unseen offset for an exact
/// tokenizer, factor and offset otherwise.
pub fn calibrate(pairs: &[Pair], exact: bool) -> Option<Calibration> {
    let xy: Vec<(f64, f64)> = pairs
        .iter()
        .map(|p| (p.ours as f64, p.recorded.saturating_sub(p.hidden) as f64))
        .collect();
    if exact {
        fit_offset(&xy)
    } else {
        fit(&xy)
    }
}

/// How a report names the bundled fallback's unit.
pub fn bundled_label() -> String {
    format!("{DEFAULT_TOKENIZER_NAME} (bundled; not the agent's tokenizer)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_names_map_to_their_tokenizer() {
        for m in [
            "gpt-5.1-codex",
            "gpt-4o",
            "o3",
            "o4-mini",
            "codex-mini-latest",
            "openai/gpt-5",
        ] {
            assert_eq!(family(Some(m)), Family::OpenAi, "{m}");
        }
        for m in ["claude-opus-4-5-20251101", "claude-sonnet-4-5", "sonnet"] {
            assert_eq!(family(Some(m)), Family::Claude, "{m}");
        }
        for m in ["llama3", "o1x", "gemini-2.5-pro"] {
            assert_eq!(family(Some(m)), Family::Unknown, "{m}");
        }
        assert_eq!(family(None), Family::Unknown);
    }

    #[test]
    fn a_later_request_is_its_recorded_count_plus_what_was_added() {
        let p = Pair {
            line: 10,
            ours: 8_000,
            hidden: 300,
            recorded: 20_000,
        };
        // The unseen part and the reasoning are in the recorded count.
        assert_eq!(p.estimate(9_000, 1.0), 21_000.0);
        assert_eq!(p.estimate(9_000, 1.2), 21_200.0);
        assert_eq!(p.estimate(8_000, 1.2), 20_000.0);
        let c = Calibration {
            factor: 1.0,
            offset: 11_700.0,
            pairs: 1,
        };
        assert_eq!(p.predict(&c), 20_000.0);
    }

    #[test]
    fn sampling_keeps_the_ends() {
        let u: Vec<RecordedUsage> = (1..=100)
            .map(|i| RecordedUsage {
                line: i,
                input_tokens: i as u64,
                hidden_reasoning_tokens: 0,
            })
            .collect();
        let s = sample(&u, 5);
        assert_eq!(s.len(), 5);
        assert_eq!((s[0].line, s[4].line), (1, 100));
    }
}
