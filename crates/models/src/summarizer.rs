//! An on-device LLM summarizer: a small GGUF model run with candle.
//!
//! The prompt is `prompts/summary-only.txt` or `prompts/governed.txt` with the
//! narrative rendered one line per item; when it does not fit the prompt
//! budget, the oldest items are dropped. Chat models get it as the user turn
//! of their chat template; a base model (Gemma 3 270M) gets it as a document
//! ending in `Summary:`. Decoding is greedy with a repeat penalty over the
//! generated tokens and stops at the word cap.

use std::path::PathBuf;
use std::time::Instant;

use crate::hub::resolve_model;
use continuity_core::error::{Error, InputError, Source};
use continuity_core::summarize::{
    cap_words, whole_sentences, NarrativeItem, NarrativeKind, Summarizer, SummarizerMetrics,
    SummaryJob, SummaryOutput, SummaryRequest,
};
use continuity_llm::arch::decoder::LoadOptions;
use continuity_llm::chat::{ChatTemplate, Message};
use continuity_llm::generate::{generate_with, GenerateOptions, SamplingOptions};
use continuity_llm::model::{LlmError, Model};

use crate::prompts::{PROMPT_CODING, PROMPT_GOVERNED, PROMPT_SUMMARY_ONLY, PROMPT_SYSTEM};

/// The most words a model writes for the coding job's four fields.
const CODING_WORDS: usize = 120;

/// Manifest models usable as summarizers.
pub const MODELS: &[&str] = &["smollm2-135m", "qwen2.5-0.5b", "gemma3-270m"];

/// Settings of an [`LlmSummarizer`].
#[derive(Debug, Clone)]
pub struct LlmSettings {
    /// Most prompt tokens to use (also bounded by the model's context minus
    /// the generation budget).
    pub max_prompt_tokens: usize,
    /// Longest rendering of one narrative item, in characters.
    pub max_item_chars: usize,
    pub repeat_penalty: f32,
    pub repeat_last_n: usize,
    /// See [`SamplingOptions::no_repeat_ngram`]; long enough that an id or
    /// amount may be written twice.
    pub no_repeat_ngram: usize,
    /// See [`GenerateOptions::lookahead`]: speculative prompt-lookup drafts
    /// (the summary is the same with 0, only slower).
    pub lookahead: usize,
    pub load: LoadOptions,
}

impl Default for LlmSettings {
    fn default() -> Self {
        Self {
            max_prompt_tokens: 3072,
            max_item_chars: 800,
            repeat_penalty: 1.1,
            repeat_last_n: 64,
            no_repeat_ngram: 6,
            lookahead: 3,
            load: LoadOptions::default(),
        }
    }
}

/// A summarizer backed by a local GGUF model, loaded on first use.
pub struct LlmSummarizer {
    label: String,
    path: PathBuf,
    settings: LlmSettings,
    model: Option<Model>,
}

impl LlmSummarizer {
    /// Resolve `name` (a manifest model, or any label when `explicit_path`
    /// is given). The model is loaded by the first `summarize` call.
    pub fn new(
        name: &str,
        explicit_path: Option<&std::path::Path>,
        settings: LlmSettings,
    ) -> Result<Self, InputError> {
        let path = resolve_model(name, explicit_path).map_err(|e| InputError::Unreadable {
            file: Source(name.to_string()),
            message: e.to_string(),
        })?;
        let label = match explicit_path {
            Some(p) => format!("{name}:{}", p.display()),
            None => name.to_string(),
        };
        Ok(Self {
            label,
            path,
            settings,
            model: None,
        })
    }

    /// Load the model now (otherwise the first `summarize` does).
    pub fn load(&mut self) -> Result<&mut Model, Error> {
        if self.model.is_none() {
            continuity_llm::cpu::warn_build_features_once();
            let m = Model::load(&self.label, &self.path, self.settings.load).map_err(|e| {
                Error::Summarizer {
                    name: self.label.clone(),
                    message: e.to_string(),
                }
            })?;
            self.model = Some(m);
        }
        self.model
            .as_mut()
            .ok_or_else(|| Error::Internal("model not loaded".into()))
    }
}

/// Tokens to allow for a summary of `word_cap` words (ids and amounts take
/// several tokens each).
pub fn token_budget(word_cap: usize) -> usize {
    word_cap * 2 + 16
}

/// One compact line per narrative item.
pub fn render_item(item: &NarrativeItem, max_chars: usize) -> String {
    let who = match item.kind {
        NarrativeKind::UserText => "user",
        NarrativeKind::AssistantText => "assistant",
        NarrativeKind::ToolCall => "tool call",
        NarrativeKind::ToolResult => "tool result",
        NarrativeKind::SystemText => "system",
        NarrativeKind::PriorSummary => "earlier summary",
    };
    let text: String = item.text.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = if text.chars().count() > max_chars {
        let cut: String = text.chars().take(max_chars).collect();
        format!("{cut} [...]")
    } else {
        text
    };
    format!("{who}: {text}")
}

fn fill(template: &str, narrative: &str, state: &str, word_cap: usize) -> String {
    template
        .trim_end()
        .replace("{word_cap}", &word_cap.to_string())
        .replace("{state}", state)
        .replace("{narrative}", narrative)
}

/// The full prompt text for `narrative` in `model`'s template.
fn prompt_text(
    template: ChatTemplate,
    job: SummaryJob,
    narrative: &str,
    state: &str,
    word_cap: usize,
) -> String {
    let body = fill(
        match job {
            SummaryJob::SummaryOnly => PROMPT_SUMMARY_ONLY,
            SummaryJob::Governed => PROMPT_GOVERNED,
            SummaryJob::Coding => PROMPT_CODING,
        },
        narrative,
        state,
        word_cap,
    );
    if template.is_chat() {
        template.render(&[Message::system(PROMPT_SYSTEM.trim()), Message::user(body)])
    } else {
        format!("{body}\n\nSummary:")
    }
}

impl Summarizer for LlmSummarizer {
    fn name(&self) -> &str {
        &self.label
    }

    fn release(&mut self) {
        self.model = None;
    }

    fn summarize(&mut self, request: &SummaryRequest<'_>) -> Result<SummaryOutput, Error> {
        let started = Instant::now();
        let settings = self.settings.clone();
        let label = self.label.clone();
        let model = self.load()?;
        let err = |e: &dyn std::fmt::Display| Error::Summarizer {
            name: label.clone(),
            message: e.to_string(),
        };
        // The coding job asks for four short fields: a long cap would only
        // let a small model ramble.
        let cap = match request.job {
            SummaryJob::Coding => request.word_cap.min(CODING_WORDS),
            _ => request.word_cap,
        }
        .max(1);
        let gen_budget = token_budget(cap);
        let budget = settings
            .max_prompt_tokens
            .min(model.context_length().saturating_sub(gen_budget));

        let state = request.outline.join(" ");
        let narrative =
            fit_narrative(model, request, &settings, &state, cap, budget).map_err(|e| err(&e))?;
        let prompt = model
            .encode(&prompt_text(
                model.template,
                request.job,
                &narrative,
                &state,
                cap,
            ))
            .map_err(|e| err(&e))?;

        let opts = GenerateOptions {
            max_new_tokens: gen_budget,
            sampling: SamplingOptions {
                repeat_penalty: settings.repeat_penalty,
                repeat_last_n: settings.repeat_last_n,
                no_repeat_ngram: settings.no_repeat_ngram,
                ..SamplingOptions::default()
            },
            extra_stop_tokens: Vec::new(),
            lookahead: settings.lookahead,
            top_logits: 0,
        };
        let generation = generate_with(model, &prompt, &opts, |m, ids| {
            // Stop once the text holds more than `cap` words: the cap-th word is complete.
            m.decode(ids)
                .map(|t| t.split_whitespace().count() <= cap)
                .unwrap_or(true)
        })
        .map_err(|e| err(&e))?;
        let text = clean_summary(&generation.text, request.job, cap);
        let t = &generation.timings;
        let metrics = SummarizerMetrics {
            load_ms: round3(t.load_ms),
            prompt_tokens: t.prompt_tokens,
            prefill_tokens_per_s: round3(t.prefill_tokens_per_s()),
            generated_tokens: t.generated_tokens,
            decode_tokens_per_s: round3(t.decode_tokens_per_s()),
            decode_passes: t.decode_passes,
            draft_tokens: t.draft_tokens,
            accepted_draft_tokens: t.accepted_draft_tokens,
            latency_ms: round3(started.elapsed().as_secs_f64() * 1e3),
            peak_memory_bytes: t.peak_rss_bytes,
        };
        Ok(SummaryOutput {
            text,
            metrics: Some(metrics),
        })
    }
}

/// The narrative the prompt carries: the newest items first until the
/// budget is used, then in their order, with a line saying when earlier
/// ones were left out.
fn fit_narrative(
    model: &Model,
    request: &SummaryRequest<'_>,
    settings: &LlmSettings,
    state: &str,
    cap: usize,
    budget: usize,
) -> Result<String, LlmError> {
    let lines: Vec<String> = request
        .items
        .iter()
        .map(|i| render_item(i, settings.max_item_chars))
        .collect();
    let fixed = model
        .encode(&prompt_text(model.template, request.job, "", state, cap))?
        .len();
    let mut used = fixed + 8;
    let mut kept = 0;
    for line in lines.iter().rev() {
        let n = model.encode(line)?.len() + 1;
        if used + n > budget {
            break;
        }
        used += n;
        kept += 1;
    }
    let mut narrative = String::new();
    if kept < lines.len() {
        narrative.push_str("(earlier log lines omitted)\n");
    }
    narrative.push_str(&lines[lines.len() - kept..].join("\n"));
    Ok(narrative)
}

/// The generated text as a summary: the prompt's label off, the coding
/// job's filled fields (or the prose a model wrote instead), capped at
/// `cap` words and cut to whole sentences.
fn clean_summary(generated: &str, job: SummaryJob, cap: usize) -> String {
    let text = generated.trim();
    let text = text.strip_prefix("Summary:").unwrap_or(text).trim();
    let text = match job {
        // A model that ignored the fields wrote prose: keep that.
        SummaryJob::Coding => Some(filled_fields(text))
            .filter(|f| !f.is_empty())
            .unwrap_or_else(|| text.to_string()),
        _ => text.to_string(),
    };
    let (text, _) = cap_words(&text, cap);
    whole_sentences_only(text)
}

fn round3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}

/// The fields of the coding prompt a model filled in, as sentences:
/// `Current task: … . Next step: … .`. A field left as "none" or empty is
/// left out, and so is the last one when the generation stopped inside it
/// (no closing punctuation and no line after it).
fn filled_fields(text: &str) -> String {
    const FIELDS: [&str; 4] = ["Current task", "Last decision", "Open problem", "Next step"];
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let mut out: Vec<String> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let line = line.trim_start_matches(['-', '*', ' ']);
        let Some((label, value)) = FIELDS
            .iter()
            .find_map(|f| line.strip_prefix(f).map(|rest| (*f, rest)))
        else {
            continue;
        };
        let value = value.trim_start_matches([':', '*', ' ']).trim();
        let closed = value.ends_with(['.', '!', '?']);
        let cut_off = !closed && i + 1 == lines.len();
        let none = value.trim_end_matches('.').eq_ignore_ascii_case("none");
        if value.is_empty() || none || cut_off || out.iter().any(|o| o.starts_with(label)) {
            continue;
        }
        let stop = if closed { "" } else { "." };
        out.push(format!("{label}: {value}{stop}"));
    }
    out.join(" ")
}

/// A generation that stopped mid-sentence (the token or word limit) cut
/// back to its last whole sentence.
fn whole_sentences_only(text: String) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let keep = whole_sentences(&words);
    if keep == words.len() {
        text
    } else {
        words[..keep].join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coding_fields_become_whole_sentences() {
        let text = "Current task: Wire the renderer into the page\nLast decision: none\n- Open problem: The test for `render/2` fails.\nNext step: Run mix";
        assert_eq!(
            filled_fields(text),
            "Current task: Wire the renderer into the page. Open problem: The test for `render/2` fails."
        );
    }

    #[test]
    fn items_render_on_one_line_and_are_cut() {
        let item = NarrativeItem {
            item: continuity_core::transcript::PartRef::new(1, 0),
            kind: NarrativeKind::ToolCall,
            text: "get_invoice\n {\"invoice_number\": \"INV-1\"}".into(),
        };
        assert_eq!(
            render_item(&item, 100),
            "tool call: get_invoice {\"invoice_number\": \"INV-1\"}"
        );
        assert!(render_item(&item, 5).ends_with("[...]"));
    }

    #[test]
    fn prompts_have_both_placeholders() {
        for p in [PROMPT_SUMMARY_ONLY, PROMPT_GOVERNED] {
            assert!(p.contains("{narrative}") && p.contains("{word_cap}"));
        }
        let s = prompt_text(ChatTemplate::Base, SummaryJob::Governed, "user: hi", "", 50);
        assert!(s.contains("user: hi") && s.contains("50 words") && s.ends_with("Summary:"));
    }

    #[test]
    fn missing_model_path_is_an_input_error() {
        let e = crate::llm_by_name("lfm2:/nonexistent/model.gguf", &LlmSettings::default())
            .expect("an llm name")
            .err()
            .expect("missing file");
        assert!(e.to_string().contains("does not exist"), "{e}");
        assert!(crate::llm_by_name("extractive", &LlmSettings::default()).is_none());
    }
}
