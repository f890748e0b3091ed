"""Models of the transaction relayer: what it returns, and the submit request.

Response models read tolerantly: every field but the id may be missing or null (before
execution the relayer sends ``gasLimit``, ``gasPrice``, ``latency`` and
``executionTxHash`` as null), statuses are an open set, and fields the SDK does not
know are kept.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Final, Literal

from pydantic import Field, PlainSerializer, StrictBool, StrictInt, StrictStr

from .._models import LenientAddress, LenientInt, RequestModel, WireModel
from ..types import Address, ChainId, HexBytes, TokenAmount

__all__ = [
    "AccountInfo",
    "NativeCurrency",
    "RelayState",
    "RelayStatus",
    "RelayerChain",
    "SubmitTxRequest",
    "SubmitTxResult",
    "TERMINAL_STATES",
]

RelayState = Literal["NOT_PICKED_UP", "PENDING", "EXECUTED", "FAILED", "NEEDS_TO_BE_RETRIED"]
"""The documented relayer states. The service may add others; fields typed
``RelayState | str`` accept them."""

TERMINAL_STATES: Final = frozenset({"EXECUTED", "FAILED"})

_Timestamp = Annotated[datetime | str | None, Field(union_mode="left_to_right")]


class SubmitTxResult(WireModel):
    """What ``POST /api/submit-tx`` returns."""

    tx_id: str
    """The relayer's transaction id (24 hex characters on the live service)."""


class RelayStatus(WireModel):
    """A relayed transaction's record (``GET /api/tx``), in the union of the spec's HTTP
    record and the JavaScript client's status object."""

    id: str
    status: RelayState | str
    user_id: str | None = None
    to: LenientAddress | None = None
    call_data: str | None = None
    value: LenientInt | None = None
    chain_id: LenientInt | None = None
    gas_price: LenientInt | None = None
    max_fee_per_gas: LenientInt | None = None
    max_priority_fee_per_gas: LenientInt | None = None
    gas_limit: LenientInt | None = None
    label: str | None = None
    execution_tx_hash: str | None = None
    """The on-chain hash once executed; ``None`` before."""
    cost_usd: Decimal | None = Field(default=None, alias="costUSD")
    timestamp: _Timestamp = None
    """When the transaction was submitted."""
    latency: float | None = None
    """Execution latency in milliseconds."""
    error: str | dict[str, Any] | None = None
    """The failure message, when the status is FAILED."""
    retries: LenientInt | None = None
    transaction_type: str | None = None

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


class NativeCurrency(WireModel):
    """A chain's native currency."""

    name: str | None = None
    symbol: str | None = None
    decimals: int | None = None


class RelayerChain(WireModel):
    """A chain the relayer supports (the JavaScript client's Chain object)."""

    id: int
    name: str | None = None
    icon_url: str | None = None
    is_testnet: bool | None = None
    native_currency: NativeCurrency | None = None
    block_explorers: Any = None


class AccountInfo(WireModel):
    """A relayer account (``GET /api/user``)."""

    user_id: str | None = None
    address: LenientAddress | None = None
    available_balance: Decimal | None = None
    pending_balance: Decimal | None = None
    default_relayer_account: Any = None


_UsdCap = Annotated[
    Decimal,
    Field(gt=0, allow_inf_nan=False),
    # The service documents maxUSD as a JSON number.
    PlainSerializer(float, return_type=float, when_used="json"),
]


class SubmitTxRequest(RequestModel):
    """The body of ``POST /api/submit-tx`` (and ``tx`` in ``/api/submit-tx-sync``).

    Amounts are integers in wei (or the chain's smallest native unit), sent as decimal
    strings.
    """

    to: Address
    call_data: HexBytes
    chain_id: Annotated[ChainId, Field(gt=0)]
    value: TokenAmount = 0
    should_batch_in_multicall: StrictBool | None = None
    gas_price: TokenAmount | None = None
    max_priority_fee_per_gas: TokenAmount | None = None
    max_fee_per_gas: TokenAmount | None = None
    gas_limit: TokenAmount | None = None
    max_usd: _UsdCap | None = Field(default=None, serialization_alias="maxUSD")
    label: StrictStr | None = None
    max_gas: TokenAmount | None = None
    retries: Annotated[StrictInt, Field(ge=0)] | None = None
    transaction_type: StrictStr | None = None
    is_authenticated_tx: StrictBool | None = None
    derivation_path: StrictStr | None = None
    authorization_list: list[dict[str, Any]] | None = None
