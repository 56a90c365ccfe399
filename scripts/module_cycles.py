#!/usr/bin/env python3
"""Fail when modules of a crate depend on each other in a cycle.

For every reference `crate::a::b::…` or `super::…` in crates/*/src, the
edge is taken at the level where the two module paths part: a reference
from `replay::report` to `replay::store` is an edge report -> store inside
`replay`; one from `governance::pin` to `kernel` is governance -> kernel at
the top. A module using its own ancestor (`super::Effect` in a child of
`governance`) is not an edge. Grouped imports are expanded first:
`use super::{a, b::{c, d}}` is `super::a`, `super::b::c` and `super::b::d`.
Prints each cycle and exits 1, else 0.

Usage: python3 scripts/module_cycles.py [CRATES_DIR]
       python3 scripts/module_cycles.py --self-test
"""

import re
import sys
import tempfile
from pathlib import Path

REF = re.compile(r"\b(crate|super(?:::super)*)((?:::[a-z_][a-z0-9_]*)+)")
# A `use` item whose tree holds a group: its body runs to the `;`.
USE = re.compile(r"\buse\s+((?:crate|super|self)\b[^;]*\{[^;]*);")


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


def use_paths(tree: str) -> list[str]:
    """Flatten a use tree (`crate::x::{y, z::{w as v, self}}`) to paths."""
    tokens = re.findall(r"[A-Za-z_][A-Za-z0-9_]*|::|[{},*]", tree)
    pos = 0

    def parse(prefix: list[str]) -> list[list[str]]:
        nonlocal pos
        path = list(prefix)
        out: list[list[str]] = []
        while pos < len(tokens):
            tok = tokens[pos]
            if tok == "{":
                pos += 1
                while pos < len(tokens) and tokens[pos] != "}":
                    out += parse(path)
                    if pos < len(tokens) and tokens[pos] == ",":
                        pos += 1
                pos += 1  # the closing brace
                return out
            if tok in (",", "}"):
                break
            if tok == "as":
                pos += 2  # the alias names nothing new
                continue
            if tok == "self":
                pass  # `x::{self}` is `x`; a leading `self` is the module itself
            elif tok not in ("::", "*"):
                path.append(tok)
            pos += 1
        return out + [path]

    return ["::".join(p) for p in parse([])]


def expand_uses(text: str) -> str:
    """Rewrite each grouped `use` as one flat path a line."""

    def flat(m: re.Match) -> str:
        return "\n".join(f"use {p};" for p in use_paths(m.group(1)))

    return USE.sub(flat, text)


def edges(src: Path) -> set:
    mods = modules(src)
    known = set(mods)
    out = set()
    for here, file in mods.items():
        text = expand_uses(strip_comments(file.read_text()))
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


def report(root: Path) -> int:
    """Print each cycle under root/*/src; the number found."""
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
    return bad


PLANTED = {
    "lib.rs": "mod a;\nmod b;\nmod c;\n",
    # a -> b only through a nested group; b -> a only through a plain group.
    "a.rs": "use crate::{c, b::{inner::{Thing, self}}};\n",
    "b.rs": "pub mod inner;\nuse super::{a as other, c::C};\n",
    "b/inner.rs": "pub struct Thing;\n",
    "c.rs": "pub struct C;\n",
}


def self_test() -> int:
    """The check finds a cycle that only grouped imports close, and none
    once the back edge is gone."""
    assert use_paths("super::{a, b::{c, d as e}, self}") == ["super::a", "super::b::c", "super::b::d", "super"]
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "x" / "src"
        for name, body in PLANTED.items():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_text(body)
        found = edges(src)
        assert ((), "a", "b") in found and ((), "b", "a") in found, found
        assert report(Path(tmp)) == 1, "the planted cycle was not found"
        (src / "b.rs").write_text("pub mod inner;\nuse super::{c::C};\n")
        assert report(Path(tmp)) == 0, "a cycle was found where there is none"
    print("module_cycles self-test passed")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "crates")
    if report(root):
        return 1
    print("no module cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
