"""The routing models of chains (``/supported-chains``), re-exported by
`xswap_sdk.routing.models`: all a client's first read builds."""

from __future__ import annotations

from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, WireModel

__all__ = [
    "ChainFeatures",
    "NativeToken",
    "SupportedChain",
]

# ---------------------------------------------------------------------------- chains


class NativeToken(WireModel):
    """A chain's native token."""

    symbol: str
    """The token's symbol."""
    name: str
    """The token's name."""
    decimals: LenientInt
    """The token's decimals."""
    logo_url: str
    """The token's logo."""
    marketdata_id: str
    """The token's market-data id."""


class ChainFeatures(WireModel):
    """What the routing service supports on a chain."""

    gasless_swaps: bool
    """Gasless (Permit2) swaps."""
    cross_chain: bool
    """Cross-chain routes."""
    permit2: bool
    """Permit2 acquisition."""


class SupportedChain(WireModel):
    """A chain from ``GET /supported-chains`` (authoritative for support and features)."""

    id: LenientInt
    """The chain id."""
    name: str
    """Lowercase key, e.g. ``base``."""
    display_name: str
    """The chain's display name."""
    logo_url: str
    """The chain's logo."""
    explorer_url: str
    """The chain's block explorer."""
    public_rpc_url: str
    """A public RPC endpoint."""
    service_contract: LenientAddress
    """The routing contract's address on this chain."""
    chain_type: str
    """``evm`` in every documented entry."""
    is_testnet: bool
    """Whether it is a test network."""
    native_token: NativeToken
    """The chain's native token."""
    features: ChainFeatures
    """What the service supports on it."""


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.routing.models")
