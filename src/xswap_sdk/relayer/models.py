"""Models of the transaction relayer: what it returns, and the submit request.

Response models read tolerantly: statuses are an open set and fields the SDK does not
know are kept. A field the spec lists is required, so a typed caller needs no ``None``
check for it; only what the spec marks nullable, or what the live relayer sends as null
(before execution: ``gasLimit``, ``gasPrice``, ``latency`` and ``executionTxHash``), or
what the spec does not promise, is optional. A missing required field raises
`xswap_sdk.errors.ResponseValidationError` naming it.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import (
    AliasChoices,
    Field,
    PlainSerializer,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationInfo,
    field_validator,
)

from .._models import LenientAddress, LenientInt, RequestModel, WireModel
from ..chains import FAMILY_RULES, ChainFamily, chain_family, check_address
from ..errors import InvalidInputError
from ..signing.eip7702 import SignedAuthorization
from ..types import Address, ChainId, HexBytes, TokenAmount
from ._status import TERMINAL_STATES, RelayState, RelayStatus, X402Payment, _Timestamp

__all__ = [
    "AccountInfo",
    "NativeCurrency",
    "RelayState",
    "RelayStatus",
    "RelayedTxId",
    "RelayerChain",
    "SubmitSignedTxRequest",
    "SubmitTxRequest",
    "SubmitTxResult",
    "TERMINAL_STATES",
    "TransactionType",
    "UserConfig",
    "X402Payment",
]

TransactionType = Literal["flash", "flash-blocks"] | str
"""The relayer's ``transactionType``: ``"flash"`` (its default) and ``"flash-blocks"``
(in its own examples) are known; any other string is sent as given, for types the
relayer adds later."""


class SubmitTxResult(WireModel):
    """What ``POST /api/submit-tx`` (and ``/api/submit-signed-tx``) returns."""

    tx_id: str
    """The relayer's transaction id (24 hex characters on the live service)."""
    estimated_cost_usd: Decimal | None = Field(default=None, alias="estimatedCostUSD")
    """What the relayer expects the gas to cost, in USD (``estimatedCostUSD``; ``None``
    when it does not say)."""
    x402_payment: X402Payment | None = Field(default=None, alias="x402Payment")
    """How it was paid, when a keyless client paid with x402 (``x402Payment``)."""


class RelayedTxId(str):
    """What `RelayerClient.relay` returns: the relayer's transaction id, a plain `str`
    in every way (the JavaScript client's ``relay`` returns the id), that also says which
    money journey the call was.

    ``tx_id == "9ef384dd9a6e7785c39faf42"`` and ``relayer.get_relay_status(tx_id)`` work
    as with a bare string; ``tx_id.journey_id`` is the ``relay`` journey in the client's
    journal (see `xswap_sdk.journal`), or ``None`` without a journal.
    """

    journey_id: str | None
    """The id of the ``relay`` journey in the client's journal, or ``None``."""

    def __new__(cls, tx_id: str, journey_id: str | None = None) -> RelayedTxId:
        """The id ``tx_id`` of the journey ``journey_id``."""
        value = super().__new__(cls, tx_id)
        value.journey_id = journey_id
        return value


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


class UserConfig(WireModel):
    """An account's limits and allow-lists (``userConfig`` of ``GET /api/user``).

    The fields are those of the relayer's API reference; every one is optional, since
    the relayer sends what is configured, and fields it adds later are kept.
    """

    per_tx_limit: Decimal | None = None
    """The most one transaction may cost, in USD."""
    daily_limit: Decimal | None = None
    """The most a day's transactions may cost, in USD."""
    daily_amount_consumed: Decimal | None = None
    """What today's transactions cost so far, in USD."""
    daily_amount_updated_at: _Timestamp = None
    """When ``daily_amount_consumed`` was last updated."""
    disabled_chain_ids: list[LenientInt] | None = None
    """Chains this account may not use."""
    max_retries: LenientInt | None = None
    """The most retries of one transaction."""
    circuit_breaker_enabled: bool | None = None
    """Whether a streak of failures disables the account."""
    failure_count_streak_limit: LenientInt | None = None
    """How many failures in a row trip the circuit breaker."""
    failure_count_streak: LenientInt | None = None
    """Failures in a row so far."""
    balance_config: dict[str, Any] | None = None
    """Balance alerts and top-ups, kept as sent."""
    notifiers: list[Any] | None = None
    """Notification channels, kept as sent."""
    ip_whitelist: list[str] | None = None
    """The IP addresses allowed to use the API key (empty or ``None``: any)."""
    domain_whitelist: list[str] | None = None
    """The web origins allowed to use the API key."""
    to_address_whitelist: list[str] | None = None
    """The only ``to`` addresses this account may call (``None``: any)."""
    function_selector_whitelist: dict[str, Any] | None = None
    """The function selectors allowed per contract, kept as sent."""
    rate_limit: dict[str, Any] | None = None
    """The account's rate limit, kept as sent."""
    is_disabled: bool | None = None
    """Whether the account is disabled."""

    def allows_chain(self, chain_id: int) -> bool:
        """Whether ``chain_id`` is not among the disabled chains."""
        return int(chain_id) not in (self.disabled_chain_ids or [])


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
    default_relayer_account: Any = Field(
        validation_alias=AliasChoices("defaultRelayerAccount", "defaultTachyonAccount"),
        serialization_alias="defaultRelayerAccount",
    )
    """The account's default relayer account (``defaultTachyonAccount`` on the live
    service), kept as sent."""
    user_config: UserConfig | None = None
    """The account's limits, disabled chains and allow-lists, when the relayer sends
    them."""
    disabled: bool | None = None
    """Whether the account is disabled (live API reference)."""


_UsdCap = Annotated[
    Decimal,
    Field(gt=0, allow_inf_nan=False),
    # The service documents maxUSD as a JSON number.
    PlainSerializer(float, return_type=float, when_used="json"),
]


def _context_families(info: ValidationInfo) -> Any:
    return (info.context or {}).get("chain_families")


def _family(info: ValidationInfo) -> ChainFamily | None:
    chain_id = info.data.get("chain_id")
    if chain_id is None:  # chain_id itself was refused; that error is reported
        return None
    return chain_family(chain_id, _context_families(info))


class SubmitSignedTxRequest(RequestModel):
    """The body of ``POST /api/submit-signed-tx``: a signed transaction the relayer funds
    (with at least ``min_balance_required``) and then broadcasts."""

    signed_tx: HexBytes = Field(serialization_alias="signedTx")
    """The raw signed transaction, ``0x`` hex."""
    min_balance_required: TokenAmount
    """The least native balance the sender needs, in wei (gas limit times max fee)."""
    from_address: Address
    """The sender, recovered from ``signed_tx`` and checked before sending."""
    chain_id: Annotated[ChainId, Field(gt=0)]
    """The chain it is for, checked against the transaction's own chain id."""
    label: StrictStr | None = None
    """A label of your own, echoed in the record."""


class SubmitTxRequest(RequestModel):
    """The body of ``POST /api/submit-tx`` (and ``tx`` in ``/api/submit-tx-sync``).

    Amounts are integers in the chain's smallest native unit (wei, lamports, ...),
    sent as decimal strings. ``to`` and ``value`` are checked by the family of
    ``chain_id`` (`xswap_sdk.chains`): an EVM address, a Solana key, a NEAR account or
    an Aptos or Sui address, a value that fits the chain's native integer, and a
    ``gas_limit`` where the relayer requires one. The family table is the default one,
    or the ``chain_families`` passed in the validation context (as the clients do).
    """

    chain_id: Annotated[ChainId, Field(gt=0)]
    """The chain to execute on."""
    to: StrictStr
    """The recipient or contract to call, written as ``chain_id``'s family writes it."""
    call_data: HexBytes
    """The calldata, as 0x hex (``"0x"`` for none), on every chain family."""
    value: TokenAmount = 0
    """Native value to send, in the chain's smallest unit."""
    should_batch_in_multicall: StrictBool | None = None
    """Let the relayer batch it in a multicall (default false)."""
    gas_price: TokenAmount | None = None
    """A legacy gas price in wei (not with the EIP-1559 fields)."""
    max_priority_fee_per_gas: TokenAmount | None = None
    """EIP-1559 tip in wei."""
    max_fee_per_gas: TokenAmount | None = None
    """EIP-1559 fee cap in wei."""
    gas_limit: TokenAmount | None = Field(default=None, validate_default=True)
    """The most gas it may use (required on Aptos and Sui)."""
    max_usd: _UsdCap | None = Field(default=None, serialization_alias="maxUSD")
    """The most its gas may cost, in USD (``maxUSD``)."""
    label: StrictStr | None = None
    """A label of your own, echoed in the record."""
    max_gas: TokenAmount | None = None
    """``maxGas``, as in the spec's example (its meaning is not documented)."""
    retries: Annotated[StrictInt, Field(ge=0)] | None = None
    """How many times the relayer may retry it (live docs)."""
    transaction_type: Annotated[StrictStr, Field(min_length=1)] | None = None
    """The transaction type (`TransactionType`; the relayer defaults to ``flash``)."""
    is_authenticated_tx: StrictBool | None = None
    """Whether it is an authenticated transaction (live docs)."""
    derivation_path: Annotated[StrictStr, Field(min_length=1)] | None = None
    """The relayer account's derivation path to send from (live docs)."""
    authorization_list: list[SignedAuthorization] | None = None
    """EIP-7702 authorizations (EVM chains only), each for ``chain_id`` or for every
    chain (0); see `xswap_sdk.signing.sign_authorization`."""

    @field_validator("to")
    @classmethod
    def _to_of_family(cls, value: str, info: ValidationInfo) -> str:
        family = _family(info)
        if family is None:
            return value
        try:
            return check_address(family, value)
        except InvalidInputError as exc:
            raise ValueError(exc.rule) from None

    @field_validator("value")
    @classmethod
    def _value_fits(cls, value: int, info: ValidationInfo) -> int:
        family = _family(info)
        if family is not None and value > FAMILY_RULES[family].max_value:
            rules = FAMILY_RULES[family]
            raise ValueError(f"must be at most {rules.max_value} {rules.value_unit} on {family}")
        return value

    @field_validator("gas_limit")
    @classmethod
    def _gas_limit_given(cls, value: int | None, info: ValidationInfo) -> int | None:
        family = _family(info)
        if value is None and family is not None and FAMILY_RULES[family].gas_limit_required:
            raise ValueError(f"is required on {family} (the relayer cannot estimate it)")
        return value

    @field_validator("authorization_list")
    @classmethod
    def _authorizations_fit(
        cls, value: list[SignedAuthorization] | None, info: ValidationInfo
    ) -> list[SignedAuthorization] | None:
        family = _family(info)
        if value is None or family is None:
            return value
        if not FAMILY_RULES[family].authorizations:
            raise ValueError(f"EIP-7702 authorizations exist on EVM chains only, not {family}")
        chain_id = info.data["chain_id"]
        for index, authorization in enumerate(value):
            if authorization.chain_id not in (0, chain_id):
                raise ValueError(
                    f"[{index}] is for chain {authorization.chain_id}: it must be for "
                    f"chain_id {chain_id} (or 0, every chain), or the chain ignores it"
                )
        return value
