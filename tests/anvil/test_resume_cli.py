"""``xswap resume --rpc-url`` on a real node (anvil, with Circle's contracts): a deposit
and a route, each sent by a client whose process "dies" right after the journal wrote
``broadcast/ok``, are resumed from the command line to ``completed`` because the node
has their receipts; resume signs and sends nothing (the signer's nonce does not move).
Without ``--rpc-url`` the deposit needs attention, as before."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web3 import HTTPProvider, Web3

from xswap_sdk._cli import ExitCode, main
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from .chain_journeys import settled
from .conftest import USDC, WETH, Anvil
from .test_simulation import SAME_CHAIN, _configure

pytestmark = pytest.mark.anvil


class Crash(BaseException):
    """Stands for the process dying: no ``except Exception`` catches it."""


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        yield sandbox


@pytest.fixture(autouse=True)
def _no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("XSWAP_RPC_URLS", "XSWAP_JOURNAL", "XSWAP_PRIVATE_KEY"):
        monkeypatch.delenv(name, raising=False)


def crash_after(what: str) -> Any:
    """An ``on_step`` hook that "kills the process" once ``what`` was broadcast (the
    journal has ``broadcast/ok``; the journey never ends)."""

    def hook(event: StepEvent) -> None:
        if (event.step, event.status, event.data.get("what")) == ("broadcast", "ok", what):
            raise Crash

    return hook


def _resume(capsys: pytest.CaptureFixture[str], path: Path, *argv: str) -> tuple[int, Any]:
    code = main(["resume", "--all", "--journal", str(path), "--json", *argv])
    return code, json.loads(capsys.readouterr().out)


def _nonce(anvil: Anvil) -> int:
    """The account's nonce once the node has mined what it accepted (anvil answers a
    send before it mines; a deposit that does not wait ends right then)."""
    settled(anvil.w3)
    return int(anvil.w3.eth.get_transaction_count(TEST_SIGNER.address))


def test_a_deposit_broadcast_before_the_crash_is_resumed_to_completed(
    sb: Sandbox, anvil: Anvil, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.db"
    flash = sb.flash_client(journal=path, on_step=crash_after("deposit"))
    with pytest.raises(Crash):
        flash.deposit(
            TEST_SIGNER,
            chain_id=8453,
            amount=3_000_000,
            web3=Web3(HTTPProvider(anvil.url)),
            method="permit",
        )
    [journey] = SQLiteJournal(path).journeys()
    assert (journey.kind, journey.state) == ("deposit", "running")
    broadcast = journey.last("broadcast", "ok")
    assert broadcast is not None
    sent = _nonce(anvil)
    # The node took it (``broadcast/ok``) and the deposit did not wait: replayed, the
    # journey is over with no node asked, and nothing is sent again.
    code, out = _resume(capsys, path)
    assert (code, out["resumed"][0]["state"]) == (ExitCode.OK, "completed")
    after = SQLiteJournal(path).journey(journey.id)
    assert after is not None
    assert after.state == "completed"
    assert after.last("broadcast", "ok") == broadcast
    assert _nonce(anvil) == sent


def test_a_route_broadcast_before_the_crash_is_resumed_to_completed(
    sb: Sandbox, anvil: Anvil, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.db"
    routing = sb.routing_client(journal=path, on_step=crash_after("route"))
    [route, *_] = routing.get_quote(**SAME_CHAIN)
    _configure(anvil, pay=int(route.min_amount_out))
    with pytest.raises(Crash):
        routing.execute_route(
            TEST_SIGNER, route, web3=Web3(HTTPProvider(anvil.url)), approve=True, wait=False
        )
    [journey] = SQLiteJournal(path).journeys()
    assert (journey.kind, journey.state) == ("route", "running")
    sent = _nonce(anvil)
    code, out = _resume(capsys, path, "--rpc-url", anvil.url)
    assert code == ExitCode.OK
    [entry] = out["resumed"]
    assert (entry["id"], entry["state"], entry["chain_id"]) == (journey.id, "completed", 8453)
    after = SQLiteJournal(path).journey(journey.id)
    assert after is not None
    assert [s.data.get("what") for s in after.steps if s.step == "confirmed"][-1] == "route"
    assert _nonce(anvil) == sent
    # The route did land: the signer paid USDC and holds WETH.
    assert anvil.uint(WETH, "balanceOf(address)", TEST_SIGNER.address) > 0
    assert anvil.uint(USDC, "balanceOf(address)", TEST_SIGNER.address) > 0
