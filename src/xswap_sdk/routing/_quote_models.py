"""The routing models of quotes, routes and their transactions (``/quote``,
``/build-best-path``, ``/build-path``), re-exported by `xswap_sdk.routing.models`;
loaded at a client's first quote, not with the client."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import (
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
)
from pydantic_core import PydanticCustomError

from .._body import DEFAULT_MAX_NESTING, copy_json, value_nesting_depth
from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, RequestModel, WireModel
from ..types import Address, ChainId, HexBytes, TokenAmount
from ._model_types import (
    Percent,
    RouteKind,
    RouteMode,
    TokenAddress,
    _Amount,
    _Mode,
    _Providers,
    _Usd,
)

__all__ = [
    "BuildBestPathRequest",
    "BuildPathRequest",
    "BuiltPath",
    "GasFee",
    "GasToken",
    "PathStep",
    "Provider",
    "QuoteRequest",
    "Route",
    "RouteFees",
    "RouteToken",
    "Transaction",
]

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


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.routing.models")
