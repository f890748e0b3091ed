"""The in-flight gate: at most as many requests in flight as the pool has connections.

httpcore's connection pool (1.0) looks for a connection for every queued request each
time any request starts or ends, so its cost grows with the queue times the pool size:
1,000 concurrent requests on a 100-connection pool starve the event loop until
connections time out before they are made. The gate keeps httpcore's queue empty: a
burst waits here, in a plain FIFO semaphore, for as long as the call's deadline allows,
and a request reaches the pool only when a connection is free for it.

`AsyncGate` is for the async transport and `Gate` for the blocking one (threads); the
transports acquire one around each attempt's exchange. A pool of unknown size (a
caller's client with a custom transport) or with no connection limit has no gate, and
neither has a caller's httpx2 client: httpcore2's pool does not starve (1,000
concurrent reads at 100 connections ran at raw httpx2's rate without the gate and at
about 60% of it with one: ``benchmarks/http_stacks.py``).
`LoopBound` keeps the async gate's semaphore, and the async login lock, per event loop.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    import asyncio

__all__ = ["AsyncGate", "Gate", "LoopBound", "pool_size"]

P = TypeVar("P")


class Gate:
    """At most ``size`` requests in flight across threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._slots = threading.BoundedSemaphore(size)

    def acquire(self, within: float | None) -> threading.BoundedSemaphore | None:
        """Take a slot, waiting at most ``within`` seconds (``None``: as long as it
        takes). Returns what to ``release()`` the slot on, or ``None`` when no slot
        freed up in time."""
        return self._slots if self._slots.acquire(timeout=within) else None


class LoopBound(Generic[P]):
    """An asyncio primitive (lock, semaphore) for the running event loop, made by
    ``make`` on the loop's first use.

    An asyncio primitive belongs to the first event loop that waits on it and refuses to
    wait in any other. A client kept across ``asyncio.run`` calls (a notebook cell, a
    script that runs several) gets a fresh one on each new loop; the tasks of one loop
    share one.
    """

    def __init__(self, make: Callable[[], P]) -> None:
        self._make = make
        self._value: P | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def get(self) -> P:
        """The running loop's primitive."""
        import asyncio  # here: a blocking program never pays for importing it

        loop = asyncio.get_running_loop()
        if self._value is None or self._loop is not loop:
            self._value, self._loop = self._make(), loop
        return self._value


class AsyncGate:
    """At most ``size`` requests in flight across the tasks of one event loop (one
    semaphore per loop: see `LoopBound`)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._slots = LoopBound(self._semaphore)

    def _semaphore(self) -> asyncio.Semaphore:
        import asyncio

        return asyncio.Semaphore(self.size)

    async def acquire(self, within: float | None) -> asyncio.Semaphore | None:
        """Take a slot, waiting at most ``within`` seconds (``None``: as long as it
        takes). Returns what to ``release()`` the slot on, or ``None`` when no slot
        freed up in time."""
        import asyncio  # here: a blocking program never pays for importing it

        slots = self._slots.get()
        if not slots.locked():
            await slots.acquire()  # a free slot: no timer to arm
            return slots
        try:
            await asyncio.wait_for(slots.acquire(), within)
        except TimeoutError:
            return None
        return slots


def pool_size(client: Any) -> int | None:
    """The connection limit of an httpx client's pool, when it can be read.

    httpx does not expose it, so this reads the default transport's httpcore pool and
    answers ``None`` for anything else (a mounted or custom transport, another httpx
    version's layout): such a client runs without a gate.
    """
    pool = getattr(getattr(client, "_transport", None), "_pool", None)
    size = getattr(pool, "_max_connections", None)
    return size if isinstance(size, int) and not isinstance(size, bool) and size > 0 else None
