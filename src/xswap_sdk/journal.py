"""A journal of money journeys: each step of a journey, written as the flow takes it, so
that a crash can be recovered by replay.

Give a client ``journal=`` (a path to an SQLite file, a ``postgresql://`` URL, or any
`Journal`), or set ``XSWAP_JOURNAL`` to one, and each money-moving call (a Flash ``swap`` or
``submit_swap``, a ``gasless_swap``, a relayer ``relay``/``relay_sync``/``submit_tx``/
``relay_signed_tx``, a Gateway ``send_transfer``/``transfer``/``mint``/``send_call``, a
``route`` execution, a ``deposit`` sent by web3) writes a *journey*: its terms (the
checked arguments), and every step its flow takes: each request and its answer, each
chain read and send, each signature, and the times and random values the flow used.
After a crash, ``client.resume(journey_id)`` or ``xswap resume`` runs the same flow
again and feeds it the recorded results (replay): the first step with no record runs
live, and nothing already signed is signed again (see ``docs/journeys.md``). Without a
journal nothing is written and nothing changes.

The journal is **sensitive**: it holds signatures and signed payloads (resume needs
them), never a private key, a JWT or an API key. It is an input like any service's
answer: each journey's terms and steps carry a MAC made with the journal key
(``journal_key=`` or ``XSWAP_JOURNAL_KEY``; for an SQLite file without one, a key file
beside it, ``<journal>.key``), and a journey whose MAC does not verify is refused. A
journey is run in one place at a time: whoever runs or resumes it holds its lease.

`SQLiteJournal` is the embedded default (the standard library's `sqlite3`, WAL mode);
`PostgresJournal` is one journal for the workers of several hosts (psycopg 3, the
``postgres`` extra; a journal key is required). A journal that also offers the
`AsyncJournal` methods is awaited by the async clients; any other is called in a worker
thread: a journal write never holds up an event loop.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

# The types live in _journal_core, below the SQLite and PostgreSQL journals that build on
# them; this module exports them with open_journal, which opens those journals. STATES and
# DONE_STATES are named here too for the modules that read them from this one.
from ._journal_core import (
    DEFAULT_LEASE_SECONDS,
    JOURNAL_ENV,
    JOURNAL_KEY_ENV,
    PRIVATE_KEY_ENV,
    AsyncJournal,
    Journal,
    JournalArg,
    JournalKey,
    JournalStep,
    Journey,
    JourneyState,
    NewRow,
    Owner,
    ResumeResult,
    Row,
    StepEvent,
    StepHook,
    _resolve_key,
)
from ._journal_core import (
    DONE_STATES as DONE_STATES,
)
from ._journal_core import (
    STATES as STATES,
)
from .errors import InvalidInputError

if TYPE_CHECKING:
    from ._postgres_journal import PostgresJournal
    from ._sqlite_journal import SQLiteJournal

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
    "PostgresJournal",
    "ResumeResult",
    "Row",
    "SQLiteJournal",
    "StepEvent",
    "StepHook",
    "open_journal",
]


def open_journal(
    journal: str | os.PathLike[str] | Journal | None,
    environ: Mapping[str, str] | None = None,
    *,
    key: str | bytes | None = None,
) -> Journal | None:
    """The journal of ``journal=``: a `Journal` as given, a `PostgresJournal` at a
    ``postgresql://`` (or ``postgres://``) URL, an `SQLiteJournal` at a path, else the
    same of ``XSWAP_JOURNAL``, else ``None`` (nothing journaled). ``key`` (or
    ``XSWAP_JOURNAL_KEY``) is the journal key of a journal opened from a path or a URL.

    Raises:
        InvalidInputError: ``journal`` is neither a path, a URL nor a `Journal`, ``key``
            is given with a `Journal` (give it to the journal itself), the key or the
            file is refused, or the URL is malformed or its server cannot be reached
            (named ``journal``, or ``XSWAP_JOURNAL``; its password never shown).
        MissingDependencyError: a URL without psycopg (the ``postgres`` extra).
    """
    env = os.environ if environ is None else environ
    if journal is None:
        path = env.get(JOURNAL_ENV) or None
        if path is None:
            return None
        try:
            return _open_path(path, _resolve_key(key, env))
        except InvalidInputError as exc:
            if exc.argument == "journal":
                raise InvalidInputError(JOURNAL_ENV, exc.rule) from None
            raise
    if isinstance(journal, str | os.PathLike):
        return _open_path(journal, _resolve_key(key, env))
    if isinstance(journal, Journal):
        if key is not None:
            raise InvalidInputError(
                "journal_key",
                "is for a journal opened from a path or a URL: give the key to the Journal",
            )
        return journal
    raise InvalidInputError(
        "journal", "must be a path (str or os.PathLike), a postgresql:// URL or a Journal"
    )


def _open_path(path: str | os.PathLike[str], key: JournalKey | None) -> Journal:
    from ._postgres import is_postgres_url  # lazy: it brings pydantic, which a path does not need

    if is_postgres_url(path):
        from ._postgres_journal import PostgresJournal  # lazy: psycopg, on first use

        return PostgresJournal(str(path), key=key)
    from ._sqlite_journal import SQLiteJournal  # lazy: sqlite3, on first use

    return SQLiteJournal(path, key=key)


def __getattr__(name: str) -> Any:
    # SQLiteJournal and PostgresJournal live in their own modules, loaded when first
    # asked for.
    if name == "SQLiteJournal":
        from ._sqlite_journal import SQLiteJournal  # lazy: sqlite3, when first asked for

        return SQLiteJournal
    if name == "PostgresJournal":
        from ._postgres_journal import PostgresJournal  # lazy: psycopg, when first asked for

        return PostgresJournal
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
