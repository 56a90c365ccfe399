"""Batch compaction and replay on Ray Data.

:func:`compact_dataset` compacts every archive of a folder or manifest, as
``continuity compact ARCHIVE --out OUT/<archive>`` would, on a Ray Data
actor pool: each actor loads the kernel, the policy, the tokenizer and the
summarizer's model once and compacts archive after archive. One row per
archive (the report's figures, the output paths, the error if any; status
``ok``, ``error``, or ``skipped`` for a file that is not a session) goes to
``OUT/results.parquet``. Re-running skips every archive whose output folder
already holds a report made with the same kernel, policy, strategy,
summarizer and tokenizer (the five files are moved into place together, so
a report means a complete compaction), so an interrupted run resumes where
it stopped. :func:`replay_dataset` does the same for replay conditions:
one row per session and condition.

It runs unchanged on a laptop and on a cluster: ``ray.init()`` starts a
local Ray, or joins the cluster named by ``RAY_ADDRESS``. On a cluster,
every node needs the ``continuity`` package, the archives and ``OUT`` on a
shared path, and for a model summarizer the model files in
``$CONTINUITY_MODELS_DIR`` (default ``~/.cache/continuity/models``; fetch
them with ``models/fetch.py`` on each node, or point the variable at a
shared folder: the driver's value is passed to every worker).

Command line: ``python -m continuity.ray compact SOURCE --kernel K.toml
--policy P.toml --out OUT [--summarizer NAME] [--workers N]`` and
``python -m continuity.ray replay SESSION... --kernel K.toml --policy
P.toml --key KEY.toml --out OUT``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence, Union

import pyarrow as pa
import pyarrow.parquet as pq

import continuity

__all__ = [
    "COMPACT_SCHEMA",
    "REPLAY_SCHEMA",
    "compact_dataset",
    "find_archives",
    "replay_dataset",
]

PathLike = Union[str, "os.PathLike[str]"]

#: Environment variables the driver passes to every worker.
PASSED_ENV = (
    "CONTINUITY_MODELS_DIR",
    "CONTINUITY_PREPARED_DIR",
    "HF_HUB_OFFLINE",
    "HF_HOME",
    "RAYON_NUM_THREADS",
)

COMPACT_SCHEMA = pa.schema(
    [
        ("archive", pa.string()),
        ("id", pa.string()),
        ("status", pa.string()),
        ("error", pa.string()),
        ("exit_code", pa.int32()),
        ("resumed", pa.bool_()),
        ("strategy", pa.string()),
        ("summarizer", pa.string()),
        ("tokenizer", pa.string()),
        ("format", pa.string()),
        ("kernel_sha256", pa.string()),
        ("policy_sha256", pa.string()),
        ("tokens_before", pa.int64()),
        ("tokens_after", pa.int64()),
        ("fixed_overhead", pa.int64()),
        ("kernel_tokens", pa.int64()),
        ("pinned_tokens", pa.int64()),
        ("summary_tokens", pa.int64()),
        ("tail_tokens", pa.int64()),
        ("reduction_pct", pa.float64()),
        ("floor_required", pa.int64()),
        ("floor_met", pa.bool_()),
        ("would_trigger", pa.bool_()),
        ("summary_words", pa.int64()),
        ("summarizer_latency_ms", pa.float64()),
        ("seconds", pa.float64()),
        ("worker", pa.string()),
        ("out_dir", pa.string()),
        ("request_path", pa.string()),
        ("audit_path", pa.string()),
        ("report_path", pa.string()),
        ("summary_path", pa.string()),
        ("policy_pin_path", pa.string()),
    ]
)

REPLAY_SCHEMA = pa.schema(
    [
        ("session", pa.string()),
        ("condition", pa.string()),
        ("strategy", pa.string()),
        ("summarizer", pa.string()),
        ("damage", pa.string()),
        ("status", pa.string()),
        ("error", pa.string()),
        ("exit_code", pa.int32()),
        ("resumed", pa.bool_()),
        ("requests", pa.int64()),
        ("compactions", pa.int64()),
        ("actions", pa.int64()),
        ("prohibited_actions", pa.int64()),
        ("prohibited_with_constraint", pa.int64()),
        ("checks_after_compaction", pa.int64()),
        ("present_after_compaction", pa.int64()),
        ("mean_reduction_pct", pa.float64()),
        ("tokens_total", pa.int64()),
        ("seconds", pa.float64()),
        ("worker", pa.string()),
        ("out_path", pa.string()),
    ]
)


# -- inputs -----------------------------------------------------------------


def find_archives(source: Union[PathLike, Iterable[PathLike]], pattern: str = "**/*.json") -> list[Path]:
    """The archives to compact: every file under a folder matching
    ``pattern``, the files a manifest lists (one path per line, relative to
    the manifest's folder; ``#`` starts a comment), or the paths given."""
    if isinstance(source, (str, os.PathLike)):
        p = Path(source)
        if p.is_dir():
            return sorted(f for f in p.glob(pattern) if f.is_file())
        if p.is_file():
            lines = [line.split("#", 1)[0].strip() for line in p.read_text().splitlines()]
            return [(p.parent / line) for line in lines if line]
        raise continuity.InputError(f"{p}: cannot read: no such file or folder")
    return [Path(s) for s in source]


def _common_root(paths: Sequence[Path]) -> Path:
    if not paths:
        return Path(".")
    return Path(os.path.commonpath([str(p.parent.resolve()) for p in paths]))


def _archive_id(path: Path, root: Path) -> str:
    rel = path.resolve().relative_to(root)
    return str(rel.with_suffix("")) if rel.suffix == ".json" else str(rel)


def _document(what: str, path: PathLike) -> tuple[str, str]:
    """A kernel, policy or key file as (TOML text, its path), so workers
    need not see the driver's files."""
    try:
        return Path(path).read_text(), str(path)
    except OSError as e:
        raise continuity.InputError(f"{path}: cannot read {what}: {e}") from None


def _env() -> dict[str, str]:
    return {k: os.environ[k] for k in PASSED_ENV if k in os.environ}


def _init_ray() -> Any:
    import ray

    if not ray.is_initialized():
        # Local, or the cluster named by RAY_ADDRESS.
        ray.init(ignore_reinit_error=True, log_to_driver=False)
    return ray


def _write_parquet(rows: list[dict[str, Any]], schema: pa.Schema, path: Path) -> None:
    """Write the table next to `path` and move it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist(rows, schema=schema)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


#: What the error for a file of no format ``continuity`` reads says after
#: the file's name (the CLI's message for an undetected format).
_NOT_A_SESSION = ": unknown request format: "


def _error_fields(e: BaseException) -> dict[str, Any]:
    """The row's status, error and exit code: ``skipped`` for a file that is
    not a session at all (a manifest, a report, a configuration beside the
    archives: its format is not detected), ``error`` for anything else, a
    malformed session among them."""
    message = str(e) or type(e).__name__
    if isinstance(e, continuity.InputError) and _NOT_A_SESSION in message:
        return {"status": "skipped", "error": message, "exit_code": 0}
    code = getattr(e, "exit_code", 1) if isinstance(e, continuity.ContinuityError) else 1
    return {"status": "error", "error": message, "exit_code": code}


def _worker() -> str:
    return f"{os.uname().nodename}:{os.getpid()}"


# -- compaction -------------------------------------------------------------


def _compact_row(archive: str, archive_id: str, out_dir: Path, report: dict[str, Any]) -> dict[str, Any]:
    t = report["tokens"]
    s = report["summarizer"]
    return {
        "archive": archive,
        "id": archive_id,
        "status": "ok",
        "error": None,
        "exit_code": 0,
        "resumed": False,
        "strategy": report["strategy"],
        "summarizer": s["name"],
        "tokenizer": report["tokenizer"],
        "format": report["format"],
        "kernel_sha256": report["kernel"]["sha256"],
        "policy_sha256": report["policy"]["sha256"],
        "tokens_before": t["before"],
        "tokens_after": t["after"],
        "fixed_overhead": t["fixed_overhead"],
        "kernel_tokens": t["kernel"],
        "pinned_tokens": t["pinned"],
        "summary_tokens": t["summary"],
        "tail_tokens": t["tail"],
        "reduction_pct": report["reduction_pct"],
        "floor_required": report["floor"]["required"],
        "floor_met": report["floor"]["met"],
        "would_trigger": report["trigger"]["would_trigger"],
        "summary_words": s["words"],
        "summarizer_latency_ms": s["latency_ms"],
        "out_dir": str(out_dir),
        **{f"{name.split('.')[0]}_path": str(out_dir / name) for name in continuity.OUTPUT_FILES},
    }


def _same_config(report: dict[str, Any], config: dict[str, Any]) -> bool:
    return (
        report.get("strategy") == config["strategy"]
        and report.get("summarizer", {}).get("name") == config["summarizer_name"]
        and report.get("tokenizer") == config["tokenizer_name"]
        and report.get("kernel", {}).get("sha256") == config["kernel_sha256"]
        and report.get("policy", {}).get("sha256") == config["policy_sha256"]
    )


def _completed(item: dict[str, Any], config: dict[str, Any]) -> Optional[dict[str, Any]]:
    """The row of an archive an earlier run compacted with this
    configuration, or ``None`` when it still has to be compacted."""
    out_dir = Path(item["out_dir"])
    report_path = out_dir / "report.json"
    if not report_path.is_file():
        return None
    try:
        report = json.loads(report_path.read_text())
    except (OSError, ValueError):
        return None
    if not _same_config(report, config):
        return None
    row = _compact_row(item["archive"], item["id"], out_dir, report)
    row.update(resumed=True, seconds=0.0, worker=None)
    return row


class _Compactor:
    """A Ray Data actor: kernel, policy, tokenizer and summarizer loaded once
    (the model included), then one compaction per archive."""

    def __init__(self, config: dict[str, Any]) -> None:
        os.environ.update(config["env"])
        os.environ.setdefault("RAYON_NUM_THREADS", str(config["threads"]))
        self.config = config
        self.kernel = continuity.Kernel.from_toml(*config["kernel"])
        self.policy = continuity.Policy.from_toml(*config["policy"]) if config["policy"] else continuity.Policy()
        self.tokenizer = continuity.TokenCounter(config["tokenizer"])
        self.summarizer = continuity.Summarizer(config["summarizer"])
        self.summarizer.load()

    def one(self, item: dict[str, Any]) -> dict[str, Any]:
        start = time.perf_counter()
        out_dir = Path(item["out_dir"])
        base = {k: None for k in COMPACT_SCHEMA.names}
        base.update(archive=item["archive"], id=item["id"], out_dir=str(out_dir), resumed=False)
        try:
            if out_dir.exists() and any(out_dir.iterdir()):
                raise continuity.InputError(
                    f"{out_dir}: output directory problem: holds a compaction made with another "
                    "configuration (or an unfinished one); remove it or choose another out"
                )
            c = continuity.compact(
                Path(item["archive"]),
                self.kernel,
                self.policy,
                strategy=self.config["strategy"],
                summarizer=self.summarizer,
                tokenizer=self.tokenizer,
                out=out_dir,
            )
            row = _compact_row(item["archive"], item["id"], out_dir, c.report)
        except Exception as e:  # one row per archive, errors included
            row = {**base, **_error_fields(e)}
        row.update(seconds=time.perf_counter() - start, worker=_worker())
        return row

    def __call__(self, batch: pa.Table) -> pa.Table:
        return pa.Table.from_pylist([self.one(i) for i in batch.to_pylist()], schema=COMPACT_SCHEMA)


def compact_dataset(
    source: Union[PathLike, Iterable[PathLike]],
    *,
    kernel: PathLike,
    policy: Optional[PathLike] = None,
    out: PathLike,
    strategy: str = "governed",
    summarizer: str = "extractive",
    tokenizer: Optional[str] = None,
    workers: int = 1,
    cpus_per_worker: float = 1,
    results: Optional[PathLike] = None,
    root: Optional[PathLike] = None,
    pattern: str = "**/*.json",
) -> dict[str, Any]:
    """Compact every archive of ``source`` (a folder, a manifest, or paths)
    on a Ray Data pool of ``workers`` actors with ``cpus_per_worker`` CPUs
    each (the model runs that many threads).

    Archive ``root/A/B.json`` goes to ``out/A/B/`` (``root``: the archives'
    common folder). Rows go to ``results`` (default
    ``out/results.parquet``), written once the run ends; archives compacted
    by an earlier run with the same configuration are not compacted again
    (their rows have ``resumed`` set). A file that is not a session (its
    format is not detected: a manifest, a report) gets a ``skipped`` row,
    not an ``error`` one. Returns the run's counts and the results path.
    """
    started = time.perf_counter()
    archives = find_archives(source, pattern)
    root_dir = Path(root).resolve() if root is not None else _common_root(archives)
    out_dir = Path(out)
    results_path = Path(results) if results is not None else out_dir / "results.parquet"
    kernel_doc = _document("kernel", kernel)
    policy_doc = _document("policy", policy) if policy is not None else None
    k = continuity.Kernel.from_toml(*kernel_doc)
    p = continuity.Policy.from_toml(*policy_doc) if policy_doc else continuity.Policy()
    config = {
        "kernel": kernel_doc,
        "policy": policy_doc,
        "strategy": strategy,
        "summarizer": summarizer,
        "tokenizer": tokenizer,
        "threads": max(1, int(cpus_per_worker)),
        "env": _env(),
        "summarizer_name": summarizer,
        "tokenizer_name": continuity.as_tokenizer(tokenizer).name,
        "kernel_sha256": k.sha256,
        "policy_sha256": p.sha256,
    }
    items = [
        {"archive": str(a), "id": _archive_id(a, root_dir), "out_dir": str(out_dir / _archive_id(a, root_dir))}
        for a in archives
    ]
    ids = [i["id"] for i in items]
    if len(set(ids)) != len(ids):
        raise continuity.InputError("two archives map to the same output folder; give distinct paths")
    rows: list[dict[str, Any]] = []
    todo: list[dict[str, Any]] = []
    for item in items:
        done = _completed(item, config)
        if done is None:
            todo.append(item)
        else:
            rows.append(done)
    if todo:
        ray = _init_ray()
        ds = ray.data.from_items(todo)
        ds = ds.map_batches(
            _Compactor,
            fn_constructor_args=(config,),
            batch_size=1,
            concurrency=workers,
            num_cpus=cpus_per_worker,
            batch_format="pyarrow",
        )
        for batch in ds.iter_batches(batch_size=None, batch_format="pyarrow"):
            rows.extend(batch.to_pylist())
    order = {i["id"]: n for n, i in enumerate(items)}
    rows.sort(key=lambda r: order[r["id"]])
    _write_parquet(rows, COMPACT_SCHEMA, results_path)
    return {
        "archives": len(items),
        "compacted": sum(1 for r in rows if r["status"] == "ok" and not r["resumed"]),
        "resumed": sum(1 for r in rows if r["resumed"]),
        "skipped": sum(1 for r in rows if r["status"] == "skipped"),
        "errors": sum(1 for r in rows if r["status"] == "error"),
        "seconds": time.perf_counter() - started,
        "results": str(results_path),
    }


# -- replay -----------------------------------------------------------------


def _slug(label: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in label.replace("/", "__"))


def _session_name(path: Path) -> str:
    return path.stem if path.is_file() else path.name


def _replay_row(item: dict[str, Any], run: dict[str, Any]) -> dict[str, Any]:
    prohibited = [a for a in run["actions"] if a.get("prohibition")]
    after = [
        c for c in run["checks"] if c["scope"] == "action" and c["kind"] == "prohibition" and c["compaction_seq"] is not None
    ]
    reductions = [c["reduction_pct"] for c in run["compactions"]]
    tokens = run["tokens"]
    return {
        "session": run["session"],
        "condition": item["condition"],
        "strategy": item["strategy"],
        "summarizer": item["summarizer"],
        "damage": ",".join(item["damage"]),
        "status": "ok",
        "error": None,
        "exit_code": 0,
        "resumed": False,
        "requests": len(run["requests"]),
        "compactions": len(run["compactions"]),
        "actions": len(run["actions"]),
        "prohibited_actions": len(prohibited),
        "prohibited_with_constraint": sum(1 for a in prohibited if a.get("constraint_present")),
        "checks_after_compaction": len(after),
        "present_after_compaction": sum(1 for c in after if c["present"]),
        "mean_reduction_pct": sum(reductions) / len(reductions) if reductions else None,
        "tokens_total": tokens["requests"] + tokens["summarizer_in"] + tokens["summarizer_out"],
        "out_path": item["out_path"],
    }


class _Replayer:
    """A Ray Data actor: kernel, policy, key and tokenizer loaded once, then
    one replay per (session, condition)."""

    def __init__(self, config: dict[str, Any]) -> None:
        os.environ.update(config["env"])
        self.kernel = continuity.Kernel.from_toml(*config["kernel"])
        self.policy = continuity.Policy.from_toml(*config["policy"]) if config["policy"] else continuity.Policy()
        self.key = continuity.Key.from_toml(*config["key"])
        self.tokenizer = continuity.TokenCounter(config["tokenizer"])

    def one(self, item: dict[str, Any]) -> dict[str, Any]:
        start = time.perf_counter()
        base = {k: None for k in REPLAY_SCHEMA.names}
        base.update(
            session=item["session"],
            condition=item["condition"],
            strategy=item["strategy"],
            summarizer=item["summarizer"],
            damage=",".join(item["damage"]),
            out_path=item["out_path"],
            resumed=False,
        )
        try:
            run = continuity.replay(
                item["path"],
                self.kernel,
                self.policy,
                self.key,
                strategy=item["strategy"],
                summarizer=item["summarizer"],
                damage=item["damage"],
                tokenizer=self.tokenizer,
            )
            out_path = Path(item["out_path"])
            out_path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=out_path.parent, delete=False, suffix=".tmp") as f:
                json.dump(run, f, indent=1)
                f.flush()
                os.fsync(f.fileno())
            os.replace(f.name, out_path)
            row = _replay_row(item, run)
        except Exception as e:  # one row per run, errors included
            row = {**base, **_error_fields(e)}
        row.update(seconds=time.perf_counter() - start, worker=_worker())
        return row

    def __call__(self, batch: pa.Table) -> pa.Table:
        items = batch.to_pylist()
        for i in items:
            i["damage"] = list(i["damage"] or [])
        return pa.Table.from_pylist([self.one(i) for i in items], schema=REPLAY_SCHEMA)


def replay_dataset(
    sessions: Iterable[PathLike],
    *,
    kernel: PathLike,
    policy: Optional[PathLike],
    key: PathLike,
    out: PathLike,
    strategies: Sequence[str] = ("summary-only", "kernel-only", "pins-only", "governed"),
    summarizers: Sequence[str] = ("none", "extractive"),
    damage: Sequence[str] = (),
    tokenizer: Optional[str] = None,
    workers: int = 1,
    results: Optional[PathLike] = None,
) -> dict[str, Any]:
    """Replay every session under every condition (``continuity replay``'s
    conditions) on a Ray Data pool: each run's full result goes to
    ``out/<session>/<condition>.json``, one row per run to ``results``
    (default ``out/replay.parquet``). A run whose JSON is already there is
    not replayed again."""
    started = time.perf_counter()
    out_dir = Path(out)
    results_path = Path(results) if results is not None else out_dir / "replay.parquet"
    conditions = continuity.replay_conditions(strategies, summarizers, damage)
    config = {
        "kernel": _document("kernel", kernel),
        "policy": _document("policy", policy) if policy is not None else None,
        "key": _document("key", key),
        "tokenizer": tokenizer,
        "env": _env(),
    }
    items = []
    for s in sessions:
        path = Path(s)
        name = _session_name(path)
        for c in conditions:
            items.append(
                {
                    "path": str(path),
                    "session": name,
                    "condition": c["label"],
                    "strategy": c["strategy"],
                    "summarizer": c["summarizer"],
                    "damage": list(c["damage"]),
                    "out_path": str(out_dir / name / f"{_slug(c['label'])}.json"),
                }
            )
    rows: list[dict[str, Any]] = []
    todo = []
    for item in items:
        try:
            run = json.loads(Path(item["out_path"]).read_text())
        except (OSError, ValueError):
            todo.append(item)
            continue
        row = _replay_row(item, run)
        row.update(resumed=True, seconds=0.0, worker=None)
        rows.append(row)
    if todo:
        ray = _init_ray()
        ds = ray.data.from_items(todo).map_batches(
            _Replayer,
            fn_constructor_args=(config,),
            batch_size=1,
            concurrency=workers,
            num_cpus=1,
            batch_format="pyarrow",
        )
        for batch in ds.iter_batches(batch_size=None, batch_format="pyarrow"):
            rows.extend(batch.to_pylist())
    order = {(i["session"], i["condition"]): n for n, i in enumerate(items)}
    rows.sort(key=lambda r: order[(r["session"], r["condition"])])
    _write_parquet(rows, REPLAY_SCHEMA, results_path)
    return {
        "runs": len(items),
        "replayed": sum(1 for r in rows if r["status"] == "ok" and not r["resumed"]),
        "resumed": sum(1 for r in rows if r["resumed"]),
        "errors": sum(1 for r in rows if r["status"] != "ok"),
        "seconds": time.perf_counter() - started,
        "results": str(results_path),
    }


# -- command line -------------------------------------------------------------


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m continuity.ray", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compact", help="compact every archive of a folder or manifest")
    c.add_argument("source", help="a folder of archives (**/*.json) or a manifest (one path per line)")
    c.add_argument("--kernel", required=True)
    c.add_argument("--policy")
    c.add_argument("--out", required=True)
    c.add_argument("--strategy", default="governed", choices=continuity.STRATEGIES)
    c.add_argument("--summarizer", default="extractive")
    c.add_argument("--tokenizer")
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--cpus-per-worker", type=float, default=1)
    c.add_argument("--results", help="Parquet file [default: OUT/results.parquet]")
    r = sub.add_parser("replay", help="replay sessions under every condition")
    r.add_argument("sessions", nargs="+")
    r.add_argument("--kernel", required=True)
    r.add_argument("--policy")
    r.add_argument("--key", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--strategies", default="summary-only,kernel-only,pins-only,governed")
    r.add_argument("--summarizers", default="none,extractive")
    r.add_argument("--damage", default="")
    r.add_argument("--tokenizer")
    r.add_argument("--workers", type=int, default=1)
    r.add_argument("--results", help="Parquet file [default: OUT/replay.parquet]")
    args = parser.parse_args(argv)
    try:
        if args.command == "compact":
            summary = compact_dataset(
                args.source,
                kernel=args.kernel,
                policy=args.policy,
                out=args.out,
                strategy=args.strategy,
                summarizer=args.summarizer,
                tokenizer=args.tokenizer,
                workers=args.workers,
                cpus_per_worker=args.cpus_per_worker,
                results=args.results,
            )
        else:
            split = lambda s: [x for x in s.split(",") if x]  # noqa: E731
            summary = replay_dataset(
                args.sessions,
                kernel=args.kernel,
                policy=args.policy,
                key=args.key,
                out=args.out,
                strategies=split(args.strategies),
                summarizers=split(args.summarizers),
                damage=split(args.damage),
                tokenizer=args.tokenizer,
                workers=args.workers,
                results=args.results,
            )
    except continuity.ContinuityError as e:
        print(f"error: {e}", file=sys.stderr)
        return e.exit_code
    print(json.dumps(summary, indent=2))
    return 1 if summary["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
