"""Crash tests over real sockets and a real chain: a client process sending a deposit
(web3, into Circle's GatewayWallet) or executing a route (web3: an approval, then the
route transaction to the stand-in routing contract) dies with ``os._exit`` at each
step (in ``on_step``) and right after the node accepted each transaction (before the
journal could write ``broadcast/ok``), sync and async, against the served sandbox and
anvil; each journey is then resumed with web3, or, for a few steps, with ``xswap
resume`` (no web3).

Every journey resumed with web3 ends completed (with ``restart=True`` where it
stopped before a transaction was signed on disk); the chain holds exactly the
transactions the journal signed, by their journaled hashes, each once (a resume
broadcasts only the journaled bytes, when the chain does not have them). Resumed by
``xswap resume`` with no node, a journey that still needs the chain says so (exit 2)
and is left as it was. And in this process: a transaction still in the mempool is
waited for and completes once mined; a reverted route fails; a route stopped after its
approval goes on with ``restart=True`` and sends no second approval.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from web3 import HTTPProvider, Web3

from xswap_sdk import SystemClock, errors
from xswap_sdk.journal import JournalStep, Journey, SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..sandbox.test_server import serving
from .chain_journeys import (
    AMOUNT,
    CROSS_CHAIN,
    JOURNEY_KIND,
    JOURNEYS,
    ME,
    ROUTER,
    USDC,
    balance,
    chain_steps,
    client,
    close,
    label,
    resolve,
    run,
    settled,
    web3_on,
)
from .conftest import Anvil, calldata

pytestmark = [
    pytest.mark.anvil,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork"),
]

ROOT = Path(__file__).resolve().parents[2]
# The steps docs/journeys.md names for each journey: the crash test stops at each.
STOPS = {
    "deposit": {
        "started/started",
        "signed/ok:deposit",
        "broadcast/sending:deposit",
        "broadcast/ok:deposit",
        "completed/ok",
    },
    "route": {
        "started/started",
        "signed/ok:approval",
        "broadcast/sending:approval",
        "broadcast/ok:approval",
        "confirmed/ok:approval",
        "approved/ok",
        "signed/ok:route",
        "broadcast/sending:route",
        "broadcast/ok:route",
        "confirmed/ok:route",
        "waiting/ok",
        "executed/ok",
        "completed/ok",
    },
}
# The journeys the blocking runs leave for `xswap resume`, which has no web3.
LEAVE = {
    "deposit": ("signed/ok:deposit", "broadcast/ok:deposit"),
    "route": ("signed/ok:route", "broadcast/ok:route"),
}
EXIT = {"completed": 0, "failed": 1, "needs_attention": 4, "running": 2}
SENDS = {"deposit": 1, "route": 2}
ORDER = ("approval", "route", "deposit")


@pytest.fixture(scope="module")
def served() -> Iterator[Sandbox]:
    """The sandbox served on a free port, on the real clock. A route's ``/status`` is
    ``completed`` once the indexer has seen its transaction: no resume waits for its
    next poll (5 s)."""
    with serving(SystemClock()) as sandbox:
        sandbox.routing.status_delay = 0.0
        yield sandbox


class Indexer(threading.Thread):
    """What a routing service does with a chain: reads its blocks, and follows on
    ``/status`` each transaction to its routing contract that it built."""

    def __init__(self, url: str, sandbox: Sandbox, since_block: int) -> None:
        super().__init__(daemon=True)
        self.w3 = Web3(HTTPProvider(url, session=requests.Session()))
        self.sandbox = sandbox
        self.since_block = since_block
        self.halt = threading.Event()
        self.seen: set[str] = set()

    def run(self) -> None:
        while not self.halt.wait(0.05):
            # A block reverted while it was read: read again.
            with contextlib.suppress(Exception):
                self._read()

    def _read(self) -> None:
        for number in range(self.since_block + 1, self.w3.eth.block_number + 1):
            for tx in self.w3.eth.get_block(number, full_transactions=True)["transactions"]:
                assert not isinstance(tx, bytes)
                tx_hash = "0x" + bytes(tx["hash"]).hex()
                if str(tx.get("to") or "").lower() != ROUTER.lower() or tx_hash in self.seen:
                    continue
                self.seen.add(tx_hash)
                data = "0x" + bytes(tx["input"]).hex()
                with contextlib.suppress(ValueError):  # not a route the sandbox built
                    self.sandbox.routing.broadcast({"data": data}, source_hash=tx_hash)


@pytest.fixture
def indexed(anvil: Anvil, served: Sandbox) -> Iterator[Anvil]:
    """The node, with the served sandbox's routing service following its routes."""
    indexer = Indexer(anvil.url, served, anvil.w3.eth.block_number)
    indexer.start()
    yield anvil
    indexer.halt.set()
    indexer.join(timeout=10)


def _run(anvil: Anvil, served: Sandbox, journey: str, flavour: str, directory: Path,
         leave: tuple[str, ...]) -> list[dict[str, Any]]:  # fmt: skip
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    env.pop("XSWAP_JOURNAL", None)
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "anvil" / "chain_crash_runner.py"),
         anvil.url, served.base_url, journey, flavour, str(directory), ",".join(leave)],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    return [json.loads(line) for line in run.stdout.splitlines()]


def _crashed(journey: Journey) -> list[JournalStep]:
    """The steps the crashed process wrote (before the first resume)."""
    steps = []
    for step in journey.steps:
        if step.step == "resumed":
            break
        steps.append(step)
    return steps


def _check_chain(journey: Journey, chain: dict[str, Any]) -> set[str]:
    """Each transaction from the account on the chain is one the journal signed, by its
    journaled hash, each at most once; nonce, USDC moved and ``Deposited`` events
    agree. Returns what is on the chain."""
    signed = chain_steps(journey.steps, "signed")
    whats = [tx["what"] for tx in chain["transactions"]]
    assert whats == [w for w in ORDER if w in whats], chain  # each once, in order
    for tx in chain["transactions"]:
        assert [tx["hash"]] == signed[tx["what"]]
    assert chain["nonce"] == len(whats)
    assert chain["usdc_moved"] == AMOUNT * sum(w in ("route", "deposit") for w in whats)
    assert chain["deposited"] == whats.count("deposit")
    return set(whats)


def _check_journal(journey: Journey, on_chain: set[str]) -> None:
    """Each transaction signed once and journaled with its raw bytes; a transaction a
    resume broadcast again is the same bytes (its ``resend``), and one signed by a
    restart is one the chain never had before."""
    raws: dict[str, list[str]] = {}
    for step in journey.steps:
        if step.step == "signed":
            raws.setdefault(step.data["what"], []).append(step.data["raw"])
    for what, signed in raws.items():
        assert len(signed) == 1, f"{what} signed {len(signed)} times"
        assert signed[0], f"{what}: no raw bytes journaled"
    assert set(raws) >= on_chain


@pytest.mark.parametrize("flavour", ["sync", "async"])
@pytest.mark.parametrize("journey", JOURNEYS)
def test_killed_at_every_step_a_chain_journey_resumes_and_sends_nothing_twice(
    indexed: Anvil,
    served: Sandbox,
    journey: str,
    flavour: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    kind = JOURNEY_KIND[journey]
    leave = LEAVE[kind] if flavour == "sync" else ()
    lines = _run(indexed, served, journey, flavour, tmp_path, leave)
    steps = [line for line in lines if line["kill"] == "step"]
    sends = [line for line in lines if line["kill"] == "send"]
    assert [line["at"] for line in steps] == list(range(len(steps)))
    # Every child died where it was told to, but the last, which ran to its end.
    assert [line["exit"] for line in steps] == [17] * (len(steps) - 1) + [0], steps
    # Each step the uninterrupted run wrote was a crash point, in order, and among
    # them every step docs/journeys.md names for the journey.
    final = SQLiteJournal(tmp_path / f"{journey}-{flavour}-step-{len(steps) - 1}.db").journeys()
    assert [line["stopped"] for line in steps[:-1]] == [label(s) for s in final[0].steps]
    assert STOPS[kind] <= {line["stopped"] for line in steps}, steps
    # Killed after each transaction the node accepted, before the journal knew.
    assert [line["at"] for line in sends] == list(range(1, len(sends) + 1))
    assert [line["exit"] for line in sends] == [18] * (len(sends) - 1) + [0], sends
    assert len(sends) - 1 == len(sends[-1]["chain"]["transactions"]) == SENDS[kind]
    left = []
    for line in lines:
        path = tmp_path / f"{journey}-{flavour}-{line['kill']}-{line['at']}.db"
        record = SQLiteJournal(path).journey(line["journey_id"])
        assert record is not None
        assert record.kind == kind
        on_chain = _check_chain(record, line["chain"])
        if line["state"] is None:
            # Not resumed: on the chain is what the journal says left (``ok``), or,
            # killed right after a send, what it says may have left (``sending``).
            status = "ok" if line["kill"] == "step" else None
            assert on_chain == set(chain_steps(_crashed(record), "broadcast", status)), line
            left.append((line, path, on_chain))
            continue
        # Resumed to its end: every transaction of the journey on the chain, once.
        assert line["state"] == "completed", line
        assert len(on_chain) == SENDS[kind], line
        _check_journal(record, on_chain)
    assert [line["stopped"] for line, _, _ in left] == list(leave)
    # `xswap resume` (no web3): it goes as far as the journal and the services take it,
    # says it needs the chain, and leaves the journey as it was.
    from xswap_sdk._cli import main

    monkeypatch.delenv("XSWAP_RPC_URLS", raising=False)
    monkeypatch.setenv("XSWAP_FLASH_URL", served.flash_url)
    monkeypatch.setenv("XSWAP_ROUTING_URL", served.routing_url)
    monkeypatch.setenv("XSWAP_ROUTING_API_KEY", served.routing.api_key)
    for line, path, on_chain in left:
        interrupted = SQLiteJournal(path).journey(line["journey_id"])
        assert interrupted is not None
        # A deposit that did not wait is over once its broadcast was accepted.
        done = interrupted.kind == "deposit" and interrupted.last("broadcast", "ok")
        expected = "completed" if done else "running"
        code = main(["resume", line["journey_id"], "--journal", str(path), "--json"])
        assert code == EXIT[expected]
        [resumed] = json.loads(capsys.readouterr().out)["resumed"]
        assert (resumed["id"], resumed["state"]) == (line["journey_id"], expected)
        if not done:
            assert resumed["error"]["type"] == "MissingCredentialsError"
            assert "--rpc-url" in resumed["next"]
        record = SQLiteJournal(path).journey(line["journey_id"])
        assert record is not None
        assert record.state == expected
        _check_journal(record, on_chain)


class Crash(BaseException):
    """Stands for the process dying (in this process: resume it here)."""


@pytest.mark.parametrize("journey", ["deposit-authorization", "route"])
async def test_a_transaction_still_in_the_mempool_is_waited_for_and_completes_once_mined(
    indexed: Anvil, served: Sandbox, journey: str, kind: str, tmp_path: Path
) -> None:
    final = JOURNEY_KIND[journey]
    journal = tmp_path / "j.db"

    def die_once_broadcast(event: StepEvent) -> None:
        if event.data.get("what") != final:
            return
        if event.step == "signed":
            indexed.rpc("evm_setAutomine", [False])  # it stays in the mempool
        if (event.step, event.status) == ("broadcast", "sending"):
            raise Crash

    web3 = web3_on(indexed.url, kind)
    nonce = indexed.w3.eth.get_transaction_count(ME)
    try:
        api = client(served.base_url, journey, kind, journal=journal, on_step=die_once_broadcast)
        with pytest.raises(Crash):
            await run(journey, api, web3)
        [crashed] = SQLiteJournal(journal).journeys()
        [tx_hash] = chain_steps(crashed.steps, "signed")[final]

        # Its bytes never left: resume sends them (the node keeps them in its mempool),
        # then waits; the block is mined a moment later.
        def mine() -> None:
            indexed.rpc("evm_mine", [])
            indexed.rpc("evm_setAutomine", [True])

        miner = threading.Timer(1.0, mine)
        miner.start()
        again = client(served.base_url, journey, kind, journal=journal)
        later = await resolve(again.resume(crashed.id, web3=web3))
        miner.join()
        assert later.state == "completed"
        assert later.result.tx_hash == tx_hash
    finally:
        indexed.rpc("evm_setAutomine", [True])
        await close(web3)
    record = SQLiteJournal(journal).journey(crashed.id)
    assert record is not None
    assert record.state == "completed"
    # One transaction of each kind the journey sends, each once.
    settled(indexed.w3)
    assert indexed.w3.eth.get_transaction_count(ME) - nonce == SENDS[final]


async def test_a_route_that_reverted_on_chain_ends_failed_on_resume(
    indexed: Anvil, served: Sandbox, kind: str, tmp_path: Path
) -> None:
    # The stand-in routing contract now reverts. Not simulated (the simulation would
    # refuse the route before signing): the journey dies once the reverted transaction
    # is on the chain, and resume reads its receipt.
    signature = "configure(address,address,uint256,uint256,bool)"
    indexed.send(ROUTER, calldata(signature, USDC, ME, 0, 0, True))
    journal = tmp_path / "j.db"

    def die_once_broadcast(event: StepEvent) -> None:
        if (event.step, event.status, event.data.get("what")) == ("broadcast", "ok", "route"):
            raise Crash

    web3 = web3_on(indexed.url, kind)
    nonce, usdc = indexed.w3.eth.get_transaction_count(ME), balance(indexed.w3, ME)
    try:
        api = client(served.base_url, "route", kind, journal=journal, on_step=die_once_broadcast)
        routes = await resolve(api.get_quote(**CROSS_CHAIN))
        with pytest.raises(Crash):
            await resolve(
                api.execute_route(TEST_SIGNER, routes[0], web3=web3, approve=True, simulate=False)
            )
        [crashed] = SQLiteJournal(journal).journeys()
        [tx_hash] = chain_steps(crashed.steps, "broadcast", "ok")["route"]
        settled(indexed.w3)
        assert indexed.w3.eth.get_transaction_receipt(tx_hash)["status"] == 0
        again = client(served.base_url, "route", kind, journal=journal)
        with pytest.raises(errors.SwapFailedError, match="revert"):
            await resolve(again.resume(crashed.id, web3=web3))
    finally:
        await close(web3)
    record = SQLiteJournal(journal).journey(crashed.id)
    assert record is not None
    assert record.state == "failed"
    # The approval and the reverted route were sent once each; no USDC moved.
    assert indexed.w3.eth.get_transaction_count(ME) - nonce == 2
    assert balance(indexed.w3, ME) == usdc


async def test_a_route_stopped_after_its_approval_goes_on_only_with_restart(
    indexed: Anvil, served: Sandbox, kind: str, tmp_path: Path
) -> None:
    journal = tmp_path / "j.db"

    def die_once_approved(event: StepEvent) -> None:
        if event.step == "approved":
            raise Crash

    web3 = web3_on(indexed.url, kind)
    nonce = indexed.w3.eth.get_transaction_count(ME)
    try:
        api = client(served.base_url, "route", kind, journal=journal, on_step=die_once_approved)
        with pytest.raises(Crash):
            await run("route", api, web3)
        [crashed] = SQLiteJournal(journal).journeys()
        again = client(served.base_url, "route", kind, journal=journal)
        # Its route transaction was never signed: a resume does not sign it on its own.
        with pytest.raises(errors.RestartRequiredError):
            await resolve(again.resume(crashed.id, web3=web3))
        assert indexed.w3.eth.get_transaction_count(ME) - nonce == 1  # the approval
        resumed = await resolve(
            again.resume(crashed.id, web3=web3, signer=TEST_SIGNER, restart=True)
        )
    finally:
        await close(web3)
    assert resumed.state == "completed"
    # The approval, once, and the route: no second approval.
    assert indexed.w3.eth.get_transaction_count(ME) - nonce == 2
    record = SQLiteJournal(journal).journey(crashed.id)
    assert record is not None
    assert record.state == "completed"
    assert sorted(chain_steps(record.steps, "signed")) == ["approval", "route"]
