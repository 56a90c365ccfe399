"""A real Pydantic AI agent (FunctionModel, no network) lives the bundled
session with the continuity capability: the history is compacted when it
passes the trigger, and every later request carries the kernel in its
instructions and the pinned evidence in its messages, with personal data
withheld."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("pydantic_ai")

from pydantic_ai import Agent, RunContext, Tool  # noqa: E402
from pydantic_ai.capabilities import ProcessHistory  # noqa: E402
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart  # noqa: E402
from pydantic_ai.models.function import AgentInfo, FunctionModel  # noqa: E402

import continuity  # noqa: E402
from continuity.pydantic_ai import ContinuityCompaction, HistoryCompactor  # noqa: E402
from conftest import EXAMPLE, Session, assert_pinned_evidence_seen, bundled_session, first, planted_pii, tight_policy  # noqa: E402

KERNEL = EXAMPLE / "kernel.toml"
FACTS = "FACTS RETURNED BY TOOLS"


def seen_text(messages: list[ModelMessage]) -> str:
    return json.dumps(
        [m.model_dump(mode="json") if hasattr(m, "model_dump") else _dump(m) for m in messages], ensure_ascii=False
    )


def _dump(m: ModelMessage) -> Any:
    from pydantic_ai.messages import ModelMessagesTypeAdapter

    return ModelMessagesTypeAdapter.dump_python([m], mode="json")[0]


def build_agent(session: Session, capability: Any) -> tuple[Agent, list[dict[str, Any]]]:
    """An agent whose model replays the recorded turns and whose tools
    return the recorded results; `calls` records what the model saw."""
    calls: list[dict[str, Any]] = []
    turns = iter(session.turns)

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        calls.append({"instructions": info.instructions or "", "messages": seen_text(messages), "n": len(messages)})
        turn = next(turns, None)
        if turn is None:
            return ModelResponse(parts=[TextPart("Investigation report: see the case notes.")])
        parts: list[Any] = [TextPart(turn.text)] if turn.text else []
        parts += [ToolCallPart(c["name"], c["input"], tool_call_id=c["id"]) for c in turn.calls]
        return ModelResponse(parts=parts)

    def recorded(ctx: RunContext[None], **kwargs: Any) -> str:
        return session.result(ctx.tool_call_id)

    tools = [
        Tool.from_schema(recorded, t["name"], t.get("description"), t["input_schema"], takes_ctx=True)
        for t in session.tools
    ]
    agent = Agent(FunctionModel(model), instructions=session.system, tools=tools, capabilities=[capability])
    return agent, calls


def test_the_agent_compacts_past_the_trigger_and_keeps_kernel_and_evidence() -> None:
    session = bundled_session()
    policy = tight_policy(4000)
    cap = ContinuityCompaction(KERNEL, policy)
    agent, calls = build_agent(session, cap)
    result = agent.run_sync(session.task)
    assert result.output.startswith("Investigation report")
    assert len(cap.compactions) >= 1
    first_c = cap.compactions[0]
    assert first_c.report["trigger"]["would_trigger"]
    assert first_c.report["trigger"]["input_tokens"] > 4000
    kernel = continuity.Kernel.load(str(KERNEL))
    # Before the first compaction: the raw history, the agent's own instructions.
    at = first(calls, lambda c: FACTS in c["messages"])
    assert at is not None and at > 0
    for c in calls[:at]:
        assert kernel.prohibitions[0] not in c["instructions"]
    # From it on: the kernel in the instructions of every request.
    for c in calls[at:]:
        for p in kernel.prohibitions:
            assert p in c["instructions"], p
        assert session.system in c["instructions"]
    # The pinned evidence, verbatim, in what the model saw; the tail as well.
    seen = calls[at]["messages"]
    assert_pinned_evidence_seen(first_c, seen)
    assert first_c.tokens["after"] < first_c.tokens["before"]
    # Personal data is withheld in the compacted history.
    for value in planted_pii():
        assert value not in seen, value
    assert ("<withheld:" in seen) == ("<withheld:" in json.dumps(first_c.request, ensure_ascii=False))
    # The first compaction withholds what it found, as the CLI does; later
    # ones withhold it again through the pin's carried hashes (tested in
    # the core: run_privacy.rs).
    assert any(r["kind"] == "redaction" for r in first_c.audit)
    for value in planted_pii():
        assert all(value.encode() not in data for data in first_c.files.values()), value
    # Later compactions continue the pin's run.
    for i, c in enumerate(cap.compactions, start=1):
        assert c.policy_pin["sequence"] == i


def test_no_compaction_below_the_trigger() -> None:
    session = bundled_session()
    cap = ContinuityCompaction(KERNEL, tight_policy(10_000_000))
    agent, calls = build_agent(session, cap)
    agent.run_sync(session.task)
    assert cap.compactions == []
    assert all(FACTS not in c["messages"] for c in calls)
    assert len(calls) == len(session.turns) + 1


def test_history_processor_alone() -> None:
    session = bundled_session()
    compactor = HistoryCompactor(KERNEL, tight_policy(4000))
    agent, calls = build_agent(session, ProcessHistory(compactor))
    agent.run_sync(session.task)
    assert compactor.compactions
    at = first(calls, lambda c: FACTS in c["messages"])
    assert at is not None
    # The compacted history's requests carry the kernel in their instructions.
    history = json.loads(calls[at]["messages"])
    requests = [m for m in history if m["kind"] == "request"]
    assert any(continuity.Kernel.load(str(KERNEL)).prohibitions[0] in (m.get("instructions") or "") for m in requests)
    assert isinstance(agent, Agent) and ModelRequest
