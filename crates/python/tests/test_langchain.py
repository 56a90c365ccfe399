"""LangChain: the trim_messages-style callable on real langchain-core
messages, and the middleware in a real `create_agent` run with a scripted
chat model (no network)."""

from __future__ import annotations

import json
from typing import Any, Optional

import pytest

pytest.importorskip("langchain_core")

from langchain_core.language_models.chat_models import BaseChatModel  # noqa: E402
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage  # noqa: E402
from langchain_core.outputs import ChatGeneration, ChatResult  # noqa: E402
from langchain_core.tools import StructuredTool  # noqa: E402

import continuity  # noqa: E402
from continuity.langchain import ContinuityMiddleware, MessageCompactor, compact_messages, to_request  # noqa: E402
from conftest import EXAMPLE, Session, assert_pinned_evidence_seen, bundled_session, first, masked_files, planted_pii, tight_policy  # noqa: E402

KERNEL = EXAMPLE / "kernel.toml"
FACTS = "FACTS RETURNED BY TOOLS"


def session_messages(session: Session) -> list[BaseMessage]:
    msgs: list[BaseMessage] = [SystemMessage(session.system), HumanMessage(session.task)]
    for turn in session.turns:
        msgs.append(
            AIMessage(
                content=turn.text,
                tool_calls=[{"name": c["name"], "args": c["input"], "id": c["id"]} for c in turn.calls],
            )
        )
        msgs += [ToolMessage(content=session.result(c["id"]), tool_call_id=c["id"]) for c in turn.calls]
    return msgs


def text_of(messages: list[BaseMessage]) -> str:
    return json.dumps([m.model_dump(mode="json") for m in messages], ensure_ascii=False)


def test_compact_messages_keeps_kernel_evidence_and_withholds_personal_data() -> None:
    session = bundled_session()
    messages = session_messages(session)
    kernel = continuity.Kernel.load(str(KERNEL))
    out = compact_messages(messages, KERNEL, tight_policy(4000))
    assert len(out) < len(messages)
    # The input's system text, then the kernel, in the opening system messages.
    opening = out[: first(out, lambda m: not isinstance(m, SystemMessage))]
    assert opening and session.system in opening[0].content
    system = "\n".join(m.content for m in opening)
    for p in kernel.prohibitions:
        assert p in system
    text = text_of(out)
    assert FACTS in text and "charge_id=PAY-77120" in text
    compactor = MessageCompactor(KERNEL, tight_policy(4000))
    assert compactor(messages) == out
    assert compactor.last is not None
    assert_pinned_evidence_seen(compactor.last, text)
    for value in planted_pii():
        assert value not in text, value
    # The tail's tool results still answer their calls.
    calls = {tc["id"] for m in out if isinstance(m, AIMessage) for tc in m.tool_calls}
    assert calls and calls == {m.tool_call_id for m in out if isinstance(m, ToolMessage)}
    # Below the trigger nothing changes.
    assert compact_messages(messages, KERNEL, tight_policy(10_000_000)) == messages


def test_compactor_is_the_library_on_the_openai_request() -> None:
    session = bundled_session()
    messages = session_messages(session)
    policy = tight_policy(4000)
    compactor = MessageCompactor(KERNEL, policy)
    out = compactor(messages)
    direct = continuity.compact(to_request(messages), KERNEL, policy, input_name="<langchain>")
    assert compactor.last is not None
    assert masked_files(compactor.last.files) == masked_files(direct.files)
    assert [m["role"] for m in to_request(out)["messages"]] == [m["role"] for m in direct.request["messages"]]


class ScriptedModel(BaseChatModel):
    """Replays the recorded assistant turns; records what it was sent."""

    session: Any
    seen: list[list[BaseMessage]] = []
    step: int = 0

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> "ScriptedModel":
        return self

    def _generate(self, messages: list[BaseMessage], stop: Optional[list[str]] = None, **kwargs: Any) -> ChatResult:
        self.seen.append(list(messages))
        turns = self.session.turns
        if self.step >= len(turns):
            msg = AIMessage(content="Investigation report: see the case notes.")
        else:
            turn = turns[self.step]
            msg = AIMessage(
                content=turn.text,
                tool_calls=[{"name": c["name"], "args": c["input"], "id": c["id"]} for c in turn.calls],
            )
        self.step += 1
        return ChatResult(generations=[ChatGeneration(message=msg)])


def test_middleware_in_a_create_agent_run() -> None:
    pytest.importorskip("langchain.agents")
    from langchain.agents import create_agent

    session = bundled_session()
    model = ScriptedModel(session=session, seen=[])

    def tool_for(spec: dict[str, Any]) -> StructuredTool:
        # The recorded result of the call with these arguments.
        by_args = {
            json.dumps(c["input"], sort_keys=True): session.result(c["id"])
            for t in session.turns
            for c in t.calls
            if c["name"] == spec["name"]
        }

        def run(**kwargs: Any) -> str:
            return by_args[json.dumps(kwargs, sort_keys=True)]

        return StructuredTool.from_function(
            func=run, name=spec["name"], description=spec.get("description") or spec["name"], args_schema=spec["input_schema"]
        )

    middleware = ContinuityMiddleware(KERNEL, tight_policy(4000))
    agent = create_agent(
        model=model, tools=[tool_for(t) for t in session.tools], system_prompt=session.system, middleware=[middleware]
    )
    result = agent.invoke({"messages": [HumanMessage(session.task)]}, {"recursion_limit": 100})
    assert result["messages"][-1].content.startswith("Investigation report")
    assert middleware.compactions
    kernel = continuity.Kernel.load(str(KERNEL))
    at = first(model.seen, lambda msgs: FACTS in text_of(msgs))
    assert at is not None and at > 0
    for msgs in model.seen[:at]:
        assert kernel.prohibitions[0] not in text_of(msgs)
    for msgs in model.seen[at:]:
        system = "\n".join(m.content for m in msgs if isinstance(m, SystemMessage))
        for p in kernel.prohibitions:
            assert p in system, p
    seen = text_of(model.seen[at])
    assert_pinned_evidence_seen(middleware.compactions[0], seen)
    for value in planted_pii():
        assert value not in seen, value
    for i, c in enumerate(middleware.compactions, start=1):
        assert c.policy_pin["sequence"] == i
