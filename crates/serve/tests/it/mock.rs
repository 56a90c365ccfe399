//! A mock upstream on loopback: records every request's bytes and plays a
//! reply chosen by the test, JSON or server-sent events, the events
//! optionally held after the first until the test lets them go.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use continuity_serve::{App, Config};
use serde_json::{json, Value};
use tokio::sync::Notify;

/// One request as the upstream got it.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Received {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("upstream got JSON")
    }
}

/// What the upstream answers.
#[derive(Clone)]
pub enum Reply {
    Json(StatusCode, Value),
    /// Events (`event:`/`data:` text each); with a gate, the first is sent
    /// and the rest wait until the gate is notified.
    Sse(Vec<String>, Option<Arc<Notify>>),
}

pub type Script = Arc<dyn Fn(&Received) -> Reply + Send + Sync>;

#[derive(Clone)]
pub struct Mock {
    pub addr: SocketAddr,
    pub received: Arc<Mutex<Vec<Received>>>,
}

impl Mock {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn all(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    pub fn last(&self) -> Received {
        self.all()
            .last()
            .cloned()
            .expect("the upstream got a request")
    }
}

#[derive(Clone)]
struct Stub {
    received: Arc<Mutex<Vec<Received>>>,
    script: Script,
}

async fn stub(State(s): State<Stub>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    let r = Received {
        path: parts.uri.path().to_string(),
        headers: parts.headers,
        body,
    };
    s.received.lock().unwrap().push(r.clone());
    match (s.script)(&r) {
        Reply::Json(status, v) => (
            status,
            [("content-type", "application/json")],
            v.to_string(),
        )
            .into_response(),
        Reply::Sse(events, gate) => sse(events, gate),
    }
}

fn sse(events: Vec<String>, gate: Option<Arc<Notify>>) -> Response {
    let stream = async_stream(events, gate);
    (
        [("content-type", "text/event-stream")],
        Body::from_stream(stream),
    )
        .into_response()
}

fn async_stream(
    events: Vec<String>,
    gate: Option<Arc<Notify>>,
) -> impl futures_util::Stream<Item = Result<Bytes, std::io::Error>> {
    futures_util::stream::unfold((0usize, events, gate), |(i, events, gate)| async move {
        let e = events.get(i)?.clone();
        if i == 1 {
            if let Some(g) = &gate {
                // Held until the client has seen the first event.
                tokio::time::timeout(Duration::from_secs(10), g.notified())
                    .await
                    .ok()?;
            }
        }
        Some((Ok(Bytes::from(format!("{e}\n\n"))), (i + 1, events, gate)))
    })
}

pub async fn start(script: Script) -> Mock {
    let received = Arc::new(Mutex::new(Vec::new()));
    let app = axum::Router::new().fallback(stub).with_state(Stub {
        received: received.clone(),
        script,
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    Mock { addr, received }
}

/// The proxy in front of `mock`, on a free loopback port.
pub async fn proxy(mut cfg: Config, mock: &Mock) -> String {
    cfg.anthropic_upstream = mock.url();
    cfg.openai_upstream = mock.url();
    let app = App::new(cfg).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(continuity_serve::serve(
        app,
        listener,
        std::future::pending(),
    ));
    format!("http://{addr}")
}

/// An Anthropic message answer with usage.
pub fn anthropic_reply(text: &str) -> Value {
    json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 120, "cache_creation_input_tokens": 30, "cache_read_input_tokens": 900, "output_tokens": 12}
    })
}

/// An Anthropic stream: message_start .. message_stop.
pub fn anthropic_events(text: &str) -> Vec<String> {
    let ev = |name: &str, v: Value| format!("event: {name}\ndata: {v}");
    vec![
        ev(
            "message_start",
            json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude-sonnet-4-5", "usage": {"input_tokens": 50, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 700, "output_tokens": 1}}}),
        ),
        ev(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ),
        ev(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}),
        ),
        ev(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        ev(
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": null}, "usage": {"output_tokens": 9}}),
        ),
        ev("message_stop", json!({"type": "message_stop"})),
    ]
}

/// An OpenAI chat completion with usage.
pub fn chat_reply(text: &str) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 40, "completion_tokens": 5, "total_tokens": 45, "prompt_tokens_details": {"cached_tokens": 32}}
    })
}
