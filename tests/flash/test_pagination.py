"""iter_history and iter_leaderboard: every page, lazily, stopping on has_next false."""

from __future__ import annotations

from typing import Any

import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import errors
from xswap_sdk._pagination import Emit, PageWalk, walk_pages
from xswap_sdk.flash import LeaderboardEntry, SwapRecord

from ..support import FLASH_URL
from .payloads import history, leaderboard_entry, pagination, swap_record


async def collect(iterator: Any, limit: int | None = None) -> list[Any]:
    """Items of a sync or async iterator (at most ``limit``)."""
    items: list[Any] = []
    if hasattr(iterator, "__aiter__"):
        async for item in iterator:
            items.append(item)
            if limit is not None and len(items) == limit:
                await iterator.aclose()
                break
    else:
        for item in iterator:
            items.append(item)
            if limit is not None and len(items) == limit:
                iterator.close()
                break
    return items


def history_page(page: int, pages: int, per_page: int = 2) -> dict[str, Any]:
    records = [
        swap_record("0x" + f"{page:02x}{index:02x}" + "00" * 30, "completed")
        for index in range(per_page)
    ]
    return history(records, page=page, pages=pages)


def board_page(page: int, pages: int, has_next: bool | None = None) -> dict[str, Any]:
    paging = pagination(page, pages, size=2)
    if has_next is not None:
        paging["has_next"] = has_next
    entries = [leaderboard_entry((page - 1) * 2 + offset + 1) for offset in range(2)]
    return {"entries": entries, "pagination": paging}


async def test_iter_history_walks_every_page_in_order(flash: Any, httpx_mock: HTTPXMock) -> None:
    for page in (1, 2, 3):
        httpx_mock.add_response(
            url=f"{FLASH_URL}/history?page={page}&page_size=2&status=completed",
            json=history_page(page, 3),
        )
    records = await collect(flash.iter_history(page_size=2, status="completed"))
    assert len(records) == 6
    assert all(isinstance(record, SwapRecord) for record in records)
    assert [r.transaction_hash[2:6] for r in records] == [
        "0100",
        "0101",
        "0200",
        "0201",
        "0300",
        "0301",
    ]
    assert len(httpx_mock.get_requests()) == 3
    assert all(r.headers["authorization"] for r in httpx_mock.get_requests())


async def test_iteration_is_lazy(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{FLASH_URL}/history?page=1&page_size=2", json=history_page(1, 9))
    httpx_mock.add_response(url=f"{FLASH_URL}/history?page=2&page_size=2", json=history_page(2, 9))
    iterator = flash.iter_history(page_size=2)
    assert httpx_mock.get_requests() == []  # nothing is sent before iteration starts
    records = await collect(iterator, limit=3)
    assert len(records) == 3
    assert len(httpx_mock.get_requests()) == 2  # page 3 of 9 was never asked for


async def test_iter_history_can_start_later(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{FLASH_URL}/history?page=3&page_size=20", json=history_page(3, 3))
    assert len(await collect(flash.iter_history(page=3))) == 2


async def test_iter_leaderboard_stops_on_has_next_false(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{FLASH_URL}/leaderboard?page=1&page_size=2&time_range=30d",
        json=board_page(1, 5, has_next=True),
    )
    httpx_mock.add_response(
        url=f"{FLASH_URL}/leaderboard?page=2&page_size=2&time_range=30d",
        json=board_page(2, 5, has_next=False),  # has_next wins over total_pages
    )
    entries = await collect(flash.iter_leaderboard(page_size=2, time_range="30d"))
    assert [entry.rank for entry in entries] == [1, 2, 3, 4]
    assert all(isinstance(entry, LeaderboardEntry) for entry in entries)
    assert all("authorization" not in r.headers for r in httpx_mock.get_requests())


async def test_a_page_without_has_next_is_refused(flash: Any, httpx_mock: HTTPXMock) -> None:
    # has_next is in the spec's pagination object: a page without it does not fit.
    body = board_page(1, 2)
    del body["pagination"]["has_next"]
    httpx_mock.add_response(url=f"{FLASH_URL}/leaderboard?page=1&page_size=50", json=body)
    with pytest.raises(errors.ResponseValidationError, match=r"pagination\.has_next"):
        await collect(flash.iter_leaderboard())


async def test_an_empty_page_ends_the_walk(flash: Any, httpx_mock: HTTPXMock) -> None:
    # A service that says "more" but sends nothing must not make the walk loop forever.
    httpx_mock.add_response(
        url=f"{FLASH_URL}/leaderboard?page=1&page_size=50",
        json={"entries": [], "pagination": pagination(1, 3, size=50)},
    )
    assert await collect(flash.iter_leaderboard()) == []


async def test_a_page_without_pagination_is_refused(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{FLASH_URL}/leaderboard?page=1&page_size=50", json={"entries": [leaderboard_entry(1)]}
    )
    with pytest.raises(errors.ResponseValidationError, match="pagination"):
        await collect(flash.iter_leaderboard())


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda c: c.iter_history(page=0), "page"),
        (lambda c: c.iter_history(page_size=500), "page_size"),
        (lambda c: c.iter_history(status="all"), "status"),
        (lambda c: c.iter_leaderboard(page="1"), "page"),
        (lambda c: c.iter_leaderboard(time_range="1h"), "time_range"),
    ],
)
async def test_arguments_are_checked_before_the_first_request(
    flash: Any, httpx_mock: HTTPXMock, call: Any, argument: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await collect(call(flash))
    assert info.value.argument == argument
    assert httpx_mock.get_requests() == []


async def test_an_error_mid_walk_propagates(flash: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{FLASH_URL}/history?page=1&page_size=2", json=history_page(1, 3))
    httpx_mock.add_response(
        url=f"{FLASH_URL}/history?page=2&page_size=2", status_code=400, json={"message": "no"}
    )
    seen: list[Any] = []

    async def drain(iterator: Any) -> None:
        if hasattr(iterator, "__aiter__"):
            async for record in iterator:
                seen.append(record)
        else:
            seen.extend(iterator)

    with pytest.raises(errors.BadRequestError):
        await drain(flash.iter_history(page_size=2))
    assert len(seen) == 2


class _Sender:
    """Stands in for a transport's ``request``: ``send`` answers each page's operation."""

    def __init__(self, send: Any) -> None:
        self.request = lambda operation, options: send(operation)


def iterate_with(walk: PageWalk[Any], send: Any) -> Any:
    """Drive a page walk as the sync transport does, with ``send`` for its requests."""
    from xswap_sdk._sync_transport import SyncTransport

    return SyncTransport.iterate(_Sender(send), walk)


def aiterate_with(walk: PageWalk[Any], send: Any) -> Any:
    """`iterate_with`, as the async transport drives it, for an async ``send``."""
    from xswap_sdk._async_transport import AsyncTransport

    return AsyncTransport.iterate(_Sender(send), walk)


def test_walk_pages_is_driven_by_a_plain_send() -> None:
    pages = {1: ["a", "b"], 2: ["c"]}
    sent: list[int] = []

    def send(operation: Any) -> Any:
        number = int(operation.path)
        sent.append(number)
        return number

    from xswap_sdk._operation import Operation

    walk = walk_pages(
        lambda n: Operation("GET", str(n), lambda data: data),
        lambda n: pages[n],
        lambda n: n < 2,
    )
    assert list(iterate_with(walk, send)) == ["a", "b", "c"]
    assert sent == [1, 2]
    assert Emit("x").item == "x"


# ---------------------------------------------------------------------------- runaway walks


async def test_a_page_repeating_the_previous_one_stops_the_walk(
    flash: Any, httpx_mock: HTTPXMock
) -> None:
    # A backend that ignores ?page= sends page 1 again and again, saying "more" each time.
    httpx_mock.add_response(json=history_page(1, 9), is_reusable=True)
    seen: list[Any] = []
    with pytest.raises(errors.PaginationError) as info:
        await collect_into(flash.iter_history(page_size=2), seen)
    assert len(seen) == 2  # page 1's records, once; the repeat is not handed out
    assert len(httpx_mock.get_requests()) == 2
    exc = info.value
    assert exc.page == 2
    assert (exc.method, exc.path) == ("GET", "/history")
    assert "page 2 holds the same 2 item(s) as page 1" in str(exc)


async def collect_into(iterator: Any, into: list[Any]) -> None:
    if hasattr(iterator, "__aiter__"):
        async for item in iterator:
            into.append(item)
    else:
        into.extend(iterator)


def plain_walk(**kwargs: Any) -> Any:
    from xswap_sdk._operation import Operation

    return walk_pages(
        lambda n: Operation("GET", f"/items?page={n}", lambda data: data, path_template="/items"),
        lambda page: page["items"],
        lambda page: page["more"],
        **kwargs,
    )


def sender(pages: Any, sent: list[int]) -> Any:
    def send(operation: Any) -> Any:
        number = int(operation.path.rpartition("=")[2])
        sent.append(number)
        return pages(number)

    return send


def test_a_page_number_reported_twice_stops_the_walk() -> None:
    # Different items each time, but the service says it is on page 1 every time.
    sent: list[int] = []
    walk = plain_walk(page_number=lambda page: page["current"])
    pages = sender(lambda n: {"items": [n], "more": True, "current": min(n, 2)}, sent)
    seen: list[Any] = []
    with pytest.raises(errors.PaginationError) as info:
        seen.extend(iterate_with(walk, pages))
    assert seen == [1, 2]
    assert sent == [1, 2, 3]
    assert info.value.page == 3
    assert "answered page 3 as page 2, which it already sent" in str(info.value)


def test_a_page_number_of_none_is_not_a_repeat() -> None:
    walk = plain_walk(page_number=lambda page: None)
    pages = sender(lambda n: {"items": [n], "more": n < 3}, [])
    assert list(iterate_with(walk, pages)) == [1, 2, 3]


def test_an_endless_sequence_stops_at_the_bound() -> None:
    sent: list[int] = []
    walk = plain_walk(max_pages=50, first_page=7)
    pages = sender(lambda n: {"items": [n], "more": True}, sent)
    seen: list[Any] = []
    with pytest.raises(errors.PaginationError) as info:
        seen.extend(iterate_with(walk, pages))
    assert len(sent) == 50
    assert seen == list(range(7, 57))
    assert info.value.page == 57
    assert "after 50 pages" in str(info.value)
    assert str(info.value).startswith("GET /items: ")  # the template, never the query


async def test_the_bound_holds_for_the_async_driver() -> None:
    from xswap_sdk._pagination import DEFAULT_MAX_PAGES

    sent: list[int] = []

    async def send(operation: Any) -> Any:
        sent.append(1)
        return {"items": [len(sent)], "more": True}

    seen: list[Any] = []
    with pytest.raises(errors.PaginationError):
        await collect_into(aiterate_with(plain_walk(), send), seen)
    assert len(seen) == len(sent) == DEFAULT_MAX_PAGES
