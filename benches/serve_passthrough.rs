//! The proxy's added latency on passthrough: 50 concurrent clients, each
//! an agent with its own conversation, stream requests from a mock upstream
//! on loopback, straight and through `continuity serve`; the time to the
//! last byte, p50/p99 each way, and the difference. Straight and proxied
//! rounds alternate, so the machine's other load falls on both alike.
//!
//! Run: `cargo bench -p continuity-serve --bench serve_passthrough`
//! (`-- STREAMS ROUNDS` to change 50 and 20).

#![allow(clippy::unwrap_used)]

#[path = "serve_common.rs"]
mod serve_common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::response::IntoResponse;
use bytes::Bytes;
use futures_util::StreamExt;

/// A short Anthropic-like stream: six events, 1 ms apart.
async fn upstream() -> impl IntoResponse {
    let events = futures_util::stream::iter(0..6).then(|i| async move {
        tokio::time::sleep(Duration::from_millis(1)).await;
        Ok::<_, std::io::Error>(Bytes::from(format!(
            "event: content_block_delta\ndata: {{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{{\"type\":\"text_delta\",\"text\":\"chunk {i}\"}}}}\n\n"
        )))
    });
    (
        [("content-type", "text/event-stream")],
        Body::from_stream(events),
    )
}

/// Client `i`'s request: its own conversation, as 50 agents would send.
fn body(i: usize) -> String {
    format!(
        r#"{{"model":"claude-sonnet-4-5","max_tokens":64,"stream":true,"messages":[{{"role":"user","content":"hello from agent {i}"}}]}}"#
    )
}

/// Every request's time to its last byte, `streams` clients × `rounds`.
async fn run(client: &reqwest::Client, base: &str, streams: usize, rounds: usize) -> Vec<Duration> {
    let tasks: Vec<_> = (0..streams)
        .map(|i| {
            let (client, url) = (client.clone(), format!("{base}/v1/messages"));
            tokio::spawn(async move {
                let mut out = Vec::new();
                for _ in 0..rounds {
                    let t = Instant::now();
                    let resp = client.post(&url).body(body(i)).send().await.unwrap();
                    let mut s = resp.bytes_stream();
                    while let Some(c) = s.next().await {
                        c.unwrap();
                    }
                    out.push(t.elapsed());
                }
                out
            })
        })
        .collect();
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    all
}

/// Rounds run on one side before the other side's turn.
const BLOCK: usize = 4;

fn pct(v: &[Duration], p: f64) -> Duration {
    v[((v.len() as f64 * p).ceil() as usize)
        .saturating_sub(1)
        .min(v.len() - 1)]
}

fn main() {
    let args = serve_common::numeric_args();
    let streams = args.first().copied().unwrap_or(50);
    let rounds = args.get(1).copied().unwrap_or(20);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let up = serve_common::listen(axum::Router::new().fallback(upstream)).await;
        let dir = tempfile::tempdir().unwrap();
        let proxy = serve_common::proxy_to(&up, dir.path(), |_| {}).await;
        let client = reqwest::Client::new();
        run(&client, &up, streams, 2).await; // warm up
        run(&client, &proxy, streams, 2).await;
        let (mut direct, mut through) = (Vec::new(), Vec::new());
        for (step, start) in (0..rounds).step_by(BLOCK).enumerate() {
            let n = BLOCK.min(rounds - start);
            // Each side goes first in every other step.
            let (first, second) = if step % 2 == 0 {
                (&up, &proxy)
            } else {
                (&proxy, &up)
            };
            let a = run(&client, first, streams, n).await;
            let b = run(&client, second, streams, n).await;
            let (d, t) = if step % 2 == 0 { (a, b) } else { (b, a) };
            direct.extend(d);
            through.extend(t);
        }
        direct.sort();
        through.sort();
        println!("{streams} concurrent streams × {rounds} requests, time to last byte");
        for (name, v) in [("direct", &direct), ("through proxy", &through)] {
            println!(
                "  {name:<14} p50 {:>8.2?}  p99 {:>8.2?}",
                pct(v, 0.5),
                pct(v, 0.99)
            );
        }
        let added = |p| pct(&through, p).saturating_sub(pct(&direct, p));
        println!(
            "  added          p50 {:>8.2?}  p99 {:>8.2?}",
            added(0.5),
            added(0.99)
        );
    });
}
