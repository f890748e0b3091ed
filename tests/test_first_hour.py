"""What a newcomer trips over in the first hour, fixed: a forgotten ``await`` named as
such, error messages that say the status once and the wait a 429 asks for."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import errors
from xswap_sdk._models import UNAWAITED_RULE
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from .support import TX_ID, relayer_ok, resolve, tx_record

USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"


async def _answer() -> str:
    return "65f1a2b3c4d5e6f708192a3b"


# (argument the message must name, call taking the sandbox and an un-awaited coroutine)
FORGOTTEN_AWAIT: list[tuple[str, Callable[[Sandbox, Any], Awaitable[Any]]]] = [
    ("tx_id", lambda sb, c: sb.async_relayer_client().get_relay_status(c)),
    ("tx_id", lambda sb, c: sb.async_relayer_client().wait_for_execution_hash(c)),
    (
        "chain_id",
        lambda sb, c: sb.async_relayer_client().relay(chain_id=c, to=USDC_BASE, call_data="0x"),
    ),
    ("swap_id", lambda sb, c: sb.async_routing_client().get_gasless_status(c)),
    ("quote_id", lambda sb, c: sb.async_routing_client().build_path_by_id(c)),
    ("route", lambda sb, c: sb.async_routing_client().build_path(c, TEST_SIGNER.address)),
    ("tx_hash", lambda sb, c: sb.async_routing_client().get_status(c, 8453)),
    ("transaction_hash", lambda sb, c: sb.async_flash_client().wait_for_swap(c)),
    ("address", lambda sb, c: sb.async_flash_client().get_balance(c)),
]


@pytest.mark.parametrize(("argument", "call"), FORGOTTEN_AWAIT, ids=[a for a, _ in FORGOTTEN_AWAIT])
async def test_a_forgotten_await_is_named_before_any_request(
    argument: str, call: Callable[[Sandbox, Any], Awaitable[Any]]
) -> None:
    async with Sandbox() as sb:
        coroutine = _answer()
        try:
            with pytest.raises(errors.InvalidInputError) as info:
                await call(sb, coroutine)
        finally:
            coroutine.close()
        assert info.value.argument == argument
        assert info.value.rule == UNAWAITED_RULE
        assert "did you forget `await`?" in str(info.value)
        assert len(sb.requests) == 0


async def test_a_task_is_named_too() -> None:
    async with Sandbox() as sb:
        task = asyncio.ensure_future(_answer())
        with pytest.raises(errors.InvalidInputError, match="forget `await`"):
            await sb.async_relayer_client().get_relay_status(task)
        await task


def test_a_plain_bad_value_keeps_its_own_rule() -> None:
    with Sandbox() as sb, pytest.raises(errors.InvalidInputError) as info:
        sb.relayer_client().get_relay_status("")
    assert "await" not in info.value.rule


def test_a_status_code_equal_to_the_http_status_is_said_once() -> None:
    with Sandbox() as sb:
        routing = sb.routing_client(api_key="wrong-key", max_retries=0)
        with pytest.raises(errors.AuthenticationError) as info:
            routing.get_supported_chains()
    assert info.value.code == 401  # the routing envelope repeats the status
    message = str(info.value)
    assert "HTTP 401:" in message
    assert "[401]" not in message


def test_a_code_of_its_own_is_still_shown() -> None:
    error = errors.BadRequestError("to is not an address", status_code=400, code="VALIDATION_003")
    assert "HTTP 400 [VALIDATION_003]: to is not an address" in str(error)


@pytest.mark.parametrize(
    ("retry_after", "said"),
    [
        (12.0, "asked to wait 12 s before retrying"),
        (0.5, "asked to wait 0.5 s before retrying"),
        (None, "did not say how long to wait"),
    ],
)
def test_a_rate_limit_message_says_the_wait(retry_after: float | None, said: str) -> None:
    error = errors.RateLimitError("slow down", status_code=429, retry_after=retry_after)
    assert said in str(error)
    assert str(error).startswith("HTTP 429")


def test_a_rate_limit_from_the_sandbox_says_the_wait() -> None:
    with Sandbox() as sb:
        sb.faults.rate_limit(service="relayer", retry_after=7, times=None)
        relayer = sb.relayer_client(max_retries=0)
        with pytest.raises(errors.RateLimitError) as info:
            relayer.get_relay_status("65f1a2b3c4d5e6f708192a3b")
    assert info.value.retry_after == 7
    assert "asked to wait 7 s" in str(info.value)


@pytest.mark.parametrize("missing", ["status", "chainId", "costUSD", "userId"])
async def test_a_missing_required_field_is_named(
    relayer: Any, httpx_mock: HTTPXMock, missing: str
) -> None:
    # A field the spec lists is required: an answer without it is refused, by name,
    # rather than handed over as None. Sync and async (the relayer fixture).
    record = tx_record("PENDING")
    del record[missing]
    httpx_mock.add_response(json=relayer_ok(record))
    with pytest.raises(errors.ResponseValidationError) as info:
        await resolve(relayer.get_relay_status(TX_ID))
    assert f"first at {missing}: Field required" in str(info.value)
    assert info.value.body == relayer_ok(record)  # nothing the service said is lost
