#!/usr/bin/env python3
"""Fail when the docs point at something that is not there.

- docs/architecture.md: every source file or folder it names in backticks
  (`compact/retain.rs`, `evidence/`, `crates/core/src/io.rs`) exists. A name
  relative to a crate's source is matched by its whole trailing path
  components, so `compact/retain.rs` must be some `…/compact/retain.rs`.
- README.md and docs/*.md: every path from the repository root they name in
  backticks (`crates/…`, `scripts/…`, `eval/…`) exists, and every relative
  markdown link resolves to a file, and its `#anchor` to a heading there
  (GitHub's slugs).

Prints each miss and exits 1, else 0.

Usage: python3 scripts/check_docs.py [--self-test]
"""

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"`([^`\s]+)`")
# A name that reads as a source path: a folder, or a file of the repository's kinds.
SOURCE = re.compile(r"^[\w./*{},<>-]*(/|\.(rs|toml|py|txt|md|sh))$")
ROOTED = ("crates/", "scripts/", "docs/", "eval/", "models/", "prompts/", "tests/", "benches/", "examples/")
LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def repo_paths(root: Path) -> set[str]:
    """Tracked files and their folders, as root-relative strings."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=True).stdout
        files = [line for line in out.splitlines() if line]
    except (OSError, subprocess.CalledProcessError):
        files = [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and ".git" not in p.parts]
    paths = set(files)
    for f in files:
        parts = f.split("/")
        for n in range(1, len(parts)):
            paths.add("/".join(parts[:n]) + "/")
    return paths


def prose(text: str) -> list[tuple[int, str]]:
    """Lines outside fenced code blocks, numbered from 1."""
    out, fenced = [], False
    for n, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append((n, line))
    return out


def expand(name: str) -> list[str]:
    """`a/{b,c}.rs` is `a/b.rs` and `a/c.rs`."""
    m = re.search(r"\{([^{}]*)\}", name)
    if not m:
        return [name]
    return [x for alt in m.group(1).split(",") for x in expand(name[: m.start()] + alt + name[m.end() :])]


def matches(pattern: str, path: str) -> bool:
    """Whether the trailing components of `path` are `pattern` (`*` within one)."""
    want = pattern.rstrip("/").split("/")
    have = path.rstrip("/").split("/")
    if len(have) < len(want) or pattern.endswith("/") != path.endswith("/"):
        return False
    tail = have[len(have) - len(want) :]
    return all(re.fullmatch(re.escape(w).replace(r"\*", "[^/]*"), h) for w, h in zip(want, tail))


def exists(name: str, paths: set[str], anywhere: bool) -> bool:
    for alt in expand(name):
        rooted = [p for p in paths if matches(alt, p) and p.count("/") - p.endswith("/") == alt.count("/") - alt.endswith("/")]
        if not (rooted or (anywhere and any(matches(alt, p) for p in paths))):
            return False
    return True


def named_paths(doc: Path, paths: set[str], root: Path) -> list[str]:
    """Misses among the source paths `doc` names in backticks."""
    anywhere = doc.name == "architecture.md"
    misses = []
    for n, line in prose(doc.read_text()):
        for name in CODE.findall(line):
            if not SOURCE.match(name) or "<" in name or name.startswith(("..", "/", "~")):
                continue
            if not anywhere and not name.startswith(ROOTED):
                continue
            if name == "target/" or exists(name, paths, anywhere):
                continue
            misses.append(f"{doc.relative_to(root)}:{n}: `{name}` names no file or folder")
    return misses


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation out, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for _, line in prose(doc.read_text()):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not m:
            continue
        base = slug(m.group(1))
        k = seen.get(base, 0)
        seen[base] = k + 1
        out.add(base if k == 0 else f"{base}-{k}")
    return out


def links(doc: Path, root: Path) -> list[str]:
    """Misses among the relative links in `doc`."""
    misses = []
    for n, line in prose(doc.read_text()):
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # http:, https:, mailto:
            path, _, anchor = target.partition("#")
            dest = (doc.parent / path).resolve() if path else doc
            where = f"{doc.relative_to(root)}:{n}"
            if not dest.exists():
                misses.append(f"{where}: link to {target}: no {path}")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                misses.append(f"{where}: link to {target}: no heading #{anchor} in {dest.name}")
    return misses


def check(root: Path) -> list[str]:
    paths = repo_paths(root)
    misses = []
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        if doc.exists():
            misses += named_paths(doc, paths, root) + links(doc, root)
    return misses


def self_test() -> int:
    """The check passes a tree that matches its docs and names each planted miss."""
    assert slug("The `compact` pipeline: stage 1 (parse)") == "the-compact-pipeline-stage-1-parse"
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "crates/core/src/compact").mkdir(parents=True)
        (root / "crates/core/src/compact/retain.rs").write_text("")
        (root / "docs").mkdir()
        (root / "docs/other.md").write_text("# Other\n\n## A `b` c\n")
        (root / "README.md").write_text("[o](docs/other.md#a-b-c) `crates/core/src/compact/`\n")
        (root / "docs/architecture.md").write_text("`compact/retain.rs` `compact/` [r](../README.md)\n")
        assert check(root) == [], check(root)
        (root / "docs/architecture.md").write_text("`retain.rs` `evidence.rs` `compact/budget.rs`\n")
        (root / "README.md").write_text("[o](docs/other.md#nope) [p](docs/gone.md) `crates/cli/`\n")
        got = check(root)
        assert len(got) == 5 and not any("`retain.rs`" in m for m in got), got
    print("check_docs self-test passed")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    misses = check(ROOT)
    for m in misses:
        print(m)
    if misses:
        return 1
    print("docs: every named path and link resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
