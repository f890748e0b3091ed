"""`PostgresJournal`: the journal in a PostgreSQL database, shared by every worker of
every host that reaches it.

The same `xswap_sdk.journal.Journal` as `xswap_sdk.journal.SQLiteJournal`, with the same
guarantees across hosts:

- Every method is one explicit transaction (connections are in autocommit mode: no
  transaction is ever left open between two calls). A write commits before it returns.
- A journey is run in one place: `PostgresJournal.append` checks its owner, renews (or
  gives up) the lease and takes the next ``seq`` numbers in one ``UPDATE ... WHERE id
  = %s AND owner = %s RETURNING next_seq`` of the journey's row. The row is locked until
  the commit, so two writers of one journey queue there, and the second one, reading
  the row again once the first has committed (READ COMMITTED), finds the lease gone or
  the numbers taken: it never collides on ``seq``. `PostgresJournal.claim` reads the
  journey ``FOR UPDATE`` and decides by the same rule as SQLite
  (`xswap_sdk._sqlite_journal.check_claim`).
- A durable write is on the server's disk when it returns: a transaction that is not
  durable is committed with ``synchronous_commit = off`` (it survives the writing
  process, not a crash of the server), a durable one with the server's own setting
  (``on`` when the server's is ``off``).
- Times are ``double precision`` (Unix seconds: a ``real`` would keep 128-second steps).
- MACs are the SQLite journal's (`xswap_sdk._sqlite_journal.terms_mac`, ``row_mac``),
  so a journey reads the same from either; the database keeps a fingerprint of the key
  (``xswap_meta``) and refuses another key at open. A database several users can write
  needs a key of its own: ``key=`` (``journal_key=``, ``XSWAP_JOURNAL_KEY``) is required.
- `PostgresJournal.find` reads the ``xswap_identities`` primary key (identity first): an
  index lookup whatever the journal holds.

The tables are created when absent (``xswap_meta``, ``xswap_journeys``, ``xswap_rows``,
``xswap_identities``, under a transaction-scoped advisory lock, since concurrent
``CREATE TABLE IF NOT EXISTS`` race in PostgreSQL).

Connections: a blocking caller takes one from a small pool of the process (at most
`POOL_SIZE`, made on demand; a forked child makes its own); an async client awaits the
``a``-prefixed methods (`PostgresJournal.aappend`...), on `psycopg.AsyncConnection`\\ s
of a pool per event loop, so no journal write ever holds the loop up (see
`xswap_sdk.journal.AsyncJournal`). Both run the same statements: each method is written
once, as a plan of queries that a blocking and an async runner execute.

A URL's password never shows: the URL is kept as a `xswap_sdk._postgres.PostgresURL`,
errors name the server by its masked form and carry no driver error (nor its frames).
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
import uuid
import weakref
from collections.abc import AsyncIterator, Callable, Generator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar

from ._journal_core import (
    DEFAULT_LEASE_SECONDS,
    JOURNAL_KEY_ENV,
    JournalKey,
    Journey,
    JourneyState,
    NewRow,
    Owner,
    _check_lease_seconds,
)
from ._postgres import PostgresUnavailable, PostgresURL
from ._sqlite_journal import (
    JOURNEY_COLUMNS,
    ROW_COLUMNS,
    check_claim,
    check_state,
    read_journey,
    row_records,
    taken_over,
    terms_mac,
)
from .errors import InvalidInputError, JournalError

if TYPE_CHECKING:
    from ._ledger import SpendingLedger

__all__ = ["POOL_SIZE", "PostgresJournal"]

T = TypeVar("T")

POOL_SIZE: Final = 8
"""The most connections a journal holds open at once: per process for blocking calls,
per event loop for async ones."""

_SCHEMA: Final = (
    "SELECT pg_advisory_xact_lock(hashtextextended('xswap_journal schema', 0))",
    "CREATE TABLE IF NOT EXISTS xswap_meta (name text PRIMARY KEY, value text NOT NULL)",
    "CREATE TABLE IF NOT EXISTS xswap_journeys ("
    " id text PRIMARY KEY,"
    " kind text NOT NULL,"
    " state text NOT NULL,"
    " created_at double precision NOT NULL,"  # never real: a float4 keeps 128 s steps
    " updated_at double precision NOT NULL,"
    " terms text NOT NULL,"  # text, not jsonb: the MAC is of these exact characters
    " mac text NOT NULL,"
    " owner text,"
    " owner_host text,"
    " owner_pid integer,"
    " owner_started double precision,"
    " lease_until double precision,"
    " next_seq integer NOT NULL)",  # the seq of the journey's next row
    "CREATE INDEX IF NOT EXISTS xswap_journeys_state ON xswap_journeys (state, created_at)",
    "CREATE TABLE IF NOT EXISTS xswap_rows ("
    " journey_id text NOT NULL REFERENCES xswap_journeys (id),"
    " seq integer NOT NULL,"
    " pos integer,"
    " step text NOT NULL,"
    " status text NOT NULL,"
    " data text NOT NULL,"
    " body bytea,"
    " at double precision NOT NULL,"
    " mac text NOT NULL,"
    " PRIMARY KEY (journey_id, seq))",
    "CREATE TABLE IF NOT EXISTS xswap_identities ("
    " identity text NOT NULL,"
    " journey_id text NOT NULL REFERENCES xswap_journeys (id),"
    " PRIMARY KEY (identity, journey_id))",
)

# How each transaction starts (one round trip: no parameters, so one simple query).
_READ: Final = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"  # one snapshot
_WRITE: Final = "BEGIN; SET LOCAL synchronous_commit = off"  # survives the process
_DURABLE: Final = "BEGIN"  # the server's own synchronous_commit: on disk at COMMIT
_DURABLE_FORCED: Final = "BEGIN; SET LOCAL synchronous_commit = on"  # the server's is off

_INSERT_ROW: Final = (
    "INSERT INTO xswap_rows (journey_id, seq, pos, step, status, data, body, at, mac) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
)
_INSERT_IDENTITY: Final = (
    "INSERT INTO xswap_identities (identity, journey_id) VALUES (%s, %s) ON CONFLICT DO NOTHING"
)


# ------------------------------------------------------------------ plans and runners


@dataclass(frozen=True, slots=True)
class _Query:
    """One statement of a plan: ``fetch`` says what the plan gets back (``"one"``: a
    row or ``None``; ``"all"``: the rows; ``"many"``: ``params`` is a list of parameter
    rows, executed as a batch; ``"none"``: nothing)."""

    sql: str
    params: Sequence[Any] = ()
    fetch: Literal["one", "all", "many", "none"] = "none"


_Plan = Generator[_Query, Any, T]
"""A method's work: the queries it runs, each answered by the runner (blocking or async),
and its result. Written once, run by both."""


def _execute(conn: Any, query: _Query) -> Any:
    if query.fetch == "many":
        if query.params:
            with conn.cursor() as cursor:
                cursor.executemany(query.sql, query.params)
        return None
    cursor = conn.execute(query.sql, query.params or None)
    if query.fetch == "one":
        return cursor.fetchone()
    return cursor.fetchall() if query.fetch == "all" else None


async def _aexecute(conn: Any, query: _Query) -> Any:
    if query.fetch == "many":
        if query.params:
            async with conn.cursor() as cursor:
                await cursor.executemany(query.sql, query.params)
        return None
    cursor = await conn.execute(query.sql, query.params or None)
    if query.fetch == "one":
        return await cursor.fetchone()
    return await cursor.fetchall() if query.fetch == "all" else None


def _reusable(conn: Any) -> bool:
    """Whether a connection may go back to its pool: open, and in no transaction."""
    from psycopg.pq import TransactionStatus

    return not conn.closed and conn.info.transaction_status == TransactionStatus.IDLE


class _Pool:
    """The blocking connections of one process: at most `POOL_SIZE` at once, kept open
    for the next call. A child made by ``fork`` never uses (nor closes) its parent's."""

    def __init__(self, connect: Callable[[], Any]) -> None:
        self._connect = connect
        self._lock = threading.Lock()
        self._reset()

    def _reset(self) -> None:
        self._pid = os.getpid()
        self._idle: list[Any] = []
        self._slots = threading.BoundedSemaphore(POOL_SIZE)

    @contextmanager
    def connection(self) -> Iterator[Any]:
        with self._lock:
            if self._pid != os.getpid():
                self._reset()  # the parent's connections are the parent's
            slots = self._slots
        with slots:
            with self._lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None:
                conn = self._connect()
            try:
                yield conn
            finally:
                if _reusable(conn):
                    with self._lock:
                        if self._pid == os.getpid():
                            self._idle.append(conn)
                else:
                    with suppress(Exception):
                        conn.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
            mine = self._pid == os.getpid()
        for conn in idle if mine else ():
            with suppress(Exception):
                conn.close()


class _AsyncPool:
    """The `psycopg.AsyncConnection`\\ s of one event loop (a connection serves the loop
    it was made in): at most `POOL_SIZE` at once, kept open for the next call."""

    def __init__(self, connect: Callable[[], Any]) -> None:
        self._connect = connect
        self.pid = os.getpid()
        self.idle: list[Any] = []
        self._slots = asyncio.Semaphore(POOL_SIZE)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Any]:
        async with self._slots:
            conn = self.idle.pop() if self.idle else await self._connect()
            try:
                yield conn
            finally:
                if _reusable(conn):
                    self.idle.append(conn)
                else:
                    with suppress(Exception):
                        await conn.close()


def _finish(connections: list[Any]) -> None:
    """Close connections without their loop (it is gone, or another one's): libpq's own
    ``finish``, which needs none."""
    while connections:
        conn = connections.pop()
        with suppress(Exception):
            conn.pgconn.finish()


# ----------------------------------------------------------------------- the journal


class PostgresJournal:
    """A `xswap_sdk.journal.Journal` in a PostgreSQL database (see the module): one
    journal for every worker of every host, a journey run in one place at a time.

    It connects when made, so that a server that cannot be reached (or a wrong key) is
    refused before anything is signed. psycopg 3 is the optional extra ``postgres``.

    Args:
        url: a libpq URL, ``postgresql://user:password@host:5432/db`` (or
            ``postgres://``); its password never shows in a message, log or ``repr``.
        key: the journal key (`xswap_sdk.journal.JournalKey`, or a secret string of at
            least 16 characters): required, since others may write the database.
        lease_seconds: how long a run's lease holds without renewal.

    Raises:
        MissingDependencyError: psycopg (the ``postgres`` extra) is not installed.
        InvalidInputError: ``url`` is not a libpq URL (``journal``), the server cannot
            be reached or refuses the login (``journal``), no key or another key than
            the database was written with (``journal_key``), or a bad ``lease_seconds``.
    """

    def __init__(
        self,
        url: str,
        *,
        key: JournalKey | str | bytes | None = None,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
    ) -> None:
        self.lease_seconds = _check_lease_seconds(lease_seconds)
        """How long a run's lease holds without renewal."""
        checked, refused = _checked(url)
        del url  # kept only as a secret: no frame of an error holds it
        if refused is not None:
            raise refused
        self._url = checked
        self.shown = checked.shown
        """The server's URL with its password masked: what messages and reprs show."""
        if key is None:
            raise InvalidInputError(
                "journal_key",
                f"is required for a PostgreSQL journal (journal_key= or {JOURNAL_KEY_ENV}): "
                "whoever can write the database could otherwise plant what a resume signs",
            )
        self._key = key if isinstance(key, JournalKey) else JournalKey.from_text(key, "journal_key")
        self._pool = _Pool(self._url.connect)
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _AsyncPool] = (
            weakref.WeakKeyDictionary()
        )
        self._loops_lock = threading.Lock()
        self._durable = _DURABLE
        self._open()

    def _open(self) -> None:
        """Create the tables when absent, and check the key against the database's."""
        fingerprint = self._key.fingerprint()

        def plan() -> _Plan[tuple[str, str]]:
            for statement in _SCHEMA:
                yield _Query(statement)
            yield _Query(
                "INSERT INTO xswap_meta (name, value) VALUES ('key', %s) "
                "ON CONFLICT (name) DO NOTHING",
                (fingerprint,),
            )
            (known,) = yield _Query("SELECT value FROM xswap_meta WHERE name = 'key'", (), "one")
            (synchronous,) = yield _Query("SELECT current_setting('synchronous_commit')", (), "one")
            return str(known), str(synchronous)

        try:
            known, synchronous = self._run("be opened", _DURABLE, plan(), None)
        except JournalError as exc:
            raise InvalidInputError("journal", str(exc)) from None
        if known != fingerprint:
            raise InvalidInputError(
                "journal_key",
                f"is not the key the journal at {self.shown} was written with "
                f"(journal_key=, {JOURNAL_KEY_ENV})",
            )
        if synchronous == "off":
            self._durable = _DURABLE_FORCED

    # ------------------------------------------------------------------- running

    def _run(self, what: str, begin: str | None, plan: _Plan[T], journey_id: str | None) -> T:
        """``plan`` in one transaction (``begin``; ``None``: one statement on its own) on
        a connection of the pool; a database failure becomes a `JournalError`."""
        import psycopg

        problem = None
        try:
            with self._pool.connection() as conn:
                return _drive(plan, conn, begin)
        except psycopg.Error as exc:
            problem = f"{type(exc).__name__}: {self._url.first_line(exc)}"
        except PostgresUnavailable as exc:
            problem = str(exc)  # names the server already
        finally:
            plan.close()
        # Raised here, outside the except: no driver error (nor its frames) chained to it.
        raise self._failed(what, problem, journey_id)

    async def _arun(
        self, what: str, begin: str | None, plan: _Plan[T], journey_id: str | None
    ) -> T:
        """`_run` on a connection of this event loop's pool."""
        import psycopg

        problem = None
        try:
            async with self._loop_pool().connection() as conn:
                return await _adrive(plan, conn, begin)
        except psycopg.Error as exc:
            problem = f"{type(exc).__name__}: {self._url.first_line(exc)}"
        except PostgresUnavailable as exc:
            problem = str(exc)
        finally:
            plan.close()
        raise self._failed(what, problem, journey_id)

    def _failed(self, what: str, problem: str | None, journey_id: str | None) -> JournalError:
        where = "" if problem and problem.startswith("cannot connect") else f" at {self.shown}"
        return JournalError(
            f"the journal{where} could not {what}: {problem}",
            journey_id=journey_id,
            step=what,
        )

    def _loop_pool(self) -> _AsyncPool:
        loop = asyncio.get_running_loop()
        with self._loops_lock:
            pool = self._loops.get(loop)
            if pool is None or pool.pid != os.getpid():
                pool = _AsyncPool(self._url.aconnect)
                self._loops[loop] = pool
                # The loop gone, its connections are closed without it.
                weakref.finalize(loop, _finish, pool.idle)
            return pool

    # ------------------------------------------------------------------- the plans

    def _create(self, kind: str, terms: str, owner: Owner) -> tuple[str, _Plan[str]]:
        journey_id = uuid.uuid4().hex
        now = time.time()

        def plan() -> _Plan[str]:
            yield _Query(
                f"INSERT INTO xswap_journeys ({JOURNEY_COLUMNS}, next_seq) "
                "VALUES (%s, %s, 'running', %s, %s, %s, %s, %s, %s, %s, %s, %s, 1)",
                (
                    journey_id,
                    kind,
                    now,
                    now,
                    terms,
                    terms_mac(self._key, journey_id, kind, terms),
                    owner.token,
                    owner.host,
                    owner.pid,
                    owner.started,
                    now + self.lease_seconds,
                ),
            )
            yield from self._insert(journey_id, 0, [NewRow(0, "started", "started", "{}")], now)
            return journey_id

        return journey_id, plan()

    def _claim(self, journey_id: str, owner: Owner, force: bool) -> _Plan[Journey]:
        now = time.time()
        found = yield from self._read(journey_id, lock=True)
        journey = check_claim(journey_id, found, owner, force, now)
        yield _Query(
            "UPDATE xswap_journeys SET owner = %s, owner_host = %s, owner_pid = %s, "
            "owner_started = %s, lease_until = %s WHERE id = %s",
            (
                owner.token,
                owner.host,
                owner.pid,
                owner.started,
                now + self.lease_seconds,
                journey_id,
            ),
        )
        return journey

    def _append(
        self,
        journey_id: str,
        owner: Owner,
        rows: Sequence[NewRow],
        state: JourneyState | None,
        release: bool,
    ) -> _Plan[None]:
        now = time.time()
        # One statement checks the owner, renews (or gives up) the lease and takes the
        # rows' seq numbers, on the journey's row, locked to the commit.
        taken = yield _Query(
            "UPDATE xswap_journeys SET updated_at = %s, state = COALESCE(%s, state), "
            "lease_until = %s, owner = CASE WHEN %s THEN NULL ELSE owner END, "
            "next_seq = next_seq + %s WHERE id = %s AND owner = %s RETURNING next_seq",
            (
                now,
                state,
                None if release else now + self.lease_seconds,
                release,
                len(rows),
                journey_id,
                owner.token,
            ),
            "one",
        )
        if taken is None:
            raise taken_over(journey_id)
        yield from self._insert(journey_id, taken[0] - len(rows), rows, now)

    def _record(self, journey_id: str, row: NewRow, state: JourneyState | None) -> _Plan[None]:
        now = time.time()
        taken = yield _Query(
            "UPDATE xswap_journeys SET updated_at = %s, state = COALESCE(%s, state), "
            "next_seq = next_seq + 1 WHERE id = %s RETURNING next_seq",
            (now, state, journey_id),
            "one",
        )
        if taken is None:
            raise InvalidInputError("journey_id", f"no journey {journey_id} in the journal")
        yield from self._insert(journey_id, taken[0] - 1, [row], now)

    def _insert(
        self, journey_id: str, first: int, rows: Sequence[NewRow], now: float
    ) -> _Plan[None]:
        yield _Query(
            _INSERT_ROW,
            row_records(self._key, journey_id, first, rows, now),
            "many",
        )
        yield _Query(
            _INSERT_IDENTITY,
            [(identity, journey_id) for row in rows for identity in row.identities],
            "many",
        )

    def _read(self, journey_id: str, *, lock: bool = False) -> _Plan[Journey | None]:
        found = yield _Query(
            f"SELECT {JOURNEY_COLUMNS} FROM xswap_journeys WHERE id = %s"
            + (" FOR UPDATE" if lock else ""),
            (journey_id,),
            "one",
        )
        if found is None:
            return None
        rows = yield _Query(
            f"SELECT {ROW_COLUMNS} FROM xswap_rows WHERE journey_id = %s ORDER BY seq",
            (journey_id,),
            "all",
        )
        return read_journey(self._key, found, rows)

    def _journeys(self, states: Sequence[str] | None) -> _Plan[list[Journey]]:
        where, params = ("", ()) if states is None else (" WHERE state = ANY(%s)", (list(states),))
        found = yield _Query(
            f"SELECT {JOURNEY_COLUMNS} FROM xswap_journeys{where} ORDER BY created_at, id",
            params,
            "all",
        )
        rows = yield _Query(
            f"SELECT journey_id, {ROW_COLUMNS} FROM xswap_rows WHERE journey_id IN "
            f"(SELECT id FROM xswap_journeys{where}) ORDER BY journey_id, seq",
            params,
            "all",
        )
        by_journey: dict[str, list[Any]] = {}
        for row in rows:
            by_journey.setdefault(row[0], []).append(row[1:])
        return [read_journey(self._key, j, by_journey.get(j[0], ())) for j in found]

    @staticmethod
    def _find(identity: str) -> _Plan[list[str]]:
        found = yield _Query(
            "SELECT journey_id FROM xswap_identities WHERE identity = %s", (identity,), "all"
        )
        return [row[0] for row in found]

    def _begin(self, durable: bool) -> str:
        return self._durable if durable else _WRITE

    # ------------------------------------------------------------- the protocol

    def create(self, kind: str, terms: str, owner: Owner) -> str:
        """See `xswap_sdk.journal.Journal.create`."""
        journey_id, plan = self._create(kind, terms, owner)
        return self._run("create a journey", _WRITE, plan, journey_id)

    def claim(self, journey_id: str, owner: Owner, *, force: bool = False) -> Journey:
        """See `xswap_sdk.journal.Journal.claim`."""
        plan = self._claim(journey_id, owner, force)
        return self._run("claim the journey", _WRITE, plan, journey_id)

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
        """See `xswap_sdk.journal.Journal.append`."""
        check_state(state)
        plan = self._append(journey_id, owner, rows, state, release)
        self._run("be written", self._begin(durable), plan, journey_id)

    def record(
        self,
        journey_id: str,
        step: str,
        status: str,
        data: Mapping[str, Any],
        *,
        state: JourneyState | None = None,
    ) -> None:
        """See `xswap_sdk.journal.Journal.record`."""
        check_state(state)
        row = NewRow(None, step, status, json.dumps(dict(data)))
        self._run("be written", self._durable, self._record(journey_id, row, state), journey_id)

    def journey(self, journey_id: str) -> Journey | None:
        """See `xswap_sdk.journal.Journal.journey`."""
        return self._run("be read", _READ, self._read(journey_id), journey_id)

    def journeys(self, *, states: Sequence[str] | None = None) -> list[Journey]:
        """See `xswap_sdk.journal.Journal.journeys`."""
        return self._run("be read", _READ, self._journeys(states), None)

    def find(self, identity: str) -> list[str]:
        """See `xswap_sdk.journal.Journal.find`."""
        return self._run("be read", None, self._find(identity), None)

    # ---------------------------------------------------- the same, for asyncio

    async def acreate(self, kind: str, terms: str, owner: Owner) -> str:
        """`create`, awaited on this event loop's connections."""
        journey_id, plan = self._create(kind, terms, owner)
        return await self._arun("create a journey", _WRITE, plan, journey_id)

    async def aclaim(self, journey_id: str, owner: Owner, *, force: bool = False) -> Journey:
        """`claim`, awaited on this event loop's connections."""
        plan = self._claim(journey_id, owner, force)
        return await self._arun("claim the journey", _WRITE, plan, journey_id)

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
        """`append`, awaited on this event loop's connections."""
        check_state(state)
        plan = self._append(journey_id, owner, rows, state, release)
        await self._arun("be written", self._begin(durable), plan, journey_id)

    async def arecord(
        self,
        journey_id: str,
        step: str,
        status: str,
        data: Mapping[str, Any],
        *,
        state: JourneyState | None = None,
    ) -> None:
        """`record`, awaited on this event loop's connections."""
        check_state(state)
        row = NewRow(None, step, status, json.dumps(dict(data)))
        plan = self._record(journey_id, row, state)
        await self._arun("be written", self._durable, plan, journey_id)

    async def ajourney(self, journey_id: str) -> Journey | None:
        """`journey`, awaited on this event loop's connections."""
        return await self._arun("be read", _READ, self._read(journey_id), journey_id)

    async def ajourneys(self, *, states: Sequence[str] | None = None) -> list[Journey]:
        """`journeys`, awaited on this event loop's connections."""
        return await self._arun("be read", _READ, self._journeys(states), None)

    async def afind(self, identity: str) -> list[str]:
        """`find`, awaited on this event loop's connections."""
        return await self._arun("be read", None, self._find(identity), None)

    # ------------------------------------------------------------------ the rest

    def spending_ledger(self) -> SpendingLedger:
        """A spending ledger in the journal's database (``Policy(ledger=journal)``):
        its own table, ``xswap_ledger``, on its own connection."""
        # lazy: the spending ledger, only when a policy keeps it in this journal
        from ._ledger import PostgresLedger

        return PostgresLedger(self._url)

    def close(self) -> None:
        """Close every connection: the blocking ones, and those of every event loop
        (closed without their loop)."""
        self._pool.close()
        with self._loops_lock:
            pools = list(self._loops.values())
        for pool in pools:
            if pool.pid == os.getpid():
                _finish(pool.idle)

    async def aclose(self) -> None:
        """`close`, from an event loop: its connections are closed through it."""
        with self._loops_lock:
            pool = self._loops.pop(asyncio.get_running_loop(), None)
        if pool is not None and pool.pid == os.getpid():
            while pool.idle:
                with suppress(Exception):
                    await pool.idle.pop().close()
        self.close()

    def __repr__(self) -> str:
        return f"PostgresJournal({self.shown!r})"


def _checked(url: str) -> tuple[Any, InvalidInputError | None]:
    """``url`` checked, or the error refusing it, with no traceback (whose frames hold
    the URL): the caller raises it once it no longer holds the URL itself."""
    try:
        return PostgresURL(url, argument="journal"), None
    except InvalidInputError as exc:
        return None, exc.with_traceback(None)


def _drive(plan: _Plan[T], conn: Any, begin: str | None) -> T:
    """Run ``plan`` on ``conn``, in one transaction begun by ``begin``."""
    if begin is None:
        return _answer(plan, lambda query: _execute(conn, query))
    conn.execute(begin)
    try:
        result = _answer(plan, lambda query: _execute(conn, query))
    except BaseException:
        with suppress(Exception):  # a broken connection has nothing to undo
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result


def _answer(plan: _Plan[T], execute: Callable[[_Query], Any]) -> T:
    answer: Any = None
    while True:
        try:
            query = plan.send(answer)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        answer = execute(query)


async def _adrive(plan: _Plan[T], conn: Any, begin: str | None) -> T:
    """`_drive`, awaited."""
    if begin is not None:
        await conn.execute(begin)
    try:
        answer: Any = None
        while True:
            try:
                query = plan.send(answer)
            except StopIteration as stop:
                result: T = stop.value
                break
            answer = await _aexecute(conn, query)
    except BaseException:
        if begin is not None:
            with suppress(Exception):
                await conn.execute("ROLLBACK")
        raise
    if begin is not None:
        await conn.execute("COMMIT")
    return result
