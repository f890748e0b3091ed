"""Per-call extra headers, query and body; request ids on results; event hooks."""

from __future__ import annotations

import asyncio
import json
import logging
import warnings
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import AsyncRelayerClient, RelayerClient, errors
from xswap_sdk._clock import VirtualClock
from xswap_sdk.events import RequestEvent, ResponseEvent, RetryEvent

from .support import ADDRESS, RELAYER_KEY, RELAYER_URL, TX_ID, relayer_ok, resolve, tx_record

STATUS_URL = f"{RELAYER_URL}/api/tx?id={TX_ID}"
SUBMIT_URL = f"{RELAYER_URL}/api/submit-tx"


def submit(relayer: Any, **options: Any) -> Any:
    return relayer.submit_tx(to=ADDRESS, call_data="0x", chain_id=8453, **options)


async def test_extras_are_added_last_but_cannot_replace_what_the_sdk_sends(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=f"{SUBMIT_URL}?dryRun=yes", json=relayer_ok({"txId": TX_ID}))
    await resolve(
        submit(
            relayer,
            extra_headers={"X-Feature": "beta"},
            extra_query={"dryRun": "yes"},
            extra_body={"priority": "high"},
        )
    )
    request = httpx_mock.get_requests()[0]
    assert request.headers["x-feature"] == "beta"
    assert request.headers["api-key"] == RELAYER_KEY
    body = json.loads(request.content)
    assert body["priority"] == "high"
    assert body["to"] == ADDRESS  # the SDK's own fields are untouched


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"extra_headers": {"api-key": "other"}}, "extra_headers['api-key']"),
        ({"extra_headers": {"Authorization": "Bearer x"}}, "extra_headers['Authorization']"),
        ({"extra_headers": {"X-Bad": "a\r\nb"}}, "extra_headers['X-Bad']"),
        ({"extra_body": {"to": "0x" + "66" * 20}}, "extra_body['to']"),
        ({"extra_body": {"callData": "0xdead"}}, "extra_body['callData']"),
        ({"extra_body": ["not", "a", "mapping"]}, "extra_body"),
        ({"extra_query": {"x": 1}}, "extra_query"),
    ],
)
async def test_extras_that_would_replace_credentials_or_signed_fields_are_refused(
    relayer: Any, httpx_mock: HTTPXMock, options: dict[str, Any], argument: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(submit(relayer, **options))
    assert info.value.argument == argument
    assert httpx_mock.get_requests() == []


async def test_a_query_the_sdk_sends_and_a_body_a_get_lacks_are_refused(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    with pytest.raises(errors.InvalidInputError, match="sent by the SDK already"):
        await resolve(relayer.get_relay_status(TX_ID, extra_query={"id": "other"}))
    with pytest.raises(errors.InvalidInputError, match="sends no JSON object body"):
        await resolve(relayer.get_relay_status(TX_ID, extra_body={"x": "1"}))
    assert httpx_mock.get_requests() == []


async def test_results_carry_the_request_id(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=STATUS_URL,
        json=relayer_ok(tx_record("PENDING")),
        headers={"x-request-id": "req-42"},
    )
    record = await resolve(relayer.get_relay_status(TX_ID))
    assert record.request_id == "req-42"
    httpx_mock.add_response(url=f"{RELAYER_URL}/api/supported-chains", json=relayer_ok([]))
    assert await resolve(relayer.get_supported_chains()) == []


async def test_hooks_see_metadata_of_each_attempt(kind: str, httpx_mock: HTTPXMock) -> None:
    seen: list[Any] = []
    cls = RelayerClient if kind == "sync" else AsyncRelayerClient
    client = cls(
        api_key=RELAYER_KEY,
        base_url=RELAYER_URL,
        clock=VirtualClock(),
        on_request=seen.append,
        on_response=seen.append,
        on_retry=seen.append,
    )
    httpx_mock.add_response(url=STATUS_URL, status_code=503, json={"success": False})
    httpx_mock.add_response(
        url=STATUS_URL, json=relayer_ok(tx_record("PENDING")), headers={"x-trace-id": "t-9"}
    )
    await resolve(client.get_relay_status(TX_ID))
    kinds = [type(event) for event in seen]
    assert kinds == [RequestEvent, ResponseEvent, RetryEvent, RequestEvent, ResponseEvent]
    assert [e.attempt for e in seen] == [1, 1, 1, 2, 2]
    assert {e.path for e in seen} == {"/api/tx"}  # the path, never the query
    assert seen[1].status_code == 503
    assert seen[2].reason == "HTTP 503"
    assert seen[-1].request_id == "t-9"
    assert RELAYER_KEY not in repr(seen)


async def test_a_hook_that_raises_cannot_break_a_payment(
    kind: str, httpx_mock: HTTPXMock, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(event: Any) -> None:
        raise RuntimeError("dashboard down")

    cls = RelayerClient if kind == "sync" else AsyncRelayerClient
    client = cls(api_key=RELAYER_KEY, base_url=RELAYER_URL, on_response=broken)
    httpx_mock.add_response(url=SUBMIT_URL, json=relayer_ok({"txId": TX_ID}))
    with caplog.at_level(logging.WARNING, logger="xswap_sdk"):
        result = await resolve(submit(client))
    assert result.tx_id == TX_ID
    assert "ResponseEvent raised RuntimeError" in caplog.text


def test_a_hook_must_be_callable() -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        RelayerClient(api_key=RELAYER_KEY, on_retry="print")  # type: ignore[arg-type]
    assert info.value.argument == "on_retry"


async def test_an_async_client_awaits_async_hooks(httpx_mock: HTTPXMock) -> None:
    seen: list[Any] = []

    async def record(event: Any) -> None:
        await asyncio.sleep(0)  # a real suspension: only an awaited hook gets past it
        seen.append(event)

    client = AsyncRelayerClient(
        api_key=RELAYER_KEY,
        base_url=RELAYER_URL,
        clock=VirtualClock(),
        on_request=record,
        on_response=record,
        on_retry=record,
    )
    httpx_mock.add_response(url=STATUS_URL, status_code=503, json={"success": False})
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "coroutine ... was never awaited"
        await client.get_relay_status(TX_ID)
    kinds = [type(event) for event in seen]
    assert kinds == [RequestEvent, ResponseEvent, RetryEvent, RequestEvent, ResponseEvent]


async def test_an_async_hook_that_raises_is_logged_and_ignored(
    httpx_mock: HTTPXMock, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(event: Any) -> None:
        await asyncio.sleep(0)
        raise RuntimeError("dashboard down")

    client = AsyncRelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL, on_response=broken)
    httpx_mock.add_response(url=SUBMIT_URL, json=relayer_ok({"txId": TX_ID}))
    with caplog.at_level(logging.WARNING, logger="xswap_sdk"):
        result = await submit(client)
    assert result.tx_id == TX_ID
    assert "ResponseEvent raised RuntimeError" in caplog.text


class _AsyncCallable:
    async def __call__(self, event: Any) -> None:
        return None


@pytest.mark.parametrize("argument", ["on_request", "on_response", "on_retry"])
def test_a_blocking_client_refuses_an_async_hook(argument: str) -> None:
    async def record(event: Any) -> None:
        return None

    for given in (record, _AsyncCallable()):
        with pytest.raises(errors.InvalidInputError) as info:
            RelayerClient(api_key=RELAYER_KEY, **{argument: given})
        assert info.value.argument == argument
        assert "async function" in str(info.value)
        assert "async client" in str(info.value)


def test_a_blocking_client_closes_an_awaitable_a_plain_hook_returns(
    httpx_mock: HTTPXMock, caplog: pytest.LogCaptureFixture
) -> None:
    async def later(event: Any) -> None:
        return None

    client = RelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL, on_request=lambda e: later(e))
    httpx_mock.add_response(url=SUBMIT_URL, json=relayer_ok({"txId": TX_ID}))
    with warnings.catch_warnings(), caplog.at_level(logging.WARNING, logger="xswap_sdk"):
        warnings.simplefilter("error")
        assert submit(client).tx_id == TX_ID
    assert "RequestEvent returned an awaitable" in caplog.text
