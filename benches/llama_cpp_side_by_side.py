#!/usr/bin/env python3
"""candle (continuity) vs llama.cpp, side by side, on the same GGUF, the same
token ids and the same thread count.

    python3 -m venv /tmp/llvenv && /tmp/llvenv/bin/pip install llama-cpp-python==0.3.36 numpy
    cargo build --release
    /tmp/llvenv/bin/python benches/llama_cpp_side_by_side.py [--models smollm2-135m qwen2.5-0.5b]
        [--sizes 1536 6144] [--decode 64] [--threads 2] [--repeats 1] [--markdown FILE]
        [--cpu avx2|vnni|avx512|scalar] [--repack] [--kv-check] [--margins]
        [--other-llama PYTHON]

Same-ISA runs (`--cpu avx2`): continuity runs with `CONTINUITY_CPU=avx2`, and
the llama.cpp of the venv must be built for that level, e.g.

    python3 -m venv /tmp/llvenv-avx2
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
      -DGGML_AVX512=OFF -DGGML_AVX512_VBMI=OFF -DGGML_AVX512_VNNI=OFF -DGGML_AVX512_BF16=OFF \
      -DGGML_AVX_VNNI=OFF" /tmp/llvenv-avx2/bin/pip install --no-binary :all: \
      --no-cache-dir llama-cpp-python==0.3.36 numpy
    /tmp/llvenv-avx2/bin/python benches/llama_cpp_side_by_side.py --cpu avx2 ...

The script reads llama.cpp's `llama_print_system_info()` and refuses to run
when it reports an extension above `--cpu`'s level (AVX512*, AVX_VNNI).

For each model and prompt size, a prompt of exactly that many tokens is made
from the bundled billing-dispute transcript (repeated as needed) with
llama.cpp's tokenizer; continuity's tokenizer gives the same ids (tests/
gguf_tokenizer.rs). Each side then runs in its own child process:

* llama.cpp (llama-cpp-python): prefill of the ids in one `eval` (n_batch 512),
  then `--decode` greedy steps, one `eval` per token; its default settings
  otherwise (f16 KV cache, no flash attention), with weight repacking off
  (`use_extra_bufts = False`: it crashed on this machine's AVX-512 build;
  `--repack` turns it on);
* continuity: `target/release/continuity generate --prompt-ids ... --ignore-stop --json`.

Prefill tok/s = prompt tokens / prefill wall time; decode tok/s = (generated
- 1) / wall time of the decode forwards (the first token comes from the
prefill logits), timed the same way on both sides. Peak memory is the child's
maximum resident set size (`wait4`). With --repeats > 1 the sides alternate and
the medians are reported. Ratios are candle / llama.cpp: above 1 is faster
(or, for memory, larger).

With --margins, where the greedy ids part, each side runs once more,
untimed, recording its two highest logits per step (llama.cpp from its
logits, continuity with `generate --top-logits 2`); the table then shows
both sides' top-2 gap at the first differing step. A gap below 0.25 is a
near-tie by the rule of crates/llm/tests/it/agreement.rs.

With --other-llama, a second llama.cpp build (another venv's python, e.g. the
native build beside the AVX2 one) runs the same ids once more: the table adds
how many greedy ids llama.cpp's two builds share, and ours against the second
build. Where llama.cpp's builds part from each other, a difference there says
nothing about either implementation.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.environ.get("CONTINUITY_MODELS_DIR", os.path.expanduser("~/.cache/continuity/models"))
MODELS = {
    "smollm2-135m": "SmolLM2-135M-Instruct.Q4_1.gguf",
    "qwen2.5-0.5b": "qwen2.5-coder-0.5b-instruct-q5_0.gguf",
    "gemma3-270m": "gemma-3-270m-q4_k_m.gguf",
}


def transcript_text():
    """The billing-dispute session, one line per part (as the golden fixtures use)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from golden_generate import transcript_lines

    return "\n".join(transcript_lines())


def prompt_ids(path, size):
    """Exactly `size` ids: BOS (when the model wants one) + transcript tokens."""
    from llama_cpp import Llama

    llm = Llama(model_path=path, vocab_only=True, verbose=False)
    text = transcript_text()
    body = llm.tokenize(text.encode(), add_bos=False, special=False)
    bos = llm.tokenize(b"", add_bos=True, special=False)
    ids = list(bos)
    while len(ids) < size:
        ids.extend(body[: size - len(ids)])
    return ids


def child_llama(path, ids_file, decode, threads, kv, repack, top):
    """Runs in a child process; prints one JSON line. With `top`, also each
    step's two highest logits (an untimed diagnostic run)."""
    import numpy as np
    import llama_cpp
    from llama_cpp import Llama

    default = llama_cpp.llama_model_default_params

    def params():
        p = default()
        p.use_extra_bufts = repack
        return p

    llama_cpp.llama.llama_cpp.llama_model_default_params = params
    with open(ids_file) as f:
        ids = json.load(f)
    t = time.perf_counter()
    # GGML_TYPE_F32 = 0, GGML_TYPE_F16 = 1 (llama.cpp's default KV cache).
    kv_type = {"f32": 0, "f16": 1}[kv]
    llm = Llama(model_path=path, n_ctx=len(ids) + decode + 16, n_threads=threads,
                n_threads_batch=threads, n_batch=512, n_ubatch=512, verbose=False, seed=0,
                type_k=kv_type, type_v=kv_type)
    load_ms = (time.perf_counter() - t) * 1e3
    n_vocab = llm.n_vocab()

    def last_logits():
        return np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(n_vocab,))

    t = time.perf_counter()
    llm.eval(ids)
    prefill_ms = (time.perf_counter() - t) * 1e3
    tops = []

    def pick():
        logits = last_logits()
        first = int(np.argmax(logits))  # the first index on ties
        if top:
            rest = logits.copy()
            rest[first] = -np.inf
            second = int(np.argmax(rest))
            tops.append([[first, float(logits[first])], [second, float(logits[second])]])
        return first

    out = [pick()]
    t = time.perf_counter()
    for _ in range(decode - 1):
        llm.eval([out[-1]])
        out.append(pick())
    decode_ms = (time.perf_counter() - t) * 1e3
    print(json.dumps({"load_ms": load_ms, "prefill_ms": prefill_ms, "decode_ms": decode_ms,
                      "generated_ids": out, "prompt_tokens": len(ids), "top_logits": tops}))


# llama.cpp system-info flags above each level (`llama_print_system_info`).
ABOVE = {
    "scalar": ["AVX", "AVX2", "FMA", "F16C", "AVX_VNNI", "AVX512"],
    "avx2": ["AVX_VNNI", "AVX512"],
    "vnni": ["AVX512"],
    "avx512": [],
}


def llama_system_info():
    import llama_cpp

    return llama_cpp.llama_print_system_info().decode()


def llama_level_check(level):
    """llama.cpp's system info, or exit when it runs above `level`."""
    info = llama_system_info()
    flags = {}
    for part in info.replace("|", "\n").splitlines():
        if "=" in part:
            key, value = part.rsplit("=", 1)
            key = key.strip().split(":")[-1].strip()
            flags[key] = value.strip()
    above = [k for k, v in flags.items() if v == "1" and any(k == a or k.startswith(a + "_") for a in ABOVE[level])]
    if above:
        sys.exit(f"--cpu {level}: this llama.cpp build uses {', '.join(above)} ({info.strip()}); "
                 "rebuild llama-cpp-python with the CMAKE_ARGS in this script's docstring")
    return info.strip()


def measure(cmd, env=None):
    # wait4 gives the rusage of exactly this child.
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        try:
            if env is None:
                os.execvp(cmd[0], cmd)
            os.execvpe(cmd[0], cmd, env)
        finally:
            os._exit(127)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    lines = b"".join(chunks).decode().strip().splitlines()
    result = json.loads(lines[-1])
    result["peak_rss_bytes"] = usage.ru_maxrss * 1024
    return result


def common_prefix(a, b):
    """How many leading greedy ids two runs share."""
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def margins_at_first_difference(llama, ours):
    """Both sides' two highest logits at the first step where their greedy
    ids differ (each side's ids from its own diagnostic run): a table cell."""
    a, b = llama["generated_ids"], ours["generated_ids"]
    d = common_prefix(a, b)
    if d == min(len(a), len(b)):
        return "no difference in the diagnostic runs"

    def gap(top):
        (i1, l1), (i2, l2) = top[d]
        return f"{i1} over {i2} by {l1 - l2:.3f}"

    return f"step {d}: llama.cpp {gap(llama['top_logits'])}, ours {gap(ours['top_logits'])}"


def tok_s(n, ms):
    return n * 1e3 / ms if ms > 0 else 0.0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child-llama":
        child_llama(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6],
                    sys.argv[7] == "repack", sys.argv[8:] == ["top"])
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", nargs="+", default=["smollm2-135m", "qwen2.5-0.5b"])
    ap.add_argument("--sizes", nargs="+", type=int, default=[1536, 6144])
    ap.add_argument("--decode", type=int, default=64)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--binary", default=os.path.join(ROOT, "target/release/continuity"))
    ap.add_argument("--markdown", help="also write the table to this file")
    ap.add_argument("--repack", action="store_true",
                    help="let llama.cpp repack weights (use_extra_bufts; off by default: it crashed on AVX-512)")
    ap.add_argument("--kv-check", action="store_true",
                    help="also run llama.cpp once with an f32 KV cache: greedy ids of its f16 run against its "
                         "f32 run, and ours against the f32 run")
    ap.add_argument("--margins", action="store_true",
                    help="where the greedy ids part, run each side once more (untimed) and print both "
                         "sides' two highest logits at the first differing step")
    ap.add_argument("--cpu", choices=sorted(ABOVE), help="restrict both sides to this kernel level "
                    "(continuity: CONTINUITY_CPU; llama.cpp: checked against its build)")
    ap.add_argument("--other-llama", metavar="PYTHON",
                    help="the python of a second llama-cpp-python build (e.g. the native one beside an AVX2 "
                         "one): also count the greedy ids llama.cpp's two builds share, and ours against the "
                         "second build (untimed, f16 KV)")
    args = ap.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"{args.binary} not found: run `cargo build --release` first")
    info = llama_level_check(args.cpu) if args.cpu else llama_system_info().strip()
    ours_env = dict(os.environ)
    if args.cpu:
        ours_env["CONTINUITY_CPU"] = args.cpu
    else:
        ours_env.pop("CONTINUITY_CPU", None)
    print(f"llama.cpp: {info}; continuity: CONTINUITY_CPU={args.cpu or '(best)'}", file=sys.stderr)
    other_info = None
    if args.other_llama:
        probe = subprocess.run([args.other_llama, "-c", "import llama_cpp; "
                                "print(llama_cpp.llama_print_system_info().decode().strip())"],
                               capture_output=True, text=True)
        if probe.returncode != 0:
            sys.exit(f"--other-llama {args.other_llama}: cannot import llama_cpp: {probe.stderr.strip()}")
        other_info = probe.stdout.strip().splitlines()[-1]
        print(f"other llama.cpp build: {other_info}", file=sys.stderr)

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models:
            path = os.path.join(CACHE, MODELS[name])
            if not os.path.exists(path):
                print(f"skipped: {name} not fetched (python3 models/fetch.py {name})", file=sys.stderr)
                continue
            for size in args.sizes:
                ids_file = os.path.join(tmp, f"{name}-{size}.json")
                with open(ids_file, "w") as f:
                    json.dump(prompt_ids(path, size), f)
                llama_runs, ours_runs = [], []
                env_threads = {"RAYON_NUM_THREADS": str(args.threads)}
                os.environ.update(env_threads)
                ours_env.update(env_threads)
                def llama_cmd(kv, *extra, python=sys.executable):
                    return [python, os.path.abspath(__file__), "--child-llama", path, ids_file,
                            str(args.decode), str(args.threads), kv, "repack" if args.repack else "plain",
                            *extra]

                ours_cmd = [args.binary, "generate", "--model", name, "--model-path", path,
                            "--prompt-ids", ids_file, "--max-new-tokens", str(args.decode),
                            "--ignore-stop", "--json"]
                for _ in range(args.repeats):
                    llama_runs.append(measure(llama_cmd("f16")))
                    ours_runs.append(measure(ours_cmd, ours_env))

                def med(runs, f):
                    return statistics.median(f(r) for r in runs)

                lp = med(llama_runs, lambda r: tok_s(r["prompt_tokens"], r["prefill_ms"]))
                ld = med(llama_runs, lambda r: tok_s(len(r["generated_ids"]) - 1, r["decode_ms"]))
                op = med(ours_runs, lambda r: r["prefill_tokens_per_s"])
                od = med(ours_runs, lambda r: r["decode_tokens_per_s"])
                lm = med(llama_runs, lambda r: r["peak_rss_bytes"])
                om = med(ours_runs, lambda r: r["peak_rss_bytes"])
                a, b = llama_runs[0]["generated_ids"], ours_runs[0]["generated_ids"]
                same = common_prefix(a, b)
                row = dict(model=name, tokens=size, llama_prefill=lp, ours_prefill=op, llama_decode=ld,
                           ours_decode=od, llama_mib=lm / 2**20, ours_mib=om / 2**20, same_prefix=same,
                           n=len(a))
                if args.kv_check:
                    f32 = measure(llama_cmd("f32"))["generated_ids"]
                    row["llama_f16_f32"] = common_prefix(a, f32)
                    row["ours_f32"] = common_prefix(b, f32)
                if args.other_llama:
                    other = measure(llama_cmd("f16", python=args.other_llama))["generated_ids"]
                    row["llama_builds"] = common_prefix(a, other)
                    row["ours_other"] = common_prefix(b, other)
                if args.margins and same < len(a):
                    row["margins"] = margins_at_first_difference(
                        measure(llama_cmd("f16", "top")), measure(ours_cmd + ["--top-logits", "2"], ours_env))
                    print(f"{name} {size}: {row['margins']}", file=sys.stderr, flush=True)
                rows.append(row)
                print(f"{name} {size}: prefill {op:.1f} vs {lp:.1f} tok/s ({op / lp:.2f}x), "
                      f"decode {od:.1f} vs {ld:.1f} tok/s ({od / ld:.2f}x), "
                      f"peak {om / 2**20:.0f} vs {lm / 2**20:.0f} MiB; greedy ids equal for {same}/{len(a)}"
                      + (f"; llama.cpp f16 vs f32 KV {row['llama_f16_f32']}/{len(a)}, ours vs its f32 "
                         f"{row['ours_f32']}/{len(a)}" if args.kv_check else "")
                      + (f"; llama.cpp's two builds {row['llama_builds']}/{len(a)}, ours vs the other "
                         f"{row['ours_other']}/{len(a)}" if args.other_llama else ""),
                      file=sys.stderr, flush=True)

    lines = [
        f"| model | prompt tokens | prefill tok/s candle | llama.cpp | ratio | decode tok/s candle | llama.cpp | ratio | peak MiB candle | llama.cpp | ratio | greedy ids equal |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    if args.kv_check:
        lines[0] += " llama.cpp f16 vs f32 KV | ours vs llama.cpp f32 KV |"
        lines[1] += "---:|---:|"
    if args.other_llama:
        lines[0] += " llama.cpp vs its other build | ours vs the other build |"
        lines[1] += "---:|---:|"
    if args.margins:
        lines[0] += " top-2 logits where the ids part |"
        lines[1] += "---|"
    for r in rows:
        kv_cells = f" {r['llama_f16_f32']}/{r['n']} | {r['ours_f32']}/{r['n']} |" if args.kv_check else ""
        if args.other_llama:
            kv_cells += f" {r['llama_builds']}/{r['n']} | {r['ours_other']}/{r['n']} |"
        lines.append(
            f"| {r['model']} | {r['tokens']} | {r['ours_prefill']:.1f} | {r['llama_prefill']:.1f} | "
            f"{r['ours_prefill'] / r['llama_prefill']:.2f} | {r['ours_decode']:.1f} | {r['llama_decode']:.1f} | "
            f"{r['ours_decode'] / r['llama_decode']:.2f} | {r['ours_mib']:.0f} | {r['llama_mib']:.0f} | "
            f"{r['ours_mib'] / r['llama_mib']:.2f} | {r['same_prefix']}/{r['n']} |" + kv_cells
            + (f" {r.get('margins', '—')} |" if args.margins else "")
        )
    table = "\n".join(lines) + "\n"
    print(table, end="")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(f"threads {args.threads}, decode {args.decode} greedy tokens, repeats {args.repeats}, "
                    f"CONTINUITY_CPU={args.cpu or '(best)'}; llama.cpp: {info}"
                    + (f"; other llama.cpp build: {other_info}" if other_info else "") + "\n\n")
            f.write(table)


if __name__ == "__main__":
    main()
