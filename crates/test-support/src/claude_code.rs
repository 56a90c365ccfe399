//! Running Claude Code itself (`claude -p`) in a test: finding the binary,
//! running it with a time limit, and a scripted model upstream that needs
//! no async runtime (std threads, HTTP/1.1, one request per connection).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// `CLAUDE_CODE_BIN`, else `claude` on PATH; `None` after printing that
/// `test` is skipped.
pub fn claude_or_skip(test: &str) -> Option<PathBuf> {
    let found = std::env::var_os("CLAUDE_CODE_BIN")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::split_paths(&std::env::var_os("PATH")?)
                .map(|d| d.join("claude"))
                .find(|p| p.is_file())
        });
    if found.is_none() {
        eprintln!("skipped {test}: no claude binary (CLAUDE_CODE_BIN, or claude on PATH)");
    }
    found
}

/// `claude -p ARGS` in `work`, with its own HOME, against `base_url`.
pub fn claude_command(
    bin: &Path,
    home: &Path,
    work: &Path,
    base_url: &str,
    args: &[&str],
) -> Command {
    let mut cmd = Command::new(bin);
    cmd.arg("-p")
        .args(args)
        .current_dir(work)
        .env("HOME", home)
        .env("ANTHROPIC_BASE_URL", base_url)
        .env("ANTHROPIC_API_KEY", "sk-dummy")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_TELEMETRY", "1");
    cmd
}

/// Run `cmd` to its end, killed (and the test failed) past `limit`.
pub fn output_within(mut cmd: Command, limit: Duration) -> Output {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("{cmd:?} ran past {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// An Anthropic stream of one text answer.
pub fn text_events(id: &str, text: &str) -> String {
    stream(
        id,
        json!({"type": "text", "text": ""}),
        json!({"type": "text_delta", "text": text}),
        "end_turn",
    )
}

/// An Anthropic stream of one tool call (`call_id`, `name`, `input`).
pub fn tool_events(id: &str, call_id: &str, name: &str, input: &Value) -> String {
    stream(
        id,
        json!({"type": "tool_use", "id": call_id, "name": name, "input": {}}),
        json!({"type": "input_json_delta", "partial_json": input.to_string()}),
        "tool_use",
    )
}

fn stream(id: &str, block: Value, delta: Value, stop: &str) -> String {
    let events = [
        json!({"type": "message_start", "message": {"id": id, "type": "message", "role": "assistant", "content": [], "model": "claude", "stop_reason": null, "usage": {"input_tokens": 10, "output_tokens": 1}}}),
        json!({"type": "content_block_start", "index": 0, "content_block": block}),
        json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": 5}}),
        json!({"type": "message_stop"}),
    ];
    events
        .iter()
        .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
        .collect()
}

/// A model upstream on loopback: every `POST` body is kept, and answered
/// with the events `answer` gives for it; anything else gets an empty 200.
pub struct Upstream {
    pub url: String,
    pub bodies: Arc<Mutex<Vec<Value>>>,
}

impl Upstream {
    pub fn start(answer: impl Fn(&Value) -> String + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let (kept, answer) = (bodies.clone(), Arc::new(answer));
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (kept, answer) = (kept.clone(), answer.clone());
                std::thread::spawn(move || serve_one(stream, &kept, answer.as_ref()));
            }
        });
        Upstream { url, bodies }
    }

    pub fn bodies(&self) -> Vec<Value> {
        self.bodies.lock().unwrap().clone()
    }
}

fn serve_one(
    stream: TcpStream,
    kept: &Mutex<Vec<Value>>,
    answer: &(dyn Fn(&Value) -> String + Send + Sync),
) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    let mut stream = stream;
    if !request_line.starts_with("POST") {
        let _ =
            stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
        return;
    }
    let value: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let events = answer(&value);
    kept.lock().unwrap().push(value);
    let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(events.as_bytes());
}
