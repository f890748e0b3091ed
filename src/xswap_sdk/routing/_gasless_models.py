"""The routing models of gasless Permit2 swaps (``/gasless/*``), re-exported by
`xswap_sdk.routing.models`; loaded at the first gasless call."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    AliasChoices,
    BeforeValidator,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    StrictStr,
)

from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, RequestModel, WireModel
from ..types import Address, ChainId, TokenAmount
from ._model_types import (
    _RELAYER_TX_ID_ALIASES,
    AcquisitionMode,
    Percent,
    RankingMode,
    RouteKind,
    TokenAddress,
    _Amount,
    _is_failed,
    _Mode,
    _Providers,
    _Timestamp,
    _Usd,
    _witness_by_default,
)

__all__ = [
    "GaslessFee",
    "GaslessQuote",
    "GaslessQuoteRequest",
    "GaslessQuoteSummary",
    "GaslessStatus",
    "GaslessSubmission",
]

# ---------------------------------------------------------------------------- requests


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


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.routing.models")
