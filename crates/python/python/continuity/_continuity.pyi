"""Type stubs of the native module `continuity._continuity` (Rust, PyO3).

Every function releases the GIL while the library works. Requests are given
exactly once, as ``value=`` (a dict or list), ``text=`` (JSON text) or
``path=`` (a file the library reads). Errors are ``continuity.errors``
exceptions.
"""

from typing import Any, Optional, Sequence

__version__: str
SUMMARIZERS: list[str]
DEFAULT_JUDGE: str

class Kernel:
    """A Mission Kernel, checked at load (pinned sha256, expiry)."""

    @staticmethod
    def load(path: str) -> Kernel: ...
    @staticmethod
    def from_toml(text: str, source: str = "<kernel>") -> Kernel: ...
    @staticmethod
    def from_dict(document: dict[str, Any], source: str = "<kernel dict>") -> Kernel: ...
    @property
    def id(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def sha256(self) -> str: ...
    @property
    def prohibitions(self) -> list[str]: ...
    def render(self) -> str: ...

class Policy:
    """A retention policy; ``Policy()`` is the built-in defaults."""

    def __init__(self) -> None: ...
    @staticmethod
    def load(path: str) -> Policy: ...
    @staticmethod
    def from_toml(text: str, source: str = "<policy>") -> Policy: ...
    @staticmethod
    def from_dict(document: dict[str, Any], source: str = "<policy dict>") -> Policy: ...
    @property
    def id(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def sha256(self) -> str: ...
    @property
    def trigger_tokens(self) -> int: ...
    @property
    def target_tokens(self) -> int: ...
    @property
    def min_new_tool_results(self) -> int: ...

class Key:
    """An answer key: tracked facts and mission terms."""

    @staticmethod
    def load(path: str) -> Key: ...
    @staticmethod
    def from_toml(text: str, source: str = "<key>") -> Key: ...
    @property
    def facts(self) -> list[str]: ...

class TokenCounter:
    """An exact token counter; ``spec`` as ``--tokenizer`` (default: the
    bundled SmolLM2 tokenizer)."""

    def __init__(self, spec: Optional[str] = None) -> None: ...
    def count(self, text: str) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def sha256(self) -> str: ...

class Summarizer:
    """A summarizer by its CLI name; a model is loaded once and kept."""

    def __init__(self, name: str = "extractive", *, lookahead: Optional[int] = None) -> None: ...
    def load(self) -> None: ...
    @property
    def is_model(self) -> bool: ...
    @property
    def name(self) -> str: ...

class Evaluator:
    """The meaning-level evaluator; embedder and judge loaded once."""

    def __init__(self, judge: str = ...) -> None: ...
    def evaluate(
        self,
        summary: str,
        key: Key,
        *,
        value: Any = None,
        text: Optional[str] = None,
        path: Optional[str] = None,
        id: str = "summary",
    ) -> dict[str, Any]: ...
    @property
    def judge(self) -> str: ...

def compact(
    *,
    kernel: Optional[Kernel],
    policy: Policy,
    summarizer: Summarizer,
    tokenizer: Optional[TokenCounter] = None,
    strategy: str = "governed",
    value: Any = None,
    text: Optional[str] = None,
    path: Optional[str] = None,
    input_name: Optional[str] = None,
    run_id: Optional[str] = None,
    previous_pin: Optional[bytes] = None,
    out: Optional[str] = None,
) -> dict[str, Any]:
    """``{request, report, audit, summary, policy_pin, files}``."""

def plan(
    *,
    kernel: Optional[Kernel],
    policy: Policy,
    summarizer: Summarizer,
    tokenizer: Optional[TokenCounter] = None,
    value: Any = None,
    text: Optional[str] = None,
    path: Optional[str] = None,
    input_name: Optional[str] = None,
) -> list[dict[str, Any]]: ...
def trigger(
    *,
    policy: Policy,
    tokenizer: Optional[TokenCounter] = None,
    value: Any = None,
    text: Optional[str] = None,
    path: Optional[str] = None,
) -> dict[str, Any]: ...
def count_request(
    *,
    tokenizer: Optional[TokenCounter] = None,
    value: Any = None,
    text: Optional[str] = None,
    path: Optional[str] = None,
) -> int: ...
def kernel_instructions(instructions: list[str], kernel: Kernel) -> list[str]: ...
def preflight(
    *,
    kernel: Kernel,
    value: Any = None,
    text: Optional[str] = None,
    path: Optional[str] = None,
    scope: Sequence[str] = (),
    ledger: Optional[str] = None,
) -> list[dict[str, Any]]: ...
def replay_conditions(
    strategies: list[str], summarizers: list[str], damage: list[str] = ...
) -> list[dict[str, Any]]: ...
def replay_session(
    session: str,
    *,
    kernel: Kernel,
    policy: Policy,
    key: Key,
    tokenizer: TokenCounter,
    strategy: str,
    summarizer: str,
    damage: list[str] = ...,
) -> dict[str, Any]: ...
