"""The Flash models of Gateway balances (``/balance``), re-exported by
`xswap_sdk.flash.models`; loaded at the first balance read."""

from __future__ import annotations

from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, WireModel

__all__ = [
    "GatewayBalance",
    "GatewayBalanceEntry",
]

# ------------------------------------------------------------------------------ balances


class GatewayBalanceEntry(WireModel):
    """A user's gateway balance on one chain."""

    domain: LenientInt
    """The chain's Circle Gateway domain."""
    depositor: LenientAddress
    """The depositor (the user's wallet)."""
    balance: LenientInt
    """In smallest USDC units."""
    chain_id: LenientInt
    """The chain id."""
    chain_name: str
    """The chain's name."""


class GatewayBalance(WireModel):
    """A user's USDC in the gateway wallet, per chain (``GET /balance/{address}``)."""

    balances: list[GatewayBalanceEntry]
    """One entry per chain."""
    total_balance: LenientInt
    """Across all chains, in smallest USDC units."""

    def _repr_html_(self) -> str:
        from .. import _html  # lazy: a notebook's display only

        return _html.flash_balance_html(self)  # how a notebook shows it


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.flash.models")
