//! Where a request comes from: a Python value (a dict or a list, as
//! `json.load` gives), JSON text, or a file the library reads.

use continuity_core::error::{InputError, Source};
use continuity_core::transcript::Transcript;
use continuity_core::{formats, io};
use pyo3::prelude::*;

use crate::errors::{input, to_py};

/// The name a request without a file gets in reports and messages.
pub const DEFAULT_NAME: &str = "<python>";

pub enum Request {
    Value(serde_json::Value),
    Text(String),
    Path(String),
}

impl Request {
    /// Exactly one of `value`, `text` and `path`.
    pub fn from_py(
        value: Option<&Bound<'_, PyAny>>,
        text: Option<String>,
        path: Option<String>,
    ) -> PyResult<Self> {
        match (value, text, path) {
            (Some(v), None, None) => Ok(Request::Value(pythonize::depythonize(v).map_err(to_py)?)),
            (None, Some(t), None) => Ok(Request::Text(t)),
            (None, None, Some(p)) => Ok(Request::Path(p)),
            _ => Err(input(
                "give the request exactly once: value=, text= or path=",
            )),
        }
    }

    /// The transcript and the name it goes by (`name`, else the path as
    /// given, else `<python>`).
    pub fn read(&self, name: Option<&str>) -> Result<(Transcript, String), InputError> {
        let source = || Source(name.unwrap_or(DEFAULT_NAME).to_string());
        match self {
            Request::Value(v) => Ok((formats::parse_value(v, &source())?, source().0)),
            Request::Text(t) => Ok((formats::parse_bytes(t.as_bytes(), &source())?, source().0)),
            Request::Path(p) => {
                let (t, s) = io::read_transcript(p)?;
                Ok((t, name.map_or(s.0, str::to_string)))
            }
        }
    }
}
