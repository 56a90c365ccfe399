//! An on-device LLM summarizer: a small GGUF model run with candle.
//!
//! The prompt is `prompts/summary-only.txt` or `prompts/governed.txt` with the
//! narrative rendered one line per item; when it does not fit the prompt
//! budget, the oldest items are dropped. Chat models get it as the user turn
//! of their chat template; a base model (Gemma 3 270M) gets it as a document
//! ending in `Summary:`. Decoding is greedy with a repeat penalty over the
//! generated tokens and stops at the word cap.
//!
//! The coding job is narrower: `prompts/coding.txt` asks one question of
//! `prompts/coding-fields.txt` at a time (the current task, the last
//! decision, the open problem, the next step), each answered in one
//! sentence. The log is prefilled once for all of them.

use std::path::PathBuf;
use std::time::Instant;

use crate::hub::resolve_model;
use continuity_core::error::{Error, InputError, Source};
use continuity_core::summarize::{
    cap_words, ends_sentence, whole_sentences, NarrativeItem, NarrativeKind, Summarizer,
    SummarizerMetrics, SummaryJob, SummaryOutput, SummaryRequest,
};
use continuity_llm::arch::decoder::LoadOptions;
use continuity_llm::chat::{ChatTemplate, Message};
use continuity_llm::generate::{
    generate_each, generate_with, GenerateOptions, SamplingOptions, StopReason, Timings,
};
use continuity_llm::model::{LlmError, Model};

use crate::prompts::{
    PROMPT_CODING, PROMPT_CODING_FIELDS, PROMPT_GOVERNED, PROMPT_SUMMARY_ONLY, PROMPT_SYSTEM,
};

/// The most words a model writes for the coding job's four fields.
const CODING_WORDS: usize = 120;

/// The coding job's fields: (label, question), in the summary's order.
fn coding_fields() -> Vec<(&'static str, &'static str)> {
    PROMPT_CODING_FIELDS
        .lines()
        .filter_map(|l| l.split_once(": "))
        .collect()
}

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
        NarrativeKind::Report => "sub-agent report",
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

/// What a prompt is filled with.
struct PromptParts<'a> {
    narrative: &'a str,
    state: &'a str,
    /// The coding job's question (empty for the other jobs).
    question: &'a str,
    word_cap: usize,
}

fn fill(template: &str, parts: &PromptParts<'_>) -> String {
    template
        .trim_end()
        .replace("{word_cap}", &parts.word_cap.to_string())
        .replace("{state}", parts.state)
        .replace("{question}", parts.question)
        .replace("{narrative}", parts.narrative)
}

/// The full prompt text in `model`'s template.
fn prompt_text(template: ChatTemplate, job: SummaryJob, parts: &PromptParts<'_>) -> String {
    let body = fill(
        match job {
            SummaryJob::SummaryOnly => PROMPT_SUMMARY_ONLY,
            SummaryJob::Governed => PROMPT_GOVERNED,
            SummaryJob::Coding => PROMPT_CODING,
        },
        parts,
    );
    if template.is_chat() {
        template.render(&[Message::system(PROMPT_SYSTEM.trim()), Message::user(body)])
    } else if job == SummaryJob::Coding {
        format!("{body}\n\nAnswer:")
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
        let (text, t) =
            write_summary(model, request, &settings).map_err(|e| Error::Summarizer {
                name: label,
                message: e.to_string(),
            })?;
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

/// The summary `model` writes for `request`, in whole sentences, and the
/// timings of its generations.
fn write_summary(
    model: &mut Model,
    request: &SummaryRequest<'_>,
    settings: &LlmSettings,
) -> Result<(String, Timings), LlmError> {
    // The coding job asks short questions: a long cap would only let a
    // small model ramble.
    let (cap, questions) = match request.job {
        SummaryJob::Coding => (request.word_cap.min(CODING_WORDS), coding_fields()),
        _ => (request.word_cap, vec![("", "")]),
    };
    let cap = cap.max(1);
    let per_question = (cap / questions.len().max(1)).max(4);
    let budget = settings
        .max_prompt_tokens
        .min(model.context_length().saturating_sub(token_budget(cap)));
    let state = request.outline.join(" ");
    let parts = |narrative, question| PromptParts {
        narrative,
        state: &state,
        question,
        word_cap: per_question,
    };
    let longest = questions.iter().map(|(_, q)| *q).max_by_key(|q| q.len());
    let fixed = parts("", longest.unwrap_or(""));
    let narrative = fit_narrative(model, request, settings, &fixed, budget)?;
    let template = model.template;
    let (text, timings) = if request.job == SummaryJob::Coding {
        let prompts = questions
            .iter()
            .map(|(_, q)| model.encode(&prompt_text(template, request.job, &parts(&narrative, q))))
            .collect::<Result<Vec<_>, _>>()?;
        let labels: Vec<&str> = questions.iter().map(|(l, _)| *l).collect();
        answer_fields(model, &labels, &prompts, &state, settings, per_question)?
    } else {
        let prompt = model.encode(&prompt_text(template, request.job, &parts(&narrative, "")))?;
        prose(model, &prompt, settings, cap)?
    };
    Ok((whole_sentences_only(cap_words(&text, cap).0), timings))
}

fn generate_options(settings: &LlmSettings, max_new_tokens: usize) -> GenerateOptions {
    GenerateOptions {
        max_new_tokens,
        sampling: SamplingOptions {
            repeat_penalty: settings.repeat_penalty,
            repeat_last_n: settings.repeat_last_n,
            no_repeat_ngram: settings.no_repeat_ngram,
            ..SamplingOptions::default()
        },
        extra_stop_tokens: Vec::new(),
        lookahead: settings.lookahead,
        top_logits: 0,
    }
}

/// Whether generation goes on: until the text holds more than `cap` words
/// (the cap-th word is then complete), or, with `one_line`, a line break
/// after its first words.
fn within_words(cap: usize, one_line: bool) -> impl FnMut(&Model, &[u32]) -> bool {
    move |m, ids| {
        m.decode(ids)
            .map(|t| {
                let t = t.trim_start();
                !(one_line && t.contains('\n')) && t.split_whitespace().count() <= cap
            })
            .unwrap_or(true)
    }
}

/// A summary written as prose, stopped once it holds `cap` words.
fn prose(
    model: &mut Model,
    prompt: &[u32],
    settings: &LlmSettings,
    cap: usize,
) -> Result<(String, Timings), LlmError> {
    let opts = generate_options(settings, token_budget(cap));
    let generation = generate_with(model, prompt, &opts, within_words(cap, false))?;
    Ok((clean_summary(&generation.text), generation.timings))
}

/// The coding job's fields, each the answer to its own question about the
/// log (one prefill of the log for all of them), as sentences: `Current
/// task: … . Next step: … .`. A small model given all the fields at once
/// copies the form, or one answer into every field; asked one question at
/// a time, it answers each.
fn answer_fields(
    model: &mut Model,
    labels: &[&str],
    prompts: &[Vec<u32>],
    state: &str,
    settings: &LlmSettings,
    words: usize,
) -> Result<(String, Timings), LlmError> {
    let opts = generate_options(settings, token_budget(words));
    let generations = generate_each(model, prompts, &opts, within_words(words, true))?;
    let timings = generations
        .iter()
        .fold(Timings::default(), |sum, g| sum.add(&g.timings));
    let mut sentences: Vec<String> = Vec::new();
    for (label, g) in labels.iter().zip(&generations) {
        let Some(answer) = field_answer(&g.text, g.stop, state) else {
            continue;
        };
        // The same answer to two questions answers neither.
        if sentences.iter().any(|s| s.ends_with(&answer)) {
            continue;
        }
        sentences.push(format!("{label}: {answer}"));
    }
    Ok((sentences.join(" "), timings))
}

/// A field's answer as one sentence; nothing when it is empty or "none",
/// repeats the prompt's own words, or was cut off before its first
/// sentence ended.
fn field_answer(generated: &str, stop: StopReason, state: &str) -> Option<String> {
    let text = generated.trim_start();
    let (line, ended) = match text.split_once('\n') {
        Some((line, _)) => (line, true),
        None => (text, stop == StopReason::StopToken),
    };
    let line = line.trim().trim_start_matches(['*', '-', ' ']).trim();
    // One sentence was asked for: what follows the first is the model
    // going on (often copying its prompt).
    let words: Vec<&str> = line.split_whitespace().collect();
    let value = match words.iter().position(|w| ends_sentence(w)) {
        Some(i) => words[..=i].join(" "),
        None if ended => words.join(" "),
        None => String::new(),
    };
    let bare = value.trim_end_matches('.');
    let none = bare.eq_ignore_ascii_case("none");
    let copied = PROMPT_CODING.contains(bare)
        || PROMPT_CODING_FIELDS.contains(bare)
        || copies_the_outline(bare, state);
    if value.is_empty() || none || copied {
        return None;
    }
    let stop = if value.ends_with(['.', '!', '?']) {
        ""
    } else {
        "."
    };
    Some(format!("{value}{stop}"))
}

/// Whether `answer` opens with a run of words taken from the outline the
/// prompt gave (a model that copies it instead of answering): its first six
/// words, or all of a shorter answer of three words or more.
fn copies_the_outline(answer: &str, state: &str) -> bool {
    const RUN: usize = 6;
    let words: Vec<&str> = answer.split_whitespace().take(RUN).collect();
    words.len() >= 3 && state.contains(&words.join(" "))
}

/// The narrative the prompt carries: the newest items first until the
/// budget is used, then in their order, with a line saying when earlier
/// ones were left out.
fn fit_narrative(
    model: &Model,
    request: &SummaryRequest<'_>,
    settings: &LlmSettings,
    fixed_parts: &PromptParts<'_>,
    budget: usize,
) -> Result<String, LlmError> {
    let lines: Vec<String> = request
        .items
        .iter()
        .map(|i| render_item(i, settings.max_item_chars))
        .collect();
    let fixed = model
        .encode(&prompt_text(model.template, request.job, fixed_parts))?
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

/// The generated text as a summary: the prompt's label off (a base model
/// is prompted to continue after `Summary:`).
fn clean_summary(generated: &str) -> String {
    let text = generated.trim();
    text.strip_prefix("Summary:")
        .unwrap_or(text)
        .trim()
        .to_string()
}

fn round3(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
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
    fn field_answers_are_whole_sentences_of_their_own() {
        let caller = StopReason::Caller;
        assert_eq!(
            field_answer(" Wire the renderer into the page\nmore", caller, ""),
            Some("Wire the renderer into the page.".into())
        );
        assert_eq!(field_answer(" none.\n", caller, ""), None);
        // The prompt's own words are not an answer.
        assert_eq!(
            field_answer("What will the agent do next?\n", caller, ""),
            None
        );
        assert_eq!(field_answer("Next step\n", caller, ""), None);
        // Nor is the outline the prompt carried, copied.
        let state = "The user's latest request: \"continue\". The agent changed 7 files.";
        let copy = "The user's latest request: \"continue\". The agent changed 7 files.\n";
        assert_eq!(field_answer(copy, caller, state), None);
        let own = "The agent will finish the request and change 7 files.\n";
        assert!(field_answer(own, caller, state).is_some());
        // Cut off by the word cap: back to its last whole sentence.
        assert_eq!(
            field_answer(" Run mix test. Then fix the", caller, ""),
            Some("Run mix test.".into())
        );
        assert_eq!(
            field_answer(" Run mix test. It ran 3 commands.\n", caller, ""),
            Some("Run mix test.".into())
        );
        assert_eq!(field_answer(" Run mix", caller, ""), None);
        assert_eq!(
            field_answer(" Run mix", StopReason::StopToken, ""),
            Some("Run mix.".into())
        );
    }

    #[test]
    fn every_coding_field_has_a_label_and_a_question() {
        let fields = coding_fields();
        assert_eq!(fields.len(), PROMPT_CODING_FIELDS.lines().count());
        assert!(fields.iter().any(|(l, _)| *l == "Next step"));
        assert!(fields.iter().all(|(_, q)| q.ends_with('?')));
        assert!(PROMPT_CODING.contains("{question}"));
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
        let parts = PromptParts {
            narrative: "user: hi",
            state: "",
            question: "",
            word_cap: 50,
        };
        let s = prompt_text(ChatTemplate::Base, SummaryJob::Governed, &parts);
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
