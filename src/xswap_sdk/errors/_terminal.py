"""A watched operation that ended in failure, or a wait that ran out of time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._base import XSwapError

__all__ = [
    "RelayFailedError",
    "SwapFailedError",
    "TerminalStateError",
    "TransferFailedError",
    "WaitTimeoutError",
]


def _status_text(record: Any) -> str | None:
    """The status, as text, of a record a service or a node returned: its
    ``current_status`` (a routing status, in either shape), else its ``status`` field,
    else ``"reverted"`` for a transaction receipt whose ``status`` is 0; ``None`` when it
    says none."""
    if record is None:
        return None
    for name in ("current_status", "status"):
        text = getattr(record, name, None)
        if isinstance(text, str):
            return text
    if isinstance(record, Mapping) and record.get("status") in (0, "0x0"):
        return "reverted"
    return None


class TerminalStateError(XSwapError):
    """A watched operation reached a terminal failure state.

    Attributes:
        status: the status it ended in, as text (``"FAILED"``, ``"failed"``,
            ``"expired"``, ``"reverted"``...), or ``None`` when the record says none.
        record: the last record the service returned (a model), or the receipt.
    """

    def __init__(self, message: str, *, record: Any = None) -> None:
        self.record = record
        self.status: str | None = _status_text(record)
        super().__init__(message)


class RelayFailedError(TerminalStateError):
    """The relayer reports the transaction as FAILED.

    Attributes:
        record: the `RelayStatus` record (``status`` is its status, ``"FAILED"``).
        error_message: the relayer's failure message, when it gave one.
    """

    def __init__(self, message: str, *, record: Any = None, error_message: str | None = None):
        self.error_message = error_message
        super().__init__(message, record=record)


class SwapFailedError(TerminalStateError):
    """A swap, bridge or gasless swap ended in a failure state."""


class TransferFailedError(TerminalStateError):
    """A Circle Gateway transfer ended ``failed`` (on chain, or while forwarding) or
    ``expired`` (its attestation was not used in time).

    Attributes:
        status: ``"failed"`` or ``"expired"``.
        record: the last `TransferDetails` record Gateway returned.
        transfer_status: the same as ``status``.
    """

    def __init__(self, message: str, *, record: Any = None, transfer_status: str) -> None:
        self.transfer_status = transfer_status
        super().__init__(message, record=record)
        self.status: str | None = transfer_status


class WaitTimeoutError(XSwapError):
    """Polling ran out of time before the operation reached a terminal state.

    The operation itself was not cancelled and may still complete: check its status again
    later rather than submitting it a second time.

    Attributes:
        last_status: the last record seen, or ``None`` if none arrived.
        timeout: the time waited, in seconds.
    """

    def __init__(self, message: str, *, last_status: Any = None, timeout: float) -> None:
        self.last_status = last_status
        self.timeout = timeout
        super().__init__(message)
