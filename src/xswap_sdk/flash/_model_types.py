"""The value types and the snake_case base the Flash models share (the public ones
re-exported by `xswap_sdk.flash.models`): cheap, so every group of models imports them."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, ClassVar, Final, Literal

from pydantic import (
    ConfigDict,
    Field,
)

from .._models import WireModel

__all__ = [
    "SWAP_STATUSES",
    "SwapStatus",
    "TIME_RANGES",
    "TimeRange",
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


class _SnakeModel(WireModel):
    """Base of the backend's snake_case resources: the wire names are the attribute
    names."""

    model_config: ClassVar[ConfigDict] = ConfigDict(alias_generator=None)
