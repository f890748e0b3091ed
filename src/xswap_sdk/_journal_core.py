"""The journal's types, under `xswap_sdk.journal`: a journey and its rows, the owner of
a lease, the journal key and the `Journal` protocol, with the helpers the SQLite and
PostgreSQL journals share. `xswap_sdk.journal` exports them with `open_journal`, which
opens those journals: they build on this module, and the public one sits above both.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import socket
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Final, Literal, Protocol, TypeAlias, runtime_checkable

from .errors import InvalidInputError

__all__ = [
    "AsyncJournal",
    "DEFAULT_LEASE_SECONDS",
    "JOURNAL_ENV",
    "JOURNAL_KEY_ENV",
    "Journal",
    "JournalArg",
    "JournalStep",
    "Journey",
    "JournalKey",
    "JourneyState",
    "NewRow",
    "Owner",
    "PRIVATE_KEY_ENV",
    "ResumeResult",
    "Row",
    "StepEvent",
    "StepHook",
]

JOURNAL_ENV: Final = "XSWAP_JOURNAL"
"""The environment variable read for a journal (a path, or a ``postgresql://`` URL) when a
client gets no ``journal=``."""

JOURNAL_KEY_ENV: Final = "XSWAP_JOURNAL_KEY"
"""The environment variable read for the journal key when a client gets no
``journal_key=``: any string of at least 16 characters (a random one: ``python -c
"import secrets; print(secrets.token_hex(32))"``). Required for a PostgreSQL journal."""

PRIVATE_KEY_ENV: Final = "XSWAP_PRIVATE_KEY"
"""The environment variable resume reads a signer's key from when a step needs a signer
and the client has none (never written anywhere)."""

DEFAULT_LEASE_SECONDS: Final = 300.0
"""How long a journey's lease lasts without being renewed: a process that runs a journey
renews it with each step and while it waits; one that died holds it this long at most
(on its own host, a dead process's lease is taken over at once)."""

JourneyState: TypeAlias = Literal["running", "completed", "failed", "needs_attention"]
"""Where a journey stands: still going (or interrupted), done, failed (the service or the
chain said so), or stopped where only a person can tell what happened."""

JournalArg: TypeAlias = "str | os.PathLike[str] | Journal"
"""What ``journal=`` takes: a path to an SQLite file, a ``postgresql://`` URL (a
`PostgresJournal`), or a `Journal`."""

STATES: Final = ("running", "completed", "failed", "needs_attention")
DONE_STATES: Final = ("completed", "failed")

_MIN_KEY_CHARS: Final = 16


def _check_lease_seconds(lease_seconds: object) -> float:
    """``lease_seconds=`` of a journal, checked: seconds from 1 to 86400.

    Raises:
        InvalidInputError: naming ``lease_seconds``.
    """
    if (
        isinstance(lease_seconds, bool)
        or not isinstance(lease_seconds, int | float)
        or not 1 <= lease_seconds <= 86_400
    ):
        raise InvalidInputError("lease_seconds", "must be seconds from 1 to 86400")
    return float(lease_seconds)


@dataclass(frozen=True, slots=True)
class StepEvent:
    """One step of a journey, as ``on_step=`` receives it.

    Attributes:
        journey_id: the journey's id in the journal, or ``None`` without a journal.
        kind: the journey's kind (``"swap"``, ``"gasless_swap"``, ``"relay"``,
            ``"relay_sync"``, ``"transfer"``, ``"mint"``, ``"call"``, ``"route"`` or
            ``"deposit"``).
        step: ``"started"``, ``"quoted"``, ``"requoted"``, ``"verified"``,
            ``"prepared"``, ``"signed"``, ``"paid"``, ``"submitted"``, ``"broadcast"``,
            ``"confirmed"``, ``"approved"``, ``"waiting"``, ``"slow"``, ``"stuck"``,
            ``"executed"``, ``"attested"``, ``"minted"``, ``"finalized"``, ``"found"``,
            ``"completed"``, ``"failed"``, ``"needs_attention"``, ``"interrupted"`` or
            ``"resumed"``.
        status: ``"ok"``, ``"sending"`` (a money-moving request is about to leave),
            ``"not_sent"``, ``"outcome_unknown"`` or ``"sent"`` (for a failure: whether
            the money request reached the service), or ``"started"``.
        data: what the step produced (plain JSON values).
    """

    journey_id: str | None
    kind: str
    step: str
    status: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        from . import _html  # lazy: display only

        return _html.event_repr(self)  # short: its data's names, not their values


StepHook: TypeAlias = Callable[[StepEvent], object]
"""What ``on_step=`` takes: a callable receiving each `StepEvent` (its errors are logged
and ignored; an async client awaits what it returns)."""


@dataclass(frozen=True, slots=True)
class Owner:
    """Who holds a journey's lease: one run of one journey in one process.

    Attributes:
        token: this run's own random id (two runs in one process differ).
        host: the host's name and boot, as `this_process` reads them.
        pid: the process id.
        started: when the process started (so a reused pid is not taken for it), or
            ``None`` where that cannot be read.
    """

    token: str
    host: str
    pid: int
    started: float | None

    @classmethod
    def this_process(cls) -> Owner:
        """A new owner token for this process."""
        host, pid, started = _process_identity()
        return cls(uuid.uuid4().hex, host, pid, started)

    def describe(self) -> str:
        """Who it is, for a message: ``process 123 on host``."""
        return f"process {self.pid} on {self.host.partition('#')[0]}"

    def alive(self) -> bool | None:
        """Whether this owner's process still runs: ``True``/``False`` when it is one of
        this host's, ``None`` when that cannot be told (another host)."""
        host, _, _ = _process_identity()
        if host != self.host:
            return None
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass  # alive, another user's
        except OSError:
            return None
        if self.started is not None:
            started = _started(self.pid)
            if started is not None and abs(started - self.started) > 1:
                return False  # the pid was reused by another process
        return True


_identity: tuple[int, tuple[str, int, float | None]] | None = None


def _process_identity() -> tuple[str, int, float | None]:
    """(host, pid, start time) of this process, read once per process."""
    global _identity
    pid = os.getpid()
    if _identity is None or _identity[0] != pid:  # a fork is another process
        boot = ""
        with contextlib.suppress(OSError):  # not Linux: the host's name alone
            boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        host = socket.gethostname() + (f"#{boot}" if boot else "")
        _identity = (pid, (host, pid, _started(pid)))
    return _identity[1]


def _started(pid: int) -> float | None:
    """When process ``pid`` started, in clock ticks since boot (Linux), else ``None``."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: fields follow the last ")".
    fields = stat[stat.rfind(")") + 2 :].split()
    try:
        return float(fields[19])
    except (IndexError, ValueError):
        return None


@dataclass(frozen=True, slots=True)
class JournalStep:
    """One written step of a journey, as people read it.

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
        from . import _html  # lazy: display only

        return _html.step_repr(self)  # short: its data's names, not their values


@dataclass(frozen=True, slots=True)
class Row:
    """One written row of a journey, as replay reads it.

    Attributes:
        seq: its order in the journey.
        pos: the flow's step it records (its position among the steps the flow
            yielded), or ``None`` for a row that records no step of the flow (a
            ``resumed`` note, a webhook's ``minted``).
        step: its name: a visible step (`JournalStep`), or an effect the flow took
            (``read``, ``now``, ``random``, ``sign``, ``chain``, ``wait``, ``ask``).
        status: its status.
        data: what it recorded.
        body: an answer's exact bytes, for an HTTP request.
        at: when it was written.
    """

    seq: int
    pos: int | None
    step: str
    status: str
    data: Mapping[str, Any]
    body: bytes | None
    at: float


@dataclass(frozen=True, slots=True)
class NewRow:
    """A row about to be written (see `Journal.append`).

    Attributes:
        pos: see `Row.pos`.
        step: see `Row.step`.
        status: see `Row.status`.
        data: its data as JSON text (written as it is: the journal does not serialise).
        body: see `Row.body`.
        identities: what this row identifies (a transaction hash, a transfer id), for
            `Journal.find`.
    """

    pos: int | None
    step: str
    status: str
    data: str
    body: bytes | None = None
    identities: tuple[str, ...] = ()


EFFECTS: Final = frozenset({"read", "now", "random", "sign", "chain", "wait", "ask"})
"""Row names that record an effect of the flow for replay, not a step people read."""


@dataclass(frozen=True)
class Journey:
    """A journey as the journal holds it.

    Attributes:
        id: its id.
        kind: what it does (see `StepEvent.kind`).
        state: `JourneyState`.
        created_at: when it started, in Unix seconds.
        updated_at: when its last step was written.
        terms: what it was started with: the checked arguments its flow is built from.
        rows: every row, in order (`Row`); `steps` are the ones people read.
        owner: who holds its lease now, or ``None``.
        lease_until: until when (Unix seconds) the lease holds without renewal.
        authentic: whether its terms and every row carry a valid MAC of this journal's
            key; an inauthentic journey is never resumed.
    """

    id: str
    kind: str
    state: JourneyState
    created_at: float
    updated_at: float
    terms: Mapping[str, Any] = field(default_factory=dict, repr=False)
    rows: tuple[Row, ...] = field(default=(), repr=False)
    owner: Owner | None = field(default=None, repr=False)
    lease_until: float | None = field(default=None, repr=False)
    authentic: bool = True

    @cached_property
    def steps(self) -> tuple[JournalStep, ...]:
        """The steps people read, in order: ``started`` first, then each one the flow
        wrote, without the effects replay reads (requests, times, signatures). A step
        that kept a service's answer (``submitted/ok``) has it, parsed, as its data's
        ``answer``."""
        return tuple(
            JournalStep(row.seq, row.step, row.status, _with_answer(row), row.at)
            for row in self.rows
            if row.step not in EFFECTS
        )

    @property
    def arguments(self) -> Mapping[str, Any]:
        """What the journey was started with (its terms)."""
        return self.terms

    def __repr__(self) -> str:
        from . import _html  # lazy: display only

        return _html.journey_repr(self)  # short: no step data (it holds signatures)

    def _repr_html_(self) -> str:
        from . import _html  # lazy: display only

        return _html.journey_html(self)  # a notebook's timeline of the steps

    def last(self, step: str, status: str | None = None) -> JournalStep | None:
        """The last written ``step`` (with ``status``, when given), or ``None``."""
        for entry in reversed(self.steps):
            if entry.step == step and (status is None or entry.status == status):
                return entry
        return None

    def held_by_other(self, now: float | None = None) -> Owner | None:
        """The owner of a lease that still holds (not this run's), or ``None``: a lease
        past its time, or of a process of this host that is gone, does not hold."""
        owner = self.owner
        if owner is None or self.state in DONE_STATES:
            return None
        at = time.time() if now is None else now
        if self.lease_until is not None and self.lease_until < at:
            return None
        return None if owner.alive() is False else owner

    def to_dict(self, *, show_signed: bool = False) -> dict[str, Any]:
        """Plain JSON values, as ``xswap journeys --json`` prints them. Signatures and
        signed payloads are shown only with ``show_signed``."""

        def shown(data: Mapping[str, Any]) -> dict[str, Any]:
            return dict(data) if show_signed else _without_signed(data)

        return {
            "id": self.id,
            "kind": self.kind,
            "state": self.state,
            "authentic": self.authentic,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "terms": shown(self.terms),
            "steps": [
                {
                    "seq": s.seq,
                    "step": s.step,
                    "status": s.status,
                    "data": shown(s.data),
                    "at": s.at,
                }
                for s in self.steps
            ],
        }


def _with_answer(row: Row) -> Mapping[str, Any]:
    """A step's data, with the JSON answer its row kept (``answer``), when it kept one."""
    if not row.body or "answer" in row.data:
        return row.data
    try:
        answer = json.loads(row.body)
    except ValueError:
        return row.data
    return {**row.data, "answer": answer}


# Keys whose values are signatures or signed payloads, at any depth: shown only when asked.
_SIGNED_KEYS: Final = frozenset(
    {
        "signature", "signatures", "raw", "body", "headers", "payment", "signed_tx",
        "signedTx", "signedOrder", "submitted",
    }
)  # fmt: skip
_HIDDEN: Final = "(signed: --show-signed)"


def _without_signed(data: Mapping[str, Any]) -> dict[str, Any]:
    def hide(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {k: _HIDDEN if k in _SIGNED_KEYS else hide(v) for k, v in value.items()}
        if isinstance(value, list):
            return [hide(v) for v in value]
        return value

    shown: dict[str, Any] = hide(data)
    return shown


@dataclass(frozen=True, slots=True)
class ResumeResult:
    """What ``client.resume(journey_id)`` did.

    Attributes:
        journey: the journey as the journal now holds it (its ``state`` says how it
            ended: ``completed``, ``failed``, ``needs_attention``, or still ``running``
            when a wait ran out again or the resume stopped before anything new).
        result: what the journey's call would have returned (a ``SwapSubmission``, a
            ``GaslessSwapResult``, a relayer ``SubmitTxResult`` or ``RelayStatus``, a
            Gateway ``TransferResult`` or ``MintResult``, a ``SentCall``, a
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
    """Where journeys are kept. `SQLiteJournal` is the embedded one; a shared database
    implements the same methods, each one transaction (see ``docs/journeys.md``).

    Whoever runs a journey holds its lease: `create` and `claim` take it atomically,
    `append` writes only under it (and renews it), `release` gives it up.
    """

    lease_seconds: float
    """How long a lease holds without renewal."""

    def create(self, kind: str, terms: str, owner: Owner) -> str:
        """Create a ``running`` journey of ``kind`` whose terms are ``terms`` (JSON
        text), leased to ``owner``, with its ``started`` row; return its id."""
        ...

    def claim(self, journey_id: str, owner: Owner, *, force: bool = False) -> Journey:
        """Take the journey's lease for ``owner`` and return the journey as it stands.

        Raises:
            JourneyBusyError: another owner's lease still holds (unless ``force``).
            InvalidInputError: no such journey.
        """
        ...

    def append(
        self,
        journey_id: str,
        owner: Owner,
        rows: Sequence[NewRow],
        *,
        state: JourneyState | None = None,
        durable: bool = False,
        release: bool = False,
    ) -> None:
        """Append ``rows`` (and set ``state``) in one transaction, if ``owner`` still
        holds the lease, which is renewed (or, with ``release``, given up). With
        ``durable`` the transaction is on disk, power loss included, when this returns;
        otherwise it survives the process, not the machine.

        Raises:
            JourneyBusyError: ``owner`` lost the lease; nothing was written.
        """
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
        """Append a visible step from outside any run (a webhook's ``minted``), with no
        lease, in one transaction."""
        ...

    def journey(self, journey_id: str) -> Journey | None:
        """The journey with its rows, or ``None`` when there is none of that id."""
        ...

    def journeys(self, *, states: Sequence[str] | None = None) -> list[Journey]:
        """Every journey (of ``states``, when given), oldest first, with its rows."""
        ...

    def find(self, identity: str) -> list[str]:
        """The ids of the journeys whose rows recorded ``identity`` (an index lookup)."""
        ...


@runtime_checkable
class AsyncJournal(Journal, Protocol):
    """A `Journal` that an async client awaits: each method again, ``a``-prefixed, as a
    coroutine on the running event loop (`PostgresJournal` is one). An async client
    awaits ``journal.aappend(...)`` where a blocking one calls ``journal.append(...)``;
    a journal without them is called in a worker thread (``asyncio.to_thread``)."""

    async def acreate(self, kind: str, terms: str, owner: Owner) -> str:
        """`Journal.create`, awaited."""
        ...

    async def aclaim(self, journey_id: str, owner: Owner, *, force: bool = False) -> Journey:
        """`Journal.claim`, awaited."""
        ...

    async def aappend(
        self,
        journey_id: str,
        owner: Owner,
        rows: Sequence[NewRow],
        *,
        state: JourneyState | None = None,
        durable: bool = False,
        release: bool = False,
    ) -> None:
        """`Journal.append`, awaited."""
        ...

    async def arecord(
        self,
        journey_id: str,
        step: str,
        status: str,
        data: Mapping[str, Any],
        *,
        state: JourneyState | None = None,
    ) -> None:
        """`Journal.record`, awaited."""
        ...

    async def ajourney(self, journey_id: str) -> Journey | None:
        """`Journal.journey`, awaited."""
        ...

    async def ajourneys(self, *, states: Sequence[str] | None = None) -> list[Journey]:
        """`Journal.journeys`, awaited."""
        ...

    async def afind(self, identity: str) -> list[str]:
        """`Journal.find`, awaited."""
        ...


# ----------------------------------------------------------------------------- the key


class JournalKey:
    """The key a journal's MACs are made with: kept out of every ``repr``."""

    __slots__ = ("_hmac",)

    def __init__(self, key: bytes) -> None:
        # Keyed once: each MAC copies this state rather than hashing the key again.
        self._hmac = hmac.new(key, digestmod=hashlib.sha256)

    @classmethod
    def from_text(cls, text: object, argument: str) -> JournalKey:
        """A key from a string (``journal_key=``, ``XSWAP_JOURNAL_KEY``) or bytes.

        Raises:
            InvalidInputError: not a str or bytes of at least 16 characters.
        """
        if isinstance(text, bytes) and len(text) >= _MIN_KEY_CHARS:
            return cls(hashlib.sha256(b"xswap-journal-key\0" + text).digest())
        if not isinstance(text, str) or len(text) < _MIN_KEY_CHARS:
            raise InvalidInputError(
                argument, f"must be a secret string of at least {_MIN_KEY_CHARS} characters"
            )
        return cls(hashlib.sha256(b"xswap-journal-key\0" + text.encode()).digest())

    @classmethod
    def random(cls) -> JournalKey:
        """A fresh random key (an in-memory journal's)."""
        return cls(secrets.token_bytes(32))

    def mac(self, *parts: str | bytes) -> str:
        """The MAC of ``parts`` (each length-prefixed, so no two splits collide)."""
        chunks: list[bytes] = []
        for part in parts:
            data = part.encode() if isinstance(part, str) else part
            chunks += (b"%d:" % len(data), data)
        h = self._hmac.copy()
        h.update(b"".join(chunks))  # one update: a row's MAC is made on every write
        return h.hexdigest()

    def fingerprint(self) -> str:
        """What a journal keeps to tell a wrong key at once (a MAC of a constant)."""
        return self.mac("xswap-journal-key-check")

    def __repr__(self) -> str:
        return "JournalKey('**********')"


_KEY_LOCK = threading.Lock()


def _key_file_key(path: Path, *, create: bool) -> JournalKey | None:
    """The key kept in the file ``path`` (created, 0600, when ``create`` and absent).

    Raises:
        InvalidInputError: the file is writable by others or not this user's.
    """
    with _KEY_LOCK:
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600) if create else -1
        except FileExistsError:
            fd = -1
        if fd >= 0:
            with os.fdopen(fd, "w") as f:
                f.write(secrets.token_hex(32) + "\n")
        if not path.exists():
            return None
        _check_private_file(path, "journal_key")
        text = path.read_text().strip()
    return JournalKey.from_text(text, f"the key file {path}")


def _check_private_file(path: Path, argument: str) -> None:
    """Refuse a file that is group- or world-writable or owned by another user: whoever
    can write it could plant what a resume signs and sends.

    Raises:
        InvalidInputError: naming ``argument``.
    """
    try:
        st = path.stat()
    except FileNotFoundError:
        return
    getuid = getattr(os, "getuid", None)
    if getuid is not None and st.st_uid != getuid():
        raise InvalidInputError(
            argument, f"{path} belongs to another user: a journal must be this user's own"
        )
    if st.st_mode & 0o022:
        raise InvalidInputError(
            argument,
            f"{path} is writable by others (mode {oct(st.st_mode & 0o777)}): anyone who can "
            f"write it could plant what resume signs; chmod 600 {path}",
        )


def _resolve_key(key: object, environ: Mapping[str, str] | None) -> JournalKey | None:
    """``journal_key=`` as a `JournalKey`, else ``XSWAP_JOURNAL_KEY``'s, else ``None``."""
    if key is not None:
        if isinstance(key, JournalKey):
            return key
        return JournalKey.from_text(key, "journal_key")
    env = os.environ if environ is None else environ
    text = env.get(JOURNAL_KEY_ENV)
    return None if not text else JournalKey.from_text(text, JOURNAL_KEY_ENV)
