"""A relayed transaction's record: the models a status read validates.

Written apart from `xswap_sdk.relayer.models`, which exports them and names itself
their module, so that a fresh process's first read builds these two classes and not
the relayer's other models (its account, chain and request models, and the EIP-7702
types they pull in).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Final, Literal

from pydantic import Field

from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, WireModel

__all__ = ["TERMINAL_STATES", "RelayState", "RelayStatus", "X402Payment"]

RelayState = Literal["NOT_PICKED_UP", "PENDING", "EXECUTED", "FAILED", "NEEDS_TO_BE_RETRIED"]
"""The documented relayer states. The service may add others; fields typed
``RelayState | str`` accept them."""

TERMINAL_STATES: Final = frozenset({"EXECUTED", "FAILED"})
"""The states a relayed transaction never leaves."""

_Timestamp = Annotated[datetime | str | None, Field(union_mode="left_to_right")]


class X402Payment(WireModel):
    """How a keyless submission was paid (``x402Payment`` of the relayer's answer):
    an x402 payment from the payer's Circle Gateway balance."""

    type: str | None = None
    """The payment's kind (``"x402-gateway"``)."""
    amount: LenientInt | None = None
    """What was paid, in smallest USDC units."""
    amount_usd: Decimal | None = None
    """What was paid, in USD."""
    network: str | None = None
    """The network paid on, as x402 names it (``"eip155:8453"``)."""
    transaction: str | None = None
    """Gateway's id of the batched transfer that settles it."""
    settled_at: _Timestamp = None
    """When Gateway accepted it."""
    payer: str | None = None
    """Who paid."""


class RelayStatus(WireModel):
    """A relayed transaction's record (``GET /api/tx``), in the union of the spec's HTTP
    record and the JavaScript client's status object."""

    id: str
    """The relayer's transaction id (``txId`` of the submission)."""
    status: RelayState | str
    """``NOT_PICKED_UP``, ``PENDING``, ``EXECUTED``, ``FAILED`` or ``NEEDS_TO_BE_RETRIED``
    (an open set)."""
    user_id: str
    """The relayer account that submitted it."""
    to: LenientAddress
    """The target address (checksummed)."""
    call_data: str
    """The calldata, as hex."""
    value: LenientInt
    """Native value sent with it, in wei."""
    chain_id: LenientInt
    """The chain it runs on."""
    cost_usd: Decimal = Field(alias="costUSD")
    """What the gas cost, in USD (0 before execution)."""
    gas_price: LenientInt | None = None
    """Legacy gas price in wei; null until the relayer prices it."""
    max_fee_per_gas: LenientInt | None = None
    """EIP-1559 fee cap in wei; null until the relayer prices it."""
    max_priority_fee_per_gas: LenientInt | None = None
    """EIP-1559 tip in wei; null until the relayer prices it."""
    gas_limit: LenientInt | None = None
    """The gas limit; the live relayer sends null before execution."""
    label: str | None = None
    """The label given at submission; ``None`` when none was given (``label`` is
    optional on submit)."""
    execution_tx_hash: str | None = None
    """The on-chain hash once executed; ``None`` before."""
    timestamp: _Timestamp = None
    """When the transaction was submitted (the client library's field)."""
    latency: float | None = None
    """Execution latency in milliseconds; null before execution."""
    error: str | dict[str, Any] | None = None
    """The failure message, when the status is FAILED."""
    retries: LenientInt | None = None
    """How many times the relayer retried it (live, not in the spec)."""
    transaction_type: str | None = None
    """The transaction type, e.g. ``flash`` (live, not in the spec)."""
    x402_payment: X402Payment | None = Field(default=None, alias="x402Payment")
    """How a keyless ``relay_sync`` was paid (x402), when the answer says."""

    @property
    def is_terminal(self) -> bool:
        """Whether the status is EXECUTED or FAILED."""
        return self.status in TERMINAL_STATES

    @property
    def error_message(self) -> str | None:
        """The failure message as text, whichever shape the relayer used."""
        if isinstance(self.error, dict):
            message = self.error.get("message")
            return str(message) if message is not None else str(self.error)
        return self.error


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.relayer.models")
