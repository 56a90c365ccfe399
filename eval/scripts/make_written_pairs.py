#!/usr/bin/env python3
"""Turn the hand-written sentence pools in eval/xenc/written/*.json into
cross-encoder training pairs (eval/xenc/written_pairs.jsonl).

Each pool file: {"domain", "facts": [{"id", "statement", "supported": [...],
"contradicted": [...], "omitted": [...]}]}. Pairs, premise = the statement:
  supported     -> entails
  contradicted  -> contradicts
  omitted       -> neutral  (topic-only mentions)
  other facts   -> neutral  (two supported sentences of each other fact of
                             the same domain, chosen by position)

Deterministic, stdlib only. `--check` exits 1 when the file is stale.
    python3 eval/scripts/make_written_pairs.py
    python3 eval/scripts/make_written_pairs.py --check
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
POOLS = REPO / "eval" / "xenc" / "written"
OUT = REPO / "eval" / "xenc" / "written_pairs.jsonl"
LABELS = {"supported": "entails", "contradicted": "contradicts", "omitted": "neutral"}


def pairs_of(pool: dict, path: Path) -> list[dict]:
    domain = pool.get("domain")
    facts = pool.get("facts")
    if not isinstance(domain, str) or not isinstance(facts, list) or not facts:
        sys.exit(f"{path}: needs a string 'domain' and a non-empty 'facts' list")
    source = f"written:{domain}"
    out = []
    for i, fact in enumerate(facts):
        statement = fact.get("statement")
        if not isinstance(statement, str) or not statement.strip():
            sys.exit(f"{path}: fact {i + 1} has no statement")
        for field, label in LABELS.items():
            sentences = fact.get(field)
            if not isinstance(sentences, list) or not all(isinstance(s, str) for s in sentences):
                sys.exit(f"{path}: fact {fact.get('id', i + 1)}: '{field}' must be a list of strings")
            for s in sentences:
                out.append({"premise": statement, "hypothesis": s, "label": label,
                            "kind": f"written-{field}", "source": source})
        for j, other in enumerate(facts):
            if j == i:
                continue
            supported = other.get("supported") or []
            for k in range(min(2, len(supported))):
                s = supported[(i + k) % len(supported)]
                out.append({"premise": statement, "hypothesis": s, "label": "neutral",
                            "kind": "written-other-fact", "source": source})
    return out


def render() -> str:
    lines = []
    for path in sorted(POOLS.glob("*.json")):
        try:
            pool = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as e:
            sys.exit(f"{path}: line {e.lineno}: {e.msg}")
        for p in pairs_of(pool, path):
            lines.append(json.dumps(p, ensure_ascii=False, separators=(",", ":")))
    return "".join(line + "\n" for line in lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the file differs")
    args = ap.parse_args()
    text = render()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT} is stale: run python3 eval/scripts/make_written_pairs.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    counts: dict[str, int] = {}
    for line in text.splitlines():
        label = json.loads(line)["label"]
        counts[label] = counts.get(label, 0) + 1
    print(f"wrote {sum(counts.values())} pairs to {OUT.relative_to(REPO)}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
