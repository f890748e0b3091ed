"""The Flash models of quotes (``/quote``), re-exported by `xswap_sdk.flash.models`;
loaded at the first quote."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from pydantic import (
    Field,
    PrivateAttr,
    model_validator,
)

from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, RequestModel, private_value
from ..types import (
    Address,
    ChainId,
    TokenAmount,
    _same_address,
)
from ._model_types import (
    _SnakeModel,
    _timestamp_seconds,
)

__all__ = [
    "Quote",
    "QuoteFees",
    "QuoteRequest",
    "QuoteToken",
]

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


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.flash.models")
