"""A wait's limit cannot be misread: ``timeout=`` is refused before anything is sent.

Every ``wait_*`` method takes its limit as ``wait_timeout`` (seconds) or, for the
relayer's waits that mirror the JavaScript client, ``timeout_ms``. ``timeout=`` is the
per-request option everywhere else; given to a wait, it would type-check as that and
leave the wait at its own default, so the wait refuses it, naming the right argument.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import (
    errors,
)
from xswap_sdk.sandbox import Sandbox

from .support import ADDRESS, CLIENTS, FLASH_JWT, RELAYER_KEY, ROUTING_KEY, TX_ID, resolve

HASH = "0x" + "ab" * 32

# (client pair, method, positional arguments, keyword arguments, the wait's limit)
WAITS: list[tuple[tuple[type[Any], type[Any]], str, tuple[Any, ...], dict[str, Any], str]] = [
    (CLIENTS["relayer"], "wait_for_execution_hash", (TX_ID,), {}, "timeout_ms"),
    (
        CLIENTS["relayer"],
        "wait_for_pending_execution_hash",
        (TX_ID,),
        {},
        "timeout_ms",
    ),
    (
        CLIENTS["routing"],
        "wait_for_status",
        (HASH, 8453, ADDRESS),
        {},
        "wait_timeout",
    ),
    (CLIENTS["routing"], "wait_for_gasless_status", ("gs_1",), {}, "wait_timeout"),
    (CLIENTS["flash"], "wait_for_swap", (HASH,), {}, "wait_timeout"),
    (
        CLIENTS["flash"],
        "wait_for_gateway_balance",
        (ADDRESS, 8453),
        {"at_least": 1},
        "wait_timeout",
    ),
    (
        CLIENTS["gateway"],
        "wait_for_transfer",
        ("3f9b2a6e-4c1d-4e8f-9a7b-2d5c6e1f0a9b",),
        {},
        "wait_timeout",
    ),
    (
        CLIENTS["gateway"],
        "wait_for_gateway_balance",
        (ADDRESS, 8453),
        {"at_least": 1},
        "wait_timeout",
    ),
]


def make(cls: type[Any]) -> Any:
    """A client that may send (nothing is registered with httpx_mock, so a request fails
    the test with a connection error, not the InvalidInputError asserted)."""
    if cls in CLIENTS["relayer"]:
        return cls(api_key=RELAYER_KEY, base_url="https://relayer.test")
    if cls in CLIENTS["routing"]:
        return cls(api_key=ROUTING_KEY, base_url="https://routing.test")
    if cls in CLIENTS["flash"]:
        return cls(jwt=FLASH_JWT, base_url="https://flash.test")
    return cls(base_url="https://gateway.test")


def test_the_table_holds_every_wait_of_every_client() -> None:
    listed = {(pair[0].__name__, method) for pair, method, *_ in WAITS}
    found = {
        (cls.__name__, name)
        for cls, _ in CLIENTS.values()
        for name in dir(cls)
        if name.startswith("wait_")
    }
    assert found == listed


@pytest.mark.parametrize(("pair", "method", "args", "kwargs", "limit"), WAITS)
def test_a_wait_takes_wait_options_which_have_no_timeout(
    pair: tuple[type[Any], type[Any]],
    method: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    limit: str,
) -> None:
    # What a type checker reads: `timeout=` is not a keyword a wait accepts.
    for cls in pair:
        parameters = inspect.signature(getattr(cls, method)).parameters
        assert limit in parameters
        assert "WaitOptions" in str(parameters["options"].annotation)


@pytest.mark.parametrize("flavour", [0, 1], ids=["sync", "async"])
@pytest.mark.parametrize(("pair", "method", "args", "kwargs", "limit"), WAITS)
async def test_a_wait_refuses_timeout_before_sending_and_names_its_limit(
    httpx_mock: HTTPXMock,
    flavour: int,
    pair: tuple[type[Any], type[Any]],
    method: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    limit: str,
) -> None:
    client = make(pair[flavour])
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(getattr(client, method)(*args, **kwargs, timeout=30))
    assert info.value.argument == "timeout"
    message = str(info.value)
    assert f"pass {limit}=" in message
    assert ("milliseconds" if limit == "timeout_ms" else "seconds") in message
    assert "with_options(timeout=" in message
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize("flavour", ["sync", "async"])
async def test_a_swap_backend_wait_through_gateway_refuses_timeout_too(flavour: str) -> None:
    sandbox = Sandbox()
    gateway: Any = sandbox.gateway_client() if flavour == "sync" else sandbox.async_gateway_client()
    cls = CLIENTS["flash"][flavour == "async"]
    flash = cls(jwt=FLASH_JWT, base_url="https://flash.test", gateway=gateway)
    with pytest.raises(errors.InvalidInputError, match="pass wait_timeout="):
        await resolve(flash.wait_for_gateway_balance(ADDRESS, 8453, at_least=1, timeout=30))


@pytest.mark.parametrize("flavour", ["sync", "async"])
async def test_a_wait_keeps_its_own_limits_and_per_call_options(flavour: str) -> None:
    sandbox = Sandbox()
    relayer: Any = sandbox.relayer_client() if flavour == "sync" else sandbox.async_relayer_client()
    tx_id = await resolve(relayer.relay(chain_id=8453, to="0x" + "11" * 20, call_data="0x"))
    record = await resolve(
        relayer.wait_for_execution_hash(
            tx_id, timeout_ms=60_000, poll_interval_ms=100, max_retries=0
        )
    )
    assert record.status == "EXECUTED"


# A call that waits when asked (``wait=True``) takes the same care: its ``timeout=``
# would read as the wait's limit. Each is refused before anything is sent; with
# ``wait=False`` the option is each request's, as for any call.
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
WAITING_CALLS: list[tuple[str, str, dict[str, Any]]] = [
    (
        "flash",
        "swap",
        {
            "input_amount": 1_000_000,
            "output_token": "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1",
            "chain_id": 42161,
            "slippage": "0.5",
        },
    ),
    (
        "routing",
        "gasless_swap",
        {
            "from_chain": 8453,
            "to_chain": 42161,
            "from_token": USDC_BASE,
            "to_token": "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1",
            "amount": 1_000_000,
        },
    ),
]


@pytest.mark.parametrize("flavour", ["sync", "async"])
@pytest.mark.parametrize(("service", "method", "kwargs"), WAITING_CALLS)
async def test_a_call_that_waits_refuses_timeout_before_sending(
    flavour: str, service: str, method: str, kwargs: dict[str, Any]
) -> None:
    from xswap_sdk.testing import TEST_SIGNER

    with Sandbox() as sandbox:
        prefix = "" if flavour == "sync" else "async_"
        client = getattr(sandbox, f"{prefix}{service}_client")()
        call = getattr(client, method)
        with pytest.raises(errors.InvalidInputError) as info:
            await resolve(call(TEST_SIGNER, **kwargs, wait=True, timeout=30))
        assert sandbox.requests.select(service, "POST") == []
        assert sandbox.requests.select(service, "GET") == []
    assert info.value.argument == "timeout"
    assert "pass wait_timeout=" in str(info.value)
    assert "with_options(timeout=" in str(info.value)
