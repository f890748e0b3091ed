"""What a keyless relayer client pays, and what it never pays (sync and async).

The relayer prices its submissions only. A client with an x402 ``payer`` pays:

- a submission's 402 once (a second 402 is `PaymentNotAcceptedError`);
- never a read: a status poll, an account or chain lookup answered 402 raises
  `PaymentNotDueError` and nothing is signed (a hostile relayer, ``charge_reads``,
  would otherwise be paid on every poll of a wait);
- never past ``max_total_payment``, the client's total;
- each payment through the signing gate as a ``"x402_payment"`` of USDC to the seller,
  so a policy's ``max_per_day`` and ``allowed_counterparties`` apply to it;
- the validity window Circle's batching sellers offer (604,900 s), signed as offered.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.policy import Policy, SigningRequest
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.relayer._x402 import MAX_X402_VALIDITY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing.eip3009 import GATEWAY_BATCH_VALIDITY
from xswap_sdk.testing import TEST_SIGNER

from .support import resolve
from .test_x402 import PRICE, USDC_ON_BASE, CountingSigner

START_BALANCE = 5_000_000


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        sandbox.fund(TEST_SIGNER.address, 8453, START_BALANCE)
        yield sandbox


@pytest.fixture
def signer() -> CountingSigner:
    return CountingSigner()


def keyless(kind: str, sb: Sandbox, signer: CountingSigner, **extra: Any) -> Any:
    make = sb.relayer_client if kind == "sync" else sb.async_relayer_client
    return make(api_key=None, payer=signer, max_payment=50_000, **extra)


async def submit(relayer: Any) -> Any:
    return await resolve(relayer.submit_tx(chain_id=8453, to=USDC_ON_BASE, call_data="0x"))


# -- only submissions are paid


async def test_a_status_read_answered_402_is_refused_not_paid(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    relayer = keyless(kind, sb, signer)
    sb.relayer.charge_reads = True  # the relayer now asks to be paid for every read
    result = await submit(relayer)  # the submission is priced: paid once
    assert len(signer.signed) == 1

    with pytest.raises(errors.PaymentNotDueError) as raised:
        await resolve(relayer.get_relay_status(result.tx_id))

    assert isinstance(raised.value, errors.PaymentRequiredError)  # still a 402 error
    assert "does not price" in str(raised.value)
    assert len(signer.signed) == 1  # nothing more was signed
    assert len(sb.gateway.x402_transfers) == 1
    assert sb.gateway.balance(TEST_SIGNER.address, 8453) == START_BALANCE - PRICE


async def test_a_wait_that_polls_a_charging_relayer_pays_nothing_more(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    relayer = keyless(kind, sb, signer)
    sb.relayer.charge_reads = True
    result = await submit(relayer)
    with pytest.raises(errors.PaymentNotDueError):
        await resolve(relayer.wait_for_execution_hash(result.tx_id))
    assert len(sb.gateway.x402_transfers) == 1  # the submission's, not one per poll


async def test_account_and_chain_reads_are_never_paid(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    relayer = keyless(kind, sb, signer)
    sb.relayer.charge_reads = True
    with pytest.raises(errors.PaymentNotDueError):
        await resolve(relayer.check_account_info(TEST_SIGNER.address))
    with pytest.raises(errors.PaymentNotDueError):
        await resolve(relayer.get_supported_chains())
    assert signer.signed == []
    assert sb.relayer.payments_received == []


# -- the client's total


async def test_max_total_payment_caps_what_a_client_pays_in_all(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    relayer = keyless(kind, sb, signer, max_total_payment=PRICE)
    await submit(relayer)  # exactly the total: paid

    with pytest.raises(errors.UnsafePayloadError) as raised:
        await submit(relayer)  # one more would exceed it: refused before signing

    assert "max_total_payment" in str(raised.value)
    assert len(signer.signed) == 1
    assert sb.gateway.balance(TEST_SIGNER.address, 8453) == START_BALANCE - PRICE


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "100"])
def test_max_total_payment_is_a_positive_int(kind: str, sb: Sandbox, bad: object) -> None:
    make = sb.relayer_client if kind == "sync" else sb.async_relayer_client
    with pytest.raises(errors.InvalidInputError, match="max_total_payment"):
        make(api_key=None, payer=TEST_SIGNER, max_payment=50_000, max_total_payment=bad)


def test_max_total_payment_needs_a_payer(kind: str, sb: Sandbox) -> None:
    make = sb.relayer_client if kind == "sync" else sb.async_relayer_client
    with pytest.raises(errors.InvalidInputError, match="max_total_payment"):
        make(max_total_payment=1_000_000)


# -- the policy sees an x402 payment of USDC to the seller


async def test_the_policy_sees_an_x402_payment_in_usdc_to_the_seller(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    seen: list[SigningRequest] = []
    policy = Policy(approve=lambda request: seen.append(request) or True)
    await submit(keyless(kind, sb, signer, policy=policy))

    (request,) = seen
    assert request.kind == "x402_payment"
    assert request.token == DEFAULT_REGISTRY.chain(8453).usdc  # not the GatewayWallet
    assert request.amount == PRICE
    assert request.counterparty == sb.relayer.x402_pay_to  # the payee: the seller
    assert request.chain_id == 8453
    assert request.details["network"] == "eip155:8453"


async def test_max_per_day_counts_x402_payments_as_usdc(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    policy = Policy(max_per_day=PRICE)
    relayer = keyless(kind, sb, signer, policy=policy)
    await submit(relayer)
    assert policy.spent_today(TEST_SIGNER.address, "USDC") == PRICE

    with pytest.raises(errors.PolicyRefusedError) as raised:
        await submit(relayer)

    assert raised.value.rule == "max_per_day"
    assert len(signer.signed) == 1


async def test_allowed_counterparties_applies_to_the_seller(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    elsewhere = Policy(allowed_counterparties=["0x1111111111111111111111111111111111111111"])
    with pytest.raises(errors.PolicyRefusedError) as raised:
        await submit(keyless(kind, sb, signer, policy=elsewhere))
    assert raised.value.rule == "allowed_counterparties"
    assert signer.signed == []

    seller = Policy(allowed_counterparties=[sb.relayer.x402_pay_to])
    assert (await submit(keyless(kind, sb, signer, policy=seller))).x402_payment is not None


# -- validity windows, as Circle's batching sellers offer them


async def test_circles_own_offer_is_paid_with_its_window(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    offer = sb.relayer.x402_offer()
    assert offer["maxTimeoutSeconds"] == 604_900 == GATEWAY_BATCH_VALIDITY
    relayer = keyless(kind, sb, signer)
    now = int(relayer.clock.time())
    await submit(relayer)

    message = signer.signed[0]["message"]
    assert int(message["validBefore"]) - now in (604_900, 604_901)  # signed as offered


async def test_a_window_past_the_stated_maximum_is_refused(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    sb.relayer.x402_offer_changes = {"maxTimeoutSeconds": MAX_X402_VALIDITY + 1}
    with pytest.raises(errors.UnsafePayloadError, match="maxTimeoutSeconds"):
        await submit(keyless(kind, sb, signer))
    assert signer.signed == []


async def test_gateway_refuses_a_payment_valid_less_than_seven_days(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    # Circle's rule, which the sandbox's Gateway applies: a seller offering four days
    # gets a payment Gateway will not settle (authorization_validity_too_short).
    sb.relayer.x402_offer_changes = {"maxTimeoutSeconds": 4 * 24 * 3600}
    with pytest.raises(errors.BadRequestError, match="authorization_validity_too_short"):
        await submit(keyless(kind, sb, signer))
    assert sb.gateway.x402_transfers == {}
