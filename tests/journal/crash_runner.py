"""Run one journey to a crash at each of its steps, each in a forked process of its own
that dies with ``os._exit`` inside ``on_step``; resume each one here, over real sockets.

    python crash_runner.py BASE_URL JOURNEY sync|async STEPS JOURNAL_DIR

Prints one JSON line per step: ``{"at", "exit", "journey_id", "state"}``.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from xswap_sdk import SystemClock, errors
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.journal.journeys import client, report, resolve, start


def wired(base_url: str, journey: str, flavour: str, **kwargs: Any) -> Any:
    """A client of the served sandbox, over real sockets on the real clock."""
    http = httpx.AsyncClient() if flavour == "async" else httpx.Client()
    local = Sandbox(base_url=base_url, clock=SystemClock())
    return client(local, journey, flavour, http_client=http, clock=SystemClock(), **kwargs)


def dies_at(at: int) -> Callable[[StepEvent], None]:
    """A step hook that ends the process (exit code 17) at its step ``at``."""
    seen = 0

    def die(event: StepEvent) -> None:
        nonlocal seen
        seen += 1
        if seen == at + 1:
            os._exit(17)

    return die


def crash_at(base_url: str, journey: str, flavour: str, at: int, journal: Path) -> None:
    """The child: run the journey and die at its step ``at``."""
    die = dies_at(at)

    async def run() -> None:
        api = wired(base_url, journey, flavour, journal=journal, on_step=die)
        await resolve(start(journey, api, tag=f"{flavour}-{at}"))

    asyncio.run(run())
    os._exit(0)


def main() -> None:
    base_url, journey, flavour, steps, directory = sys.argv[1:6]
    for at in range(int(steps)):
        journal = Path(directory) / f"{journey}-{flavour}-{at}.db"
        pid = os.fork()
        if pid == 0:
            crash_at(base_url, journey, flavour, at, journal)
        _, status = os.waitpid(pid, 0)
        [interrupted] = SQLiteJournal(journal).journeys()

        async def resume(journey_id: str, journal: Path = journal) -> tuple[Any, bool]:
            # A journey stopped before it signed needs restart=True to sign anew.
            api = wired(base_url, journey, flavour, journal=journal)
            try:
                return await resolve(api.resume(journey_id)), False
            except errors.RestartRequiredError:
                return await resolve(api.resume(journey_id, restart=True)), True

        resumed, restarted = asyncio.run(resume(interrupted.id))
        report(at, status, interrupted, resumed, restarted=restarted)


if __name__ == "__main__":
    main()
