//! What the proxy benches share: their numeric arguments, a server on a
//! free loopback port, and the proxy in front of a mock upstream.

use std::path::Path;

/// The bench's numeric arguments, in order (cargo's own flags skipped).
pub fn numeric_args() -> Vec<usize> {
    std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect()
}

/// A free loopback port.
async fn free_port() -> (tokio::net::TcpListener, String) {
    let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = l.local_addr().unwrap();
    (l, format!("http://{addr}"))
}

/// Serve `router` (a mock upstream) on a free loopback port, each event
/// sent as it is written, as a provider's API sends it; its base URL.
pub async fn listen(router: axum::Router) -> String {
    use axum::serve::ListenerExt;
    let (l, url) = free_port().await;
    let l = l.tap_io(|tcp| tcp.set_nodelay(true).unwrap());
    tokio::spawn(async move { axum::serve(l, router).await.unwrap() });
    url
}

/// The proxy, writing under `dir`, with both providers at `upstream` and
/// `configure` applied, served as `continuity serve` serves it; its base
/// URL.
pub async fn proxy_to(
    upstream: &str,
    dir: &Path,
    configure: impl FnOnce(&mut continuity_serve::Config),
) -> String {
    let mut cfg = continuity_serve::Config::new(dir.to_path_buf()).unwrap();
    cfg.anthropic_upstream = upstream.to_string();
    cfg.openai_upstream = upstream.to_string();
    configure(&mut cfg);
    let app = continuity_serve::App::new(cfg).unwrap();
    let (l, url) = free_port().await;
    tokio::spawn(continuity_serve::serve(app, l, std::future::pending()));
    url
}
