#!/usr/bin/env python3
"""Fail when modules of a crate depend on each other in a cycle.

For every reference `crate::a::b::…` or `super::…` in crates/*/src, the
edge is taken at the level where the two module paths part: a reference
from `replay::report` to `replay::store` is an edge report -> store inside
`replay`; one from `governance::pin` to `kernel` is governance -> kernel at
the top. A module using its own ancestor (`super::Effect` in a child of
`governance`) is not an edge. Prints each cycle and exits 1, else 0.

Usage: python3 scripts/module_cycles.py [CRATES_DIR]
"""

import re
import sys
from pathlib import Path

REF = re.compile(r"\b(crate|super(?:::super)*)((?:::[a-z_][a-z0-9_]*)+)")


def module_path(src: Path, file: Path) -> list[str]:
    rel = file.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return parts


def modules(src: Path) -> dict[tuple, Path]:
    return {tuple(module_path(src, f)): f for f in src.rglob("*.rs")}


def resolve(known: set, path: list[str]) -> tuple:
    """The longest prefix of `path` that is a module."""
    for n in range(len(path), -1, -1):
        if tuple(path[:n]) in known:
            return tuple(path[:n])
    return ()


def strip_comments(text: str) -> str:
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*.*?\*/", "", text, flags=re.S)


def edges(src: Path) -> set:
    mods = modules(src)
    known = set(mods)
    out = set()
    for here, file in mods.items():
        text = strip_comments(file.read_text())
        # Code under #[cfg(test)] may use anything; it ships in no build.
        cut = text.find("#[cfg(test)]")
        if cut >= 0:
            text = text[:cut]
        for m in REF.finditer(text):
            head, rest = m.group(1), [p for p in m.group(2).split("::") if p]
            if head == "crate":
                base = []
            else:
                ups = head.count("super")
                # A mod.rs file is its folder's module: `super` leaves it.
                base = list(here)[: max(0, len(here) - ups)]
            target = resolve(known, base + rest)
            a, b = list(here), list(target)
            k = 0
            while k < min(len(a), len(b)) and a[k] == b[k]:
                k += 1
            if k == len(a) or k == len(b):
                continue  # the same module, an ancestor or a descendant
            out.add((tuple(a[:k]), a[k], b[k]))
    return out


def cycles(graph: dict) -> list:
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "crates")
    bad = 0
    for src in sorted(root.glob("*/src")):
        by_parent: dict = {}
        for parent, a, b in edges(src):
            by_parent.setdefault(parent, {}).setdefault(a, set()).add(b)
        for parent, graph in sorted(by_parent.items()):
            for comp in cycles(graph):
                where = "::".join(parent) or "crate root"
                print(f"{src.parent.name}: module cycle in {where}: {' <-> '.join(comp)}")
                bad += 1
    if bad:
        return 1
    print("no module cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
