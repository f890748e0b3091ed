"""What a flow driver keeps for a money journey: its rows, its replay, its end.

A journey is one flow (see ``xswap_sdk._flow``) run by the transport's driver
(``_async_driver``). Every step the flow yields after `Begin` has a position; the driver
writes what each one did to the journal as a row at that position. On resume, the same
flow runs again from its journaled terms, and `JourneyRun.recorded` gives the driver
the rows of each position, so that a step with a record is fed its recorded result
instead of being performed (replay). The first position with no row runs live.

The rules the driver holds every journey to, whatever its kind:

- **The same request, or a person.** A replayed step must ask what its record asked
  (the same request, the same digest to sign); one that differs stops the journey
  ``needs_attention`` (`Diverged`): never different content signed or sent.
- **Nothing new signed on resume.** A resume reaching a signature with no record stops
  (`xswap_sdk.errors.RestartRequiredError`) unless it was asked to ``restart``.
- **Nothing sent twice.** A money request written ``sending`` with no answer may have
  arrived: it is sent again only when its content can take effect once
  (``Operation.single_use``: burn intents by salt, Permit2 and EIP-3009 nonces, a
  signed transaction's nonce), else the journey needs attention.
- **States that tell the truth.** `end_state` decides how an error ends a journey, and
  after a money request was accepted every error says ``sent``.

Rows are serialised once, to JSON text (`encode`), and written in batches: before each
request that may move money (``durable``: on disk), before a wait, after a chain
transaction is signed, and at the end (``durable``). A money request's answer is
written before the flow's next request, signature, question or wait, or with the end
(`JourneyRun.hold`): a swap is two commits. A crash loses at most reads, times and an
answer, which the resumed flow takes again or asks the service for (a request written
``sending`` with no answer is handled as one that may have arrived).
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

import pydantic_core

from ._logging import logger
from ._operation import Operation, query_string
from .errors import (
    InvalidInputError,
    JourneyBusyError,
    MissingCredentialsError,
    RestartRequiredError,
    TerminalStateError,
    WaitTimeoutError,
    XSwapError,
)

if TYPE_CHECKING:
    from ._flow import Begin
    from .journal import (
        Journal,
        Journey,
        JourneyState,
        NewRow,
        Owner,
        Row,
        StepEvent,
        StepHook,
    )

__all__ = [
    "SLOW_FACTOR",
    "STUCK_FACTOR",
    "Diverged",
    "JourneyRun",
    "Resumption",
    "decode_json",
    "encode",
    "end_state",
    "request_digest",
]

SLOW_FACTOR: Final = 1.5
"""A wait is reported ``slow`` once it has taken this many times its expected time."""

STUCK_FACTOR: Final = 4.0
"""... and ``stuck`` at this many times."""

T = TypeVar("T")

# Keys never written, wherever they appear: a signer's key or a session token has no
# business in a journal, even if a payload someday carries one.
_FORBIDDEN_KEYS: Final = frozenset({"privatekey", "private_key", "jwt", "apikey", "api_key"})
_FORBIDDEN_TEXT: Final = tuple(f'"{key}"' for key in _FORBIDDEN_KEYS)


def _fallback(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return "0x" + bytes(value).hex()
    return str(value)


def encode(value: Any) -> str:
    """``value`` as the JSON text a journal writes: models by their wire names, decimals
    as strings; a credential's key (``private_key``, ``jwt``, ``api_key``...) dropped
    wherever it sits. One serialisation: the text is written as it is."""
    text = pydantic_core.to_json(
        value, by_alias=True, bytes_mode="hex", fallback=_fallback
    ).decode()
    lowered = text.lower()
    if any(key in lowered for key in _FORBIDDEN_TEXT):
        text = json.dumps(_scrub(json.loads(text)))
    return text


def decode_json(text: str) -> Any:
    """The value `encode` wrote."""
    return json.loads(text)


def _scrub(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {
            str(k): _scrub(v) for k, v in value.items() if str(k).lower() not in _FORBIDDEN_KEYS
        }
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value


def request_digest(operation: Operation[Any]) -> tuple[str, str | None]:
    """What identifies a request on replay: a digest of its method, path, query and body,
    and the body's JSON text (``None`` without a body)."""
    body = operation.json
    text = None if body is None else encode(body)
    h = hashlib.sha256(f"{operation.method}\0{operation.path}\0".encode())
    if operation.params:
        h.update(query_string(operation.params).encode())
    h.update(b"\0")
    if text is not None:
        h.update(text.encode())
    return h.hexdigest(), text


def value_digest(value: Any) -> str:
    """A digest of a chain step's arguments (compared on replay)."""
    return hashlib.sha256(encode(value).encode()).hexdigest()


class Diverged(Exception):  # noqa: N818 (a signal, not a failure)
    """The replayed flow asked for something else than its record at ``pos``: the
    journey is stopped for a person (``needs_attention``); nothing is sent."""

    def __init__(self, pos: int, recorded: str, asked: str) -> None:
        self.pos = pos
        self.recorded = recorded
        self.asked = asked
        super().__init__(f"step {pos}: the journal recorded {recorded}, the flow asked {asked}")


class Stop(Exception):  # noqa: N818 (a signal, not a failure)
    """End the journey where it stands: ``state`` with a reason, nothing more sent
    (a resume that found a request may have arrived and cannot be sent again)."""

    def __init__(
        self, step: str, status: str, data: Mapping[str, Any], state: JourneyState
    ) -> None:
        self.step = step
        self.status = status
        self.data = data
        self.state = state
        super().__init__(f"{step}/{status}")


class Resumption:
    """A journey being resumed: its record and who resumes it.

    Attributes:
        journey: the journey as claimed (authentic, leased to ``owner``).
        owner: this run's lease holder.
        restart: whether the resume may sign what was not signed before (and so goes
            on live after the last request that may have moved money).
    """

    __slots__ = ("journey", "owner", "restart")

    def __init__(self, journey: Journey, owner: Owner, restart: bool) -> None:
        self.journey = journey
        self.owner = owner
        self.restart = restart


def replay_rows(journey: Journey, restart: bool) -> dict[int, list[Row]]:
    """The rows replay reads, by position: the last run's rows for each position (a
    ``restarted`` marker drops the positions it reran), and with ``restart`` only those
    up to the last request that may have moved money, so the rest runs live."""
    by_pos: dict[int, list[Row]] = {}
    for row in journey.rows:
        if row.pos is None:
            if row.step == "restarted":
                start = row.data.get("from_pos")
                if isinstance(start, int):
                    for pos in [p for p in by_pos if p >= start]:
                        del by_pos[pos]
            continue
        by_pos.setdefault(row.pos, []).append(row)
    if restart:
        keep = _last_sent(by_pos)
        for pos in [p for p in by_pos if p > keep]:
            del by_pos[pos]
    return by_pos


def restart_from(journey: Journey) -> int:
    """The first position a ``restart`` runs live (see `replay_rows`)."""
    rows = replay_rows(journey, restart=True)
    return max(rows) + 1 if rows else 1


def _last_sent(by_pos: Mapping[int, list[Row]]) -> int:
    """The position of the last request that may have moved money (a money request or
    a broadcast written ``sending``), and of the answer that followed it; 0 when none."""
    last = 0
    for pos, rows in by_pos.items():
        if any(row.status == "sending" for row in rows):
            last = max(last, pos)
    return last


class JourneyRun:
    """One run of one journey: its position, its unwritten rows, its replay and its
    events. The driver performs; this keeps the books (no I/O but the journal calls the
    driver makes through `flush`)."""

    __slots__ = (
        "accepted",
        "approved",
        "ended",
        "held",
        "held_state",
        "journal",
        "journey_id",
        "kind",
        "last_write",
        "on_step",
        "owner",
        "pending",
        "pos",
        "records",
        "restart",
        "resuming",
        "watching",
    )

    def __init__(
        self,
        journal: Journal | None,
        on_step: StepHook | None,
        kind: str,
        journey_id: str | None,
        owner: Owner | None,
        records: dict[int, list[Row]] | None = None,
        *,
        resuming: bool = False,
        restart: bool = False,
    ) -> None:
        self.journal = journal
        self.on_step = on_step
        self.kind = kind
        self.journey_id = journey_id
        self.owner = owner
        self.records = records or {}
        self.resuming = resuming
        self.restart = restart
        self.pos = 0
        self.pending: list[NewRow] = []
        self.accepted = False
        # What the signing policies let through (see _policy_scope.APPROVED).
        self.approved: list[Any] = []
        self.ended: JourneyState | None = None
        # Events (and a state) held until the rows they follow are written (`hold`).
        self.held: list[StepEvent] | None = None
        self.held_state: JourneyState | None = None
        self.last_write = time.monotonic()
        # The wait being watched: (started, expected seconds, what it follows, level).
        self.watching: tuple[float, float, Mapping[str, Any], int] | None = None

    @property
    def writes(self) -> bool:
        """Whether rows are written (a journal and a journey in it)."""
        return self.journal is not None and self.journey_id is not None

    # -- positions and replay

    def next(self) -> tuple[int, list[Row] | None]:
        """The next step's position and its recorded rows (``None``: run it live)."""
        self.pos += 1
        rows = self.records.get(self.pos)
        if rows is None and self.records:
            # Past the record: everything from here on is live.
            self.records = {}
        return self.pos, rows

    @staticmethod
    def expect(pos: int, rows: list[Row], step: str, request: str | None = None) -> Row:
        """The first row of ``pos``, which must be ``step`` for ``request``.

        Raises:
            Diverged: it is another step, or for another request.
        """
        first = rows[0]
        if first.step != step:
            raise Diverged(pos, f"a {first.step} step", f"a {step} step")
        if request is not None and first.data.get("request") != request:
            raise Diverged(pos, f"another {step} request", f"a {step} request that differs")
        return first

    def may_sign(self, what: str) -> None:
        """Refuse a new signature on a resume that was not asked to restart.

        Raises:
            RestartRequiredError: with what to do.
        """
        if self.resuming and not self.restart:
            raise RestartRequiredError(
                f"resuming {self.kind} journey {self.journey_id} would sign {what}, which was "
                "not signed before it stopped; nothing was signed or sent. Pass "
                f"restart=True (xswap resume --restart {self.journey_id}) to go on as a new "
                "call would, through the client's checks, pins and policy",
                journey_id=self.journey_id,
            )

    # -- rows and events

    def add(
        self,
        pos: int | None,
        step: str,
        status: str,
        data: Mapping[str, Any] | str,
        *,
        body: bytes | None = None,
        identities: Sequence[str] = (),
        event: bool = False,
    ) -> StepEvent | None:
        """Keep a row to write with the next `flush`; with ``event``, also return the
        `StepEvent` for ``on_step`` (only when there is a hook)."""
        reported = event and self.on_step is not None
        if not reported and not self.writes:
            return None  # neither kept nor reported: not serialised
        from .journal import NewRow, StepEvent  # lazy: journaled or reported runs only

        text = data if isinstance(data, str) else encode(data)
        if self.writes:
            self.pending.append(NewRow(pos, step, status, text, body, tuple(identities)))
        if reported:
            return StepEvent(self.journey_id, self.kind, step, status, json.loads(text))
        return None

    def hold(self, *, state: JourneyState | None = None) -> None:
        """Keep the rows so far (and ``state``) for the next write, which comes before
        the flow's next request, signature, question or wait, or at its end; the events
        from here on are reported after it. A swap's answer and its end are thus one
        write rather than three."""
        if self.writes and self.held is None:
            self.held = []
        if state is not None:
            self.held_state = self.ended = state

    def flush(
        self,
        *,
        durable: bool = False,
        state: JourneyState | None = None,
        release: bool = False,
    ) -> Callable[[], None] | None:
        """The journal write that would write the kept rows (and ``state``), or ``None``
        when there is nothing to write: the driver calls it (off the event loop, in an
        async client)."""
        if not self.writes or (
            not self.pending
            and state is None
            and self.held_state is None
            and not release
            and not durable
        ):
            return None
        journal, journey_id, owner = self.journal, self.journey_id, self.owner
        assert journal is not None
        assert journey_id is not None
        assert owner is not None
        rows, self.pending = self.pending, []
        if state is None:
            state, self.held_state = self.held_state, None
        else:
            self.ended, self.held_state = state, None

        # A partial of the journal's own method: an async driver awaits its coroutine
        # when the journal has one (see xswap_sdk._journal_io).
        write = functools.partial(
            journal.append, journey_id, owner, rows, state=state, durable=durable, release=release
        )
        self.last_write = time.monotonic()
        return write

    def due(self, now: float) -> bool:
        """Whether the lease should be renewed now (a third of it has passed)."""
        if not self.writes:
            return False
        assert self.journal is not None
        return now - self.last_write > self.journal.lease_seconds / 3

    def started_event(self, terms: Mapping[str, Any]) -> StepEvent | None:
        """The ``started`` (or ``resumed``) event."""
        if self.on_step is None:
            return None
        from .journal import StepEvent  # lazy: reported runs only

        step, status = ("resumed", "ok") if self.resuming else ("started", "started")
        return StepEvent(self.journey_id, self.kind, step, status, json.loads(encode(terms)))

    # -- the stall watchdog

    def watch(self, data: Mapping[str, Any], now: float) -> None:
        """Start watching a wait that says its ``expected_seconds`` (any other step ends
        the watch)."""
        expected = data.get("expected_seconds")
        if isinstance(expected, int | float) and not isinstance(expected, bool) and expected > 0:
            self.watching = (now, float(expected), data, 0)
        else:
            self.watching = None

    def tick(self, now: float) -> StepEvent | None:
        """After each sleep of a watched wait: ``slow`` past `SLOW_FACTOR` times the
        expected time, ``stuck`` past `STUCK_FACTOR`, each once, with the next safe
        action. The request was sent and accepted (this is a wait after it), so the
        action is never to send it again."""
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
        return self.add(None, step, "ok", data, event=True)

    # -- the end

    def completed(self) -> tuple[StepEvent | None, JourneyState | None]:
        """The flow returned: ``completed`` (unless a step already said how it ended)."""
        if self.ended is not None:
            return None, None
        return self.add(None, "completed", "ok", {}, event=True), "completed"

    def failed(self, exc: BaseException) -> tuple[StepEvent | None, JourneyState | None]:
        """The flow raised ``exc``: mark the error with the journey and what was sent, and
        say how the journey stands."""
        if isinstance(exc, XSwapError):
            if exc.journey_id is None:
                exc.journey_id = self.journey_id
            if self.accepted and exc.sent == "not_sent":
                exc._journey_sent = "sent"
        if isinstance(exc, JourneyBusyError):
            return None, None  # not ours any more: nothing is written
        state = end_state(exc, accepted=self.accepted, resuming=self.resuming)
        status = exc.sent if isinstance(exc, XSwapError) else "interrupted"
        step = state or "interrupted"
        data: dict[str, Any] = {"error": type(exc).__name__}
        if isinstance(exc, RestartRequiredError | InvalidInputError) and self.resuming:
            data["reason"] = str(exc)
        return self.add(None, step, status, data, event=True), state


RESUME_INPUTS: Final = ("signer", "web3", "journal_key")
"""What a resume is given besides the journey: an error about one of them is the
resume's, and leaves the journey as it was."""


def end_state(
    exc: BaseException, *, accepted: bool = False, resuming: bool = False
) -> JourneyState | None:
    """The state a journey ends in when its flow raised ``exc``; ``None`` leaves it as
    it was (``running``: resume picks it up).

    ``failed`` only when the service or the chain said so, or before anything was sent
    (nothing at stake). A missing credential or a bad argument of a resume leaves the
    journey as it was; after a money request was accepted, only the service's own word
    that it failed (`TerminalStateError`) fails the journey.
    """
    if not isinstance(exc, XSwapError):
        return None  # cancelled or interrupted: nothing is known to be over
    if exc.sent == "outcome_unknown":
        return "needs_attention"
    if isinstance(exc, WaitTimeoutError | RestartRequiredError | JourneyBusyError):
        return None
    if resuming and (
        isinstance(exc, MissingCredentialsError)
        or (isinstance(exc, InvalidInputError) and exc.argument in RESUME_INPUTS)
    ):
        return None  # the resume lacked something (a signer, web3): try again with it
    if accepted and not isinstance(exc, TerminalStateError):
        return None  # the money moved: a later read failed, and resume reads again
    return "failed"


def done(journey: Journey) -> bool:
    """Whether a journey is over (``completed`` or ``failed``)."""
    from .journal import DONE_STATES  # lazy: journaled runs only

    return journey.state in DONE_STATES


def warn_unwritten(run: JourneyRun, what: str, exc: Exception) -> None:
    """A write after the money request failed: the result matters more than its record."""
    logger.warning(
        "could not write the journal (%s) for %s journey %s: %s",
        type(exc).__name__,
        run.kind,
        run.journey_id,
        what,
    )


def begin_terms(step: Begin) -> str:
    """A `Begin` step's terms as the JSON text the journal keeps (and compares)."""
    return encode(step.terms)


def identities_of(data: Mapping[str, Any], keys: Iterable[str]) -> list[str]:
    """The string values of ``data`` under ``keys`` (for a row's identities)."""
    return [v for k in keys if isinstance(v := data.get(k), str) and v]
