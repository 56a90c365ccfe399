//! The provider's usage figures and tool calls, read off the response as
//! it streams past (a copy of each chunk is scanned; nothing waits on it
//! unless blocking holds a call back, see `hold`), and the log line each
//! request ends with.

use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_util::Stream;
use serde::Serialize;
use serde_json::Value;

use continuity_core::governance::preflight::ToolCall;

use crate::calls::CallReader;
use crate::gate::{Checked, Gate};
use crate::hold::Holder;
use crate::request::Endpoint;
use crate::rewrite::{Action, Figures, Ours};

/// A JSON body is kept aside up to this size to read its usage (and held
/// whole up to it to block a call).
pub const MAX_KEPT: usize = 16 << 20;

/// The provider's figures for one request. `input_total` is every input
/// token it billed: Anthropic's input plus both cache counts, OpenAI's
/// prompt (its cached tokens are part of it).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Usage {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_read_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_write_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_total: Option<u64>,
}

fn num(v: &Value, path: &[&str]) -> Option<u64> {
    path.iter().try_fold(v, |v, k| v.get(k))?.as_u64()
}

impl Usage {
    /// Take whatever a `usage` object holds (later events override).
    fn absorb(&mut self, u: &Value) {
        let anthropic = u.get("cache_read_input_tokens").is_some()
            || u.get("cache_creation_input_tokens").is_some();
        let set = |slot: &mut Option<u64>, v: Option<u64>| *slot = v.or(*slot);
        set(&mut self.output_tokens, num(u, &["output_tokens"]));
        set(&mut self.output_tokens, num(u, &["completion_tokens"]));
        set(
            &mut self.cache_write_tokens,
            num(u, &["cache_creation_input_tokens"]),
        );
        set(
            &mut self.cache_read_tokens,
            num(u, &["cache_read_input_tokens"]),
        );
        set(
            &mut self.cache_read_tokens,
            num(u, &["prompt_tokens_details", "cached_tokens"]),
        );
        set(
            &mut self.cache_read_tokens,
            num(u, &["input_tokens_details", "cached_tokens"]),
        );
        set(&mut self.input_tokens, num(u, &["input_tokens"]));
        set(&mut self.input_tokens, num(u, &["prompt_tokens"]));
        self.input_total = match (anthropic, self.input_tokens) {
            (true, Some(i)) => {
                Some(i + self.cache_read_tokens.unwrap_or(0) + self.cache_write_tokens.unwrap_or(0))
            }
            (_, i) => i.or(self.input_total),
        };
    }

    /// Usage anywhere a provider puts it in a body or an event.
    fn scan(&mut self, v: &Value) {
        for u in [
            v.get("usage"),
            v.get("message").and_then(|m| m.get("usage")),
            v.get("response").and_then(|r| r.get("usage")),
        ]
        .into_iter()
        .flatten()
        {
            if u.is_object() {
                self.absorb(u);
            }
        }
    }
}

/// Reads usage off a response body chunk by chunk: server-sent events line
/// by line, any other body kept aside (up to a cap) and read at the end.
#[derive(Debug)]
pub struct Sniffer {
    sse: bool,
    pending: Vec<u8>,
    overflow: bool,
    pub usage: Usage,
    /// Only when a gate will judge the calls: otherwise no event is read
    /// for them.
    calls: Option<CallReader>,
}

impl Sniffer {
    /// `calls_of`: the endpoint whose tool calls to read, if any.
    pub fn new(sse: bool, calls_of: Option<Endpoint>) -> Self {
        Sniffer {
            sse,
            pending: Vec::new(),
            overflow: false,
            usage: Usage::default(),
            calls: calls_of.map(CallReader::new),
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) {
        if self.overflow {
            return;
        }
        self.pending.extend_from_slice(chunk);
        if self.sse {
            while let Some(i) = self.pending.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=i).collect();
                self.line(&line);
            }
        }
        if self.pending.len() > MAX_KEPT {
            self.overflow = true;
            self.pending = Vec::new();
        }
    }

    fn line(&mut self, line: &[u8]) {
        let Some(data) = line.strip_prefix(b"data:") else {
            return;
        };
        if let Ok(v) = serde_json::from_slice::<Value>(data.trim_ascii()) {
            self.usage.scan(&v);
            if let Some(c) = &mut self.calls {
                c.event(&v);
            }
        }
    }

    /// The usage and the tool calls read.
    pub fn finish(&mut self) -> (Usage, Vec<ToolCall>) {
        let rest = std::mem::take(&mut self.pending);
        if self.sse {
            self.line(&rest);
        } else if let Ok(v) = serde_json::from_slice::<Value>(&rest) {
            self.usage.scan(&v);
            if let Some(c) = &mut self.calls {
                c.body(&v);
            }
        }
        let calls = self.calls.as_mut().map(CallReader::finish);
        (std::mem::take(&mut self.usage), calls.unwrap_or_default())
    }
}

/// One line of `log.jsonl`: what the proxy did, our counts, the provider's.
#[derive(Debug, Clone, Serialize)]
pub struct Record {
    pub ts: String,
    pub endpoint: &'static str,
    pub path: String,
    pub action: Action,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conversation: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub status: u16,
    pub bytes_in: usize,
    pub bytes_sent: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ours: Option<Ours>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compaction: Option<Figures>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<Usage>,
    /// The response ended before the upstream's did (the client left).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
    /// The kernel's verdict on each tool call in the answer.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<Checked>,
}

/// `log.jsonl` under the data dir, written a line at a time.
pub struct Log {
    path: PathBuf,
    lock: Mutex<()>,
}

impl Log {
    pub fn new(path: PathBuf) -> Self {
        Log {
            path,
            lock: Mutex::new(()),
        }
    }

    /// Append `r`; a log that cannot be written is reported on stderr, and
    /// the request goes on.
    pub fn write(&self, r: &Record) {
        let _held = self.lock.lock();
        let line = serde_json::to_vec(r).unwrap_or_default();
        if let Err(e) = crate::store::append_line(&self.path, &line) {
            eprintln!("continuity serve: log: {e}");
        }
    }
}

pub type BodyStream = Pin<Box<dyn Stream<Item = Result<Bytes, reqwest::Error>> + Send>>;

/// Where an answer goes besides the client: the log, and the gate.
#[derive(Clone)]
pub struct Tap {
    pub log: Arc<Log>,
    pub ep: Endpoint,
    pub gate: Option<Arc<Gate>>,
    /// Hold back blocked calls (the gate blocks, the answer is a success,
    /// and the request was not bypassed).
    pub block: bool,
}

impl Tap {
    pub fn new(log: Arc<Log>, ep: Endpoint) -> Self {
        Tap {
            log,
            ep,
            gate: None,
            block: false,
        }
    }
}

/// How chunks reach the client.
enum Pass {
    /// As they arrive.
    AsIs,
    /// Event by event, a tool call's held until it is judged.
    Held(Holder),
    /// At the end, a whole JSON answer with its blocked calls rewritten.
    Whole(Vec<u8>),
}

/// The upstream's body as it arrives, each chunk passed on at once (or as
/// `Pass` says) and scanned for usage and tool calls; the log line and the
/// verdicts are written when it ends (or the client goes away).
pub struct Tapped {
    inner: BodyStream,
    sniffer: Sniffer,
    record: Option<Record>,
    tap: Tap,
    pass: Pass,
    ended: bool,
}

impl Tapped {
    pub fn new(inner: BodyStream, sse: bool, record: Record, tap: Tap) -> Self {
        let pass = match &tap.gate {
            Some(g) if tap.block && sse => Pass::Held(Holder::new(tap.ep, g.clone())),
            Some(_) if tap.block => Pass::Whole(Vec::new()),
            _ => Pass::AsIs,
        };
        Tapped {
            inner,
            sniffer: Sniffer::new(sse, tap.gate.is_some().then_some(tap.ep)),
            record: Some(record),
            tap,
            pass,
            ended: false,
        }
    }

    fn close(&mut self, cut: bool) {
        let Some(mut r) = self.record.take() else {
            return;
        };
        let (usage, calls) = self.sniffer.finish();
        r.provider = (usage != Usage::default()).then_some(usage);
        r.cut = cut;
        if let Some(gate) = &self.tap.gate {
            let blocking = !matches!(self.pass, Pass::AsIs);
            r.tool_calls = gate.checked(&calls, blocking);
            if let Err(e) = gate.record(r.conversation.as_deref(), &r.tool_calls) {
                eprintln!("continuity serve: ledger: {e}");
            }
        }
        self.tap.log.write(&r);
    }

    /// What to pass on of `chunk` now.
    fn pass(&mut self, chunk: Bytes) -> Option<Bytes> {
        match &mut self.pass {
            Pass::AsIs => Some(chunk),
            Pass::Held(h) => Some(Bytes::from(h.feed(&chunk))).filter(|b| !b.is_empty()),
            Pass::Whole(kept) => {
                kept.extend_from_slice(&chunk);
                if kept.len() <= MAX_KEPT {
                    return None;
                }
                // Too large to hold: passed on as it comes, unblocked.
                let kept = std::mem::take(kept);
                self.pass = Pass::AsIs;
                Some(Bytes::from(kept))
            }
        }
    }

    /// What is left to pass on when the upstream's body has ended.
    fn rest(&mut self) -> Bytes {
        let (Some(gate), pass) = (&self.tap.gate, &mut self.pass) else {
            return Bytes::new();
        };
        match pass {
            Pass::AsIs => Bytes::new(),
            Pass::Held(h) => Bytes::from(h.finish()),
            Pass::Whole(kept) => {
                let kept = std::mem::take(kept);
                let Ok(mut v) = serde_json::from_slice::<Value>(&kept) else {
                    return Bytes::from(kept);
                };
                if !gate.rewrite_body(self.tap.ep, &mut v) {
                    return Bytes::from(kept);
                }
                Bytes::from(serde_json::to_vec(&v).unwrap_or(kept))
            }
        }
    }
}

impl Stream for Tapped {
    type Item = Result<Bytes, reqwest::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            if self.ended {
                return Poll::Ready(None);
            }
            match self.inner.as_mut().poll_next(cx) {
                Poll::Ready(Some(Ok(chunk))) => {
                    self.sniffer.feed(&chunk);
                    if let Some(out) = self.pass(chunk) {
                        return Poll::Ready(Some(Ok(out)));
                    }
                }
                Poll::Ready(Some(Err(e))) => {
                    self.close(true);
                    self.ended = true;
                    return Poll::Ready(Some(Err(e)));
                }
                Poll::Ready(None) => {
                    let rest = self.rest();
                    self.close(false);
                    self.ended = true;
                    return Poll::Ready((!rest.is_empty()).then_some(Ok(rest)));
                }
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

impl Drop for Tapped {
    fn drop(&mut self) {
        self.close(true);
    }
}
