"""The pieces beneath the swap backend client's gateway journey: waiting for a balance
through the backend's ``/balance`` (when no Gateway client is configured), and a deposit
by EIP-3009 authorization whose wallet and token come from the registry."""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest
from eth_account.signers.local import LocalAccount
from pytest_httpx import HTTPXMock

from xswap_sdk import AsyncRelayerClient, RelayerClient, errors
from xswap_sdk._clock import VirtualClock
from xswap_sdk.flash import Chain
from xswap_sdk.flash._balance import wait_for_balance
from xswap_sdk.flash._deposit import (
    DepositResult,
    DepositTarget,
    authorization_deposit,
    check_authorization_deposit,
    deposit_target,
)
from xswap_sdk.registry import DEFAULT_REGISTRY, GATEWAY_WALLET_MAINNET
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import AuthorizationDeposit
from xswap_sdk.signing.signer import _signed_now

from ..support import FLASH_URL, TEST_ADDRESS, resolve
from ..trust.support import run_flow
from .payloads import balance, chain

BASE = DEFAULT_REGISTRY.chain(8453)


def balance_answer(base: int, arbitrum: int = 0) -> dict[str, Any]:
    return balance({8453: base, 42161: arbitrum}, TEST_ADDRESS)


async def test_the_backend_balance_wait_polls_until_the_chain_holds_enough(
    flash: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    url = f"{FLASH_URL}/balance/{TEST_ADDRESS}"
    for base in (0, 4_000_000, 5_000_000):
        httpx_mock.add_response(url=url, json=balance_answer(base, arbitrum=9_000_000))
    started = clock.monotonic()
    flow = wait_for_balance(
        TEST_ADDRESS, 8453, at_least=5_000_000, timeout=600, interval=10, clock=clock
    )
    entry = await run_flow(flash, flow)
    assert (entry.chain_id, entry.balance) == (8453, 5_000_000)
    assert len(httpx_mock.get_requests()) == 3
    assert clock.monotonic() - started == pytest.approx(20)


async def test_the_backend_balance_wait_gives_up_with_the_last_entry(
    flash: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(json=balance_answer(1), is_reusable=True)
    flow = wait_for_balance(TEST_ADDRESS, 8453, at_least=2, timeout=30, interval=10, clock=clock)
    with pytest.raises(errors.WaitTimeoutError) as info:
        await run_flow(flash, flow)
    assert info.value.last_status.balance == 1
    assert "chain 8453" in str(info.value)


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"depositor": "0x12"}, "depositor"),
        ({"chain_id": 0}, "chain_id"),
        ({"at_least": -5}, "at_least"),
        ({"timeout": -1}, "wait_timeout"),
    ],
)
def test_bad_wait_arguments_are_refused_when_the_flow_starts(
    clock: VirtualClock, arguments: dict[str, Any], argument: str
) -> None:
    call: dict[str, Any] = {
        "depositor": TEST_ADDRESS,
        "chain_id": 8453,
        "at_least": 1,
        "timeout": 10,
        "interval": 1,
        **arguments,
    }
    flow = wait_for_balance(call.pop("depositor"), call.pop("chain_id"), clock=clock, **call)
    with pytest.raises(errors.InvalidInputError) as info:
        next(flow)
    assert info.value.argument == argument


async def test_the_backend_wait_sees_a_sandbox_deposit(kind: str) -> None:
    with Sandbox() as sb:
        flash = sb.flash_client() if kind == "sync" else sb.async_flash_client()
        sb.gateway.deposit(TEST_ADDRESS, 42161, 3_000_000)
        flow = wait_for_balance(
            TEST_ADDRESS, 42161, at_least=3_000_000, timeout=60, interval=5, clock=sb.clock
        )
        entry = await run_flow(flash, flow)
        assert entry.balance == 3_000_000


# ------------------------------------------------------------------------------ authorization


def listed(**changes: Any) -> list[Chain]:
    body = chain(8453, gatewayWallet=GATEWAY_WALLET_MAINNET.lower())
    body["usdc"] = {**body["usdc"], "address": BASE.usdc.lower()}
    body.update(changes)
    return [Chain.model_validate(body)]


def test_an_authorization_deposit_needs_a_way_to_be_sent_but_no_web3(
    wallet: LocalAccount,
) -> None:
    common = {"chain_id": 8453, "amount": 5_000_000, "web3_type": "Web3"}
    plan = check_authorization_deposit(
        wallet, web3=None, relayer=RelayerClient(api_key="k"), relayer_type=RelayerClient, **common
    )
    assert (plan.owner, plan.chain_id, plan.amount) == (wallet.address, 8453, 5_000_000)
    with pytest.raises(errors.InvalidInputError) as info:
        check_authorization_deposit(
            wallet, web3=None, relayer=None, relayer_type=RelayerClient, **common
        )
    assert info.value.argument == "relayer"
    with pytest.raises(errors.InvalidInputError) as info:
        check_authorization_deposit(
            wallet,
            web3=None,
            relayer=AsyncRelayerClient(api_key="k"),
            relayer_type=RelayerClient,
            **common,
        )
    assert info.value.argument == "relayer"
    with pytest.raises(errors.InvalidInputError) as info:
        check_authorization_deposit(
            wallet, web3="http://node", relayer=None, relayer_type=RelayerClient, **common
        )
    assert info.value.argument == "web3"
    with pytest.raises(errors.InvalidInputError) as info:
        check_authorization_deposit(
            wallet,
            web3=None,
            relayer=RelayerClient(api_key="k"),
            relayer_type=RelayerClient,
            **{**common, "amount": 0},
        )
    assert info.value.argument == "amount"


def test_the_authorization_deposit_goes_to_the_registrys_wallet(wallet: LocalAccount) -> None:
    plan = check_authorization_deposit(
        wallet,
        chain_id=8453,
        amount=5_000_000,
        web3=None,
        web3_type="Web3",
        relayer=RelayerClient(api_key="k"),
        relayer_type=RelayerClient,
    )
    target = deposit_target(listed(), 8453)
    call = _authorized(wallet, plan, target)
    assert isinstance(call, AuthorizationDeposit)
    assert call.to == BASE.gateway_wallet
    assert call.authorization.token == BASE.usdc
    assert call.authorization.value == 5_000_000
    assert call.relay_arguments()["to"] == BASE.gateway_wallet
    result = DepositResult(
        transaction=call, chain_id=8453, relayer_tx_id="65f1a2b3c4d5e6f708192a3b"
    )
    assert result.transaction is call


def test_a_tampered_chain_list_never_reaches_the_authorization(wallet: LocalAccount) -> None:
    with pytest.raises(errors.UnsafePayloadError) as info:
        deposit_target(listed(gatewayWallet="0x" + "66" * 20), 8453)
    assert info.value.field == "chains[8453].gatewayWallet"


def test_a_target_that_is_not_the_registrys_is_refused(wallet: LocalAccount) -> None:
    plan = check_authorization_deposit(
        wallet,
        chain_id=8453,
        amount=1,
        web3=None,
        web3_type="Web3",
        relayer=RelayerClient(api_key="k"),
        relayer_type=RelayerClient,
    )
    stray = DepositTarget(gateway_wallet="0x" + "66" * 20, usdc=BASE.usdc, usdc_version="2")
    with pytest.raises(errors.UnsafePayloadError) as info:
        _authorized(wallet, plan, stray)
    assert info.value.field == "transaction.to"


def test_an_unpinned_token_domain_must_be_named(wallet: LocalAccount) -> None:
    plan = check_authorization_deposit(
        wallet,
        chain_id=10,
        amount=1,
        web3=None,
        web3_type="Web3",
        relayer=RelayerClient(api_key="k"),
        relayer_type=RelayerClient,
    )
    op = DEFAULT_REGISTRY.chain(10)
    target = DepositTarget(op.gateway_wallet, op.usdc, "2", 10)
    with pytest.raises(errors.InvalidInputError) as info:
        _authorized(wallet, plan, target)
    assert info.value.argument == "token_name"
    call = _authorized(wallet, plan, target, token_name="USD Coin", token_version="2")
    assert call.authorization.token_name == "USD Coin"


async def test_the_relayer_sends_it_with_no_rpc(kind: str, wallet: LocalAccount) -> None:
    with Sandbox() as sb:
        relayer = sb.relayer_client() if kind == "sync" else sb.async_relayer_client()
        plan = check_authorization_deposit(
            wallet,
            chain_id=8453,
            amount=2_000_000,
            web3=None,
            web3_type="Web3" if kind == "sync" else "AsyncWeb3",
            relayer=relayer,
            relayer_type=type(relayer),
        )
        call = _authorized(wallet, plan, deposit_target(listed(), 8453))
        tx_id = await resolve(relayer.relay(**call.relay_arguments()))
        record = await resolve(relayer.wait_for_execution_hash(tx_id))
        assert record.status == "EXECUTED"
        assert record.to == BASE.gateway_wallet
        assert record.call_data == call.data


def _authorized(wallet: Any, plan: Any, target: Any, **kwargs: Any) -> Any:
    """`authorization_deposit` signed at once, with a fresh nonce, now."""
    return _signed_now(
        authorization_deposit(
            wallet, plan, target, nonce="0x" + secrets.token_hex(32), now=time.time(), **kwargs
        )
    )
