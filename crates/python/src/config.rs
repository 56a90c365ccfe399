//! The operator's files as Python objects: the Mission Kernel, the
//! retention policy and the answer key, each loaded once (from a file, TOML
//! text or a dict) and passed to every call.

use std::path::PathBuf;

use continuity_core::error::Source;
use continuity_core::io;
use continuity_core::kernel::MissionKernel;
use continuity_core::policy::RetentionPolicy;
use continuity_eval::facts::FactKey;
use pyo3::prelude::*;

use crate::errors::{input, to_py};

/// A dict as TOML text, which the library parses as it parses a file. A
/// kernel's hash is canonical, so a dict hashes as its file does; a
/// policy's hash is of its text, so it does not.
pub fn dict_to_toml(what: &str, obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let value: serde_json::Value = pythonize::depythonize(obj).map_err(to_py)?;
    if !value.is_object() {
        return Err(input(format!("{what}: expected a dict, got {value}")));
    }
    let table = toml::Value::try_from(value).map_err(|e| input(format!("{what}: {e}")))?;
    toml::to_string(&table).map_err(|e| input(format!("{what}: {e}")))
}

/// A Mission Kernel: objective, permissions, prohibitions; versioned and
/// hashed. Loading checks its pinned `sha256` and expiry, as the CLI does.
#[pyclass(module = "continuity._continuity", name = "Kernel", frozen)]
pub struct Kernel {
    pub inner: MissionKernel,
}

#[pymethods]
impl Kernel {
    /// Load a kernel TOML file.
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Self> {
        let inner = io::load_kernel(&path, chrono::Utc::now()).map_err(to_py)?;
        Ok(Kernel { inner })
    }

    /// Parse kernel TOML text; `source` names it in error messages.
    #[staticmethod]
    #[pyo3(signature = (text, source = "<kernel>"))]
    fn from_toml(text: &str, source: &str) -> PyResult<Self> {
        let inner = MissionKernel::from_toml(text, &Source(source.to_string()), chrono::Utc::now())
            .map_err(to_py)?;
        Ok(Kernel { inner })
    }

    /// A kernel from a dict with the TOML file's keys.
    #[staticmethod]
    #[pyo3(signature = (document, source = "<kernel dict>"))]
    fn from_dict(document: &Bound<'_, PyAny>, source: &str) -> PyResult<Self> {
        Self::from_toml(&dict_to_toml(source, document)?, source)
    }

    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }

    #[getter]
    fn version(&self) -> &str {
        &self.inner.version
    }

    /// Canonical SHA-256 of the document (`continuity kernel hash`).
    #[getter]
    fn sha256(&self) -> &str {
        &self.inner.sha256
    }

    /// The prohibition texts, in kernel order.
    #[getter]
    fn prohibitions(&self) -> Vec<String> {
        self.inner
            .prohibitions
            .iter()
            .map(|p| p.text.clone())
            .collect()
    }

    /// The kernel as a governed compaction writes it into the instructions.
    fn render(&self) -> String {
        self.inner.render()
    }

    fn __repr__(&self) -> String {
        format!(
            "Kernel(id={:?}, version={:?}, sha256={:?})",
            self.inner.id,
            self.inner.version,
            self.inner.short_hash()
        )
    }
}

/// A retention policy: the trigger, the tail, the pins, personal data.
#[pyclass(module = "continuity._continuity", name = "Policy", frozen)]
pub struct Policy {
    pub inner: RetentionPolicy,
}

#[pymethods]
impl Policy {
    /// The built-in defaults (what the CLI uses without `--policy`).
    #[new]
    fn new() -> Self {
        Policy {
            inner: RetentionPolicy::default(),
        }
    }

    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Self> {
        let inner = io::load_policy(Some(&path)).map_err(to_py)?;
        Ok(Policy { inner })
    }

    #[staticmethod]
    #[pyo3(signature = (text, source = "<policy>"))]
    fn from_toml(text: &str, source: &str) -> PyResult<Self> {
        let inner = RetentionPolicy::from_toml(text, &Source(source.to_string())).map_err(to_py)?;
        Ok(Policy { inner })
    }

    #[staticmethod]
    #[pyo3(signature = (document, source = "<policy dict>"))]
    fn from_dict(document: &Bound<'_, PyAny>, source: &str) -> PyResult<Self> {
        Self::from_toml(&dict_to_toml(source, document)?, source)
    }

    #[getter]
    fn id(&self) -> &str {
        &self.inner.id
    }

    #[getter]
    fn version(&self) -> &str {
        &self.inner.version
    }

    #[getter]
    fn sha256(&self) -> &str {
        &self.inner.sha256
    }

    /// `[compaction] trigger_tokens`.
    #[getter]
    fn trigger_tokens(&self) -> usize {
        self.inner.compaction.trigger_tokens
    }

    /// What a compaction ends under: `[compaction] target_tokens`, else
    /// `target_fraction` (0.7) of the trigger.
    #[getter]
    fn target_tokens(&self) -> usize {
        self.inner.compaction.target()
    }

    /// `[compaction] min_new_tool_results`.
    #[getter]
    fn min_new_tool_results(&self) -> usize {
        self.inner.compaction.min_new_tool_results
    }

    fn __repr__(&self) -> String {
        format!(
            "Policy(id={:?}, version={:?}, trigger_tokens={})",
            self.inner.id, self.inner.version, self.inner.compaction.trigger_tokens
        )
    }
}

/// An answer key: tracked facts and mission terms (`eval/*/key.toml`).
#[pyclass(module = "continuity._continuity", name = "Key", frozen)]
pub struct Key {
    pub inner: FactKey,
}

#[pymethods]
impl Key {
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Self> {
        let text = io::read_text(&path).map_err(to_py)?;
        let inner = FactKey::from_toml(&text, &Source::path(&path)).map_err(to_py)?;
        Ok(Key { inner })
    }

    #[staticmethod]
    #[pyo3(signature = (text, source = "<key>"))]
    fn from_toml(text: &str, source: &str) -> PyResult<Self> {
        let inner = FactKey::from_toml(text, &Source(source.to_string())).map_err(to_py)?;
        Ok(Key { inner })
    }

    /// The tracked facts' ids, in key order.
    #[getter]
    fn facts(&self) -> Vec<String> {
        self.inner.facts.iter().map(|f| f.id.clone()).collect()
    }

    fn __repr__(&self) -> String {
        format!("Key(facts={})", self.inner.facts.len())
    }
}
