#!/usr/bin/env bash
# Run every subcommand of two `continuity` binaries on the same inputs and
# diff what they print and write, with the clock masked. For refactors that
# must not change any output:
#
#   scripts/compare_outputs.sh OLD_BINARY NEW_BINARY [OUT_DIR]
#
# Covers compact (every strategy, the bundled example, the fixtures, the
# reference archives when ../shared is there, bad inputs), plan, kernel,
# preflight, ledger, adversarial, eval, replay, bench (its timing columns
# differ by nature) and every --help. Exit 1 when anything but timing differs.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
old=$(realpath "$1"); new=$(realpath "$2"); out=$(realpath -m "${3:-/tmp/continuity-compare}")
reference="${CONTINUITY_REFERENCE:-$repo/../shared/reference/mission-continuity}"
rm -rf "$out"; mkdir -p "$out"

capture() { # BIN DIR
  local bin=$1 dir=$2; mkdir -p "$dir"; cd "$repo"
  run() { local name=$1; shift; "$bin" "$@" > "$dir/$name.stdout" 2> "$dir/$name.stderr"; echo $? > "$dir/$name.rc"; }
  local ek=examples/billing-dispute/kernel.toml ep=examples/billing-dispute/policy.toml
  local rk=eval/billing-dispute/kernel.toml rp=eval/billing-dispute/policy.toml
  for s in governed summary-only kernel-only pins-only; do
    for sum in extractive none; do
      run "ex-$s-$sum" compact examples/billing-dispute/session.json --kernel $ek --policy $ep --strategy $s --summarizer $sum --out "$dir/ex-$s-$sum"
    done
  done
  run ex-nopolicy compact examples/billing-dispute/session.json --kernel $ek --out "$dir/ex-nopolicy"
  run ex-stdin compact - --kernel $ek --policy $ep --out "$dir/ex-stdin" < examples/billing-dispute/session.json
  for f in tests/fixtures/openai/*.json tests/fixtures/pydantic/small.json; do
    run "fx-$(basename "$f" .json)" compact "$f" --kernel $ek --out "$dir/fx-$(basename "$f" .json)"
  done
  for f in tests/fixtures/invalid/*; do
    run "inv-$(basename "$f")" compact "$f" --kernel $ek --out "$dir/inv-$(basename "$f")"
    run "invk-$(basename "$f")" compact examples/billing-dispute/session.json --kernel "$f" --out "$dir/invk-$(basename "$f")"
  done
  if [ -d "$reference/replays" ]; then
    for a in "$reference"/replays/*/run/archive/*.json; do
      local n; n=$(echo "$a" | sed 's#.*/replays/##; s#/run/archive/#-#; s#.json##')
      for s in governed summary-only; do
        run "ref-$n-$s" compact - --kernel $rk --policy $rp --strategy $s --out "$dir/ref-$n-$s" < "$a"
      done
    done
    run replay replay "$reference"/replays/* --kernel $rk --policy $rp --key eval/billing-dispute/key.toml --out "$dir/replay" --summarizers none,extractive,recorded --damage CF1 -q
  fi
  run plan plan examples/billing-dispute/session.json --kernel $ek --policy $ep
  run plan-json plan examples/billing-dispute/session.json --kernel $ek --policy $ep --json
  run kinit kernel init
  run khash kernel hash $ek
  run adversarial adversarial
  run adversarial-json adversarial --json
  run preflight preflight --kernel $ek examples/billing-dispute/session.json
  run preflight-json preflight --kernel $ek examples/billing-dispute/session.json --json
  run eval eval --input examples/billing-dispute/session.json --key examples/billing-dispute/key.toml --summary "$dir/ex-governed-extractive/summary.txt"
  run eval-json eval --input examples/billing-dispute/session.json --key examples/billing-dispute/key.toml --summary "$dir/ex-governed-extractive/summary.txt" --json
  run replay-ex replay examples/billing-dispute/session.json --kernel $ek --policy $ep --key examples/billing-dispute/key.toml --out "$dir/replay-ex" -q
  run bench bench examples/billing-dispute/session.json --kernel $ek --policy $ep --summarizers extractive,none --csv "$dir/bench.csv" -q
  local l="$dir/ledger.jsonl"
  run led-prep ledger prepare "$l" --run-id r1 --effect-id e1 --tool issue_refund --args '{"amount": 5}'
  run led-commit ledger commit "$l" --run-id r1 --effect-id e1 --receipt rc-1
  run led-verify ledger verify "$l" --json
  run led-rec ledger reconcile "$l"
  for c in compact plan preflight "ledger verify" "memory propose" adversarial eval eval-bench eval-train replay bench generate "kernel init"; do
    "$bin" $c --help > "$dir/help-${c// /-}.txt" 2>&1
  done
  "$bin" --help > "$dir/help.txt" 2>&1
  for db in "$dir"/replay*/replay.sqlite; do
    [ -f "$db" ] && python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print('\n'.join(c.iterdump()))" "$db" > "$db.dump" && rm "$db"
  done
  # The clock: timestamps, durations, the seals and chain hashes over them.
  python3 - "$dir" "$bin" <<'PY'
import os, re, sys
root, bin_ = sys.argv[1], sys.argv[2]
ts = re.compile(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)')
num = re.compile(r'"(latency_ms|policy_freshness_s|load_ms|compaction_ms|summarizer_ms|seconds_median|seconds_mean|model_load_seconds)":\s*-?[0-9.e+-]+')
seal = re.compile(r'"seal":\s*"[0-9a-f]{64}"')
hexes = re.compile(r'"(prev|sha256|head)":\s*"[0-9a-f]{64}"')
for d, _, files in os.walk(root):
    for f in files:
        p = os.path.join(d, f)
        try:
            s = open(p, encoding="utf-8").read()
        except (UnicodeDecodeError, IsADirectoryError):
            continue
        t = s.replace(root, "<OUT>").replace(bin_, "continuity").replace(os.path.basename(bin_), "continuity")
        t = ts.sub("<TS>", t)
        t = num.sub(lambda m: f'"{m.group(1)}": <N>', t)
        t = seal.sub('"seal": "<H>"', t)
        if f.startswith("led") or f == "ledger.jsonl":
            t = hexes.sub(lambda m: f'"{m.group(1)}": "<H>"', t)
        t = re.sub(r"policy loaded [0-9.]+s ago", "policy loaded <N>s ago", t)
        if f == "bench.csv":
            t = "\n".join(",".join(c for i, c in enumerate(l.split(",")) if i not in (7, 17)) for l in t.split("\n"))
        if f == "bench.stdout":
            t = re.sub(r"\| (\d+\.\d+) \| (\d+\.\d+) \|", "| <N> | <N> |", t)
        if t != s:
            open(p, "w", encoding="utf-8").write(t)
PY
}

capture "$old" "$out/old"
capture "$new" "$out/new"
if diff -r "$out/old" "$out/new" > "$out/diff.txt"; then
  echo "identical (clock masked): $out"
else
  echo "outputs differ: $out/diff.txt"; head -40 "$out/diff.txt"; exit 1
fi
