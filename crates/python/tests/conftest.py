"""Shared fixtures: the repository's files, the `continuity` binary, the
reference runs (skipped with one line when absent), and the bundled
session replayed as scripted agent turns."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import pytest

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = REPO / "examples" / "billing-dispute"
REFERENCE = Path(os.environ.get("CONTINUITY_REFERENCE", REPO.parent / "shared" / "reference" / "mission-continuity"))

#: Keys whose values hold the clock (crates/cli/tests/it/golden.rs).
CLOCK_KEYS = ('"latency_ms":', '"policy_freshness_s":', '"policy_loaded_at":', '"pinned_at":', '"seal":')


def mask_clock(text: str) -> str:
    """The text with each clock-dependent value replaced, as the golden
    tests mask it."""
    out = []
    for line in text.splitlines(keepends=True):
        trimmed = line.lstrip()
        key = next((k for k in CLOCK_KEYS if trimmed.startswith(k)), None)
        if key is None:
            out.append(line)
            continue
        indent = line[: len(line) - len(trimmed)]
        comma = "," if line.rstrip().endswith(",") else ""
        out.append(f'{indent}{key} "<masked>"{comma}\n')
    return "".join(out)


def masked_files(files: dict[str, bytes]) -> dict[str, str]:
    return {name: mask_clock(data.decode("utf-8")) for name, data in files.items()}


def read_outputs(folder: Path) -> dict[str, bytes]:
    import continuity

    return {name: (folder / name).read_bytes() for name in continuity.OUTPUT_FILES}


def continuity_bin() -> Path:
    """The CLI: $CONTINUITY_BIN, else the newest cargo build of it."""
    if "CONTINUITY_BIN" in os.environ:
        return Path(os.environ["CONTINUITY_BIN"])
    candidates = [REPO / "target" / p / "continuity" for p in ("release", "debug")]
    found = [c for c in candidates if c.is_file()]
    if not found:
        pytest.fail("no continuity binary: run `cargo build -p continuity` or set CONTINUITY_BIN")
    return max(found, key=lambda c: c.stat().st_mtime)


def cli_compact(
    archive: Path, kernel: Path, policy: Path, out: Path, strategy: str = "governed", summarizer: str = "extractive"
) -> dict[str, bytes]:
    """`continuity compact` into `out`; its five files."""
    cmd = [
        str(continuity_bin()),
        "compact",
        str(archive),
        "--kernel",
        str(kernel),
        "--policy",
        str(policy),
        "--strategy",
        strategy,
        "--summarizer",
        summarizer,
        "-q",
        "--out",
        str(out),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return read_outputs(out)


def reference_archives() -> list[Path]:
    return sorted(REFERENCE.glob("replays/*/run/archive/*.json"))


@pytest.fixture
def reference() -> Path:
    if not (REFERENCE / "replays").is_dir():
        pytest.skip(f"reference runs not found ({REFERENCE}); set CONTINUITY_REFERENCE")
    return REFERENCE


def planted_pii() -> list[str]:
    return [line for line in (EXAMPLE / "planted-pii.txt").read_text().splitlines() if line.strip()]


@dataclass
class Turn:
    """One recorded assistant turn: its text and tool calls."""

    text: str
    calls: list[dict[str, Any]]


@dataclass
class Session:
    """The bundled session as an agent would live it: the task, the
    assistant's turns, and each call's recorded result."""

    system: str
    task: str
    tools: list[dict[str, Any]]
    turns: list[Turn]
    results: dict[str, str]

    def result(self, call_id: str) -> str:
        return self.results[call_id]


def bundled_session() -> Session:
    s = json.loads((EXAMPLE / "session.json").read_text())
    msgs = s["messages"]
    task = "\n".join(b["text"] for b in msgs[0]["content"] if b["type"] == "text")
    turns, results = [], {}
    for m in msgs[1:]:
        blocks = m["content"] if isinstance(m["content"], list) else [{"type": "text", "text": m["content"]}]
        if m["role"] == "assistant":
            text = "\n".join(b["text"] for b in blocks if b["type"] == "text")
            calls = [{"id": b["id"], "name": b["name"], "input": b["input"]} for b in blocks if b["type"] == "tool_use"]
            turns.append(Turn(text, calls))
        else:
            for b in blocks:
                if b["type"] == "tool_result":
                    content = b["content"]
                    if isinstance(content, list):
                        content = "\n".join(x.get("text", "") for x in content)
                    results[b["tool_use_id"]] = content
    return Session(system=s["system"], task=task, tools=s["tools"], turns=turns, results=results)


def tight_policy(trigger_tokens: int) -> dict[str, Any]:
    """The example's policy with another trigger, as a dict, compacting down
    to the trigger itself (no headroom: these tests are about the hooks, and
    a tight trigger leaves no room below it)."""
    import tomllib

    policy = tomllib.loads((EXAMPLE / "policy.toml").read_text())
    policy["compaction"]["trigger_tokens"] = trigger_tokens
    policy["compaction"]["target_tokens"] = trigger_tokens
    return policy


def first(items: list[Any], pred: Any) -> Optional[int]:
    return next((i for i, x in enumerate(items) if pred(x)), None)


def strings(value: Any) -> list[str]:
    """Every string inside a JSON-like value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def assert_pinned_evidence_seen(compaction: Any, seen: str) -> None:
    """The compaction's pinned evidence, verbatim, in `seen` (JSON text of
    what the model was sent): every line of its facts block, and every
    pinned tool result and field, either as its call in the kept tail or
    under its tool's group in the facts block (with its record id)."""
    facts = [s[s.index("FACTS RETURNED BY TOOLS") :] for s in strings(compaction.request) if "FACTS RETURNED BY TOOLS" in s]
    assert facts, "no facts block in the compacted request"
    for block in facts:
        for line in block.splitlines():
            assert json.dumps(line, ensure_ascii=False)[1:-1] in seen, line
    pinned = [r for r in compaction.audit if r["decision"] == "pinned" and r["kind"] in ("tool_result", "pinned_field")]
    assert pinned, "nothing pinned"
    text = "\n".join(facts)
    for r in pinned:
        if r.get("call_id") and r["call_id"] in seen:
            continue
        assert f"\n{r['tool']}" in text, r
        if r.get("record_id"):
            assert r["record_id"] in text, r
