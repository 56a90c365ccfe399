#!/usr/bin/env python3
"""Folder throughput of `continuity compact DIR --out OUT` on 1 thread
against 2, in one run (the ratio is the result; absolute times depend on
the machine).

    cargo build --release -p continuity
    python3 benches/folder_throughput.py --binary target/release/continuity --copies 4 --repeats 3

The folder is every real transcript and request in tests/fixtures
(claude-code, codex-rollout, responses bodies split one per file), copied
COPIES times. Each run compacts it into a fresh OUT (no resume), the two
thread counts alternating; reported: median wall seconds per thread count,
sessions per second, and the speedup (1-thread time / 2-thread time).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build_folder(dest, copies):
    n = 0
    for c in range(copies):
        for kind in ("claude-code", "codex-rollout"):
            src = os.path.join(ROOT, "tests/fixtures", kind)
            for f in sorted(os.listdir(src)):
                if f.endswith(".jsonl"):
                    d = os.path.join(dest, f"copy{c}", kind)
                    os.makedirs(d, exist_ok=True)
                    shutil.copy(os.path.join(src, f), d)
                    n += 1
        src = os.path.join(ROOT, "tests/fixtures/responses")
        for f in sorted(os.listdir(src)):
            if f.endswith(".json"):
                for i, call in enumerate(json.load(open(os.path.join(src, f)))):
                    d = os.path.join(dest, f"copy{c}", "responses")
                    os.makedirs(d, exist_ok=True)
                    with open(os.path.join(d, f"{f[:-5]}.{i}.json"), "w") as out:
                        json.dump(call["body"], out)
                    n += 1
    return n


def run(binary, folder, out, jobs):
    cmd = [binary, "compact", folder, "--kernel",
           os.path.join(ROOT, "examples/billing-dispute/kernel.toml"),
           "--summarizer", "extractive", "--jobs", str(jobs), "-q", "--out", out]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, "target/release/continuity"))
    ap.add_argument("--copies", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = os.path.join(tmp, "sessions")
        n = build_folder(folder, a.copies)
        times = {1: [], 2: []}
        for r in range(a.repeats):
            for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
                out = os.path.join(tmp, f"out-{r}-{jobs}")
                times[jobs].append(run(a.binary, folder, out, jobs))
                shutil.rmtree(out)
        med = {j: statistics.median(t) for j, t in times.items()}
        print(f"{n} sessions, {a.repeats} repeats, cores available: {os.cpu_count()}")
        for j in (1, 2):
            print(f"jobs {j}: median {med[j]:.2f} s ({n / med[j]:.2f} sessions/s), runs {', '.join(f'{t:.2f}' for t in times[j])}")
        print(f"speedup 2 vs 1: {med[1] / med[2]:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
