#!/usr/bin/env python3
"""Governed and summary-only reduction on every reference archive, beside the
reductions the reference recorded in its compactions.jsonl.

Usage: python3 eval/scripts/reduction_table.py [--bin target/release/continuity]
Reads ../shared/reference/mission-continuity (or $CONTINUITY_REFERENCE).
Prints a Markdown table. Our figures count the archived request (instructions
and messages; the archives carry no tool schemas) with the bundled tokenizer;
the reference counted the live request, tool schemas included, with
Anthropic's token-counting endpoint.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(REPO / "target/release/continuity"))
    ap.add_argument("--summarizer", default="extractive")
    args = ap.parse_args()
    ref = Path(os.environ.get("CONTINUITY_REFERENCE", REPO / "../shared/reference/mission-continuity"))
    if not (ref / "replays").is_dir():
        print(f"reference not found at {ref}", file=sys.stderr)
        return 2
    kernel = REPO / "eval/billing-dispute/kernel.toml"
    policy = REPO / "eval/billing-dispute/policy.toml"
    rows = []
    for run in sorted((ref / "replays").iterdir()):
        recorded = {}
        cfile = run / "run/compactions.jsonl"
        if cfile.exists():
            for line in cfile.read_text().splitlines():
                rec = json.loads(line)
                recorded[rec["compaction_id"]] = rec
        for archive in sorted((run / "run/archive").glob("cmp-*.json")):
            cid = archive.stem
            ours = {}
            for strategy in ("summary-only", "governed"):
                with tempfile.TemporaryDirectory() as tmp:
                    out = Path(tmp) / "out"
                    subprocess.run(
                        [args.bin, "compact", str(archive), "--kernel", str(kernel), "--policy", str(policy),
                         "--strategy", strategy, "--summarizer", args.summarizer, "--out", str(out), "-q"],
                        check=True,
                    )
                    ours[strategy] = json.loads((out / "report.json").read_text())
            rec = recorded.get(cid, {})
            counted = rec.get("counted", {})
            rows.append((run.name, cid, rec.get("mode", "?"), counted.get("reduction_pct"),
                         ours["summary-only"], ours["governed"]))
    print(f"| run | compaction | reference arm | reference reduction % | ours: tokens before | ours: summary-only % | ours: governed % | governed pins | governed floor met |")
    print("|---|---|---|---:|---:|---:|---:|---:|---|")
    for run, cid, mode, ref_pct, so, gov in rows:
        print(f"| {run} | {cid} | {mode} | {ref_pct if ref_pct is not None else '-'} | {gov['tokens']['before']} | "
              f"{so['reduction_pct']} | {gov['reduction_pct']} | {gov['counts']['pins']} | {'yes' if gov['floor']['met'] else 'no'} |")
    g = [r[5]["reduction_pct"] for r in rows]
    s = [r[4]["reduction_pct"] for r in rows]
    print(f"\nGoverned: {min(g)}–{max(g)}% (mean {sum(g)/len(g):.1f}); summary-only: {min(s)}–{max(s)}% "
          f"(mean {sum(s)/len(s):.1f}); summarizer `{args.summarizer}`, tokenizer: bundled default.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
