//! How the proxy is set up: where it listens, where it forwards, where it
//! keeps each conversation's state, and the rules a compaction follows.

use std::net::SocketAddr;
use std::path::PathBuf;

use continuity_core::{MissionKernel, RetentionPolicy};

use crate::error::{Result, ServeError};

pub const DEFAULT_LISTEN: &str = "127.0.0.1:8787";
pub const ANTHROPIC_UPSTREAM: &str = "https://api.anthropic.com";
pub const OPENAI_UPSTREAM: &str = "https://api.openai.com";
/// The header that sends one request upstream untouched.
pub const BYPASS_HEADER: &str = "x-continuity-bypass";

/// Everything the proxy needs; nothing in it is a secret (the client's
/// keys travel in its headers and are never stored).
#[derive(Debug, Clone)]
pub struct Config {
    pub listen: SocketAddr,
    pub anthropic_upstream: String,
    pub openai_upstream: String,
    /// Per-conversation state, the inspect output and `log.jsonl`.
    pub data_dir: PathBuf,
    /// `--kernel`, else the session's own mission
    /// ([`MissionKernel::session`]).
    pub kernel: MissionKernel,
    /// Trigger and target (the policy's `compaction`), in the agent's tokens.
    pub policy: RetentionPolicy,
    /// Compute the compaction, write what would have been sent, send the
    /// original.
    pub inspect: bool,
    /// Hold back the tool calls in answers that the kernel does not allow
    /// (each becomes a text notice); off, verdicts are only recorded.
    pub block_tool_calls: bool,
    /// Summarizer name for `continuity_models::by_name`.
    pub summarizer: String,
    /// Conversations kept in memory; the least recently used idle one is
    /// read back from disk when it returns.
    pub open_conversations: usize,
}

impl Config {
    /// Defaults for everything but the data dir: localhost, the public
    /// APIs, the session's own mission, the default policy.
    pub fn new(data_dir: PathBuf) -> Result<Self> {
        let listen = DEFAULT_LISTEN.parse().map_err(|_| ServeError::NotLocal {
            addr: DEFAULT_LISTEN.into(),
        })?;
        Ok(Config {
            listen,
            anthropic_upstream: ANTHROPIC_UPSTREAM.into(),
            openai_upstream: OPENAI_UPSTREAM.into(),
            data_dir,
            kernel: MissionKernel::session(chrono::Utc::now())?,
            policy: RetentionPolicy::default(),
            inspect: false,
            block_tool_calls: false,
            summarizer: "extractive".into(),
            open_conversations: crate::store::OPEN_CONVERSATIONS,
        })
    }

    /// Refuse a base URL that is not http(s); trailing slashes go.
    pub fn check_upstreams(&mut self) -> Result<()> {
        for url in [&mut self.anthropic_upstream, &mut self.openai_upstream] {
            let ok = url.starts_with("http://") || url.starts_with("https://");
            if !ok {
                return Err(ServeError::BadUpstream {
                    url: url.clone(),
                    message: "expected an http:// or https:// URL".into(),
                });
            }
            while url.ends_with('/') {
                url.pop();
            }
        }
        Ok(())
    }

    /// The trigger, in the agent's tokens.
    pub fn trigger(&self) -> usize {
        self.policy.compaction.trigger_tokens
    }
}
