"""LangChain hook: compact a message list when it passes the policy's
trigger, keeping the Mission Kernel in a system message.

- :func:`compact_messages` is a ``trim_messages``-style callable: messages
  in, messages out (unchanged below the trigger);
- :class:`MessageCompactor` is the same as a reusable object that continues
  one policy-pin run across compactions (one per conversation);
- :class:`ContinuityMiddleware` is an agent middleware for
  ``langchain.agents.create_agent`` (LangChain 1.x): before each model call
  it replaces the agent state's messages with the compacted ones when the
  trigger fires, as LangChain's ``SummarizationMiddleware`` does.

Messages go to the library as an OpenAI Chat Completions request
(``convert_to_openai_messages``) and come back with ``convert_to_messages``.
The compacted list opens with system messages: the input's system text,
then the rendered kernel; pinned evidence is verbatim and personal data
is withheld (``<withheld:email:3f9a1c>``). Requires ``langchain-core`` (and
``langchain`` 1.x for the middleware).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from langchain_core.messages import BaseMessage, convert_to_messages, convert_to_openai_messages

import continuity
from continuity import Compaction, KernelLike, PolicyLike, SummarizerLike, TokenizerLike
from continuity._hooks import Compactor

__all__ = ["ContinuityMiddleware", "MessageCompactor", "compact_messages", "to_request"]


def to_request(messages: Sequence[BaseMessage]) -> dict[str, Any]:
    """LangChain messages as an OpenAI Chat Completions request body."""
    return {"messages": convert_to_openai_messages(list(messages))}


class MessageCompactor(Compactor):
    """``messages -> messages``: compacted when the policy's trigger rule
    fires on them (or ``force``), else returned unchanged. ``compactions``
    holds every :class:`continuity.Compaction` made."""

    INPUT_NAME = "<langchain>"

    def would_trigger(self, messages: Sequence[BaseMessage]) -> bool:
        return self.request_would_trigger(to_request(messages))

    def compact(self, messages: Sequence[BaseMessage], *, force: bool = False) -> list[BaseMessage]:
        messages = list(messages)
        if not messages or (not force and not self.would_trigger(messages)):
            return messages
        c = self.compact_request(to_request(messages))
        return list(convert_to_messages(c.request["messages"]))

    def __call__(self, messages: Sequence[BaseMessage]) -> list[BaseMessage]:
        return self.compact(messages)


def compact_messages(
    messages: Sequence[BaseMessage],
    kernel: KernelLike,
    policy: PolicyLike = None,
    *,
    strategy: str = "governed",
    summarizer: SummarizerLike = "extractive",
    tokenizer: TokenizerLike = None,
    force: bool = False,
) -> list[BaseMessage]:
    """``trim_messages``-style: the messages compacted when the trigger
    fires (or ``force``), else unchanged. For several compactions of one
    conversation use a :class:`MessageCompactor`, which continues the run."""
    compactor = MessageCompactor(kernel, policy, strategy=strategy, summarizer=summarizer, tokenizer=tokenizer)
    return compactor.compact(messages, force=force)


try:  # LangChain 1.x agents
    from langchain.agents.middleware import AgentMiddleware
    from langchain_core.messages import RemoveMessage
    from langgraph.graph.message import REMOVE_ALL_MESSAGES
except ImportError:  # pragma: no cover - langchain-core only
    AgentMiddleware = None  # type: ignore[assignment,misc]


if AgentMiddleware is not None:

    class ContinuityMiddleware(AgentMiddleware):  # type: ignore[misc,valid-type]
        """Governed compaction for ``create_agent``: before each model call,
        the state's messages are replaced by their compaction when the
        policy's trigger fires."""

        def __init__(
            self,
            kernel: KernelLike,
            policy: PolicyLike = None,
            *,
            strategy: str = "governed",
            summarizer: SummarizerLike = "extractive",
            tokenizer: TokenizerLike = None,
        ) -> None:
            super().__init__()
            self.compactor = MessageCompactor(
                kernel, policy, strategy=strategy, summarizer=summarizer, tokenizer=tokenizer
            )

        @property
        def compactions(self) -> list[Compaction]:
            return self.compactor.compactions

        def before_model(self, state: Any, runtime: Any) -> Optional[dict[str, Any]]:
            messages = list(state["messages"])
            before = len(self.compactor.compactions)
            compacted = self.compactor.compact(messages)
            if len(self.compactor.compactions) == before:
                return None
            return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *compacted]}

        async def abefore_model(self, state: Any, runtime: Any) -> Optional[dict[str, Any]]:
            import anyio.to_thread

            return await anyio.to_thread.run_sync(self.before_model, state, runtime)

else:  # pragma: no cover
    ContinuityMiddleware = None  # type: ignore[assignment,misc]
