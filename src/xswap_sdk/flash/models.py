"""Models of the swap backend: what it returns, and the bodies sent to it.

Response models read tolerantly: statuses are an open set and unknown fields are kept.
A field the spec lists is required, so a typed caller needs no ``None`` check for it; a
missing one raises `xswap_sdk.errors.ResponseValidationError` naming it. Only what the
spec does not promise is optional (``usdc.version``, a leaderboard user's last swap). The backend
mixes spellings, and each model follows the spec's: chains, balances, history records,
the history summary and the leaderboard are camelCase; quotes, token lists, pagination
and referrals are snake_case; the login answer mixes both. Every token amount is an
``int`` in smallest units, also where the backend sends decimal USDC (``"12.5"`` is read
exactly as ``12500000``, see `xswap_sdk.types.UsdcUnits`); prices and values in USD and
percentages stay `decimal.Decimal`.

The token list flag ``in_service_token_list`` / ``inServiceTokenList`` carries a brand
word on the live service in place of ``service``; any ``in_<word>_token_list`` or
``in<Word>TokenList`` key is read into that field.
"""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, ClassVar, Final, Literal

from pydantic import (
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationInfo,
    field_serializer,
    field_validator,
    model_validator,
)

from .._models import LenientAddress, LenientInt, RequestModel, WireModel, private_value
from ..types import (
    Address,
    ChainId,
    HexBytes,
    TokenAmount,
    UsdcNumberUnits,
    UsdcUnits,
    _same_address,
    from_units,
    to_units,
)

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
    "SearchTokenRequest",
    "SWAP_STATUSES",
    "SwapRecord",
    "SwapRequest",
    "SwapStatus",
    "SwapSubmission",
    "TIME_RANGES",
    "TimeRange",
    "Token",
    "TokenList",
    "TokenSearchResult",
]

SwapStatus = Literal["pending", "completed", "failed"]
"""The documented swap statuses; fields typed ``SwapStatus | str`` accept others."""

SWAP_STATUSES: Final = ("pending", "completed", "failed")
"""The documented swap statuses, in order."""

TimeRange = Literal["all", "30d", "7d", "24h"]
"""The leaderboard's time ranges."""

TIME_RANGES: Final = ("all", "30d", "7d", "24h")
"""The leaderboard's time ranges, in order."""

_MILLISECONDS_FROM: Final = 100_000_000_000
"""Timestamps at or above this are milliseconds: 1e11 seconds is the year 5138, while
1e11 milliseconds is March 1973, so no plausible expiry is ambiguous."""

_Timestamp = Annotated[datetime | str | None, Field(union_mode="left_to_right")]


def _timestamp_seconds(value: int | float) -> float:
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
    """Base of the backend's snake_case resources: the wire names are the attribute
    names."""

    model_config: ClassVar[ConfigDict] = ConfigDict(alias_generator=None)


# ------------------------------------------------------------------------------ chains


class ChainToken(WireModel):
    """A token in a chain's configuration: the native token or USDC.

    The native token's address is the all-zero address. The live service sends the USDC
    address in lowercase; it is checksummed on the way in.
    """

    address: LenientAddress
    """The token's address (checksummed; all zeros for the native token)."""
    name: str
    """The token's name."""
    symbol: str
    """The token's symbol."""
    decimals: LenientInt
    """The token's decimals (6 for USDC)."""
    logo_url: str
    """The token's logo."""
    version: Annotated[str | None, BeforeValidator(_version_text)] = None
    """USDC's EIP-712 domain version, used for permits (``"2"`` for native USDC).
    Its type is not given by the spec: a number is read as its text."""


class Chain(WireModel):
    """A chain the backend serves (element of ``GET /supported-chains``)."""

    id: LenientInt
    """The EVM chain id."""
    name: str
    """The chain's name."""
    display_name: str
    """The chain's display name."""
    logo_url: str
    """The chain's logo."""
    explorer_url: str
    """The chain's block explorer."""
    domain: LenientInt
    """The Circle Gateway domain number (0 Ethereum, 3 Arbitrum, 6 Base, ...)."""
    router_address: LenientAddress
    """The swap router on this chain."""
    gateway_wallet: LenientAddress
    """The GatewayWallet contract, where USDC is deposited (burn intents' source)."""
    gateway_minter: LenientAddress
    """The GatewayMinter contract (burn intents' destination contract)."""
    native_token: ChainToken
    """The chain's native token (address all zeros)."""
    usdc: ChainToken
    """USDC on this chain."""


# ------------------------------------------------------------------------------ tokens


class Token(_SnakeModel):
    """A token of ``GET /token-list`` (snake_case), also the shape of the tokens in a
    swap record."""

    address: LenientAddress
    """The token's address (checksummed)."""
    symbol: str
    """The token's symbol."""
    decimals: LenientInt
    """The token's decimals."""
    logo_url: str
    """The token's logo."""
    name: str
    """The token's name."""
    chain_id: LenientInt
    """The chain the token is on."""
    in_service_token_list: bool
    """Whether the backend lists the token itself (any brand-word key is read here)."""

    @model_validator(mode="before")
    @classmethod
    def _brand_flag(cls, data: Any) -> Any:
        return _map_token_list_flag(data, "in_service_token_list")


class TokenSearchResult(WireModel):
    """The answer of ``POST /search-token`` (camelCase)."""

    address: LenientAddress
    """The token's address (checksummed)."""
    symbol: str
    """The token's symbol."""
    decimals: LenientInt
    """The token's decimals."""
    name: str
    """The token's name."""
    chain_id: LenientInt
    """The chain the token is on."""
    logo_url: str
    """The token's logo."""
    in_service_token_list: bool = Field(alias="inServiceTokenList")
    """Whether the backend lists the token itself (any brand-word key is read here)."""

    @model_validator(mode="before")
    @classmethod
    def _brand_flag(cls, data: Any) -> Any:
        return _map_token_list_flag(data, "inServiceTokenList")


class TokenList(_SnakeModel):
    """The body of ``GET /token-list``: ``{"tokens": [...]}``."""

    tokens: list[Token]
    """The tokens."""


# ------------------------------------------------------------------------------ quotes


class QuoteToken(_SnakeModel):
    """The input or output side of a quote."""

    address: LenientAddress
    """The token's address (checksummed)."""
    amount: LenientInt
    """In the token's smallest units."""
    decimals: LenientInt
    """The token's decimals."""
    logo_url: str
    """The token's logo."""
    price_usd: Decimal
    """The token's price in USD."""
    usd_amount: Decimal
    """``amount`` in USD."""


class QuoteFees(_SnakeModel):
    """A quote's fees, in smallest USDC units."""

    total_fee: LenientInt
    """Every fee together."""
    gateway_fee: LenientInt
    """Circle Gateway's fee; used as each burn intent's ``maxFee``."""
    execution_fee: LenientInt
    """The backend's execution (service) fee."""


class QuoteRequest(RequestModel):
    """The query of ``GET /quote``, validated; kept on the `Quote` it produced."""

    input_amount: Annotated[TokenAmount, Field(gt=0)]
    """USDC in smallest units (``inputAmount``)."""
    output_token: Address
    """The output token's address (``outputToken``)."""
    chain_id: Annotated[ChainId, Field(gt=0)]
    """The destination chain (``chainId``)."""
    sender: Address
    """The user's wallet, sent as ``from``."""
    slippage: Decimal
    """Percent (``Decimal("1.5")`` is 1.5 %)."""
    recipient: Address | None = None
    """Who receives the output; the backend uses ``from`` when omitted."""

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

    token_in: QuoteToken
    """The USDC going in."""
    token_out: QuoteToken
    """The token coming out, on the destination chain."""
    fees: QuoteFees
    """The fees, in smallest USDC units."""
    single_swap_router: LenientAddress
    """The single-chain swap router."""
    hook_data: str = "0x"
    """Placed in the ``hookData`` of each burn intent (``"0x"`` when null or absent)."""
    swap_router_address: LenientAddress
    """The burn intents' recipient and destination caller; sent as ``swapRouterAddress``."""
    swap_calldata: str
    """Sent back as ``swapCalldata``."""
    expires_at: LenientInt
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
        request: QuoteRequest | None = private_value(self, "_request")
        return request

    @property
    def expires_at_seconds(self) -> float:
        """``expires_at`` as Unix seconds: values from 1e11 on are taken as milliseconds."""
        return _timestamp_seconds(self.expires_at)

    @property
    def gateway_fee(self) -> int:
        """``fees.gateway_fee``, the ``maxFee`` of each burn intent."""
        return self.fees.gateway_fee

    def worse_than(self, first: Quote) -> str | None:
        """Why this quote (a re-quote) is worse for the caller than ``first``, the one
        they were shown or accepted; ``None`` when it is not: the same input and output
        tokens and router, no less output, no more input and no higher fee of any kind.

        Pure: a flow that re-quotes calls it before offering the new quote to
        ``accept_quote`` (the caller's own floors, ``min_amount_out`` and fee caps, are
        checked as for the first quote).
        """
        same = (
            ("token_in.address", self.token_in.address, first.token_in.address),
            ("token_out.address", self.token_out.address, first.token_out.address),
            ("swap_router_address", self.swap_router_address, first.swap_router_address),
        )
        for where, new, old in same:
            if not _same_address(new, old):
                return f"{where} is {new}, not {old} as first quoted"
        more_is_worse = (
            ("token_in.amount", self.token_in.amount, first.token_in.amount),
            ("fees.total_fee", self.fees.total_fee, first.fees.total_fee),
            ("fees.gateway_fee", self.fees.gateway_fee, first.fees.gateway_fee),
            ("fees.execution_fee", self.fees.execution_fee, first.fees.execution_fee),
        )
        for where, new_amount, old_amount in more_is_worse:
            if new_amount > old_amount:
                return f"{where} is {new_amount}, more than the {old_amount} first quoted"
        if self.token_out.amount < first.token_out.amount:
            return (
                f"token_out.amount is {self.token_out.amount}, less than the "
                f"{first.token_out.amount} first quoted"
            )
        return None

    def _repr_html_(self) -> str:
        from .. import _html  # lazy: a notebook's display only

        return _html.flash_quote_html(self)  # how a notebook shows it


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


# ------------------------------------------------------------------------------ history


class SwapRecord(WireModel):
    """One swap in the history (camelCase)."""

    id: str
    """The swap's id (a UUID)."""
    source_domain: LenientInt
    """The (first) source chain's Gateway domain."""
    destination_domain: LenientInt
    """The destination chain's Gateway domain."""
    source_token: LenientAddress
    """USDC on the source chain."""
    destination_token: LenientAddress
    """The output token."""
    token_in: Token
    """The input token (USDC)."""
    token_out: Token
    """The output token."""
    amount_usdc: UsdcUnits
    """In smallest USDC units (the wire's ``"12.5"`` USDC is ``12500000``)."""
    amount_usdc_raw: LenientInt
    """In smallest USDC units."""
    chain_id: LenientInt
    """The destination chain."""
    min_amount_out: int
    """The least output accepted, in the output token's smallest units (the wire's
    decimal, read with ``token_out.decimals``)."""
    service_fee: UsdcUnits
    """The backend's fee, in smallest USDC units (the wire sends decimal USDC)."""
    service_fee_raw: LenientInt
    """The backend's fee, in smallest USDC units."""
    transaction_hash: str
    """The swap's transaction hash (as returned by ``POST /swap``)."""
    status: SwapStatus | str
    """``pending``, ``completed`` or ``failed`` (an open set)."""
    tx_id: str
    """The gateway's transaction identifier."""
    created_at: _Timestamp
    """When it was submitted (ISO 8601 UTC, read as a `datetime`)."""
    updated_at: _Timestamp
    """When its status last changed."""

    @field_validator("min_amount_out", mode="before")
    @classmethod
    def _output_units(cls, value: object, info: ValidationInfo) -> object:
        # The wire's decimal is in the output token, whose decimals come with it; an int
        # (a record built in Python, or dumped and read back) is smallest units already.
        token = info.data.get("token_out")
        if isinstance(value, str) and token is not None:
            return to_units(value.strip(), token.decimals)
        return value

    @field_serializer("min_amount_out", when_used="json")
    def _output_decimal(self, value: int) -> str:
        # Back to the wire's form: a decimal of the output token.
        return f"{from_units(value, self.token_out.decimals):f}"


class Pagination(_SnakeModel):
    """Where a page sits in a paged list (snake_case)."""

    current_page: LenientInt
    """This page's number, from 1."""
    page_size: LenientInt
    """Entries per page."""
    total_entries: LenientInt
    """Entries in all pages."""
    total_pages: LenientInt
    """How many pages there are."""
    has_next: bool
    """Whether a next page exists."""
    has_previous: bool
    """Whether a previous page exists."""

    @property
    def more(self) -> bool:
        """Whether a next page exists (``has_next``)."""
        return self.has_next


class HistorySummary(WireModel):
    """Totals over the user's whole history (camelCase)."""

    total_swaps: LenientInt
    """How many swaps."""
    total_volume: UsdcUnits
    """Their volume, in smallest USDC units (the wire sends decimal USDC)."""
    total_volume_raw: LenientInt
    """Their volume, in smallest USDC units."""
    total_fees: UsdcUnits
    """The fees paid, in smallest USDC units (the wire sends decimal USDC)."""
    total_fees_raw: LenientInt
    """The fees paid, in smallest USDC units."""


class HistoryPage(WireModel):
    """One page of ``GET /history``."""

    swaps: list[SwapRecord]
    """This page's swaps, newest first."""
    pagination: Pagination
    """Where this page sits."""
    summary: HistorySummary
    """Totals over the whole history."""

    def _repr_html_(self) -> str:
        from .. import _html  # lazy: a notebook's display only

        return _html.history_page_html(self)  # how a notebook shows it


class LeaderboardEntry(WireModel):
    """One row of the leaderboard (camelCase, but for ``combined_volume``)."""

    rank: LenientInt
    """The position, from 1."""
    wallet_address: LenientAddress
    """The user's wallet."""
    total_volume: UsdcUnits
    """The user's own volume, in smallest USDC units (the wire sends decimal USDC)."""
    total_volume_raw: LenientInt
    """The user's own volume, in smallest USDC units."""
    swap_count: LenientInt
    """How many swaps the user made."""
    referral_count: LenientInt
    """How many users the user referred."""
    referral_volume: UsdcUnits
    """The referred users' volume, in smallest USDC units (the wire sends decimal
    USDC)."""
    referral_volume_raw: LenientInt
    """The referred users' volume, in smallest USDC units."""
    combined_volume: UsdcUnits = Field(alias="combined_volume")
    """Own and referral volume together, in smallest USDC units (the wire sends decimal
    USDC)."""
    referral_code: str
    """The user's referral code."""
    last_swap_at: _Timestamp = None
    """When the user last swapped; null for a user ranked by referrals alone, who has
    never swapped."""


class LeaderboardPage(WireModel):
    """One page of ``GET /leaderboard``."""

    entries: list[LeaderboardEntry]
    """This page's rows, best first."""
    pagination: Pagination
    """Where this page sits."""

    def _repr_html_(self) -> str:
        from .. import _html  # lazy: a notebook's display only

        return _html.leaderboard_page_html(self)  # how a notebook shows it


class Referral(_SnakeModel):
    """A user you referred."""

    user_address: LenientAddress
    """The referred user's wallet."""
    total_volume_usdc: UsdcNumberUnits
    """Their volume, in smallest USDC units (the wire sends a number of USDC)."""


class ReferralOverview(_SnakeModel):
    """Your referrals (``GET /referrals``, snake_case)."""

    referrals: list[Referral]
    """The users you referred."""
    total_referral_volume: UsdcNumberUnits
    """Their volume together, in smallest USDC units (the wire sends a number of
    USDC)."""
    total_referrals_count: LenientInt
    """How many users you referred."""
    remaining_referral_limit: LenientInt
    """How many more users your code may bring in."""


# ------------------------------------------------------------------------------ login


class AuthMessage(WireModel):
    """The answer of ``POST /auth/message``: the text to sign and its id."""

    message: str
    """The text to sign (EIP-191 ``personal_sign``)."""
    expiry: LenientInt
    """When the message stops being accepted; seconds or milliseconds (not given)."""
    message_id: str
    """The message's id, sent back with the signature."""


class AuthVerification(WireModel):
    """The answer of ``POST /auth/verify``. ``token`` is a `pydantic.SecretStr`, hidden
    in ``repr`` and ``str``."""

    token: SecretStr
    """The JWT (hidden in ``repr``; ``token.get_secret_value()`` reads it)."""
    user_address: LenientAddress = Field(alias="user_address")
    """The wallet that logged in."""
    referral_code: str
    """The user's own referral code."""
    is_new_user: bool = Field(alias="is_new_user")
    """Whether this login created the user."""


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


class SearchTokenRequest(RequestModel):
    """The body of ``POST /search-token``."""

    chain_id: Annotated[ChainId, Field(gt=0)]
    """The chain to look on."""
    address: Address
    """The token's address."""
