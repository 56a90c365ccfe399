"""What the framework hooks share: a compactor's configuration, one
policy-pin run per conversation, and the compactions it made. Each hook
converts its framework's messages to a request and back."""

from __future__ import annotations

import threading
from typing import Any, Optional

import continuity
from continuity import Compaction, KernelLike, PolicyLike, SummarizerLike, TokenizerLike


class Compactor:
    """Compacts request bodies, continuing one policy-pin run (sequence 1,
    2, …) across calls. ``compactions`` lists every
    :class:`continuity.Compaction` made (reports, audits, pins).
    ``input_name`` defaults to the hook's ``INPUT_NAME``."""

    INPUT_NAME = "<hook>"

    def __init__(
        self,
        kernel: KernelLike,
        policy: PolicyLike = None,
        *,
        strategy: str = "governed",
        summarizer: SummarizerLike = "extractive",
        tokenizer: TokenizerLike = None,
        input_name: Optional[str] = None,
    ) -> None:
        k = continuity.as_kernel(kernel)
        if k is None:
            raise continuity.InputError(f"{type(self).__name__} needs a Mission Kernel (kernel=)")
        self.kernel = k
        self.policy = continuity.as_policy(policy)
        self.strategy = strategy
        self.summarizer = continuity.as_summarizer(summarizer)
        # None: each request in its agent's own tokens, by the model it names.
        self.tokenizer = None if tokenizer is None else continuity.as_tokenizer(tokenizer)
        self.input_name = input_name or self.INPUT_NAME
        self.compactions: list[Compaction] = []
        self._lock = threading.Lock()

    @property
    def last(self) -> Optional[Compaction]:
        return self.compactions[-1] if self.compactions else None

    def request_would_trigger(self, request: Any) -> bool:
        """Whether the policy's trigger rule fires on this request body."""
        return bool(continuity.trigger(request, self.policy, tokenizer=self.tokenizer)["would_trigger"])

    def compact_request(self, request: Any) -> Compaction:
        """The request compacted, continuing this compactor's pin run."""
        with self._lock:
            c = continuity.compact(
                request,
                self.kernel,
                self.policy,
                strategy=self.strategy,
                summarizer=self.summarizer,
                tokenizer=self.tokenizer,
                input_name=self.input_name,
                previous_pin=self.last,
            )
            self.compactions.append(c)
        return c
