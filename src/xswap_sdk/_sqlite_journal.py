"""`SQLiteJournal`: the embedded journal, one SQLite file in WAL mode.

Every method is one transaction (``BEGIN IMMEDIATE``, so two writers queue instead of
failing). A run writes under its lease: `append` checks the lease in the same
transaction that writes, so a run that lost it (its process was paused past the lease,
and another took the journey over) writes nothing and is told. Commits are
``synchronous=NORMAL`` (they survive the process, and are visible to every other
process at once) unless ``durable``: then ``FULL``, on disk power loss included, which
the driver asks for before a request that may move money and at the end of a run.

The file and its ``-wal``/``-shm`` are created ``0600``; an existing file that others
can write, or that another user owns, is refused. Each journey's terms and each row
carry an HMAC-SHA256 of the journal key (see `xswap_sdk.journal.JournalKey`); the
journal keeps a fingerprint of its key, so a wrong key is refused at open.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from ._journal_core import (
    DEFAULT_LEASE_SECONDS,
    STATES,
    JournalKey,
    Journey,
    JourneyState,
    NewRow,
    Owner,
    Row,
    _check_lease_seconds,
    _check_private_file,
    _key_file_key,
)
from .errors import InvalidInputError, JourneyBusyError

__all__ = [
    "JOURNEY_COLUMNS",
    "ROW_COLUMNS",
    "SQLiteJournal",
    "check_claim",
    "check_state",
    "read_journey",
    "row_mac",
    "row_records",
    "taken_over",
    "terms_mac",
]

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS xswap_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS xswap_journeys (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    terms TEXT NOT NULL,
    mac TEXT NOT NULL,
    owner TEXT,
    owner_host TEXT,
    owner_pid INTEGER,
    owner_started REAL,
    lease_until REAL
);
CREATE INDEX IF NOT EXISTS xswap_journeys_state ON xswap_journeys (state, created_at);
CREATE TABLE IF NOT EXISTS xswap_rows (
    journey_id TEXT NOT NULL REFERENCES xswap_journeys (id),
    seq INTEGER NOT NULL,
    pos INTEGER,
    step TEXT NOT NULL,
    status TEXT NOT NULL,
    data TEXT NOT NULL,
    body BLOB,
    at REAL NOT NULL,
    mac TEXT NOT NULL,
    PRIMARY KEY (journey_id, seq)
);
CREATE TABLE IF NOT EXISTS xswap_identities (
    identity TEXT NOT NULL,
    journey_id TEXT NOT NULL,
    PRIMARY KEY (identity, journey_id)
);
"""

JOURNEY_COLUMNS: Final = (
    "id, kind, state, created_at, updated_at, terms, mac, owner, owner_host, owner_pid, "
    "owner_started, lease_until"
)
"""The columns of a journey, in the order `read_journey` reads them."""


def terms_mac(key: JournalKey, journey_id: str, kind: str, terms: str) -> str:
    """The MAC of a journey's terms."""
    return key.mac("journey", journey_id, kind, terms)


def row_mac(key: JournalKey, journey_id: str, seq: int, row: NewRow) -> str:
    """The MAC of a row, bound to its journey and its place in it."""
    pos = "" if row.pos is None else str(row.pos)
    return key.mac(
        "row", journey_id, str(seq), pos, row.step, row.status, row.data, row.body or b""
    )


def row_records(
    key: JournalKey, journey_id: str, first: int, rows: Sequence[NewRow], now: float
) -> list[tuple[Any, ...]]:
    """``rows`` as the rows table holds them, numbered from ``first``, each with its MAC
    (both backends write these, in this column order)."""
    return [
        (
            journey_id,
            seq,
            row.pos,
            row.step,
            row.status,
            row.data,
            row.body,
            now,
            row_mac(key, journey_id, seq, row),
        )
        for seq, row in enumerate(rows, first)
    ]


ROW_COLUMNS: Final = "seq, pos, step, status, data, body, at, mac"
"""The columns of a row, in the order `read_journey` reads them."""


def read_journey(key: JournalKey, journey: Sequence[Any], rows: Iterable[Sequence[Any]]) -> Journey:
    """A `Journey` from its row (``JOURNEY_COLUMNS``) and its rows (`ROW_COLUMNS`, in
    ``seq`` order), its MACs checked with ``key``: the one reading any journal does."""
    (
        journey_id,
        kind,
        state,
        created,
        updated,
        terms,
        mac,
        owner,
        host,
        pid,
        started,
        lease,
    ) = journey
    authentic = mac == terms_mac(key, journey_id, kind, terms)
    read: list[Row] = []
    for seq, pos, step, status, data, body, at, row_code in rows:
        body = None if body is None else bytes(body)
        if authentic and row_code != row_mac(
            key, journey_id, seq, NewRow(pos, step, status, data, body)
        ):
            authentic = False
        read.append(Row(seq, pos, step, status, _loads(data), body, at))
    try:
        parsed_terms = json.loads(terms)
    except ValueError:
        parsed_terms, authentic = {}, False
    return Journey(
        id=journey_id,
        kind=kind,
        state=state if state in STATES else "needs_attention",
        created_at=created,
        updated_at=updated,
        terms=parsed_terms if isinstance(parsed_terms, dict) else {},
        rows=tuple(read),
        owner=None if owner is None else Owner(owner, host or "", pid or 0, started),
        lease_until=lease,
        authentic=authentic and isinstance(parsed_terms, dict),
    )


def check_state(state: object) -> None:
    """Refuse a state that is not a `xswap_sdk.journal.JourneyState`.

    Raises:
        InvalidInputError: naming ``state``.
    """
    if state is not None and state not in STATES:
        raise InvalidInputError("state", f"must be one of {', '.join(STATES)}")


def check_claim(
    journey_id: str, journey: Journey | None, owner: Owner, force: bool, now: float
) -> Journey:
    """``journey``, when ``owner`` may take its lease at ``now`` (`Journal.claim`'s rule).

    Raises:
        InvalidInputError: there is no such journey.
        JourneyBusyError: another owner's lease still holds, and not ``force``.
    """
    if journey is None:
        raise InvalidInputError("journey_id", f"no journey {journey_id} in the journal")
    holder = journey.held_by_other(now)
    if holder is not None and holder.token != owner.token and not force:
        until = time.strftime("%H:%M:%S", time.localtime(journey.lease_until or now))
        raise JourneyBusyError(
            f"journey {journey_id} is being run by {holder.describe()} (its lease "
            f"holds until {until}); nothing was signed or sent: resume it once that "
            "run has ended",
            journey_id=journey_id,
            holder=holder.describe(),
        )
    return journey


def taken_over(journey_id: str) -> JourneyBusyError:
    """What `Journal.append` raises when its owner no longer holds the lease."""
    return JourneyBusyError(
        f"journey {journey_id} was taken over by another run (this one's lease "
        "had run out); nothing more was written or sent by this one",
        journey_id=journey_id,
    )


class SQLiteJournal:
    """The embedded `xswap_sdk.journal.Journal`: one SQLite file (see the module).

    Safe to share between the threads of one process and between processes on one
    machine (``BEGIN IMMEDIATE`` transactions, a busy timeout of 5 s).

    Args:
        path: the file (created ``0600`` when absent), or ``":memory:"``.
        key: the journal key (`xswap_sdk.journal.JournalKey`, or a secret string);
            ``None``: ``<path>.key`` beside the file, created with the journal.
        lease_seconds: how long a run's lease holds without renewal.

    Raises:
        InvalidInputError: ``path`` is not a path, the file cannot be opened, others can
            write it or another user owns it, or the key is not this journal's.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        key: JournalKey | str | bytes | None = None,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
    ) -> None:
        if not isinstance(path, str | os.PathLike) or not os.fspath(path):
            raise InvalidInputError("journal", "must be a path (str or os.PathLike) or a Journal")
        seconds = _check_lease_seconds(lease_seconds)
        self.path = Path(os.fspath(path))
        """The journal's file."""
        self.lease_seconds = seconds
        """How long a run's lease holds without renewal."""
        self._lock = threading.Lock()
        memory = os.fspath(path) == ":memory:"
        created = False
        if not memory:
            created = self._create_private()
            for suffix in ("", "-wal", "-shm"):
                _check_private_file(Path(f"{self.path}{suffix}"), "journal")
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise InvalidInputError(
                "journal", f"cannot open the SQLite journal at {self.path} ({exc})"
            ) from None
        self._key = self._resolve_key(key, memory=memory, created=created)

    def _create_private(self) -> bool:
        """Create the file ``0600`` when it does not exist (SQLite gives its ``-wal`` and
        ``-shm`` the same mode); whether it was created."""
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            return False
        except OSError as exc:
            raise InvalidInputError(
                "journal", f"cannot create the journal at {self.path} ({exc.strerror})"
            ) from None
        os.close(fd)
        return True

    def _resolve_key(
        self, key: JournalKey | str | bytes | None, *, memory: bool, created: bool
    ) -> JournalKey:
        row = self._db.execute("SELECT value FROM xswap_meta WHERE name = 'key'").fetchone()
        known = row[0] if row else None
        if key is not None:
            resolved = (
                key if isinstance(key, JournalKey) else JournalKey.from_text(key, "journal_key")
            )
        elif memory:
            resolved = JournalKey.random()
        else:
            # The key file is made with the journal, or for one that holds nothing yet.
            empty = known is None and not self._has_journeys()
            found = _key_file_key(Path(f"{self.path}.key"), create=created or empty)
            if found is None:
                raise InvalidInputError(
                    "journal_key",
                    f"is needed: {self.path} was written with a journal key (journal_key= or "
                    "XSWAP_JOURNAL_KEY), and no key file is beside it",
                )
            resolved = found
        fingerprint = resolved.fingerprint()
        if known is None:
            self._db.execute("INSERT OR IGNORE INTO xswap_meta VALUES ('key', ?)", (fingerprint,))
        elif known != fingerprint:
            raise InvalidInputError(
                "journal_key",
                f"is not the key {self.path} was written with (journal_key=, "
                f"XSWAP_JOURNAL_KEY, or the key file {self.path}.key)",
            )
        return resolved

    def _has_journeys(self) -> bool:
        return self._db.execute("SELECT 1 FROM xswap_journeys LIMIT 1").fetchone() is not None

    # ------------------------------------------------------------------- writing

    def create(self, kind: str, terms: str, owner: Owner) -> str:
        """See `xswap_sdk.journal.Journal.create`."""
        journey_id = uuid.uuid4().hex
        now = time.time()
        started = NewRow(0, "started", "started", "{}")
        with self._lock, self._transaction(durable=False):
            self._db.execute(
                f"INSERT INTO xswap_journeys ({JOURNEY_COLUMNS}) "
                "VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            self._insert(journey_id, 0, [started], now)
        return journey_id

    def claim(self, journey_id: str, owner: Owner, *, force: bool = False) -> Journey:
        """See `xswap_sdk.journal.Journal.claim`."""
        now = time.time()
        with self._lock, self._transaction(durable=False):
            journey = check_claim(journey_id, self._read(journey_id), owner, force, now)
            self._db.execute(
                "UPDATE xswap_journeys SET owner = ?, owner_host = ?, owner_pid = ?, "
                "owner_started = ?, lease_until = ? WHERE id = ?",
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
        now = time.time()
        with self._lock, self._transaction(durable=durable):
            found = self._db.execute(
                "SELECT owner, (SELECT COALESCE(MAX(seq), -1) FROM xswap_rows "
                "WHERE journey_id = ?) FROM xswap_journeys WHERE id = ?",
                (journey_id, journey_id),
            ).fetchone()
            if found is None or found[0] != owner.token:
                raise taken_over(journey_id)
            self._insert(journey_id, found[1] + 1, rows, now)
            lease = None if release else now + self.lease_seconds
            self._db.execute(
                "UPDATE xswap_journeys SET updated_at = ?, state = COALESCE(?, state), "
                "lease_until = ?, owner = CASE WHEN ? THEN NULL ELSE owner END WHERE id = ?",
                (now, state, lease, release, journey_id),
            )

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
        now = time.time()
        row = NewRow(None, step, status, json.dumps(dict(data)))
        with self._lock, self._transaction(durable=True):
            (last,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), -1) FROM xswap_rows WHERE journey_id = ?",
                (journey_id,),
            ).fetchone()
            self._insert(journey_id, last + 1, [row], now)
            self._db.execute(
                "UPDATE xswap_journeys SET updated_at = ?, state = COALESCE(?, state) WHERE id = ?",
                (now, state, journey_id),
            )

    def _insert(self, journey_id: str, first: int, rows: Sequence[NewRow], now: float) -> None:
        self._db.executemany(
            "INSERT INTO xswap_rows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            row_records(self._key, journey_id, first, rows, now),
        )
        identities = [(i, journey_id) for row in rows for i in row.identities]
        if identities:
            self._db.executemany("INSERT OR IGNORE INTO xswap_identities VALUES (?, ?)", identities)

    def _transaction(self, *, durable: bool) -> _Transaction:
        return _Transaction(self._db, durable)

    # ------------------------------------------------------------------- reading

    def journey(self, journey_id: str) -> Journey | None:
        """See `xswap_sdk.journal.Journal.journey`."""
        with self._lock:
            return self._read(journey_id)

    def journeys(self, *, states: Sequence[str] | None = None) -> list[Journey]:
        """See `xswap_sdk.journal.Journal.journeys`."""
        query = f"SELECT {JOURNEY_COLUMNS} FROM xswap_journeys"
        params: list[Any] = []
        if states is not None:
            query += f" WHERE state IN ({', '.join('?' for _ in states)})"
            params = list(states)
        with self._lock:
            found = self._db.execute(query + " ORDER BY created_at, id", params).fetchall()
            return [self._with_rows(row) for row in found]

    def find(self, identity: str) -> list[str]:
        """See `xswap_sdk.journal.Journal.find`."""
        with self._lock:
            return [
                row[0]
                for row in self._db.execute(
                    "SELECT journey_id FROM xswap_identities WHERE identity = ?", (identity,)
                )
            ]

    def _read(self, journey_id: str) -> Journey | None:
        row = self._db.execute(
            f"SELECT {JOURNEY_COLUMNS} FROM xswap_journeys WHERE id = ?", (journey_id,)
        ).fetchone()
        return None if row is None else self._with_rows(row)

    def _with_rows(self, row: tuple[Any, ...]) -> Journey:
        rows = self._db.execute(
            f"SELECT {ROW_COLUMNS} FROM xswap_rows WHERE journey_id = ? ORDER BY seq", (row[0],)
        )
        return read_journey(self._key, row, rows)

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()

    def __repr__(self) -> str:
        return f"SQLiteJournal({str(self.path)!r})"


def _loads(text: str) -> Any:
    try:
        loaded = json.loads(text)
    except ValueError:
        return {}
    return loaded if isinstance(loaded, dict) else {}


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on an error), with
    ``synchronous=FULL`` for a durable one."""

    __slots__ = ("_db", "_durable")

    def __init__(self, db: sqlite3.Connection, durable: bool) -> None:
        self._db = db
        self._durable = durable

    def __enter__(self) -> None:
        if self._durable:
            self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        try:
            self._db.execute("ROLLBACK" if kind is not None else "COMMIT")
        finally:
            if self._durable:
                self._db.execute("PRAGMA synchronous=NORMAL")
