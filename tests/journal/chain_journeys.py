"""Real journeys that touch a chain, written by the journey driver with stand-in chain
helpers (no node): a deposit by authorization on Base, sent by the test key. Used where
a test needs a journey stopped as its transaction was being broadcast, or completed,
without a chain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xswap_sdk._chain_steps import ChainIO, hash_of
from xswap_sdk.flash import _deposit_journey as deposits
from xswap_sdk.flash._deposit import DepositPlan
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

ME = TEST_SIGNER.address


class Crash(BaseException):
    """Stands for the process dying: no ``except Exception`` catches it."""


def stand_in(nonce: int = 0) -> ChainIO:
    """Chain helpers that answer without a chain: chain 8453, no simulation, a large
    allowance, transactions signed by the test key (real bytes, a real hash) and
    broadcast to nowhere (their hash returned)."""

    def sign(fields: dict[str, Any]) -> tuple[dict[str, Any], str]:
        complete = {
            **fields,
            "from": ME,
            "nonce": nonce,
            "chainId": 8453,
            "gas": 200_000,
            "maxFeePerGas": 10**9,
            "maxPriorityFeePerGas": 10**8,
            "value": int(fields.get("value") or 0),
        }
        unsigned = {k: v for k, v in complete.items() if k != "from"}
        raw = TEST_SIGNER.sign_transaction(unsigned).raw_transaction
        return complete, "0x" + bytes(raw).hex()

    def broadcast(fields: dict[str, Any], raw: str | None) -> str:
        found = hash_of(raw)
        assert found is not None
        return found

    def confirm(tx_hash: str, what: str) -> str:
        return tx_hash

    return ChainIO(
        sign=sign,
        broadcast=broadcast,
        confirm=confirm,
        receipt=lambda tx_hash: {"status": 1, "blockNumber": 1},
        chain_id=lambda: 8453,
        allowance=lambda *_: 10**30,
        simulate=lambda *_: None,
    )


def crash_at_broadcast(event: StepEvent) -> None:
    """Dies as a transaction is about to be broadcast (``broadcast/sending`` on disk)."""
    if (event.step, event.status) == ("broadcast", "sending"):
        raise Crash


def deposit_journey(
    path: Path, *, nonce: int = 0, wait: bool = False, stop: bool = True
) -> tuple[str, str]:
    """A ``deposit`` (by authorization) on Base: stopped as its transaction was being
    broadcast (``stop``), or completed. Its id and its transaction's hash."""
    with Sandbox() as sb:
        flash = sb.flash_client(journal=path, on_step=crash_at_broadcast if stop else None)
        plan = DepositPlan(owner=ME, chain_id=8453, amount=5_000_000)
        flow = deposits.deposit_journey(
            plan,
            deposits.DepositHow("authorization"),
            TEST_SIGNER,
            stand_in(nonce),
            simulate="auto",
            registry=flash.registry,
            wait=deposits.DepositWait(60.0, 1.0) if wait else None,
            clock=flash.clock,
        )
        if stop:
            with pytest.raises(Crash):
                flash._transport.run(flow)
        else:
            flash._transport.run(flow)
    journey = SQLiteJournal(path).journeys()[-1]
    sending = journey.last("broadcast", "sending")
    assert sending is not None
    return journey.id, str(sending.data["tx_hash"])
