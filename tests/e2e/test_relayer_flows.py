"""The relayer client against the sandbox: its flows, and how it behaves when the
network and the service misbehave (counted with ``sb.requests``)."""

from __future__ import annotations

from typing import Any

import pytest

from xswap_sdk import VirtualClock, errors
from xswap_sdk.sandbox import RelayerTimings, Sandbox

from ..support import resolve

USDC_ON_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
SUBMIT = ("relayer", "POST", "/api/submit-tx")
READ = ("relayer", "GET", "/api/tx")


async def relay(relayer: Any, **options: Any) -> str:
    tx_id: str = await resolve(
        relayer.relay(chain_id=8453, to=USDC_ON_BASE, call_data="0xa9059cbb", **options)
    )
    return tx_id


async def test_relay_then_wait_for_the_execution_hash(sb: Sandbox, relayer: Any) -> None:
    tx_id = await relay(relayer)
    done = await resolve(relayer.wait_for_execution_hash(tx_id))
    assert done.status == "EXECUTED"
    assert done.execution_tx_hash == sb.relayer.record(tx_id)["executionTxHash"]
    assert isinstance(sb.clock, VirtualClock)
    assert set(sb.clock.sleeps) == {0.05}  # the JS client's 50 ms, in virtual time
    assert done.cost_usd > 0


async def test_relay_sync_lets_the_relayer_wait(sb: Sandbox, relayer: Any) -> None:
    record = await resolve(
        relayer.relay_sync(
            chain_id=42161, to=USDC_ON_BASE, call_data="0x", timeout_ms=10_000, include_receipt=True
        )
    )
    assert record.status == "EXECUTED"
    assert record.model_extra["receipt"]["status"] == "success"
    assert len(sb.requests.select(*SUBMIT)) == 0
    assert len(sb.requests.select("relayer", "POST", "/api/submit-tx-sync")) == 1


async def test_a_failed_transaction_raises_with_its_message(sb: Sandbox, relayer: Any) -> None:
    sb.relayer.fail_next("execution reverted: insufficient allowance")
    tx_id = await relay(relayer)
    with pytest.raises(errors.RelayFailedError) as failed:
        await resolve(relayer.wait_for_execution_hash(tx_id))
    assert failed.value.error_message == "execution reverted: insufficient allowance"
    assert failed.value.status == "FAILED"


async def test_a_retried_transaction_still_executes(sb: Sandbox, relayer: Any) -> None:
    sb.relayer.retry_next()
    tx_id = await relay(relayer)
    done = await resolve(relayer.wait_for_execution_hash(tx_id))
    assert done.status == "EXECUTED"
    assert done.retries == 1


async def test_the_pending_hash_comes_before_execution(sb: Sandbox, relayer: Any) -> None:
    tx_id = await relay(relayer)
    early = await resolve(relayer.wait_for_pending_execution_hash(tx_id))
    assert early.status == "PENDING"
    assert early.execution_tx_hash


async def test_a_wait_that_runs_out_says_the_transaction_may_still_land(
    sb: Sandbox, relayer: Any
) -> None:
    sb.relayer.timings = RelayerTimings(pickup=30)
    tx_id = await relay(relayer)
    with pytest.raises(errors.WaitTimeoutError) as late:
        await resolve(relayer.wait_for_execution_hash(tx_id, timeout_ms=1000))
    assert late.value.last_status.status == "NOT_PICKED_UP"
    sb.wait(60)
    assert (await resolve(relayer.get_relay_status(tx_id))).status == "EXECUTED"


async def test_account_and_chains(relayer: Any) -> None:
    account = await resolve(relayer.check_account_info(USDC_ON_BASE.lower()))
    assert account.address == USDC_ON_BASE
    assert account.available_balance > 0
    assert await resolve(relayer.is_chain_supported(8453))
    assert not await resolve(relayer.is_chain_supported(31337))


async def test_a_wrong_key_is_an_authentication_error(relayer: Any) -> None:
    with pytest.raises(errors.AuthenticationError) as denied:
        await resolve(relayer.with_options(api_key="stolen").get_supported_chains())
    assert denied.value.code == "AUTH_002"


async def test_invalid_submissions_carry_the_validation_code(sb: Sandbox, relayer: Any) -> None:
    with pytest.raises(errors.BadRequestError) as refused:
        await resolve(relayer.relay(chain_id=31337, to=USDC_ON_BASE, call_data="0x"))
    assert refused.value.code == "VALIDATION_004"
    assert refused.value.trace_id


# ---------------------------------------------------------------------------- faults


async def test_a_read_is_retried_through_503s(sb: Sandbox, relayer: Any) -> None:
    tx_id = await relay(relayer)
    sb.faults.server_error(503, service="relayer", path="/api/tx", times=2)
    record = await resolve(relayer.get_relay_status(tx_id))
    assert record.id == tx_id
    assert [seen.status for seen in sb.requests.select(*READ)] == [503, 503, 200]


async def test_a_read_honours_retry_after(sb: Sandbox, relayer: Any) -> None:
    tx_id = await relay(relayer)
    sb.faults.rate_limit(retry_after=1.5, service="relayer", path="/api/tx")
    await resolve(relayer.get_relay_status(tx_id))
    assert isinstance(sb.clock, VirtualClock)
    assert sb.clock.sleeps == [1.5]


async def test_a_submission_is_sent_once_under_a_503(sb: Sandbox, relayer: Any) -> None:
    sb.faults.server_error(503, service="relayer", path="/api/submit-tx", times=None)
    with pytest.raises(errors.InternalServerError) as unknown:
        await relay(relayer)
    assert unknown.value.outcome_unknown is True
    assert len(sb.requests.select(*SUBMIT)) == 1


async def test_a_submission_is_sent_once_when_dropped_after_processing(
    sb: Sandbox, relayer: Any
) -> None:
    sb.faults.drop_after_processing(service="relayer", path="/api/submit-tx")
    with pytest.raises(errors.APIConnectionError) as unknown:
        await relay(relayer)
    assert unknown.value.outcome_unknown is True
    assert "check its status" in str(unknown.value)
    assert len(sb.requests.select(*SUBMIT)) == 1
    # The relayer did take it: resending would have relayed it twice.
    assert len(sb.relayer.transaction_ids) == 1


async def test_a_refused_submission_is_retried_and_lands_once(sb: Sandbox, relayer: Any) -> None:
    sb.faults.refuse_connection(service="relayer", path="/api/submit-tx")
    tx_id = await relay(relayer)
    assert sb.relayer.transaction_ids == [tx_id]
    seen = sb.requests.select(*SUBMIT)
    assert [(s.processed, s.fault) for s in seen] == [(False, "refuse_connection"), (True, None)]


async def test_a_rate_limited_submission_is_not_retried(sb: Sandbox, relayer: Any) -> None:
    sb.faults.rate_limit(retry_after=2, service="relayer", path="/api/submit-tx")
    with pytest.raises(errors.RateLimitError) as limited:
        await relay(relayer)
    assert limited.value.retry_after == 2
    assert len(sb.requests.select(*SUBMIT)) == 1


async def test_a_slow_submission_times_out_with_an_unknown_outcome(
    sb: Sandbox, relayer: Any
) -> None:
    sb.faults.latency(40, service="relayer", path="/api/submit-tx")
    with pytest.raises(errors.APITimeoutError) as slow:
        await relay(relayer)
    assert slow.value.outcome_unknown is True
    assert len(sb.relayer.transaction_ids) == 1
