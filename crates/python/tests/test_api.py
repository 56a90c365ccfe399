"""The Python API against the library and the CLI: same outputs, same
errors, same verdicts."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import continuity
from conftest import EXAMPLE, cli_compact, continuity_bin, masked_files, planted_pii, read_outputs

KERNEL = EXAMPLE / "kernel.toml"
POLICY = EXAMPLE / "policy.toml"
SESSION = EXAMPLE / "session.json"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(continuity_bin()), *args], capture_output=True, text=True)


@pytest.mark.parametrize("strategy", ["governed", "summary-only"])
def test_compact_writes_what_the_cli_writes(tmp_path: Path, strategy: str) -> None:
    expected = masked_files(cli_compact(SESSION, KERNEL, POLICY, tmp_path / "cli", strategy))
    c = continuity.compact(SESSION, KERNEL, POLICY, strategy=strategy, out=tmp_path / "py")
    assert masked_files(read_outputs(tmp_path / "py")) == expected
    assert masked_files(c.files) == expected
    # The same request as a Python value, named as the CLI names the file.
    value = json.loads(SESSION.read_text())
    c2 = continuity.compact(value, KERNEL, POLICY, strategy=strategy, input_name=str(SESSION))
    assert masked_files(c2.files) == expected
    assert c2.request == json.loads(c2.files["request.json"])
    assert c2.report["strategy"] == strategy


def test_compaction_object(tmp_path: Path) -> None:
    kernel = continuity.Kernel.load(str(KERNEL))
    c = continuity.compact(SESSION.read_text(), kernel, continuity.Policy.load(str(POLICY)))
    assert c.report["input"] == "<python>"
    assert c.tokens["after"] < c.tokens["before"]
    assert c.report["kernel"]["sha256"] == kernel.sha256
    text = json.dumps(c.request)
    for p in kernel.prohibitions:
        assert p in text
    assert "FACTS RETURNED BY TOOLS" in text
    for value in planted_pii():
        for name, data in c.files.items():
            assert value.encode() not in data, (value, name)
    assert [r["kind"] for r in c.audit][:1] and all("decision" in r for r in c.audit)
    assert c.policy_pin["sequence"] == 1


def test_previous_pin_continues_the_run() -> None:
    first = continuity.compact(SESSION, KERNEL, POLICY)
    second = continuity.compact(first.request, KERNEL, POLICY, previous_pin=first, input_name=str(SESSION))
    assert second.policy_pin["sequence"] == 2
    assert second.policy_pin["run_id"] == first.policy_pin["run_id"]
    assert second.report["governance"]["sequence"] == 2


def test_kernel_and_policy_from_dicts() -> None:
    import tomllib

    k = continuity.Kernel.from_dict(tomllib.loads(KERNEL.read_text()))
    p = continuity.Policy.from_dict(tomllib.loads(POLICY.read_text()))
    # The kernel's hash is canonical (of the document); the policy's is of
    # its text, so only the same text hashes alike.
    assert k.sha256 == continuity.Kernel.load(str(KERNEL)).sha256
    assert continuity.Policy.from_toml(POLICY.read_text()).sha256 == continuity.Policy.load(str(POLICY)).sha256
    assert p.sha256 != continuity.Policy.load(str(POLICY)).sha256
    assert p.trigger_tokens == 8000 and p.min_new_tool_results == 3


def test_plan_is_the_cli_plan() -> None:
    done = cli("plan", str(SESSION), "--kernel", str(KERNEL), "--policy", str(POLICY), "--json")
    assert done.returncode == 0, done.stderr
    assert continuity.plan(SESSION, KERNEL, POLICY) == json.loads(done.stdout)


def test_trigger_and_counts_match_the_report() -> None:
    c = continuity.compact(SESSION, KERNEL, POLICY)
    assert continuity.trigger(SESSION, POLICY) == c.report["trigger"]
    assert continuity.count_tokens("Never issue refunds.") > 0
    assert continuity.count_request(SESSION) >= c.report["trigger"]["input_tokens"] - 200
    with_kernel = continuity.kernel_instructions(["Be brief."], KERNEL)
    assert with_kernel[0] == "Be brief." and "[END MISSION KERNEL]" in with_kernel[1]
    # Rendering again replaces the kernel, never duplicates it.
    assert continuity.kernel_instructions(with_kernel, KERNEL) == with_kernel


def test_requests_are_counted_in_their_agents_tokens() -> None:
    body = json.loads(SESSION.read_text())
    bundled = continuity.TokenCounter()
    o200k = continuity.TokenCounter("o200k_base")
    for model, unit in [("gpt-4o", "o200k_base"), ("claude-sonnet-4-5", bundled.name)]:
        body["model"] = model
        c = continuity.compact(body, KERNEL, POLICY)
        assert c.report["tokenizer"] == unit, model
        assert continuity.trigger(body, POLICY) == c.report["trigger"], model
    body["model"] = "gpt-4o"
    assert continuity.count_request(body) == continuity.count_request(body, tokenizer=o200k)
    assert continuity.count_request(body) != continuity.count_request(body, tokenizer=bundled)
    # The caller's tokenizer wins over the agent's.
    assert continuity.compact(body, KERNEL, POLICY, tokenizer=bundled).report["tokenizer"] == bundled.name


def cli_error(args: list[str]) -> tuple[int, str]:
    done = cli(*args)
    assert done.stderr.startswith("error: "), done.stderr
    # The CLI prints the message and one newline.
    return done.returncode, done.stderr[len("error: ") :].removesuffix("\n")


def test_errors_carry_the_cli_message_and_exit_code(tmp_path: Path) -> None:
    bad_json = tmp_path / "bad.json"
    bad_json.write_text('{"messages": [')
    not_a_request = tmp_path / "other.json"
    not_a_request.write_text('{"hello": 1}')
    bad_kernel = tmp_path / "kernel.toml"
    bad_kernel.write_text('id = "K"\nversion = ')
    cases = [
        (bad_json, KERNEL, continuity.InputError),
        (not_a_request, KERNEL, continuity.InputError),
        (SESSION, bad_kernel, continuity.InputError),
        (tmp_path / "missing.json", KERNEL, continuity.InputError),
    ]
    for request, kernel, cls in cases:
        code, message = cli_error(["compact", str(request), "--kernel", str(kernel), "--out", str(tmp_path / "o")])
        with pytest.raises(cls) as e:
            continuity.compact(request, kernel, out=tmp_path / "o")
        assert str(e.value) == message
        assert e.value.exit_code == code == 2
        assert isinstance(e.value, continuity.ContinuityError)
    assert not (tmp_path / "o").exists()
    with pytest.raises(continuity.InputError, match="a Mission Kernel is required"):
        continuity.compact(SESSION)
    with pytest.raises(continuity.InputError, match="unknown strategy"):
        continuity.compact(SESSION, KERNEL, strategy="everything")
    with pytest.raises(continuity.InputError, match="unknown summarizer `gpt-9`"):
        continuity.Summarizer("gpt-9")


def test_altered_pin_fails_closed_like_the_cli(tmp_path: Path) -> None:
    out = tmp_path / "out"
    continuity.compact(SESSION, KERNEL, POLICY, out=out)
    pin = json.loads((out / "policy_pin.json").read_text())
    pin["sequence"] = 7
    (out / "policy_pin.json").write_text(json.dumps(pin))
    code, message = cli_error(["compact", str(SESSION), "--kernel", str(KERNEL), "--policy", str(POLICY), "--out", str(out)])
    with pytest.raises(continuity.GovernanceError) as e:
        continuity.compact(SESSION, KERNEL, POLICY, out=out)
    assert str(e.value) == message
    assert e.value.exit_code == code == 4


def test_preflight_verdicts_are_the_cli_verdicts(tmp_path: Path) -> None:
    calls = [
        {"name": "issue_refund", "arguments": {"charge_id": "PAY-77120", "amount": 412.5}, "id": "c1"},
        {"name": "get_charge", "arguments": {"charge_id": "PAY-77120"}, "id": "c2"},
    ]
    path = tmp_path / "calls.json"
    path.write_text(json.dumps(calls))
    done = cli("preflight", "--kernel", str(KERNEL), str(path), "--json")
    assert done.returncode == 3
    expected = json.loads(done.stdout)["verdicts"]
    got = continuity.preflight_all(calls, KERNEL)
    assert [{k: v for k, v in g.items() if k != "allowed"} for g in got] == expected
    assert [g["allowed"] for g in got] == [False, True]
    assert continuity.preflight(calls[1], KERNEL)["decision"] == "allow"
    with pytest.raises(continuity.NotAllowedError) as e:
        continuity.enforce(calls[0], KERNEL)
    assert e.value.exit_code == 3 and e.value.verdict["decision"] == "require_approval"
    assert continuity.preflight_all(SESSION, KERNEL) == continuity.preflight_all(SESSION.read_text(), KERNEL)


def test_the_gil_is_released_while_rust_works() -> None:
    counter = continuity.TokenCounter()
    text = "PAY-77120 was an authorization, never captured. " * 200_000
    stamps: list[float] = []
    stop = threading.Event()

    def tick() -> None:
        while not stop.is_set():
            stamps.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    time.sleep(0.05)
    start = time.perf_counter()
    n = counter.count(text)
    end = time.perf_counter()
    stop.set()
    t.join()
    assert n > 1_000_000
    inside = [s for s in stamps if start < s < end]
    gaps = [b - a for a, b in zip([start, *inside], [*inside, end])]
    # Held, the GIL would leave one gap as long as the whole call.
    assert end - start > 0.2, "the call was too short to tell"
    assert max(gaps) < 0.5 * (end - start), (max(gaps), end - start)


def test_summarizer_objects_are_reused() -> None:
    s = continuity.Summarizer("extractive")
    assert s.name == "extractive" and not s.is_model
    a = continuity.compact(SESSION, KERNEL, POLICY, summarizer=s)
    b = continuity.compact(SESSION, KERNEL, POLICY, summarizer=s)
    assert a.summary == b.summary
    assert continuity.as_summarizer("none") is continuity.as_summarizer("none")


def test_a_model_summarizer_loads_once() -> None:
    try:
        s = continuity.Summarizer("smollm2-135m")
    except continuity.InputError as e:
        pytest.skip(f"smollm2-135m not fetched ({e})")
    assert s.is_model
    start = time.perf_counter()
    s.load()
    first_load = time.perf_counter() - start
    start = time.perf_counter()
    s.load()
    assert time.perf_counter() - start < 0.1 * first_load  # kept, not loaded again
    assert continuity.as_summarizer(s) is s
    # One compaction with it (a model call is slow in a dev build).
    c = continuity.compact(SESSION, KERNEL, POLICY, summarizer=s)
    assert c.report["summarizer"]["name"] == "smollm2-135m"
    assert c.summary


def test_strings_are_paths_or_documents() -> None:
    by_path = continuity.compact(str(SESSION), str(KERNEL), str(POLICY))
    by_text = continuity.compact(SESSION.read_text(), KERNEL.read_text(), POLICY.read_text(), input_name=str(SESSION))
    assert masked_files(by_path.files) == masked_files(by_text.files)
    assert by_path.report["input"] == str(SESSION)
    with pytest.raises(continuity.InputError, match="no-such-kernel.toml"):
        continuity.compact(SESSION, "no-such-kernel.toml")


def test_the_readme_example_runs_as_printed() -> None:
    from conftest import REPO

    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("## From Python") :]
    code = section[section.index("```python\n") + len("```python\n") :]
    code = code[: code.index("```")]
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    before, after = done.stdout.split(" -> ")
    assert int(before) > int(after.split()[0]) > 0
