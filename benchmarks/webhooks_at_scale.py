"""Webhooks at scale: how long `advance_journeys` takes to find the journey a Gateway
notification is about in a journal of 100,000 journeys, SQLite and PostgreSQL.

    python benchmarks/webhooks_at_scale.py [--journeys 100000] [--lookups 200]

The journal is filled straight through its tables (batched ``executemany``, the MACs
made as the journal makes them), with one ``deposit`` journey per transaction hash, as
`FlashClient.deposit` leaves one waiting for ``gateway.deposit.finalized``. Then, for
``--lookups`` random journeys: the lookup alone (``journal.find`` of the hash and the
journey's read, what `advance_journeys` does before it writes) and the whole
`advance_journeys` (the lookup and the durable ``finalized`` write). Prints the median
and the 95th percentile of each; the goal is a lookup under 5 ms.

PostgreSQL: ``XSWAP_BENCH_POSTGRES_URL`` (a database the script may fill), else a server
started as the tests start theirs (``tests/postgres.py``: the ``dev`` extra's binaries;
``fsync`` off there, so the write figures are the server's best case).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from xswap_sdk._postgres_journal import PostgresJournal  # noqa: E402
from xswap_sdk._sqlite_journal import SQLiteJournal, row_records, terms_mac  # noqa: E402
from xswap_sdk.gateway.webhooks import WebhookNotification, advance_journeys  # noqa: E402
from xswap_sdk.journal import NewRow  # noqa: E402

KEY = "benchmark-journal-key-0123456789"
BATCH = 5_000


def tx_hash(n: int) -> str:
    """The transaction hash of the ``n``th filled journey."""
    return "0x" + f"{n:064x}"


def deposit_notification(tx: str) -> dict[str, Any]:
    """A ``gateway.deposit.finalized`` notification about the deposit ``tx``."""
    return {
        "notificationId": str(uuid.uuid4()),
        "notificationType": "gateway.deposit.finalized",
        "notification": {"txHash": tx, "amount": "5.000000", "domain": "6"},
        "timestamp": "2025-01-01T00:00:00Z",
        "version": 2,
    }


def _journeys(journal: Any, start: int, count: int) -> Iterator[tuple[list[Any], ...]]:
    """Batches of (journey rows, rows, identities) for journeys ``start..start+count``."""
    key = journal._key
    postgres = isinstance(journal, PostgresJournal)
    now = time.time()
    for first in range(start, start + count, BATCH):
        journeys, rows, identities = [], [], []
        for n in range(first, min(first + BATCH, start + count)):
            journey_id = uuid.uuid4().hex
            terms = json.dumps({"deposit": {"chain_id": 8453, "n": n}})
            mac = terms_mac(key, journey_id, "deposit", terms)
            journey = [journey_id, "deposit", "running", now, now, terms, mac]
            journeys.append((*journey, None, None, None, None, None, *([2] if postgres else [])))
            data = json.dumps({"what": "deposit", "tx_hash": tx_hash(n)})
            written = [
                NewRow(0, "started", "started", "{}"),
                NewRow(1, "broadcast", "ok", data, identities=(tx_hash(n),)),
            ]
            rows.extend(row_records(key, journey_id, 0, written, now))
            identities.append((tx_hash(n), journey_id))
        yield journeys, rows, identities


def fill(journal: Any, count: int, start: int = 0) -> None:
    """Write ``count`` waiting deposit journeys into ``journal``'s tables, in batches."""
    if isinstance(journal, SQLiteJournal):
        db = journal._db
        for journeys, rows, identities in _journeys(journal, start, count):
            db.execute("BEGIN")
            db.executemany(f"INSERT INTO xswap_journeys VALUES ({', '.join('?' * 12)})", journeys)
            db.executemany(f"INSERT INTO xswap_rows VALUES ({', '.join('?' * 9)})", rows)
            db.executemany("INSERT INTO xswap_identities VALUES (?, ?)", identities)
            db.execute("COMMIT")
        return
    with journal._pool.connection() as conn:
        for journeys, rows, identities in _journeys(journal, start, count):
            with conn.transaction(), conn.cursor() as cursor:
                cursor.executemany(
                    f"INSERT INTO xswap_journeys VALUES ({', '.join(['%s'] * 13)})", journeys
                )
                cursor.executemany(f"INSERT INTO xswap_rows VALUES ({', '.join(['%s'] * 9)})", rows)
                cursor.executemany(
                    "INSERT INTO xswap_identities (identity, journey_id) VALUES (%s, %s)",
                    identities,
                )
        conn.execute("ANALYZE")


def _timed(work: Callable[[], object]) -> float:
    began = time.perf_counter()
    work()
    return (time.perf_counter() - began) * 1000


def measure(journal: Any, journeys: int, lookups: int) -> dict[str, float]:
    """Fill, then time the lookup and the whole `advance_journeys` (milliseconds)."""
    began = time.perf_counter()
    fill(journal, journeys)
    filled = time.perf_counter() - began
    picks = random.Random(7).sample(range(journeys), 2 * lookups + 20)
    for n in picks[2 * lookups :]:  # warm up: connections made, statements prepared
        journal.journey(journal.find(tx_hash(n))[0])
    lookup = []
    for n in picks[:lookups]:

        def find(tx: str = tx_hash(n)) -> None:
            [found] = journal.find(tx)
            assert journal.journey(found) is not None

        lookup.append(_timed(find))
    whole = []
    for n in picks[lookups : 2 * lookups]:
        notification = WebhookNotification.model_validate(deposit_notification(tx_hash(n)))

        def advance(notification: WebhookNotification = notification) -> None:
            assert len(advance_journeys(journal, notification)) == 1

        whole.append(_timed(advance))
    return {
        "fill_s": filled,
        "lookup_median_ms": statistics.median(lookup),
        "lookup_p95_ms": statistics.quantiles(lookup, n=20)[-1],
        "advance_median_ms": statistics.median(whole),
        "advance_p95_ms": statistics.quantiles(whole, n=20)[-1],
    }


@contextmanager
def postgres_url() -> Iterator[str]:
    """A PostgreSQL database to fill: the named one, else a fresh server's."""
    named = os.environ.get("XSWAP_BENCH_POSTGRES_URL")
    if named:
        yield named
        return
    from tests import postgres

    server = postgres.start_server()
    try:
        yield postgres.create_database(server.url, "bench_webhooks")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journeys", type=int, default=100_000)
    parser.add_argument("--lookups", type=int, default=200)
    args = parser.parse_args()
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as directory:
        sqlite = SQLiteJournal(Path(directory) / "journal.db", key=KEY)
        results["SQLite"] = measure(sqlite, args.journeys, args.lookups)
        sqlite.close()
    with postgres_url() as url:
        pg = PostgresJournal(url, key=KEY)
        results["PostgreSQL"] = measure(pg, args.journeys, args.lookups)
        pg.close()
    print(f"{args.journeys:,} journeys; {args.lookups} lookups and {args.lookups} webhooks")
    print("| journal | fill | lookup median | lookup p95 | advance_journeys median | p95 |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, r in results.items():
        print(
            f"| {name} | {r['fill_s']:.1f} s | {r['lookup_median_ms']:.2f} ms | "
            f"{r['lookup_p95_ms']:.2f} ms | {r['advance_median_ms']:.2f} ms | "
            f"{r['advance_p95_ms']:.2f} ms |"
        )
    worst = max(r["lookup_p95_ms"] for r in results.values())
    print(
        f"goal: a lookup under 5 ms: {'met' if worst < 5 else 'NOT met'} (worst p95 {worst:.2f} ms)"
    )


if __name__ == "__main__":
    main()
