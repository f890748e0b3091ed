"""The routing client against the sandbox: quote, build, follow, and the gasless swap
end to end with a real Permit2 signature, plus its retry behaviour under faults."""

from __future__ import annotations

from typing import Any

import pytest
from eth_account import Account

from xswap_sdk import errors
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import sign_typed_data
from xswap_sdk.testing import TEST_ADDRESS, TEST_SIGNER

from ..support import resolve

USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
WETH_ARB = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
PAIR = {
    "from_chain": 8453,
    "to_chain": 42161,
    "from_token": USDC_BASE,
    "to_token": WETH_ARB,
    "amount": 250_000_000,
}
SUBMIT = ("routing", "POST", "/gasless/submit-swap")


async def test_quote_build_send_and_follow(sb: Sandbox, routing: Any) -> None:
    routes = await resolve(
        routing.get_quote(**PAIR, sender=TEST_ADDRESS, route_mode="fastest", integrator="e2e")
    )
    assert routes[0].integrator_id == "e2e"
    assert routes[0].estimated_time_ms == min(r.estimated_time_ms for r in routes)
    tx = await resolve(routing.build_path(routes[0], TEST_ADDRESS))
    assert tx.chain == 8453
    source_hash = sb.routing.broadcast(tx)
    status = await resolve(routing.wait_for_status(source_hash, 8453, TEST_ADDRESS))
    assert status.current_status == "completed"
    assert status.destination_tx_hash_any
    assert status.route_kind == "swapBridge"


async def test_build_by_id_and_best_path(routing: Any) -> None:
    routes = await resolve(routing.get_quote(**PAIR, sender=TEST_ADDRESS))
    by_id = await resolve(routing.build_path_by_id(routes[-1].quote_id, sender=TEST_ADDRESS))
    assert by_id.to == by_id.allowance_target
    best = await resolve(routing.build_best_path(**PAIR, sender=TEST_ADDRESS, include_route=True))
    assert best.tx.chain == 8453
    assert best.route["path"]


async def test_chains_and_tokens(routing: Any) -> None:
    chains = await resolve(routing.get_supported_chains())
    assert all(chain.features.gasless_swaps for chain in chains)
    found = await resolve(routing.search_token("cbbtc", chain_id=8453))
    assert [token.symbol for token in found] == ["cbBTC"]
    assert len(await resolve(routing.get_tokens(chain_id=42161))) == 6


async def test_a_failed_route_raises(sb: Sandbox, routing: Any) -> None:
    routes = await resolve(routing.get_quote(**PAIR, sender=TEST_ADDRESS))
    source_hash = sb.routing.broadcast(
        await resolve(routing.build_path(routes[0], TEST_ADDRESS)), fail=True
    )
    with pytest.raises(errors.SwapFailedError):
        await resolve(routing.wait_for_status(source_hash, 8453))


async def test_a_gasless_swap_end_to_end(sb: Sandbox, routing: Any) -> None:
    result = await resolve(routing.gasless_swap(TEST_SIGNER, **PAIR, wait=True, acquisition_mode=3))
    assert result.status == "completed"
    relayed = result.submission.relayer_tx_id  # sent as tachyonTxId, read either way
    assert relayed in sb.relayer.transaction_ids
    assert result.execution_tx_hash == sb.relayer.record(relayed)["executionTxHash"]
    assert len(sb.requests.select(*SUBMIT)) == 1


async def test_a_permit_signed_by_someone_else_is_refused(sb: Sandbox, routing: Any) -> None:
    quote = (await resolve(routing.get_gasless_quote(**PAIR, sender=TEST_ADDRESS)))[0]
    thief = Account.from_key("0x" + "44" * 32)
    stolen = sign_typed_data(thief, quote.eip712)
    # The SDK refuses it before sending: the quote was verified for its sender.
    with pytest.raises(errors.UnsafePayloadError) as before:
        await resolve(routing.submit_gasless_swap(quote.quote_id, stolen))
    assert before.value.field == "signature"
    assert not sb.requests.select("routing", "POST", "/gasless/submit-swap")
    # And the service refuses it too, when the SDK is told to send it anyway.
    with pytest.raises(errors.BadRequestError) as refused:
        await resolve(
            routing.submit_gasless_swap(quote.quote_id, stolen, sign_unverified_payload=True)
        )
    assert "not signed by the sender" in str(refused.value)
    assert sb.relayer.transaction_ids == []


async def test_a_failed_relay_fails_the_gasless_swap(sb: Sandbox, routing: Any) -> None:
    sb.relayer.fail_next("execution reverted", label="gasless")
    with pytest.raises(errors.SwapFailedError):
        await resolve(routing.gasless_swap(TEST_SIGNER, **PAIR, wait=True))


async def test_a_quote_read_is_retried_through_502s(sb: Sandbox, routing: Any) -> None:
    sb.faults.server_error(502, service="routing", path="/quote", times=2)
    assert await resolve(routing.get_quote(**PAIR, sender=TEST_ADDRESS))
    assert [s.status for s in sb.requests.select("routing", "GET", "/quote")] == [502, 502, 200]


@pytest.mark.parametrize("fault", ["server_error", "drop_after_processing"])
async def test_a_gasless_submission_is_sent_once(sb: Sandbox, routing: Any, fault: str) -> None:
    quote = (await resolve(routing.get_gasless_quote(**PAIR, sender=TEST_ADDRESS)))[0]
    getattr(sb.faults, fault)(service="routing", path="/gasless/submit-swap", times=None)
    with pytest.raises(errors.APIError) as unknown:
        await resolve(
            routing.submit_gasless_swap(quote.quote_id, sign_typed_data(TEST_SIGNER, quote.eip712))
        )
    assert unknown.value.outcome_unknown is True
    assert len(sb.requests.select(*SUBMIT)) == 1


async def test_the_keyed_endpoints_refuse_another_key(routing: Any) -> None:
    with pytest.raises(errors.AuthenticationError):
        await resolve(routing.with_options(api_key="not-ours").get_supported_chains())
