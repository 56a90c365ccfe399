//! Token generation over a loaded [`Model`]: chunked prefill into the KV
//! cache, then one token at a time with greedy or seeded sampling, a repeat
//! penalty, stop tokens, a token budget and an optional caller stop check.
//! Deterministic for the same model, prompt, options and seed.

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
}

impl Default for GenerateOptions {
    fn default() -> Self {
        Self {
            max_new_tokens: 256,
            sampling: SamplingOptions::default(),
            extra_stop_tokens: Vec::new(),
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
}

impl Timings {
    pub fn prefill_tokens_per_s(&self) -> f64 {
        per_s(self.prompt_tokens, self.prefill_ms)
    }
    /// Tokens/s over the decode forwards (the first generated token comes
    /// from the prefill logits, so `generated_tokens - 1` forwards).
    pub fn decode_tokens_per_s(&self) -> f64 {
        per_s(self.generated_tokens.saturating_sub(1), self.decode_ms)
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
    if prompt.len() > model.context_length() {
        return Err(LlmError::Other(format!(
            "prompt of {} tokens exceeds the context length {}",
            prompt.len(),
            model.context_length()
        )));
    }
    model.network.clear_cache();
    let chunk = model.network.max_prefill_chunk().unwrap_or(prompt.len());
    let mut logits = Vec::new();
    for (i, c) in prompt.chunks(chunk).enumerate() {
        logits = model.network.forward(c, i * chunk)?;
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
    let mut stops = model.stop_tokens.clone();
    stops.extend(&opts.extra_stop_tokens);
    let mut sampler = Sampler::new(&opts.sampling);
    let ctx = model.context_length();

    let t0 = Instant::now();
    model.network.reserve(prompt.len() + opts.max_new_tokens);
    let mut logits = prefill(model, prompt)?;
    timings.prefill_ms = t0.elapsed().as_secs_f64() * 1e3;

    let t1 = Instant::now();
    let mut tokens: Vec<u32> = Vec::new();
    let stop = loop {
        if tokens.len() >= opts.max_new_tokens {
            break StopReason::MaxTokens;
        }
        let s = &opts.sampling;
        let recent = &tokens[tokens.len().saturating_sub(s.repeat_last_n)..];
        apply_repeat_penalty(&mut logits, recent, s.repeat_penalty);
        ban_repeated_ngrams(&mut logits, &tokens, s.no_repeat_ngram);
        let next = sampler.sample(std::mem::take(&mut logits))?;
        if stops.contains(&next) {
            break StopReason::StopToken;
        }
        tokens.push(next);
        if !keep_going(model, &tokens) {
            break StopReason::Caller;
        }
        if tokens.len() >= opts.max_new_tokens {
            break StopReason::MaxTokens;
        }
        let pos = prompt.len() + tokens.len() - 1;
        if pos + 1 > ctx {
            break StopReason::ContextFull;
        }
        logits = model.network.forward(&[next], pos)?;
    };
    timings.decode_ms = t1.elapsed().as_secs_f64() * 1e3;
    timings.generated_tokens = tokens.len();
    timings.peak_rss_bytes = peak_rss_bytes();
    let text = model.decode(&tokens)?;
    Ok(Generation {
        tokens,
        text,
        stop,
        timings,
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
    fn argmax_takes_the_first_maximum() {
        assert_eq!(argmax(&[0.0, 2.0, 2.0, 1.0]), 1);
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
