"""Slippage in percent, checked against a maximum before any I/O.

One rule for every client that takes a ``slippage``: it is a percent (``"0.5"`` is 0.5 %,
not 0.5 basis points), and a value above `DEFAULT_MAX_SLIPPAGE` is refused unless the
caller raises the maximum with ``max_slippage=``. The maximum exists for the careless
caller: ``slippage=50`` meant as 50 basis points would otherwise be taken as 50 % and
signed, letting the output fall to half of the quote.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Final

from .errors import InvalidInputError

__all__ = ["DEFAULT_MAX_SLIPPAGE", "check_slippage"]

DEFAULT_MAX_SLIPPAGE: Final[Decimal] = Decimal(5)
"""The largest slippage accepted without ``max_slippage=``: 5 (percent)."""

_HUNDRED: Final = Decimal(100)


def _percent(value: object, argument: str) -> Decimal:
    # A float is read through its shortest text (1.1 is Decimal("1.1")), never through its
    # binary value; bool is an int to Python but never a percent.
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise InvalidInputError(argument, "must be a number of percent such as 1.5 or '0.5'")
    try:
        number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation:
        raise InvalidInputError(argument, "must be a number of percent such as 1.5") from None
    if not number.is_finite() or not 0 <= number <= _HUNDRED:
        raise InvalidInputError(argument, "must be between 0 and 100 (percent)")
    return number


def check_slippage(
    slippage: object, *, max_slippage: object = None, argument: str = "slippage"
) -> Decimal | None:
    """Validate a slippage in percent against a maximum; return it as an exact `Decimal`.

    Args:
        slippage: the tolerated slippage in percent (``"0.5"`` means 0.5 %), or None.
        max_slippage: the largest slippage accepted, in percent; None means
            `DEFAULT_MAX_SLIPPAGE` (5 %). Raise it to accept more.
        argument: the name the caller used for ``slippage``, for the error.

    Returns:
        The slippage as a `Decimal` percent, or None when ``slippage`` is None.

    Raises:
        InvalidInputError: ``slippage`` is not a number from 0 to 100, ``max_slippage`` is
            not one either, or ``slippage`` exceeds the maximum (the message names both
            ``slippage`` and ``max_slippage``). Raised before any network I/O.
    """
    limit = DEFAULT_MAX_SLIPPAGE if max_slippage is None else _percent(max_slippage, "max_slippage")
    if slippage is None:
        return None
    value = _percent(slippage, argument)
    if value > limit:
        raise InvalidInputError(
            argument,
            f"{_text(value)} (percent) is above the maximum of {_text(limit)} %: slippage is "
            f"a percent, so 0.5 means 0.5 % (50 basis points); pass max_slippage="
            f"{_text(value)!r} to accept it",
        )
    return value


def _text(value: Decimal) -> str:
    return format(value.normalize(), "f")
