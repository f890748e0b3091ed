"""What the clients' event hooks receive: metadata about each request, never its content.

Give a client ``on_request=``, ``on_response=`` or ``on_retry=`` (any of them; a plain
function, also for the async clients, which call it inline: keep it quick) to count,
time or trace calls::

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

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

__all__ = [
    "RequestEvent",
    "ResponseEvent",
    "RetryEvent",
    "RequestHook",
    "ResponseHook",
    "RetryHook",
]


@dataclass(frozen=True, slots=True)
class RequestEvent:
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


@dataclass(frozen=True, slots=True)
class ResponseEvent:
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


@dataclass(frozen=True, slots=True)
class RetryEvent:
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


RequestHook: TypeAlias = Callable[[RequestEvent], None]
"""Called with a `RequestEvent` before each attempt is sent."""
ResponseHook: TypeAlias = Callable[[ResponseEvent], None]
"""Called with a `ResponseEvent` for each answer."""
RetryHook: TypeAlias = Callable[[RetryEvent], None]
"""Called with a `RetryEvent` before each retry wait."""
