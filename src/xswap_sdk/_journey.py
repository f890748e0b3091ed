"""What a flow driver does for a money journey: write its steps and report them.

The transport's ``run`` makes a `JourneyLog` when a flow yields `Begin` and the client
has a journal or an ``on_step`` hook (otherwise nothing is made and nothing changes).
The log writes each step to the journal in one transaction, and returns the
`StepEvent` the driver hands to ``on_step``. Money-moving calls are written by the
driver itself, around the request: ``submitted/sending`` with the exact body before it
leaves, then ``submitted/ok`` with the answer, or the failure with whether anything
was sent.
"""

from __future__ import annotations

import dataclasses
import os
import socket
from collections.abc import Container, Iterator, Mapping
from typing import Any, Final, TypeVar

from ._flow import Begin
from ._logging import logger
from ._operation import Operation
from .errors import JournalError, WaitTimeoutError, XSwapError
from .journal import Journal, JourneyState, StepEvent, StepHook
from .journal import _plain as plain

__all__ = [
    "OWNER",
    "SLOW_FACTOR",
    "STUCK_FACTOR",
    "JourneyLog",
    "end_state",
    "journaled",
    "owner",
    "request_data",
]

OWNER: Final = "owner"
"""The key of the process running a journey, in its ``started`` and ``resumed`` steps."""


def owner() -> dict[str, Any]:
    """This process, as a journey's owner: so that a resume elsewhere can tell whether
    the journey is still being run."""
    return {"pid": os.getpid(), "host": socket.gethostname()}


SLOW_FACTOR: Final = 1.5
"""A wait is reported ``slow`` once it has taken this many times its expected time."""

STUCK_FACTOR: Final = 4.0
"""... and ``stuck`` at this many times."""


def request_data(operation: Operation[Any]) -> dict[str, Any]:
    """What a journey keeps of a money-moving request it will send (its ``signed``
    step): method, path, query and the exact body, so resume can send the same bytes."""
    return {
        "method": operation.method,
        "path": operation.path,
        "params": [list(pair) for pair in operation.params or []],
        "body": operation.json,
    }


T = TypeVar("T")


def journaled(value: object, keys: Container[str], kind: type[T]) -> Iterator[T]:
    """Every ``kind`` value a step's data holds under one of ``keys``, at any depth
    (a journaled request body or answer nests them), in order; never a ``bool`` for an
    ``int``."""
    if isinstance(value, Mapping):
        for name, item in value.items():
            if name in keys and isinstance(item, kind) and not isinstance(item, bool):
                yield item
            else:
                yield from journaled(item, keys, kind)
    elif isinstance(value, list):
        for item in value:
            yield from journaled(item, keys, kind)


def end_state(exc: BaseException) -> JourneyState | None:
    """The state a journey ends in when its flow raised ``exc``; ``None`` leaves it
    ``running`` (interrupted: resume picks it up)."""
    if not isinstance(exc, XSwapError):
        return None  # cancelled or interrupted: nothing is known to be over
    if exc.sent == "outcome_unknown":
        return "needs_attention"
    if isinstance(exc, WaitTimeoutError):
        # A journey waits only after its request was accepted (in this run or, when
        # resumed, in the one before): still going, and resume waits again.
        return None
    return "failed"


def _request(request: Any) -> Any:
    # Shallow: a request's details are a read-only mapping, which asdict cannot copy.
    if dataclasses.is_dataclass(request) and not isinstance(request, type):
        return {f.name: getattr(request, f.name) for f in dataclasses.fields(request)}
    return request


class JourneyLog:
    """One journey being driven: its id, kind, journal and hook."""

    __slots__ = (
        "approved",
        "ended_as",
        "journal",
        "journey_id",
        "kind",
        "on_step",
        "pending",
        "watching",
    )

    def __init__(
        self, journal: Journal | None, on_step: StepHook | None, kind: str, journey_id: str | None
    ) -> None:
        self.journal = journal
        self.on_step = on_step
        self.kind = kind
        self.journey_id = journey_id
        self.ended_as: str | None = None
        # What the signing policies let through during the journey (see _policy_scope).
        self.approved: list[Any] = []
        self.pending: list[StepEvent] = []
        # The wait being watched: (started, expected seconds, what it follows, level).
        self.watching: tuple[float, float, Mapping[str, Any], int] | None = None

    @classmethod
    def begin(
        cls, journal: Journal | None, on_step: StepHook | None, step: Begin
    ) -> tuple[JourneyLog | None, StepEvent | None]:
        """The log of a `Begin` step and its first event; ``(None, None)`` when there is
        neither a journal nor a hook."""
        if journal is None and on_step is None:
            return None, None
        if step.resume is not None:
            log = cls(journal, on_step, step.kind, step.resume)
            return log, log.record("resumed", "ok", {**step.data, OWNER: owner()})
        data = step.data if journal is None else {**step.data, OWNER: owner()}
        journey_id = None if journal is None else journal.start(step.kind, data)
        log = cls(journal, on_step, step.kind, journey_id)
        return log, StepEvent(journey_id, step.kind, "started", "started", plain(step.data))

    def record(
        self,
        step: str,
        status: str,
        data: Mapping[str, Any],
        state: str | None = None,
    ) -> StepEvent:
        """Write a step (one transaction) and return its event."""
        if step == "signed" and self.approved:
            data = {**data, "approved": [_request(r) for r in self.approved]}
            self.approved.clear()
        values = plain(data)
        if state is not None:
            self.ended_as = state
        if self.journal is not None and self.journey_id is not None:
            try:
                self.journal.record(
                    self.journey_id,
                    step,
                    status,
                    values,
                    state=state,  # type: ignore[arg-type]
                )
            except Exception as exc:
                self._not_written(step, status, exc)
        return StepEvent(self.journey_id, self.kind, step, status, values)

    def _not_written(self, step: str, status: str, exc: Exception) -> None:
        # Before a money-moving request (what it signed, "sending", a payment) the journal
        # is what makes a crash recoverable: without it, nothing is sent. After, the
        # result matters more than its record.
        what = f"{self.kind} journey {self.journey_id}: step {step}/{status}"
        if step == "signed" or status == "sending":
            raise JournalError(
                f"could not write the journal ({type(exc).__name__}) for {what}; nothing was sent",
                journey_id=self.journey_id,
                step=step,
            ) from None
        logger.warning("could not write the journal (%s) for %s", type(exc).__name__, what)

    def watch(self, data: Mapping[str, Any], now: float) -> None:
        """Start watching a wait that says its ``expected_seconds`` (any other step ends
        the watch)."""
        expected = data.get("expected_seconds")
        if isinstance(expected, int | float) and expected > 0:
            self.watching = (now, float(expected), data, 0)
        else:
            self.watching = None

    def tick(self, now: float) -> StepEvent | None:
        """The stall watchdog, after each sleep of a watched wait: ``slow`` past
        `SLOW_FACTOR` times the expected time, ``stuck`` past `STUCK_FACTOR`, each once,
        with the next safe action. The request was sent and accepted (this is a wait
        after it), so the action is never to send it again."""
        if self.watching is None:
            return None
        started, expected, followed, level = self.watching
        elapsed = now - started
        if level < 2 and elapsed >= expected * STUCK_FACTOR:
            level, step = 2, "stuck"
            action = (
                "do not submit again: it was accepted and may still complete; check it at "
                "the service, and resume this journey later"
            )
        elif level < 1 and elapsed >= expected * SLOW_FACTOR:
            level, step = 1, "slow"
            action = "keep waiting: it was accepted; do not submit again"
        else:
            return None
        self.watching = (started, expected, followed, level)
        data = {
            "elapsed_seconds": round(elapsed, 1),
            "expected_seconds": expected,
            "next": action,
            **{k: v for k, v in followed.items() if k != "expected_seconds"},
        }
        return self.record(step, "ok", data)

    def sending(self, operation: Operation[Any], now: float) -> StepEvent:
        """``submitted/sending``: the exact request, written before it leaves, and the
        time by the client's clock (``clock_time``: what a service's records are
        compared with when resume looks for a request that may have arrived)."""
        return self.record("submitted", "sending", {**request_data(operation), "clock_time": now})

    def paid(self, payment: Mapping[str, str]) -> None:
        """``paid/ok``: the x402 payment header about to be sent with the request (its
        event is reported after the call)."""
        self.pending.append(self.record("paid", "sending", {"headers": dict(payment)}))

    def answered(self, answer: object) -> StepEvent:
        """``submitted/ok`` with the service's answer."""
        return self.record("submitted", "ok", {"answer": answer})

    def send_failed(self, exc: XSwapError) -> StepEvent:
        """``submitted/<sent>``: the request failed; whether it reached the service."""
        return self.record("submitted", exc.sent, {"error": type(exc).__name__})

    def completed(self, result: object) -> StepEvent | None:
        """``completed``: the flow returned; the journey is over (unless the flow already
        said how it ended: a resume that found it needs attention)."""
        if self.ended_as is not None:
            return None
        return self.record("completed", "ok", {}, state="completed")

    def ended(self, exc: BaseException) -> StepEvent:
        """The flow raised ``exc``: write how the journey stands."""
        state = end_state(exc)
        status = exc.sent if isinstance(exc, XSwapError) else "interrupted"
        step = state or "interrupted"
        return self.record(step, status, {"error": type(exc).__name__}, state=state)
