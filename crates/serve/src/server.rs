//! The router and the request path: read endpoints decided by `rewrite`,
//! everything else forwarded as it came.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, Method, Uri};
use axum::response::Response;
use axum::routing::post;
use axum::serve::ListenerExt;
use axum::Router;
use bytes::Bytes;
use serde_json::Value;
use tokio::net::TcpListener;

use crate::config::{Config, BYPASS_HEADER};
use crate::error::{Result, ServeError};
use crate::forward;
use crate::gate::Gate;
use crate::request::{self, Endpoint};
use crate::rewrite::{Action, Engine, Prepared};
use crate::store::{Shared, Store};
use crate::usage::{Log, Record, Tap};

/// Bodies up to this size are read (a long session with images).
const MAX_BODY: usize = 512 << 20;

/// What every request shares.
#[derive(Clone)]
pub struct App {
    engine: Arc<Engine>,
    store: Arc<Store>,
    client: reqwest::Client,
    log: Arc<Log>,
    /// The kernel's preflight of answers' tool calls (a kernel with rules).
    gate: Option<Arc<Gate>>,
}

impl App {
    pub fn new(cfg: Config) -> Result<Self> {
        let mut cfg = cfg;
        cfg.check_upstreams()?;
        std::fs::create_dir_all(&cfg.data_dir).map_err(crate::error::io(&cfg.data_dir))?;
        let client = reqwest::Client::builder()
            .connect_timeout(std::time::Duration::from_secs(30))
            .build()
            .map_err(|e| ServeError::Client(e.to_string()))?;
        let redactor = continuity_core::redact::Redactor::new(&cfg.policy.personal_data)?;
        let gate = Gate::new(
            &cfg.kernel,
            cfg.block_tool_calls,
            cfg.data_dir.clone(),
            redactor,
        );
        if cfg.block_tool_calls && gate.is_none() {
            return Err(ServeError::NoRules);
        }
        Ok(App {
            gate: gate.map(Arc::new),
            store: Arc::new(Store::new(&cfg.data_dir, cfg.open_conversations)),
            log: Arc::new(Log::new(cfg.data_dir.join("log.jsonl"))),
            engine: Arc::new(Engine::new(Arc::new(cfg))?),
            client,
        })
    }

    /// Where the answer to a request goes besides the client: the log and,
    /// unless the request was bypassed, the gate's blocking.
    fn tap(&self, ep: Endpoint, action: Action) -> Tap {
        Tap {
            log: self.log.clone(),
            ep,
            gate: self.gate.clone(),
            block: action != Action::Bypass,
        }
    }

    /// The upstream URL: Anthropic's for its endpoints and for any other
    /// request that carries its headers, else OpenAI's.
    fn url(&self, ep: Endpoint, uri: &Uri, headers: &HeaderMap) -> String {
        let cfg = &self.engine.cfg;
        let anthropic = ep.anthropic()
            || (ep == Endpoint::Other
                && (headers.contains_key("anthropic-version")
                    || headers.contains_key("x-api-key")));
        let base = if anthropic {
            &cfg.anthropic_upstream
        } else {
            &cfg.openai_upstream
        };
        let path = uri.path_and_query().map_or("/", |p| p.as_str());
        format!("{base}{path}")
    }
}

pub fn router(app: App) -> Router {
    Router::new()
        .route("/v1/messages", post(messages))
        .route("/v1/messages/count_tokens", post(count_tokens))
        .route("/v1/chat/completions", post(chat))
        .route("/v1/responses", post(responses))
        .fallback(other)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

/// Refuse a non-loopback address unless asked; bind.
pub async fn bind(cfg: &Config, allow_remote: bool) -> Result<TcpListener> {
    if !allow_remote && !cfg.listen.ip().is_loopback() {
        return Err(ServeError::NotLocal {
            addr: cfg.listen.to_string(),
        });
    }
    TcpListener::bind(cfg.listen)
        .await
        .map_err(|source| ServeError::Bind {
            addr: cfg.listen.to_string(),
            source,
        })
}

/// Serve on `listener` until `shutdown` resolves.
pub async fn serve(
    app: App,
    listener: TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<()> {
    // Each streamed event goes out as it comes: without TCP_NODELAY a small
    // write waits for the client's delayed ACK (40 ms on Linux).
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            eprintln!("continuity serve: TCP_NODELAY not set on a connection: {e}");
        }
    });
    axum::serve(listener, router(app))
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(ServeError::Serve)
}

async fn messages(s: State<App>, m: Method, u: Uri, h: HeaderMap, b: Bytes) -> Response {
    handle(s.0, Endpoint::Messages, m, u, h, b).await
}

async fn count_tokens(s: State<App>, m: Method, u: Uri, h: HeaderMap, b: Bytes) -> Response {
    handle(s.0, Endpoint::CountTokens, m, u, h, b).await
}

async fn chat(s: State<App>, m: Method, u: Uri, h: HeaderMap, b: Bytes) -> Response {
    handle(s.0, Endpoint::Chat, m, u, h, b).await
}

async fn responses(s: State<App>, m: Method, u: Uri, h: HeaderMap, b: Bytes) -> Response {
    handle(s.0, Endpoint::Responses, m, u, h, b).await
}

/// Any other path or method: forwarded as it came, body streamed.
async fn other(State(app): State<App>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let url = app.url(Endpoint::Other, &parts.uri, &parts.headers);
    let record = Record::new(Endpoint::Other, &parts.uri, 0, Action::Passthrough);
    let upstream = app
        .client
        .request(parts.method.clone(), url)
        .headers(forward::request_headers(&parts.headers))
        .body(reqwest::Body::wrap_stream(body.into_data_stream()));
    match upstream.send().await {
        Ok(resp) => forward::respond(resp, record, Tap::new(app.log.clone(), Endpoint::Other)),
        Err(e) => forward::unreachable(&e, record, &app.log),
    }
}

async fn handle(app: App, ep: Endpoint, m: Method, u: Uri, h: HeaderMap, body: Bytes) -> Response {
    let url = app.url(ep, &u, &h);
    let (prepared, conv) = plan(&app, ep, &h, &body).await;
    let mut record = Record::new(ep, &u, body.len(), prepared.action);
    record.conversation = conv.as_ref().map(|(id, _)| id.clone());
    record.note = prepared.note;
    record.ours = prepared.ours;
    record.compaction = prepared.compaction;
    let rewritten = prepared.body.and_then(|v| serde_json::to_vec(&v).ok());
    let Some(rewritten) = rewritten else {
        return send(&app, ep, &m, &url, &h, body, record).await;
    };
    let rewritten = Bytes::from(rewritten);
    record.bytes_sent = rewritten.len();
    let resp = match forward::send(&app.client, &m, &url, &h, rewritten).await {
        Ok(r) => r,
        Err(e) => return forward::unreachable(&e, record, &app.log),
    };
    if !forward::rejected(resp.status()) {
        let tap = app.tap(ep, record.action);
        return forward::respond(resp, record, tap);
    }
    let why = format!(
        "upstream refused the rewritten request ({}): {}",
        resp.status(),
        forward::reason(resp).await
    );
    eprintln!("continuity serve: {why}; the original is resent");
    if let Some((_, c)) = &conv {
        if let Err(e) = c.lock().await.stand_down(&why) {
            eprintln!("continuity serve: {e}");
        }
    }
    record.action = Action::Fallback;
    record.note = Some(why);
    send(&app, ep, &m, &url, &h, body, record).await
}

/// The client's bytes, upstream as they came.
async fn send(
    app: &App,
    ep: Endpoint,
    m: &Method,
    url: &str,
    h: &HeaderMap,
    body: Bytes,
    mut record: Record,
) -> Response {
    record.bytes_sent = body.len();
    let tap = app.tap(ep, record.action);
    match forward::send(&app.client, m, url, h, body).await {
        Ok(resp) => forward::respond(resp, record, tap),
        Err(e) => forward::unreachable(&e, record, &app.log),
    }
}

/// What to send: decided under the conversation's lock, off the runtime.
async fn plan(
    app: &App,
    ep: Endpoint,
    h: &HeaderMap,
    body: &Bytes,
) -> (Prepared, Option<(String, Shared)>) {
    if h.get(BYPASS_HEADER).is_some_and(|v| v.as_bytes() != b"0") {
        return (Prepared::original(Action::Bypass, None), None);
    }
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return (
                Prepared::original(Action::Passthrough, Some(format!("not read: {e}"))),
                None,
            )
        }
    };
    if request::provider_compaction(&value, ep) {
        return (Prepared::original(Action::StepAside, None), None);
    }
    let id = request::conversation_id(&value, ep);
    let conv = match app.store.get(&id) {
        Ok(c) => c,
        Err(e) => {
            return (
                Prepared::original(Action::Passthrough, Some(e.to_string())),
                None,
            )
        }
    };
    let mut held = conv.clone().lock_owned().await;
    let (engine, len) = (app.engine.clone(), body.len());
    if engine.decides_at_once(&held, len) {
        let prepared = engine.prepare(&mut held, ep, &value, len);
        return (prepared, Some((id, conv)));
    }
    let decided =
        tokio::task::spawn_blocking(move || engine.prepare(&mut held, ep, &value, len)).await;
    let prepared = decided.unwrap_or_else(|e| {
        Prepared::original(Action::Passthrough, Some(format!("not decided: {e}")))
    });
    (prepared, Some((id, conv)))
}

impl Record {
    pub fn new(ep: Endpoint, uri: &Uri, bytes_in: usize, action: Action) -> Self {
        Record {
            ts: chrono::Utc::now().to_rfc3339(),
            endpoint: ep.name(),
            path: uri.path().to_string(),
            action,
            conversation: None,
            note: None,
            status: 0,
            bytes_in,
            bytes_sent: bytes_in,
            ours: None,
            compaction: None,
            provider: None,
            cut: false,
            tool_calls: Vec::new(),
        }
    }
}
