"""The clients a command uses, configured as the SDK's own are: from the ``XSWAP_*``
environment variables (URLs, API keys, the swap backend's JWT). Each is imported when a
command asks for it, so ``xswap --version`` and ``--help`` load none."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..flash import FlashClient
    from ..gateway import GatewayClient
    from ..relayer import RelayerClient
    from ..routing import RoutingClient

__all__ = ["flash", "gateway", "relayer", "routing"]


def flash() -> FlashClient:
    """``XSWAP_FLASH_URL``; ``XSWAP_FLASH_JWT`` for the history."""
    # lazy: a command loads only the client it uses
    from ..flash import FlashClient

    return FlashClient()


def gateway() -> GatewayClient:
    """``XSWAP_GATEWAY_URL``."""
    # lazy: a command loads only the client it uses
    from ..gateway import GatewayClient

    return GatewayClient()


def relayer() -> RelayerClient:
    """``XSWAP_RELAYER_URL`` and ``XSWAP_RELAYER_API_KEY``."""
    # lazy: a command loads only the client it uses
    from ..relayer import RelayerClient

    return RelayerClient()


def routing() -> RoutingClient:
    """``XSWAP_ROUTING_URL`` and ``XSWAP_ROUTING_API_KEY``."""
    # lazy: a command loads only the client it uses
    from ..routing import RoutingClient

    return RoutingClient()
