//! Measuring compaction from Python: the meaning-level evaluator and replay
//! of recorded sessions under one condition.

use std::path::PathBuf;
use std::sync::Mutex;

use continuity_core::error::Error;
use continuity_eval::evaluate::{self, Records};
use continuity_eval::replay::{self, ReplayError};
use pyo3::prelude::*;

use crate::config::{Kernel, Key, Policy};
use crate::errors::{input, internal, to_py};
use crate::request::Request;
use crate::runtime::TokenCounter;

/// The meaning-level evaluator (`continuity eval`): its embedder and judge
/// are loaded once, at construction.
#[pyclass(module = "continuity._continuity", name = "Evaluator", frozen)]
pub struct Evaluator {
    judge: String,
    inner: Mutex<evaluate::Evaluator>,
}

#[pymethods]
impl Evaluator {
    /// `judge`: the cross-encoder (default), an LLM name, or `none`.
    #[new]
    #[pyo3(signature = (judge = evaluate::DEFAULT_JUDGE))]
    fn new(py: Python<'_>, judge: &str) -> PyResult<Self> {
        let inner = py
            .detach(|| evaluate::Evaluator::with_judge(evaluate::load_embedder()?, judge))
            .map_err(to_py)?;
        Ok(Evaluator {
            judge: judge.to_string(),
            inner: Mutex::new(inner),
        })
    }

    /// Judge `summary` against the archive it summarises: each fact of
    /// `key` supported, omitted or contradicted (the `--json` report).
    #[pyo3(signature = (summary, key, *, value = None, text = None, path = None, id = "summary"))]
    #[allow(clippy::too_many_arguments)]
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        summary: &str,
        key: Bound<'py, Key>,
        value: Option<Bound<'py, PyAny>>,
        text: Option<String>,
        path: Option<String>,
        id: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let request = Request::from_py(value.as_ref(), text, path)?;
        let key = &key.get().inner;
        let report = py
            .detach(|| -> Result<_, Error> {
                let (t, _) = request.read(None)?;
                let records = Records::from_transcript(&t);
                let mut ev = self
                    .inner
                    .lock()
                    .map_err(|_| Error::Internal("an earlier evaluation panicked".into()))?;
                ev.evaluate(&records, key, id, summary)
            })
            .map_err(to_py)?;
        pythonize::pythonize(py, &report).map_err(internal)
    }

    #[getter]
    fn judge(&self) -> &str {
        &self.judge
    }
}

/// Every replay condition, strategy-major (`continuity replay`'s order):
/// `(strategy, summarizer, damage)` with its label.
#[pyfunction]
#[pyo3(signature = (strategies, summarizers, damage = Vec::new()))]
pub fn replay_conditions<'py>(
    py: Python<'py>,
    strategies: Vec<String>,
    summarizers: Vec<String>,
    damage: Vec<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let strategies = strategies
        .iter()
        .map(|s| s.parse().map_err(input))
        .collect::<PyResult<Vec<_>>>()?;
    let conditions: Vec<serde_json::Value> = replay::conditions(&strategies, &summarizers, &damage)
        .iter()
        .map(|c| {
            serde_json::json!({
                "strategy": c.strategy.name(),
                "summarizer": c.summarizer,
                "damage": c.damage,
                "label": c.label(),
            })
        })
        .collect();
    pythonize::pythonize(py, &conditions).map_err(internal)
}

/// Replay one recorded session (a reference run folder or a request file)
/// under one condition: every request, compaction, action and check.
#[pyfunction]
#[pyo3(signature = (session, *, kernel, policy, key, tokenizer, strategy, summarizer,
    damage = Vec::new()))]
#[allow(clippy::too_many_arguments)]
pub fn replay_session<'py>(
    py: Python<'py>,
    session: PathBuf,
    kernel: Bound<'py, Kernel>,
    policy: Bound<'py, Policy>,
    key: Bound<'py, Key>,
    tokenizer: Bound<'py, TokenCounter>,
    strategy: &str,
    summarizer: String,
    damage: Vec<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let strategy = strategy.parse().map_err(input)?;
    let (kernel, policy, key) = (&kernel.get().inner, &policy.get().inner, &key.get().inner);
    let tokens = &tokenizer.get().inner;
    let run = py
        .detach(|| -> Result<_, ReplayError> {
            let sessions = replay::load_sessions(std::slice::from_ref(&session), kernel, tokens)?;
            let loaded = sessions.first().ok_or_else(|| {
                ReplayError::Invalid(format!("{}: no session", session.display()))
            })?;
            let condition = replay::Condition {
                strategy,
                summarizer,
                damage,
            };
            let setup = replay::Setup {
                kernel,
                policy,
                key,
                tokens,
            };
            replay::engine::replay(loaded, &condition, &setup)
        })
        .map_err(to_py)?;
    pythonize::pythonize(py, &run).map_err(internal)
}
