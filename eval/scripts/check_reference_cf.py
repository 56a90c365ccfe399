#!/usr/bin/env python3
"""Check our inferred tracked-fact definitions against the reference records.

The reference build (github.com/crescerelabs/mission-continuity) recorded, for
every compaction, which of six tracked facts (CF1..CF6) and which kernel terms
were present in the exact text sent to the model after the compaction. It
never published the fact definitions. eval/billing-dispute/key.toml holds our
inferred definitions; this script reconstructs the post-compaction text for
every recorded compaction and checks that our keyword checks reproduce the
recorded results exactly.

Next-request text (what the model saw after compaction N):
    instructions_text          (recorded; governed runs carry the Kernel here)
  + assembled_head             (recorded; summary, and in governed runs pins)
  + the tail                   (archive cmp-N's last response + last request:
                                the latest round of tool calls and returns;
                                returns listed in tail_stubbed_tool_call_ids
                                are replaced by a stub that keeps only the
                                tool call id and tool name)

Tool schemas are not part of the checked text (tool names such as
modify_transaction would otherwise make "modify" present everywhere, which the
records contradict).

The offline LFM2.5 re-summary (offline_resummaries/*/cmp-*.liquid.json) is
checked the same way, with its summary in place of the recorded one.

Reference location: $CONTINUITY_REFERENCE, else
<repo root>/../shared/reference/mission-continuity. The reference data has no
license; this script only reads it and writes nothing.

Exit status: 0 all records reproduced; 1 any mismatch; 2 reference or key
file missing.
"""
from __future__ import annotations

import glob
import json
import os
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
KEY = REPO / "eval" / "billing-dispute" / "key.toml"
BASELINE_HEAD = "Summary of the work so far:\n"


def reference_dir() -> Path:
    env = os.environ.get("CONTINUITY_REFERENCE")
    if env:
        return Path(env)
    return (REPO / ".." / "shared" / "reference" / "mission-continuity").resolve()


def as_text(value) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def render_part(part: dict, stubbed: set[str]) -> str:
    kind = part.get("part_kind")
    if kind == "tool-call":
        return f"[tool call {part['tool_call_id']} {part['tool_name']}] {as_text(part.get('args'))}"
    if kind == "tool-return":
        head = f"[tool result {part['tool_call_id']} {part['tool_name']}]"
        if part["tool_call_id"] in stubbed:
            return f"{head} (large result stubbed)"
        return f"{head} {as_text(part.get('content'))}"
    return f"[{kind}] {as_text(part.get('content'))}"


def tail_text(archive: list, stubbed: set[str]) -> str:
    tail = archive[-2:]
    kinds = [m.get("kind") for m in tail]
    if kinds != ["response", "request"]:
        raise ValueError(f"archive tail is {kinds}, expected response+request")
    ids = {p.get("tool_call_id") for m in tail for p in m["parts"]}
    unknown = stubbed - ids
    if unknown:
        raise ValueError(f"stubbed ids not in tail: {sorted(unknown)}")
    return "\n".join(render_part(p, stubbed) for m in tail for p in m["parts"])


def check(text: str, key: dict) -> dict:
    low = text.lower()
    terms = key["mission_terms"]
    facts = key["fact"]
    present = [f["id"] for f in facts if all(t.lower() in low for t in f["key_terms"])]
    return {
        "kernel_terms_present": [t for t in terms if t.lower() in low],
        "kernel_terms_missing": [t for t in terms if t.lower() not in low],
        "cf_present": present,
        "cf_missing": [f["id"] for f in facts if f["id"] not in present],
    }


FIELDS = ("kernel_terms_present", "kernel_terms_missing", "cf_present", "cf_missing")


def compare(ours: dict, recorded: dict) -> list[str]:
    return [
        f"{k}: ours={ours[k]} recorded={recorded.get(k)}"
        for k in FIELDS
        if ours[k] != recorded.get(k)
    ]


def fmt(res: dict) -> str:
    cf = ",".join(res["cf_missing"]) or "-"
    kt = ",".join(res["kernel_terms_missing"]) or "-"
    return f"cf_missing={cf:<18} terms_missing={kt}"


def main() -> int:
    ref = reference_dir()
    if not (ref / "replays").is_dir():
        print(f"reference data not found at {ref} (set CONTINUITY_REFERENCE)", file=sys.stderr)
        return 2
    if not KEY.is_file():
        print(f"key file not found: {KEY}", file=sys.stderr)
        return 2
    key = tomllib.loads(KEY.read_text())

    print(f"reference: {ref}")
    print(f"key:       {KEY.relative_to(REPO)}")
    for f in key["fact"]:
        print(f"  {f['id']}: {f['key_terms']}")
    print()

    checked = 0
    failures: list[str] = []
    records: dict[tuple[str, str], dict] = {}
    for path in sorted(glob.glob(str(ref / "replays" / "*" / "run" / "compactions.jsonl"))):
        run = Path(path).parents[1].name
        run_dir = Path(path).parent
        for line in Path(path).read_text().splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            cid = rec["compaction_id"]
            label = f"{run}/{cid}"
            try:
                archive = json.loads((run_dir / rec["archive_ref"]).read_text())
                stubbed = set(rec.get("tail_stubbed_tool_call_ids") or [])
                tail = tail_text(archive, stubbed)
            except (OSError, ValueError, KeyError) as e:
                failures.append(f"{label}: cannot reconstruct: {e}")
                print(f"FAIL {label:<24} cannot reconstruct: {e}")
                continue
            records[(run, cid)] = {"rec": rec, "tail": tail}
            text = "\n".join([rec["instructions_text"], rec["assembled_head"], tail])
            ours = check(text, key)
            diff = compare(ours, rec["context_checks"])
            checked += 1
            status = "ok  " if not diff else "FAIL"
            print(f"{status} {label:<24} {rec['mode']:<9} fi={rec.get('fault_injection', '-'):<5} {fmt(ours)}")
            for d in diff:
                failures.append(f"{label}: {d}")
                print(f"       {d}")

    print()
    for path in sorted(glob.glob(str(ref / "offline_resummaries" / "*" / "*.json"))):
        off = json.loads(Path(path).read_text())
        run, cid = off["run"], off["compaction_id"]
        label = f"offline {run}/{cid}"
        base = records.get((run, cid))
        if base is None or off.get("summary") is None:
            failures.append(f"{label}: no matching compaction record or no summary")
            print(f"FAIL {label}: no matching compaction record or no summary")
            continue
        rec = base["rec"]
        if rec["mode"] != "baseline" or not rec["assembled_head"].startswith(BASELINE_HEAD):
            failures.append(f"{label}: expected a summary-only compaction")
            continue
        text = "\n".join([rec["instructions_text"], BASELINE_HEAD + off["summary"], base["tail"]])
        ours = check(text, key)
        diff = compare(ours, off["checks"])
        checked += 1
        status = "ok  " if not diff else "FAIL"
        print(f"{status} {label:<24} {'LFM2.5':<9} {'':<8} {fmt(ours)}")
        for d in diff:
            failures.append(f"{label}: {d}")
            print(f"       {d}")
        # The reference noted an empty summary scores the same, because the
        # tail carries the other facts. Informational only.
        empty = check("\n".join([rec["instructions_text"], BASELINE_HEAD, base["tail"]]), key)
        same = "same as" if all(empty[k] == off["checks"][k] for k in FIELDS) else "differs from"
        print(f"     (empty-summary control: {fmt(empty)}; {same} the LFM2.5 checks)")

    print()
    if failures:
        print(f"MISMATCH: {len(failures)} difference(s) over {checked} checked record(s)")
        return 1
    print(f"all {checked} records reproduced exactly (cf_present/cf_missing, kernel_terms_present/missing)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
