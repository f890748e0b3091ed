"""The Flash models of a swap's submission (``POST /swap``), re-exported by
`xswap_sdk.flash.models`; loaded at the first swap."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    Field,
    PrivateAttr,
)

from .._exports import name_by_home
from .._models import RequestModel, WireModel
from ..types import (
    Address,
    ChainId,
    HexBytes,
)
from ._history_models import SwapRecord
from ._model_types import (
    SwapStatus,
)

__all__ = [
    "SwapRequest",
    "SwapSubmission",
]

# ------------------------------------------------------------------------------ swaps


class SwapRequest(RequestModel):
    """The body of ``POST /swap``.

    ``signed_order`` is the ``signedOrder`` array exactly as signed (see
    `SignedOrder.to_wire`); every other field comes from the quote.
    """

    signed_order: list[dict[str, Any]] = Field(min_length=1, repr=False)
    """The signed burn intents; holds the signature, so it is left out of ``repr``."""
    user_address: Address
    """The user's wallet."""
    chain_id: Annotated[ChainId, Field(gt=0)]
    """The destination chain."""
    swap_router_address: Address
    """The quote's ``swap_router_address``."""
    swap_calldata: HexBytes
    """The quote's ``swap_calldata``."""
    slippage_bps: Annotated[int, Field(ge=0, le=10_000, strict=True)]
    """Slippage in basis points (150 = 1.5 %)."""


class SwapSubmission(WireModel):
    """The answer of ``POST /swap`` (``status`` is ``pending`` on acceptance).

    After `FlashClient.swap` with ``wait=True``, `record` holds the swap's final history
    record.
    """

    transaction_hash: str
    """The swap's transaction hash; follow it in the history."""
    status: SwapStatus | str
    """``pending`` on acceptance; after a waited swap, the final status."""
    message: str
    """The backend's message."""

    _record: SwapRecord | None = PrivateAttr(default=None)

    @property
    def record(self) -> SwapRecord | None:
        """The completed history record, when the swap was waited for."""
        return self._record


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.flash.models")
