#!/usr/bin/env python3
"""The narrative a model summarizer writes at the keyed points of the real
transcripts, beside the agent's own summary, with its latency.

For each key in eval/real-sessions/keys/ (or those named with --keys-only):
`continuity compact SESSION --at POINT --out DIR --summarizer S` at the
default target, then summary.txt, the summarizer's latency and input and
generated tokens from report.json (its own tokenizer's counts), the wall
time of the whole compaction, and whether the narrative is made of whole
sentences. Where the point is an agent compaction, the agent's own summary
(its first 120 words) is shown beside it. Whether the narrative names the
current task and the next step correctly is read by hand; the latest user
request and the agent's last words before the point are printed to help.

    python3 eval/scripts/real_narratives.py --bin target/release/continuity \\
        --summarizer qwen2.5-0.5b marot-spotter__compaction-1
"""

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_sessions import agent_summary, archives_or_skip, compact, parser  # noqa: E402

SENTENCE_END = (".", "!", "?", ".)", ".\"", ".`")


def whole_sentences(text: str) -> bool:
    text = text.strip()
    return bool(text) and text.endswith(SENTENCE_END)


def words(text: str, n: int) -> str:
    w = text.split()
    return " ".join(w[:n]) + (" …" if len(w) > n else "")


def run(binary, key_path, archives, work, summarizer):
    key = json.loads(key_path.read_text(encoding="utf-8"))
    session = archives / key["session"]
    at = key["at"]
    out, wall = compact(
        binary, session, at, work / key_path.stem, ["--summarizer", summarizer]
    )
    if out is None:
        return {"key": key_path.stem, "refused": True}
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    metrics = report["summarizer"]
    narrative = (out / "summary.txt").read_text(encoding="utf-8").strip()
    row = {
        "key": key_path.stem,
        "narrative": narrative,
        "whole_sentences": whole_sentences(narrative),
        "wall_s": round(wall, 1),
        "latency_s": round(metrics.get("latency_ms", 0) / 1e3, 1),
        "prompt_tokens": metrics.get("prompt_tokens"),
        "generated_tokens": metrics.get("generated_tokens"),
    }
    if at.startswith("compaction:"):
        own = agent_summary(session, int(at.split(":")[1]))
        if own:
            row["agent"] = words(own, 120)
    return row


def main():
    ap = parser(__doc__)
    ap.add_argument("--summarizer", default="qwen2.5-0.5b")
    ap.add_argument("only", nargs="*", help="key names (file stems) to run; all when none")
    args = ap.parse_args()
    archives = archives_or_skip(args)
    if archives is None:
        return
    keys = sorted(Path(args.keys).glob("*.json"))
    if args.only:
        keys = [k for k in keys if k.stem in args.only]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for key_path in keys:
            row = run(args.bin, key_path, archives, Path(tmp), args.summarizer)
            rows.append(row)
            print(f"### {row['key']}\n")
            if row.get("refused"):
                print("refused (exit 5)\n")
                continue
            print(
                f"{args.summarizer}, {row['latency_s']} s in the summarizer of "
                f"{row['wall_s']} s wall; {row['prompt_tokens']} prompt and "
                f"{row['generated_tokens']} generated tokens (its own tokenizer); "
                f"whole sentences: {'yes' if row['whole_sentences'] else 'no'}\n"
            )
            print(f"> {row['narrative'] or '(empty)'}\n")
            if "agent" in row:
                print(f"The agent's own summary: {row['agent']}\n")
            sys.stdout.flush()
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
