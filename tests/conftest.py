"""Fixtures shared by the whole suite.

Client tests run twice, once with the blocking client and once with the async one: the
``kind`` fixture is parametrised, and `support.resolve` awaits a result only when it is
a coroutine, so one test body serves both.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from xswap_sdk import AsyncRelayerClient, RelayerClient
from xswap_sdk._clock import VirtualClock
from xswap_sdk.flash._login_message import forget_login_budgets

from .support import RELAYER_KEY, RELAYER_URL, resolve


@pytest.fixture(autouse=True)
def _fresh_login_budgets() -> None:
    # The login budget is shared per signer and host across the process: one test's
    # logins with the shared test key must not count against the next test's.
    forget_login_budgets()


@pytest.fixture(params=["sync", "async"])
def kind(request: pytest.FixtureRequest) -> str:
    """Which flavour of client a test runs with."""
    return str(request.param)


@pytest.fixture
def clock() -> VirtualClock:
    """Virtual time: retry waits and polling cost nothing and are recorded."""
    return VirtualClock()


@pytest.fixture
async def relayer(kind: str, clock: VirtualClock) -> AsyncIterator[Any]:
    """A relayer client (sync or async) pointed at the mocked relayer."""
    cls = RelayerClient if kind == "sync" else AsyncRelayerClient
    client = cls(api_key=RELAYER_KEY, base_url=RELAYER_URL, clock=clock)
    yield client
    await resolve(client.close() if isinstance(client, RelayerClient) else client.aclose())


@pytest.fixture
async def routing(kind: str, clock: VirtualClock) -> AsyncIterator[Any]:
    """A routing client (sync or async) with an API key, pointed at the mocked service."""
    from xswap_sdk import AsyncRoutingClient, RoutingClient

    from .support import ROUTING_KEY, ROUTING_URL

    cls = RoutingClient if kind == "sync" else AsyncRoutingClient
    client = cls(api_key=ROUTING_KEY, base_url=ROUTING_URL, clock=clock)
    yield client
    await resolve(client.close() if isinstance(client, RoutingClient) else client.aclose())


@pytest.fixture
async def keyless_routing(
    kind: str, clock: VirtualClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Any]:
    """A routing client (sync or async) with no API key, even from the environment."""
    from xswap_sdk import AsyncRoutingClient, RoutingClient

    from .support import ROUTING_URL

    monkeypatch.delenv("XSWAP_ROUTING_API_KEY", raising=False)
    cls = RoutingClient if kind == "sync" else AsyncRoutingClient
    client = cls(base_url=ROUTING_URL, clock=clock)
    yield client
    await resolve(client.close() if isinstance(client, RoutingClient) else client.aclose())
