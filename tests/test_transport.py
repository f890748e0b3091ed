"""The shared transport, exercised through the relayer client (sync and async).

Retries are proven by counting what the mocked server received.
"""

from __future__ import annotations

import email.utils
import json
from typing import Any

import httpx
import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import AsyncRelayerClient, RelayerClient, errors
from xswap_sdk._clock import VirtualClock
from xswap_sdk._retry import RETRY_AFTER_CAP

from .support import (
    ADDRESS,
    RELAYER_KEY,
    RELAYER_URL,
    TX_ID,
    relayer_error,
    relayer_ok,
    resolve,
    tx_record,
)

STATUS_URL = f"{RELAYER_URL}/api/tx?id={TX_ID}"
SUBMIT_URL = f"{RELAYER_URL}/api/submit-tx"


def submit(relayer: Any) -> Any:
    return relayer.submit_tx(to=ADDRESS, call_data="0x", chain_id=8453)


@pytest.mark.parametrize(
    ("status", "error_class"),
    [
        (400, errors.BadRequestError),
        (401, errors.AuthenticationError),
        (402, errors.PaymentRequiredError),
        (403, errors.PermissionDeniedError),
        (404, errors.NotFoundError),
        (409, errors.ConflictError),
        (422, errors.UnprocessableEntityError),
        (429, errors.RateLimitError),
        (500, errors.InternalServerError),
        (502, errors.InternalServerError),
        (503, errors.InternalServerError),
        (418, errors.APIStatusError),
    ],
)
async def test_each_status_maps_to_its_error_class(
    relayer: Any, httpx_mock: HTTPXMock, status: int, error_class: type[Exception]
) -> None:
    httpx_mock.add_response(
        url=STATUS_URL, status_code=status, json=relayer_error("E_TEST", "nope"), is_reusable=True
    )
    with pytest.raises(error_class) as info:
        await resolve(relayer.get_relay_status(TX_ID, max_retries=0))
    assert type(info.value) is error_class
    assert info.value.status_code == status
    assert info.value.method == "GET"
    assert info.value.path == "/api/tx"
    assert "id=" not in str(info.value)  # never the query string


async def test_relayer_error_envelope_fills_code_message_and_trace_id(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(
        url=SUBMIT_URL,
        status_code=400,
        json=relayer_error("INVALID_ADDRESS", "to is not an address", trace_id="abc-123"),
    )
    with pytest.raises(errors.BadRequestError) as info:
        await resolve(submit(relayer))
    error = info.value
    assert error.code == "INVALID_ADDRESS"
    assert error.message == "to is not an address"
    assert error.trace_id == "abc-123"
    assert error.body["error"]["category"] == "VALIDATION_ERROR"
    assert str(error) == (
        "POST /api/submit-tx -> HTTP 400 [INVALID_ADDRESS]: to is not an address (trace id abc-123)"
    )


async def test_success_false_on_http_200_raises_envelope_error(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_error("TX_001", "unknown transaction"))
    with pytest.raises(errors.EnvelopeError) as info:
        await resolve(relayer.get_relay_status(TX_ID))
    assert info.value.code == "TX_001"
    assert info.value.status_code == 200
    assert "unknown transaction" in str(info.value)


async def test_plain_text_error_body_becomes_the_message(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=SUBMIT_URL, status_code=400, text="Invalid request")
    with pytest.raises(errors.BadRequestError) as info:
        await resolve(submit(relayer))
    assert info.value.message == "Invalid request"
    assert info.value.body == "Invalid request"


async def test_body_that_does_not_fit_the_model_keeps_the_body(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok({"status": "PENDING"}))
    with pytest.raises(errors.ResponseValidationError) as info:
        await resolve(relayer.get_relay_status(TX_ID))
    assert info.value.body == relayer_ok({"status": "PENDING"})
    assert info.value.errors[0]["loc"] == ("id",)


async def test_post_that_hits_503_after_sending_is_sent_exactly_once(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=SUBMIT_URL, status_code=503, text="busy", is_reusable=True)
    with pytest.raises(errors.InternalServerError) as info:
        await resolve(submit(relayer))
    assert len(httpx_mock.get_requests()) == 1
    assert info.value.outcome_unknown is True
    assert "may have accepted it" in str(info.value)
    assert "check its status" in str(info.value)


async def test_post_that_times_out_after_sending_is_not_retried(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_exception(httpx.ReadTimeout("slow"), url=SUBMIT_URL, is_reusable=True)
    with pytest.raises(errors.APITimeoutError) as info:
        await resolve(submit(relayer))
    assert len(httpx_mock.get_requests()) == 1
    assert info.value.request_sent is True
    assert info.value.outcome_unknown is True


async def test_get_that_hits_503_twice_succeeds_on_the_third_attempt(
    relayer: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, status_code=503)
    httpx_mock.add_response(url=STATUS_URL, status_code=503)
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")))
    record = await resolve(relayer.get_relay_status(TX_ID))
    assert record.status == "PENDING"
    assert len(httpx_mock.get_requests()) == 3
    # Full jitter: each wait is between 0 and the exponential ceiling (0.5 s, then 1 s).
    assert len(clock.sleeps) == 2
    assert 0 <= clock.sleeps[0] <= 0.5
    assert 0 <= clock.sleeps[1] <= 1.0


async def test_get_gives_up_after_max_retries(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, status_code=502, is_reusable=True)
    with pytest.raises(errors.InternalServerError) as info:
        await resolve(relayer.get_relay_status(TX_ID))
    assert len(httpx_mock.get_requests()) == 3  # the default: 1 + 2 retries
    assert info.value.outcome_unknown is False  # a read changes nothing


async def test_connect_error_on_a_post_is_retried(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_exception(httpx.ConnectError("refused"), url=SUBMIT_URL)
    httpx_mock.add_response(url=SUBMIT_URL, json=relayer_ok({"txId": TX_ID}))
    result = await resolve(submit(relayer))
    assert result.tx_id == TX_ID
    assert len(httpx_mock.get_requests()) == 2


async def test_connect_timeout_on_a_post_is_retried_until_the_limit(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_exception(httpx.ConnectTimeout("slow dns"), url=SUBMIT_URL, is_reusable=True)
    with pytest.raises(errors.APITimeoutError) as info:
        await resolve(submit(relayer))
    assert len(httpx_mock.get_requests()) == 3
    assert info.value.request_sent is False
    assert info.value.outcome_unknown is False


async def test_max_retries_per_call_and_per_client(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, status_code=500, is_reusable=True)
    with pytest.raises(errors.InternalServerError):
        await resolve(relayer.get_relay_status(TX_ID, max_retries=0))
    assert len(httpx_mock.get_requests()) == 1
    with pytest.raises(errors.InternalServerError):
        await resolve(relayer.with_options(max_retries=4).get_relay_status(TX_ID))
    assert len(httpx_mock.get_requests()) == 1 + 5


async def test_retry_after_seconds_is_honoured(
    relayer: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, status_code=429, headers={"Retry-After": "7"})
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")))
    await resolve(relayer.get_relay_status(TX_ID))
    assert clock.sleeps == [7.0]


async def test_retry_after_http_date_is_honoured(
    relayer: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    date = email.utils.formatdate(clock.time() + 30, usegmt=True)
    httpx_mock.add_response(url=STATUS_URL, status_code=503, headers={"Retry-After": date})
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")))
    await resolve(relayer.get_relay_status(TX_ID))
    assert len(clock.sleeps) == 1
    assert 25 <= clock.sleeps[0] <= 31


async def test_retry_after_above_the_cap_raises_at_once(
    relayer: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    wait = int(RETRY_AFTER_CAP) + 60
    httpx_mock.add_response(
        url=STATUS_URL, status_code=429, headers={"Retry-After": str(wait)}, is_reusable=True
    )
    with pytest.raises(errors.RateLimitError) as info:
        await resolve(relayer.get_relay_status(TX_ID))
    assert info.value.retry_after == wait
    assert len(httpx_mock.get_requests()) == 1
    assert clock.sleeps == []


async def test_rate_limited_post_is_not_retried(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=SUBMIT_URL, status_code=429, headers={"Retry-After": "1"})
    with pytest.raises(errors.RateLimitError) as info:
        await resolve(submit(relayer))
    assert info.value.retry_after == 1.0
    assert info.value.outcome_unknown is False
    assert len(httpx_mock.get_requests()) == 1


async def test_default_timeouts_connect_5_read_30(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")))
    await resolve(relayer.get_relay_status(TX_ID))
    timeout = httpx_mock.get_requests()[0].extensions["timeout"]
    assert timeout == {"connect": 5.0, "read": 30.0, "write": 30.0, "pool": 30.0}


async def test_timeout_per_client_per_call_and_none(
    kind: str, clock: VirtualClock, httpx_mock: HTTPXMock
) -> None:
    cls = RelayerClient if kind == "sync" else AsyncRelayerClient
    client = cls(api_key=RELAYER_KEY, base_url=RELAYER_URL, timeout=12, clock=clock)
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")), is_reusable=True)
    await resolve(client.get_relay_status(TX_ID))
    await resolve(client.get_relay_status(TX_ID, timeout=2.5))
    await resolve(client.get_relay_status(TX_ID, timeout=None, deadline=None))
    await resolve(client.with_options(timeout=httpx.Timeout(9, connect=1)).get_relay_status(TX_ID))
    await resolve(client.get_relay_status(TX_ID, timeout=None))
    seen = [r.extensions["timeout"] for r in httpx_mock.get_requests()]
    assert seen[0]["read"] == 12
    assert seen[0]["connect"] == 12
    assert seen[1]["read"] == 2.5
    assert seen[2] == {"connect": None, "read": None, "write": None, "pool": None}
    assert seen[3]["connect"] == 1
    assert seen[3]["read"] == 9
    # With no per-phase timeouts, the call's total deadline (120 s) still bounds each wait.
    assert seen[4] == {"connect": 120.0, "read": 120.0, "write": 120.0, "pool": 120.0}


async def test_relay_sync_read_timeout_outlasts_the_relayer_wait(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(
        url=f"{RELAYER_URL}/api/submit-tx-sync", json=relayer_ok(tx_record("EXECUTED"))
    )
    await resolve(relayer.relay_sync(chain_id=8453, to=ADDRESS, call_data="0x", timeout_ms=60_000))
    request = httpx_mock.get_requests()[0]
    assert request.extensions["timeout"]["read"] > 60
    assert json.loads(request.content)["timeoutMs"] == 60_000


async def test_injected_http_client_keeps_our_base_url_and_headers_and_stays_open(
    kind: str, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")))
    if kind == "sync":
        own = httpx.Client(base_url="https://elsewhere.test", headers={"X-Mine": "1"})
        client: Any = RelayerClient(
            api_key=RELAYER_KEY, base_url=RELAYER_URL, http_client=own, headers={"X-Ours": "2"}
        )
    else:
        own = httpx.AsyncClient(base_url="https://elsewhere.test", headers={"X-Mine": "1"})
        client = AsyncRelayerClient(
            api_key=RELAYER_KEY, base_url=RELAYER_URL, http_client=own, headers={"X-Ours": "2"}
        )
    await resolve(client.get_relay_status(TX_ID))
    await resolve(client.close() if kind == "sync" else client.aclose())
    request = httpx_mock.get_requests()[0]
    assert str(request.url) == STATUS_URL
    assert request.headers["x-mine"] == "1"
    assert request.headers["x-ours"] == "2"
    assert request.headers["api-key"] == RELAYER_KEY
    assert not own.is_closed
    await resolve(own.close() if kind == "sync" else own.aclose())


def test_http_client_of_the_wrong_flavour_is_refused() -> None:
    with pytest.raises(errors.InvalidInputError, match="http_client"):
        RelayerClient(api_key="k", http_client=httpx.AsyncClient())  # type: ignore[arg-type]


async def test_with_options_shares_the_pool_and_closing_the_copy_keeps_it(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")), is_reusable=True)
    copy = relayer.with_options(max_retries=0, headers={"X-Trace": "t"})
    await resolve(relayer.get_relay_status(TX_ID))
    await resolve(copy.get_relay_status(TX_ID))
    assert copy._transport.pool is relayer._transport.pool
    assert copy.max_retries == 0
    assert relayer.max_retries == 2
    await resolve(copy.close() if isinstance(copy, RelayerClient) else copy.aclose())
    await resolve(relayer.get_relay_status(TX_ID))  # the original still works
    requests = httpx_mock.get_requests()
    assert "x-trace" not in requests[0].headers
    assert requests[1].headers["x-trace"] == "t"


async def test_closed_client_refuses_further_calls(relayer: Any) -> None:
    await resolve(relayer.close() if isinstance(relayer, RelayerClient) else relayer.aclose())
    with pytest.raises(RuntimeError, match="closed"):
        await resolve(relayer.get_relay_status(TX_ID))


async def test_context_manager_closes_the_pool(kind: str, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")))
    if kind == "sync":
        with RelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL) as client:
            client.get_relay_status(TX_ID)
            pool_client = client._transport.pool._client
    else:
        async with AsyncRelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL) as client:
            await client.get_relay_status(TX_ID)
            pool_client = client._transport.pool._client
    assert pool_client is not None
    assert pool_client.is_closed


async def test_raw_responses_are_captured_per_attempt(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, status_code=503)
    httpx_mock.add_response(
        url=STATUS_URL, json=relayer_ok(tx_record("PENDING")), headers={"X-Request-Id": "r-9"}
    )
    with relayer.capture_responses() as responses:
        await resolve(relayer.get_relay_status(TX_ID))
    assert [(r.status_code, r.attempt) for r in responses] == [(503, 1), (200, 2)]
    assert responses[1].headers["x-request-id"] == "r-9"
    assert responses[1].json()["data"]["id"] == TX_ID
    assert repr(responses[1]) == "<RawResponse GET /api/tx 200>"


async def test_capture_sees_only_its_own_client(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")), is_reusable=True)
    other = RelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL)
    with relayer.capture_responses() as responses:
        other.get_relay_status(TX_ID)
        await resolve(relayer.get_relay_status(TX_ID))
    other.close()
    assert len(responses) == 1


async def test_user_agent_and_accept_headers(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")))
    await resolve(relayer.get_relay_status(TX_ID))
    request = httpx_mock.get_requests()[0]
    assert request.headers["user-agent"].startswith("xswap-sdk-python/")
    assert request.headers["accept"] == "application/json"
