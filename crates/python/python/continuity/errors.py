"""The exceptions `continuity` raises.

Each class is one of the CLI's exit codes, and each message is the one the
CLI prints after ``error:``:

- :class:`InternalError` (exit 1): a bug or an environment problem.
- :class:`InputError` (exit 2): bad input; the message names the input and
  the problem, and nothing was written.
- :class:`NotAllowedError` (exit 3): a governance check said no (a tool call
  preflight did not allow).
- :class:`GovernanceError` (exit 4): a governance check failed closed (a
  policy pin that does not verify, an expired constraint, a broken ledger).
"""

from __future__ import annotations

from typing import Any, Optional

__all__ = [
    "ContinuityError",
    "InternalError",
    "InputError",
    "NotAllowedError",
    "GovernanceError",
]


class ContinuityError(Exception):
    """Base of every error `continuity` raises; `exit_code` is the CLI's."""

    exit_code: int = 1


class InternalError(ContinuityError):
    exit_code = 1


class InputError(ContinuityError, ValueError):
    exit_code = 2


class NotAllowedError(ContinuityError):
    """A tool call the kernel does not allow; `verdict` is the preflight's."""

    exit_code = 3

    def __init__(self, message: str, verdict: Optional[dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.verdict = verdict


class GovernanceError(ContinuityError):
    exit_code = 4
