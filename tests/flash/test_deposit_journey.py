"""`FlashClient.deposit` sent by web3 as a ``deposit`` journey (permit and authorization),
on the in-process EVM of test_deposit.py: the signed raw bytes are written before they
are broadcast, and a journey stopped at each step is resumed by a fresh client over the
same journal: the journaled bytes are looked up on the chain and sent again only when
the chain does not have them, a transaction never signed is signed only on restart, and
the deposit lands once (the signer's nonce moves by one)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from eth_account.signers.local import LocalAccount
from pytest_httpx import HTTPXMock

from xswap_sdk import errors
from xswap_sdk.flash import _deposit_journey
from xswap_sdk.journal import Journey, SQLiteJournal, StepEvent
from xswap_sdk.registry import Registry

from ..support import Crash, crash_after, crash_at, resolve
from . import test_deposit
from .payloads import balance
from .test_deposit import CHAINS_URL, DEPOSIT, MINTED, Chain, deposited

evm = test_deposit.evm  # the fixture: the test chain with USDC and the gateway wallet

pytestmark = pytest.mark.evm

STEPS = [
    ("started", "started"),
    ("prepared", "ok"),
    ("signed", "ok"),
    ("broadcast", "sending"),
    ("broadcast", "ok"),
    ("completed", "ok"),
]


@dataclass(frozen=True)
class Journaled:
    """Flash clients of the test's kind on the test chain, all journaling to one file."""

    make_flash: Callable[..., Any]
    registry: Registry
    path: Path

    def client(self, **hooks: Any) -> Any:
        return self.make_flash(registry=self.registry, journal=self.path, **hooks)

    def journey(self) -> Journey:
        """The one journey in the journal."""
        [journey] = SQLiteJournal(self.path).journeys()
        return journey


@pytest.fixture
def journaled(make_flash: Any, evm: Chain, tmp_path: Path) -> Journaled:
    return Journaled(make_flash, evm.registry, tmp_path / "j.db")


async def _nonce(evm: Chain, owner: str) -> int:
    return int(await resolve(evm.web3.eth.get_transaction_count(owner)))


@pytest.mark.parametrize("method", ["permit", "authorization"])
async def test_a_deposit_journey_writes_the_signed_bytes_before_sending(
    journaled: Journaled,
    evm: Chain,
    wallet: LocalAccount,
    httpx_mock: HTTPXMock,
    method: str,
) -> None:
    httpx_mock.add_response(url=CHAINS_URL, json=[evm.config()])
    events: list[StepEvent] = []
    client = journaled.client(on_step=events.append)
    result = await resolve(
        client.deposit(wallet, chain_id=evm.chain_id, amount=DEPOSIT, web3=evm.web3, method=method)
    )
    journey = journaled.journey()
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
async def test_a_deposit_stopped_at_any_step_is_sent_once(
    journaled: Journaled,
    evm: Chain,
    wallet: LocalAccount,
    httpx_mock: HTTPXMock,
    method: str,
    with_web3: bool,
    stop: int,
) -> None:
    # Read once, or again by a restart (or not at all, stopped at its start).
    httpx_mock.add_response(url=CHAINS_URL, json=[evm.config()], is_optional=True, is_reusable=True)
    seen: list[StepEvent] = []
    first_nonce = await _nonce(evm, wallet.address)
    crash = crash_after(stop, seen)
    client = journaled.client(on_step=crash)
    with pytest.raises(Crash):
        await resolve(
            client.deposit(
                wallet, chain_id=evm.chain_id, amount=DEPOSIT, web3=evm.web3, method=method
            )
        )
    journey = journaled.journey()
    assert journey.state == "running"
    fresh = journaled.client()
    web3 = evm.web3 if with_web3 else None
    for _ in range(3):  # what a person does, told what is missing each time
        try:
            resumed = await resolve(fresh.resume(journey.id, web3=web3))
            break
        except errors.MissingCredentialsError as missing:
            assert missing.argument == "web3"  # noqa: PT017 (the loop goes on)
            web3 = evm.web3
        except errors.RestartRequiredError:
            # Stopped before its transaction was on disk: only a restart signs it.
            assert journey.last("signed") is None
            resumed = await resolve(
                fresh.resume(journey.id, web3=evm.web3, signer=wallet, restart=True)
            )
            break
    assert resumed.state == "completed"
    assert resumed.result.journey_id == journey.id
    assert type(resumed.result.transaction).__name__ == (
        "DepositTransaction" if method == "permit" else "AuthorizationDeposit"
    )
    # Deposited once, by one transaction: the signed bytes on disk, or a restart's.
    assert await _nonce(evm, wallet.address) == first_nonce + 1
    assert await deposited(evm, wallet.address) == (MINTED - DEPOSIT, DEPOSIT)
    signed = journey.last("signed")
    if signed is not None:
        assert resumed.result.tx_hash == signed.data["tx_hash"]
    again = await resolve(fresh.resume(journey.id, web3=evm.web3))
    assert again.state == "completed"
    assert await _nonce(evm, wallet.address) == first_nonce + 1


# ------------------------------------------------------------------------------ finality

BALANCE_URL = re.compile(r".*/balance/0x[0-9a-fA-F]{40}$")
WAIT_STEPS = [
    ("started", "started"),
    ("prepared", "ok"),
    ("signed", "ok"),
    ("broadcast", "sending"),
    ("broadcast", "ok"),
    ("confirmed", "ok"),
    ("waiting", "ok"),
    ("slow", "ok"),
    ("stuck", "ok"),
    ("finalized", "ok"),
    ("completed", "ok"),
]


def _balances(httpx_mock: HTTPXMock, evm: Chain, owner: str, *held: int) -> None:
    for amount in held:
        httpx_mock.add_response(url=BALANCE_URL, json=balance({evm.chain_id: amount}, owner))


@pytest.fixture
def finality(monkeypatch: pytest.MonkeyPatch, evm: Chain) -> float:
    """The test chain finalizes in 10 s (the table knows no such chain)."""
    monkeypatch.setattr(_deposit_journey, "FINALITY_SECONDS", {evm.chain_id: 10.0})
    return 10.0


async def test_a_waited_deposit_is_watched_against_its_chain_finality(
    journaled: Journaled,
    evm: Chain,
    wallet: LocalAccount,
    httpx_mock: HTTPXMock,
    finality: float,
) -> None:
    httpx_mock.add_response(url=CHAINS_URL, json=[evm.config()])
    # 700 held before; Gateway counts the deposit after 50 s, five times the expected 10.
    _balances(httpx_mock, evm, wallet.address, *[700] * 6, 700 + DEPOSIT)
    events: list[StepEvent] = []
    client = journaled.client(on_step=events.append)
    result = await resolve(
        client.deposit(
            wallet,
            chain_id=evm.chain_id,
            amount=DEPOSIT,
            web3=evm.web3,
            wait=True,
            poll_interval=10,
        )
    )
    assert result.balance == 700 + DEPOSIT
    assert [(e.step, e.status) for e in events] == WAIT_STEPS
    waiting = next(e for e in events if e.step == "waiting")
    assert waiting.data["expected_seconds"] == finality
    assert waiting.data["at_least"] == 700 + DEPOSIT
    stuck = next(e for e in events if e.step == "stuck")
    assert "do not submit again" in stuck.data["next"]
    journey = journaled.journey()
    assert journey.state == "completed"
    assert journey.last("finalized").data["balance"] == 700 + DEPOSIT  # type: ignore[union-attr]


@pytest.mark.parametrize("finalized_elsewhere", [False, True])
async def test_a_deposit_stopped_while_waiting_resumes_its_wait_without_sending(
    journaled: Journaled,
    evm: Chain,
    wallet: LocalAccount,
    httpx_mock: HTTPXMock,
    finality: float,
    finalized_elsewhere: bool,
) -> None:
    httpx_mock.add_response(url=CHAINS_URL, json=[evm.config()])
    _balances(httpx_mock, evm, wallet.address, 0)
    crash = crash_at(step="waiting")
    client = journaled.client(on_step=crash)
    with pytest.raises(Crash):
        await resolve(
            client.deposit(wallet, chain_id=evm.chain_id, amount=DEPOSIT, web3=evm.web3, wait=True)
        )
    journey = journaled.journey()
    if finalized_elsewhere:  # Gateway counted it while nobody waited: one read says so
        _balances(httpx_mock, evm, wallet.address, DEPOSIT)
    else:
        _balances(httpx_mock, evm, wallet.address, 0, DEPOSIT)
    sent_before = await _nonce(evm, wallet.address)
    fresh = journaled.client()
    resumed = await resolve(fresh.resume(journey.id, web3=evm.web3))
    assert resumed.state == "completed"
    assert resumed.result.balance == DEPOSIT
    assert await _nonce(evm, wallet.address) == sent_before
    balance_reads = [r for r in httpx_mock.get_requests() if "/balance/" in str(r.url)]
    assert len(balance_reads) == (2 if finalized_elsewhere else 3)


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"wait": "yes"}, "wait"),
        ({"wait": True, "wait_timeout": -1}, "wait_timeout"),
        ({"wait": True, "poll_interval": 0}, "poll_interval"),
        ({"wait": True, "relayer": object()}, "wait"),  # follow a relayed one yourself
        ({"wait": True, "timeout": 5}, "timeout"),  # the wait's limit is wait_timeout
    ],
)
async def test_bad_wait_arguments_are_refused_before_any_io(
    make_flash: Any,
    evm: Chain,
    wallet: LocalAccount,
    httpx_mock: HTTPXMock,
    arguments: dict[str, Any],
    argument: str,
) -> None:
    client = make_flash(registry=evm.registry)
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(
            client.deposit(
                wallet, chain_id=evm.chain_id, amount=DEPOSIT, web3=evm.web3, **arguments
            )
        )
    assert info.value.argument == argument
    assert httpx_mock.get_requests() == []
