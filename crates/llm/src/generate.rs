//! Token generation over a loaded [`Model`]: chunked prefill into the KV
//! cache, then one token at a time with greedy or seeded sampling, a repeat
//! penalty, stop tokens, a token budget and an optional caller stop check.
//! Deterministic for the same model, prompt, options and seed.
//!
//! Greedy decoding can also speculate (prompt lookup): when the last tokens
//! occurred before in the prompt or output, the tokens that followed them
//! are run as a draft in one forward pass, and kept as far as they equal
//! what greedy decoding picks. Summaries copy names, ids and amounts from
//! their input, so drafts often hold. Each checked row is bit-identical to a
//! one-token step ([`super::model::Network::forward_rows`]), so the output is the same
//! as without speculation, only sooner.

use std::time::Instant;

use candle_core::{Device, Tensor};
use candle_transformers::generation::{LogitsProcessor, Sampling};

use super::model::{peak_rss_bytes, LlmError, Model};

/// How the next token is chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplingOptions {
    /// 0 (or less): greedy (argmax, first index on ties, as llama.cpp).
    pub temperature: f64,
    pub top_k: Option<usize>,
    pub top_p: Option<f64>,
    pub seed: u64,
    /// Divide positive / multiply negative logits of recently generated
    /// tokens by this (llama.cpp's rule); 1.0 disables it.
    pub repeat_penalty: f32,
    /// How many of the most recent *generated* tokens the penalty covers
    /// (prompt tokens are not penalized, so ids and amounts can be copied).
    pub repeat_last_n: usize,
    /// Never complete an n-gram of this many tokens that the output already
    /// holds (0 disables it): small models otherwise loop on a sentence.
    pub no_repeat_ngram: usize,
}

impl Default for SamplingOptions {
    fn default() -> Self {
        Self {
            temperature: 0.0,
            top_k: None,
            top_p: None,
            seed: 0,
            repeat_penalty: 1.0,
            repeat_last_n: 64,
            no_repeat_ngram: 0,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct GenerateOptions {
    pub max_new_tokens: usize,
    pub sampling: SamplingOptions,
    /// Extra stop ids besides the model's [`Model::stop_tokens`].
    pub extra_stop_tokens: Vec<u32>,
    /// Longest prompt-lookup draft checked per forward pass (0: no
    /// speculation). Used only with greedy sampling, where it cannot change
    /// the output, and on networks that can check a draft in one pass.
    pub lookahead: usize,
    /// Record this many highest logits at each step ([`Generation::top_logits`]);
    /// 0 records none. For comparing greedy picks across implementations.
    pub top_logits: usize,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        Self {
            max_new_tokens: 256,
            sampling: SamplingOptions::default(),
            extra_stop_tokens: Vec::new(),
            lookahead: 0,
            top_logits: 0,
        }
    }
}

/// Why generation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    StopToken,
    MaxTokens,
    /// The caller's check returned `false`.
    Caller,
    ContextFull,
}

/// Measurements of one generation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timings {
    /// Model load time (from the [`Model`]).
    pub load_ms: f64,
    pub prompt_tokens: usize,
    pub prefill_ms: f64,
    /// Tokens produced (a final stop token is not counted).
    pub generated_tokens: usize,
    /// Time of the forward passes after the prefill.
    pub decode_ms: f64,
    /// Peak resident set size of the process (`VmHWM`), bytes.
    pub peak_rss_bytes: u64,
    /// Forward passes after the prefill.
    pub decode_passes: usize,
    /// Draft tokens checked, and how many of them greedy decoding kept.
    pub draft_tokens: usize,
    pub accepted_draft_tokens: usize,
}

impl Timings {
    pub fn prefill_tokens_per_s(&self) -> f64 {
        per_s(self.prompt_tokens, self.prefill_ms)
    }
    /// Tokens/s over the decode forwards (the first generated token comes
    /// from the prefill logits, so `generated_tokens - 1` of them are
    /// decoded).
    pub fn decode_tokens_per_s(&self) -> f64 {
        per_s(self.generated_tokens.saturating_sub(1), self.decode_ms)
    }

    /// The sum of two generations' timings, as one (the later peak RSS, the
    /// earlier load time where the later has none).
    pub fn add(&self, later: &Timings) -> Timings {
        Timings {
            load_ms: if later.load_ms > 0.0 {
                later.load_ms
            } else {
                self.load_ms
            },
            prompt_tokens: self.prompt_tokens + later.prompt_tokens,
            prefill_ms: self.prefill_ms + later.prefill_ms,
            generated_tokens: self.generated_tokens + later.generated_tokens,
            decode_ms: self.decode_ms + later.decode_ms,
            peak_rss_bytes: self.peak_rss_bytes.max(later.peak_rss_bytes),
            decode_passes: self.decode_passes + later.decode_passes,
            draft_tokens: self.draft_tokens + later.draft_tokens,
            accepted_draft_tokens: self.accepted_draft_tokens + later.accepted_draft_tokens,
        }
    }
}

fn per_s(n: usize, ms: f64) -> f64 {
    if ms > 0.0 {
        n as f64 * 1e3 / ms
    } else {
        0.0
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Generation {
    /// Generated ids, without the stop token.
    pub tokens: Vec<u32>,
    pub text: String,
    pub stop: StopReason,
    pub timings: Timings,
    /// Per sampled token (a final stop token included), the
    /// [`GenerateOptions::top_logits`] highest (id, logit) pairs the sampler
    /// saw, highest first; empty when not asked for.
    pub top_logits: Vec<Vec<(u32, f32)>>,
}

/// Index of the largest logit; the first one on ties.
pub fn argmax(logits: &[f32]) -> u32 {
    let mut best = 0usize;
    for (i, &v) in logits.iter().enumerate() {
        if v > logits[best] {
            best = i;
        }
    }
    best as u32
}

/// The `k` highest logits as (id, logit), highest first; on ties the lower
/// id first, as [`argmax`] picks it.
pub fn top_logits(logits: &[f32], k: usize) -> Vec<(u32, f32)> {
    let mut top: Vec<(u32, f32)> = Vec::with_capacity(k + 1);
    for (i, &v) in logits.iter().enumerate() {
        if top.len() == k && top.last().is_none_or(|&(_, w)| v <= w) {
            continue;
        }
        let at = top.partition_point(|&(_, w)| w >= v);
        top.insert(at, (i as u32, v));
        top.truncate(k);
    }
    top
}

/// Longest n-gram, in tokens, that [`lookup_draft`] matches.
const DRAFT_MAX_NGRAM: usize = 3;

/// Prompt-lookup draft: find the most recent earlier occurrence of the last
/// `n` tokens of `prompt ++ generated`, `n` from 3 down to 1, and return the
/// tokens that followed it: up to `len` after a match of 2 or 3 tokens, one
/// after a single-token match (it predicts less often, and a two-row pass
/// costs little more than one). Empty when nothing matches.
///
/// Measured on the reference archives' summaries (`continuity bench`, the
/// `decode_passes` column): a 3-token draft is the sweet spot, a 4-row pass
/// costs ~1.15x a 1-row one on qwen2.5-0.5b, and 8 rows ~1.7x.
pub fn lookup_draft(prompt: &[u32], generated: &[u32], len: usize) -> Vec<u32> {
    let at = |i: usize| {
        if i < prompt.len() {
            prompt[i]
        } else {
            generated[i - prompt.len()]
        }
    };
    let total = prompt.len() + generated.len();
    if len == 0 {
        return Vec::new();
    }
    for n in (1..=DRAFT_MAX_NGRAM).rev() {
        if total <= n {
            continue;
        }
        let tail = total - n;
        // Candidate starts, latest first; the match must end before the tail.
        for i in (0..tail).rev() {
            if (0..n).all(|j| at(i + j) == at(tail + j)) {
                let from = i + n;
                let take = if n == 1 { 1 } else { len };
                let to = total.min(from + take);
                return (from..to).map(at).collect();
            }
        }
    }
    Vec::new()
}

/// llama.cpp's repeat penalty over the distinct tokens of `recent`.
pub fn apply_repeat_penalty(logits: &mut [f32], recent: &[u32], penalty: f32) {
    if penalty == 1.0 {
        return;
    }
    let mut seen = std::collections::HashSet::new();
    for &t in recent {
        if seen.insert(t) {
            if let Some(l) = logits.get_mut(t as usize) {
                *l = if *l > 0.0 { *l / penalty } else { *l * penalty };
            }
        }
    }
}

/// Ban every token that would complete an `n`-gram already in `generated`
/// (the rule of Hugging Face's `no_repeat_ngram_size`).
pub fn ban_repeated_ngrams(logits: &mut [f32], generated: &[u32], n: usize) {
    if n == 0 || generated.len() < n {
        return;
    }
    let prefix = &generated[generated.len() - (n - 1)..];
    for w in generated.windows(n) {
        if &w[..n - 1] == prefix {
            if let Some(l) = logits.get_mut(w[n - 1] as usize) {
                *l = f32::NEG_INFINITY;
            }
        }
    }
}

struct Sampler {
    greedy: bool,
    processor: LogitsProcessor,
}

impl Sampler {
    fn new(o: &SamplingOptions) -> Self {
        let greedy = o.temperature <= 0.0;
        let t = o.temperature;
        let sampling = match (o.top_k, o.top_p) {
            _ if greedy => Sampling::ArgMax,
            (None, None) => Sampling::All { temperature: t },
            (Some(k), None) => Sampling::TopK { k, temperature: t },
            (None, Some(p)) => Sampling::TopP { p, temperature: t },
            (Some(k), Some(p)) => Sampling::TopKThenTopP {
                k,
                p,
                temperature: t,
            },
        };
        Self {
            greedy,
            processor: LogitsProcessor::from_sampling(o.seed, sampling),
        }
    }

    fn sample(&mut self, logits: Vec<f32>) -> Result<u32, LlmError> {
        if self.greedy {
            return Ok(argmax(&logits));
        }
        let n = logits.len();
        let t = Tensor::from_vec(logits, n, &Device::Cpu)?;
        Ok(self.processor.sample(&t)?)
    }
}

/// Run the prompt into the KV cache (from position 0) in chunks; logits of
/// its last token.
pub fn prefill(model: &mut Model, prompt: &[u32]) -> Result<Vec<f32>, LlmError> {
    if prompt.is_empty() {
        return Err(LlmError::Other("empty prompt".into()));
    }
    model.network.clear_cache();
    feed(model, prompt, 0)
}

/// Run `tokens` into the KV cache at positions `start..` in chunks; logits
/// of the last one.
fn feed(model: &mut Model, tokens: &[u32], start: usize) -> Result<Vec<f32>, LlmError> {
    if start + tokens.len() > model.context_length() {
        return Err(LlmError::Other(format!(
            "prompt of {} tokens exceeds the context length {}",
            start + tokens.len(),
            model.context_length()
        )));
    }
    let chunk = model
        .network
        .max_prefill_chunk()
        .unwrap_or(tokens.len())
        .max(1);
    let mut logits = Vec::new();
    for (i, c) in tokens.chunks(chunk).enumerate() {
        logits = model.network.forward(c, start + i * chunk)?;
    }
    Ok(logits)
}

/// Generate from `prompt` (token ids, BOS included if the model wants one).
/// `keep_going` sees the ids generated so far after each token; returning
/// `false` stops (e.g. a word cap).
pub fn generate_with(
    model: &mut Model,
    prompt: &[u32],
    opts: &GenerateOptions,
    mut keep_going: impl FnMut(&Model, &[u32]) -> bool,
) -> Result<Generation, LlmError> {
    let mut timings = Timings {
        load_ms: model.load_ms,
        prompt_tokens: prompt.len(),
        ..Default::default()
    };
    let t0 = Instant::now();
    model.network.reserve(prompt.len() + opts.max_new_tokens);
    let logits = prefill(model, prompt)?;
    timings.prefill_ms = t0.elapsed().as_secs_f64() * 1e3;
    decode(model, prompt, logits, opts, timings, &mut keep_going)
}

/// Generate after each of several prompts that share a beginning (one log,
/// several questions about it): the shared tokens are prefilled once, and
/// each later prompt costs only the forward of its own tail, where the
/// network can rewind its cache (elsewhere each prompt is prefilled whole).
/// Each generation is the one [`generate_with`] gives for its prompt alone.
///
/// One [`Generation`] per prompt; its `prompt_tokens` and `prefill_ms`
/// count what it fed, and only the first carries the model's load time.
pub fn generate_each(
    model: &mut Model,
    prompts: &[Vec<u32>],
    opts: &GenerateOptions,
    mut keep_going: impl FnMut(&Model, &[u32]) -> bool,
) -> Result<Vec<Generation>, LlmError> {
    // Every prompt keeps at least its last token to feed.
    let shared = prompts
        .iter()
        .map(|p| p.len().saturating_sub(1))
        .min()
        .unwrap_or(0)
        .min(common_prefix_len(prompts));
    let longest = prompts.iter().map(Vec::len).max().unwrap_or(0);
    model.network.reserve(longest + opts.max_new_tokens);
    let mut out = Vec::with_capacity(prompts.len());
    for (i, prompt) in prompts.iter().enumerate() {
        let reuse = i > 0 && shared > 0 && model.network.can_rewind();
        let t0 = Instant::now();
        let (logits, fed) = if reuse {
            (
                feed(model, &prompt[shared..], shared)?,
                prompt.len() - shared,
            )
        } else {
            (prefill(model, prompt)?, prompt.len())
        };
        let timings = Timings {
            load_ms: if i == 0 { model.load_ms } else { 0.0 },
            prompt_tokens: fed,
            prefill_ms: t0.elapsed().as_secs_f64() * 1e3,
            ..Default::default()
        };
        out.push(decode(
            model,
            prompt,
            logits,
            opts,
            timings,
            &mut keep_going,
        )?);
    }
    Ok(out)
}

/// How many leading tokens all of `prompts` have in common.
fn common_prefix_len(prompts: &[Vec<u32>]) -> usize {
    let Some((first, rest)) = prompts.split_first() else {
        return 0;
    };
    rest.iter().fold(first.len(), |n, p| {
        first[..n].iter().zip(p).take_while(|(a, b)| a == b).count()
    })
}

/// Decode after `context`, all of it in the KV cache; `logits` are those of
/// its last token.
fn decode(
    model: &mut Model,
    context: &[u32],
    logits: Vec<f32>,
    opts: &GenerateOptions,
    mut timings: Timings,
    keep_going: &mut impl FnMut(&Model, &[u32]) -> bool,
) -> Result<Generation, LlmError> {
    let mut stops = model.stop_tokens.clone();
    stops.extend(&opts.extra_stop_tokens);
    let mut sampler = Sampler::new(&opts.sampling);
    let ctx = model.context_length();
    let t1 = Instant::now();
    let speculate = opts.lookahead > 0 && sampler.greedy && model.network.can_forward_rows();
    let mut tokens: Vec<u32> = Vec::new();
    let mut top = Vec::new();
    // `rows[i]`: logits after the tokens so far plus `draft[..i]`.
    let mut rows = vec![logits];
    let mut draft: Vec<u32> = Vec::new();
    let stop = 'decode: loop {
        let mut next = 0;
        for (i, logits) in rows.drain(..).enumerate() {
            if tokens.len() >= opts.max_new_tokens {
                break 'decode StopReason::MaxTokens;
            }
            next = sample_next(&mut sampler, opts, &tokens, logits, &mut top)?;
            if stops.contains(&next) {
                break 'decode StopReason::StopToken;
            }
            tokens.push(next);
            if !keep_going(model, &tokens) {
                break 'decode StopReason::Caller;
            }
            if draft.get(i) != Some(&next) {
                // Rows past a miss saw a wrong token: drop them.
                break;
            }
            timings.accepted_draft_tokens += 1;
        }
        if tokens.len() >= opts.max_new_tokens {
            break StopReason::MaxTokens;
        }
        let pos = context.len() + tokens.len() - 1;
        if pos + 1 > ctx {
            break StopReason::ContextFull;
        }
        draft = if speculate {
            let room = (opts.max_new_tokens - tokens.len() - 1).min(ctx - pos - 1);
            lookup_draft(context, &tokens, opts.lookahead.min(room))
        } else {
            Vec::new()
        };
        timings.decode_passes += 1;
        rows = if draft.is_empty() {
            vec![model.network.forward(&[next], pos)?]
        } else {
            timings.draft_tokens += draft.len();
            let mut input = Vec::with_capacity(draft.len() + 1);
            input.push(next);
            input.extend(&draft);
            model.network.forward_rows(&input, pos)?
        };
    };
    timings.decode_ms = t1.elapsed().as_secs_f64() * 1e3;
    finish(model, tokens, stop, timings, top)
}

/// The next token from one row of logits, after the repeat penalty and the
/// n-gram ban; its top logits recorded when asked.
fn sample_next(
    sampler: &mut Sampler,
    opts: &GenerateOptions,
    tokens: &[u32],
    mut logits: Vec<f32>,
    top: &mut Vec<Vec<(u32, f32)>>,
) -> Result<u32, LlmError> {
    let s = &opts.sampling;
    let recent = &tokens[tokens.len().saturating_sub(s.repeat_last_n)..];
    apply_repeat_penalty(&mut logits, recent, s.repeat_penalty);
    ban_repeated_ngrams(&mut logits, tokens, s.no_repeat_ngram);
    if opts.top_logits > 0 {
        top.push(top_logits(&logits, opts.top_logits));
    }
    sampler.sample(logits)
}

/// The generation: its text, and the counts its timings lack so far.
fn finish(
    model: &Model,
    tokens: Vec<u32>,
    stop: StopReason,
    mut timings: Timings,
    top: Vec<Vec<(u32, f32)>>,
) -> Result<Generation, LlmError> {
    timings.generated_tokens = tokens.len();
    timings.peak_rss_bytes = peak_rss_bytes();
    let text = model.decode(&tokens)?;
    Ok(Generation {
        tokens,
        text,
        stop,
        timings,
        top_logits: top,
    })
}

/// [`generate_with`] without a caller stop check.
pub fn generate(
    model: &mut Model,
    prompt: &[u32],
    opts: &GenerateOptions,
) -> Result<Generation, LlmError> {
    generate_with(model, prompt, opts, |_, _| true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_draft_follows_the_latest_longest_match() {
        // "7 8 9" occurs twice in the prompt; the latest occurrence wins.
        let prompt = [7, 8, 9, 1, 2, 7, 8, 9, 3, 4, 5];
        assert_eq!(lookup_draft(&prompt, &[7, 8, 9], 3), vec![3, 4, 5]);
        assert_eq!(lookup_draft(&prompt, &[7, 8, 9], 2), vec![3, 4]);
        // The draft may run on into the generated tokens.
        assert_eq!(lookup_draft(&[5, 6], &[1, 2, 3, 1, 2], 3), vec![3, 1, 2]);
        // A 3-gram match is preferred to a later 2-gram one.
        let prompt = [1, 2, 3, 40, 9, 2, 3, 50];
        assert_eq!(lookup_draft(&prompt, &[1, 2, 3], 2), vec![40, 9]);
    }

    #[test]
    fn lookup_draft_takes_one_token_after_a_single_token_match() {
        assert_eq!(lookup_draft(&[4, 10, 11, 12], &[4], 3), vec![10]);
        // The tail itself is not a match, and nothing before it matches.
        assert!(lookup_draft(&[1, 2, 3], &[9], 3).is_empty());
        assert!(lookup_draft(&[1, 2, 3], &[], 3).is_empty());
        assert!(lookup_draft(&[1, 1, 1], &[1], 0).is_empty());
    }

    #[test]
    fn argmax_takes_the_first_maximum() {
        assert_eq!(argmax(&[0.0, 2.0, 2.0, 1.0]), 1);
    }

    #[test]
    fn top_logits_are_the_highest_first_lower_id_on_ties() {
        let l = [0.5, 3.0, -1.0, 3.0, 2.0, f32::NEG_INFINITY];
        assert_eq!(top_logits(&l, 3), vec![(1, 3.0), (3, 3.0), (4, 2.0)]);
        assert_eq!(top_logits(&l, 1)[0].0, argmax(&l));
        assert_eq!(top_logits(&l, 0), vec![]);
        assert_eq!(top_logits(&l, 9).len(), l.len());
        assert_eq!(top_logits(&[], 2), vec![]);
    }

    #[test]
    fn repeat_penalty_follows_llama_cpp() {
        let mut l = vec![2.0, -2.0, 1.0];
        apply_repeat_penalty(&mut l, &[0, 1, 0], 2.0);
        assert_eq!(l, vec![1.0, -4.0, 1.0]);
    }

    #[test]
    fn repeated_ngrams_are_banned() {
        // "1 2 3 1 2" -> 3 would repeat the trigram "1 2 3".
        let mut l = vec![0.0; 5];
        ban_repeated_ngrams(&mut l, &[1, 2, 3, 1, 2], 3);
        assert_eq!(l[3], f32::NEG_INFINITY);
        assert_eq!(l.iter().filter(|v| v.is_infinite()).count(), 1);
        // Off, or too short to repeat: nothing banned.
        let mut l = vec![0.0; 5];
        ban_repeated_ngrams(&mut l, &[1, 2, 3, 1, 2], 0);
        ban_repeated_ngrams(&mut l, &[1, 2], 3);
        assert!(l.iter().all(|v| *v == 0.0));
    }
}
