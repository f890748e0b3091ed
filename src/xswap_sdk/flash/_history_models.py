"""The Flash models of the history, the leaderboard and referrals, re-exported by
`xswap_sdk.flash.models`; loaded at the first such read (or a swap waited for)."""

from __future__ import annotations

from pydantic import (
    Field,
    ValidationInfo,
    field_serializer,
    field_validator,
)

from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, WireModel
from ..types import (
    UsdcNumberUnits,
    UsdcUnits,
    from_units,
    to_units,
)
from ._model_types import (
    SwapStatus,
    _SnakeModel,
    _Timestamp,
)
from ._token_models import Token

__all__ = [
    "HistoryPage",
    "HistorySummary",
    "LeaderboardEntry",
    "LeaderboardPage",
    "Pagination",
    "Referral",
    "ReferralOverview",
    "SwapRecord",
]

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


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.flash.models")
