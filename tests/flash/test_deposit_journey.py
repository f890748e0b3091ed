"""`FlashClient.deposit` sent by web3 as a ``deposit`` journey (permit and authorization),
on the in-process EVM of test_deposit.py: the signed raw bytes are written before they
are broadcast, and a journey stopped at each step is resumed by a fresh client over the
same journal without a second send (the signer's nonce does not move): completed when
the chain has the receipt, needs_attention when the transaction may have left and the
chain cannot say, failed when it never left."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from eth_account.signers.local import LocalAccount
from pytest_httpx import HTTPXMock

from xswap_sdk.journal import SQLiteJournal, StepEvent

from ..support import resolve
from . import test_deposit
from .test_deposit import CHAINS_URL, DEPOSIT, MINTED, Chain, deposited

evm = test_deposit.evm  # the fixture: the test chain with USDC and the gateway wallet

pytestmark = pytest.mark.evm

STEPS = [
    ("started", "started"),
    ("signed", "ok"),
    ("broadcast", "sending"),
    ("broadcast", "ok"),
    ("completed", "ok"),
]


class Crash(BaseException):
    """Stands for the process dying: no ``except Exception`` catches it."""


async def _nonce(evm: Chain, owner: str) -> int:
    return int(await resolve(evm.web3.eth.get_transaction_count(owner)))


@pytest.mark.parametrize("method", ["permit", "authorization"])
async def test_a_deposit_journey_writes_the_signed_bytes_before_sending(
    make_flash: Any,
    evm: Chain,
    wallet: LocalAccount,
    httpx_mock: HTTPXMock,
    tmp_path: Path,
    method: str,
) -> None:
    httpx_mock.add_response(url=CHAINS_URL, json=[evm.config()])
    events: list[StepEvent] = []
    client = make_flash(registry=evm.registry, journal=tmp_path / "j.db", on_step=events.append)
    result = await resolve(
        client.deposit(wallet, chain_id=evm.chain_id, amount=DEPOSIT, web3=evm.web3, method=method)
    )
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert (journey.kind, journey.state, result.journey_id) == ("deposit", "completed", journey.id)
    assert [(s.step, s.status) for s in journey.steps] == STEPS
    assert [(e.step, e.status) for e in events] == STEPS
    signed = journey.last("signed")
    assert signed is not None
    assert signed.data["tx_hash"] == result.tx_hash
    assert signed.data["raw"].startswith("0x")
    assert await deposited(evm, wallet.address) == (MINTED - DEPOSIT, DEPOSIT)


@pytest.mark.parametrize("method", ["permit", "authorization"])
@pytest.mark.parametrize("with_web3", [True, False])
@pytest.mark.parametrize("stop", range(len(STEPS) - 1))
async def test_a_deposit_stopped_at_any_step_resumes_without_sending_again(
    make_flash: Any,
    evm: Chain,
    wallet: LocalAccount,
    httpx_mock: HTTPXMock,
    tmp_path: Path,
    method: str,
    with_web3: bool,
    stop: int,
) -> None:
    httpx_mock.add_response(url=CHAINS_URL, json=[evm.config()])
    seen: list[StepEvent] = []

    def crash_at(event: StepEvent) -> None:
        seen.append(event)
        if len(seen) > stop:
            raise Crash

    client = make_flash(registry=evm.registry, journal=tmp_path / "j.db", on_step=crash_at)
    with pytest.raises(Crash):
        await resolve(
            client.deposit(
                wallet, chain_id=evm.chain_id, amount=DEPOSIT, web3=evm.web3, method=method
            )
        )
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert journey.state == "running"
    sent_before = await _nonce(evm, wallet.address)
    fresh = make_flash(registry=evm.registry, journal=tmp_path / "j.db")
    web3 = evm.web3 if with_web3 else None
    resumed = await resolve(fresh.resume(journey.id, web3=web3))
    assert await _nonce(evm, wallet.address) == sent_before  # nothing sent again
    sent = journey.last("broadcast", "ok") is not None
    if journey.last("broadcast") is None:
        assert resumed.state == "failed"
        assert await deposited(evm, wallet.address) == (MINTED, 0)
    elif sent and with_web3:
        assert resumed.state == "completed"
        assert resumed.result.tx_hash == journey.last("broadcast", "ok").data["tx_hash"]  # type: ignore[union-attr]
        assert resumed.result.journey_id == journey.id
        assert type(resumed.result.transaction).__name__ == (
            "DepositTransaction" if method == "permit" else "AuthorizationDeposit"
        )
        assert resumed.journey.last("confirmed") is not None
    else:
        assert resumed.state == "needs_attention"
        assert resumed.result is None
    again = await resolve(fresh.resume(journey.id, web3=web3))
    assert again.state == resumed.state
    assert await _nonce(evm, wallet.address) == sent_before
