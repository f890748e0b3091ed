"""``requote=`` and ``accept_quote=``: the arguments of a journey that may ask for a new
quote, checked once for every journey that takes them (the Flash swap, the Gateway
transfer)."""

from __future__ import annotations

from typing import Final

from .errors import InvalidInputError

__all__ = ["MAX_REQUOTES", "check_requote"]

MAX_REQUOTES: Final = 5
"""The most new quotes ``requote=`` may ask for in one journey."""


def check_requote(requote: object, accept_quote: object) -> int:
    """Check ``requote`` (an int from 0 to `MAX_REQUOTES`) and ``accept_quote`` (a
    callable or ``None``), before any I/O; return ``requote``.

    Raises:
        InvalidInputError: naming the bad argument.
    """
    if (
        isinstance(requote, bool)
        or not isinstance(requote, int)
        or not 0 <= requote <= MAX_REQUOTES
    ):
        raise InvalidInputError("requote", f"must be an int from 0 to {MAX_REQUOTES}")
    if accept_quote is not None and not callable(accept_quote):
        raise InvalidInputError("accept_quote", "must be a function of the quote, or None")
    return requote
