"""Walk a paged endpoint lazily, written once for blocking and async iteration.

`walk_pages` is a generator of steps, like the flows of ``xswap_sdk._flow``: it yields
`Call` ("fetch this page") and `Emit` ("hand this item to the caller"). The transport's
``iterate`` drives it, so ``for record in client.iter_history()`` and
``async for record in client.iter_history()`` share one loop. A page is requested only
when the caller has consumed the items of the previous one.

The walk stops when the page says there is no next one, and also when a page comes back
empty, so a service that keeps saying "there is more" without sending anything cannot
make it loop forever.
"""

from __future__ import annotations

from collections.abc import (
    Callable,
    Generator,
    Sequence,
)
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, TypeVar

from ._flow import Call
from ._operation import Operation

__all__ = ["Emit", "PageWalk", "walk_pages"]

T = TypeVar("T")
P = TypeVar("P")


@dataclass(frozen=True, slots=True)
class Emit(Generic[T]):
    """Step: give ``item`` to the caller of the iterator."""

    item: T


PageWalk: TypeAlias = Generator[Call[Any] | Emit[T], Any, None]
"""The steps of a page walk: calls to send and items to emit."""


def walk_pages(
    fetch: Callable[[int], Operation[P]],
    items: Callable[[P], Sequence[T]],
    has_next: Callable[[P], bool],
    *,
    first_page: int = 1,
) -> PageWalk[T]:
    """Request page after page from ``first_page`` on, emitting each page's items.

    Args:
        fetch: builds the operation that reads page ``n``.
        items: the items of a page, in order.
        has_next: whether a page says that another one follows.
        first_page: the first page to read.
    """
    page = first_page
    while True:
        result: P = yield Call(fetch(page))
        found = items(result)
        for item in found:
            yield Emit(item)
        if not found or not has_next(result):
            return
        page += 1
