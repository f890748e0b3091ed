"""Run a chain journey to a crash at each of its steps, each in a forked process of its
own, against the served sandbox and a real node (anvil); resume each one here with
web3, then read the chain.

    python chain_crash_runner.py ANVIL_URL BASE_URL JOURNEY sync|async JOURNAL_DIR [LEAVE]

Two ways to die, each tried at every point until a run ends without reaching it
(exit 0):

- ``step``: ``os._exit(17)`` inside ``on_step``, at step 0, 1, 2, ...: after the
  journal wrote the step, before the flow goes on;
- ``send``: ``os._exit(18)`` right after the node accepted the 1st, 2nd, ...
  transaction (``eth_sendRawTransaction`` answered), before the journal could write
  ``broadcast/ok``: the transaction left, and the journal says only ``sending``.

Each run starts from the same chain state (``evm_snapshot``, reverted after it).
``LEAVE``: comma-separated stop labels (``broadcast/ok:deposit``) of ``step`` runs
whose journeys are not resumed here, for the caller to resume (``xswap resume``).

Prints one JSON line per run: ``{"kill", "at", "exit", "journey_id", "stopped",
"state", "chain"}``; ``chain`` is what the chain holds after the resume, before the
revert: the account's transactions (``{"hash", "what"}``), its nonce and USDC moved,
and the GatewayWallet's ``Deposited`` events.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

from web3 import AsyncHTTPProvider, HTTPProvider

from xswap_sdk import errors
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.testing import TEST_SIGNER

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.anvil.chain_journeys import (
    ME,
    account_transactions,
    balance,
    client,
    close,
    deposited_logs,
    label,
    resolve,
    run,
    settled,
    wait_indexed,
    web3_on,
)

MAX_STEPS = 40
STEP_EXIT, SEND_EXIT = 17, 18


def _dies_after_sends(web3: Any, sends: int) -> None:
    """Make ``web3``'s provider end the process once the node has accepted ``sends``
    transactions."""
    provider = web3.provider
    seen = 0

    def count(method: Any) -> None:
        nonlocal seen
        if method == "eth_sendRawTransaction":
            seen += 1
            if seen == sends:
                os._exit(SEND_EXIT)

    if isinstance(provider, AsyncHTTPProvider):
        sent_async = provider.make_request

        async def make_request_async(method: Any, params: Any) -> Any:
            response = await sent_async(method, params)
            count(method)
            return response

        provider.make_request = make_request_async  # type: ignore[method-assign]
    else:
        assert isinstance(provider, HTTPProvider)
        sent = provider.make_request

        def make_request(method: Any, params: Any) -> Any:
            response = sent(method, params)
            count(method)
            return response

        provider.make_request = make_request  # type: ignore[method-assign]


def crash(anvil_url: str, base_url: str, journey: str, flavour: str, journal: Path,
          kill: str, at: int) -> None:  # fmt: skip
    """The child: run the journey and die at its step ``at`` (``kill="step"``) or
    after its ``at``-th transaction was sent (``"send"``); never returns."""
    seen = 0

    def die(event: StepEvent) -> None:
        nonlocal seen
        seen += 1
        if kill == "step" and seen == at + 1:
            # The step it dies at, for the parent (the journal may not have it yet).
            what = event.data.get("what")
            where = f"{event.step}/{event.status}" + (f":{what}" if isinstance(what, str) else "")
            journal.with_suffix(".stop").write_text(where)
            os._exit(STEP_EXIT)

    async def go() -> None:
        api = client(base_url, journey, flavour, journal=journal, on_step=die)
        web3 = web3_on(anvil_url, flavour)
        if kill == "send":
            _dies_after_sends(web3, at)
        await run(journey, api, web3)

    try:
        asyncio.run(go())
    except BaseException:
        traceback.print_exc()
        os._exit(3)
    os._exit(0)


def one_run(anvil_url: str, base_url: str, journey: str, flavour: str, directory: Path,
            kill: str, at: int, leave: set[str]) -> dict[str, Any]:  # fmt: skip
    """Crash a run, resume it (unless left), read the chain, revert it."""
    w3 = web3_on(anvil_url, "sync")
    journal = directory / f"{journey}-{flavour}-{kill}-{at}.db"
    snapshot = w3.provider.make_request("evm_snapshot", [])["result"]  # type: ignore[arg-type]
    block, nonce, usdc = w3.eth.block_number, w3.eth.get_transaction_count(ME), balance(w3, ME)
    pid = os.fork()
    if pid == 0:
        crash(anvil_url, base_url, journey, flavour, journal, kill, at)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, STEP_EXIT, SEND_EXIT):
        raise RuntimeError(f"the child crashing at {kill} {at} failed with {code}")
    [interrupted] = SQLiteJournal(journal).journeys()
    settled(w3)
    for tx in account_transactions(w3, block):
        if tx["what"] == "route":
            wait_indexed(base_url, tx["hash"])
    stop_file = journal.with_suffix(".stop")
    stopped = stop_file.read_text() if stop_file.exists() else label(interrupted.steps[-1])
    state = None
    if kill == "send" or stopped not in leave:

        async def resume(journey_id: str) -> Any:
            # Stopped before its transaction was signed on disk: only a restart signs.
            api = client(base_url, journey, flavour, journal=journal)
            web3 = web3_on(anvil_url, flavour)
            try:
                try:
                    return await resolve(api.resume(journey_id, web3=web3))
                except errors.RestartRequiredError:
                    return await resolve(
                        api.resume(journey_id, web3=web3, signer=TEST_SIGNER, restart=True)
                    )
            finally:
                await close(web3)

        state = asyncio.run(resume(interrupted.id)).state
        # A deposit that does not wait is over once the node accepted its transaction,
        # maybe before it was mined: read the chain once the node has mined it all.
        settled(w3)
    chain = {
        "transactions": account_transactions(w3, block),
        "nonce": w3.eth.get_transaction_count(ME) - nonce,
        "usdc_moved": usdc - balance(w3, ME),
        "deposited": deposited_logs(w3, block),
    }
    w3.provider.make_request("evm_revert", [snapshot])  # type: ignore[arg-type]
    return {
        "kill": kill,
        "at": at,
        "exit": code,
        "journey_id": interrupted.id,
        "stopped": stopped,
        "state": state,
        "chain": chain,
    }


def main() -> None:
    anvil_url, base_url, journey, flavour, directory = sys.argv[1:6]
    leave = set(sys.argv[6].split(",")) if len(sys.argv) > 6 and sys.argv[6] else set()
    for kill, first in (("step", 0), ("send", 1)):
        for at in range(first, MAX_STEPS):
            line = one_run(anvil_url, base_url, journey, flavour, Path(directory), kill, at,
                           leave)  # fmt: skip
            print(json.dumps(line), flush=True)
            if line["exit"] == 0:
                break
        else:
            raise RuntimeError(f"the journey did not end within {MAX_STEPS} {kill}s")


if __name__ == "__main__":
    main()
