#!/usr/bin/env python3
"""Compact each keyed point of the real transcripts and count the key's
facts present in the compacted request, beside the agent's own compaction.

For every key in eval/real-sessions/keys/ with facts:
  - `continuity compact SESSION --at POINT --out DIR` at the default target
    (no other flag), and the facts present in request.json;
  - where the point is an agent compaction: the facts present in the agent's
    own summary (the `isCompactSummary` line after the boundary), and ours
    again at a target equal to the agent's compacted context in our
    tokenizer (`tokens_agent` of side_by_side.json); a refusal (exit 5)
    counts as nothing present.

Presence is literal: the expected string as written, or as it reads inside a
JSON string. Prints a Markdown table; --json writes the rows.

    python3 eval/scripts/real_sessions.py --bin target/release/continuity
"""

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def present(text: str, expected: str) -> bool:
    """The expected string as written, or as it reads inside a JSON string
    (escaped, with non-ASCII characters as they are or as \\u escapes)."""
    return any(
        form in text
        for form in (
            expected,
            json.dumps(expected)[1:-1],
            json.dumps(expected, ensure_ascii=False)[1:-1],
        )
    )


def agent_summary(transcript: Path, k: int) -> str | None:
    """The text of the K-th `isCompactSummary` line of a Claude Code log."""
    seen = 0
    for line in transcript.read_text(encoding="utf-8").splitlines():
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            continue
        if not obj.get("isCompactSummary"):
            continue
        seen += 1
        if seen == k:
            content = obj.get("message", {}).get("content")
            if isinstance(content, str):
                return content
            return "\n".join(
                b.get("text", "") for b in content or [] if isinstance(b, dict)
            )
    return None


def compact(binary, session, at, out, extra):
    started = time.monotonic()
    cmd = [binary, "compact", str(session), "--at", at, "--out", str(out), "-q"]
    proc = subprocess.run(cmd + extra, capture_output=True, text=True)
    wall = time.monotonic() - started
    if proc.returncode == 5:
        return None, wall
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd + extra)} exited {proc.returncode}:\n{proc.stderr}")
    return out, wall


def tally(facts, text):
    by = collections.Counter()
    hit = collections.Counter()
    for f in facts:
        by[f["category"]] += 1
        if text is not None and present(text, f["expected"]):
            hit[f["category"]] += 1
    return hit, by


def run_key(binary, key_path, archives, work, extra):
    key = json.loads(key_path.read_text(encoding="utf-8"))
    facts = key["facts"]
    if not facts:
        return None
    session = archives / key["session"]
    at = key["at"]
    out, wall = compact(binary, session, at, work / f"{key_path.stem}-default", extra)
    row = {"key": key_path.stem, "facts": len(facts), "wall_s": round(wall, 2)}
    if out is None:
        row.update(ours=tally(facts, None), ours_tokens="refused", summary_words=0)
        return row
    request = (out / "request.json").read_text(encoding="utf-8")
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    row.update(
        ours=tally(facts, request),
        ours_tokens=report["tokens"]["after"],
        tokenizer=report.get("tokenizer", "?"),
        summary_words=report["summarizer"]["words"],
    )
    side = out / "side_by_side.json"
    if at.startswith("compaction:") and side.exists():
        tokens_agent = json.loads(side.read_text(encoding="utf-8"))["tokens_agent"]
        summary = agent_summary(session, int(at.split(":")[1]))
        row["agent"] = tally(facts, summary)
        row["agent_tokens"] = tokens_agent
        small, _ = compact(
            binary,
            session,
            at,
            work / f"{key_path.stem}-agent-size",
            extra + ["--target-tokens", str(tokens_agent)],
        )
        small_text = None if small is None else (small / "request.json").read_text(encoding="utf-8")
        row["ours_at_agent_size"] = tally(facts, small_text)
        row["refused_at_agent_size"] = small is None
    return row


def total(counter_pair):
    hit, by = counter_pair
    return sum(hit.values()), sum(by.values())


def cell(pair):
    h, n = total(pair)
    return f"{h}/{n}"


def parser(doc: str) -> argparse.ArgumentParser:
    """The flags every real-session script takes: the binary, the keys,
    the transcripts and where the rows go."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--bin", default=str(REPO / "target/release/continuity"))
    ap.add_argument("--keys", default=str(REPO / "eval/real-sessions/keys"))
    ap.add_argument(
        "--archives",
        default=os.environ.get("REAL_ARCHIVES", str(REPO.parent / "shared/external/real-archives")),
    )
    ap.add_argument("--json", help="write the rows here")
    return ap


def archives_or_skip(args) -> Path | None:
    """The transcripts' folder, or None after saying it is skipped."""
    archives = Path(args.archives)
    if not archives.is_dir():
        print(f"skipped: {archives} not found")
        return None
    return archives


def main():
    ap = parser(__doc__)
    ap.add_argument("extra", nargs="*", help="more flags for compact, after --")
    args = ap.parse_args()
    archives = archives_or_skip(args)
    if archives is None:
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for key_path in sorted(Path(args.keys).glob("*.json")):
            row = run_key(args.bin, key_path, archives, Path(tmp), args.extra)
            if row:
                rows.append(row)
    print("| point | facts | ours (default) | tokens | summary words | agent's own | agent tokens | ours at agent size |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        agent = cell(r["agent"]) if "agent" in r else "–"
        small = "–"
        if "ours_at_agent_size" in r:
            small = "refused" if r["refused_at_agent_size"] else cell(r["ours_at_agent_size"])
        print(
            f"| {r['key']} | {r['facts']} | {cell(r['ours'])} | {r['ours_tokens']} | "
            f"{r['summary_words']} | {agent} | {r.get('agent_tokens', '–')} | {small} |"
        )
    cats = collections.Counter()
    hits = collections.Counter()
    for r in rows:
        hit, by = r["ours"]
        cats.update(by)
        hits.update(hit)
    h, n = sum(hits.values()), sum(cats.values())
    print(f"\nours at the default target: {h}/{n} ({100 * h / max(n, 1):.1f}%)")
    print("by category: " + ", ".join(f"{c} {hits[c]}/{cats[c]}" for c in sorted(cats)))
    with_agent = [r for r in rows if "agent" in r]
    if with_agent:
        a = sum(total(r["agent"])[0] for r in with_agent)
        o = sum(total(r["ours"])[0] for r in with_agent)
        s = sum(total(r["ours_at_agent_size"])[0] for r in with_agent)
        n = sum(r["facts"] for r in with_agent)
        print(
            f"at the agent compactions ({n} facts): agent {a}, ours default {o}, "
            f"ours at the agent's size {s}; refused {sum(r['refused_at_agent_size'] for r in with_agent)}"
        )
    units = sorted({r.get("tokenizer", "?") for r in rows})
    print(f"tokens: each session's own unit ({', '.join(units)}); wall: seconds per compaction, release build")
    if args.json:
        serial = [
            {k: (dict(v[0]) if isinstance(v, tuple) else v) for k, v in r.items()} for r in rows
        ]
        Path(args.json).write_text(json.dumps(serial, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
