"""The httpx client a client and its ``with_options`` copies share, created on first use."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import httpx

from ._http import HTTPX, Stack, timeout_of
from ._options import DEFAULT_TIMEOUT

__all__ = ["ClientT", "Pool"]

ClientT = TypeVar("ClientT", httpx.Client, httpx.AsyncClient)


class Pool(Generic[ClientT]):
    """The httpx client, created on first use and shared by ``with_options`` copies,
    with its in-flight gate (see ``xswap_sdk._concurrency``).

    A client passed in by the caller is used as is and never closed by us; it may be an
    httpx2 client (``stack`` says which library: see ``xswap_sdk._http``).
    """

    def __init__(
        self,
        factory: Callable[[], ClientT],
        client: ClientT | None,
        gate: Any = None,
        stack: Stack = HTTPX,
    ) -> None:
        self._factory: Callable[[], ClientT] = factory
        self._client: ClientT | None = client
        self._given: ClientT | None = client
        self._owned = client is None
        self._closed = False
        self._lock = threading.Lock()
        self.gate = gate
        """The `Gate` or `AsyncGate` every attempt passes, or ``None``."""
        self.stack = stack
        """The HTTP library of the client: httpx, or httpx2 for a caller's httpx2 client."""

    def get(self) -> ClientT:
        """The httpx client, created now if this is the first request."""
        if self._closed:
            raise RuntimeError("this client has been closed; create a new one")
        client = self._client
        if client is None:
            with self._lock:
                if self._client is None:
                    self._client = self._factory()
                client = self._client
        return client

    @property
    def timeout(self) -> httpx.Timeout:
        """The timeout of a caller's httpx client, or of the one the SDK creates."""
        return DEFAULT_TIMEOUT if self._given is None else timeout_of(self._given)

    def close(self) -> ClientT | None:
        """Mark the pool closed; return the httpx client to close, if we created one."""
        with self._lock:
            self._closed = True
            client = self._client if self._owned else None
            self._client = None
        return client
