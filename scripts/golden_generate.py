#!/usr/bin/env python3
"""Write greedy-generation golden fixtures from llama.cpp (llama-cpp-python).

    /tmp/llvenv/bin/python scripts/golden_generate.py [model ...]

For each manifest model present in the cache, writes
`tests/fixtures/generate/<model>.json`: the prompt token ids of a short prompt
and of a ~1.6k-token prompt built from `examples/billing-dispute/session.json`,
and llama.cpp's first N greedy token ids (argmax of the logits, first index on
ties), with the gap between the best and second-best logit and the top-5
(id, logit) pairs at each step (a small gap explains a divergence caused by
rounding; the logits measure how far apart two implementations are).

Reference settings: no extra buffer types (no weight repacking), n_threads 2, n_batch 512, n_ctx 4096, flash attention off
and an f32 KV cache (type_k = type_v = GGML_TYPE_F32). continuity keeps K/V in
f32, so an f16 cache in the reference would add rounding we do not have; the
default (f16 cache) ids are recorded too (`greedy_ids_f16_kv`) for comparison.
"""
import hashlib
import json
import os
import sys

import llama_cpp
import numpy as np
from llama_cpp import Llama, __version__ as LLAMA_CPP_VERSION

# Weight repacking into "extra buffer types" (AMX/ repacked Q4 layouts) crashes
# with a general protection fault on this machine's CPU/kernel; use ggml's
# plain CPU kernels (use_extra_bufts = false), the path continuity mirrors.
_default_model_params = llama_cpp.llama_model_default_params


def _model_params():
    p = _default_model_params()
    p.use_extra_bufts = False
    return p


llama_cpp.llama.llama_cpp.llama_model_default_params = _model_params

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.environ.get("CONTINUITY_MODELS", os.path.expanduser("~/.cache/continuity/models"))
N_NEW = 64
MODELS = {
    "smollm2-135m": ("SmolLM2-135M-Instruct.Q4_1.gguf", "chatml"),
    "qwen2.5-0.5b": ("qwen2.5-coder-0.5b-instruct-q5_0.gguf", "chatml"),
    "gemma3-270m": ("gemma-3-270m-q4_k_m.gguf", "base"),
}


def transcript_lines():
    """The billing-dispute session rendered compactly, one line per part."""
    with open(os.path.join(ROOT, "examples/billing-dispute/session.json")) as f:
        session = json.load(f)
    lines = []
    for msg in session["messages"]:
        content = msg["content"]
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        for part in content:
            kind = part["type"]
            if kind == "text":
                lines.append(f"{msg['role']}: {part['text']}")
            elif kind == "tool_use":
                lines.append(f"tool call {part['name']}({json.dumps(part['input'])})")
            elif kind == "tool_result":
                body = part["content"]
                if not isinstance(body, str):
                    body = " ".join(p.get("text", "") for p in body)
                lines.append(f"tool result: {body}")
    return lines


def wrap(template, instruction, body):
    if template == "chatml":
        return (
            "<|im_start|>system\nYou summarize agent transcripts.<|im_end|>\n"
            f"<|im_start|>user\n{instruction}\n\n{body}<|im_end|>\n<|im_start|>assistant\n"
        )
    return f"{instruction}\n\n{body}\n\nSummary:"


def prompts(llm, template):
    add_bos = template == "base"
    short = wrap(template, "Summarize in one sentence.",
                 "The customer CUS-58317 was charged EUR 412.50 twice for invoice INV-27-0503.")
    instruction = "Summarize the investigation so far: decisions, findings with record ids and amounts, open questions."
    lines = transcript_lines()
    # Largest prefix of the transcript whose prompt is at most 1,650 tokens.
    body, ids = "", None
    for i in range(1, len(lines) + 1):
        cand = "\n".join(lines[:i])
        toks = llm.tokenize(wrap(template, instruction, cand).encode(), add_bos=add_bos, special=True)
        if len(toks) > 1650:
            # cut the last line by characters to land near 1,600 tokens
            line = lines[i - 1]
            lo, hi = 0, len(line)
            while lo < hi:
                mid = (lo + hi + 1) // 2
                c2 = "\n".join(lines[: i - 1] + [line[:mid]])
                t2 = llm.tokenize(wrap(template, instruction, c2).encode(), add_bos=add_bos, special=True)
                if len(t2) <= 1600:
                    lo = mid
                else:
                    hi = mid - 1
            body = "\n".join(lines[: i - 1] + [line[:lo]])
            break
        body = cand
    long_text = wrap(template, instruction, body)
    out = []
    for name, text in (("short", short), ("long", long_text)):
        out.append((name, text, llm.tokenize(text.encode(), add_bos=add_bos, special=True)))
    return out


def greedy(llm, ids, n):
    llm.reset()
    llm.eval(ids)
    out, gaps, tops = [], [], []
    for _ in range(n):
        # Logits of the last evaluated token (the only output of the batch).
        logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(llm.n_vocab(),)).copy()
        tok = int(np.argmax(logits))
        top2 = np.partition(logits, -2)[-2:]
        gaps.append(round(float(top2[1] - top2[0]), 5))
        best = np.argsort(-logits, kind="stable")[:5]
        tops.append([[int(i), round(float(logits[i]), 5)] for i in best])
        out.append(tok)
        llm.eval([tok])
    return out, gaps, tops


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main():
    names = sys.argv[1:] or list(MODELS)
    for name in names:
        file, template = MODELS[name]
        path = os.path.join(CACHE, file)
        if not os.path.exists(path):
            print(f"skipped: {name} not fetched (python3 models/fetch.py {name})")
            continue
        common = dict(model_path=path, n_ctx=4096, n_threads=2, n_threads_batch=2,
                      n_batch=512, flash_attn=False, verbose=False, seed=0)
        llm = Llama(type_k=0, type_v=0, **common)
        cases = []
        for case, text, ids in prompts(llm, template):
            toks, gaps, tops = greedy(llm, ids, N_NEW)
            cases.append({"name": case, "prompt": text, "prompt_ids": ids,
                          "greedy_ids": toks, "top2_gap": gaps, "top5": tops})
            print(f"{name} {case}: {len(ids)} prompt tokens -> {llm.detokenize(toks).decode(errors='replace')!r}")
        del llm
        llm16 = Llama(**common)
        for c in cases:
            c["greedy_ids_f16_kv"], _, _ = greedy(llm16, c["prompt_ids"], N_NEW)
        del llm16
        fixture = {
            "model": name,
            "file": file,
            "sha256": sha256(path),
            "reference": f"llama-cpp-python {LLAMA_CPP_VERSION}",
            "settings": {"use_extra_bufts": False, "n_threads": 2, "n_batch": 512, "n_ctx": 4096, "flash_attn": False,
                         "kv_cache": "f32", "sampling": "greedy (argmax, first index on ties)"},
            "template": template,
            "cases": cases,
        }
        out = os.path.join(ROOT, "tests/fixtures/generate", f"{name}.json")
        with open(out, "w") as f:
            json.dump(fixture, f, indent=1)
            f.write("\n")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
