"""The SDK over a caller's httpx2 client, with httpx installed beside it.

httpx2 (pydantic's API-identical continuation of httpx) is optional: these tests run
when it is installed, as the dev extra installs it. Over real sockets (the fault server,
tests/faultserver.py) an httpx2 client ends every fault in the same typed error, with
the same outcome, as an httpx one (the hostile-network matrix, run again); against the
sandbox, every service answers through it; and what the SDK gives back stays httpx's
types (headers, timeouts), whichever library carried the request.
"""

from __future__ import annotations

import socket
from typing import Any

import httpx
import pytest

from xswap_sdk import (
    AsyncRelayerClient,
    RelayerClient,
    errors,
)
from xswap_sdk._concurrency import pool_size
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from .faultserver import FaultServer, delayed, json_reply, redirect
from .support import ADDRESS, FLASH_SWAP, resolve
from .test_hostile_network import CALLS, FAULTS, KEY, Call, Fault

httpx2 = pytest.importorskip("httpx2")

USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
WETH_ARBITRUM = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"


def httpx2_client(kind: str, **settings: Any) -> Any:
    return (httpx2.Client if kind == "sync" else httpx2.AsyncClient)(**settings)


async def close(client: Any) -> None:
    await resolve(client.close() if hasattr(client, "close") else client.aclose())


# -------------------------------------------------------------------- over real sockets


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
@pytest.mark.parametrize(
    "call", CALLS, ids=[f"{c.service}-{'money' if c.money else 'read'}" for c in CALLS]
)
async def test_every_fault_ends_as_it_does_over_httpx(kind: str, call: Call, fault: Fault) -> None:
    with FaultServer() as server:
        for _ in range(3):
            server.enqueue(fault.reply())
        http_client = httpx2_client(kind)
        cls = call.clients[0 if kind == "sync" else 1]
        client = cls(
            base_url=f"{server.url}/{call.service}", http_client=http_client, **call.credentials
        )
        with pytest.raises(errors.XSwapError) as info:
            await resolve(call.call(client))
        await close(client)
        await close(http_client)
        assert isinstance(info.value, fault.error), info.value
        sent = len(server.requests)
        if call.money:
            assert sent == 1
            assert info.value.outcome_unknown is True
        else:
            assert sent == (3 if fault.read_retried else 1)
            assert info.value.outcome_unknown is False
        # What the SDK hands back is httpx's, whichever library carried the request.
        if isinstance(info.value, errors.APIStatusError):
            assert isinstance(info.value.headers, httpx.Headers)
        if isinstance(info.value, errors.APIConnectionError):
            assert isinstance(info.value.__cause__, httpx2.HTTPError)


async def test_a_redirect_is_not_followed_by_an_httpx2_client_that_follows_them(
    kind: str,
) -> None:
    with FaultServer() as server:
        server.enqueue(redirect(307, f"{server.url}/elsewhere/api/submit-tx"))
        http_client = httpx2_client(kind, follow_redirects=True)
        cls = RelayerClient if kind == "sync" else AsyncRelayerClient
        client = cls(api_key=KEY, base_url=f"{server.url}/relayer", http_client=http_client)
        with pytest.raises(errors.RedirectError) as info:
            await resolve(client.submit_tx(to=ADDRESS, call_data="0x", chain_id=8453))
        await close(http_client)
        assert [r.path for r in server.requests] == ["/relayer/api/submit-tx"]
        assert info.value.location_origin == server.url


async def test_a_read_timeout_names_its_phase_and_a_payment_is_not_resent(kind: str) -> None:
    with FaultServer() as server:
        for _ in range(3):
            server.enqueue(delayed(json_reply({"success": True, "data": {}}), 1.0))
        http_client = httpx2_client(kind)
        cls = RelayerClient if kind == "sync" else AsyncRelayerClient
        client = cls(
            api_key=KEY, base_url=f"{server.url}/relayer", timeout=0.2, http_client=http_client
        )
        with pytest.raises(errors.APITimeoutError) as info:
            await resolve(client.submit_tx(to=ADDRESS, call_data="0x", chain_id=8453))
        await close(http_client)
        assert len(server.requests) == 1
        assert "read timed out after 0.2 s" in str(info.value)
        assert info.value.outcome_unknown is True


async def test_a_refused_connection_was_never_sent_and_a_read_is_retried(kind: str) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]  # closed when the block ends: nothing listens
    http_client = httpx2_client(kind)
    cls = RelayerClient if kind == "sync" else AsyncRelayerClient
    client = cls(api_key=KEY, base_url=f"http://127.0.0.1:{port}", http_client=http_client)
    with pytest.raises(errors.APIConnectionError) as info:
        await resolve(client.get_relay_status("65f1a2b3c4d5e6f708192a3b", max_retries=1))
    await close(http_client)
    assert info.value.request_sent is False
    assert info.value.attempts == 2
    assert "before the request was sent (ConnectError)" in str(info.value)


# ---------------------------------------------------------------------- against the sandbox


def bridged(sb: Sandbox, kind: str) -> Any:
    """An httpx2 client whose transport is the sandbox (which speaks httpx)."""

    def handle(request: Any) -> Any:
        answer = sb._handle(
            httpx.Request(
                request.method,
                str(request.url),
                headers=request.headers.raw,
                content=request.read(),
            )
        )
        return httpx2.Response(
            answer.status_code, headers=answer.headers.raw, content=answer.read()
        )

    return httpx2_client(kind, transport=httpx2.MockTransport(handle))


def sandbox_client(sb: Sandbox, kind: str, service: str, **settings: Any) -> Any:
    """The sandbox's own client of ``service`` (its pins, keys and clock), over httpx2."""
    factory = getattr(sb, f"{service}_client" if kind == "sync" else f"async_{service}_client")
    return factory(http_client=bridged(sb, kind), **settings)


async def test_every_service_answers_through_an_httpx2_client(kind: str) -> None:
    with Sandbox() as sb:
        sb.fund(TEST_SIGNER.address, 8453, 30_000_000)
        relayer = sandbox_client(sb, kind, "relayer")
        tx_id = await resolve(relayer.relay(chain_id=8453, to=USDC_BASE, call_data="0x"))
        executed = await resolve(relayer.wait_for_execution_hash(tx_id))
        assert executed.status == "EXECUTED"
        flash = sandbox_client(sb, kind, "flash", signer=TEST_SIGNER)
        swapped = await resolve(
            flash.swap(
                TEST_SIGNER,
                **FLASH_SWAP,
                wait=True,
            )
        )
        assert swapped.status == "completed"
        routing = sandbox_client(sb, kind, "routing")
        routes = await resolve(
            routing.get_quote(
                from_chain=8453,
                to_chain=42161,
                from_token=USDC_BASE,
                to_token=WETH_ARBITRUM,
                amount=25_000_000,
                sender=TEST_SIGNER.address,
            )
        )
        assert routes
        gateway = sandbox_client(sb, kind, "gateway")
        balances = await resolve(gateway.get_balances(TEST_SIGNER.address, chain_ids=[8453]))
        assert balances.total < 30_000_000  # the swap spent from it
        with relayer.capture_responses() as responses:
            await resolve(relayer.get_relay_status(tx_id))
        assert isinstance(responses[0].headers, httpx.Headers)
        assert responses[0].status_code == 200


def test_the_client_s_own_settings_read_as_httpx_types() -> None:
    http_client = httpx2.Client(timeout=httpx2.Timeout(7.0, connect=2.0))
    relayer = RelayerClient(api_key=KEY, http_client=http_client)
    assert relayer.timeout == httpx.Timeout(7.0, connect=2.0)
    # The pool's size is read as httpcore's is, but httpcore2's pool needs no in-flight
    # gate (see xswap_sdk._concurrency); an httpx client of the same size gets one.
    assert pool_size(http_client) == 100
    assert relayer._transport.pool.gate is None
    assert relayer._transport.pool.stack.name == "httpx2"
    assert RelayerClient(api_key=KEY, http_client=httpx.Client())._transport.pool.gate.size == 100
    http_client.close()


def test_a_client_of_the_wrong_kind_is_refused_naming_both_libraries() -> None:
    with pytest.raises(errors.InvalidInputError, match=r"httpx\.Client or an httpx2\.Client"):
        RelayerClient(api_key=KEY, http_client=httpx2.AsyncClient())
    with pytest.raises(errors.InvalidInputError, match=r"httpx\.AsyncClient or an httpx2\."):
        AsyncRelayerClient(api_key=KEY, http_client=httpx2.Client())
    with pytest.raises(errors.InvalidInputError, match="http_client"):
        RelayerClient(api_key=KEY, http_client=object())
