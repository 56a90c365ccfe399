"""Pydantic AI hook: compact an agent's message history when it passes the
policy's trigger, keeping the Mission Kernel in the instructions.

Two ways in:

- :class:`ContinuityCompaction`, a capability
  (``Agent(model, capabilities=[ContinuityCompaction(kernel, policy)])``):
  it compacts the history before a model request when the trigger rule
  fires, and from then on puts the kernel into the instructions of every
  request (Pydantic AI builds each request's instructions afresh from the
  agent, so the kernel is added to them, not only to the history);
- :class:`HistoryCompactor`, a plain history processor
  (``ProcessHistory(HistoryCompactor(kernel, policy))``) that compacts the
  message list and leaves the instructions as the agent sets them.

The compacted history is the library's: pinned evidence verbatim, the
summary advisory, personal data withheld (``<withheld:email:3f9a1c>``) in
everything the model sees after a compaction. Requires ``pydantic-ai``
(or ``pydantic-ai-slim``) 2.x.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

import anyio.to_thread
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import InstructionPart, ModelMessage, ModelMessagesTypeAdapter, ModelRequest

import continuity
from continuity import Compaction, KernelLike, PolicyLike, SummarizerLike, TokenizerLike
from continuity._hooks import Compactor

__all__ = ["ContinuityCompaction", "HistoryCompactor"]

KERNEL_STRATEGIES = ("governed", "kernel-only")


class HistoryCompactor(Compactor):
    """A history processor: ``messages -> messages``, compacted when the
    policy's trigger rule fires on them, else unchanged.

    Successive compactions continue one policy-pin run (sequence 1, 2, …),
    so use one compactor per conversation. ``compactions`` lists every
    :class:`continuity.Compaction` it made (reports, audits, pins).
    """

    INPUT_NAME = "<pydantic-ai>"

    def compact(self, messages: list[ModelMessage], *, force: bool = False) -> list[ModelMessage]:
        """The history compacted when the trigger fires (or ``force``)."""
        history = ModelMessagesTypeAdapter.dump_python(messages, mode="json")
        if not force and not self.request_would_trigger(history):
            return messages
        return ModelMessagesTypeAdapter.validate_python(self.compact_request(history).request)

    def __call__(self, messages: list[ModelMessage]) -> list[ModelMessage]:
        return self.compact(messages)


def _carries_kernel(messages: list[ModelMessage], rendered: str) -> bool:
    return any(isinstance(m, ModelRequest) and m.instructions and rendered in m.instructions for m in messages)


class ContinuityCompaction(AbstractCapability[Any]):
    """A Pydantic AI capability: governed compaction before model requests.

    Before each model request, the history is compacted when the policy's
    trigger rule fires on it (the compaction runs in a worker thread; the
    Rust library releases the GIL). Once a compaction is in the history,
    the kernel is rendered into every request's instructions (governed and
    kernel-only strategies), as the CLI's compacted requests carry it.
    """

    def __init__(
        self,
        kernel: KernelLike,
        policy: PolicyLike = None,
        *,
        strategy: str = "governed",
        summarizer: SummarizerLike = "extractive",
        tokenizer: TokenizerLike = None,
        input_name: str = "<pydantic-ai>",
    ) -> None:
        self.compactor = HistoryCompactor(
            kernel,
            policy,
            strategy=strategy,
            summarizer=summarizer,
            tokenizer=tokenizer,
            input_name=input_name,
        )
        self._rendered = self.compactor.kernel.render()

    @property
    def compactions(self) -> list[Compaction]:
        return self.compactor.compactions

    @classmethod
    def get_serialization_name(cls) -> Optional[str]:
        return None  # holds native objects; not spec-serializable

    async def before_model_request(self, ctx: Any, request_context: Any) -> Any:
        messages = list(request_context.messages)
        before = len(self.compactor.compactions)
        compacted = await anyio.to_thread.run_sync(self.compactor.compact, messages)
        if len(self.compactor.compactions) > before:
            request_context.messages = list(compacted)
            ctx.messages[:] = compacted
        if self.compactor.strategy in KERNEL_STRATEGIES and (
            self.compactor.compactions or _carries_kernel(messages, self._rendered)
        ):
            request_context = self._with_kernel(request_context)
        return request_context

    def _with_kernel(self, request_context: Any) -> Any:
        params = request_context.model_request_parameters
        parts = list(params.instruction_parts or [])
        if any(self._rendered in p.content for p in parts):
            return request_context
        parts.append(InstructionPart(content=self._rendered))
        params = dataclasses.replace(params, instruction_parts=parts)
        return dataclasses.replace(request_context, model_request_parameters=params)
