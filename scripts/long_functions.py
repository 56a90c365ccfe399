#!/usr/bin/env python3
"""List functions longer than a limit (default 80 lines, signature to
closing brace) in the given source trees; exit 1 when any is found.

With --allow FILE, the functions it lists (`PATH::NAME` a line, `#`
comments) may stay long, but the list may only shrink: it fails when it
holds more than 5 entries, or one that is no longer a long function.

Usage: python3 scripts/long_functions.py [--max N] [--allow FILE] DIR...
"""

import argparse
import re
import sys
from pathlib import Path

FN = re.compile(r"^\s*(pub(\([a-z]+\))?\s+)?(const\s+|async\s+|unsafe\s+)*fn\s+(\w+)")


def functions(path: Path):
    lines = path.read_text().split("\n")
    i = 0
    while i < len(lines):
        m = FN.match(lines[i])
        if not m:
            i += 1
            continue
        depth, seen, j = 0, False, i
        while j < len(lines):
            code = re.sub(r"//.*", "", lines[j])
            code = re.sub(r'"(\\.|[^"\\])*"', '""', code)
            code = re.sub(r"'(\\.|[^'\\])'", "''", code)
            for ch in code:
                if ch == "{":
                    depth += 1
                    seen = True
                elif ch == "}":
                    depth -= 1
            if not seen and code.rstrip().endswith(";"):
                break  # a declaration without a body
            if seen and depth == 0:
                break
            j += 1
        yield m.group(4), i + 1, j - i + 1
        i += 1


MAX_ALLOWED = 5


def allowlist(path: str | None) -> set[str]:
    if path is None:
        return set()
    lines = (line.split("#")[0].strip() for line in Path(path).read_text().splitlines())
    return {line for line in lines if line}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--max", type=int, default=80)
    ap.add_argument("--allow", help="file of PATH::NAME entries that may stay long")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    allowed = allowlist(args.allow)
    seen: set[str] = set()
    bad = 0
    if len(allowed) > MAX_ALLOWED:
        print(f"{args.allow}: {len(allowed)} entries, at most {MAX_ALLOWED}")
        bad += 1
    for d in args.dirs:
        files = [Path(d)] if Path(d).is_file() else sorted(Path(d).rglob("*.rs"))
        for f in files:
            text = f.read_text()
            cut = text.find("#[cfg(test)]")
            limit_line = text[:cut].count("\n") + 1 if cut >= 0 else None
            for name, line, n in functions(f):
                if limit_line is not None and line >= limit_line:
                    continue
                if n > args.max:
                    if f"{f}::{name}" in allowed:
                        seen.add(f"{f}::{name}")
                        continue
                    print(f"{f}:{line}: fn {name} is {n} lines (> {args.max})")
                    bad += 1
    for entry in sorted(allowed - seen):
        print(f"{args.allow}: {entry} is no longer a long function; remove it")
        bad += 1
    if bad == 0:
        extra = f" but the {len(seen)} allowlisted" if seen else ""
        print(f"no function over {args.max} lines{extra}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
