"""The Flash models of chains (``/supported-chains``), re-exported by
`xswap_sdk.flash.models`: all a client's first read builds."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    BeforeValidator,
)

from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, WireModel

__all__ = [
    "Chain",
    "ChainToken",
]


def _version_text(value: Any) -> Any:
    # The spec does not give usdc.version's type: "2" and 2 both mean version "2".
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value


# ------------------------------------------------------------------------------ chains


class ChainToken(WireModel):
    """A token in a chain's configuration: the native token or USDC.

    The native token's address is the all-zero address. The live service sends the USDC
    address in lowercase; it is checksummed on the way in.
    """

    address: LenientAddress
    """The token's address (checksummed; all zeros for the native token)."""
    name: str
    """The token's name."""
    symbol: str
    """The token's symbol."""
    decimals: LenientInt
    """The token's decimals (6 for USDC)."""
    logo_url: str
    """The token's logo."""
    version: Annotated[str | None, BeforeValidator(_version_text)] = None
    """USDC's EIP-712 domain version, used for permits (``"2"`` for native USDC).
    Its type is not given by the spec: a number is read as its text."""


class Chain(WireModel):
    """A chain the backend serves (element of ``GET /supported-chains``)."""

    id: LenientInt
    """The EVM chain id."""
    name: str
    """The chain's name."""
    display_name: str
    """The chain's display name."""
    logo_url: str
    """The chain's logo."""
    explorer_url: str
    """The chain's block explorer."""
    domain: LenientInt
    """The Circle Gateway domain number (0 Ethereum, 3 Arbitrum, 6 Base, ...)."""
    router_address: LenientAddress
    """The swap router on this chain."""
    gateway_wallet: LenientAddress
    """The GatewayWallet contract, where USDC is deposited (burn intents' source)."""
    gateway_minter: LenientAddress
    """The GatewayMinter contract (burn intents' destination contract)."""
    native_token: ChainToken
    """The chain's native token (address all zeros)."""
    usdc: ChainToken
    """USDC on this chain."""


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.flash.models")
