"""Spending ledgers: what each signer signed away per token in the last `DAY`, for
``Policy(max_per_day=...)``.

A `Policy` counts in a `SpendingLedger`. Without ``ledger=`` it is a `MemoryLedger`,
the policy object's own (a restart, or a second worker, starts from zero). With
``ledger=`` the counts live in a database, in a table of their own (``xswap_ledger``,
created when absent), shared by every process and host that uses it and still there
after a restart:

- a path (or a journal with a ``path``, such as `xswap_sdk.journal.SQLiteJournal`): an
  SQLite file (created ``0600``; the journal's own file is fine), `SQLiteLedger`;
- a ``postgresql://`` URL (or a journal with a ``url``): `PostgresLedger`, through
  psycopg 3 (the ``postgres`` extra);
- a journal with a ``spending_ledger()`` method: the ledger it hands, built on its own
  connections (the store classes take a ``connect`` factory for that);
- a `SpendingLedger`: itself, so that several policies can share one.

Each signature is counted the way the memory ledger always counted it: the policy
*reserves* the amounts before the signature, in one transaction that reads the window's
sum and inserts the reservation (SQLite: ``BEGIN IMMEDIATE``, which one writer at a time
holds; PostgreSQL: a transaction-scoped advisory lock per signer and token, taken in
order), so that two processes racing to the cap never admit more than the cap between
them; a signature that is refused later (the approval hook) or fails gives its
reservation back (deleted by id). A process killed between its reservation and its
signature leaves the reservation counted: the cap errs on the safe side.

Time is the policy's clock (`SpendingLedger.now`, ``time.time``): the hosts sharing a
ledger must keep their clocks in step (NTP). Rows older than the window (and an hour's
margin for clock skew) are deleted as new ones are written.

A ledger that cannot be used (a server down, a file that cannot be written) refuses the
signature (`xswap_sdk.errors.PolicyRefusedError`, rule ``max_per_day``): the cap cannot
be checked, so nothing is signed. No message, log record or ``repr`` shows a URL's
password (see `xswap_sdk._postgres`).
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

from ._logging import logger
from ._postgres import PostgresUnavailable, PostgresURL, is_postgres_url
from .errors import InvalidInputError

__all__ = [
    "DAY",
    "TABLE",
    "Key",
    "LedgerUnavailable",
    "MemoryLedger",
    "Over",
    "PostgresLedger",
    "Reservation",
    "SQLiteLedger",
    "SpendingLedger",
    "open_ledger",
]

DAY: Final = 86_400.0
"""The window of ``max_per_day``, in seconds: a rolling 24 hours."""

TABLE: Final = "xswap_ledger"
"""The table a database ledger keeps its rows in."""

_T = TypeVar("_T")

_SKEW: Final = 3_600.0  # rows are kept this long past the window: hosts' clocks differ
_BUSY_MS: Final = 30_000  # how long an SQLite writer waits for another's transaction

Key = tuple[str, str]
"""What a count is kept by: the signer's lowercase address and the token's key
(``"usdc"``, ``"native"`` or a lowercase address)."""


@dataclass(frozen=True, slots=True)
class Reservation:
    """What one admitted signature reserved, to give back if it is not made.

    Attributes:
        amounts: per key, the amount reserved.
        ids: the rows written (database ledgers).
    """

    amounts: Mapping[Key, int]
    ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Over:
    """A reservation refused: ``key`` has already ``spent`` too much for it."""

    key: Key
    spent: int


class LedgerUnavailable(Exception):  # noqa: N818 -- internal: the policy refuses with it
    """The ledger could not be read or written; the message is safe to show."""


class SpendingLedger:
    """Where a `xswap_sdk.policy.Policy` keeps the rolling 24-hour counts of its
    ``max_per_day``: in memory (the default), an SQLite file or a PostgreSQL database
    (``Policy(ledger=...)``: a path, a ``postgresql://`` URL or a journal).

    ``Policy.ledger`` holds the one a policy counts in; give it to several policies
    to share it. Its ``repr`` names the file, or the URL with its password masked.

    Attributes:
        now: the clock amounts are counted by (Unix seconds; ``time.time``).
    """

    now: Callable[[], float]

    def __init__(self) -> None:
        self.now = time.time

    def _reserve(self, amounts: Mapping[Key, int], limit: int) -> Reservation | Over:
        """Reserve ``amounts`` if each key stays within ``limit`` over the last `DAY`;
        else reserve nothing and say which key would not.

        Raises:
            LedgerUnavailable: the ledger cannot be used.
        """
        raise NotImplementedError

    def _release(self, reservation: Reservation) -> None:
        """Give back a reservation whose signature was not made (a failure to do so is
        logged: the amount then stays counted)."""
        raise NotImplementedError

    def _spent(self, key: Key) -> int:
        """What ``key`` signed away in the last `DAY`.

        Raises:
            LedgerUnavailable: the ledger cannot be read.
        """
        raise NotImplementedError

    def close(self) -> None:
        """Close the ledger's connection, if it has one (it reopens on next use)."""


class MemoryLedger(SpendingLedger):
    """The counts of one policy object, in memory: thread-safe, gone with the process."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        # Per key: the signatures of the last DAY (time, amount), oldest first, and
        # their running total, so that a check costs the entries that expired, not all.
        self._entries: dict[Key, tuple[deque[tuple[float, int]], list[int]]] = {}

    def _total(self, key: Key, now: float) -> int:
        found = self._entries.get(key)
        if found is None:
            return 0
        entries, total = found
        while entries and entries[0][0] <= now - DAY:
            total[0] -= entries.popleft()[1]
        return total[0]

    def _reserve(self, amounts: Mapping[Key, int], limit: int) -> Reservation | Over:
        """See `SpendingLedger._reserve`."""
        with self._lock:
            now = self.now()
            for key, amount in amounts.items():
                spent = self._total(key, now)
                if spent + amount > limit:
                    return Over(key, spent)
            for key, amount in amounts.items():
                entries, total = self._entries.setdefault(key, (deque(), [0]))
                entries.append((now, amount))
                total[0] += amount
            return Reservation(dict(amounts))

    def _release(self, reservation: Reservation) -> None:
        """See `SpendingLedger._release`."""
        with self._lock:
            for key, amount in reservation.amounts.items():
                entries, total = self._entries.get(key, (deque(), [0]))
                for index in range(len(entries) - 1, -1, -1):
                    if entries[index][1] == amount:
                        del entries[index]
                        total[0] -= amount
                        break

    def _spent(self, key: Key) -> int:
        """See `SpendingLedger._spent`."""
        with self._lock:
            return self._total(key, self.now())

    def __repr__(self) -> str:
        return "MemoryLedger()"


@dataclass
class _Dialect:
    """What differs between the databases: their SQL, and how a writer is serialised."""

    schema: tuple[str, ...]
    begin: str  # starts the transaction that reserves
    lock_key: str | None  # serialises the reservers of one key (None: begin does)
    rows: str  # the amounts of a key since a time
    insert: str
    prune: str
    delete: str


_SQLITE: Final = _Dialect(
    schema=(
        f"CREATE TABLE IF NOT EXISTS {TABLE} ("
        " id TEXT PRIMARY KEY,"
        " signer TEXT NOT NULL,"
        " token TEXT NOT NULL,"
        " amount TEXT NOT NULL,"  # a decimal integer: wei amounts exceed 64 bits
        " at REAL NOT NULL)",  # Unix seconds, an 8-byte float
        f"CREATE INDEX IF NOT EXISTS {TABLE}_window ON {TABLE} (signer, token, at)",
    ),
    begin="BEGIN IMMEDIATE",  # the write lock first: no other reserver reads meanwhile
    lock_key=None,
    rows=f"SELECT amount FROM {TABLE} WHERE signer = ? AND token = ? AND at > ?",
    insert=f"INSERT INTO {TABLE} (id, signer, token, amount, at) VALUES (?, ?, ?, ?, ?)",
    prune=f"DELETE FROM {TABLE} WHERE signer = ? AND token = ? AND at <= ?",
    delete=f"DELETE FROM {TABLE} WHERE id = ?",
)

_POSTGRES: Final = _Dialect(
    schema=(
        f"CREATE TABLE IF NOT EXISTS {TABLE} ("
        " id uuid PRIMARY KEY,"
        " signer text NOT NULL,"
        " token text NOT NULL,"
        " amount numeric(78, 0) NOT NULL,"  # any uint256
        " at double precision NOT NULL)",  # never real: a float4 keeps 128 s steps
        f"CREATE INDEX IF NOT EXISTS {TABLE}_window ON {TABLE} (signer, token, at)",
    ),
    begin="BEGIN",
    # Held to the end of the transaction: the reservers of one signer and token queue.
    lock_key="SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
    rows=f"SELECT amount FROM {TABLE} WHERE signer = %s AND token = %s AND at > %s",
    insert=f"INSERT INTO {TABLE} (id, signer, token, amount, at) VALUES (%s, %s, %s, %s, %s)",
    prune=f"DELETE FROM {TABLE} WHERE signer = %s AND token = %s AND at <= %s",
    delete=f"DELETE FROM {TABLE} WHERE id = %s",
)

# Concurrent CREATE TABLE IF NOT EXISTS races in PostgreSQL (a unique violation on its
# catalog): the first connection of each process creates the schema under this lock.
_SCHEMA_LOCK: Final = "SELECT pg_advisory_xact_lock(hashtextextended('xswap_ledger schema', 0))"


class _DatabaseLedger(SpendingLedger):
    """A ledger in a database table, by a `_Dialect`, over connections from
    ``connect``: one connection per ledger and process, used under a lock.

    A connection inherited through ``fork`` is never used (nor closed: that would end
    the parent's session); the child opens its own.
    """

    _dialect: _Dialect

    def __init__(self, connect: Callable[[], Any], shown: str) -> None:
        super().__init__()
        self._connect = connect
        self._shown = shown
        self._lock = threading.Lock()
        self._db: Any = None
        self._pid = os.getpid()
        self._inherited: list[Any] = []

    def _errors(self) -> tuple[type[BaseException], ...]:
        raise NotImplementedError

    def _opened(self) -> Any:
        """A connection with the schema in place (the caller holds the lock)."""
        if self._pid != os.getpid():  # forked: the parent's connection is not ours
            if self._db is not None:
                self._inherited.append(self._db)
            self._db, self._pid = None, os.getpid()
        if self._db is None:
            db = self._connect()
            try:
                self._create_schema(db)
            except BaseException:
                db.close()
                raise
            self._db = db
        return self._db

    def _create_schema(self, db: Any) -> None:
        for statement in self._dialect.schema:
            db.execute(statement)

    @contextmanager
    def _transaction(self, db: Any) -> Iterator[None]:
        db.execute(self._dialect.begin)
        try:
            yield
        except BaseException:
            with suppress(*self._errors()):  # a broken connection has nothing to undo
                db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _run(self, what: str, work: Callable[[Any], _T]) -> _T:
        """``work(connection)``, under the lock; a database error becomes a
        `LedgerUnavailable` (and the connection is dropped: the next use reconnects)."""
        problem = None
        with self._lock:
            try:
                return work(self._opened())
            except self._errors() as exc:
                problem = f"{self._shown}: {type(exc).__name__}: {self._first_line(exc)}"
                self._drop()
            except PostgresUnavailable as exc:
                problem = str(exc)
        # Raised here, outside the except: no driver error (nor its frames) chained to it.
        raise LedgerUnavailable(f"the spending ledger cannot {what}: {problem}")

    def _first_line(self, error: BaseException) -> str:
        lines = str(error).strip().splitlines()
        return lines[0].strip() if lines else type(error).__name__

    def _drop(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            with suppress(Exception):  # already broken: nothing more to release
                db.close()

    def _sum(self, db: Any, key: Key, since: float) -> int:
        rows = db.execute(self._dialect.rows, (*key, since)).fetchall()
        return sum(int(row[0]) for row in rows)

    def _reserve(self, amounts: Mapping[Key, int], limit: int) -> Reservation | Over:
        """See `SpendingLedger._reserve`: one transaction that reads each key's window
        and inserts the reservation, serialised with every other reserver."""
        dialect = self._dialect
        now = self.now()

        def work(db: Any) -> Reservation | Over:
            with self._transaction(db):
                if dialect.lock_key is not None:
                    for signer, token in sorted(amounts):
                        db.execute(dialect.lock_key, (f"{TABLE}:{signer}:{token}",))
                for key, amount in amounts.items():
                    spent = self._sum(db, key, now - DAY)
                    if spent + amount > limit:
                        return Over(key, spent)
                ids: list[str] = []
                for key, amount in amounts.items():
                    db.execute(dialect.prune, (*key, now - DAY - _SKEW))
                    ids.append(uuid.uuid4().hex)
                    db.execute(dialect.insert, (ids[-1], *key, self._amount(amount), now))
            return Reservation(dict(amounts), tuple(ids))

        return self._run("be written", work)

    def _amount(self, amount: int) -> Any:
        return amount

    def _release(self, reservation: Reservation) -> None:
        """See `SpendingLedger._release`."""
        if not reservation.ids:
            return

        def work(db: Any) -> None:
            with self._transaction(db):
                for row in reservation.ids:
                    db.execute(self._dialect.delete, (row,))

        try:
            self._run("be written", work)
        except LedgerUnavailable as exc:
            logger.warning("a reservation stays counted: %s", exc)

    def _spent(self, key: Key) -> int:
        """See `SpendingLedger._spent`."""
        return self._run("be read", lambda db: self._sum(db, key, self.now() - DAY))

    def close(self) -> None:
        """See `SpendingLedger.close`."""
        with self._lock:
            if self._pid == os.getpid():
                self._drop()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._shown!r})"


class SQLiteLedger(_DatabaseLedger):
    """A ledger in an SQLite file (a journal's is fine), shared by the processes of one
    host. The file is created ``0600`` when it does not exist.

    Args:
        path: the file.
        connect: makes a connection to it (by default ``sqlite3.connect(path)`` in
            autocommit mode, WAL, ``synchronous=FULL``); a journal may hand its own.

    Raises:
        InvalidInputError: the file cannot be created or opened.
    """

    _dialect = _SQLITE

    def __init__(
        self, path: str | os.PathLike[str], *, connect: Callable[[], Any] | None = None
    ) -> None:
        self.path = Path(os.fspath(path))
        """The ledger's file."""
        super().__init__(connect or self._sqlite, str(self.path))
        try:
            # Created owner-only: it says who signed how much, and when.
            os.close(os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            pass
        except OSError as exc:
            raise InvalidInputError(
                "ledger", f"cannot create the SQLite ledger {self.path} ({exc.strerror})"
            ) from None
        try:
            with self._lock:
                self._opened()
        except self._errors() as exc:
            raise InvalidInputError(
                "ledger", f"cannot open the SQLite ledger at {self.path} ({exc})"
            ) from None

    def _sqlite(self) -> Any:
        import sqlite3

        db = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=_BUSY_MS / 1000
        )
        db.execute("PRAGMA journal_mode=WAL")
        # A reservation is on disk before the signature: a crash right after loses none.
        db.execute("PRAGMA synchronous=FULL")
        db.execute(f"PRAGMA busy_timeout={_BUSY_MS}")
        return db

    def _errors(self) -> tuple[type[BaseException], ...]:
        import sqlite3

        return (sqlite3.Error,)

    def _amount(self, amount: int) -> Any:
        return str(amount)


class PostgresLedger(_DatabaseLedger):
    """A ledger in a PostgreSQL database, shared by every process and host that uses it.

    Nothing is connected until the first signature counts (a policy made at import time
    reaches no server); a server that cannot be reached then refuses the signature.

    Args:
        url: a libpq URL (``postgresql://user:password@host:5432/db``), or one checked
            already (a journal's).
        connect: makes a connection (autocommit mode: each transaction is explicit); a
            journal may hand its own. By default, one to ``url``.

    Raises:
        MissingDependencyError: psycopg (the ``postgres`` extra) is not installed.
        InvalidInputError: ``url`` is not a libpq URL (its password never shown).
    """

    _dialect = _POSTGRES

    def __init__(self, url: str | PostgresURL, *, connect: Callable[[], Any] | None = None) -> None:
        self._url = url if isinstance(url, PostgresURL) else PostgresURL(url, argument="ledger")
        del url  # kept only as a secret
        super().__init__(connect or self._url.connect, self._url.shown)

    def _errors(self) -> tuple[type[BaseException], ...]:
        import psycopg

        return (psycopg.Error,)

    def _first_line(self, error: BaseException) -> str:
        return self._url.first_line(error)

    def _create_schema(self, db: Any) -> None:
        with self._transaction(db):
            db.execute(_SCHEMA_LOCK)
            super()._create_schema(db)


def open_ledger(ledger: object) -> SpendingLedger:
    """The `SpendingLedger` of ``ledger=`` (see the module docstring).

    Raises:
        InvalidInputError: not a path, URL, journal or `SpendingLedger`; a file that
            cannot be opened; a malformed URL (its password never shown).
        MissingDependencyError: a URL without psycopg installed.
    """
    if isinstance(ledger, SpendingLedger):
        return ledger
    hand = getattr(ledger, "spending_ledger", None)
    if callable(hand) and not isinstance(ledger, str | os.PathLike):
        handed = hand()
        if not isinstance(handed, SpendingLedger):
            raise InvalidInputError("ledger", "spending_ledger() must return a SpendingLedger")
        return handed
    if is_postgres_url(ledger):
        return PostgresLedger(str(ledger))
    if isinstance(ledger, str | os.PathLike) and os.fspath(ledger):
        return SQLiteLedger(ledger)
    for attribute in ("path", "url"):  # a journal: its file, or its server
        where = getattr(ledger, attribute, None)
        if where is not None and not isinstance(ledger, str | os.PathLike):
            return open_ledger(where)
    raise InvalidInputError(
        "ledger",
        "must be a path to an SQLite file, a postgresql:// URL, a journal (with a path or "
        "a url) or a SpendingLedger",
    )
