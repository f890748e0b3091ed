"""Does the journal hold up an async client's event loop? N journaled relays run
concurrently on one `AsyncRelayerClient` against the in-process sandbox while a ticker
task measures how late the loop wakes it (the loop's lag), without a journal, with an
SQLite journal (called in a worker thread) and with a PostgreSQL journal (its own
coroutines, awaited on the loop); and, for contrast, SQLite called on the loop itself,
what the thread avoids.

    python benchmarks/journal_async.py [--relays 50] [--rounds 5]

Prints, for each, the relays per second and the ticker's median, 99th percentile and
largest lag. PostgreSQL: ``XSWAP_BENCH_POSTGRES_URL``, else a server started as the
tests start theirs (``tests/postgres.py``; ``fsync`` off there).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from benchmarks.webhooks_at_scale import postgres_url  # noqa: E402

from xswap_sdk import _async_driver  # noqa: E402
from xswap_sdk.journal import PostgresJournal, SQLiteJournal  # noqa: E402
from xswap_sdk.sandbox import Sandbox  # noqa: E402

KEY = "benchmark-journal-key-0123456789"
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
TICK = 0.001


async def _ticker(lags: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        asked = time.perf_counter()
        await asyncio.sleep(TICK)
        lags.append((time.perf_counter() - asked - TICK) * 1000)


async def _run(journal: Any, relays: int, rounds: int) -> dict[str, float]:
    sandbox = Sandbox()
    client = sandbox.async_relayer_client(journal=journal)
    lags: list[float] = []
    stop = asyncio.Event()
    ticker = asyncio.create_task(_ticker(lags, stop))
    began = time.perf_counter()
    for round_ in range(rounds):
        await asyncio.gather(
            *(
                client.relay(chain_id=8453, to=USDC_BASE, call_data="0x", label=f"{round_}-{n}")
                for n in range(relays)
            )
        )
    elapsed = time.perf_counter() - began
    stop.set()
    await ticker
    await client.aclose()
    if isinstance(journal, PostgresJournal):
        await journal.aclose()
    lags.sort()
    return {
        "per_second": relays * rounds / elapsed,
        "median": statistics.median(lags),
        "p99": lags[int(len(lags) * 0.99)],
        "max": lags[-1],
    }


@contextmanager
def _on_the_loop() -> Iterator[None]:
    """The async driver calling a blocking journal on the loop itself (never so)."""
    real = _async_driver.async_journal_call

    async def direct(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return call(*args, **kwargs)

    _async_driver.async_journal_call = direct  # type: ignore[assignment]
    try:
        yield
    finally:
        _async_driver.async_journal_call = real


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--relays", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    results: dict[str, dict[str, float]] = {}

    def measure(name: str, journal: Callable[[], Any]) -> None:
        results[name] = asyncio.run(_run(journal(), args.relays, args.rounds))

    with tempfile.TemporaryDirectory() as directory:
        measure("no journal", lambda: None)
        measure("SQLite (a worker thread)", lambda: SQLiteJournal(Path(directory) / "a.db"))
        with postgres_url() as url:
            measure("PostgreSQL (awaited)", lambda: PostgresJournal(url, key=KEY))
        with _on_the_loop():
            measure("SQLite on the loop (avoided)", lambda: SQLiteJournal(Path(directory) / "b.db"))
    print(
        f"{args.relays} concurrent relays x {args.rounds} rounds; loop lag of a {TICK * 1000:g} ms "
        "ticker"
    )
    print("| journal | relays/s | lag median | lag p99 | lag max |")
    print("| --- | --- | --- | --- | --- |")
    for name, r in results.items():
        print(
            f"| {name} | {r['per_second']:.0f} | {r['median']:.2f} ms | {r['p99']:.2f} ms | "
            f"{r['max']:.2f} ms |"
        )


if __name__ == "__main__":
    main()
