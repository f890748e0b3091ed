"""Run a chain journey to a crash at each of its steps, each in a forked process of its
own that dies with ``os._exit`` inside ``on_step``, against the served sandbox and a
real node (anvil); resume each one here with web3, then read the chain.

    python chain_crash_runner.py ANVIL_URL BASE_URL JOURNEY sync|async JOURNAL_DIR [LEAVE]

Crashes at step 0, 1, 2, ... until a run ends without reaching its crash step (exit
0). Each run starts from the same chain state (``evm_snapshot``, reverted after it).
``LEAVE``: comma-separated stop labels (``broadcast/ok:deposit``) whose journeys are not
resumed here, for the caller to resume (``xswap resume``).

Prints one JSON line per run: ``{"at", "exit", "journey_id", "stopped", "state",
"chain"}``; ``chain`` is what the chain holds after the resume, before the revert: the
account's transactions (``{"hash", "what"}``), its nonce and USDC moved, and the
GatewayWallet's ``Deposited`` events.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import httpx

from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.anvil.chain_journeys import (
    CHAIN_ID,
    ME,
    balance,
    chain_steps,
    client,
    close,
    deposited_logs,
    label,
    mine,
    resolve,
    run,
    web3_on,
)

MAX_STEPS = 40


def crash_at(anvil_url: str, base_url: str, journey: str, flavour: str, at: int,
             journal: Path) -> None:  # fmt: skip
    """The child: run the journey and die at its step ``at``; never returns."""
    seen = 0

    def die(event: StepEvent) -> None:
        nonlocal seen
        seen += 1
        if seen == at + 1:
            os._exit(17)

    async def go() -> None:
        api = client(base_url, journey, flavour, journal=journal, on_step=die)
        await run(journey, api, web3_on(anvil_url, flavour))

    try:
        asyncio.run(go())
    except BaseException:
        traceback.print_exc()
        os._exit(3)
    os._exit(0)


def wait_indexed(base_url: str, tx_hash: str) -> None:
    """Wait until the sandbox's ``/status`` knows ``tx_hash`` (the test's indexer
    reads the chain), as a routing service indexes a chain some time after a block."""
    url = Sandbox(base_url=base_url).routing_url + "/status"
    params = {"txHash": tx_hash, "fromChain": str(CHAIN_ID)}
    deadline = time.monotonic() + 30
    while httpx.get(url, params=params).status_code != 200:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the sandbox never indexed {tx_hash}")
        time.sleep(0.05)


def main() -> None:
    anvil_url, base_url, journey, flavour, directory = sys.argv[1:6]
    leave = set(sys.argv[6].split(",")) if len(sys.argv) > 6 and sys.argv[6] else set()
    w3 = web3_on(anvil_url, "sync")
    for at in range(MAX_STEPS):
        journal = Path(directory) / f"{journey}-{flavour}-{at}.db"
        snapshot = w3.provider.make_request("evm_snapshot", [])["result"]  # type: ignore[arg-type]
        block, nonce, usdc = w3.eth.block_number, w3.eth.get_transaction_count(ME), balance(w3, ME)
        pid = os.fork()
        if pid == 0:
            crash_at(anvil_url, base_url, journey, flavour, at, journal)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        if code not in (0, 17):
            raise RuntimeError(f"the child crashing at step {at} failed with {code}")
        [interrupted] = SQLiteJournal(journal).journeys()
        for tx_hash in chain_steps(interrupted, "broadcast", "ok").get("route", []):
            wait_indexed(base_url, tx_hash)
        stopped = label(interrupted.steps[-1])
        state = None
        if stopped not in leave:

            async def resume(journey_id: str, journal: Path = journal) -> Any:
                api = client(base_url, journey, flavour, journal=journal)
                web3 = web3_on(anvil_url, flavour)
                try:
                    return await resolve(api.resume(journey_id, web3=web3))
                finally:
                    await close(web3)

            state = asyncio.run(resume(interrupted.id)).state
        chain = {
            "transactions": mine(w3, block),
            "nonce": w3.eth.get_transaction_count(ME) - nonce,
            "usdc_moved": usdc - balance(w3, ME),
            "deposited": deposited_logs(w3, block),
        }
        w3.provider.make_request("evm_revert", [snapshot])  # type: ignore[arg-type]
        line = {
            "at": at,
            "exit": code,
            "journey_id": interrupted.id,
            "stopped": stopped,
            "state": state,
            "chain": chain,
        }
        print(json.dumps(line), flush=True)
        if code == 0:
            return
    raise RuntimeError(f"the journey did not end within {MAX_STEPS} steps")


if __name__ == "__main__":
    main()
