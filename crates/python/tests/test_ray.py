"""Ray Data batch runs on a local Ray with 2 CPUs: the rows and files of
every archive equal `continuity compact` run on it; a run killed midway
resumes without compacting again what was done; replay conditions too."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
pq = pytest.importorskip("pyarrow.parquet")

import continuity  # noqa: E402
from continuity.ray import compact_dataset, replay_dataset  # noqa: E402
from conftest import EXAMPLE, REPO, cli_compact, masked_files, read_outputs, reference_archives  # noqa: E402

EVAL = REPO / "eval" / "billing-dispute"


@pytest.fixture(scope="module")
def cluster() -> str:
    ctx = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ctx.address_info["address"]
    ray.shutdown()


def assert_rows_equal_cli(results: Path, kernel: Path, policy: Path, scratch: Path) -> list[dict]:
    rows = pq.read_table(results).to_pylist()
    for n, row in enumerate(rows):
        assert row["status"] == "ok", row["error"]
        expected = masked_files(cli_compact(Path(row["archive"]), kernel, policy, scratch / f"cli-{n}"))
        assert masked_files(read_outputs(Path(row["out_dir"]))) == expected, row["archive"]
        report = json.loads(expected["report.json"])
        assert row["tokens_before"] == report["tokens"]["before"]
        assert row["tokens_after"] == report["tokens"]["after"]
        assert row["reduction_pct"] == report["reduction_pct"]
        assert row["kernel_sha256"] == report["kernel"]["sha256"]
    return rows


def test_bundled_archive(cluster: str, tmp_path: Path) -> None:
    summary = compact_dataset(
        [EXAMPLE / "session.json"],
        kernel=EXAMPLE / "kernel.toml",
        policy=EXAMPLE / "policy.toml",
        out=tmp_path / "out",
        workers=1,
    )
    assert summary["archives"] == summary["compacted"] == 1 and summary["errors"] == 0
    rows = assert_rows_equal_cli(Path(summary["results"]), EXAMPLE / "kernel.toml", EXAMPLE / "policy.toml", tmp_path)
    assert rows[0]["id"] == "session" and rows[0]["worker"]


def test_reference_archives_equal_the_cli(cluster: str, reference: Path, tmp_path: Path) -> None:
    archives = reference_archives()
    assert len(archives) >= 12
    summary = compact_dataset(
        reference / "replays",
        pattern="*/run/archive/*.json",
        kernel=EVAL / "kernel.toml",
        policy=EVAL / "policy.toml",
        out=tmp_path / "out",
        workers=2,
    )
    assert summary["compacted"] == len(archives) and summary["errors"] == 0
    rows = assert_rows_equal_cli(Path(summary["results"]), EVAL / "kernel.toml", EVAL / "policy.toml", tmp_path)
    assert [r["archive"] for r in rows] == [str(a) for a in archives]
    assert {r["id"] for r in rows} >= {"E1-governed/run/archive/cmp-2"}
    assert len({r["worker"] for r in rows}) == 2  # both actors worked
    # Nothing left to do the second time.
    again = compact_dataset(
        reference / "replays",
        pattern="*/run/archive/*.json",
        kernel=EVAL / "kernel.toml",
        policy=EVAL / "policy.toml",
        out=tmp_path / "out",
        workers=2,
    )
    assert again["resumed"] == len(archives) and again["compacted"] == 0


def archive_copies(folder: Path, copies: int) -> tuple[list[Path], Path, Path]:
    """Distinct archive files to compact: the reference archives (else the
    bundled session) `copies` times, with their kernel and policy."""
    refs = reference_archives()
    sources, kernel, policy = (refs, EVAL / "kernel.toml", EVAL / "policy.toml") if refs else (
        [EXAMPLE / "session.json"],
        EXAMPLE / "kernel.toml",
        EXAMPLE / "policy.toml",
    )
    out = []
    for i in range(copies):
        for n, s in enumerate(sources):
            dest = folder / f"copy-{i}" / f"{n:02d}-{s.parent.parent.parent.name or 'x'}-{s.name}"
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(s, dest)
            out.append(dest)
    return out, kernel, policy


def test_an_interrupted_run_resumes(cluster: str, tmp_path: Path) -> None:
    archives, kernel, policy = archive_copies(tmp_path / "archives", copies=48 if not reference_archives() else 5)
    manifest = tmp_path / "manifest.txt"
    manifest.write_text("".join(f"{a.relative_to(tmp_path)}\n" for a in archives))
    out = tmp_path / "out"
    env = {**os.environ, "RAY_ADDRESS": cluster}
    cmd = [sys.executable, "-m", "continuity.ray", "compact", str(manifest)]
    cmd += ["--kernel", str(kernel), "--policy", str(policy), "--out", str(out), "--workers", "1"]
    job = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 240
    while not list(out.glob("**/report.json")):
        assert job.poll() is None, job.stdout.read().decode() if job.stdout else ""
        assert time.monotonic() < deadline, "the job compacted nothing in 240 s"
        time.sleep(0.01)
    job.send_signal(signal.SIGKILL)
    job.wait()
    done_before = len(list(out.glob("**/report.json")))
    assert 0 < done_before < len(archives), done_before
    assert not (out / "results.parquet").exists()
    summary = compact_dataset(manifest, kernel=kernel, policy=policy, out=out, workers=2)
    assert summary["archives"] == len(archives)
    assert summary["errors"] == 0, pq.read_table(summary["results"]).to_pylist()
    assert summary["resumed"] >= done_before
    assert summary["compacted"] == len(archives) - summary["resumed"]
    rows = pq.read_table(summary["results"]).to_pylist()
    assert sorted(r["archive"] for r in rows) == sorted(str(a) for a in archives)
    # Finished and resumed archives alike hold what the CLI writes.
    resumed = [r for r in rows if r["resumed"]][:2]
    fresh = [r for r in rows if not r["resumed"]][:2]
    for n, row in enumerate(resumed + fresh):
        expected = masked_files(cli_compact(Path(row["archive"]), kernel, policy, tmp_path / f"cli-{n}"))
        assert masked_files(read_outputs(Path(row["out_dir"]))) == expected


def test_errors_are_rows(cluster: str, tmp_path: Path) -> None:
    bad = tmp_path / "in" / "bad.json"
    bad.parent.mkdir()
    bad.write_text('{"messages": [')
    shutil.copyfile(EXAMPLE / "session.json", tmp_path / "in" / "good.json")
    summary = compact_dataset(
        tmp_path / "in", kernel=EXAMPLE / "kernel.toml", policy=EXAMPLE / "policy.toml", out=tmp_path / "out"
    )
    rows = {r["id"]: r for r in pq.read_table(summary["results"]).to_pylist()}
    assert rows["good"]["status"] == "ok"
    assert rows["bad"]["status"] == "error" and rows["bad"]["exit_code"] == 2
    assert "malformed JSON" in rows["bad"]["error"] and str(bad) in rows["bad"]["error"]
    assert not (tmp_path / "out" / "bad").exists()


def test_replay_conditions(cluster: str, reference: Path, tmp_path: Path) -> None:
    sessions = [reference / "replays" / "E1-baseline", reference / "replays" / "E1-governed"]
    kw = dict(kernel=EVAL / "kernel.toml", policy=EVAL / "policy.toml", key=EVAL / "key.toml", out=tmp_path / "out")
    summary = replay_dataset(
        sessions, strategies=["summary-only", "governed"], summarizers=["none", "extractive"], workers=2, **kw
    )
    assert summary["runs"] == summary["replayed"] == 8 and summary["errors"] == 0
    rows = pq.read_table(summary["results"]).to_pylist()
    for row in rows:
        direct = continuity.replay(
            sessions[0] if row["session"] == "E1-baseline" else sessions[1],
            EVAL / "kernel.toml",
            EVAL / "policy.toml",
            EVAL / "key.toml",
            strategy=row["strategy"],
            summarizer=row["summarizer"],
        )
        assert json.loads(Path(row["out_path"]).read_text()) == direct
        assert row["compactions"] == len(direct["compactions"])
    governed = [r for r in rows if r["strategy"] == "governed" and r["checks_after_compaction"]]
    assert governed and all(r["present_after_compaction"] == r["checks_after_compaction"] for r in governed)
    again = replay_dataset(
        sessions, strategies=["summary-only", "governed"], summarizers=["none", "extractive"], workers=2, **kw
    )
    assert again["resumed"] == 8 and again["replayed"] == 0


def test_files_that_are_not_sessions_are_skipped(cluster: str, tmp_path: Path) -> None:
    # A manifest and a report beside the archives: skipped, not errors.
    inp = tmp_path / "in"
    (inp / "run" / "archive").mkdir(parents=True)
    shutil.copyfile(EXAMPLE / "session.json", inp / "run" / "archive" / "cmp-1.json")
    (inp / "manifest.json").write_text('{"label": "E1", "kernel_sha256": "ab12"}')
    (inp / "run" / "report.json").write_text('{"totals": {"requests": 12}}')
    summary = compact_dataset(inp, kernel=EXAMPLE / "kernel.toml", policy=EXAMPLE / "policy.toml", out=tmp_path / "out")
    assert summary["compacted"] == 1 and summary["skipped"] == 2 and summary["errors"] == 0, summary
    rows = {r["id"]: r for r in pq.read_table(summary["results"]).to_pylist()}
    assert rows["run/archive/cmp-1"]["status"] == "ok"
    for name in ["manifest", "run/report"]:
        assert rows[name]["status"] == "skipped" and rows[name]["exit_code"] == 0, rows[name]
        assert "unknown request format" in rows[name]["error"]
