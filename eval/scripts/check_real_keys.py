#!/usr/bin/env python3
"""Re-verify the real-session answer keys in eval/real-sessions/keys/*.json.

For every fact: `expected` must occur verbatim (case-sensitive) in the decoded
text of line `before_line`, which must lie in the window before the point, and
in line `after_line`, which must lie in the window after the point.

Usage: python3 eval/scripts/check_real_keys.py [--summary]

Transcripts are read from ../shared/external/real-archives (relative to the
repository root) or from $REAL_ARCHIVES. Exit 1 and list violations on failure;
print one `skipped:` line and exit 0 when the transcripts are absent.

Decoded text of a line = what the model sees of it, after JSON decoding:
  Claude Code: `user`/`assistant` lines that are not isSidechain: plain text,
    text blocks, tool_use name + every string in its input, tool_result content.
    Thinking blocks, toolUseResult, progress/system/snapshot lines are skipped.
  Codex: response_item message (user/assistant), function_call name + arguments
    (decoded when JSON), function_call_output, custom_tool_call(_output),
    web_search_call action; event_msg user_message / agent_message.
    Reasoning, developer messages, token counts, turn_context are skipped.

Windows:
  at = "compaction:K" (Claude Code): before = from the previous compaction's
    isCompactSummary line (or line 1) up to the K-th system/compact_boundary,
    exclusive; after = after the isCompactSummary line that follows it, up to
    the next compact_boundary or the end of the file.
  at = "N" (a line number): before = lines 1..N, after = lines N+1..end.
"""
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEYS = ROOT / "eval" / "real-sessions" / "keys"
CATEGORIES = {"path", "command", "error", "identifier", "number", "instruction", "decision"}


def archives_dir():
    env = os.environ.get("REAL_ARCHIVES")
    if env:
        return Path(env)
    for cand in (ROOT.parent / "shared" / "external" / "real-archives",
                 ROOT / "shared" / "external" / "real-archives"):
        if cand.is_dir():
            return cand
    return ROOT.parent / "shared" / "external" / "real-archives"


def _strings(v, out):
    if isinstance(v, str):
        out.append(v)
    elif isinstance(v, list):
        for x in v:
            _strings(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _strings(x, out)


def _maybe_json_strings(s, out):
    t = s.strip()
    if t[:1] in "{[":
        try:
            _strings(json.loads(t), out)
            return
        except ValueError:
            pass
    out.append(s)


def _claude_text(d):
    if d.get("type") not in ("user", "assistant") or d.get("isSidechain"):
        return ""
    content = (d.get("message") or {}).get("content")
    out = []
    if isinstance(content, str):
        out.append(content)
    elif isinstance(content, list):
        for b in content:
            if not isinstance(b, dict):
                continue
            t = b.get("type")
            if t == "text":
                out.append(b.get("text", ""))
            elif t == "tool_use":
                out.append(b.get("name", ""))
                _strings(b.get("input"), out)
            elif t == "tool_result":
                c = b.get("content")
                if isinstance(c, str):
                    out.append(c)
                elif isinstance(c, list):
                    for x in c:
                        if isinstance(x, dict) and x.get("type") == "text":
                            out.append(x.get("text", ""))
    return "\n".join(out)


def _codex_text(d):
    p = d.get("payload") or {}
    t, pt = d.get("type"), p.get("type")
    out = []
    if t == "response_item":
        if pt == "message" and p.get("role") in ("user", "assistant"):
            for c in p.get("content") or []:
                if isinstance(c, dict) and isinstance(c.get("text"), str):
                    out.append(c["text"])
        elif pt == "function_call":
            out.append(p.get("name", ""))
            _maybe_json_strings(p.get("arguments", ""), out)
        elif pt in ("function_call_output", "custom_tool_call_output"):
            o = p.get("output")
            if isinstance(o, str):
                t2 = o.strip()
                if t2.startswith("{"):
                    try:
                        j = json.loads(t2)
                        if isinstance(j, dict) and isinstance(j.get("output"), str):
                            out.append(j["output"])
                            o = None
                    except ValueError:
                        pass
                if o is not None:
                    out.append(o)
            else:
                _strings(o, out)
        elif pt == "custom_tool_call":
            out.append(p.get("name", ""))
            out.append(p.get("input", ""))
        elif pt == "web_search_call":
            _strings(p.get("action"), out)
    elif t == "event_msg" and pt in ("user_message", "agent_message"):
        out.append(p.get("message") or "")
    return "\n".join(out)


def load(path):
    """Return (records, texts): parsed JSON per line and decoded text per line (0-based lists)."""
    raw = Path(path).read_text(encoding="utf-8").split("\n")
    if raw and raw[-1] == "":
        raw.pop()
    recs = [json.loads(l) for l in raw]
    texts = []
    for d in recs:
        if "payload" in d and "message" not in d:
            texts.append(_codex_text(d))
        else:
            texts.append(_claude_text(d))
    return recs, texts


def windows(recs, at):
    """Return ((b0, b1), (a0, a1)): inclusive 1-based line ranges before/after the point."""
    n = len(recs)
    if at.startswith("compaction:"):
        k = int(at.split(":", 1)[1])
        bounds = [i + 1 for i, d in enumerate(recs)
                  if d.get("type") == "system" and d.get("subtype") == "compact_boundary"]
        summaries = [i + 1 for i, d in enumerate(recs) if d.get("isCompactSummary")]

        def summary_after(b):
            return next(s for s in summaries if s > b)

        b = bounds[k - 1]
        start = summary_after(bounds[k - 2]) if k >= 2 else 1
        s = summary_after(b)
        end = bounds[k] - 1 if k < len(bounds) else n
        return (start, b - 1), (s + 1, end)
    p = int(at)
    return (1, p), (p + 1, n)


def main():
    summary = "--summary" in sys.argv[1:]
    arch = archives_dir()
    if not arch.is_dir():
        print(f"skipped: transcripts not found at {arch} (set REAL_ARCHIVES)")
        return 0
    errors = []
    total = 0
    cache = {}
    counts = {}
    files = sorted(KEYS.glob("*.json"))
    if not files:
        errors.append(f"no key files in {KEYS}")
    for kf in files:
        key = json.loads(kf.read_text(encoding="utf-8"))
        sess = key["session"]
        if sess not in cache:
            cache[sess] = load(arch / sess)
        recs, texts = cache[sess]
        try:
            (b0, b1), (a0, a1) = windows(recs, key["at"])
        except (StopIteration, IndexError, ValueError) as e:
            errors.append(f"{kf.name}: bad point {key['at']!r}: {e}")
            continue
        if not key["facts"] and not key.get("note"):
            errors.append(f"{kf.name}: no facts and no note saying why")
        counts[kf.name] = {}
        for f in key["facts"]:
            counts[kf.name][f.get("category")] = counts[kf.name].get(f.get("category"), 0) + 1
        ids = set()
        for f in key["facts"]:
            missing = {"id", "category", "expected", "before_line", "after_line", "why"} - set(f)
            if missing:
                errors.append(f"{kf.name}:{f.get('id')}: missing {sorted(missing)}")
                continue
            total += 1
            tag = f"{kf.name}:{f.get('id')}"
            if f["id"] in ids:
                errors.append(f"{tag}: duplicate id")
            ids.add(f["id"])
            if f["category"] not in CATEGORIES:
                errors.append(f"{tag}: unknown category {f['category']!r}")
            e = f["expected"]
            if not (4 <= len(e) <= 80):
                errors.append(f"{tag}: expected has {len(e)} chars (want 4..80)")
            bl, al = f["before_line"], f["after_line"]
            if not (b0 <= bl <= b1):
                errors.append(f"{tag}: before_line {bl} outside {b0}..{b1}")
            elif e not in texts[bl - 1]:
                errors.append(f"{tag}: {e!r} not in line {bl}")
            if not (a0 <= al <= a1):
                errors.append(f"{tag}: after_line {al} outside {a0}..{a1}")
            elif e not in texts[al - 1]:
                errors.append(f"{tag}: {e!r} not in line {al}")
    if summary:
        by_cat = {}
        for name, c in counts.items():
            print(f"{name}: {sum(c.values())} {c}")
            for k, v in c.items():
                by_cat[k] = by_cat.get(k, 0) + v
        print(f"all: {by_cat}")
    for e in errors:
        print(e)
    print(f"{len(files)} key files, {total} facts, {len(errors)} violations")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
