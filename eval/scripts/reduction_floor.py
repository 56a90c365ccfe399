#!/usr/bin/env python3
"""The reduction a verbatim compaction cannot beat on an exact-answer set.

A message is answer-bearing when it holds one of its session's expected
answers; so is every output of a tool whose output holds one, since a
hidden question may ask about any call of it. The floor keeps only the
literals (`key=value`, `a->b`, `key:value`) of those messages, with no
prose around them: a request of one user message holding them all. Both
requests are counted by `continuity compact` with the engine's tokenizer.
Nothing here keys on a benchmark's words, only on its answer key and the
shapes of literals. OpenAI Chat sessions (`messages`) only.

    python3 eval/scripts/reduction_floor.py SESSIONS_DIR QUESTIONS_DIR

Set CONTINUITY_BIN to the binary (default target/release/continuity).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

LITERAL = re.compile(r"[^\s;,]+(?:=|->|:)[^\s;,]+")
BIN = os.environ.get("CONTINUITY_BIN", "target/release/continuity")


def text_of(message: dict) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    return json.dumps(content, ensure_ascii=False) if content else ""


def tokens_before(request: dict, work: Path) -> int:
    """Tokens of `request` as `compact` counts them."""
    path, out = work / "request.json", work / "out"
    path.write_text(json.dumps(request))
    subprocess.run(
        [BIN, "compact", str(path), "--target-tokens", "1000000000", "--out", str(out), "-q"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    report = json.loads((out / "report.json").read_text())
    subprocess.run(["rm", "-rf", str(out)], check=True)
    return report["tokens"]["before"]


def literals(request: dict, expected: list[str]) -> str:
    tool_of = {
        c["id"]: c["function"]["name"]
        for m in request["messages"]
        for c in m.get("tool_calls") or []
    }
    bearing = [m for m in request["messages"] if any(e in text_of(m) for e in expected)]
    tools = {tool_of.get(m.get("tool_call_id", "")) for m in bearing if m["role"] == "tool"}
    kept = [
        m
        for m in request["messages"]
        if m in bearing or (m["role"] == "tool" and tool_of.get(m.get("tool_call_id", "")) in tools)
    ]
    return "; ".join(x for m in kept for x in LITERAL.findall(text_of(m)))


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sessions, questions = Path(sys.argv[1]), Path(sys.argv[2])
    print("| session | tokens before | tokens of the literals | floor reduction |")
    print("|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for s in sorted(sessions.glob("*.json")):
            q = questions / s.name
            if not q.exists():
                sys.exit(f"{q}: no questions file for {s}")
            request = json.loads(s.read_text())
            expected = [x["expected"] for x in json.loads(q.read_text())["questions"]]
            before = tokens_before(request, work)
            floor = tokens_before({"messages": [{"role": "user", "content": literals(request, expected)}]}, work)
            print(f"| {s.stem} | {before} | {floor} | {100 * (1 - floor / before):.1f}% |")


if __name__ == "__main__":
    main()
