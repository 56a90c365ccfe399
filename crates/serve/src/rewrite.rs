//! What a request becomes, decided off the async runtime (counting and
//! compacting are CPU work): the client's bytes, the new turns spliced
//! after a compacted prefix, or a new compaction. It never fails: whatever
//! goes wrong leaves the request as it came, with the reason noted.

use std::sync::Arc;

use continuity_core::compact::{compact_pinned, count_transcript, Inputs, Strategy};
use continuity_core::error::Source;
use continuity_core::formats;
use continuity_core::io::{self, OutputFiles};
use continuity_core::redact::Redactor;
use continuity_core::Transcript;
use continuity_models::agent::{family, Family};
use continuity_models::TokenCounter;
use serde::Serialize;
use serde_json::Value;

use crate::config::Config;
use crate::error::{Result, ServeError};
use crate::request::{self, Endpoint, Mapping};
use crate::store::{append_line, Conversation};

/// What the proxy did with a request (`log.jsonl`'s `action`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Forwarded byte for byte: under the trigger, or not a request we read.
    Passthrough,
    /// The bypass header.
    Bypass,
    /// The client compacts with the provider.
    StepAside,
    /// New turns after an earlier compaction's prefix.
    Spliced,
    Compacted,
    /// Inspect mode: compacted, written, the original sent.
    Inspected,
    /// The upstream refused a rewritten request earlier in the conversation.
    StoodDown,
    /// The upstream refused the rewritten request; the original was resent.
    Fallback,
}

/// Our count of a request, in the agent's tokens.
#[derive(Debug, Clone, Serialize)]
pub struct Ours {
    pub tokens: usize,
    pub tokenizer: String,
}

/// One compaction's figures, beside the provider's in the log.
#[derive(Debug, Clone, Serialize)]
pub struct Figures {
    pub sequence: usize,
    pub before: usize,
    pub after: usize,
    pub target: usize,
    pub trigger: usize,
}

/// The decision for one request.
#[derive(Debug)]
pub struct Prepared {
    /// The body to send instead of the client's; `None`: the client's bytes.
    pub body: Option<Value>,
    pub action: Action,
    pub note: Option<String>,
    pub ours: Option<Ours>,
    pub compaction: Option<Figures>,
}

impl Prepared {
    pub fn original(action: Action, note: Option<String>) -> Self {
        Prepared {
            body: None,
            action,
            note,
            ours: None,
            compaction: None,
        }
    }

    /// The spliced request when there is one, else the client's.
    fn as_is(spliced: Option<Value>, note: Option<String>, ours: Option<Ours>) -> Self {
        let action = match spliced {
            Some(_) => Action::Spliced,
            None => Action::Passthrough,
        };
        Prepared {
            body: spliced,
            action,
            note,
            ours,
            compaction: None,
        }
    }
}

/// The configuration and the counters, loaded once.
pub struct Engine {
    pub cfg: Arc<Config>,
    o200k: TokenCounter,
    bundled: TokenCounter,
}

impl Engine {
    pub fn new(cfg: Arc<Config>) -> Result<Self> {
        Ok(Engine {
            cfg,
            o200k: TokenCounter::o200k_base()?,
            bundled: TokenCounter::default_tokenizer()?,
        })
    }

    /// The agent's counter: o200k_base for OpenAI models, else the bundled
    /// one (`continuity_models::agent::for_model`, loaded once).
    pub fn counter(&self, t: &Transcript) -> &TokenCounter {
        match family(t.model()) {
            Family::OpenAi => &self.o200k,
            _ => &self.bundled,
        }
    }

    /// No compaction again until the request has grown a headroom past
    /// `tokens`. The hold is in memory whatever happens on disk; a write
    /// that fails costs at most one retry after a restart.
    fn hold(&self, conv: &mut Conversation, tokens: usize) {
        let _ = conv.hold(tokens + self.headroom());
    }

    fn headroom(&self) -> usize {
        let c = &self.cfg.policy.compaction;
        c.trigger_tokens.saturating_sub(c.target())
    }

    /// Whether [`Engine::prepare`] decides at once: the conversation stood
    /// down, or nothing to splice and a body too small to need counting.
    /// Such a request is decided on the runtime's thread; the others go to
    /// the blocking pool.
    pub fn decides_at_once(&self, conv: &Conversation, len: usize) -> bool {
        conv.stood_down.is_some() || (conv.mappings.is_empty() && len <= self.cfg.trigger())
    }

    /// Decide what `original` (the client's body, `len` bytes) becomes.
    pub fn prepare(
        &self,
        conv: &mut Conversation,
        ep: Endpoint,
        original: &Value,
        len: usize,
    ) -> Prepared {
        if let Some(why) = &conv.stood_down {
            return Prepared::original(Action::StoodDown, Some(why.clone()));
        }
        let spliced = request::best(&conv.mappings, original, ep)
            .and_then(|m| request::splice(original, ep, m));
        let trigger = self.cfg.trigger();
        // A token is at least a byte: a body this small is under the trigger.
        if ep == Endpoint::CountTokens || (spliced.is_none() && len <= trigger) {
            return Prepared::as_is(spliced, None, None);
        }
        let candidate = spliced.as_ref().unwrap_or(original);
        let (t, ours) = match self.count(candidate) {
            Ok(x) => x,
            Err(e) => return Prepared::as_is(spliced, Some(format!("not counted: {e}")), None),
        };
        let held = conv.hold_below.is_some_and(|h| ours.tokens < h);
        if ours.tokens <= trigger || held {
            return Prepared::as_is(spliced, None, Some(ours));
        }
        match self.compact(conv, ep, original, &t) {
            Ok((body, figures)) => self.compacted(conv, body, figures, ours),
            Err(e) => {
                self.hold(conv, ours.tokens);
                Prepared::as_is(spliced, Some(format!("not compacted: {e}")), Some(ours))
            }
        }
    }

    fn compacted(
        &self,
        conv: &mut Conversation,
        body: Value,
        figures: Figures,
        ours: Ours,
    ) -> Prepared {
        let (body, action) = if self.cfg.inspect {
            // Nothing changes upstream: look again only a headroom later.
            self.hold(conv, ours.tokens);
            (None, Action::Inspected)
        } else {
            (Some(body), Action::Compacted)
        };
        Prepared {
            body,
            action,
            note: None,
            ours: Some(ours),
            compaction: Some(figures),
        }
    }

    fn count(&self, v: &Value) -> Result<(Transcript, Ours)> {
        let t = formats::parse_value(v, &Source("<request>".into()))?;
        let counter = self.counter(&t);
        let tokens = count_transcript(&t, counter)?;
        let tokenizer = continuity_core::tokens::TokenCount::name(counter).to_string();
        Ok((t, Ours { tokens, tokenizer }))
    }

    /// One governed compaction of `t` (the request as it would be sent),
    /// continuing the conversation's run; its files written, and the
    /// client's turns so far mapped to the result.
    fn compact(
        &self,
        conv: &mut Conversation,
        ep: Endpoint,
        original: &Value,
        t: &Transcript,
    ) -> Result<(Value, Figures)> {
        let cfg = &self.cfg;
        let name = format!("conversation {}", conv.id);
        let current = conv.dir.join("current");
        let ctx = io::pin_context(&current, &cfg.kernel, &name, None, chrono::Utc::now())?;
        let mut redactor = Redactor::new(&cfg.policy.personal_data)?;
        let mut summarizer = continuity_models::by_name(&cfg.summarizer)?;
        let inputs = Inputs {
            transcript: t,
            input_name: &name,
            kernel: &cfg.kernel,
            policy: &cfg.policy,
            strategy: Strategy::Governed,
        };
        let counter = self.counter(t);
        let c = compact_pinned(&inputs, &ctx, summarizer.as_mut(), counter, &mut redactor)?;
        let mut files = io::serialize(&c)?;
        io::check_leaks(&files, &mut redactor)?;
        let body = formats::render(&c.request);
        conv.compactions += 1;
        let figures = Figures {
            sequence: conv.compactions,
            before: c.report.tokens.before,
            after: c.report.tokens.after,
            target: c.report.headroom.target,
            trigger: cfg.trigger(),
        };
        if cfg.inspect {
            files
                .files
                .push(("would_send.json", serde_json::to_vec(&body)?));
            let dir = cfg.data_dir.join("inspect").join(&conv.id);
            io::write_atomically(&dir.join(figures.sequence.to_string()), &files)?;
            return Ok((body, figures));
        }
        self.keep(conv, &current, &files, figures.sequence)?;
        let original_len = request::items(original, ep).len();
        let original_hash = request::prefix_hash(original, ep, original_len)
            .ok_or_else(|| ServeError::Task("prefix hash".into()))?;
        conv.add_mapping(Mapping {
            original_len,
            original_hash,
            compacted: body.clone(),
        })?;
        Ok((body, figures))
    }

    /// The run's files: the latest compaction in `current/` (its policy pin
    /// continues the run), each report kept, the audit appended.
    fn keep(
        &self,
        conv: &Conversation,
        current: &std::path::Path,
        files: &OutputFiles,
        seq: usize,
    ) -> Result<()> {
        io::write_atomically(current, files)?;
        for (name, bytes) in &files.files {
            match *name {
                "report.json" => {
                    let dir = conv.dir.join("reports");
                    std::fs::create_dir_all(&dir).map_err(crate::error::io(&dir))?;
                    let path = dir.join(format!("{seq:04}.json"));
                    std::fs::write(&path, bytes).map_err(crate::error::io(&path))?;
                }
                "audit.jsonl" if !bytes.is_empty() => {
                    let trimmed = bytes.strip_suffix(b"\n").unwrap_or(bytes);
                    append_line(&conv.dir.join("audit.jsonl"), trimmed)?;
                }
                _ => {}
            }
        }
        Ok(())
    }
}
