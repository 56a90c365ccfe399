"""The official Python SDKs through `continuity serve`, against a mock
upstream on loopback; streaming and not.

Run (after `cargo build -p continuity`):
    python3 -m venv target/sdk-venv
    target/sdk-venv/bin/pip install anthropic openai pytest
    target/sdk-venv/bin/pytest crates/serve/tests/sdk -q
"""

import json
import os
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import anthropic
import openai
import pytest

REPO = Path(__file__).resolve().parents[4]
BIN = Path(os.environ.get("CONTINUITY_BIN", REPO / "target/debug/continuity"))

RECEIVED = []


def sse(events):
    return "".join(
        (f"event: {name}\n" if name else "") + f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n"
        for name, data in events
    ).encode()


def anthropic_reply(body):
    usage = {"input_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 5, "output_tokens": 3}
    msg = {"id": "msg_1", "type": "message", "role": "assistant", "model": body["model"],
           "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage}
    if not body.get("stream"):
        return "application/json", json.dumps({**msg, "content": [{"type": "text", "text": "hello from mock"}],
                                               "stop_reason": "end_turn"}).encode()
    return "text/event-stream", sse([
        ("message_start", {"type": "message_start", "message": msg}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hello "}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "streamed"}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": 2}}),
        ("message_stop", {"type": "message_stop"}),
    ])


def chat_reply(body):
    base = {"id": "chatcmpl-1", "created": 1, "model": body["model"]}
    usage = {"prompt_tokens": 9, "completion_tokens": 2, "total_tokens": 11}
    if not body.get("stream"):
        return "application/json", json.dumps({**base, "object": "chat.completion", "usage": usage, "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "hello from mock"}, "finish_reason": "stop"}]}).encode()
    chunk = lambda delta, fin=None: {**base, "object": "chat.completion.chunk", "choices": [
        {"index": 0, "delta": delta, "finish_reason": fin}]}
    return "text/event-stream", sse([
        (None, chunk({"role": "assistant", "content": "hello "})),
        (None, chunk({"content": "streamed"})),
        (None, chunk({}, "stop")),
        (None, "[DONE]"),
    ])


def responses_reply(body):
    item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": "hello from mock", "annotations": []}]}
    resp = {"id": "resp_1", "object": "response", "created_at": 1, "model": body["model"], "status": "completed",
            "output": [item], "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
            "usage": {"input_tokens": 8, "output_tokens": 3, "total_tokens": 11,
                      "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}}}
    if not body.get("stream"):
        return "application/json", json.dumps(resp).encode()
    return "text/event-stream", sse([
        ("response.created", {"type": "response.created", "sequence_number": 0, "response": {**resp, "status": "in_progress", "output": []}}),
        ("response.output_text.delta", {"type": "response.output_text.delta", "sequence_number": 1, "item_id": "msg_1",
                                        "output_index": 0, "content_index": 0, "delta": "hello from mock", "logprobs": []}),
        ("response.completed", {"type": "response.completed", "sequence_number": 2, "response": resp}),
    ])


class Upstream(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("content-length", 0)))
        RECEIVED.append((self.path, dict(self.headers), raw))
        body = json.loads(raw)
        reply = {"/v1/messages": anthropic_reply, "/v1/chat/completions": chat_reply,
                 "/v1/responses": responses_reply}[self.path.split("?")[0]]
        ctype, out = reply(body)
        self.send_response(200)
        self.send_header("content-type", ctype)
        self.send_header("content-length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def proxy(tmp_path_factory):
    if not BIN.exists():
        pytest.skip(f"{BIN} not built: cargo build -p continuity")
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    up = f"http://127.0.0.1:{upstream.server_address[1]}"
    port = free_port()
    data = tmp_path_factory.mktemp("serve")
    proc = subprocess.Popen([str(BIN), "serve", "--listen", f"127.0.0.1:{port}", "--anthropic-upstream", up,
                             "--openai-upstream", up, "--data-dir", str(data)],
                            stderr=subprocess.PIPE)
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", data
    proc.terminate()
    proc.wait(timeout=10)
    upstream.shutdown()


def last():
    path, headers, raw = RECEIVED[-1]
    return path, {k.lower(): v for k, v in headers.items()}, json.loads(raw)


def test_anthropic_sdk(proxy):
    url, _ = proxy
    client = anthropic.Anthropic(api_key="sk-ant-test", base_url=url, max_retries=0)
    messages = [{"role": "user", "content": "hi"}]
    msg = client.messages.create(model="claude-sonnet-4-5", max_tokens=32, messages=messages)
    assert msg.content[0].text == "hello from mock"
    path, headers, body = last()
    assert path == "/v1/messages"
    assert "sk-ant-test" in (headers.get("x-api-key", "") + headers.get("authorization", "")), headers
    assert body["messages"] == messages
    with client.messages.stream(model="claude-sonnet-4-5", max_tokens=32, messages=messages) as s:
        text = "".join(s.text_stream)
    assert text == "hello streamed"
    assert last()[2]["stream"] is True


def test_openai_sdk_chat_and_responses(proxy):
    url, data = proxy
    client = openai.OpenAI(api_key="sk-oa-test", base_url=f"{url}/v1", max_retries=0)
    messages = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]
    r = client.chat.completions.create(model="gpt-4o", messages=messages)
    assert r.choices[0].message.content == "hello from mock"
    path, headers, body = last()
    assert path == "/v1/chat/completions" and headers["authorization"] == "Bearer sk-oa-test"
    chunks = client.chat.completions.create(model="gpt-4o", messages=messages, stream=True)
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == "hello streamed"
    r = client.responses.create(model="gpt-4o", input="hi")
    assert r.output_text == "hello from mock"
    events = [e.type for e in client.responses.create(model="gpt-4o", input="hi", stream=True)]
    assert events[-1] == "response.completed"
    # Every request passed through, and the log has the provider's figures.
    time.sleep(0.2)
    log = [json.loads(l) for l in (data / "log.jsonl").read_text().splitlines()]
    assert {l["action"] for l in log} == {"passthrough"}
    assert any(l.get("provider", {}).get("input_total") == 8 for l in log)
