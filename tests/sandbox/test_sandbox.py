"""The `Sandbox` itself: addresses, wiring of the clients, the request log, closing and
determinism."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from xswap_sdk import SystemClock, VirtualClock
from xswap_sdk.sandbox import Sandbox

TX = {"to": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "callData": "0x", "chainId": 8453}


def test_one_host_one_prefix_per_service() -> None:
    sb = Sandbox()
    assert (sb.flash_url, sb.routing_url, sb.relayer_url) == (
        "https://sandbox.invalid/flash",
        "https://sandbox.invalid/routing",
        "https://sandbox.invalid/relayer",
    )
    with pytest.raises(ValueError, match="one of"):
        sb.url("bank")


def test_the_index_names_the_services_and_keys(sb: Sandbox, http: httpx.Client) -> None:
    index = http.get("/").json()
    urls = {name: service["url"] for name, service in index["services"].items()}
    assert urls == {
        "flash": sb.flash_url,
        "routing": sb.routing_url,
        "relayer": sb.relayer_url,
        "gateway": sb.url("gateway"),
    }
    assert index["apiKeys"]["relayer"] == sb.relayer.api_key
    assert http.get("/bank/x").status_code == 404


def test_clients_are_wired_to_the_sandbox_and_share_its_clock(sb: Sandbox) -> None:
    relayer = sb.relayer_client()
    routing = sb.async_routing_client(max_retries=0)
    assert relayer.base_url == sb.relayer_url
    assert relayer.clock is sb.clock
    assert routing.base_url == sb.routing_url
    assert routing.max_retries == 0
    assert "api_key=set" in repr(relayer)


def test_the_request_log_records_what_the_services_saw(sb: Sandbox) -> None:
    relayer = sb.relayer_client()
    relayer.get_supported_chains()
    seen = sb.requests[-1]
    assert (seen.service, seen.method, seen.path, seen.status) == (
        "relayer",
        "GET",
        "/api/supported-chains",
        200,
    )
    assert len(sb.requests.select("relayer", "get", "/api/supported-chains")) == 1
    assert sb.requests.select("flash") == []


def test_closing_closes_every_client_it_made() -> None:
    sb = Sandbox()
    sync = sb.relayer_client()
    async_client = sb.async_relayer_client()
    http = sb.http_client()
    sb.close()
    assert http.is_closed
    with pytest.raises(RuntimeError, match="closed"):
        sync.get_supported_chains()
    with pytest.raises(RuntimeError, match="closed"):
        asyncio.run(async_client.get_supported_chains())


async def test_async_with_closes_from_async_code() -> None:
    async with Sandbox() as sb:
        client = sb.async_relayer_client()
        assert await client.is_chain_supported(8453)
    with pytest.raises(RuntimeError, match="closed"):
        # refresh: the list read above is kept, and no request would be sent.
        await client.get_supported_chains(refresh=True)


def transcript(seed: int) -> list[bytes]:
    with Sandbox(seed=seed) as sb:
        http = sb.http_client()
        key = {"api-key": sb.relayer.api_key}
        submitted = http.post(f"{sb.relayer_url}/api/submit-tx", json=TX, headers=key)
        tx_id = submitted.json()["data"]["txId"]
        sb.wait(5)
        record = http.get(f"{sb.relayer_url}/api/tx", params={"id": tx_id}, headers=key)
        return [submitted.content, record.content]


def test_the_same_seed_gives_the_same_bytes() -> None:
    assert transcript(7) == transcript(7)
    assert transcript(7) != transcript(8)


def test_default_clock_is_virtual_and_a_system_clock_can_be_given() -> None:
    assert isinstance(Sandbox().clock, VirtualClock)
    assert isinstance(Sandbox(clock=SystemClock()).clock, SystemClock)
    with pytest.raises(ValueError, match="seed"):
        Sandbox(seed="1")  # type: ignore[arg-type]
