"""Walk a paged endpoint lazily, written once for blocking and async iteration.

`walk_pages` is a generator of steps, like the flows of ``xswap_sdk._flow``: it yields
`Call` ("fetch this page") and `Emit` ("hand this item to the caller"). The transport's
``iterate`` drives it, so ``for record in client.iter_history()`` and
``async for record in client.iter_history()`` share one loop. A page is requested only
when the caller has consumed the items of the previous one.

The walk stops when the page says there is no next one, and also when a page comes back
empty, so a service that keeps saying "there is more" without sending anything cannot
make it loop forever. Nor can one that keeps sending the same page: a page with the same
items as the one before, or a page number the service already reported, raises
`PaginationError`, and so does a walk past `DEFAULT_MAX_PAGES` pages.
"""

from __future__ import annotations

from collections.abc import (
    Callable,
    Generator,
    Sequence,
)
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeAlias, TypeVar

from ._flow import Call
from ._operation import Operation
from ._record import Frozen
from .errors import PaginationError

__all__ = [
    "DEFAULT_MAX_PAGES",
    "Emit",
    "PageWalk",
    "walk_pages",
]

DEFAULT_MAX_PAGES: Final = 10_000
"""The most pages one walk reads before it raises `PaginationError`.

At the swap backend's default page sizes that is 200,000 history records or 500,000
leaderboard entries: more than any real list, and few enough that a service answering
"there is a next page" forever costs minutes, not a process that never ends. To read
beyond it, start a new walk at a later page.
"""

T = TypeVar("T")
P = TypeVar("P")


@dataclass(init=False, repr=False, eq=False, slots=True)
class Emit(Frozen, Generic[T]):
    """Step: give ``item`` to the caller of the iterator."""

    item: T

    def __init__(self, item: T) -> None:
        object.__setattr__(self, "item", item)


PageWalk: TypeAlias = Generator[Call[Any] | Emit[T], Any, None]
"""The steps of a page walk: calls to send and items to emit."""


def walk_pages(
    fetch: Callable[[int], Operation[P]],
    items: Callable[[P], Sequence[T]],
    has_next: Callable[[P], bool],
    *,
    first_page: int = 1,
    page_number: Callable[[P], int | None] | None = None,
    max_pages: int = DEFAULT_MAX_PAGES,
) -> PageWalk[T]:
    """Request page after page from ``first_page`` on, emitting each page's items.

    Args:
        fetch: builds the operation that reads page ``n``.
        items: the items of a page, in order.
        has_next: whether a page says that another one follows.
        first_page: the first page to read.
        page_number: the page number a page reports about itself (``current_page``),
            or ``None`` when it reports none; a number reported twice stops the walk.
        max_pages: the most pages to read.

    Raises:
        PaginationError: a page repeats the previous one (same items, or a page number
            already reported) or the walk passed ``max_pages``; the repeated page's
            items are not emitted.
    """
    page = first_page
    previous: list[T] = []
    reported: set[int] = set()
    for _ in range(max_pages):
        operation = fetch(page)
        result: P = yield Call(operation)
        found = list(items(result))
        problem = None
        number = page_number(result) if page_number is not None else None
        if found and found == previous:
            problem = f"page {page} holds the same {len(found)} item(s) as page {page - 1}"
        elif number is not None and number in reported:
            problem = f"the service answered page {page} as page {number}, which it already sent"
        if problem is not None:
            raise PaginationError(
                f"{problem}; stopped rather than loop forever",
                page=page,
                method=operation.method,
                path=operation.log_path,
            )
        if number is not None:
            reported.add(number)
        for item in found:
            yield Emit(item)
        if not found or not has_next(result):
            return
        previous = found
        page += 1
    operation = fetch(page)
    raise PaginationError(
        f"the service still reports a next page after {max_pages:,} pages, the most one "
        f"walk reads; stopped before page {page} (start a new walk there to go on)",
        page=page,
        method=operation.method,
        path=operation.log_path,
    )
