"""Models of the routing service: what it returns, and the queries it takes.

Response models read tolerantly: statuses and route kinds are open sets, unknown fields
are kept, and the live service's spellings are accepted
next to the spec's (``tachyonTxId`` for ``relayerTxId``; a ``/status`` record in its
second documented shape with ``state``, ``providerKey``, ``txRef``, ``sourceTxHash`` and
``destinationTxHash``; a gasless ``chainId`` as a number or a string). Amounts are
``int`` in smallest units and dump back to decimal strings; USD values are
`decimal.Decimal` and dump back to JSON numbers.

A field the spec lists is required, so a typed caller needs no ``None`` check for it
(``route.amount_out``, ``tx.data``); a missing one raises
`xswap_sdk.errors.ResponseValidationError` naming it. Optional are only what the spec
or the live service leaves out: a route's ``slippage`` and ``integratorId`` (echoed
only when asked for), an execution hash before execution, the ``allowanceTarget`` of a
native-token transaction, the destination side of a transfer still under way, the
fields of ``/status`` (two documented shapes), and what the spec does not list.

Request models validate every argument before any I/O: chains are non-negative ints,
amounts go through `xswap_sdk.types.TokenAmount`, wallets through
`xswap_sdk.types.Address`, and token addresses through `TokenAddress` (EVM addresses are
checksummed; other identifiers, such as a Solana mint, are sent as given).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal, InvalidOperation
from enum import IntEnum
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    AliasChoices,
    BeforeValidator,
    Field,
    PlainSerializer,
    PrivateAttr,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
)
from pydantic_core import PydanticCustomError

from .._body import DEFAULT_MAX_NESTING, copy_json, value_nesting_depth
from .._models import LenientAddress, LenientInt, RequestModel, WireModel
from ..types import Address, ChainId, HexBytes, TokenAmount, to_checksum

__all__ = [
    "AcquisitionMode",
    "BuildBestPathRequest",
    "BuildPathRequest",
    "BuiltPath",
    "ChainFeatures",
    "GasFee",
    "GasToken",
    "GaslessFee",
    "GaslessQuote",
    "GaslessQuoteRequest",
    "GaslessQuoteSummary",
    "GaslessStatus",
    "GaslessSubmission",
    "NativeToken",
    "PathStep",
    "Percent",
    "Provider",
    "QuoteRequest",
    "RankingMode",
    "Route",
    "RouteFees",
    "RouteKind",
    "RouteMode",
    "RouteToken",
    "StatusProvider",
    "SupportedChain",
    "Token",
    "TokenAddress",
    "TokenSearchResult",
    "Transaction",
    "TransactionStatus",
    "TxDetails",
    "TxHashOrReference",
]

# ---------------------------------------------------------------------------- value types

RouteMode = Literal["fastest", "max_value", "suggested"]
"""How ``/quote`` ranks routes: by speed, by output value, or balanced."""

RankingMode = Literal["value_max", "balanced", "speed_max"]
"""How ``/gasless/quote`` ranks routes (not the same words as `RouteMode`)."""

RouteKind = Literal["sameChainSwap", "directBridge", "swapBridge", "multiBridge"]
"""The route kinds seen on the live service; fields typed ``RouteKind | str`` accept
others."""


class AcquisitionMode(IntEnum):
    """How the route takes the input token from the sender (``acquisitionMode``)."""

    DIRECT_TRANSFER = 0
    """A plain token transfer (the default when execution needs one)."""
    NATIVE_TOKEN = 1
    """The chain's native token, sent as the transaction's value."""
    PERMIT2 = 2
    """A Permit2 signature transfer."""
    PERMIT2_WITNESS = 3
    """A Permit2 signature transfer with a witness."""


_EVM_HEX_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")
_NO_SPACE_TEXT = re.compile(r"\S+")
_MAX_PERCENT: Final = Decimal(100)


def _to_token_address(value: object) -> str:
    # The spec's "token address or mint address as stored for fromChain": an EVM
    # address must carry a valid checksum (a typo there loses money); anything else,
    # such as a base58 Solana mint, is passed through for the service to judge.
    if not isinstance(value, str) or _NO_SPACE_TEXT.fullmatch(value) is None:
        raise ValueError("must be a token address (0x + 40 hex digits) or a non-EVM mint address")
    if value[:2].lower() == "0x" and len(value) == 42 and _EVM_HEX_ADDRESS.fullmatch(value):
        return to_checksum(value)
    if value[:2].lower() == "0x":
        raise ValueError("must be a 0x-prefixed 20-byte hex address (0x + 40 hex digits)")
    return value


def _to_percent(value: object) -> Decimal:
    # bool is an int subclass; refuse it rather than send "1" for True.
    if isinstance(value, bool) or not isinstance(value, Decimal | float | int | str):
        raise ValueError("must be a number of percent (Decimal, float, int or str), e.g. 0.5")
    try:
        # repr() gives a float's shortest round-tripping text: 0.1 is "0.1", not
        # 0.1000000000000000055511151231257827.
        number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation:
        raise ValueError("must be a decimal number of percent, e.g. '0.5'") from None
    if not number.is_finite() or not 0 <= number <= _MAX_PERCENT:
        raise ValueError("must be a percent from 0 to 100 (1 means 1%)")
    return number


def _to_hash_or_reference(value: object) -> str:
    if not isinstance(value, str) or _NO_SPACE_TEXT.fullmatch(value) is None:
        raise ValueError("must be a non-empty transaction hash without spaces")
    if value[:2].lower() == "0x":
        if re.fullmatch(r"0x[0-9a-fA-F]{64}", value) is None:
            raise ValueError("must be a 0x-prefixed 32-byte hash (0x + 64 hex digits)")
        return value.lower()
    return value


def _witness_by_default(value: object) -> object:
    # The witness binds the receiver, destination and minimum output into the signature;
    # without it the service's relayed transaction decides them.
    return AcquisitionMode.PERMIT2_WITNESS if value is None else value


def _to_acquisition_mode(value: object) -> object:
    # Lax enum validation would take True, 1.0 or "2"; a mode is an int.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("must be an AcquisitionMode or an int: 0, 1, 2 or 3")
    return value


TokenAddress = Annotated[str, BeforeValidator(_to_token_address)]
"""A token's address on its chain: an EVM address (checksummed; a mixed-case address
with a wrong EIP-55 checksum is refused) or, for non-EVM chains, a mint address sent as
given."""

Percent = Annotated[Decimal, BeforeValidator(_to_percent)]
"""A percentage from 0 to 100 (``1`` means 1%): a Decimal, int, float or decimal string,
sent as a plain number (``0.1`` goes out as ``"0.1"``)."""

TxHashOrReference = Annotated[str, BeforeValidator(_to_hash_or_reference)]
"""A source transaction hash: ``0x`` + 64 hex digits (lowercased) on EVM chains, or a
non-EVM transaction reference sent as given."""

_Mode = Annotated[AcquisitionMode, BeforeValidator(_to_acquisition_mode)]
_Amount = Annotated[LenientInt, PlainSerializer(str, return_type=str, when_used="json")]
_Usd = Annotated[Decimal, PlainSerializer(float, return_type=float, when_used="json")]
_Timestamp = Annotated[datetime | str | None, Field(union_mode="left_to_right")]

_ProviderName = Annotated[
    StrictStr, BeforeValidator(lambda v: v.strip() if isinstance(v, str) else v)
]


def _check_providers(value: object) -> object:
    # A bare string is a sequence of characters; refuse it rather than send "a,c,r,o,s,s".
    if isinstance(value, str):
        raise ValueError("must be a list of provider names, e.g. ['across'], not a string")
    if isinstance(value, Sequence | set | frozenset):
        names = list(value)
        if not names:
            raise ValueError("must name at least one provider (or be None)")
        for name in names:
            if not isinstance(name, str) or not name.strip() or "," in name:
                raise ValueError("provider names must be non-empty strings without commas")
        return names
    return value


_Providers = Annotated[list[_ProviderName], BeforeValidator(_check_providers)]

# ---------------------------------------------------------------------------- requests


class QuoteRequest(RequestModel):
    """The query of ``GET /quote``, validated.

    Field names are the Python argument names; the wire names are the spec's, including
    the capitalised ``Integrator`` and ``Referrer``.
    """

    from_chain: ChainId
    """The source chain."""
    to_chain: ChainId
    """The destination chain."""
    from_token: TokenAddress
    """The input token on ``from_chain``."""
    to_token: TokenAddress
    """The output token on ``to_chain``."""
    amount: Annotated[TokenAmount, Field(gt=0)]
    """The input, in the input token's smallest units."""
    sender: Address
    """The wallet supplying the input."""
    receiver: Address | None = None
    """Who receives the output (default: ``sender``)."""
    slippage: Percent | None = None
    """Percent (1 means 1 %); none set when omitted."""
    fee_bps: Annotated[StrictInt, Field(ge=0, le=10_000)] | None = None
    """Integrator fee in basis points (100 = 1 %)."""
    include_providers: _Providers | None = Field(default=None, alias="includeProvider")
    """Use only these providers."""
    exclude_providers: _Providers | None = Field(default=None, alias="excludeProvider")
    """Never use these providers."""
    route_mode: RouteMode | None = None
    """How to rank the routes (default ``max_value``)."""
    integrator: StrictStr | None = Field(default=None, alias="Integrator")
    """Your integrator id, echoed as ``integratorId``."""
    allow_multi_bridge: StrictBool | None = None
    """Allow multi-bridge routes (default false)."""
    acquisition_mode: _Mode | None = None
    """How the route takes the input token."""
    priority_provider: StrictStr | None = None
    """Accepted; no effect on planning."""
    referrer: StrictStr | None = Field(default=None, alias="Referrer")
    """Accepted; no effect on planning."""
    destination_call_data: HexBytes | None = None
    """Accepted; no effect on planning."""
    destination_gas_limit: TokenAmount | None = None
    """Accepted; no effect on planning."""
    allowed_price_impact: Percent | None = None
    """Accepted; no effect on planning."""
    simulation: StrictBool | None = None
    """Accepted; no effect on quote planning (``build-best-path``: simulation-aware)."""


class BuildPathRequest(RequestModel):
    """The spec's flat body of ``POST /build-path``: ``fromChain``, ``toChain``,
    ``fromToken``, ``toToken``, ``Amount`` and ``Sender`` (capitalised as the spec
    writes them), without a quoted route."""

    from_chain: ChainId
    """The source chain."""
    to_chain: ChainId
    """The destination chain."""
    from_token: TokenAddress
    """The input token on ``from_chain``."""
    to_token: TokenAddress
    """The output token on ``to_chain``."""
    amount: Annotated[TokenAmount, Field(gt=0)] = Field(alias="Amount")
    """The input, in the token's smallest units (``Amount``)."""
    sender: Address = Field(alias="Sender")
    """The wallet that will send the transaction (``Sender``)."""


class BuildBestPathRequest(QuoteRequest):
    """The query of ``GET /build-best-path``: the quote's, plus three of its own."""

    min_output_amount: TokenAmount | None = None
    """The least output to accept, in the output token's smallest units."""
    include_route: StrictBool | None = None
    """Add the route's composition to the answer when available."""


def _permit2_only(mode: AcquisitionMode) -> AcquisitionMode:
    if mode not in (AcquisitionMode.PERMIT2, AcquisitionMode.PERMIT2_WITNESS):
        raise ValueError("must be AcquisitionMode.PERMIT2 (2) or PERMIT2_WITNESS (3) for gasless")
    return mode


class GaslessQuoteRequest(RequestModel):
    """The query of ``GET /gasless/quote`` (parameters from the live service's docs)."""

    from_chain: ChainId
    """The source chain."""
    to_chain: ChainId
    """The destination chain."""
    from_token: TokenAddress
    """The input token (an ERC-20: Permit2 moves it)."""
    to_token: TokenAddress
    """The output token."""
    amount: Annotated[TokenAmount, Field(gt=0)]
    """The input, in smallest units."""
    sender: Address
    """The wallet that signs the permit."""
    receiver: Address | None = None
    """Who receives the output (default: ``sender``)."""
    fee_bps: Annotated[StrictInt, Field(ge=0, le=10_000)] | None = None
    """Integrator fee in basis points."""
    allow_multi_bridge: StrictBool | None = None
    """Allow multi-bridge routes."""
    ranking_mode: RankingMode | None = None
    """How to rank the quotes."""
    slippage: Percent | None = None
    """Percent (1 means 1 %)."""
    acquisition_mode: Annotated[
        _Mode, BeforeValidator(_witness_by_default), AfterValidator(_permit2_only)
    ] = AcquisitionMode.PERMIT2_WITNESS
    """Permit2 witness (3, also when ``None`` is given: the signature then names the
    receiver, destination and minimum output) or bare Permit2 (2, only when asked).
    Always sent: the live docs mark ``acquisitionMode`` required."""
    deadline_minutes: Annotated[StrictInt, Field(gt=0)] | None = None
    """How long the permit stays valid, in minutes."""
    meta: StrictStr | None = None
    """Free-form metadata."""
    include_providers: _Providers | None = Field(default=None, alias="includeProvider")
    """Use only these providers."""
    exclude_providers: _Providers | None = Field(default=None, alias="excludeProvider")
    """Never use these providers."""


# ---------------------------------------------------------------------------- quotes


class GasToken(WireModel):
    """The token a route's gas is paid in (``gasFee.gasToken``)."""

    address: LenientAddress
    """The token's address (all zeros for the native token)."""
    chain: LenientInt
    """The token's chain id."""
    decimals: LenientInt
    """The token's decimals."""
    icon: str
    """The token's icon."""
    name: str
    """The token's name."""
    symbol: str
    """The token's symbol."""


class RouteToken(GasToken):
    """A token of a route (``fromToken`` / ``toToken``): a gas token's fields and a
    price."""

    price_usd: _Usd
    """The token's price in USD."""


class RouteFees(WireModel):
    """A route's fees, in the input token's smallest units and in USD."""

    integrator_fee: _Amount
    """Your integrator fee, in the input token's smallest units."""
    integrator_fee_usd: _Usd
    """Your integrator fee, in USD."""
    route_fee: _Amount
    """The routing fee, in the input token's smallest units."""
    route_fee_usd: _Usd
    """The routing fee, in USD."""


class GasFee(WireModel):
    """A route's estimated gas cost."""

    gas_fee: _Amount
    """In the gas token's smallest units."""
    gas_fee_usd: _Usd
    """In USD."""
    gas_limit: _Amount
    """The estimated gas limit."""
    gas_price: _Amount
    """The gas price, in the gas token's smallest units."""
    gas_token: GasToken
    """The token gas is paid in."""


class Provider(WireModel):
    """A DEX or bridge provider used by a route."""

    icon: str
    """The provider's icon."""
    name: str
    """The provider's name."""
    type: str
    """``bridge`` or a swap provider type."""


class PathStep(WireModel):
    """One step of a route's path: a swap or a bridge hop."""

    amount: _Amount
    """What goes in, in smallest units."""
    amount_out: _Amount
    """What comes out, in smallest units."""
    from_token: str
    """The input token's address."""
    to_token: str
    """The output token's address."""
    type: str
    """``bridge`` or a swap type."""
    provider: Provider
    """Who carries the step."""


class Route(WireModel):
    """One ranked route from ``GET /quote``; the list order is the ranking.

    A route read from the service remembers its exact wire form, which `to_wire` returns
    and `RoutingClient.build_path` sends back.
    """

    quote_id: str
    """The quote's id (``build_path_by_id`` takes it)."""
    amount: _Amount
    """The input amount, in the input token's smallest units."""
    amount_out: _Amount
    """The expected output, in the output token's smallest units."""
    min_amount_out: _Amount
    """The output guaranteed after slippage."""
    amount_usd: _Usd
    """The input, in USD."""
    amount_out_usd: _Usd
    """The expected output, in USD."""
    min_amount_out_usd: _Usd
    """The guaranteed output, in USD."""
    expiry: LenientInt
    """When the quote stops being buildable (Unix seconds)."""
    sender: LenientAddress
    """The wallet supplying the input, echoed."""
    receiver: LenientAddress
    """Who receives the output."""
    estimated_time_ms: LenientInt
    """How long the route should take, in milliseconds."""
    route_kind: RouteKind | str
    """``sameChainSwap``, ``directBridge``, ``swapBridge`` or ``multiBridge`` (open)."""
    from_token: RouteToken
    """The input token."""
    to_token: RouteToken
    """The output token."""
    fees: RouteFees
    """The route's fees."""
    gas_fee: GasFee
    """The estimated gas cost."""
    path: list[PathStep]
    """The steps, in order."""
    providers: list[Provider]
    """The providers the route uses."""
    slippage: _Usd | None = None
    """Percent (1 means 1%); absent when the quote set none."""
    integrator_id: str | None = None
    """The request's ``Integrator``, echoed; absent when none was given."""

    _wire: dict[str, Any] | None = PrivateAttr(default=None)
    _request: QuoteRequest | None = PrivateAttr(default=None)

    @property
    def request(self) -> QuoteRequest | None:
        """The ``get_quote`` arguments this route answered, when it came from
        `RoutingClient.get_quote` (``None`` for a route read with `from_wire`).
        `RoutingClient.execute_route` checks the route against them."""
        return self._request

    @classmethod
    def from_wire(cls, data: Any) -> Route:
        """Read a route as the service sent it (a ``/quote`` element, or one you saved),
        keeping that exact form for `to_wire`.

        Nothing here recurses over the data: its depth is measured and its copy made
        with explicit stacks, so a route nested thousands deep is refused instead of
        exhausting the stack.

        Raises:
            pydantic.ValidationError: the data is not a route, or nests deeper than
                `xswap_sdk._body.DEFAULT_MAX_NESTING` levels (reported without the input,
                whose ``repr`` would recurse).
        """
        if value_nesting_depth(data, stop_above=DEFAULT_MAX_NESTING) > DEFAULT_MAX_NESTING:
            raise ValidationError.from_exception_data(
                cls.__name__,
                [
                    {
                        "type": PydanticCustomError(
                            "too_deep",
                            "nests deeper than {limit} levels",
                            {"limit": DEFAULT_MAX_NESTING},
                        ),
                        "loc": (),
                        "input": None,
                    }
                ],
            )
        route = cls.model_validate(data)
        if isinstance(data, Mapping):
            route._wire = copy_json(dict(data))
        return route

    def to_wire(self) -> dict[str, Any]:
        """The route in the service's wire form: exactly as received when it was read
        from the service, otherwise dumped from its fields.

        A copy made with ``model_copy(update=...)`` keeps the received form; to send
        changed fields, build a new `Route`.
        """
        if self._wire is not None:
            return copy_json(self._wire)  # type: ignore[no-any-return]
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)

    def _repr_html_(self) -> str:
        from .. import _html  # lazy: a notebook's display only

        return _html.route_html(self)  # how a notebook shows it


# ---------------------------------------------------------------------------- transactions


class Transaction(WireModel):
    """An executable transaction (``Tx``): send exactly this, on ``chain``."""

    to: LenientAddress
    """The target contract."""
    data: str
    """The calldata."""
    chain: LenientInt
    """The chain id to send it on."""
    gas_limit: _Amount
    """The gas limit to send it with."""
    expiry: LenientInt
    """When the transaction stops being valid (Unix seconds)."""
    simulation: bool
    """Whether the service simulated it."""
    allowance_target: LenientAddress | None = None
    """The address to approve for the input token, when it is an ERC-20; ``None`` when
    the input is the native token, which needs no approval."""
    value: _Amount | None = None
    """Native value in wei. Not in the spec; read when the service sends it."""


class BuiltPath(WireModel):
    """What ``GET /build-best-path`` returns: the transaction and the planned route."""

    tx: Transaction = Field(alias="Tx")
    """The transaction to send."""
    route: dict[str, Any]
    """The planned route; its fields are not documented, so it is kept as sent."""


# ---------------------------------------------------------------------------- chains, tokens


class NativeToken(WireModel):
    """A chain's native token."""

    symbol: str
    """The token's symbol."""
    name: str
    """The token's name."""
    decimals: LenientInt
    """The token's decimals."""
    logo_url: str
    """The token's logo."""
    marketdata_id: str
    """The token's market-data id."""


class ChainFeatures(WireModel):
    """What the routing service supports on a chain."""

    gasless_swaps: bool
    """Gasless (Permit2) swaps."""
    cross_chain: bool
    """Cross-chain routes."""
    permit2: bool
    """Permit2 acquisition."""


class SupportedChain(WireModel):
    """A chain from ``GET /supported-chains`` (authoritative for support and features)."""

    id: LenientInt
    """The chain id."""
    name: str
    """Lowercase key, e.g. ``base``."""
    display_name: str
    """The chain's display name."""
    logo_url: str
    """The chain's logo."""
    explorer_url: str
    """The chain's block explorer."""
    public_rpc_url: str
    """A public RPC endpoint."""
    service_contract: LenientAddress
    """The routing contract's address on this chain."""
    chain_type: str
    """``evm`` in every documented entry."""
    is_testnet: bool
    """Whether it is a test network."""
    native_token: NativeToken
    """The chain's native token."""
    features: ChainFeatures
    """What the service supports on it."""


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


_RELAYER_TX_ID_ALIASES: Final[dict[str, Any]] = {
    "validation_alias": AliasChoices("relayerTxId", "tachyonTxId"),
    "serialization_alias": "relayerTxId",
}


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


# ---------------------------------------------------------------------------- gasless


class GaslessFee(WireModel):
    """The fee of a gasless quote."""

    fee_amount: _Amount
    """The fee, in the input token's smallest units."""
    fee_usd: _Usd
    """The fee, in USD."""
    fee_recipient: LenientAddress
    """Who receives the fee."""


class GaslessQuoteSummary(WireModel):
    """The summary of a gasless quote. The live docs list its contents (chains, sender,
    receiver, tokens, amounts, aggregator, route kind, bridge providers) but not their
    names; these are our reading, and every other field is kept as sent."""

    from_chain: LenientInt | None = Field(
        default=None, validation_alias=AliasChoices("fromChain", "fromChainId", "from_chain")
    )
    """The source chain."""
    to_chain: LenientInt | None = Field(
        default=None, validation_alias=AliasChoices("toChain", "toChainId", "to_chain")
    )
    """The destination chain."""
    sender: LenientAddress | None = Field(
        default=None, validation_alias=AliasChoices("sender", "from")
    )
    """The wallet that signs (``sender``, or the live service's ``from``)."""
    receiver: LenientAddress | None = None
    """Who receives the output."""
    from_token: Any = Field(
        default=None, validation_alias=AliasChoices("fromToken", "tokenIn", "from_token")
    )
    """The input token, kept as sent (an address, or ``{address, amount}``)."""
    to_token: Any = Field(
        default=None, validation_alias=AliasChoices("toToken", "tokenOut", "to_token")
    )
    """The output token, kept as sent (an address, or ``{address, amount}``)."""
    amount_in: _Amount | None = None
    """The input, in smallest units."""
    amount_out: _Amount | None = None
    """The expected output, in smallest units."""
    min_amount_out: _Amount | None = Field(
        default=None,
        validation_alias=AliasChoices("minAmountOut", "amountOutMin", "min_amount_out"),
    )
    """The least output after slippage, when the service says (``minAmountOut``, or the
    live service's ``amountOutMin``; the witness's ``minAmountOut`` must be this)."""
    aggregator: str | None = None
    """The DEX aggregator."""
    route_kind: RouteKind | str | None = None
    """The route kind."""
    bridge_providers: Any = None
    """The bridges used, kept as sent."""


class GaslessQuote(WireModel):
    """One quote from ``GET /gasless/quote``: a Permit2 payload to sign and its terms.

    Sign `eip712` exactly as given (`xswap_sdk.signing.sign_typed_data` does), then
    submit ``quote_id`` and the signature.
    """

    quote_id: str
    """The quote's id, submitted with the signature."""
    eip712: dict[str, Any]
    """The EIP-712 payload (``domain``, ``types``, ``primaryType``, ``message``), kept
    exactly as sent: its domain has no ``version`` and its ``chainId`` may be a string."""
    nonce: LenientInt | str
    """The Permit2 nonce."""
    deadline: LenientInt
    """When the permit expires (Unix seconds)."""
    quote: GaslessQuoteSummary
    """What the swap does."""
    fee: GaslessFee
    """What it costs."""

    # (sender, the payload as checked) once the SDK verified the quote; see
    # xswap_sdk.routing._verification.VerifiedQuotes.
    _verified: tuple[str, dict[str, Any]] | None = PrivateAttr(default=None)

    @property
    def verified(self) -> bool:
        """Whether the SDK compared this quote with the request it answers
        (`RoutingClient.get_gasless_quote` and `verify_gasless_quote` do), so that
        `RoutingClient.submit_gasless_swap` accepts a signature over it."""
        return self._verified is not None

    def _repr_html_(self) -> str:
        from .. import _html  # lazy: a notebook's display only

        return _html.gasless_quote_html(self)  # how a notebook shows it

    def worse_than(self, first: GaslessQuote) -> str | None:
        """Why this gasless quote (a re-quote) is worse for the caller than ``first``;
        ``None`` when it is not: the same sender, receiver, chains, tokens and fee
        recipient, no more input, no less output or minimum output, no higher fee. A
        term either quote leaves out cannot be compared and counts as worse.

        Pure: a flow that re-quotes calls it before offering the new quote to
        ``accept_quote`` (the new quote is verified against the request as the first
        was).
        """
        new, old = self.quote, first.quote
        same: tuple[tuple[str, object, object], ...] = (
            ("quote.sender", new.sender, old.sender),
            ("quote.receiver", new.receiver, old.receiver),
            ("quote.from_chain", new.from_chain, old.from_chain),
            ("quote.to_chain", new.to_chain, old.to_chain),
            ("quote.from_token", new.from_token, old.from_token),
            ("quote.to_token", _token_of(new.to_token), _token_of(old.to_token)),
            ("fee.fee_recipient", self.fee.fee_recipient, first.fee.fee_recipient),
        )
        for where, value, before in same:
            if where == "quote.from_token":
                value, before = _token_of(value), _token_of(before)
            if _lowered(value) != _lowered(before):
                return f"{where} is {value!r}, not {before!r} as first quoted"
        ordered: tuple[tuple[str, int | None, int | None, bool], ...] = (
            ("quote.amount_in", new.amount_in, old.amount_in, True),
            ("fee.fee_amount", self.fee.fee_amount, first.fee.fee_amount, True),
            ("quote.amount_out", new.amount_out, old.amount_out, False),
            ("quote.min_amount_out", new.min_amount_out, old.min_amount_out, False),
        )
        for where, value_, before_, more_is_worse in ordered:
            if before_ is None:
                continue  # the first quote did not say: nothing to hold the new one to
            if value_ is None:
                return f"{where} is not stated, where the first quote said {before_}"
            if (value_ > before_) if more_is_worse else (value_ < before_):
                side = "more" if more_is_worse else "less"
                return f"{where} is {value_}, {side} than the {before_} first quoted"
        return None


def _token_of(value: object) -> object:
    # A token as the summary gives it: an address, or {address, amount}.
    if isinstance(value, dict):
        return value.get("address")
    return value


def _lowered(value: object) -> object:
    return value.lower() if isinstance(value, str) else value


class GaslessSubmission(WireModel):
    """What ``POST /gasless/submit-swap`` returns."""

    swap_id: str
    """The id to follow with `RoutingClient.get_gasless_status`."""
    status: str
    """The swap's status (an open set; ``failed`` in any case is a failure)."""
    amount_in: _Amount
    """The input, in smallest units."""
    amount_out: _Amount
    """The expected output, in smallest units."""
    fee_amount: _Amount
    """The fee, in the input token's smallest units."""
    from_token: str
    """The input token's address."""
    to_token: str
    """The output token's address."""
    from_chain: LenientInt
    """The source chain."""
    to_chain: LenientInt
    """The destination chain."""
    relayer_tx_id: str = Field(**_RELAYER_TX_ID_ALIASES)
    """The relayer's transaction id (``relayerTxId``, or ``tachyonTxId`` live)."""
    route_kind: Any
    """An object here (its structure is not documented), a string elsewhere."""
    execution_tx_hash: str | None = None
    """The execution hash, once executed (live integrations treat its presence as
    success, so it may be absent before)."""

    @property
    def is_failed(self) -> bool:
        """Whether the status is ``failed``, in any case."""
        return _is_failed(self.status)


class GaslessStatus(WireModel):
    """A gasless swap's record (``GET /gasless/status``)."""

    swap_id: str
    """The swap's id."""
    status: str
    """An open set; ``failed`` (any case) is a failure."""
    aggregator: str
    """The DEX aggregator."""
    amount_in: _Amount
    """The input, in smallest units."""
    amount_out: _Amount
    """The output, in smallest units."""
    fee_amount: _Amount
    """The fee, in the input token's smallest units."""
    created_at: _Timestamp
    """When it was submitted."""
    updated_at: _Timestamp
    """When it last changed."""
    from_: LenientAddress = Field(alias="from")
    """The swapping wallet (``from`` on the wire)."""
    recipient: LenientAddress
    """Who receives the output."""
    from_chain_id: LenientInt
    """The source chain."""
    to_chain_id: LenientInt
    """The destination chain."""
    from_token: str
    """The input token's address."""
    to_token: str
    """The output token's address."""
    route_kind: RouteKind | str
    """The route kind."""
    relayer_tx_id: str = Field(**_RELAYER_TX_ID_ALIASES)
    """The relayer's transaction id (``relayerTxId``, or ``tachyonTxId`` live)."""
    execution_tx_hash: str | None = None
    """Present once the swap executed."""

    @property
    def is_failed(self) -> bool:
        """Whether the status is ``failed``, in any case."""
        return _is_failed(self.status)


def _is_failed(status: str | None) -> bool:
    return isinstance(status, str) and status.strip().lower() == "failed"
