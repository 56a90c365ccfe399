#!/usr/bin/env python3
"""Compact each generated unseen session with no kernel and no policy and
look for every planted personal value (names, emails, phones) in every file
written. Exit 1 when any survives.

Usage: python3 eval/scripts/check_unseen_personal.py [--bin target/release/continuity]
       [--dir eval/unseen] [-- extra compact flags, e.g. --target-tokens 20000]
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(REPO / "target/release/continuity"))
    ap.add_argument("--dir", default=str(REPO / "eval/unseen"))
    ap.add_argument("extra", nargs="*")
    args = ap.parse_args()
    root = Path(args.dir)
    planted = json.loads((root / "planted_personal.json").read_text())
    leaks = 0
    for domain, values in sorted(planted.items()):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            cmd = [args.bin, "compact", str(root / "sessions" / f"{domain}.json"), "-q", "--out", str(out), *args.extra]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"{domain}: compact failed ({r.returncode}): {r.stderr.strip()}")
                leaks += 1
                continue
            found = []
            for f in sorted(out.iterdir()):
                text = f.read_text(errors="replace")
                found += [(f.name, v) for v in values if v in text]
            print(f"{domain}: {len(values)} planted values, {len(found)} found in the outputs")
            for name, v in found:
                print(f"  {name}: {v}")
            leaks += len(found)
    return 1 if leaks else 0


if __name__ == "__main__":
    sys.exit(main())
