//! What a caller loads once and reuses: the exact token counter and a
//! summarizer (an on-device model is loaded once, by `load()` or the first
//! compaction, and kept).

use std::sync::{Mutex, MutexGuard, OnceLock};

use continuity_core::error::{Error, InputError};
use continuity_core::summarize::Summarizer as _;
use continuity_core::tokens::TokenCount;
use continuity_models::agent::Family;
use continuity_models::{LlmSettings, LlmSummarizer, TokenCounter as Counter};
use pyo3::prelude::*;

use crate::errors::to_py;

/// A tokenizer-backed exact token counter (default: the bundled SmolLM2
/// tokenizer, as the CLI).
#[pyclass(module = "continuity._continuity", name = "TokenCounter", frozen)]
pub struct TokenCounter {
    pub inner: Counter,
}

#[pymethods]
impl TokenCounter {
    /// `spec`: a tokenizer.json, a .gguf or a model name, as `--tokenizer`.
    #[new]
    #[pyo3(signature = (spec = None))]
    fn new(py: Python<'_>, spec: Option<String>) -> PyResult<Self> {
        let inner = py
            .detach(|| match spec.as_deref() {
                Some(s) => Counter::from_spec(s).map_err(Error::from),
                None => Counter::default_tokenizer(),
            })
            .map_err(to_py)?;
        Ok(TokenCounter { inner })
    }

    /// Tokens of one text.
    fn count(&self, py: Python<'_>, text: &str) -> PyResult<usize> {
        py.detach(|| self.inner.count(text)).map_err(to_py)
    }

    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }

    #[getter]
    fn sha256(&self) -> &str {
        &self.inner.sha256
    }

    fn __repr__(&self) -> String {
        format!("TokenCounter({:?})", self.inner.name())
    }
}

/// The counter a request is measured in: the caller's, else its agent's
/// own, chosen by the model the request names (o200k_base for OpenAI
/// models, else the bundled tokenizer), as `continuity compact` chooses
/// without `--tokenizer`. Each is loaded once per process.
pub fn agent_counter<'a>(
    given: Option<&'a Counter>,
    model: Option<&str>,
) -> Result<&'a Counter, Error> {
    static OPENAI: OnceLock<Counter> = OnceLock::new();
    static BUNDLED: OnceLock<Counter> = OnceLock::new();
    if let Some(c) = given {
        return Ok(c);
    }
    let cell = match continuity_models::agent::family(model) {
        Family::OpenAi => &OPENAI,
        _ => &BUNDLED,
    };
    if let Some(c) = cell.get() {
        return Ok(c);
    }
    let counter = continuity_models::agent::for_model(model)?;
    Ok(cell.get_or_init(|| counter))
}

/// The summarizers the registry builds: deterministic ones, or an
/// on-device model that can be loaded ahead of the first call.
pub enum Inner {
    Plain(Box<dyn continuity_core::summarize::Summarizer + Send>),
    Model(Box<LlmSummarizer>),
}

impl Inner {
    pub fn get(&mut self) -> &mut (dyn continuity_core::summarize::Summarizer + Send) {
        match self {
            Inner::Plain(s) => s.as_mut(),
            Inner::Model(s) => s.as_mut(),
        }
    }
}

/// A summarizer by its CLI name (`none`, `extractive`, `smollm2-135m`,
/// `qwen2.5-0.5b`, `gemma3-270m`, `NAME:PATH.gguf`). Calls from several
/// threads take turns.
#[pyclass(module = "continuity._continuity", name = "Summarizer", frozen)]
pub struct Summarizer {
    name: String,
    inner: Mutex<Inner>,
}

impl Summarizer {
    /// The summarizer, for one call at a time.
    pub fn lock(&self) -> Result<MutexGuard<'_, Inner>, Error> {
        self.inner
            .lock()
            .map_err(|_| Error::Internal("an earlier summarizer call panicked".into()))
    }
}

#[pymethods]
impl Summarizer {
    /// `lookahead`: speculative prompt-lookup drafts for a model (the
    /// summary is the same with 0, only slower).
    #[new]
    #[pyo3(signature = (name = "extractive", *, lookahead = None))]
    fn new(py: Python<'_>, name: &str, lookahead: Option<usize>) -> PyResult<Self> {
        let mut settings = LlmSettings::default();
        if let Some(n) = lookahead {
            settings.lookahead = n;
        }
        let inner = py
            .detach(|| -> Result<Inner, InputError> {
                Ok(match continuity_models::llm_by_name(name, &settings) {
                    Some(model) => Inner::Model(Box::new(model?)),
                    None => Inner::Plain(continuity_models::by_name_with(name, &settings)?),
                })
            })
            .map_err(to_py)?;
        let name = match &inner {
            Inner::Plain(s) => s.name().to_string(),
            Inner::Model(s) => s.name().to_string(),
        };
        Ok(Summarizer {
            name,
            inner: Mutex::new(inner),
        })
    }

    /// Load the model now (otherwise the first compaction does); nothing
    /// to load for `none` and `extractive`.
    fn load(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| -> Result<(), Error> {
            if let Inner::Model(m) = &mut *self.lock()? {
                m.load()?;
            }
            Ok(())
        })
        .map_err(to_py)
    }

    /// Whether this summarizer runs an on-device model.
    #[getter]
    fn is_model(&self) -> PyResult<bool> {
        Ok(matches!(&*self.lock().map_err(to_py)?, Inner::Model(_)))
    }

    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    fn __repr__(&self) -> String {
        format!("Summarizer({:?})", self.name)
    }
}
