"""The swap backend client against the sandbox: login, chains, quotes, a swap from two
source chains followed to the end, the sandbox's refusals of bad orders and tokens, and
retry behaviour under faults."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from eth_account import Account

from xswap_sdk import errors
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_ADDRESS, TEST_SIGNER

from ..support import resolve

WETH_ARB = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
SWAP = ("flash", "POST", "/swap")
LOGIN = ("flash", "POST", "/auth/verify")
QUOTE = {"output_token": WETH_ARB, "chain_id": 42161, "slippage": "0.5"}


@pytest.fixture
def funded(sb: Sandbox) -> Sandbox:
    sb.fund(TEST_ADDRESS, 8453, 30_000_000)
    sb.fund(TEST_ADDRESS, 42161, 25_000_000)
    return sb


async def signed_order(flash: Any, amount: int, **build: Any) -> Any:
    """Quote, read chains and balances, build and sign an order: the manual path."""
    quote = await resolve(flash.get_quote(input_amount=amount, sender=TEST_ADDRESS, **QUOTE))
    chains = await resolve(flash.get_supported_chains())
    balances = build.pop("balances", None) or await resolve(flash.get_balance(TEST_ADDRESS))
    order = flash.build_order(quote, chains=chains, balances=balances, user=TEST_ADDRESS, **build)
    return flash.sign_order(order, TEST_SIGNER)


async def submit_wire(flash: Any, signed: Any, wire: list[dict[str, Any]]) -> Any:
    """Submit ``wire`` (a hand-edited ``signedOrder``) with the rest of ``signed``'s order."""
    order = signed.order
    return await resolve(
        flash.submit_swap(
            wire,
            slippage_bps=50,
            user_address=order.user,
            chain_id=order.chain_id,
            swap_router_address=order.swap_router_address,
            swap_calldata=order.swap_calldata,
        )
    )


async def test_login_chains_and_tokens(sb: Sandbox, flash: Any) -> None:
    session = await resolve(flash.login())
    assert session.user_address == TEST_ADDRESS
    assert session.is_new_user is True
    chains = await resolve(flash.get_supported_chains())
    assert {(c.id, c.domain) for c in chains} == {(1, 0), (8453, 6), (42161, 3)}
    tokens = await resolve(flash.get_token_list(8453))
    # The sandbox sends in_flash_token_list; the client reads any in_<word>_token_list.
    assert all(token.in_service_token_list for token in tokens)
    found = await resolve(flash.search_token(42161, WETH_ARB))
    assert found.symbol == "WETH"


@pytest.mark.usefixtures("funded")
async def test_a_swap_from_two_chains_completes(sb: Sandbox, flash: Any) -> None:
    submission = await resolve(flash.swap(TEST_SIGNER, input_amount=40_000_000, wait=True, **QUOTE))
    assert submission.record.status == "completed"
    assert submission.status == "completed"  # POST /swap said pending
    assert submission.record.amount_usdc_raw == 40_000_000
    balance = await resolve(flash.get_balance(TEST_ADDRESS))
    assert balance.total_balance == 55_000_000 - 40_000_000 - 2 * 10_000  # two source chains
    assert len(sb.requests.select(*SWAP)) == 1
    history = await resolve(flash.get_history())
    assert history.summary.total_swaps == 1
    board = await resolve(flash.get_leaderboard(time_range="24h"))
    assert board.entries[0].wallet_address == TEST_ADDRESS
    referrals = await resolve(flash.get_referrals())
    assert referrals.remaining_referral_limit == 10


@pytest.mark.usefixtures("funded")
async def test_the_manual_path_with_chosen_sources(sb: Sandbox, flash: Any) -> None:
    signed = await signed_order(flash, 40_000_000, sources={8453: 25_000_000, 42161: 15_000_000})
    submission = await resolve(flash.submit_swap(signed, slippage_bps=50))
    record = await resolve(flash.wait_for_swap(submission.transaction_hash, poll_interval=1))
    assert record.status == "completed"
    assert sb.flash.balance(TEST_ADDRESS, 8453) == 30_000_000 - 25_000_000 - 10_000


@pytest.mark.usefixtures("funded")
async def test_the_sandbox_refuses_a_tampered_burn_intent(sb: Sandbox, flash: Any) -> None:
    signed = await signed_order(flash, 20_000_000, sources={8453: 20_000_000})
    wire = copy.deepcopy(signed.to_wire())
    wire[0]["intent"]["spec"]["destinationRecipient"] = "0x" + "0" * 24 + "ab" * 20
    with pytest.raises(errors.BadRequestError) as refused:
        await submit_wire(flash, signed, wire)
    assert "recovered signer does not match sourceSigner" in str(refused.value)
    assert sb.flash.balance(TEST_ADDRESS, 8453) == 30_000_000


@pytest.mark.usefixtures("funded")
async def test_the_sandbox_refuses_a_wrong_signer(sb: Sandbox, flash: Any) -> None:
    signed = await signed_order(flash, 20_000_000, sources={8453: 20_000_000})
    intruder = Account.from_key("0x" + "55" * 32)
    forged = intruder.unsafe_sign_hash(bytes.fromhex(signed.digest[2:])).signature.hex()
    wire = copy.deepcopy(signed.to_wire())
    wire[0]["signature"] = "0x" + forged.removeprefix("0x")
    with pytest.raises(errors.BadRequestError, match="recovered signer"):
        await submit_wire(flash, signed, wire)


@pytest.mark.usefixtures("funded")
async def test_the_sandbox_refuses_an_overdrawn_balance(sb: Sandbox, flash: Any) -> None:
    # The client checks balances itself; told a bigger balance, only the sandbox can say no.
    signed = await signed_order(
        flash, 29_000_000, sources={8453: 29_000_000}, balances={8453: 10**12, 42161: 0}
    )
    with pytest.raises(errors.BadRequestError, match="Insufficient balance on Base"):
        await resolve(flash.submit_swap(signed, slippage_bps=50))
    assert sb.flash.balance(TEST_ADDRESS, 8453) == 30_000_000


async def test_an_expired_jwt_is_refused_and_a_signer_logs_in_again(
    sb: Sandbox, flash: Any
) -> None:
    session = await resolve(flash.login())
    token_only = (
        sb.flash_client(jwt=session.token)
        if hasattr(flash, "close")
        else sb.async_flash_client(jwt=session.token)
    )
    assert (await resolve(token_only.get_history())).summary.total_swaps == 0
    sb.wait(3601)
    with pytest.raises(errors.AuthenticationError, match="token expired"):
        await resolve(token_only.get_history())
    await resolve(flash.get_history())  # logs in again, once
    assert [s.status for s in sb.requests.select(*LOGIN)] == [200, 200]
    assert [s.status for s in sb.requests.select("flash", "GET", "/history")][-2:] == [401, 200]


@pytest.mark.usefixtures("funded")
async def test_a_failed_swap_raises_while_waiting(sb: Sandbox, flash: Any) -> None:
    sb.flash.fail_next()
    with pytest.raises(errors.SwapFailedError):
        await resolve(flash.swap(TEST_SIGNER, input_amount=10_000_000, wait=True, **QUOTE))
    assert sb.flash.balance(TEST_ADDRESS, 8453) + sb.flash.balance(TEST_ADDRESS, 42161) == (
        55_000_000
    )


async def test_a_read_is_retried_through_503s(sb: Sandbox, flash: Any) -> None:
    sb.faults.server_error(503, service="flash", path="/supported-chains", times=2)
    assert len(await resolve(flash.get_supported_chains())) == 3
    statuses = [s.status for s in sb.requests.select("flash", "GET", "/supported-chains")]
    assert statuses == [503, 503, 200]


@pytest.mark.usefixtures("funded")
@pytest.mark.parametrize("fault", ["server_error", "drop_after_processing"])
async def test_a_swap_is_submitted_once(sb: Sandbox, flash: Any, fault: str) -> None:
    signed = await signed_order(flash, 20_000_000)
    getattr(sb.faults, fault)(service="flash", path="/swap", times=None)
    with pytest.raises(errors.APIError) as unknown:
        await resolve(flash.submit_swap(signed, slippage_bps=50))
    assert unknown.value.outcome_unknown is True
    assert len(sb.requests.select(*SWAP)) == 1
    # After a drop the swap was taken: the history is where to look before resending.
    sb.faults.clear()
    taken = (await resolve(flash.get_history())).summary.total_swaps
    assert taken == (1 if fault == "drop_after_processing" else 0)


@pytest.mark.usefixtures("funded")
async def test_a_refused_connection_on_submit_is_retried(sb: Sandbox, flash: Any) -> None:
    signed = await signed_order(flash, 20_000_000)
    sb.faults.refuse_connection(service="flash", path="/swap")
    submission = await resolve(flash.submit_swap(signed, slippage_bps=50))
    assert submission.status == "pending"
    assert [s.processed for s in sb.requests.select(*SWAP)] == [False, True]
