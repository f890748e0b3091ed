"""The ``{code, data, message}`` envelope, the service's error shapes, and the API key:
required (checked before any I/O) on two endpoints, sent when configured on the rest."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import AsyncRoutingClient, RoutingClient, errors
from xswap_sdk._clock import VirtualClock

from ..support import (
    ROUTING_KEY,
    ROUTING_URL,
    SWAP_ID,
    TEST_ADDRESS,
    resolve,
    routing_error,
    routing_ok,
    token_wire,
)

CHAINS_URL = f"{ROUTING_URL}/supported-chains"
SEARCH_URL = f"{ROUTING_URL}/search-token?query=USDC"


async def test_envelope_data_is_unwrapped(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=SEARCH_URL,
        json=routing_ok([token_wire()]),
    )
    (token,) = await resolve(routing.search_token("USDC"))
    assert token.symbol == "USDC"


@pytest.mark.parametrize("code", [1, 40001, -1, "E1"])
async def test_non_zero_code_on_http_200_raises_envelope_error(
    routing: Any, httpx_mock: HTTPXMock, code: Any
) -> None:
    httpx_mock.add_response(url=SEARCH_URL, json=routing_error(code, "token not supported"))
    with pytest.raises(errors.EnvelopeError) as info:
        await resolve(routing.search_token("USDC"))
    assert info.value.code == code
    assert info.value.message == "token not supported"
    assert info.value.status_code == 200
    assert info.value.path == "/search-token"
    assert str(info.value) == (
        f"GET /search-token: service reported failure [code {code}]: token not supported"
    )
    assert len(httpx_mock.get_requests()) == 1  # a failure envelope is not retried


@pytest.mark.parametrize("text", ["Invalid request", "Internal server error"])
async def test_plain_text_body_on_http_200_becomes_the_message(
    routing: Any, httpx_mock: HTTPXMock, text: str
) -> None:
    httpx_mock.add_response(url=CHAINS_URL, text=text)
    with pytest.raises(errors.EnvelopeError) as info:
        await resolve(routing.get_supported_chains())
    assert info.value.message == text
    assert info.value.body == text


async def test_plain_text_body_with_an_error_status_becomes_the_message(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=CHAINS_URL, status_code=400, text="Invalid request")
    with pytest.raises(errors.BadRequestError) as info:
        await resolve(routing.get_supported_chains())
    assert info.value.message == "Invalid request"
    assert str(info.value) == "GET /supported-chains -> HTTP 400: Invalid request"


async def test_internal_server_error_text_is_retried_then_raised(
    routing: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(
        url=CHAINS_URL, status_code=500, text="Internal server error", is_reusable=True
    )
    with pytest.raises(errors.InternalServerError) as info:
        await resolve(routing.get_supported_chains())
    assert info.value.message == "Internal server error"
    assert info.value.outcome_unknown is False
    assert len(httpx_mock.get_requests()) == 3  # a read: 1 + 2 retries
    assert len(clock.sleeps) == 2


async def test_error_envelope_with_an_error_status_keeps_its_code(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=SEARCH_URL, status_code=422, json=routing_error(1002, "bad query"))
    with pytest.raises(errors.UnprocessableEntityError) as info:
        await resolve(routing.search_token("USDC"))
    assert info.value.code == 1002
    assert info.value.message == "bad query"


async def test_401_raises_authentication_error(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=CHAINS_URL, status_code=401, text="Unauthorized")
    with pytest.raises(errors.AuthenticationError) as info:
        await resolve(routing.get_supported_chains())
    assert info.value.status_code == 401
    assert len(httpx_mock.get_requests()) == 1
    assert httpx_mock.get_requests()[0].headers["api-key"] == ROUTING_KEY


async def test_an_echoed_api_key_is_scrubbed_from_the_error(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=CHAINS_URL, status_code=401, text=f"bad key {ROUTING_KEY}")
    with pytest.raises(errors.AuthenticationError) as info:
        await resolve(routing.get_supported_chains())
    assert ROUTING_KEY not in str(info.value)
    assert "[redacted]" in str(info.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.get_supported_chains(),
        lambda c: c.get_gasless_status(SWAP_ID),
        lambda c: c.wait_for_gasless_status(SWAP_ID),
    ],
    ids=["supported-chains", "gasless-status", "wait-for-gasless-status"],
)
async def test_missing_key_is_reported_before_any_request(
    keyless_routing: Any, httpx_mock: HTTPXMock, call: Any
) -> None:
    with pytest.raises(errors.MissingCredentialsError) as info:
        await resolve(call(keyless_routing))
    assert info.value.argument == "api_key"
    assert info.value.env_var == "XSWAP_ROUTING_API_KEY"
    assert "XSWAP_ROUTING_API_KEY" in str(info.value)
    assert "api_key=" in str(info.value)
    assert httpx_mock.get_requests() == []


async def test_other_endpoints_work_without_a_key_and_send_none(
    keyless_routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=SEARCH_URL, json=routing_ok([]))
    assert await resolve(keyless_routing.search_token("USDC")) == []
    assert "api-key" not in httpx_mock.get_requests()[0].headers


async def test_other_endpoints_send_the_key_when_configured(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=SEARCH_URL, json=routing_ok([]))
    await resolve(routing.search_token("USDC"))
    assert httpx_mock.get_requests()[0].headers["api-key"] == ROUTING_KEY


async def test_key_and_base_url_come_from_the_environment(
    kind: str, httpx_mock: HTTPXMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XSWAP_ROUTING_API_KEY", "env-key-123456")
    monkeypatch.setenv("XSWAP_ROUTING_URL", "https://env-routing.test/")
    cls = RoutingClient if kind == "sync" else AsyncRoutingClient
    client: Any = cls()
    assert client.base_url == "https://env-routing.test"
    httpx_mock.add_response(url="https://env-routing.test/supported-chains", json=routing_ok([]))
    assert await resolve(client.get_supported_chains()) == []
    assert httpx_mock.get_requests()[0].headers["api-key"] == "env-key-123456"
    assert "env-key" not in repr(client)
    await resolve(client.close() if kind == "sync" else client.aclose())


def test_default_base_url_and_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XSWAP_ROUTING_URL", raising=False)
    monkeypatch.delenv("XSWAP_ROUTING_API_KEY", raising=False)
    client = RoutingClient()
    assert client.base_url == "https://api.xpath.rath.fi"
    assert repr(client) == "RoutingClient(base_url='https://api.xpath.rath.fi', api_key=unset)"
    client.close()


async def test_an_unframed_body_is_taken_as_the_data(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=SEARCH_URL, json=[token_wire(address=TEST_ADDRESS, chainId=1)])
    (token,) = await resolve(routing.search_token("USDC"))
    assert token.address == TEST_ADDRESS


async def test_data_that_does_not_fit_raises_response_validation_error(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=SEARCH_URL, json=routing_ok({"not": "a list"}))
    with pytest.raises(errors.ResponseValidationError) as info:
        await resolve(routing.search_token("USDC"))
    assert info.value.body == routing_ok({"not": "a list"})
