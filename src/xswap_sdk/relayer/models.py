"""Models of the transaction relayer: what it returns, and the submit request.

Response models read tolerantly: statuses are an open set and fields the SDK does not
know are kept. A field the spec lists is required, so a typed caller needs no ``None``
check for it; only what the spec marks nullable, or what the live relayer sends as null
(before execution: ``gasLimit``, ``gasPrice``, ``latency`` and ``executionTxHash``), or
what the spec does not promise, is optional. A missing required field raises
`xswap_sdk.errors.ResponseValidationError` naming it.
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
"""The states a relayed transaction never leaves."""

_Timestamp = Annotated[datetime | str | None, Field(union_mode="left_to_right")]


class SubmitTxResult(WireModel):
    """What ``POST /api/submit-tx`` returns."""

    tx_id: str
    """The relayer's transaction id (24 hex characters on the live service)."""


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
    """A chain's native currency (its fields are not listed by the spec)."""

    name: str | None = None
    """The currency's name, e.g. ``Ether``."""
    symbol: str | None = None
    """The currency's symbol, e.g. ``ETH``."""
    decimals: int | None = None
    """Its decimals (18 on EVM chains)."""


class RelayerChain(WireModel):
    """A chain the relayer supports (the JavaScript client's Chain object)."""

    id: int
    """The EVM chain id."""
    name: str
    """The chain's name."""
    icon_url: str
    """The chain's icon."""
    is_testnet: bool
    """Whether it is a test network."""
    native_currency: NativeCurrency
    """Its native currency."""
    block_explorers: Any
    """Its block explorers, kept as sent (the spec does not give their shape)."""


class AccountInfo(WireModel):
    """A relayer account (``GET /api/user``)."""

    user_id: str
    """The account's id."""
    address: LenientAddress
    """The wallet address asked about (checksummed)."""
    available_balance: Decimal
    """Prepaid balance that can pay for transactions, in USD."""
    pending_balance: Decimal
    """Balance reserved for transactions in flight, in USD."""
    default_relayer_account: Any
    """The account's default relayer account, kept as sent (its shape is not given)."""


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
    """The recipient or contract to call."""
    call_data: HexBytes
    """The calldata, as 0x hex (``"0x"`` for none)."""
    chain_id: Annotated[ChainId, Field(gt=0)]
    """The chain to execute on."""
    value: TokenAmount = 0
    """Native value to send, in wei."""
    should_batch_in_multicall: StrictBool | None = None
    """Let the relayer batch it in a multicall (default false)."""
    gas_price: TokenAmount | None = None
    """A legacy gas price in wei (not with the EIP-1559 fields)."""
    max_priority_fee_per_gas: TokenAmount | None = None
    """EIP-1559 tip in wei."""
    max_fee_per_gas: TokenAmount | None = None
    """EIP-1559 fee cap in wei."""
    gas_limit: TokenAmount | None = None
    """The most gas it may use."""
    max_usd: _UsdCap | None = Field(default=None, serialization_alias="maxUSD")
    """The most its gas may cost, in USD (``maxUSD``)."""
    label: StrictStr | None = None
    """A label of your own, echoed in the record."""
    max_gas: TokenAmount | None = None
    """``maxGas``, as in the spec's example (its meaning is not documented)."""
    retries: Annotated[StrictInt, Field(ge=0)] | None = None
    """How many times the relayer may retry it (live docs)."""
    transaction_type: StrictStr | None = None
    """The transaction type (live docs; the relayer defaults to ``flash``)."""
    is_authenticated_tx: StrictBool | None = None
    """Whether it is an authenticated transaction (live docs)."""
    derivation_path: StrictStr | None = None
    """The relayer account's derivation path to send from (live docs)."""
    authorization_list: list[dict[str, Any]] | None = None
    """An EIP-7702 authorization list (live docs)."""
