"""A journal of money journeys: what each step did, written before and after it.

Give a client ``journal=`` (a path to an SQLite file, or any `Journal`), or set
``XSWAP_JOURNAL`` to a path, and each money-moving call (a Flash ``swap`` or
``submit_swap``, a ``gasless_swap``, a relayer ``relay``/``relay_sync``/``submit_tx``/
``relay_signed_tx``, a Gateway ``send_transfer``/``transfer``/``mint``, a ``route``
execution, a ``deposit`` sent by web3) writes a *journey*: its arguments, the
verified quote, the exact payload or signed transaction it sends (before sending it),
the answers, ids, transaction hashes and attestations. After a crash,
``client.resume(journey_id)`` or ``xswap resume`` finishes what can be finished safely
(see ``docs/journeys.md``). Without a journal nothing is written and nothing changes.

The journal is **sensitive**: it holds signatures and signed payloads (resume needs
them), never a private key, a JWT or an API key. Keep it where you keep wallet files.

`SQLiteJournal` is the embedded default (the standard library's `sqlite3`, WAL mode,
one transaction per step). A service with several workers can put journeys in its own
database by implementing the four methods of `Journal`.
"""

from __future__ import annotations

import json
import os
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, Final, Literal, Protocol, TypeAlias, runtime_checkable

from . import _html
from .errors import InvalidInputError

__all__ = [
    "JOURNAL_ENV",
    "Journal",
    "JournalStep",
    "Journey",
    "JournalArg",
    "JourneyState",
    "PRIVATE_KEY_ENV",
    "ResumeResult",
    "SQLiteJournal",
    "StepEvent",
    "StepHook",
    "open_journal",
]

JOURNAL_ENV: Final = "XSWAP_JOURNAL"
"""The environment variable read for a journal path when a client gets no ``journal=``."""

PRIVATE_KEY_ENV: Final = "XSWAP_PRIVATE_KEY"
"""The environment variable resume reads a signer's key from when a step still needs a
signature and the client has no signer (never written anywhere)."""

JourneyState: TypeAlias = Literal["running", "completed", "failed", "needs_attention"]
"""Where a journey stands: still going (or interrupted), done, failed with nothing left
in flight, or stopped where only a person can tell what happened."""

JournalArg: TypeAlias = "str | os.PathLike[str] | Journal"
"""What ``journal=`` takes: a path to an SQLite file, or a `Journal`."""

_STATES: Final = ("running", "completed", "failed", "needs_attention")

# Keys never written, wherever they appear: a signer's key or a session token has no
# business in a journal, even if a payload someday carries one.
_FORBIDDEN_KEYS: Final = frozenset({"privatekey", "private_key", "jwt", "apikey", "api_key"})


@dataclass(frozen=True, slots=True)
class StepEvent:
    """One step of a journey, as ``on_step=`` receives it.

    Attributes:
        journey_id: the journey's id in the journal, or ``None`` without a journal.
        kind: ``"swap"``, ``"gasless_swap"``, ``"relay"``, ``"relay_sync"``,
            ``"transfer"``, ``"mint"``, ``"route"`` or ``"deposit"``.
        step: ``"started"``, ``"quoted"``, ``"requoted"``, ``"verified"``,
            ``"prepared"``, ``"signed"``, ``"paid"``, ``"submitted"``, ``"broadcast"``,
            ``"confirmed"``, ``"approved"``, ``"waiting"``, ``"slow"``, ``"stuck"``,
            ``"executed"``, ``"attested"``, ``"minted"``, ``"finalized"``, ``"found"``,
            ``"completed"``, ``"failed"``, ``"needs_attention"`` or ``"resumed"``.
        status: ``"ok"``, ``"sending"`` (a money-moving request is about to leave),
            ``"not_sent"``, ``"outcome_unknown"`` or ``"sent"`` (for a failure: whether
            anything reached the service), or ``"started"``.
        data: what the step produced (plain JSON values).
    """

    journey_id: str | None
    kind: str
    step: str
    status: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        return _html.event_repr(self)  # short: its data's names, not their values


StepHook: TypeAlias = Callable[[StepEvent], object]
"""What ``on_step=`` takes: a callable receiving each `StepEvent` (its errors are logged
and ignored; an async client awaits what it returns)."""


@dataclass(frozen=True, slots=True)
class JournalStep:
    """One written step of a journey.

    Attributes:
        seq: its order in the journey, from 0.
        step: the step's name (see `StepEvent.step`).
        status: its status (see `StepEvent.status`).
        data: what it produced.
        at: when it was written, in Unix seconds.
    """

    seq: int
    step: str
    status: str
    data: Mapping[str, Any]
    at: float

    def __repr__(self) -> str:
        return _html.step_repr(self)  # short: its data's names, not their values


@dataclass(frozen=True, slots=True)
class Journey:
    """A journey as the journal holds it.

    Attributes:
        id: its id.
        kind: what it does (see `StepEvent.kind`).
        state: `JourneyState`.
        created_at: when it started, in Unix seconds.
        updated_at: when its last step was written.
        steps: its steps, in order; the first (``started``) holds its arguments.
    """

    id: str
    kind: str
    state: JourneyState
    created_at: float
    updated_at: float
    steps: tuple[JournalStep, ...] = ()

    def __repr__(self) -> str:
        return _html.journey_repr(self)  # short: no step data (it holds signatures)

    def _repr_html_(self) -> str:
        return _html.journey_html(self)  # a notebook's timeline of the steps

    def last(self, step: str, status: str | None = None) -> JournalStep | None:
        """The last written ``step`` (with ``status``, when given), or ``None``."""
        for entry in reversed(self.steps):
            if entry.step == step and (status is None or entry.status == status):
                return entry
        return None

    @property
    def arguments(self) -> Mapping[str, Any]:
        """What the journey was started with (its ``started`` step's data)."""
        return self.steps[0].data if self.steps else {}

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values, as ``xswap journeys --json`` prints them."""
        return {
            "id": self.id,
            "kind": self.kind,
            "state": self.state,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "steps": [
                {
                    "seq": s.seq,
                    "step": s.step,
                    "status": s.status,
                    "data": dict(s.data),
                    "at": s.at,
                }
                for s in self.steps
            ],
        }


@dataclass(frozen=True, slots=True)
class ResumeResult:
    """What ``client.resume(journey_id)`` did.

    Attributes:
        journey: the journey as the journal now holds it (its ``state`` says how it
            ended: ``completed``, ``failed``, ``needs_attention``, or still ``running``
            when a wait ran out again).
        result: what the journey's call would have returned (a ``SwapSubmission``, a
            ``GaslessSwapResult``, a relayer ``SubmitTxResult`` or ``RelayStatus``, a
            Gateway ``TransferResult`` (minted, or to mint with) or ``MintResult``, a
            ``RouteExecution``, a ``DepositResult``), or ``None`` when it did not end
            with one.
    """

    journey: Journey
    result: Any = None

    @property
    def state(self) -> JourneyState:
        """The journey's state after the resume."""
        return self.journey.state


@runtime_checkable
class Journal(Protocol):
    """Where journeys are kept. Each method is one transaction; a journey's writes come
    from one process at a time (the one running or resuming it).

    Adapter sketch for a service's own database (see ``docs/journeys.md``)::

        class PostgresJournal:
            def start(self, kind, data): ...        # INSERT a journey and its step 0
            def record(self, journey_id, step, status, data, *, state=None): ...
            def journey(self, journey_id): ...      # SELECT it with its steps
            def journeys(self): ...
    """

    def start(self, kind: str, data: Mapping[str, Any]) -> str:
        """Create a ``running`` journey whose step 0 is ``started`` with ``data``;
        return its id."""
        ...

    def record(
        self,
        journey_id: str,
        step: str,
        status: str,
        data: Mapping[str, Any],
        *,
        state: JourneyState | None = None,
    ) -> None:
        """Append a step (and set the journey's state, when given) in one transaction."""
        ...

    def journey(self, journey_id: str) -> Journey | None:
        """The journey with its steps, or ``None`` when there is none of that id."""
        ...

    def journeys(self) -> list[Journey]:
        """Every journey, oldest first, with its steps."""
        ...


def _default(value: object) -> object:
    # Answers and payloads arrive as models, decimals and bytes: write their JSON form.
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json", by_alias=True)
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, bytes):
        return "0x" + value.hex()
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    return str(value)


def _scrub(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {
            str(k): _scrub(v) for k, v in value.items() if str(k).lower() not in _FORBIDDEN_KEYS
        }
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value


def _dumps(data: Mapping[str, Any]) -> str:
    """``data`` as the JSON text a journal writes (credentials' keys dropped)."""
    return json.dumps(_scrub(json.loads(json.dumps(dict(data), default=_default))))


def _plain(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` as plain JSON values, as a journal would read it back."""
    loaded: dict[str, Any] = json.loads(_dumps(data))
    return loaded


_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS journeys (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS steps (
    journey_id TEXT NOT NULL REFERENCES journeys(id),
    seq INTEGER NOT NULL,
    step TEXT NOT NULL,
    status TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (journey_id, seq)
);
"""


class SQLiteJournal:
    """The embedded `Journal`: one SQLite file, WAL mode, one transaction per step.

    Safe to share between the threads of one process; several processes may read it
    (``xswap journeys``) while one writes.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open (or create) the journal at ``path``.

        Raises:
            InvalidInputError: ``path`` is not a path, or the file cannot be opened.
        """
        if not isinstance(path, str | os.PathLike) or not os.fspath(path):
            raise InvalidInputError("journal", "must be a path (str or os.PathLike) or a Journal")
        self.path: Path = Path(os.fspath(path))
        """The journal's file."""
        self._lock = threading.Lock()
        import sqlite3  # here: a program without a journal does not load it

        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            # Each step is on disk when record() returns: a crash right after loses nothing.
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise InvalidInputError(
                "journal", f"cannot open the SQLite journal at {self.path} ({exc})"
            ) from None

    def start(self, kind: str, data: Mapping[str, Any]) -> str:
        """See `Journal.start`."""
        journey_id = uuid.uuid4().hex
        now = time.time()
        text = _dumps(data)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO journeys VALUES (?, ?, 'running', ?, ?)",
                    (journey_id, kind, now, now),
                )
                self._db.execute(
                    "INSERT INTO steps VALUES (?, 0, 'started', 'started', ?, ?)",
                    (journey_id, text, now),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return journey_id

    def record(
        self,
        journey_id: str,
        step: str,
        status: str,
        data: Mapping[str, Any],
        *,
        state: JourneyState | None = None,
    ) -> None:
        """See `Journal.record`."""
        if state is not None and state not in _STATES:
            raise InvalidInputError("state", f"must be one of {', '.join(_STATES)}")
        now = time.time()
        text = _dumps(data)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO steps SELECT ?, COALESCE(MAX(seq), -1) + 1, ?, ?, ?, ? "
                    "FROM steps WHERE journey_id = ?",
                    (journey_id, step, status, text, now, journey_id),
                )
                self._db.execute(
                    "UPDATE journeys SET updated_at = ?, state = COALESCE(?, state) WHERE id = ?",
                    (now, state, journey_id),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def journey(self, journey_id: str) -> Journey | None:
        """See `Journal.journey`."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, kind, state, created_at, updated_at FROM journeys WHERE id = ?",
                (journey_id,),
            ).fetchone()
            if row is None:
                return None
            return self._with_steps(row)

    def journeys(self) -> list[Journey]:
        """See `Journal.journeys`."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, kind, state, created_at, updated_at FROM journeys "
                "ORDER BY created_at, id"
            ).fetchall()
            return [self._with_steps(row) for row in rows]

    def _with_steps(self, row: tuple[Any, ...]) -> Journey:
        steps = self._db.execute(
            "SELECT seq, step, status, data, at FROM steps WHERE journey_id = ? ORDER BY seq",
            (row[0],),
        ).fetchall()
        return Journey(
            id=row[0],
            kind=row[1],
            state=row[2],
            created_at=row[3],
            updated_at=row[4],
            steps=tuple(JournalStep(s[0], s[1], s[2], json.loads(s[3]), s[4]) for s in steps),
        )

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()

    def __repr__(self) -> str:
        return f"SQLiteJournal({str(self.path)!r})"


def open_journal(
    journal: str | os.PathLike[str] | Journal | None,
    environ: Mapping[str, str] | None = None,
) -> Journal | None:
    """The journal of ``journal=``: a `Journal` as given, an `SQLiteJournal` at a path,
    else at ``XSWAP_JOURNAL``'s path, else ``None`` (nothing journaled).

    Raises:
        InvalidInputError: ``journal`` is neither a path nor a `Journal`.
    """
    if journal is None:
        env = os.environ if environ is None else environ
        path = env.get(JOURNAL_ENV) or None
        if path is None:
            return None
        try:
            return SQLiteJournal(path)
        except InvalidInputError as exc:
            raise InvalidInputError(JOURNAL_ENV, exc.rule) from None
    if isinstance(journal, str | os.PathLike):
        return SQLiteJournal(journal)
    if isinstance(journal, Journal):
        return journal
    raise InvalidInputError("journal", "must be a path (str or os.PathLike) or a Journal")
