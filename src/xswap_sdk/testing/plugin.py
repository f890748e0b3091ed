"""The xswap_sdk pytest plugin: fixtures for the sandbox, its clients and a signer.

Loaded through the ``pytest11`` entry point once ``xswap-sdk`` is installed (or with
``-p xswap_sdk.testing.plugin``). Every fixture is function-scoped and starts from a
fresh sandbox, so tests never see each other's state. Nothing is imported until a
fixture is used, so projects that never use them pay nothing.

Fixtures:

- ``xswap_sandbox``: a `Sandbox` (seed 0, a `VirtualClock`); configure it with
  ``@pytest.mark.xswap_sandbox(seed=7)``, whose arguments go to `Sandbox`.
- ``xswap_clock``: the sandbox's clock.
- ``xswap_signer``: `xswap_sdk.testing.TEST_SIGNER`.
- ``xswap_flash``, ``xswap_routing``, ``xswap_relayer``, ``xswap_gateway``: blocking
  clients wired to the sandbox (the flash client holds ``xswap_signer`` and logs in with
  it; the gateway client talks to the sandbox's Circle Gateway API).
- ``xswap_async_flash``, ``xswap_async_routing``, ``xswap_async_relayer``,
  ``xswap_async_gateway``: the async clients; await their methods in your async tests
  (pytest-asyncio or anyio).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from eth_account.signers.local import LocalAccount

    from .._clock import Clock
    from ..flash import AsyncFlashClient, FlashClient
    from ..gateway import AsyncGatewayClient, GatewayClient
    from ..relayer import AsyncRelayerClient, RelayerClient
    from ..routing import AsyncRoutingClient, RoutingClient
    from ..sandbox import Sandbox

__all__ = [
    "pytest_configure",
    "xswap_async_flash",
    "xswap_async_gateway",
    "xswap_async_relayer",
    "xswap_async_routing",
    "xswap_clock",
    "xswap_flash",
    "xswap_gateway",
    "xswap_relayer",
    "xswap_routing",
    "xswap_sandbox",
    "xswap_signer",
]


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``xswap_sandbox`` marker."""
    config.addinivalue_line(
        "markers",
        "xswap_sandbox(**kwargs): arguments for the xswap_sandbox fixture's Sandbox (seed=...)",
    )


@pytest.fixture
def xswap_sandbox(request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    """A fresh sandbox, closed (with every client it made) after the test."""
    # lazy: the sandbox (about 2 s), only for a test that asks for it
    from ..sandbox import Sandbox

    marker = request.node.get_closest_marker("xswap_sandbox")
    with Sandbox(**(marker.kwargs if marker else {})) as sandbox:
        yield sandbox


@pytest.fixture
def xswap_clock(xswap_sandbox: Sandbox) -> Clock:
    """The sandbox's clock (a `VirtualClock` unless the marker chose another)."""
    return xswap_sandbox.clock


@pytest.fixture
def xswap_signer() -> LocalAccount:
    """The fixed test signer (`xswap_sdk.testing.TEST_SIGNER`)."""
    # lazy: eth_account, only for a test that asks for the signer; pytest loads this at every start
    from . import TEST_SIGNER

    return TEST_SIGNER


@pytest.fixture
def xswap_flash(xswap_sandbox: Sandbox, xswap_signer: LocalAccount) -> FlashClient:
    """A `FlashClient` wired to the sandbox, logging in with ``xswap_signer``."""
    return xswap_sandbox.flash_client(signer=xswap_signer)


@pytest.fixture
def xswap_async_flash(xswap_sandbox: Sandbox, xswap_signer: LocalAccount) -> AsyncFlashClient:
    """An `AsyncFlashClient` wired to the sandbox, logging in with ``xswap_signer``."""
    return xswap_sandbox.async_flash_client(signer=xswap_signer)


@pytest.fixture
def xswap_routing(xswap_sandbox: Sandbox) -> RoutingClient:
    """A `RoutingClient` wired to the sandbox."""
    return xswap_sandbox.routing_client()


@pytest.fixture
def xswap_async_routing(xswap_sandbox: Sandbox) -> AsyncRoutingClient:
    """An `AsyncRoutingClient` wired to the sandbox."""
    return xswap_sandbox.async_routing_client()


@pytest.fixture
def xswap_relayer(xswap_sandbox: Sandbox) -> RelayerClient:
    """A `RelayerClient` wired to the sandbox."""
    return xswap_sandbox.relayer_client()


@pytest.fixture
def xswap_async_relayer(xswap_sandbox: Sandbox) -> AsyncRelayerClient:
    """An `AsyncRelayerClient` wired to the sandbox."""
    return xswap_sandbox.async_relayer_client()


@pytest.fixture
def xswap_gateway(xswap_sandbox: Sandbox) -> GatewayClient:
    """A `GatewayClient` wired to the sandbox's Circle Gateway API."""
    return xswap_sandbox.gateway_client()


@pytest.fixture
def xswap_async_gateway(xswap_sandbox: Sandbox) -> AsyncGatewayClient:
    """An `AsyncGatewayClient` wired to the sandbox's Circle Gateway API."""
    return xswap_sandbox.async_gateway_client()
