"""Fixtures for the Gateway client tests: a client of either flavour, pointed at a mocked
API or at the sandbox."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from xswap_sdk._clock import VirtualClock
from xswap_sdk.gateway import AsyncGatewayClient, GatewayClient
from xswap_sdk.sandbox import Sandbox

from ..support import resolve

GATEWAY_URL = "https://gateway.test"


@pytest.fixture(autouse=True)
def _no_gateway_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XSWAP_GATEWAY_URL", raising=False)


@pytest.fixture
async def gateway(kind: str, clock: VirtualClock) -> AsyncIterator[Any]:
    """A Gateway client (sync or async) pointed at the mocked API."""
    cls = GatewayClient if kind == "sync" else AsyncGatewayClient
    client = cls(base_url=GATEWAY_URL, clock=clock)
    yield client
    await resolve(client.close() if isinstance(client, GatewayClient) else client.aclose())


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    """A fresh sandbox."""
    with Sandbox() as sandbox:
        yield sandbox


@pytest.fixture
def sb_gateway(kind: str, sb: Sandbox) -> Any:
    """A Gateway client (sync or async) wired to the sandbox."""
    return sb.gateway_client() if kind == "sync" else sb.async_gateway_client()
