//! What can fail in the proxy. Request-path failures never reach the
//! client as ours: the request goes upstream unchanged and the reason is
//! logged (see `server`); only startup and upstream transport fail loudly.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("bind {addr}: {source}")]
    Bind {
        addr: String,
        source: std::io::Error,
    },
    #[error("serve: {0}")]
    Serve(std::io::Error),
    #[error("upstream base URL `{url}`: {message}")]
    BadUpstream { url: String, message: String },
    #[error("listen address `{addr}` is not on this machine; pass --allow-remote to listen on it")]
    NotLocal { addr: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("upstream: {0}")]
    Upstream(#[from] reqwest::Error),
    #[error("http client: {0}")]
    Client(String),
    #[error(transparent)]
    Core(#[from] continuity_core::error::Error),
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
    #[error("--block-tool-calls needs a kernel with rules (--kernel K.toml with prohibitions or conditions): the session's own mission has none")]
    NoRules,
    #[error("compaction task: {0}")]
    Task(String),
}

impl From<continuity_core::error::InputError> for ServeError {
    fn from(e: continuity_core::error::InputError) -> Self {
        ServeError::Core(e.into())
    }
}

impl From<continuity_core::error::GovernanceError> for ServeError {
    fn from(e: continuity_core::error::GovernanceError) -> Self {
        ServeError::Core(e.into())
    }
}

pub type Result<T, E = ServeError> = std::result::Result<T, E>;

/// An I/O error on `path`.
pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ServeError {
    let path = path.into();
    move |source| ServeError::Io { path, source }
}
