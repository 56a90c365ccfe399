#!/usr/bin/env python3
"""Write golden token ids from llama.cpp (via llama-cpp-python) for the GGUF tokenizer tests.

llama.cpp is the reference tokenizer for GGUF files, so the Rust builder in
crates/llm/src/gguf_tokenizer.rs must reproduce these ids exactly.

Ids are recorded with llama.cpp's defaults for prompts: add_special=True (BOS
is prepended only when the GGUF says so: Gemma yes, SmolLM2/Qwen no) and
parse_special=True (text like "<|im_start|>" becomes one control token).

Setup (llama-cpp-python builds llama.cpp from source; ~10-15 min on 2 cores):
    python3 -m venv /tmp/llvenv
    /tmp/llvenv/bin/pip install llama-cpp-python==0.3.36
    python3 models/fetch.py smollm2-135m qwen2.5-0.5b gemma3-270m
Run:
    /tmp/llvenv/bin/python scripts/golden_tokens.py [MODEL...] [--cache DIR]
Writes tests/fixtures/tokenizer/<model>.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MODELS = {
    # name -> (cache file name, chat special tokens used in the template cases)
    "smollm2-135m": ("SmolLM2-135M-Instruct.Q4_1.gguf", ("<|im_start|>", "<|im_end|>")),
    "qwen2.5-0.5b": ("qwen2.5-coder-0.5b-instruct-q5_0.gguf", ("<|im_start|>", "<|im_end|>")),
    "gemma3-270m": ("gemma-3-270m-q4_k_m.gguf", ("<start_of_turn>", "<end_of_turn>")),
}

COMMON_TEXTS = [
    "",
    " ",
    "Hello world",
    " Hello world",
    "hello, World! How's it going? I'm fine; they'll see.",
    '{"id": "tx-9002", "amount": 1240.00, "currency": "USD", "ok": true, "tags": []}',
    '{"tool_use_id":"toolu_01AbC","content":[{"type":"text","text":"done"}]}',
    "Refund of $1,240.00 issued for invoice INV-2024-0042 (tx-9002).",
    "Total: €3.5M vs ¥120,000 and £7.99; 12.5% up, -3.25e-4 down",
    "call toolu_01AbCdEf23 then toolu_01XyZ; ids tx-9002, tx-9003",
    "12345678901234567890 and 3.14159265358979323846 and 0x7fffffff",
    "2026-11-30T04:45:08Z user=alice@example.com uid=1000 port=8080",
    "Café naïve façade résumé Ångström Øresund Straße",
    "日本語のテキストと中文文本，还有한국어.",
    "Emoji: 🎉🚀 👍🏽 👨‍👩‍👧‍👦 ❤️ 🇫🇷",
    "two  spaces,   three,    four, and trailing   ",
    "\ttab\tseparated\t\tcolumns\t",
    "line one\nline two\n\nline four\r\nwindows\n\n\n",
    "    def f(x):\n        return x * 2\n",
    "mixed \t \n whitespace \n\t  runs",
    "fn main() { let v: Vec<u8> = vec![1, 2, 3]; println!(\"{v:?}\"); }",
    "SELECT id, amount FROM payments WHERE amount > 1000 AND status = 'open';",
    "<tag attr=\"v\">text</tag> &amp; <br/> <table><tr><td>x</td></tr></table>",
    "'s 're 've 'm 'll 'd 'S 'RE don't WON'T",
    "path/to/file_name-v2.final.tar.gz ~/.cache/continuity/models",
    "Ünïcödé ÀÉÎÕÜ ĳ ǅ ﬁ ½ ² Ⅻ",
    "a" * 64,
    "1" * 40,
    "!!!??? ... --- *** ### @@@",
    # Literal marker texts: llama.cpp treats some ordinary vocab entries as
    # control tokens by their text (Qwen2.5's normal `</s>` becomes one id).
    "end </s> unk <unk> bos <s> eos <eos> pad <|endoftext|>",
]


def chat_texts(start: str, end: str) -> list[str]:
    return [
        f"{start}system\nYou are a summarizer.{end}\n{start}user\nSummarize tx-9002.{end}\n{start}assistant\n",
        f"{start}{end}",
        f"text before {start}user\n  spaced  {end} after",
    ]


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("models", nargs="*", default=list(MODELS))
    ap.add_argument("--cache", type=Path, default=None)
    args = ap.parse_args(argv)

    import llama_cpp  # imported late so --help works without it

    cache = args.cache or Path(
        os.environ.get("CONTINUITY_MODELS_DIR") or Path.home() / ".cache" / "continuity" / "models"
    )
    out_dir = ROOT / "tests" / "fixtures" / "tokenizer"
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in args.models:
        file, (start, end) = MODELS[name]
        path = cache / file
        if not path.exists():
            print(f"error: {path} missing; run: python3 models/fetch.py {name}", file=sys.stderr)
            return 1
        llm = llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)
        cases = []
        for text in COMMON_TEXTS + chat_texts(start, end):
            ids = llm.tokenize(text.encode("utf-8"), add_bos=True, special=True)
            cases.append({"text": text, "ids": list(ids)})
        doc = {
            "model": name,
            "file": file,
            "sha256": sha256_file(path),
            "llama_cpp_python_version": llama_cpp.__version__,
            "add_special": True,
            "parse_special": True,
            "cases": cases,
        }
        out = out_dir / f"{name}.json"
        out.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{name}: {len(cases)} cases -> {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
