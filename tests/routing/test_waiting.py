"""``wait_for_status`` and ``wait_for_gasless_status`` on virtual time: success, failure,
time-out, the caller's own predicate, and the defaults for minutes-long bridges."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import errors
from xswap_sdk._clock import VirtualClock
from xswap_sdk.routing import DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT

from ..support import (
    ROUTING_URL,
    SOURCE_TX_HASH,
    SWAP_ID,
    bridge_status_wire,
    gasless_status_wire,
    resolve,
    routing_ok,
)

GASLESS_URL = f"{ROUTING_URL}/gasless/status?id={SWAP_ID}"
STATUS_URL = f"{ROUTING_URL}/status?txHash={SOURCE_TX_HASH}&fromChain=8453"
EXECUTION_HASH = "0x" + "e7" * 32
DEST_HASH = "0x" + "de" * 32


def test_defaults_suit_minutes_long_bridges() -> None:
    assert DEFAULT_WAIT_TIMEOUT == 900.0
    assert DEFAULT_POLL_INTERVAL == 5.0


# ---------------------------------------------------------------------------- gasless


async def test_gasless_wait_returns_once_the_execution_hash_is_present(
    routing: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(url=GASLESS_URL, status_code=404, text="swap not found")
    httpx_mock.add_response(url=GASLESS_URL, json=routing_ok(gasless_status_wire("pending")))
    # A status the SDK does not know, but with a hash: done.
    httpx_mock.add_response(
        url=GASLESS_URL,
        json=routing_ok(gasless_status_wire("settled", executionTxHash=EXECUTION_HASH)),
    )
    record = await resolve(routing.wait_for_gasless_status(SWAP_ID))
    assert record.execution_tx_hash == EXECUTION_HASH
    assert len(httpx_mock.get_requests()) == 3
    assert clock.sleeps == [5.0, 5.0]


@pytest.mark.parametrize("status", ["failed", "FAILED", "Failed"])
async def test_gasless_wait_raises_swap_failed_with_the_record(
    routing: Any, httpx_mock: HTTPXMock, status: str
) -> None:
    httpx_mock.add_response(url=GASLESS_URL, json=routing_ok(gasless_status_wire("pending")))
    httpx_mock.add_response(url=GASLESS_URL, json=routing_ok(gasless_status_wire(status)))
    with pytest.raises(errors.SwapFailedError) as info:
        await resolve(routing.wait_for_gasless_status(SWAP_ID))
    assert info.value.record.swap_id == SWAP_ID
    assert info.value.status == status
    assert isinstance(info.value, errors.TerminalStateError)
    assert str(info.value) == f"gasless swap {SWAP_ID} failed (status {status!r})"


async def test_gasless_wait_times_out_after_15_minutes_of_polls_every_5_seconds(
    routing: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(
        url=GASLESS_URL, json=routing_ok(gasless_status_wire("pending")), is_reusable=True
    )
    with pytest.raises(errors.WaitTimeoutError) as info:
        await resolve(routing.wait_for_gasless_status(SWAP_ID))
    # Requests at 0, 5, ..., 895 s.
    assert len(httpx_mock.get_requests()) == 180
    assert clock.monotonic() == pytest.approx(895.0)
    assert info.value.timeout == 900.0
    assert info.value.last_status.status == "pending"
    assert "may still complete" in str(info.value)
    assert "get_gasless_status()" in str(info.value)


async def test_gasless_wait_custom_timeout_and_interval(
    routing: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(
        url=GASLESS_URL, json=routing_ok(gasless_status_wire("pending")), is_reusable=True
    )
    with pytest.raises(errors.WaitTimeoutError) as info:
        await resolve(routing.wait_for_gasless_status(SWAP_ID, wait_timeout=60, poll_interval=15))
    assert len(httpx_mock.get_requests()) == 4
    assert clock.sleeps == [15.0] * 3
    assert "timed out after 60 s" in str(info.value)


async def test_gasless_wait_with_no_record_yet_says_so(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=GASLESS_URL, status_code=404, text="not found", is_reusable=True)
    with pytest.raises(errors.WaitTimeoutError) as info:
        await resolve(routing.wait_for_gasless_status(SWAP_ID, wait_timeout=10))
    assert info.value.last_status is None
    assert "no record yet" in str(info.value)


async def test_gasless_wait_with_the_callers_predicate(routing: Any, httpx_mock: HTTPXMock) -> None:
    # Stop as soon as the swap is being relayed, before it has a hash.
    httpx_mock.add_response(url=GASLESS_URL, json=routing_ok(gasless_status_wire("quoted")))
    httpx_mock.add_response(url=GASLESS_URL, json=routing_ok(gasless_status_wire("relaying")))
    record = await resolve(
        routing.wait_for_gasless_status(SWAP_ID, is_done=lambda r: r.status == "relaying")
    )
    assert record.status == "relaying"
    assert record.execution_tx_hash is None
    assert len(httpx_mock.get_requests()) == 2


async def test_a_failed_status_raises_even_when_the_predicate_says_done(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=GASLESS_URL, json=routing_ok(gasless_status_wire("failed")))
    with pytest.raises(errors.SwapFailedError):
        await resolve(routing.wait_for_gasless_status(SWAP_ID, is_done=lambda r: True))


async def test_a_predicate_that_raises_stops_the_wait(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=GASLESS_URL, json=routing_ok(gasless_status_wire("refunded")))

    def is_done(record: Any) -> bool:
        if record.status == "refunded":
            raise errors.SwapFailedError("refunded", record=record)
        return False

    with pytest.raises(errors.SwapFailedError, match="refunded"):
        await resolve(routing.wait_for_gasless_status(SWAP_ID, is_done=is_done))


async def test_gasless_wait_stops_on_a_non_404_error(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=GASLESS_URL, status_code=401, text="Unauthorized")
    with pytest.raises(errors.AuthenticationError):
        await resolve(routing.wait_for_gasless_status(SWAP_ID))


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"wait_timeout": -1}, "wait_timeout"),
        ({"wait_timeout": "15m"}, "wait_timeout"),
        ({"poll_interval": 0}, "poll_interval"),
        ({"is_done": "executed"}, "is_done"),
        ({"timeout": 0}, "timeout"),
    ],
)
async def test_bad_wait_arguments_are_refused_before_any_request(
    routing: Any, httpx_mock: HTTPXMock, arguments: dict[str, Any], argument: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.wait_for_gasless_status(SWAP_ID, **arguments))
    assert info.value.argument == argument
    with pytest.raises(errors.InvalidInputError):
        await resolve(routing.wait_for_status(SOURCE_TX_HASH, 8453, **arguments))
    assert httpx_mock.get_requests() == []


# ---------------------------------------------------------------------------- /status


async def test_status_wait_returns_once_the_destination_hash_is_known(
    routing: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, status_code=404, text="unknown tx")
    httpx_mock.add_response(url=STATUS_URL, json=routing_ok(bridge_status_wire("bridging")))
    httpx_mock.add_response(
        url=STATUS_URL, json=routing_ok(bridge_status_wire("completed", DEST_HASH))
    )
    record = await resolve(routing.wait_for_status(SOURCE_TX_HASH, 8453))
    assert record.destination_tx_hash_any == DEST_HASH
    assert clock.sleeps == [5.0, 5.0]


async def test_status_wait_reads_the_second_shape(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=routing_ok({"state": "pending"}))
    httpx_mock.add_response(
        url=STATUS_URL, json=routing_ok({"state": "done", "destinationTxHash": DEST_HASH})
    )
    record = await resolve(routing.wait_for_status(SOURCE_TX_HASH, 8453))
    assert record.state == "done"
    assert len(httpx_mock.get_requests()) == 2


@pytest.mark.parametrize("shape", ["status", "state"])
async def test_status_wait_raises_on_failed_in_either_shape(
    routing: Any, httpx_mock: HTTPXMock, shape: str
) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=routing_ok({shape: "FAILED"}))
    with pytest.raises(errors.SwapFailedError) as info:
        await resolve(routing.wait_for_status(SOURCE_TX_HASH, 8453))
    assert info.value.status == "FAILED"
    assert SOURCE_TX_HASH in str(info.value)


async def test_status_wait_with_the_callers_predicate_for_a_same_chain_swap(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(
        url=f"{STATUS_URL}&userAddress=0x5a3Ca05337A87116A27A21b11cDE16D85efb3586",
        json=routing_ok(bridge_status_wire("completed")),
    )
    record = await resolve(
        routing.wait_for_status(
            SOURCE_TX_HASH,
            8453,
            "0x5a3ca05337a87116a27a21b11cde16d85efb3586",
            is_done=lambda r: r.status == "completed",
        )
    )
    assert record.destination_tx_hash_any is None


async def test_status_wait_times_out_with_the_last_record(
    routing: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(
        url=STATUS_URL, json=routing_ok(bridge_status_wire("bridging")), is_reusable=True
    )
    with pytest.raises(errors.WaitTimeoutError) as info:
        await resolve(routing.wait_for_status(SOURCE_TX_HASH, 8453, wait_timeout=30))
    assert len(httpx_mock.get_requests()) == 6
    assert info.value.last_status.status == "bridging"
    message = str(info.value)
    assert "last status 'bridging'" in message
    assert "may still complete" in message
    assert "get_status()" in message
