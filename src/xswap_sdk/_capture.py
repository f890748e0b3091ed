"""The raw responses a client's ``capture_responses()`` collects.

A capture is registered in a context variable, so it sees the calls of its own thread
or task only, and only those made through the client's pool (a ``with_options`` copy
shares it). The transport appends one `RawResponse` per attempt.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx

from ._record import Frozen

__all__ = ["RawResponse", "capture_responses"]


@dataclass(init=False, repr=False, eq=False, slots=True)
class RawResponse(Frozen):
    """One HTTP response as received, for status and headers beyond the parsed model.

    Collected by a client's ``capture_responses()``; one per attempt, so retried
    responses appear too. The request's own headers (which carry credentials) are not
    kept, and credentials in a body (the JWT a login returns) are replaced by
    ``"[redacted]"``.
    """

    service: str
    """The service that answered: ``"flash"``, ``"routing"``, ``"relayer"`` or ``"gateway"``."""
    method: str
    """The HTTP method of the request (``"POST"``)."""
    path: str
    """The request path without its query string (``"/api/submit-tx"``)."""
    status_code: int
    """The HTTP status of the answer."""
    headers: httpx.Headers
    """The answer's headers, as received."""
    content: bytes
    """The answer's body, credentials replaced by ``"[redacted]"``."""
    elapsed: float
    """Seconds from sending the request to reading the whole answer."""
    attempt: int
    """Which attempt of the call this answer came from (``1`` for the first)."""

    def __init__(
        self,
        service: str,
        method: str,
        path: str,
        status_code: int,
        headers: httpx.Headers,
        content: bytes,
        elapsed: float,
        attempt: int,
    ) -> None:
        object.__setattr__(self, "service", service)
        object.__setattr__(self, "method", method)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "status_code", status_code)
        object.__setattr__(self, "headers", headers)
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "elapsed", elapsed)
        object.__setattr__(self, "attempt", attempt)

    @property
    def text(self) -> str:
        """The body decoded as UTF-8."""
        return self.content.decode("utf-8", errors="replace")

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.content)

    def __repr__(self) -> str:
        return f"<RawResponse {self.method} {self.path} {self.status_code}>"


class _Capture(list[RawResponse]):
    def __init__(self, pool: object) -> None:
        super().__init__()
        self.pool = pool


_captures: contextvars.ContextVar[tuple[_Capture, ...]] = contextvars.ContextVar(
    "xswap_sdk_captures", default=()
)


@contextlib.contextmanager
def capture_responses(pool: object) -> Iterator[list[RawResponse]]:
    """Collect the `RawResponse` of every call made through ``pool`` in this context."""
    capture = _Capture(pool)
    token = _captures.set((*_captures.get(), capture))
    try:
        yield capture
    finally:
        _captures.reset(token)
