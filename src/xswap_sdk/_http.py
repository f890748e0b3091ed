"""The HTTP library seam: httpx, or httpx2 for a caller who hands the SDK an httpx2 client.

httpx2 is pydantic's API-identical continuation of httpx (the openai package requires
it). The SDK's own connection pool is an httpx client, and every type it takes or gives
(``timeout=`` as an `httpx.Timeout`, ``limits=``, the headers of an error or of a
captured response) stays httpx's. A caller's ``http_client=`` may be an httpx client or
an httpx2 one: an app that already has an ``httpx2.Client`` (for openai, say) shares its
connections, proxies and certificates with the SDK instead of carrying a second stack.

The two libraries' clients are used the same way (``send``, ``headers``, ``params``,
``cookies``, ``timeout``, streamed ``iter_bytes``), so the transport drives either. Only
what the library itself defines differs, and a `Stack` names it: the request class the
request is built with, the exception classes a failed exchange raises (an httpx2 error
is not an `httpx.HTTPError`), and the two conversions at the edge, an answer's headers
and URL into httpx's types. With httpx, both are the identity.

httpx2 is optional: it is imported only when it already is (a caller's httpx2 client
exists only if httpx2 was imported), never by the SDK on its own.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final

import httpx

from ._record import Frozen

__all__ = ["HTTPX", "Stack", "stack_of"]


@dataclass(init=False, repr=False, eq=False, slots=True)
class Stack(Frozen):
    """What the transport needs of one HTTP library.

    Attributes:
        name: the library's import name (``"httpx"`` or ``"httpx2"``).
        request: its ``Request`` class.
        error: the base of the errors an exchange raises (its ``HTTPError``).
        timeout_error: its ``TimeoutException``.
        never_sent: the errors that prove a request never reached the server (a
            refused connection, a connect or pool timeout, an unsupported scheme, a
            request it could not write).
        phases: each timeout error class, and the phase it ran out in.
        native: whether its types are httpx's own (no conversion at the edge).
        gated: whether its connection pool needs the SDK's in-flight gate (httpcore
            1.0's does; httpcore2's does not: see ``xswap_sdk._concurrency``).
    """

    name: str
    request: type[Any]
    error: type[Exception]
    timeout_error: type[Exception]
    never_sent: tuple[type[Exception], ...]
    phases: tuple[tuple[type[Exception], str], ...]
    native: bool
    gated: bool

    def __init__(
        self,
        name: str,
        request: type[Any],
        error: type[Exception],
        timeout_error: type[Exception],
        never_sent: tuple[type[Exception], ...],
        phases: tuple[tuple[type[Exception], str], ...],
        native: bool,
        gated: bool,
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "request", request)
        object.__setattr__(self, "error", error)
        object.__setattr__(self, "timeout_error", timeout_error)
        object.__setattr__(self, "never_sent", never_sent)
        object.__setattr__(self, "phases", phases)
        object.__setattr__(self, "native", native)
        object.__setattr__(self, "gated", gated)

    @classmethod
    def of(cls, module: ModuleType) -> Stack:
        """The stack of ``module`` (httpx, or a library with its API)."""
        return cls(
            name=module.__name__,
            request=module.Request,
            error=module.HTTPError,
            timeout_error=module.TimeoutException,
            never_sent=(
                module.ConnectError,
                module.ConnectTimeout,
                module.PoolTimeout,
                module.UnsupportedProtocol,
                module.LocalProtocolError,
            ),
            phases=(
                (module.ConnectTimeout, "connect"),
                (module.ReadTimeout, "read"),
                (module.WriteTimeout, "write"),
                (module.PoolTimeout, "pool"),
            ),
            native=module is httpx,
            gated=module is httpx,
        )

    def headers(self, headers: Any) -> httpx.Headers:
        """An answer's headers as `httpx.Headers` (as received, repeats kept)."""
        if self.native:
            return headers  # type: ignore[no-any-return]
        return httpx.Headers(headers.raw, encoding=headers.encoding)

    def url(self, url: Any) -> httpx.URL:
        """A request's URL as an `httpx.URL`."""
        return url if self.native else httpx.URL(str(url))

    def phase(self, exc: BaseException) -> str:
        """The phase a timeout error ran out in (``"read"`` when it does not say)."""
        return next((name for kind, name in self.phases if isinstance(exc, kind)), "read")


HTTPX: Final = Stack.of(httpx)
"""httpx: the SDK's own pool, and a caller's httpx client."""

_HTTPX2: list[Stack] = []


def _httpx2() -> ModuleType | None:
    """httpx2, when something has imported it already."""
    return sys.modules.get("httpx2")


def stack_of(client: object, *, is_async: bool) -> Stack | None:
    """The stack of a caller's ``http_client``, or ``None`` when it is not a client of
    the right kind (``httpx.AsyncClient`` or ``httpx2.AsyncClient`` for an async SDK
    client, the ``Client`` classes for a blocking one)."""
    name = "AsyncClient" if is_async else "Client"
    if isinstance(client, getattr(httpx, name)):
        return HTTPX
    module = _httpx2()
    if module is not None and isinstance(client, getattr(module, name)):
        if not _HTTPX2:
            _HTTPX2.append(Stack.of(module))
        return _HTTPX2[0]
    return None


def timeout_of(client: Any) -> httpx.Timeout:
    """A caller's client's own timeout, as an `httpx.Timeout`."""
    timeout = client.timeout
    if isinstance(timeout, httpx.Timeout):
        return timeout
    return httpx.Timeout(**timeout.as_dict())
