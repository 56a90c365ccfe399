//! Sending upstream and streaming the answer back: the client's headers
//! forwarded (its keys included, never stored), the response passed on
//! chunk by chunk as it arrives.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderName, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use futures_util::StreamExt;

use crate::config::BYPASS_HEADER;
use crate::usage::{Log, Record, Tap, Tapped};

/// Per-hop headers (RFC 9110 §7.6.1), the ones the client set for us, and
/// the length, which the client for the new hop sets from the body.
const NOT_FORWARDED: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authorization",
    "transfer-encoding",
    "te",
    "trailer",
    "upgrade",
    "host",
    "content-length",
    BYPASS_HEADER,
];

fn forwarded(name: &HeaderName) -> bool {
    !NOT_FORWARDED.contains(&name.as_str())
}

/// The client's headers for the upstream.
pub fn request_headers(h: &HeaderMap) -> HeaderMap {
    let mut out = HeaderMap::with_capacity(h.len());
    for (k, v) in h.iter().filter(|(k, _)| forwarded(k)) {
        out.append(k.clone(), v.clone());
    }
    out
}

/// One request upstream.
pub async fn send(
    client: &reqwest::Client,
    method: &Method,
    url: &str,
    headers: &HeaderMap,
    body: Bytes,
) -> Result<reqwest::Response, reqwest::Error> {
    client
        .request(method.clone(), url)
        .headers(request_headers(headers))
        .body(body)
        .send()
        .await
}

/// A refusal of the request itself, which the original may not meet:
/// not auth (401, 403) nor rate limits (429), which it would meet too.
pub fn rejected(status: StatusCode) -> bool {
    status.is_client_error()
        && ![
            StatusCode::UNAUTHORIZED,
            StatusCode::FORBIDDEN,
            StatusCode::TOO_MANY_REQUESTS,
        ]
        .contains(&status)
}

/// The start of a refusal's body, for the log.
pub async fn reason(resp: reqwest::Response) -> String {
    const KEEP: usize = 2048;
    let mut out = Vec::new();
    let mut body = resp.bytes_stream();
    while let Some(Ok(chunk)) = body.next().await {
        out.extend_from_slice(&chunk);
        if out.len() >= KEEP {
            out.truncate(KEEP);
            break;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The upstream's answer, streamed to the client as it arrives.
pub fn respond(resp: reqwest::Response, mut record: Record, mut tap: Tap) -> Response {
    let status = resp.status();
    record.status = status.as_u16();
    tap.block &= status.is_success() && tap.gate.as_ref().is_some_and(|g| g.block);
    let sse = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.starts_with("text/event-stream"));
    let mut headers = HeaderMap::with_capacity(resp.headers().len());
    // The length stays unless blocking may rewrite the body.
    let keep = |k: &HeaderName| forwarded(k) || (k == "content-length" && !tap.block);
    for (k, v) in resp.headers().iter().filter(|(k, _)| keep(k)) {
        headers.append(k.clone(), v.clone());
    }
    let body = Tapped::new(Box::pin(resp.bytes_stream()), sse, record, tap);
    (status, headers, Body::from_stream(body)).into_response()
}

/// The proxy could not reach the upstream.
pub fn unreachable(e: &reqwest::Error, mut record: Record, log: &Log) -> Response {
    record.status = StatusCode::BAD_GATEWAY.as_u16();
    record.note = Some(format!("upstream unreachable: {e}"));
    log.write(&record);
    let body = serde_json::json!({
        "type": "error",
        "error": {"type": "proxy_error", "message": format!("continuity serve: upstream unreachable: {e}")},
    });
    (
        StatusCode::BAD_GATEWAY,
        [("content-type", "application/json")],
        body.to_string(),
    )
        .into_response()
}
