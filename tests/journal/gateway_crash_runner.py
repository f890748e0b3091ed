"""Run `GatewayClient.send_transfer` to a crash at each of its steps, each in a forked
process of its own that dies with ``os._exit`` inside ``on_step``; resume each one
here, over real sockets (the signer for a transfer killed before it signed comes from
``XSWAP_PRIVATE_KEY``).

    python gateway_crash_runner.py BASE_URL sync|async STEPS JOURNAL_DIR

Prints one JSON line per step: ``{"at", "exit", "journey_id", "stopped", "state"}``.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from xswap_sdk import errors
from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.journal import SQLiteJournal
from xswap_sdk.testing import TEST_SIGNER

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.journal.crash_runner import dies_at, wired
from tests.journal.journeys import report, resolve


def crash_at(base_url: str, flavour: str, at: int, journal: Path) -> None:
    """The child: send the transfer and die at its step ``at``."""
    die = dies_at(at)

    async def run() -> None:
        api = wired(base_url, "transfer", flavour, journal=journal, on_step=die)
        intent = build_transfer_intent(
            source_chain_id=8453,
            destination_chain_id=42161,
            depositor=TEST_SIGNER.address,
            recipient=TEST_SIGNER.address,
            value=1_000_000,
        )
        await resolve(api.send_transfer(TEST_SIGNER, intent, max_fee_cap=1_000_000))

    asyncio.run(run())
    os._exit(0)


def main() -> None:
    base_url, flavour, steps, directory = sys.argv[1:5]
    for at in range(int(steps)):
        journal = Path(directory) / f"send_transfer-{flavour}-{at}.db"
        pid = os.fork()
        if pid == 0:
            crash_at(base_url, flavour, at, journal)
        _, status = os.waitpid(pid, 0)
        [interrupted] = SQLiteJournal(journal).journeys()

        async def resume(journey_id: str, journal: Path = journal) -> Any:
            # A transfer stopped before its signature was on disk signs anew only with
            # restart=True.
            api = wired(base_url, "transfer", flavour, journal=journal)
            try:
                return await resolve(api.resume(journey_id))
            except errors.RestartRequiredError:
                return await resolve(api.resume(journey_id, restart=True))

        resumed = asyncio.run(resume(interrupted.id))
        report(at, status, interrupted, resumed)


if __name__ == "__main__":
    main()
