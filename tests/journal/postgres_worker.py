"""A worker process on a PostgreSQL journal, for tests/journal/test_postgres_journal.py:
it runs a journey and dies in the middle of it, or resumes one, against the served
sandbox, over real sockets.

    python -m tests.journal.postgres_worker crash BASE_URL JOURNEY FLAVOUR AT
    python -m tests.journal.postgres_worker resume BASE_URL JOURNEY FLAVOUR JOURNEY_ID [START_AT]

The journal is ``XSWAP_JOURNAL`` (a URL: its password comes through the environment,
never the command line) with ``XSWAP_JOURNAL_KEY``; ``XSWAP_TEST_LEASE`` sets its lease
seconds, ``XSWAP_TEST_HOST`` makes this process claim to run on another host (its
leases then hold until they expire, as a dead worker's on another machine do).

``XSWAP_TEST_HOLD`` (seconds) makes a resume hold the journey that long once it claimed it.

``crash`` dies (``os._exit(17)``) at the journey's step event ``AT``, after printing the
journey's id. ``resume`` waits until ``START_AT`` (Unix seconds: racing resumers begin
together), resumes and prints ``{"state": ...}`` or ``{"busy": holder}``.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

from xswap_sdk import errors
from xswap_sdk.journal import JOURNAL_ENV, JOURNAL_KEY_ENV, PostgresJournal, StepEvent

from .crash_runner import wired
from .journeys import resolve, start


def _host() -> None:
    host = os.environ.get("XSWAP_TEST_HOST")
    if host:
        import xswap_sdk._journal_core as journal_module

        real = journal_module._process_identity

        def identity() -> tuple[str, int, float | None]:
            _, pid, started = real()
            return f"{host}#fake-boot", pid, started

        journal_module._process_identity = identity


def _journal() -> PostgresJournal:
    return PostgresJournal(
        os.environ[JOURNAL_ENV],
        key=os.environ[JOURNAL_KEY_ENV],
        lease_seconds=float(os.environ.get("XSWAP_TEST_LEASE", "300")),
    )


def crash(base_url: str, journey: str, flavour: str, at: int) -> None:
    seen = 0

    def die(event: StepEvent) -> None:
        nonlocal seen
        if seen == 0:
            print(json.dumps({"journey_id": event.journey_id}), flush=True)
        seen += 1
        if seen == at + 1:
            os._exit(17)

    async def run() -> None:
        api = wired(base_url, journey, flavour, journal=_journal(), on_step=die)
        await resolve(start(journey, api, tag=f"pg-{flavour}-{at}-{os.getpid()}"))

    asyncio.run(run())
    os._exit(0)  # it ended before its step AT


def resume(base_url: str, journey: str, flavour: str, journey_id: str, start_at: float) -> None:
    hold = float(os.environ.get("XSWAP_TEST_HOLD", "0"))

    def holding(event: StepEvent) -> None:
        if event.step == "resumed":
            time.sleep(hold)  # the run holds the lease a while: a racer finds it held

    async def run() -> dict[str, Any]:
        api = wired(base_url, journey, flavour, journal=_journal(), on_step=holding)
        await asyncio.sleep(max(0.0, start_at - time.time()))
        try:
            try:
                resumed = await resolve(api.resume(journey_id))
            except errors.RestartRequiredError:
                resumed = await resolve(api.resume(journey_id, restart=True))
        except errors.JourneyBusyError as busy:
            return {"busy": busy.holder}
        return {"state": resumed.state}

    print(json.dumps(asyncio.run(run())), flush=True)


def main(argv: list[str]) -> None:
    _host()
    command, base_url, journey, flavour = argv[:4]
    if command == "crash":
        crash(base_url, journey, flavour, int(argv[4]))
    else:
        resume(base_url, journey, flavour, argv[4], float(argv[5]) if len(argv) > 5 else 0.0)


if __name__ == "__main__":
    main(sys.argv[1:])
