"""What the clients' event hooks receive: metadata about each request, never its content.

Give a client ``on_request=``, ``on_response=`` or ``on_retry=`` (any of them) to count,
time or trace calls. A hook is a plain function, called inline (keep it quick); an async
client also takes an ``async def`` hook and awaits it, in the call it reports on. A
blocking client refuses an ``async def`` hook with `InvalidInputError` when it is made,
since it could never run it::

    from xswap_sdk.events import ResponseEvent


    def timed(event: ResponseEvent) -> None:
        print(event.method, event.path, event.status_code, f"{event.elapsed * 1000:.0f} ms")

    relayer = RelayerClient(api_key="...", on_response=timed)

An event carries the method, the path template (``/balance/{address}``, never the query
string), the attempt number and timings: no header, no body, no credential. A hook that
raises is logged (metadata only) and ignored, so it cannot turn a sent payment into an
error.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeAlias

from ._record import Frozen

__all__ = [
    "RequestEvent",
    "ResponseEvent",
    "RetryEvent",
    "RequestHook",
    "ResponseHook",
    "RetryHook",
]


@dataclass(init=False, repr=False, eq=False, slots=True)
class RequestEvent(Frozen):
    """A request is about to be sent.

    Attributes:
        service: ``"flash"``, ``"routing"``, ``"relayer"`` or ``"gateway"``.
        method: the HTTP method.
        path: the path template, without the query string.
        attempt: 1 for the first try, then 2, 3... for retries.
    """

    service: str
    method: str
    path: str
    attempt: int

    def __init__(self, service: str, method: str, path: str, attempt: int) -> None:
        object.__setattr__(self, "service", service)
        object.__setattr__(self, "method", method)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "attempt", attempt)


@dataclass(init=False, repr=False, eq=False, slots=True)
class ResponseEvent(Frozen):
    """An HTTP answer arrived (any status; read before it is interpreted).

    Attributes:
        service: the service.
        method: the HTTP method.
        path: the path template, without the query string.
        attempt: which try this answers.
        status_code: the HTTP status.
        elapsed: seconds from sending to having read the whole answer.
        request_id: the service's request or trace id, when it sent one.
    """

    service: str
    method: str
    path: str
    attempt: int
    status_code: int
    elapsed: float
    request_id: str | None

    def __init__(
        self,
        service: str,
        method: str,
        path: str,
        attempt: int,
        status_code: int,
        elapsed: float,
        request_id: str | None,
    ) -> None:
        object.__setattr__(self, "service", service)
        object.__setattr__(self, "method", method)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "attempt", attempt)
        object.__setattr__(self, "status_code", status_code)
        object.__setattr__(self, "elapsed", elapsed)
        object.__setattr__(self, "request_id", request_id)


@dataclass(init=False, repr=False, eq=False, slots=True)
class RetryEvent(Frozen):
    """A failed attempt will be tried again after ``delay`` seconds.

    Attributes:
        service: the service.
        method: the HTTP method.
        path: the path template, without the query string.
        attempt: the attempt that failed.
        delay: the seconds waited before the next one.
        reason: ``"HTTP 503"``, or the name of the connection error.
        status_code: the HTTP status of the failed attempt, if it got one.
    """

    service: str
    method: str
    path: str
    attempt: int
    delay: float
    reason: str
    status_code: int | None

    def __init__(
        self,
        service: str,
        method: str,
        path: str,
        attempt: int,
        delay: float,
        reason: str,
        status_code: int | None,
    ) -> None:
        object.__setattr__(self, "service", service)
        object.__setattr__(self, "method", method)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "attempt", attempt)
        object.__setattr__(self, "delay", delay)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "status_code", status_code)


RequestHook: TypeAlias = Callable[[RequestEvent], Awaitable[None] | None]
"""Called with a `RequestEvent` before each attempt is sent (an ``async def`` hook is
awaited, by the async clients only)."""
ResponseHook: TypeAlias = Callable[[ResponseEvent], Awaitable[None] | None]
"""Called with a `ResponseEvent` for each answer (an ``async def`` hook is awaited, by the
async clients only)."""
RetryHook: TypeAlias = Callable[[RetryEvent], Awaitable[None] | None]
"""Called with a `RetryEvent` before each retry wait (an ``async def`` hook is awaited, by
the async clients only)."""
