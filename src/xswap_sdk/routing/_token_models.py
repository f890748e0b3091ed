"""The routing models of tokens (``/tokens``, ``/search-token``), re-exported by
`xswap_sdk.routing.models`; loaded at the first token call."""

from __future__ import annotations

from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, WireModel

__all__ = [
    "Token",
    "TokenSearchResult",
]

# ---------------------------------------------------------------------------- tokens


class Token(WireModel):
    """A token on one chain (``GET /tokens``; the spec does not show this answer, so
    only the address is required)."""

    address: LenientAddress
    """The token's address (checksummed when EVM)."""
    chain_id: LenientInt | None = None
    """The token's chain."""
    decimals: LenientInt | None = None
    """The token's decimals."""
    logo_url: str | None = None
    """The token's logo."""
    name: str | None = None
    """The token's name."""
    symbol: str | None = None
    """The token's symbol."""


class TokenSearchResult(WireModel):
    """A token matched by ``GET /search-token`` (by symbol, name or address)."""

    address: LenientAddress
    """The token's address (checksummed when EVM)."""
    chain_id: LenientInt
    """The token's chain."""
    decimals: LenientInt
    """The token's decimals."""
    logo_url: str
    """The token's logo."""
    name: str
    """The token's name."""
    symbol: str
    """The token's symbol."""


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.routing.models")
