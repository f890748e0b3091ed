"""Re-quotes that are never silently worse: the ``requote=`` and ``accept_quote=``
arguments every re-quoting flow takes, checked once.

A flow may ask for a new quote (or build a new transaction) only when the one it holds
expired before it was signed, at most ``requote`` times. Each new one passes every
check the first did, and is then offered to ``accept_quote``; a quote refused for any
other rule is refused as it is. Used by `FlashClient.swap`,
`RoutingClient.execute_route` and `RoutingClient.gasless_swap`.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from typing import Any, Final, TypeVar

from ._flow import Ask, Flow, Record
from .errors import InvalidInputError, QuoteRejectedError, XSwapError

__all__ = ["MAX_REQUOTES", "again", "check_requote", "offer"]

T = TypeVar("T")

MAX_REQUOTES: Final = 5
"""The most new quotes ``requote=`` may ask for in one call."""


def check_requote(
    requote: object, accept_quote: Callable[[T], bool] | None
) -> tuple[int, Callable[[T], bool] | None]:
    """Validate ``requote`` (an ``int`` from 0 to `MAX_REQUOTES`) and ``accept_quote``
    (a function of the new quote, or ``None``), before any I/O.

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
    return requote, accept_quote


def offer(accept_quote: Callable[[Any], bool] | None, new: Any, what: str = "quote") -> Flow[None]:
    """Offer a new quote, checked, to the caller's hook before it is signed (an `Ask`
    step: the driver asks the hook, or replays its answer). A journey resumed without
    the hook its caller gave cannot ask it: the new quote is declined.

    Raises:
        QuoteRejectedError: the hook declined it (argument ``accept_quote``); nothing
            was signed.
        InvalidInputError: the hook returned anything but ``True`` or ``False`` (an
            ``async def`` hook's coroutine among them).
    """
    accepted = yield Ask(accept_quote, new, what)
    if accepted is not True:
        raise QuoteRejectedError("accept_quote", f"declined the new {what}", quote=new)


def again(
    exc: XSwapError,
    attempt: int,
    limit: int,
    *,
    expired: Container[str] | None = None,
    data: Mapping[str, Any] | None = None,
) -> Flow[int]:
    """Whether a flow may ask again after ``exc``: the next attempt, once ``requoted``
    is written; ``exc`` itself when not. Only a refusal naming one of ``expired`` (a
    `QuoteRejectedError`'s argument; ``None``: any ``exc`` the flow chose to ask again
    for) is asked again, and at most ``limit`` times: a quote refused for any other rule
    is refused as it is.

    Raises:
        XSwapError: ``exc``, when it is not asked again.
    """
    argument = getattr(exc, "argument", None)
    if attempt >= limit or (expired is not None and argument not in expired):
        raise exc
    reason = getattr(exc, "rule", None) or str(exc)
    yield Record("requoted", data={"reason": reason, **(data or {}), "attempt": attempt + 1})
    return attempt + 1
