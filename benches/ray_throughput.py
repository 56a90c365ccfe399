#!/usr/bin/env python3
"""Archives per minute on Ray Data: 1 worker against 2, side by side.

Compacts the same set of archives (the reference archives, else the
bundled session, copied `--copies` times so every file is distinct) with
each summarizer, on a local Ray with 2 CPUs, once per configuration:

- 1 worker, 1 CPU (its model runs 1 thread);
- 1 worker, 2 CPUs (one actor, 2 threads);
- 2 workers, 1 CPU each.

After one untimed warm-up job per summarizer, each run starts from an empty
output folder and is timed from the call to `continuity.ray.compact_dataset`
to its return (actor start and model load included). It also reports the
peak resident memory of one process that loads the summarizer and compacts
one archive. Prints a Markdown table with archives per minute and the 2-worker
over 1-worker ratio. Needs the package installed (`pip install
./crates/python`) with Ray (`pip install "ray[data]"`).

    python3 benches/ray_throughput.py --summarizers extractive,smollm2-135m --copies 2
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ray

import continuity
from continuity.ray import compact_dataset

REPO = Path(__file__).resolve().parents[1]
REFERENCE = Path(os.environ.get("CONTINUITY_REFERENCE", REPO.parent / "shared" / "reference" / "mission-continuity"))
CONFIGS = [(1, 1), (1, 2), (2, 1)]  # (workers, cpus per worker)


def archives(folder: Path, copies: int, limit: int) -> tuple[Path, Path, Path, int, str]:
    refs = sorted(REFERENCE.glob("replays/*/run/archive/*.json"))[: limit or None]
    if refs:
        kernel, policy, what = REPO / "eval/billing-dispute/kernel.toml", REPO / "eval/billing-dispute/policy.toml", "reference archives"
    else:
        refs = [REPO / "examples/billing-dispute/session.json"]
        kernel, policy, what = REPO / "examples/billing-dispute/kernel.toml", REPO / "examples/billing-dispute/policy.toml", "bundled session"
    n = 0
    for c in range(copies):
        for i, src in enumerate(refs):
            dest = folder / f"copy-{c}" / f"{i:02d}.json"
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
            n += 1
    return folder, kernel, policy, n, f"{len(refs)} {what} x {copies}"


PEAK = """
import json, resource, sys
import continuity
s = continuity.Summarizer(sys.argv[1]); s.load()
c = continuity.compact(sys.argv[2], kernel=sys.argv[3], policy=sys.argv[4], summarizer=s)
print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
"""


def peak_rss_mb(summarizer: str, archive: Path, kernel: Path, policy: Path) -> float:
    """Peak resident memory of one process that loads the summarizer and
    compacts one archive: what one worker holds, less Ray's own share."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, summarizer, str(archive), str(kernel), str(policy)],
        capture_output=True, text=True, check=True,
    )
    return json.loads(done.stdout) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--summarizers", default="extractive,smollm2-135m")
    ap.add_argument("--copies", type=int, default=2)
    ap.add_argument("--limit", type=int, default=0, help="at most this many archives (0: all)")
    args = ap.parse_args()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    rows = []
    peaks: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        src, kernel, policy, n, what = archives(Path(tmp) / "archives", args.copies, args.limit)
        for summarizer in args.summarizers.split(","):
            per = {}
            # Warm-up, untimed: Ray Data's first job and the page cache.
            compact_dataset(
                [next(src.glob("**/*.json"))], kernel=kernel, policy=policy,
                out=Path(tmp) / f"warmup-{summarizer}", summarizer=summarizer,
            )
            for workers, cpus in CONFIGS:
                out = Path(tmp) / f"out-{summarizer}-{workers}x{cpus}"
                start = time.perf_counter()
                s = compact_dataset(
                    src, kernel=kernel, policy=policy, out=out, summarizer=summarizer,
                    workers=workers, cpus_per_worker=cpus,
                )
                wall = time.perf_counter() - start
                assert s["errors"] == 0 and s["compacted"] == n, s
                per[(workers, cpus)] = n / wall * 60
                rows.append((summarizer, workers, cpus, n, wall, per[(workers, cpus)]))
                print(f"{summarizer:14} {workers} worker(s) x {cpus} CPU: {n} archives in {wall:6.1f} s = {per[(workers, cpus)]:7.1f}/min", flush=True)
            rows.append((summarizer, "ratio", None, None, None, per[(2, 1)] / per[(1, 1)]))
            peaks[summarizer] = peak_rss_mb(summarizer, next(src.glob("**/*.json")), kernel, policy)
    ray.shutdown()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\n{what}, {os.cpu_count()} CPUs (load average {load} at the end), continuity {continuity.__version__}\n")
    print("| summarizer | workers × CPUs | archives | wall s | archives/min |")
    print("|---|---|---:|---:|---:|")
    for summarizer, workers, cpus, count, wall, rate in rows:
        if workers == "ratio":
            print(f"| {summarizer} | **2×1 over 1×1** | | | **{rate:.2f}×** |")
        else:
            print(f"| {summarizer} | {workers}×{cpus} | {count} | {wall:.1f} | {rate:.1f} |")
    print("\n| summarizer | peak RSS of one worker process, MB |\n|---|---:|")
    for summarizer, mb in peaks.items():
        print(f"| {summarizer} | {mb:.0f} |")


if __name__ == "__main__":
    main()
