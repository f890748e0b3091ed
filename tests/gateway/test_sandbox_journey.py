"""The balance journey against the sandbox's Gateway API, sync and async: a deposit that
finalizes, a fee estimate taken into your own intent, a transfer followed to finality,
the fee floor, replays, scripted failures, delegates, and a malicious estimate."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from eth_account import Account

from xswap_sdk import errors
from xswap_sdk.gateway import apply_estimate, build_transfer_intent
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import sign_burn_intent, sign_burn_intent_set
from xswap_sdk.testing import TEST_SIGNER

from ..support import resolve

ME = TEST_SIGNER.address
HOT_KEY = Account.from_key("0x" + "42" * 32)


def intent(value: int, source: int = 8453, **overrides: Any) -> Any:
    return build_transfer_intent(
        source_chain_id=source,
        destination_chain_id=42161,
        depositor=ME,
        recipient=ME,
        value=value,
        **overrides,
    )


async def test_a_deposit_counts_at_circle_once_final(
    sb: Sandbox, sb_gateway: Any, kind: str
) -> None:
    final_at = sb.gateway.deposit(ME, 8453, 5_000_000)
    assert final_at - sb.clock.time() == pytest.approx(1200)
    flash = sb.flash_client() if kind == "sync" else sb.async_flash_client()
    # The swap backend emulator counts it at once; Gateway does not yet.
    backend = await resolve(flash.get_balance(ME))
    assert {entry.chain_id: entry.balance for entry in backend.balances}[8453] == 5_000_000
    now = await resolve(sb_gateway.get_balances(ME, chain_ids=[8453]))
    assert now.for_domain(6).balance == 0
    started = sb.clock.monotonic()
    entry = await resolve(sb_gateway.wait_for_gateway_balance(ME, 8453, at_least=5_000_000))
    assert entry.balance_units == 5_000_000
    waited = sb.clock.monotonic() - started
    assert 1200 <= waited < 1200 + 10 + 1e-6
    polls = sb.requests.select("gateway", "POST", "/v1/balances")
    assert len(polls) == 1 + int(waited // 10) + 1


async def test_every_domain_is_listed_when_none_is_asked(sb: Sandbox, sb_gateway: Any) -> None:
    sb.fund(ME, 42161, 7_250_000)
    balances = await resolve(sb_gateway.get_balances(ME))
    assert {entry.domain: entry.balance_units for entry in balances.balances} == {
        0: 0,
        6: 0,
        3: 7_250_000,
    }
    assert balances.total == 7_250_000


async def test_info_lists_the_swap_backends_chains_with_circles_contracts(
    sb_gateway: Any,
) -> None:
    info = await resolve(sb_gateway.get_info())
    # The swap backend's three chains, and Solana (domain 5), which Gateway serves too.
    assert sorted(domain.domain for domain in info.domains) == [0, 3, 5, 6]
    for domain in info.domains:
        pinned = DEFAULT_REGISTRY.by_domain(domain.domain, testnet=False)
        assert pinned is not None
        assert domain.wallet_contract.address == pinned.gateway_wallet
        assert domain.minter_contract.address == pinned.gateway_minter
        assert domain.burn_intent_expiration_height > domain.processed_height


async def test_estimate_transfer_and_follow_it_to_finality(sb: Sandbox, sb_gateway: Any) -> None:
    sb.fund(ME, 8453, 10_000_000)
    own = intent(4_000_000)
    [estimated] = await resolve(sb_gateway.estimate(own))
    # The sandbox writes addresses as 20 bytes, as the live API may: not a difference.
    assert len(estimated.burn_intent.spec["sourceContract"]) == 42
    ready = apply_estimate(own, estimated)
    assert ready.max_fee == 10_000  # Base's fee in the sandbox
    assert ready.spec == own.spec
    result = await resolve(sb_gateway.transfer(sign_burn_intent(ready, TEST_SIGNER)))
    assert result.fees.total_units == 10_000
    after = await resolve(sb_gateway.get_balances(ME, chain_ids=[8453]))
    assert after.for_domain(6).balance_units == 10_000_000 - 4_000_000 - 10_000
    pending = await resolve(sb_gateway.get_transfer(result.transfer_id))
    assert pending.status == "pending"
    confirmed = await resolve(sb_gateway.wait_for_transfer(result.transfer_id, until="confirmed"))
    assert confirmed.transaction_hash
    done = await resolve(sb_gateway.wait_for_transfer(result.transfer_id))
    assert done.status == "finalized"
    assert done.destination_domain == 3
    mint = result.mint_call(42161)
    assert mint.to == DEFAULT_REGISTRY.chain(42161).gateway_minter


async def test_a_set_of_two_sources_is_debited_on_each(sb: Sandbox, sb_gateway: Any) -> None:
    sb.fund(ME, 8453, 4_000_000)
    sb.fund(ME, 1, 5_000_000)
    signed = sign_burn_intent_set([intent(1_000_000), intent(2_000_000, source=1)], TEST_SIGNER)
    await resolve(sb_gateway.transfer(signed))
    assert sb.gateway.balance(ME, 8453) == 4_000_000 - 1_000_000 - 10_000
    assert sb.gateway.balance(ME, 1) == 5_000_000 - 2_000_000 - 2_000_000


async def test_the_fee_floor_is_a_typed_error_and_moves_nothing(
    sb: Sandbox, sb_gateway: Any
) -> None:
    sb.fund(ME, 1, 10_000_000)
    cheap = sign_burn_intent(intent(1_000_000, source=1, max_fee=1_010_000), TEST_SIGNER)
    with pytest.raises(errors.InsufficientMaxFeeError) as info:
        await resolve(sb_gateway.transfer(cheap))
    assert info.value.minimum_units == 2_000_000
    assert info.value.received == Decimal("1.01")
    assert sb.gateway.balance(ME, 1) == 10_000_000
    assert not sb.gateway.transfer_ids


async def test_a_replayed_or_tampered_transfer_is_refused(sb: Sandbox, sb_gateway: Any) -> None:
    sb.fund(ME, 8453, 10_000_000)
    signed = sign_burn_intent(intent(1_000_000), TEST_SIGNER)
    await resolve(sb_gateway.transfer(signed))
    with pytest.raises(errors.BadRequestError, match="already used"):
        await resolve(sb_gateway.transfer(signed))
    other = sign_burn_intent(intent(1_000_000), TEST_SIGNER)
    changed = other.model_copy(update={"intent": intent(9_000_000, salt=other.intent.spec.salt)})
    with pytest.raises(errors.BadRequestError, match="sourceSigner"):
        await resolve(sb_gateway.transfer(changed))
    assert len(sb.gateway.transfer_ids) == 1


async def test_a_balance_too_small_for_value_and_fee_is_refused(
    sb: Sandbox, sb_gateway: Any
) -> None:
    sb.fund(ME, 8453, 1_000_000)
    with pytest.raises(errors.BadRequestError, match="Insufficient balance"):
        await resolve(sb_gateway.transfer(sign_burn_intent(intent(1_000_000), TEST_SIGNER)))


@pytest.mark.parametrize("fate", ["failed", "expired"])
async def test_a_failed_transfer_raises_and_gives_the_balance_back(
    sb: Sandbox, sb_gateway: Any, fate: str
) -> None:
    sb.fund(ME, 8453, 5_000_000)
    sb.gateway.fail_next(fate)  # type: ignore[arg-type]
    result = await resolve(sb_gateway.transfer(sign_burn_intent(intent(1_000_000), TEST_SIGNER)))
    assert sb.gateway.balance(ME, 8453) == 5_000_000 - 1_010_000
    with pytest.raises(errors.TransferFailedError) as info:
        await resolve(sb_gateway.wait_for_transfer(result.transfer_id))
    assert info.value.transfer_status == fate
    assert sb.gateway.balance(ME, 8453) == 5_000_000


async def test_a_delegate_signs_for_a_cold_depositor_once_added(
    sb: Sandbox, sb_gateway: Any
) -> None:
    sb.fund(ME, 8453, 5_000_000)
    signed = sign_burn_intent(intent(2_000_000, source_signer=HOT_KEY.address), HOT_KEY)
    with pytest.raises(errors.BadRequestError, match="not authorized"):
        await resolve(sb_gateway.transfer(signed))
    sb.gateway.add_delegate(ME, HOT_KEY.address)
    await resolve(sb_gateway.transfer(signed))
    assert sb.gateway.balance(ME, 8453) == 5_000_000 - 2_010_000
    sb.gateway.remove_delegate(ME, HOT_KEY.address)
    again = sign_burn_intent(intent(1_000_000, source_signer=HOT_KEY.address), HOT_KEY)
    with pytest.raises(errors.BadRequestError, match="not authorized"):
        await resolve(sb_gateway.transfer(again))


async def test_an_estimate_that_changes_the_transfer_is_refused(
    sb: Sandbox, sb_gateway: Any
) -> None:
    thief = "0x" + "66" * 20

    def redirect(body: Any) -> None:
        body[0]["burnIntent"]["spec"]["destinationRecipient"] = thief

    sb.faults.tamper(redirect, service="gateway", path="/v1/estimate")
    own = intent(1_000_000)
    [estimated] = await resolve(sb_gateway.estimate(own))
    with pytest.raises(errors.UnsafePayloadError) as info:
        apply_estimate(own, estimated)
    assert info.value.field == "estimate.spec.destinationRecipient"
    assert info.value.received == thief


async def test_the_sandbox_api_answers_bad_requests_in_its_error_shape(sb: Sandbox) -> None:
    http = sb.http_client()
    url = sb.url("gateway")
    assert http.get(f"{url}/v1/transfer/not-a-uuid").json() == {"message": "id must be a UUID"}
    missing = http.get(f"{url}/v1/transfer/3c90c3cc-0d44-4b50-8888-8dd25736052a")
    assert missing.status_code == 404
    assert http.post(f"{url}/v1/balances", json={"token": "EURC", "sources": []}).status_code == 400
    assert http.post(f"{url}/v1/estimate", json=[]).status_code == 400
    assert http.post(f"{url}/v1/transfer", json=[{"burnIntent": {}}]).status_code == 400


def test_sandbox_deposits_refuse_what_a_wallet_would(sb: Sandbox) -> None:
    with pytest.raises(ValueError, match="positive"):
        sb.gateway.deposit(ME, 8453, 0)
    with pytest.raises(ValueError, match="not served"):
        sb.gateway.deposit(ME, 10, 1)
    with pytest.raises(ValueError):
        sb.gateway.fail_next("late")  # type: ignore[arg-type]
