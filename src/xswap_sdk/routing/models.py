"""Models of the routing service: what it returns, and the queries it takes.

Response models read tolerantly: fields may be missing or null, statuses and route kinds
are open sets, unknown fields are kept, and the live service's spellings are accepted
next to the spec's (``tachyonTxId`` for ``relayerTxId``; a ``/status`` record in its
second documented shape with ``state``, ``providerKey``, ``txRef``, ``sourceTxHash`` and
``destinationTxHash``; a gasless ``chainId`` as a number or a string). Amounts are
``int`` in smallest units and dump back to decimal strings; USD values are
`decimal.Decimal` and dump back to JSON numbers.

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
    "BuiltPath",
    "ChainFeatures",
    "GasFee",
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
    to_chain: ChainId
    from_token: TokenAddress
    to_token: TokenAddress
    amount: Annotated[TokenAmount, Field(gt=0)]
    sender: Address
    receiver: Address | None = None
    slippage: Percent | None = None
    fee_bps: Annotated[StrictInt, Field(ge=0, le=10_000)] | None = None
    include_providers: _Providers | None = Field(default=None, alias="includeProvider")
    exclude_providers: _Providers | None = Field(default=None, alias="excludeProvider")
    route_mode: RouteMode | None = None
    integrator: StrictStr | None = Field(default=None, alias="Integrator")
    allow_multi_bridge: StrictBool | None = None
    acquisition_mode: _Mode | None = None
    priority_provider: StrictStr | None = None
    referrer: StrictStr | None = Field(default=None, alias="Referrer")
    destination_call_data: HexBytes | None = None
    destination_gas_limit: TokenAmount | None = None
    allowed_price_impact: Percent | None = None
    simulation: StrictBool | None = None


class BuildBestPathRequest(QuoteRequest):
    """The query of ``GET /build-best-path``: the quote's, plus three of its own."""

    min_output_amount: TokenAmount | None = None
    include_route: StrictBool | None = None


def _permit2_only(mode: AcquisitionMode) -> AcquisitionMode:
    if mode not in (AcquisitionMode.PERMIT2, AcquisitionMode.PERMIT2_WITNESS):
        raise ValueError("must be AcquisitionMode.PERMIT2 (2) or PERMIT2_WITNESS (3) for gasless")
    return mode


class GaslessQuoteRequest(RequestModel):
    """The query of ``GET /gasless/quote`` (parameters from the live service's docs)."""

    from_chain: ChainId
    to_chain: ChainId
    from_token: TokenAddress
    to_token: TokenAddress
    amount: Annotated[TokenAmount, Field(gt=0)]
    sender: Address
    receiver: Address | None = None
    fee_bps: Annotated[StrictInt, Field(ge=0, le=10_000)] | None = None
    allow_multi_bridge: StrictBool | None = None
    ranking_mode: RankingMode | None = None
    slippage: Percent | None = None
    acquisition_mode: Annotated[_Mode, AfterValidator(_permit2_only)] | None = None
    deadline_minutes: Annotated[StrictInt, Field(gt=0)] | None = None
    meta: StrictStr | None = None
    include_providers: _Providers | None = Field(default=None, alias="includeProvider")
    exclude_providers: _Providers | None = Field(default=None, alias="excludeProvider")


# ---------------------------------------------------------------------------- quotes


class RouteToken(WireModel):
    """A token of a route (``fromToken`` / ``toToken``)."""

    address: LenientAddress | None = None
    chain: LenientInt | None = None
    """The token's chain id."""
    decimals: LenientInt | None = None
    icon: str | None = None
    name: str | None = None
    price_usd: _Usd | None = None
    symbol: str | None = None


class RouteFees(WireModel):
    """A route's fees, in the input token's smallest units and in USD."""

    integrator_fee: _Amount | None = None
    integrator_fee_usd: _Usd | None = None
    route_fee: _Amount | None = None
    route_fee_usd: _Usd | None = None


class GasFee(WireModel):
    """A route's estimated gas cost."""

    gas_fee: _Amount | None = None
    """In the gas token's smallest units."""
    gas_fee_usd: _Usd | None = None
    gas_limit: _Amount | None = None
    gas_price: _Amount | None = None
    gas_token: RouteToken | None = None


class Provider(WireModel):
    """A DEX or bridge provider used by a route."""

    icon: str | None = None
    name: str | None = None
    type: str | None = None
    """``bridge`` or a swap provider type."""


class PathStep(WireModel):
    """One step of a route's path: a swap or a bridge hop."""

    amount: _Amount | None = None
    amount_out: _Amount | None = None
    from_token: str | None = None
    to_token: str | None = None
    type: str | None = None
    """``bridge`` or a swap type."""
    provider: Provider | None = None


class Route(WireModel):
    """One ranked route from ``GET /quote``; the list order is the ranking.

    A route read from the service remembers its exact wire form, which `to_wire` returns
    and `RoutingClient.build_path` sends back.
    """

    quote_id: str | None = None
    amount: _Amount | None = None
    """The input amount, in the input token's smallest units."""
    amount_out: _Amount | None = None
    """The expected output, in the output token's smallest units."""
    min_amount_out: _Amount | None = None
    """The output guaranteed after slippage."""
    amount_usd: _Usd | None = None
    amount_out_usd: _Usd | None = None
    min_amount_out_usd: _Usd | None = None
    expiry: LenientInt | None = None
    sender: LenientAddress | None = None
    receiver: LenientAddress | None = None
    slippage: _Usd | None = None
    """Percent (1 means 1%); absent when the quote set none."""
    integrator_id: str | None = None
    """The request's ``Integrator``, echoed."""
    estimated_time_ms: LenientInt | None = None
    route_kind: RouteKind | str | None = None
    from_token: RouteToken | None = None
    to_token: RouteToken | None = None
    fees: RouteFees | None = None
    gas_fee: GasFee | None = None
    path: list[PathStep] | None = None
    providers: list[Provider] | None = None

    _wire: dict[str, Any] | None = PrivateAttr(default=None)

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


# ---------------------------------------------------------------------------- transactions


class Transaction(WireModel):
    """An executable transaction (``Tx``): send exactly this, on ``chain``."""

    to: LenientAddress | None = None
    """The target contract."""
    data: str | None = None
    """The calldata."""
    chain: LenientInt | None = None
    """The chain id to send it on."""
    value: _Amount | None = None
    """Native value in wei. Not in the spec; read when the service sends it."""
    gas_limit: _Amount | None = None
    allowance_target: LenientAddress | None = None
    """The address to approve for the input token, when it is an ERC-20."""
    expiry: LenientInt | None = None
    simulation: bool | None = None


class BuiltPath(WireModel):
    """What ``GET /build-best-path`` returns: the transaction and the planned route."""

    tx: Transaction = Field(alias="Tx")
    route: dict[str, Any] | None = None
    """The planned route; its fields are not documented, so it is kept as sent."""


# ---------------------------------------------------------------------------- chains, tokens


class NativeToken(WireModel):
    """A chain's native token."""

    symbol: str | None = None
    name: str | None = None
    decimals: LenientInt | None = None
    logo_url: str | None = None
    marketdata_id: str | None = None


class ChainFeatures(WireModel):
    """What the routing service supports on a chain."""

    gasless_swaps: bool | None = None
    cross_chain: bool | None = None
    permit2: bool | None = None


class SupportedChain(WireModel):
    """A chain from ``GET /supported-chains`` (authoritative for support and features)."""

    id: LenientInt
    name: str | None = None
    """Lowercase key, e.g. ``base``."""
    display_name: str | None = None
    logo_url: str | None = None
    explorer_url: str | None = None
    public_rpc_url: str | None = None
    service_contract: LenientAddress | None = None
    """The routing contract's address on this chain."""
    chain_type: str | None = None
    """``evm`` in every documented entry."""
    is_testnet: bool | None = None
    native_token: NativeToken | None = None
    features: ChainFeatures | None = None


class Token(WireModel):
    """A token on one chain (``GET /tokens``)."""

    address: LenientAddress
    chain_id: LenientInt | None = None
    decimals: LenientInt | None = None
    logo_url: str | None = None
    name: str | None = None
    symbol: str | None = None


class TokenSearchResult(Token):
    """A token matched by ``GET /search-token`` (by symbol, name or address)."""


# ---------------------------------------------------------------------------- status


class StatusProvider(WireModel):
    """The provider that carries a tracked transaction."""

    key: str | None = None
    name: str | None = None


class TxDetails(WireModel):
    """One side (source or destination) of a tracked transaction."""

    chain_id: LenientInt | None = None
    chain_logo: str | None = None
    timestamp: LenientInt | None = None
    tx_hash: str | None = None


_RELAYER_TX_ID = Field(
    default=None,
    validation_alias=AliasChoices("relayerTxId", "tachyonTxId"),
    serialization_alias="relayerTxId",
)


class TransactionStatus(WireModel):
    """A swap or bridge's status (``GET /status``), in either documented shape.

    The spec's shape has ``status``, ``srcTxDetails`` and ``destTxDetails``; the other
    has ``state``, ``providerKey``, ``txRef``, ``sourceTxHash`` and ``destinationTxHash``.
    Both are read; `current_status`, `source_tx_hash_any` and `destination_tx_hash_any`
    look in both.
    """

    status: str | None = None
    kind: str | None = None
    route_kind: RouteKind | str | None = None
    swap_id: str | None = None
    relayer_tx_id: str | None = _RELAYER_TX_ID
    """The relayer's transaction id (``relayerTxId``, or ``tachyonTxId`` live)."""
    updated_at_ms: LenientInt | None = None
    provider: StatusProvider | None = None
    src_tx_details: TxDetails | None = None
    dest_tx_details: TxDetails | None = None
    details: Any = None
    from_token: Any = None
    to_token: Any = None
    execution_tx_hash: str | None = None
    """Not in the spec's ``/status`` record; read when the service sends it."""
    # The second documented shape.
    state: str | None = None
    provider_key: str | None = None
    tx_ref: str | None = None
    source_tx_hash: str | None = None
    destination_tx_hash: str | None = None

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

    fee_amount: _Amount | None = None
    fee_usd: _Usd | None = None
    fee_recipient: LenientAddress | None = None


class GaslessQuoteSummary(WireModel):
    """The summary of a gasless quote. The live docs list its contents (chains, sender,
    receiver, tokens, amounts, aggregator, route kind, bridge providers) but not their
    names; these are our reading, and every other field is kept as sent."""

    from_chain: LenientInt | None = Field(
        default=None, validation_alias=AliasChoices("fromChain", "fromChainId", "from_chain")
    )
    to_chain: LenientInt | None = Field(
        default=None, validation_alias=AliasChoices("toChain", "toChainId", "to_chain")
    )
    sender: LenientAddress | None = None
    receiver: LenientAddress | None = None
    from_token: Any = None
    to_token: Any = None
    amount_in: _Amount | None = None
    amount_out: _Amount | None = None
    min_amount_out: _Amount | None = None
    """The least output after slippage, when the service says (the witness's
    ``minAmountOut`` must be this)."""
    aggregator: str | None = None
    route_kind: RouteKind | str | None = None
    bridge_providers: Any = None


class GaslessQuote(WireModel):
    """One quote from ``GET /gasless/quote``: a Permit2 payload to sign and its terms.

    Sign `eip712` exactly as given (`xswap_sdk.signing.sign_typed_data` does), then
    submit ``quote_id`` and the signature.
    """

    quote_id: str
    eip712: dict[str, Any]
    """The EIP-712 payload (``domain``, ``types``, ``primaryType``, ``message``), kept
    exactly as sent: its domain has no ``version`` and its ``chainId`` may be a string."""
    nonce: LenientInt | str | None = None
    deadline: LenientInt | None = None
    quote: GaslessQuoteSummary | None = None
    fee: GaslessFee | None = None


class GaslessSubmission(WireModel):
    """What ``POST /gasless/submit-swap`` returns."""

    swap_id: str
    """The id to follow with `RoutingClient.get_gasless_status`."""
    status: str | None = None
    amount_in: _Amount | None = None
    amount_out: _Amount | None = None
    execution_tx_hash: str | None = None
    fee_amount: _Amount | None = None
    from_token: str | None = None
    to_token: str | None = None
    from_chain: LenientInt | None = None
    to_chain: LenientInt | None = None
    relayer_tx_id: str | None = _RELAYER_TX_ID
    """The relayer's transaction id (``relayerTxId``, or ``tachyonTxId`` live)."""
    route_kind: Any = None
    """An object here (its structure is not documented), a string elsewhere."""

    @property
    def is_failed(self) -> bool:
        """Whether the status is ``failed``, in any case."""
        return _is_failed(self.status)


class GaslessStatus(WireModel):
    """A gasless swap's record (``GET /gasless/status``)."""

    swap_id: str
    status: str | None = None
    """An open set; ``failed`` (any case) is a failure."""
    execution_tx_hash: str | None = None
    """Present once the swap executed."""
    aggregator: str | None = None
    amount_in: _Amount | None = None
    amount_out: _Amount | None = None
    fee_amount: _Amount | None = None
    created_at: _Timestamp = None
    updated_at: _Timestamp = None
    from_: LenientAddress | None = Field(default=None, alias="from")
    """The swapping wallet (``from`` on the wire)."""
    recipient: LenientAddress | None = None
    from_chain_id: LenientInt | None = None
    to_chain_id: LenientInt | None = None
    from_token: str | None = None
    to_token: str | None = None
    route_kind: RouteKind | str | None = None
    relayer_tx_id: str | None = _RELAYER_TX_ID
    """The relayer's transaction id (``relayerTxId``, or ``tachyonTxId`` live)."""

    @property
    def is_failed(self) -> bool:
        """Whether the status is ``failed``, in any case."""
        return _is_failed(self.status)


def _is_failed(status: str | None) -> bool:
    return isinstance(status, str) and status.strip().lower() == "failed"
