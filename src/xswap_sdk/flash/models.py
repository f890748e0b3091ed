"""Models of the swap backend: what it returns, and the bodies sent to it.

Response models read tolerantly (see `xswap_sdk._models.WireModel`): fields may be
missing or null, statuses are an open set, and unknown fields are kept. The backend
mixes spellings, and each model follows the spec's: chains, balances, history records,
the history summary and the leaderboard are camelCase; quotes, token lists, pagination
and referrals are snake_case; the login answer mixes both. Decimal strings
(``"12.5"``) are read as `decimal.Decimal`, amounts in smallest units as ``int``.

The token list flag ``in_service_token_list`` / ``inServiceTokenList`` carries a brand
word on the live service in place of ``service``; any ``in_<word>_token_list`` or
``in<Word>TokenList`` key is read into that field.
"""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Final, Literal

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    SecretStr,
    model_validator,
)

from .._models import LenientAddress, LenientInt, RequestModel, WireModel
from ..types import Address, ChainId, HexBytes, TokenAmount

__all__ = [
    "AuthMessage",
    "AuthVerification",
    "Chain",
    "ChainToken",
    "GatewayBalance",
    "GatewayBalanceEntry",
    "HistoryPage",
    "HistorySummary",
    "LeaderboardEntry",
    "LeaderboardPage",
    "Pagination",
    "Quote",
    "QuoteFees",
    "QuoteRequest",
    "QuoteToken",
    "Referral",
    "ReferralOverview",
    "SWAP_STATUSES",
    "SwapRecord",
    "SwapRequest",
    "SwapStatus",
    "SwapSubmission",
    "TIME_RANGES",
    "TimeRange",
    "Token",
    "TokenSearchResult",
]

SwapStatus = Literal["pending", "completed", "failed"]
"""The documented swap statuses; fields typed ``SwapStatus | str`` accept others."""

SWAP_STATUSES: Final = ("pending", "completed", "failed")

TimeRange = Literal["all", "30d", "7d", "24h"]
"""The leaderboard's time ranges."""

TIME_RANGES: Final = ("all", "30d", "7d", "24h")

_MILLISECONDS_FROM: Final = 100_000_000_000
"""Timestamps at or above this are milliseconds: 1e11 seconds is the year 5138, while
1e11 milliseconds is March 1973, so no plausible expiry is ambiguous."""

_Timestamp = Annotated[datetime | str | None, Field(union_mode="left_to_right")]


def timestamp_seconds(value: int | float) -> float:
    """A Unix timestamp in seconds, from seconds or milliseconds (inferred from magnitude).

    The spec does not give the unit of ``expires_at`` and ``expiry``: values from 1e11
    on are read as milliseconds, smaller ones as seconds.
    """
    return value / 1000 if value >= _MILLISECONDS_FROM else float(value)


def _version_text(value: Any) -> Any:
    # The spec does not give usdc.version's type: "2" and 2 both mean version "2".
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value


_SNAKE_FLAG = re.compile(r"in_[a-z0-9]+_token_list")
_CAMEL_FLAG = re.compile(r"in[A-Z][A-Za-z0-9]*TokenList")


def _map_token_list_flag(data: Any, canonical: str) -> Any:
    """Read any ``in_<word>_token_list`` / ``in<Word>TokenList`` key into ``canonical``."""
    if not isinstance(data, dict) or canonical in data:
        return data
    for key in data:
        if isinstance(key, str) and (_SNAKE_FLAG.fullmatch(key) or _CAMEL_FLAG.fullmatch(key)):
            mapped = dict(data)
            mapped[canonical] = mapped.pop(key)
            return mapped
    return data


class _SnakeModel(WireModel):
    # The backend's snake_case resources: the wire names are the attribute names.
    model_config = ConfigDict(alias_generator=None)


# ------------------------------------------------------------------------------ chains


class ChainToken(WireModel):
    """A token in a chain's configuration: the native token or USDC.

    The native token's address is the all-zero address. The live service sends the USDC
    address in lowercase; it is checksummed on the way in.
    """

    address: LenientAddress | None = None
    name: str | None = None
    symbol: str | None = None
    decimals: LenientInt | None = None
    logo_url: str | None = None
    version: Annotated[str | None, BeforeValidator(_version_text)] = None
    """USDC's EIP-712 domain version, used for permits (``"2"`` for native USDC).
    Its type is not given by the spec: a number is read as its text."""


class Chain(WireModel):
    """A chain the backend serves (element of ``GET /supported-chains``)."""

    id: LenientInt
    """The EVM chain id."""
    name: str | None = None
    display_name: str | None = None
    logo_url: str | None = None
    explorer_url: str | None = None
    domain: LenientInt | None = None
    """The Circle Gateway domain number (0 Ethereum, 3 Arbitrum, 6 Base, ...)."""
    router_address: LenientAddress | None = None
    gateway_wallet: LenientAddress | None = None
    gateway_minter: LenientAddress | None = None
    native_token: ChainToken | None = None
    usdc: ChainToken | None = None


# ------------------------------------------------------------------------------ tokens


class Token(_SnakeModel):
    """A token of ``GET /token-list`` (snake_case), also the shape of the tokens in a
    swap record."""

    address: LenientAddress | None = None
    symbol: str | None = None
    decimals: LenientInt | None = None
    logo_url: str | None = None
    name: str | None = None
    chain_id: LenientInt | None = None
    in_service_token_list: bool | None = None
    """Whether the backend lists the token itself (any brand-word key is read here)."""

    @model_validator(mode="before")
    @classmethod
    def _brand_flag(cls, data: Any) -> Any:
        return _map_token_list_flag(data, "in_service_token_list")


class TokenSearchResult(WireModel):
    """The answer of ``POST /search-token`` (camelCase)."""

    address: LenientAddress | None = None
    symbol: str | None = None
    decimals: LenientInt | None = None
    name: str | None = None
    chain_id: LenientInt | None = None
    logo_url: str | None = None
    in_service_token_list: bool | None = Field(default=None, alias="inServiceTokenList")
    """Whether the backend lists the token itself (any brand-word key is read here)."""

    @model_validator(mode="before")
    @classmethod
    def _brand_flag(cls, data: Any) -> Any:
        return _map_token_list_flag(data, "inServiceTokenList")


class TokenList(_SnakeModel):
    """The body of ``GET /token-list``: ``{"tokens": [...]}``."""

    tokens: list[Token] = Field(default_factory=list)


# ------------------------------------------------------------------------------ quotes


class QuoteToken(_SnakeModel):
    """The input or output side of a quote."""

    address: LenientAddress | None = None
    amount: LenientInt | None = None
    """In the token's smallest units."""
    decimals: LenientInt | None = None
    logo_url: str | None = None
    price_usd: Decimal | None = None
    usd_amount: Decimal | None = None


class QuoteFees(_SnakeModel):
    """A quote's fees, in smallest USDC units."""

    total_fee: LenientInt | None = None
    gateway_fee: LenientInt | None = None
    """Used as each burn intent's ``maxFee``."""
    execution_fee: LenientInt | None = None


class QuoteRequest(RequestModel):
    """The query of ``GET /quote``, validated; kept on the `Quote` it produced.

    Attributes:
        input_amount: USDC in smallest units (``inputAmount``).
        output_token: the output token's address (``outputToken``).
        chain_id: the destination chain (``chainId``).
        sender: the user's wallet, sent as ``from``.
        slippage: percent (``Decimal("1.5")`` is 1.5 %).
        recipient: who receives the output; the backend uses ``from`` when omitted.
    """

    input_amount: Annotated[TokenAmount, Field(gt=0)]
    output_token: Address
    chain_id: Annotated[ChainId, Field(gt=0)]
    sender: Address
    slippage: Decimal
    recipient: Address | None = None

    def to_params(self) -> list[tuple[str, str]]:
        """The query string pairs, in the spec's order and spelling."""
        params = [
            ("inputAmount", str(self.input_amount)),
            ("outputToken", self.output_token),
            ("chainId", str(self.chain_id)),
            ("from", self.sender),
            ("slippage", format(self.slippage.normalize(), "f")),
        ]
        if self.recipient is not None:
            params.append(("recipient", self.recipient))
        return params


class Quote(_SnakeModel):
    """A swap quote (``GET /quote``, snake_case).

    ``hook_data``, ``swap_router_address`` and ``swap_calldata`` go back to the backend
    in the burn intents and in ``POST /swap``. `request` is the query that produced the
    quote when it came from `FlashClient.get_quote` (it is not part of the wire form).
    """

    token_in: QuoteToken | None = None
    token_out: QuoteToken | None = None
    fees: QuoteFees | None = None
    single_swap_router: LenientAddress | None = None
    hook_data: str = "0x"
    """Placed in the ``hookData`` of each burn intent (``"0x"`` when absent)."""
    swap_router_address: LenientAddress | None = None
    """The burn intents' recipient and destination caller; sent as ``swapRouterAddress``."""
    swap_calldata: str | None = None
    """Sent back as ``swapCalldata``."""
    expires_at: LenientInt | None = None
    """Expiry timestamp, seconds or milliseconds (see `expires_at_seconds`)."""

    _request: QuoteRequest | None = PrivateAttr(default=None)

    @model_validator(mode="before")
    @classmethod
    def _null_hook_data(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("hook_data") in (None, ""):
            return {**data, "hook_data": "0x"}
        return data

    @property
    def request(self) -> QuoteRequest | None:
        """The query that produced this quote, when `get_quote` fetched it."""
        return self._request

    @property
    def expires_at_seconds(self) -> float | None:
        """``expires_at`` as Unix seconds: values from 1e11 on are taken as milliseconds."""
        return None if self.expires_at is None else timestamp_seconds(self.expires_at)

    @property
    def gateway_fee(self) -> int | None:
        """``fees.gateway_fee``, the ``maxFee`` of each burn intent."""
        return self.fees.gateway_fee if self.fees else None


# ------------------------------------------------------------------------------ balances


class GatewayBalanceEntry(WireModel):
    """A user's gateway balance on one chain."""

    domain: LenientInt | None = None
    depositor: LenientAddress | None = None
    balance: LenientInt = 0
    """In smallest USDC units."""
    chain_id: LenientInt | None = None
    chain_name: str | None = None


class GatewayBalance(WireModel):
    """A user's USDC in the gateway wallet, per chain (``GET /balance/{address}``)."""

    balances: list[GatewayBalanceEntry] = Field(default_factory=list)
    total_balance: LenientInt | None = None
    """Across all chains, in smallest USDC units."""


# ------------------------------------------------------------------------------ history


class SwapRecord(WireModel):
    """One swap in the history (camelCase)."""

    id: str | None = None
    source_domain: LenientInt | None = None
    destination_domain: LenientInt | None = None
    source_token: LenientAddress | None = None
    destination_token: LenientAddress | None = None
    token_in: Token | None = None
    token_out: Token | None = None
    amount_usdc: Decimal | None = None
    """In USDC (``"12.5"``)."""
    amount_usdc_raw: LenientInt | None = None
    """In smallest USDC units."""
    chain_id: LenientInt | None = None
    """The destination chain."""
    min_amount_out: Decimal | None = None
    service_fee: Decimal | None = None
    service_fee_raw: LenientInt | None = None
    transaction_hash: str | None = None
    status: SwapStatus | str | None = None
    tx_id: str | None = None
    """The gateway's transaction identifier."""
    created_at: _Timestamp = None
    updated_at: _Timestamp = None


class Pagination(_SnakeModel):
    """Where a page sits in a paged list (snake_case)."""

    current_page: LenientInt | None = None
    page_size: LenientInt | None = None
    total_entries: LenientInt | None = None
    total_pages: LenientInt | None = None
    has_next: bool | None = None
    has_previous: bool | None = None

    @property
    def more(self) -> bool:
        """Whether a next page exists: ``has_next``, or, when the backend leaves it out,
        ``current_page < total_pages``."""
        if self.has_next is not None:
            return self.has_next
        if self.current_page is not None and self.total_pages is not None:
            return self.current_page < self.total_pages
        return False


class HistorySummary(WireModel):
    """Totals over the user's whole history (camelCase)."""

    total_swaps: LenientInt | None = None
    total_volume: Decimal | None = None
    total_volume_raw: LenientInt | None = None
    total_fees: Decimal | None = None
    total_fees_raw: LenientInt | None = None


class HistoryPage(WireModel):
    """One page of ``GET /history``."""

    swaps: list[SwapRecord] = Field(default_factory=list)
    pagination: Pagination | None = None
    summary: HistorySummary | None = None


class LeaderboardEntry(WireModel):
    """One row of the leaderboard (camelCase, but for ``combined_volume``)."""

    rank: LenientInt | None = None
    wallet_address: LenientAddress | None = None
    total_volume: Decimal | None = None
    total_volume_raw: LenientInt | None = None
    swap_count: LenientInt | None = None
    referral_count: LenientInt | None = None
    referral_volume: Decimal | None = None
    referral_volume_raw: LenientInt | None = None
    combined_volume: Decimal | None = Field(default=None, alias="combined_volume")
    referral_code: str | None = None
    last_swap_at: _Timestamp = None


class LeaderboardPage(WireModel):
    """One page of ``GET /leaderboard``."""

    entries: list[LeaderboardEntry] = Field(default_factory=list)
    pagination: Pagination | None = None


class Referral(_SnakeModel):
    """A user you referred."""

    user_address: LenientAddress | None = None
    total_volume_usdc: Decimal | None = None


class ReferralOverview(_SnakeModel):
    """Your referrals (``GET /referrals``, snake_case)."""

    referrals: list[Referral] = Field(default_factory=list)
    total_referral_volume: Decimal | None = None
    total_referrals_count: LenientInt | None = None
    remaining_referral_limit: LenientInt | None = None


# ------------------------------------------------------------------------------ login


class AuthMessage(WireModel):
    """The answer of ``POST /auth/message``: the text to sign and its id."""

    message: str
    expiry: LenientInt | None = None
    """When the message stops being accepted; seconds or milliseconds (not given)."""
    message_id: str


class AuthVerification(WireModel):
    """The answer of ``POST /auth/verify``. ``token`` is a `pydantic.SecretStr`, hidden
    in ``repr`` and ``str``."""

    token: SecretStr
    user_address: LenientAddress | None = Field(default=None, alias="user_address")
    referral_code: str | None = None
    is_new_user: bool | None = Field(default=None, alias="is_new_user")


# ------------------------------------------------------------------------------ swaps


class SwapRequest(RequestModel):
    """The body of ``POST /swap``.

    ``signed_order`` is the ``signedOrder`` array exactly as signed (see
    `SignedOrder.to_wire`); every other field comes from the quote.
    """

    signed_order: list[dict[str, Any]] = Field(min_length=1, repr=False)
    """Holds the signature, so it is left out of ``repr``."""
    user_address: Address
    chain_id: Annotated[ChainId, Field(gt=0)]
    swap_router_address: Address
    swap_calldata: HexBytes
    slippage_bps: Annotated[int, Field(ge=0, le=10_000, strict=True)]


class SwapSubmission(WireModel):
    """The answer of ``POST /swap`` (``status`` is ``pending`` on acceptance).

    After `FlashClient.swap` with ``wait=True``, `record` holds the swap's final history
    record.
    """

    transaction_hash: str | None = None
    status: SwapStatus | str | None = None
    message: str | None = None

    _record: SwapRecord | None = PrivateAttr(default=None)

    @property
    def record(self) -> SwapRecord | None:
        """The completed history record, when the swap was waited for."""
        return self._record


class SearchTokenRequest(RequestModel):
    """The body of ``POST /search-token``."""

    chain_id: Annotated[ChainId, Field(gt=0)]
    address: Address
