"""continuity: governed context compaction for long-running LLM agents.

The library's operations on plain Python objects. A request is a dict (an
Anthropic Messages or OpenAI Chat Completions body) or a list (a Pydantic AI
message history), as ``json.load`` gives it, JSON text (a string opening
with ``{`` or ``[``), or a path to a file (a ``pathlib.Path`` or any other
string). Kernels, policies and answer keys are :class:`Kernel`,
:class:`Policy` and :class:`Key` objects, paths to their TOML (a path, or a
one-line string without ``=``), TOML text or dicts.

>>> import continuity
>>> c = continuity.compact(request, kernel="kernel.toml", policy="policy.toml")  # doctest: +SKIP
>>> c.report["reduction_pct"]  # doctest: +SKIP

The work is done by the Rust library, with the GIL released. Summarizers and
tokenizers named by string are loaded once per process and reused.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from . import _continuity as _native
from ._continuity import (
    DEFAULT_JUDGE,
    SUMMARIZERS,
    Evaluator,
    Kernel,
    Key,
    Policy,
    Summarizer,
    TokenCounter,
    __version__,
)
from .errors import (
    ContinuityError,
    GovernanceError,
    InputError,
    InternalError,
    NotAllowedError,
)

__all__ = [
    "Compaction",
    "ContinuityError",
    "DEFAULT_JUDGE",
    "Evaluator",
    "GovernanceError",
    "InputError",
    "InternalError",
    "Kernel",
    "Key",
    "NotAllowedError",
    "Policy",
    "STRATEGIES",
    "SUMMARIZERS",
    "Summarizer",
    "TokenCounter",
    "compact",
    "count_request",
    "count_tokens",
    "enforce",
    "evaluate",
    "kernel_instructions",
    "plan",
    "preflight",
    "preflight_all",
    "replay",
    "replay_conditions",
    "trigger",
    "__version__",
]

#: The compaction strategies (``--strategy``).
STRATEGIES = ("governed", "summary-only", "kernel-only", "pins-only")

Request = Union[Mapping[str, Any], Sequence[Any], str, bytes, "os.PathLike[str]"]
KernelLike = Union[Kernel, "os.PathLike[str]", str, Mapping[str, Any]]
PolicyLike = Union[Policy, "os.PathLike[str]", str, Mapping[str, Any], None]
KeyLike = Union[Key, "os.PathLike[str]", str]
SummarizerLike = Union[Summarizer, str, None]
TokenizerLike = Union[TokenCounter, str, None]

OUTPUT_FILES = ("request.json", "audit.jsonl", "report.json", "summary.txt", "policy_pin.json")


@dataclass(frozen=True)
class Compaction:
    """One compaction: what ``continuity compact`` writes, in memory.

    ``request`` is the compacted request in the input's format, ``report``
    and ``audit`` are ``report.json`` and the records of ``audit.jsonl``,
    ``policy_pin`` the run's governance state, and ``files`` every output
    file's exact bytes (as the CLI writes them). ``out`` is the folder they
    were written to, if any.
    """

    request: Any
    report: dict[str, Any]
    audit: list[dict[str, Any]]
    summary: str
    policy_pin: dict[str, Any]
    files: dict[str, bytes]
    out: Optional[Path] = None

    @property
    def tokens(self) -> dict[str, int]:
        """``report["tokens"]``: before, after and the parts of after."""
        return self.report["tokens"]


_cache_lock = threading.Lock()
_summarizers: dict[str, Summarizer] = {}
_tokenizers: dict[Optional[str], TokenCounter] = {}
_evaluators: dict[str, Evaluator] = {}


def as_summarizer(summarizer: SummarizerLike) -> Summarizer:
    """A :class:`Summarizer`; a name is looked up once per process."""
    if isinstance(summarizer, Summarizer):
        return summarizer
    name = "extractive" if summarizer is None else summarizer
    if not isinstance(name, str):
        raise InputError(f"summarizer: expected a Summarizer or a name, got {type(name).__name__}")
    with _cache_lock:
        if name not in _summarizers:
            _summarizers[name] = Summarizer(name)
        return _summarizers[name]


def as_tokenizer(tokenizer: TokenizerLike) -> TokenCounter:
    """A :class:`TokenCounter`; ``None`` is the bundled default."""
    if isinstance(tokenizer, TokenCounter):
        return tokenizer
    if tokenizer is not None and not isinstance(tokenizer, str):
        raise InputError(f"tokenizer: expected a TokenCounter or a spec, got {type(tokenizer).__name__}")
    with _cache_lock:
        if tokenizer not in _tokenizers:
            _tokenizers[tokenizer] = TokenCounter(tokenizer)
        return _tokenizers[tokenizer]


def _request_tokenizer(tokenizer: TokenizerLike) -> Optional[TokenCounter]:
    """The caller's counter, or ``None``: each request is then counted in
    its agent's own tokens, chosen by the model it names (``o200k_base``
    for OpenAI models, else the bundled tokenizer), as the CLI does."""
    return None if tokenizer is None else as_tokenizer(tokenizer)


def _toml_is_path(text: str) -> bool:
    """A string names a TOML file rather than holding TOML: one line, no
    ``=`` (every kernel and policy has keys)."""
    return "\n" not in text and "=" not in text


def as_kernel(kernel: Optional[KernelLike]) -> Optional[Kernel]:
    """A :class:`Kernel` from a Kernel, a path, TOML text or a dict."""
    if kernel is None or isinstance(kernel, Kernel):
        return kernel
    if isinstance(kernel, os.PathLike):
        return Kernel.load(os.fspath(kernel))
    if isinstance(kernel, str):
        return Kernel.load(kernel) if _toml_is_path(kernel) else Kernel.from_toml(kernel)
    if isinstance(kernel, Mapping):
        return Kernel.from_dict(dict(kernel))
    raise InputError(f"kernel: expected a Kernel, a path, TOML text or a dict, got {type(kernel).__name__}")


def as_policy(policy: PolicyLike) -> Policy:
    """A :class:`Policy`; ``None`` is the built-in defaults."""
    if policy is None:
        return Policy()
    if isinstance(policy, Policy):
        return policy
    if isinstance(policy, os.PathLike):
        return Policy.load(os.fspath(policy))
    if isinstance(policy, str):
        return Policy.load(policy) if _toml_is_path(policy) else Policy.from_toml(policy)
    if isinstance(policy, Mapping):
        return Policy.from_dict(dict(policy))
    raise InputError(f"policy: expected a Policy, a path, TOML text or a dict, got {type(policy).__name__}")


def as_key(key: KeyLike) -> Key:
    """An answer :class:`Key` from a Key, a path or TOML text."""
    if isinstance(key, Key):
        return key
    if isinstance(key, os.PathLike):
        return Key.load(os.fspath(key))
    if isinstance(key, str):
        return Key.load(key) if _toml_is_path(key) else Key.from_toml(key)
    raise InputError(f"key: expected a Key, a path or TOML text, got {type(key).__name__}")


def _request(request: Request) -> dict[str, Any]:
    """The request as the native functions take it: value=, text= or path=.
    A string is JSON text when it opens with ``{`` or ``[``, else a path."""
    if isinstance(request, os.PathLike):
        return {"path": os.fspath(request)}
    if isinstance(request, bytes):
        return {"text": request.decode("utf-8")}
    if isinstance(request, str):
        # JSON (and JSON lines) opens with a brace or a bracket; else a path.
        return {"text": request} if request.lstrip()[:1] in ("{", "[") else {"path": request}
    return {"value": request}


def _pin_bytes(previous_pin: Union[Compaction, Mapping[str, Any], bytes, str, None]) -> Optional[bytes]:
    if previous_pin is None:
        return None
    if isinstance(previous_pin, Compaction):
        return previous_pin.files["policy_pin.json"]
    if isinstance(previous_pin, bytes):
        return previous_pin
    if isinstance(previous_pin, str):
        return previous_pin.encode("utf-8")
    return json.dumps(previous_pin).encode("utf-8")


def compact(
    request: Request,
    kernel: Optional[KernelLike] = None,
    policy: PolicyLike = None,
    *,
    strategy: str = "governed",
    summarizer: SummarizerLike = "extractive",
    tokenizer: TokenizerLike = None,
    input_name: Optional[str] = None,
    run_id: Optional[str] = None,
    previous_pin: Union[Compaction, Mapping[str, Any], bytes, str, None] = None,
    out: Union[str, "os.PathLike[str]", None] = None,
) -> Compaction:
    """Compact one request, as ``continuity compact`` does.

    ``input_name`` names the input in the report and the pin (default: the
    path, else ``<python>``). ``previous_pin`` continues a run (a previous
    :class:`Compaction` or its ``policy_pin``). With ``out``, the five files
    are written there together or not at all, and a ``policy_pin.json``
    already there continues its run, exactly as the CLI.

    Raises :class:`InputError`, :class:`GovernanceError` or
    :class:`InternalError` with the CLI's message.
    """
    result = _native.compact(
        kernel=as_kernel(kernel),
        policy=as_policy(policy),
        summarizer=as_summarizer(summarizer),
        tokenizer=_request_tokenizer(tokenizer),
        strategy=strategy,
        input_name=input_name,
        run_id=run_id,
        previous_pin=_pin_bytes(previous_pin),
        out=None if out is None else os.fspath(out),
        **_request(request),
    )
    return Compaction(out=None if out is None else Path(out), **result)


def plan(
    request: Request,
    kernel: Optional[KernelLike] = None,
    policy: PolicyLike = None,
    *,
    summarizer: SummarizerLike = "extractive",
    tokenizer: TokenizerLike = None,
    input_name: Optional[str] = None,
) -> list[dict[str, Any]]:
    """``continuity plan --json``: per strategy, the smallest trigger that
    meets the floor rule and the compactions to expect per 100k tokens."""
    return _native.plan(
        kernel=as_kernel(kernel),
        policy=as_policy(policy),
        summarizer=as_summarizer(summarizer),
        tokenizer=_request_tokenizer(tokenizer),
        input_name=input_name,
        **_request(request),
    )


def trigger(request: Request, policy: PolicyLike = None, *, tokenizer: TokenizerLike = None) -> dict[str, Any]:
    """The policy's trigger rule on a request, measured as a compaction
    measures it: ``{threshold, input_tokens, min_new_tool_results,
    new_tool_results, would_trigger}`` (a report's ``trigger``)."""
    return _native.trigger(policy=as_policy(policy), tokenizer=_request_tokenizer(tokenizer), **_request(request))


def count_tokens(text: str, *, tokenizer: TokenizerLike = None) -> int:
    """Exact tokens of one text (default: the bundled SmolLM2 tokenizer)."""
    return as_tokenizer(tokenizer).count(text)


def count_request(request: Request, *, tokenizer: TokenizerLike = None) -> int:
    """Exact tokens of a whole request: instructions, tool schemas and
    every message part, in the agent's own tokens unless ``tokenizer``
    says otherwise."""
    return _native.count_request(tokenizer=_request_tokenizer(tokenizer), **_request(request))


def kernel_instructions(instructions: Iterable[str], kernel: KernelLike) -> list[str]:
    """Instructions with the kernel rendered last and any kernel rendered
    before taken out: what a governed compaction writes."""
    k = as_kernel(kernel)
    if k is None:
        raise InputError("kernel_instructions needs a Mission Kernel (kernel=)")
    return _native.kernel_instructions(list(instructions), k)


def _with_allowed(verdict: dict[str, Any]) -> dict[str, Any]:
    verdict["allowed"] = verdict["decision"] == "allow"
    return verdict


def preflight_all(
    calls: Request,
    kernel: KernelLike,
    *,
    scope: Optional[Sequence[str]] = None,
    ledger: Union[str, "os.PathLike[str]", None] = None,
) -> list[dict[str, Any]]:
    """``continuity preflight --json``'s verdicts: one per tool call in
    ``calls`` (a call, a list of calls, a request in any format, JSON lines,
    or a path to a file or recorded run folder). ``scope`` is
    ``DIM:VALUE`` strings; with ``ledger``, a call repeating a prepared,
    uncommitted effect escalates."""
    k = as_kernel(kernel)
    if k is None:
        raise InputError("preflight needs a Mission Kernel (kernel=)")
    verdicts = _native.preflight(
        kernel=k,
        scope=list(scope or []),
        ledger=None if ledger is None else os.fspath(ledger),
        **_request(calls),
    )
    return [_with_allowed(v) for v in verdicts]


def preflight(
    call: Union[Mapping[str, Any], str],
    kernel: KernelLike,
    *,
    scope: Optional[Sequence[str]] = None,
    ledger: Union[str, "os.PathLike[str]", None] = None,
) -> dict[str, Any]:
    """The verdict on one tool call (``{"name": ..., "arguments": {...}}``,
    an OpenAI ``tool_calls`` item, or an Anthropic ``tool_use`` block):
    ``decision`` (allow, deny, require_approval, escalate), the ``rule``
    that decided and its ``reason``; ``allowed`` is ``decision == "allow"``."""
    verdicts = preflight_all(call, kernel, scope=scope, ledger=ledger)
    if len(verdicts) != 1:
        raise InputError(f"preflight: expected one tool call, found {len(verdicts)}; use preflight_all")
    return verdicts[0]


def enforce(
    call: Union[Mapping[str, Any], str],
    kernel: KernelLike,
    *,
    scope: Optional[Sequence[str]] = None,
    ledger: Union[str, "os.PathLike[str]", None] = None,
) -> dict[str, Any]:
    """:func:`preflight` at the tool boundary: the verdict when the call is
    allowed, else :class:`NotAllowedError` (the CLI's exit 3)."""
    v = preflight(call, kernel, scope=scope, ledger=ledger)
    if not v["allowed"]:
        raise NotAllowedError(
            f"{v['decision'].upper()} {v['tool']} by {v['rule']}: {v['reason']}", verdict=v
        )
    return v


def evaluate(
    request: Request,
    summary: str,
    key: KeyLike,
    *,
    judge: str = DEFAULT_JUDGE,
    id: str = "summary",
) -> dict[str, Any]:
    """``continuity eval --json``: judge a summary against the archive it
    summarises; each fact of ``key`` supported, omitted or contradicted.
    The evaluator for ``judge`` is loaded once per process."""
    with _cache_lock:
        if judge not in _evaluators:
            _evaluators[judge] = Evaluator(judge)
        ev = _evaluators[judge]
    return ev.evaluate(summary, as_key(key), id=id, **_request(request))


def replay_conditions(
    strategies: Sequence[str] = ("summary-only", "kernel-only", "pins-only", "governed"),
    summarizers: Sequence[str] = ("none", "extractive"),
    damage: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """``continuity replay``'s conditions, in its order:
    ``{strategy, summarizer, damage, label}``."""
    return _native.replay_conditions(list(strategies), list(summarizers), list(damage))


def replay(
    session: Union[str, "os.PathLike[str]"],
    kernel: KernelLike,
    policy: PolicyLike,
    key: KeyLike,
    *,
    strategy: str = "governed",
    summarizer: str = "extractive",
    damage: Sequence[str] = (),
    tokenizer: TokenizerLike = None,
) -> dict[str, Any]:
    """Replay one recorded session (a reference run folder or a request
    file) under one condition: its requests, compactions, actions, the
    presence checks at each, and the run's tokens."""
    k = as_kernel(kernel)
    if k is None:
        raise InputError("replay needs a Mission Kernel (kernel=)")
    return _native.replay_session(
        os.fspath(session),
        kernel=k,
        policy=as_policy(policy),
        key=as_key(key),
        tokenizer=as_tokenizer(tokenizer),
        strategy=strategy,
        summarizer=summarizer,
        damage=list(damage),
    )
