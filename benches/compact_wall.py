#!/usr/bin/env python3
"""Wall time of single `continuity compact` runs, model load included, for
two builds side by side (what a user waits for per compaction).

    git worktree add /tmp/base BASE && (cd /tmp/base && cargo build --release)
    cargo build --release
    python3 benches/compact_wall.py --binaries /tmp/base/target/release/continuity \\
        target/release/continuity --summarizer qwen2.5-0.5b --repeats 3 ARCHIVE...
    # one build at two kernel levels (CONTINUITY_CPU), e.g. the AVX2 path:
    python3 benches/compact_wall.py --binaries target/release/continuity \
        target/release/continuity --cpu vnni avx2 ARCHIVE...

Each run is its own process (`compact ARCHIVE --kernel ... --policy ...
--summarizer S --out TMP`), so it pays the model load as a user does. The
binaries alternate, and so does which goes first. Reported per archive and binary: the median
wall time (`wait4`), the model load and summarizer time the binary reports,
its summarizer input and generated tokens, its prefill and decode rates
(two builds may generate different lengths, so the rates compare their
speed where wall times cannot), its peak memory, whether its runs all
wrote the same summary.txt, and whether that is the first build's summary
(it is not when the builds differ in what they ask the model or in their
greedy picks). Then each build's range of wall times and how many archives
are over `--limit` seconds. Ratios are second / first: below 1 is faster.

Each build first runs once untimed on the first archive, so that neither
side's timed runs include a model's first load (which writes its prepared
weights) or a cold page cache.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(binary, archive, args, out, cpu):
    cmd = [
        binary, "compact", archive,
        "--kernel", args.kernel, "--policy", args.policy,
        "--summarizer", args.summarizer, "--out", out,
    ]
    start = time.monotonic()
    env = dict(os.environ)
    env.pop("CONTINUITY_CPU", None)
    if cpu != "best":
        env["CONTINUITY_CPU"] = cpu
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    text = proc.stdout.read()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{binary} failed on {archive}:\n{text}")
    load = re.search(r"load ([0-9.]+) s", text)
    tokens = re.search(r"([0-9]+) input tokens", text)
    generated = re.search(r"decode ([0-9]+) tokens", text)
    prefill_rate = re.search(r"prefill [0-9]+ tokens at ([0-9.]+) tok/s", text)
    decode_rate = re.search(r"decode [0-9]+ tokens at ([0-9.]+) tok/s", text)
    total = re.search(r"total ([0-9.]+) s", text)
    with open(os.path.join(out, "summary.txt")) as f:
        summary = f.read()
    return {
        "wall": wall,
        "load": float(load.group(1)) if load else float("nan"),
        "summarizer": float(total.group(1)) if total else float("nan"),
        "peak_mib": usage.ru_maxrss / 1024,
        "input_tokens": int(tokens.group(1)) if tokens else 0,
        "generated": int(generated.group(1)) if generated else 0,
        "prefill_rate": float(prefill_rate.group(1)) if prefill_rate else float("nan"),
        "decode_rate": float(decode_rate.group(1)) if decode_rate else float("nan"),
        "summary": summary,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("archives", nargs="+")
    p.add_argument("--binaries", nargs=2, required=True, metavar=("FIRST", "SECOND"))
    p.add_argument("--summarizer", default="qwen2.5-0.5b")
    p.add_argument("--kernel", default=os.path.join(ROOT, "eval/billing-dispute/kernel.toml"))
    p.add_argument("--policy", default=os.path.join(ROOT, "eval/billing-dispute/policy.toml"))
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--limit", type=float, default=10.0,
                   help="wall time in seconds each build's archives are counted against (default 10)")
    p.add_argument("--cpu", nargs=2, default=["best", "best"], metavar=("FIRST", "SECOND"),
                   help="CONTINUITY_CPU for each binary (scalar, avx2, vnni, avx512; best: unset)")
    args = p.parse_args()
    for b in args.binaries:
        if not os.access(b, os.X_OK):
            sys.exit(f"{b}: not an executable")
    print("| archive | build | wall (s) | load (s) | summarizer (s) | summarizer input tokens | generated tokens | prefill tok/s | decode tok/s | peak MiB | runs agree | = first build's summary |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    ratios = []
    walls = {0: [], 1: []}
    with tempfile.TemporaryDirectory() as tmp:
        # One untimed run per build first: a model's first load writes its
        # prepared weights, and the GGUF may not be in the page cache yet.
        for i, b in enumerate(args.binaries):
            run(b, args.archives[0], args, os.path.join(tmp, f"out{i}"), args.cpu[i])
        for archive in args.archives:
            runs = {i: [] for i in range(2)}
            for rep in range(args.repeats):
                # Alternate which build goes first, so neither always runs
                # on the other's warm caches.
                order = list(enumerate(args.binaries))
                for i, b in order if rep % 2 == 0 else order[::-1]:
                    runs[i].append(run(b, archive, args, os.path.join(tmp, f"out{i}"), args.cpu[i]))
            reference = runs[0][0]["summary"]
            med = {}
            name = os.path.relpath(archive, ROOT)
            for i, b in enumerate(args.binaries):
                rs = runs[i]
                keys = ("wall", "load", "summarizer", "peak_mib", "input_tokens", "generated",
                        "prefill_rate", "decode_rate")
                med[i] = {k: statistics.median(r[k] for r in rs) for k in keys}
                agree = all(r["summary"] == rs[0]["summary"] for r in rs)
                same = rs[0]["summary"] == reference
                m = med[i]
                yn = lambda v: "yes" if v else "no"
                print(f"| {name} | {'first' if i == 0 else 'second'} ({args.cpu[i]}) | {m['wall']:.2f} | {m['load']:.2f} "
                      f"| {m['summarizer']:.2f} | {m['input_tokens']:.0f} | {m['generated']:.0f} "
                      f"| {m['prefill_rate']:.1f} | {m['decode_rate']:.1f} "
                      f"| {m['peak_mib']:.0f} | {yn(agree)} | {yn(same)} |")
            for i in range(2):
                walls[i].append(med[i]["wall"])
            first, second = (med[i]["wall"] for i in range(2))
            ratios.append(second / first)
    print()
    for i, build in enumerate(("first", "second")):
        over = sum(w > args.limit for w in walls[i])
        print(f"wall time, {build}: {min(walls[i]):.2f}-{max(walls[i]):.2f} s, "
              f"{over} of {len(walls[i])} archive(s) over {args.limit:g} s")
    print(f"wall time, second / first: median {statistics.median(ratios):.3f}, "
          f"range {min(ratios):.3f}-{max(ratios):.3f} over {len(ratios)} archive(s), {args.repeats} run(s) each")


if __name__ == "__main__":
    main()
