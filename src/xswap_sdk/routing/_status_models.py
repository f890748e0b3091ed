"""The routing model of a route's status (``/status``), re-exported by
`xswap_sdk.routing.models`; loaded at the first status read."""

from __future__ import annotations

from typing import Any

from pydantic import (
    Field,
)

from .._exports import name_by_home
from .._models import LenientInt, WireModel
from ._model_types import (
    _RELAYER_TX_ID_ALIASES,
    RouteKind,
    _is_failed,
)

__all__ = [
    "StatusProvider",
    "TransactionStatus",
    "TxDetails",
]

# ---------------------------------------------------------------------------- status


class StatusProvider(WireModel):
    """The provider that carries a tracked transaction."""

    key: str
    """The provider's key."""
    name: str
    """The provider's name."""


class TxDetails(WireModel):
    """One side (source or destination) of a tracked transaction."""

    chain_id: LenientInt
    """The side's chain."""
    chain_logo: str
    """The chain's logo."""
    timestamp: LenientInt | None = None
    """When the side's transaction happened; ``None`` on a destination not reached yet."""
    tx_hash: str | None = None
    """The side's transaction hash; ``None`` on a destination not reached yet."""


class TransactionStatus(WireModel):
    """A swap or bridge's status (``GET /status``), in either documented shape.

    The spec's shape has ``status``, ``srcTxDetails`` and ``destTxDetails``; the other
    has ``state``, ``providerKey``, ``txRef``, ``sourceTxHash`` and ``destinationTxHash``.
    Both are read; `current_status`, `source_tx_hash_any` and `destination_tx_hash_any`
    look in both.
    """

    status: str | None = None
    """The status (spec shape); see `current_status` for either shape."""
    kind: str | None = None
    """``swap`` or ``bridge`` (spec shape)."""
    route_kind: RouteKind | str | None = None
    """The route kind."""
    swap_id: str | None = None
    """The swap's id (spec shape)."""
    relayer_tx_id: str | None = Field(default=None, **_RELAYER_TX_ID_ALIASES)
    """The relayer's transaction id (``relayerTxId``, or ``tachyonTxId`` live)."""
    updated_at_ms: LenientInt | None = None
    """When the record last changed, in Unix milliseconds."""
    provider: StatusProvider | None = None
    """The provider carrying it (spec shape)."""
    src_tx_details: TxDetails | None = None
    """The source side (spec shape)."""
    dest_tx_details: TxDetails | None = None
    """The destination side (spec shape)."""
    details: Any = None
    """Further details, kept as sent (may be null)."""
    from_token: Any = None
    """The input token, kept as sent."""
    to_token: Any = None
    """The output token, kept as sent."""
    execution_tx_hash: str | None = None
    """Not in the spec's ``/status`` record; read when the service sends it."""
    # The second documented shape.
    state: str | None = None
    """The status (second shape)."""
    provider_key: str | None = None
    """The provider's key (second shape)."""
    tx_ref: str | None = None
    """The tracked reference (second shape)."""
    source_tx_hash: str | None = None
    """The source transaction hash (second shape)."""
    destination_tx_hash: str | None = None
    """The destination transaction hash once known (second shape)."""

    @property
    def current_status(self) -> str | None:
        """``status``, or ``state`` in the second shape."""
        return self.status if self.status is not None else self.state

    @property
    def source_tx_hash_any(self) -> str | None:
        """The source-chain hash, from whichever shape the service used."""
        details = self.src_tx_details.tx_hash if self.src_tx_details else None
        return details or self.source_tx_hash

    @property
    def destination_tx_hash_any(self) -> str | None:
        """The destination-chain (or execution) hash once known, from either shape."""
        details = self.dest_tx_details.tx_hash if self.dest_tx_details else None
        return self.execution_tx_hash or details or self.destination_tx_hash

    @property
    def is_failed(self) -> bool:
        """Whether the status (or state) is ``failed``, in any case."""
        return _is_failed(self.current_status)


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.routing.models")
