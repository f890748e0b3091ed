"""The one-call swap against the sandbox's swap backend: login, quote, checks, order,
signature and one POST /swap; then the wait for its outcome."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from eth_account import Account
from eth_account.signers.local import LocalAccount
from pytest_httpx import HTTPXMock

from xswap_sdk import errors
from xswap_sdk._clock import VirtualClock
from xswap_sdk.flash._operations import check_slippage, slippage_bps
from xswap_sdk.types import to_checksum

from ..support import ADDRESS, FLASH_JWT, resolve
from .payloads import FEE, START, WETH_BASE, recover_order_signer
from .sandboxed import SandboxFlash

SWAP = {
    "input_amount": 10_000_000,
    "output_token": WETH_BASE,
    "chain_id": 8453,
    "slippage": 1.5,
}


async def test_swap_end_to_end(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount, clock: VirtualClock
) -> None:
    client = make_flash()  # no token, no signer: the swap's signer logs in
    submission = await resolve(client.swap(wallet, **SWAP))
    assert submission.status == "pending"
    assert submission.transaction_hash == backend.answer("/swap")["transactionHash"]
    assert backend.logins == 1
    assert backend.count("POST", "/swap") == 1
    assert [r for r in backend.requests if r[1] != "/swap"][:3] == [
        ("POST", "/auth/message"),
        ("POST", "/auth/verify"),
        ("GET", "/supported-chains"),
    ]
    (body,) = backend.swaps
    assert body["userAddress"] == ADDRESS
    assert body["chainId"] == 8453
    quoted = backend.answer("/quote")
    assert body["swapRouterAddress"] == to_checksum(quoted["swap_router_address"])
    assert body["swapCalldata"] == quoted["swap_calldata"]
    assert body["slippageBps"] == 150
    # Balances: Arbitrum 6, Base 9 => Base gives 6.99, Arbitrum 3.01, each with a 2.01 fee.
    order = body["signedOrder"]
    assert [int(e["intent"]["spec"]["value"]) for e in order] == [6_990_000, 3_010_000]
    assert all(int(e["intent"]["maxFee"]) == FEE for e in order)
    assert recover_order_signer(order) == wallet.address
    assert clock.sleeps == []


async def test_swap_with_the_clients_signer_and_a_single_source(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    backend.held = {42161: 50_000_000}
    client = make_flash(signer=wallet)
    await resolve(client.swap(wallet, **{**SWAP, "slippage": "0.05"}))
    (body,) = backend.swaps
    assert len(body["signedOrder"]) == 1
    assert body["slippageBps"] == 5
    assert recover_order_signer(body["signedOrder"]) == wallet.address


async def test_swap_sources_and_recipient(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount, httpx_mock: HTTPXMock
) -> None:
    backend.held = {42161: 20_000_000, 8453: 20_000_000}
    client = make_flash(jwt=backend.jwt)
    recipient = "0x" + "12" * 20
    await resolve(
        client.swap(
            wallet, **SWAP, recipient=recipient, sources={42161: 2_500_000, 8453: 7_500_000}
        )
    )
    quote_request = next(r for r in httpx_mock.get_requests() if r.url.path == "/quote")
    assert quote_request.url.params["recipient"] == recipient
    assert quote_request.url.params["from"] == ADDRESS
    (body,) = backend.swaps
    assert [int(e["intent"]["spec"]["value"]) for e in body["signedOrder"]] == [
        2_500_000,
        7_500_000,
    ]
    assert backend.logins == 0  # the JWT was enough


async def test_a_503_on_post_swap_is_not_retried(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    backend.sb.faults.server_error(503, service="flash", method="POST", path="/swap")
    client = make_flash(jwt=backend.jwt)
    with pytest.raises(errors.InternalServerError) as info:
        await resolve(client.swap(wallet, **SWAP))
    assert info.value.outcome_unknown
    assert "may have accepted it" in str(info.value)
    assert backend.count("POST", "/swap") == 1


async def test_a_401_on_post_swap_relogs_in_and_resends_once(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    client = make_flash(jwt=backend.jwt)
    backend.expire_tokens()
    await resolve(client.swap(wallet, **SWAP))
    assert backend.count("POST", "/swap") == 2  # refused with 401, then accepted
    assert len(backend.swaps) == 1
    assert backend.logins == 1


async def test_wait_follows_the_swap_to_completed(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount, clock: VirtualClock
) -> None:
    assert backend.sb.flash.completion_delay == 8  # pending at 0 and 5 s, completed at 10
    client = make_flash(signer=wallet)
    submission = await resolve(client.swap(wallet, **SWAP, wait=True))
    assert submission.record is not None
    assert submission.record.status == "completed"
    assert submission.record.transaction_hash == submission.transaction_hash
    # The returned submission says what happened, not what POST /swap said at first.
    assert submission.status == "completed"
    assert "status='completed'" in repr(submission)
    assert backend.count("GET", "/history") == 3
    assert clock.sleeps == [5.0, 5.0]
    assert backend.count("POST", "/swap") == 1


async def test_without_wait_the_submission_keeps_the_status_it_was_given(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    submission = await resolve(make_flash(signer=wallet).swap(wallet, **SWAP))
    assert (submission.status, submission.record) == ("pending", None)
    assert backend.count("GET", "/history") == 0


async def test_an_accepted_swap_without_a_hash_to_follow_says_the_outcome_is_unknown(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    backend.sb.faults.tamper(
        lambda body: {**body, "transactionHash": ""}, service="flash", method="POST", path="/swap"
    )
    with pytest.raises(errors.ResponseValidationError) as info:
        await resolve(make_flash(signer=wallet).swap(wallet, **SWAP, wait=True))
    assert info.value.outcome_unknown is True  # the order was sent and answered 2xx
    assert "check its status before sending it again" in str(info.value)
    assert backend.count("POST", "/swap") == 1


async def test_wait_raises_swap_failed(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    backend.sb.flash.fail_next()
    client = make_flash(signer=wallet)
    with pytest.raises(errors.SwapFailedError) as info:
        await resolve(client.swap(wallet, **SWAP, wait=True))
    assert info.value.status == "failed"
    assert backend.count("POST", "/swap") == 1


async def test_wait_times_out_with_the_last_record(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount, clock: VirtualClock
) -> None:
    backend.sb.flash.completion_delay = 3600  # pending all along
    client = make_flash(signer=wallet)
    with pytest.raises(errors.WaitTimeoutError) as info:
        await resolve(client.swap(wallet, **SWAP, wait=True, wait_timeout=60, poll_interval=10))
    assert info.value.last_status.status == "pending"
    assert "may still complete" in str(info.value)
    assert backend.count("GET", "/history") == 6
    assert clock.sleeps == [10] * 5


async def test_wait_for_swap_on_its_own(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    client = make_flash(signer=wallet)
    submission = await resolve(client.swap(wallet, **SWAP))
    # Pending now, completed after the sandbox's completion delay.
    record = await resolve(client.wait_for_swap("0x" + submission.transaction_hash[2:].upper()))
    assert record.status == "completed"


async def test_wait_keeps_polling_while_the_swap_is_not_listed(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount, clock: VirtualClock
) -> None:
    client = make_flash(signer=wallet)
    with pytest.raises(errors.WaitTimeoutError, match="not in the history yet"):
        await resolve(client.wait_for_swap("0x" + "99" * 32, wait_timeout=10, poll_interval=5))
    assert backend.count("GET", "/history") == 2


# ------------------------------------------------------------------ the checks before signing


async def test_an_expired_quote_is_refused_before_signing(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount, clock: VirtualClock
) -> None:
    backend.sb.faults.tamper_flash_quote({"expires_at": START + 60})
    clock.advance(61)
    client = make_flash(jwt=backend.jwt)
    with pytest.raises(errors.QuoteRejectedError) as info:
        await resolve(client.swap(wallet, **SWAP))
    assert info.value.argument == "quote.expires_at"
    assert "expired 1.0 s ago" in info.value.rule
    assert info.value.quote is not None
    assert backend.count("POST", "/swap") == 0
    assert backend.count("GET", "/balance/" + ADDRESS) == 0


@pytest.mark.parametrize("expires_at", [START + 60, (START + 60) * 1000])
async def test_expiry_in_seconds_or_milliseconds(
    make_flash: Any,
    backend: SandboxFlash,
    wallet: LocalAccount,
    clock: VirtualClock,
    expires_at: int,
) -> None:
    backend.sb.faults.tamper_flash_quote({"expires_at": expires_at}, times=None)
    client = make_flash(jwt=backend.jwt)
    clock.advance(59)
    await resolve(client.swap(wallet, **SWAP))  # one second left: accepted
    clock.advance(1)
    with pytest.raises(errors.QuoteRejectedError):
        await resolve(client.swap(wallet, **SWAP))  # exactly at expiry: refused
    assert len(backend.swaps) == 1


async def test_a_quote_without_expiry_is_refused(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    # expires_at is in the spec's quote; one without it cannot be checked for expiry.
    backend.sb.faults.tamper_flash_quote({"expires_at": None})
    with pytest.raises(errors.ResponseValidationError, match="expires_at"):
        await resolve(make_flash(jwt=backend.jwt).swap(wallet, **SWAP))
    assert backend.swaps == []


async def test_the_fee_cap(make_flash: Any, backend: SandboxFlash, wallet: LocalAccount) -> None:
    client = make_flash(jwt=backend.jwt)
    await resolve(client.swap(wallet, **SWAP, max_fee_cap=FEE))  # equal: fine
    with pytest.raises(errors.QuoteRejectedError) as info:
        await resolve(client.swap(wallet, **SWAP, max_fee_cap=FEE - 1))
    assert info.value.argument == "quote.fees.gateway_fee"
    assert "above max_fee_cap" in info.value.rule
    backend.sb.faults.tamper_flash_quote({"fees.gateway_fee": None}, times=None)
    with pytest.raises(errors.ResponseValidationError, match=r"fees\.gateway_fee"):
        await resolve(client.swap(wallet, **SWAP, max_fee_cap=FEE))
    assert len(backend.swaps) == 1


async def test_an_unsupported_destination_is_refused_before_quoting(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    client = make_flash(jwt=backend.jwt)
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(client.swap(wallet, **{**SWAP, "chain_id": 56}))
    assert info.value.argument == "chain_id"
    assert "supported: 1, 8453, 42161" in info.value.rule
    assert backend.count("GET", "/quote") == 0


async def test_a_quote_for_another_amount_is_refused(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    backend.sb.faults.tamper_flash_quote({"token_in.amount": "9999999"})
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(make_flash(jwt=backend.jwt).swap(wallet, **SWAP))
    assert info.value.field == "quote.token_in.amount"
    assert (info.value.expected, info.value.received) == (SWAP["input_amount"], 9_999_999)
    assert backend.swaps == []


@pytest.mark.parametrize("field", ["swap_calldata", "swap_router_address"])
async def test_a_quote_without_what_the_order_needs_is_refused(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount, field: str
) -> None:
    backend.sb.faults.tamper_flash_quote({field: None})
    with pytest.raises(errors.ResponseValidationError) as info:
        await resolve(make_flash(jwt=backend.jwt).swap(wallet, **SWAP))
    assert f"first at {field}:" in str(info.value)
    assert backend.swaps == []


async def test_a_shortfall_is_refused_before_signing(
    make_flash: Any, backend: SandboxFlash, wallet: LocalAccount
) -> None:
    backend.held = {42161: 3_000_000}
    with pytest.raises(errors.InsufficientBalanceError, match="short by"):
        await resolve(make_flash(jwt=backend.jwt).swap(wallet, **SWAP))
    assert backend.count("POST", "/swap") == 0


@pytest.mark.parametrize(
    ("changes", "argument"),
    [
        ({"slippage": 1.234}, "slippage"),
        ({"slippage": 101}, "slippage"),
        ({"slippage": True}, "slippage"),
        ({"input_amount": 0}, "input_amount"),
        ({"input_amount": 10.5}, "input_amount"),
        ({"output_token": "weth"}, "output_token"),
        ({"chain_id": -1}, "chain_id"),
        ({"recipient": "0x12"}, "recipient"),
        ({"sources": {8453: -1}}, "sources[8453]"),
        ({"sources": []}, "sources"),
        ({"max_fee_cap": "lots"}, "max_fee_cap"),
        ({"wait": "yes"}, "wait"),
        ({"wait_timeout": -1}, "wait_timeout"),
        ({"poll_interval": 0}, "poll_interval"),
    ],
)
async def test_swap_arguments_are_checked_before_any_request(
    make_flash: Any, httpx_mock: HTTPXMock, wallet: LocalAccount, changes: Any, argument: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(make_flash(signer=wallet).swap(wallet, **{**SWAP, **changes}))
    assert info.value.argument == argument
    assert httpx_mock.get_requests() == []


async def test_a_swap_signer_other_than_the_logged_in_one_is_refused(
    make_flash: Any, httpx_mock: HTTPXMock, wallet: LocalAccount
) -> None:
    client = make_flash(signer=Account.create())
    with pytest.raises(errors.InvalidInputError, match="logged in as"):
        await resolve(client.swap(wallet, **SWAP))
    assert httpx_mock.get_requests() == []


async def test_a_swap_without_any_signer_object_is_refused(
    make_flash: Any, httpx_mock: HTTPXMock
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(make_flash(jwt=FLASH_JWT).swap("0xnot-a-signer", **SWAP))
    assert info.value.argument == "signer"


@pytest.mark.parametrize(
    ("percent", "bps"),
    [
        (1.5, 150),
        ("1.5", 150),
        (Decimal("0.01"), 1),
        (0, 0),
        (100, 10_000),
        (0.1, 10),
        (0.29, 29),  # 0.29 * 100 is 28.999999999999996 in binary floating point
        ("2.50", 250),
    ],
)
def test_slippage_basis_points_are_exact(percent: Any, bps: int) -> None:
    assert slippage_bps(check_slippage(percent, max_slippage=100)) == bps


@pytest.mark.parametrize("percent", [0.001, "1.005", "nan", "inf", -0.5, 100.01])
def test_slippage_that_is_not_a_whole_number_of_bps_is_refused(percent: Any) -> None:
    with pytest.raises(errors.InvalidInputError):
        check_slippage(percent)
