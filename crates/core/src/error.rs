//! Typed errors, in one module every other one may use. `InputError` is the
//! user's fault (exit code 2); `GovernanceError` is a governance check that
//! failed closed (exit code 4); `Error::OverBudget` is a target below what
//! must be kept (exit code 5); everything else is ours (exit code 1).

use std::path::PathBuf;

/// Where a piece of input came from, so every message can name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source(pub String);

impl Source {
    pub fn path(p: &std::path::Path) -> Self {
        Source(p.display().to_string())
    }
    pub fn stdin() -> Self {
        Source("<stdin>".to_string())
    }
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Problems with what the user gave us. Each names the file and the problem.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{file}: cannot read: {message}")]
    Unreadable { file: Source, message: String },
    #[error("{file}: malformed JSON at line {line}, column {column}: {message}")]
    MalformedJson {
        file: Source,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{file}: unknown request format: {reason}. Expected an Anthropic Messages, OpenAI Chat Completions or OpenAI Responses request body, a Pydantic AI message history, a Claude Code session transcript or a Codex CLI rollout")]
    UnknownFormat { file: Source, reason: String },
    #[error("{file}: line {line}: invalid {format} transcript: {message}")]
    InvalidTranscript {
        file: Source,
        format: &'static str,
        line: usize,
        message: String,
    },
    #[error("{file}: cannot read the request at {at}: {message}")]
    BadPoint {
        file: Source,
        at: String,
        message: String,
    },
    #[error("{file}: invalid {format} request: {message}")]
    InvalidRequest {
        file: Source,
        format: &'static str,
        message: String,
    },
    #[error("{file}: invalid TOML: {message}")]
    MalformedToml { file: Source, message: String },
    #[error("{file}: invalid mission kernel: {message}")]
    InvalidKernel { file: Source, message: String },
    #[error("{file}: kernel integrity error: pinned sha256 {expected} but the kernel hashes to {actual}; the kernel changed since it was pinned")]
    KernelHashMismatch {
        file: Source,
        expected: String,
        actual: String,
    },
    #[error("{file}: prohibition `{id}` expired at {expires_at}; refresh governance state (issue a new kernel version) before compacting")]
    ExpiredProhibition {
        file: Source,
        id: String,
        expires_at: String,
    },
    #[error("{file}: invalid retention policy: {message}")]
    InvalidPolicy { file: Source, message: String },
    #[error("{file}: invalid tokenizer: {message}")]
    InvalidTokenizer { file: Source, message: String },
    #[error("unknown summarizer `{name}`; available: {available}")]
    UnknownSummarizer { name: String, available: String },
    #[error("{path}: output directory problem: {message}")]
    BadOutputDir { path: PathBuf, message: String },
}

/// Everything the library can fail with.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error("summarizer `{name}` failed: {message}")]
    Summarizer { name: String, message: String },
    #[error("precedence check failed: {count} must-persist item(s) missing from the compacted request: {missing}")]
    PrecedenceViolation { count: usize, missing: String },
    /// What must be kept is over the target: no request is returned, since
    /// it would trigger compaction again at once.
    #[error("the target of {target} tokens is below what must be kept ({must_keep} tokens: {parts}); nothing was written. Raise --target-tokens (or the policy's compaction.target_tokens or trigger_tokens) to at least {must_keep}")]
    OverBudget {
        target: usize,
        must_keep: usize,
        parts: String,
    },
    #[error("personal data would be written to {file}: a withheld value survived redaction")]
    PersonalDataLeak { file: String },
    #[error("compacted request is not a valid {format} request: {message}")]
    InvalidOutput {
        format: &'static str,
        message: String,
    },
    #[error("tokenizer failed: {0}")]
    Tokenizer(String),
    #[error("I/O error on {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A governance check failed closed (policy pin, ledger, memory).
    #[error(transparent)]
    Governance(#[from] GovernanceError),
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// Exit code for the CLI: 2 for bad input, 4 for a governance check
    /// that failed closed, 5 for a target below what must be kept, 1 for
    /// everything else.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) => 2,
            Error::Governance(_) => 4,
            Error::OverBudget { .. } => 5,
            _ => 1,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Errors of the governance boundary. All of them fail closed.
#[derive(Debug, thiserror::Error)]
pub enum GovernanceError {
    #[error(transparent)]
    Pin(#[from] PinError),
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    #[error("memory store {path}: {message}")]
    Memory { path: String, message: String },
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PinError {
    #[error("policy pin integrity failure: expected sha256 {expected} but the pinned policy hashes to {actual}; stop before tool execution")]
    Integrity { expected: String, actual: String },
    #[error("policy pin expired: constraint `{id}` expired at {expires_at}; refresh governance state (issue a new kernel version) before releasing the request")]
    Expired { id: String, expires_at: String },
    #[error("policy pin seal mismatch: the pin was altered after it was written; stop before tool execution")]
    Seal,
    #[error("policy pin invalid: {0}")]
    Invalid(String),
    /// A pin file that exists but cannot be read: never taken for a first
    /// rebuild, which would restart the sequence.
    #[error("policy pin {path}: cannot read it ({message}); refusing to start a new pin sequence over it")]
    Unreadable { path: String, message: String },
}

#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: chain broken at line {line}: {reason}; refusing to append")]
    Broken {
        path: PathBuf,
        line: usize,
        reason: String,
    },
    #[error("effect `{effect_id}`: {message}")]
    Effect { effect_id: String, message: String },
}
