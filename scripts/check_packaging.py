#!/usr/bin/env python3
"""Fail when a crate that may be published would not package.

`cargo package` ships only the files under a crate's folder, and a path
dependency without a version cannot be published. The workspace embeds
prompts, manifests and secret rules from the repository's top-level
folders (`prompts/`, `models/`), so every crate is `publish = false` and
installed from the clone (`cargo install --path crates/cli`). A crate that
drops `publish = false` must first bring its data inside its folder and
give its path dependencies versions; this check says which rule it breaks.

Prints each problem and exits 1, else 0.

Usage: python3 scripts/check_packaging.py [--self-test]
"""

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INCLUDE = re.compile(r'include_(?:str|bytes)!\(\s*"([^"]+)"')


def escaping_includes(crate_dir: Path) -> list[str]:
    """`include_str!`/`include_bytes!` paths that resolve outside the crate."""
    crate_dir = crate_dir.resolve()
    found = []
    for source in sorted(crate_dir.rglob("*.rs")):
        if "target" in source.relative_to(crate_dir).parts:
            continue
        text = source.read_text(encoding="utf-8", errors="replace")
        for match in INCLUDE.finditer(text):
            target = (source.parent / match.group(1)).resolve()
            if crate_dir not in target.parents:
                found.append(f"{source.relative_to(crate_dir)} includes {match.group(1)}")
    return found


def problems(package: dict) -> list[str]:
    """Why a package that may be published would not package; none when it may not."""
    if package.get("publish") == []:
        return []
    crate_dir = Path(package["manifest_path"]).parent
    issues = [f"{package['name']}: {line} (outside the crate)" for line in escaping_includes(crate_dir)]
    for dep in package.get("dependencies", []):
        if dep.get("path") and dep.get("req") in (None, "*") and dep.get("kind") != "dev":
            issues.append(f"{package['name']}: path dependency {dep['name']} has no version")
    return issues


def workspace_packages() -> list[dict]:
    out = subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    return json.loads(out)["packages"]


def self_test() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        crate = Path(tmp) / "crates" / "a"
        (crate / "src").mkdir(parents=True)
        (crate / "src" / "lib.rs").write_text(
            'const A: &str = include_str!("../../../prompts/x.txt");\n'
            'const B: &str = include_str!("../data/y.txt");\n'
        )
        manifest = str(crate / "Cargo.toml")
        publishable = {"name": "a", "manifest_path": manifest, "publish": None,
                       "dependencies": [{"name": "b", "path": "../b", "req": "*", "kind": None}]}
        found = problems(publishable)
        assert found == [
            "a: src/lib.rs includes ../../../prompts/x.txt (outside the crate)",
            "a: path dependency b has no version",
        ], found
        assert problems({**publishable, "publish": []}) == []
    print("check_packaging self-test passed")


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    found = [line for package in workspace_packages() for line in problems(package)]
    for line in found:
        print(line, file=sys.stderr)
    if found:
        print("a crate that may be published must package: bring its data inside it, "
              "version its path dependencies, or set `publish = false`", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
