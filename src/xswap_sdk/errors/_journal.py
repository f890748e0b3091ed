"""The journal could not be written or read, or refused a journey."""

from __future__ import annotations

from ._base import XSwapError

__all__ = [
    "JournalError",
    "JourneyBusyError",
    "JourneyTamperedError",
    "RestartRequiredError",
]


class JournalError(XSwapError):
    """The journal could not be written or read as a journey needs.

    Raised before a money-moving request when its step could not be written: the
    request was not sent (a journey that could not be resumed is not started). A write
    that fails after the request only logs a warning: the call's result is not lost.

    Attributes:
        journey_id: the journey, when it has one.
        step: the step concerned.
    """

    def __init__(self, message: str, *, journey_id: str | None, step: str) -> None:
        self.journey_id = journey_id
        self.step = step
        super().__init__(message)


class JourneyBusyError(JournalError):
    """Another run holds the journey's lease: a live call, or a resume, in this process or
    another, on this host or another. Nothing was signed or sent. Wait for it, or resume
    once its lease has expired (a run whose process died on this host frees it at once).

    Attributes:
        holder: who holds it (``process 123 on host``), when known.
    """

    def __init__(self, message: str, *, journey_id: str | None, holder: str | None = None) -> None:
        self.holder = holder
        super().__init__(message, journey_id=journey_id, step="claim")


class JourneyTamperedError(JournalError):
    """A journey's terms or steps do not carry a valid MAC of the journal key: someone
    else wrote them (or the key is not the one they were written with). The journey is
    refused and left as it is; nothing was signed or sent."""

    def __init__(self, message: str, *, journey_id: str | None) -> None:
        super().__init__(message, journey_id=journey_id, step="verify")


class RestartRequiredError(JournalError):
    """Resuming the journey would sign something that was not signed before it stopped
    (a new quote, a mint, a transaction). A resume never does that on its own: pass
    ``restart=True`` (``xswap resume --restart ID``), and the journey goes on as a new
    call would, through the client's checks, pins and policy. Nothing was signed or
    sent; the journey is left as it was."""

    def __init__(self, message: str, *, journey_id: str | None, step: str = "sign") -> None:
        super().__init__(message, journey_id=journey_id, step=step)
