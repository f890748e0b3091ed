"""Fixtures shared by the whole suite.

Client tests run twice, once with the blocking client and once with the async one: the
``kind`` fixture is parametrised, and `support.resolve` awaits a result only when it is
a coroutine, so one test body serves both.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Iterator
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


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """A PostgreSQL server for the session (see ``tests/postgres.py``): started on first
    use, stopped at the end; the tests that need one are skipped, with how to get one,
    where none can be had (and fail instead under ``XSWAP_TEST_POSTGRES_REQUIRED=1``)."""
    from . import postgres

    try:
        server = postgres.start_server()
    except postgres.UnavailableError as exc:
        if os.environ.get(postgres.REQUIRED_ENV) == "1":
            pytest.fail(f"{postgres.REQUIRED_ENV}=1, and {exc}")
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def postgres_url(postgres_server: Any, request: pytest.FixtureRequest) -> Iterator[str]:
    """A libpq URL (password included) of a fresh database for the test module."""
    from . import postgres

    name = "t_" + re.sub(r"\W", "_", request.module.__name__.rsplit(".", 1)[-1]).lower()[:50]
    url = postgres.create_database(postgres_server.url, name)
    yield url
    postgres.drop_database(postgres_server.url, name)
