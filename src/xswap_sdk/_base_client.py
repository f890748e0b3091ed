"""What every client shares: configuration, the transport, copies, closing, raw access.

`SyncAPIClient` and `AsyncAPIClient` differ only where I/O happens. A service client
subclasses one of them, names its `ServiceConfig` and framing, and writes each public
method as one line over an operation from its ``api.py``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import TracebackType
from typing import Any, ClassVar, Generic, Self, TypeVar

import httpx
from pydantic import SecretStr

from ._clock import SYSTEM_CLOCK, Clock
from ._flow import Flow, run_async, run_sync
from ._framing import Framing
from ._logging import configure_from_env
from ._operation import Operation
from ._options import (
    DEFAULT_MAX_RETRIES,
    NOT_GIVEN,
    ClientOptions,
    NotGiven,
    RequestOptions,
    ServiceConfig,
    TimeoutTypes,
)
from ._transport import (
    AsyncTransport,
    RawResponse,
    SyncTransport,
    _BaseTransport,
    _Pool,
    capture_responses,
)
from .errors import InvalidInputError, MissingCredentialsError

__all__ = ["AsyncAPIClient", "SyncAPIClient"]

T = TypeVar("T")
R = TypeVar("R")


HttpClientT = TypeVar("HttpClientT", httpx.Client, httpx.AsyncClient)


class _ClientBase(Generic[HttpClientT]):
    _service: ClassVar[ServiceConfig]
    _framing: ClassVar[Framing]
    _http_client_type: ClassVar[type[Any]]
    _transport_type: ClassVar[type[_BaseTransport[Any]]]
    _options: ClientOptions
    _transport: _BaseTransport[HttpClientT]

    def __init__(
        self,
        *,
        api_key: str | SecretStr | None = None,
        base_url: str | None = None,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        max_retries: int = DEFAULT_MAX_RETRIES,
        headers: Mapping[str, str] | None = None,
        http_client: HttpClientT | None = None,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        expected = self._http_client_type
        if http_client is not None and not isinstance(http_client, expected):
            raise InvalidInputError(
                "http_client",
                f"must be an {expected.__module__}.{expected.__name__} for {type(self).__name__}",
            )
        if not isinstance(clock, Clock):
            raise InvalidInputError("clock", "must have monotonic(), sleep() and asleep()")
        configure_from_env()
        self._options = ClientOptions.resolve(
            self._service,
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            headers=headers,
        )
        self._transport = self._transport_type(
            options=self._options,
            framing=self._framing,
            pool=_Pool(expected, http_client),
            auth=self._auth_headers,
            clock=clock,
        )

    def with_options(
        self,
        *,
        api_key: str | SecretStr | NotGiven = NOT_GIVEN,
        base_url: str | NotGiven = NOT_GIVEN,
        timeout: TimeoutTypes | NotGiven = NOT_GIVEN,
        max_retries: int | NotGiven = NOT_GIVEN,
        headers: Mapping[str, str] | NotGiven = NOT_GIVEN,
    ) -> Self:
        """A copy of this client with some settings changed, sharing its connection pool.

        Closing the copy leaves the pool open; close the original when done.
        ``headers`` are added to the current ones.
        """
        if not isinstance(api_key, NotGiven) and self._service.api_key_header is None:
            raise InvalidInputError(
                "api_key", f"is not used by {type(self).__name__}: this service takes no API key"
            )
        clone = copy.copy(self)
        clone._options = self._options.replace(
            api_key=api_key,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
            headers=headers,
        )
        clone._transport = self._transport.derive(clone._options, clone._auth_headers)
        return clone

    def _auth_headers(self, operation: Operation[Any], /) -> Mapping[str, str]:
        """Send the ``api-key`` header when a key is configured; refuse, before any I/O,
        an operation that requires one when none is."""
        service = self._service
        key = self._options.api_key
        if service.api_key_header is None:
            return {}
        if key is not None:
            return {service.api_key_header: key.get_secret_value()}
        if operation.auth == "required":
            raise MissingCredentialsError(
                "api_key",
                f"{operation.method} {operation.log_path} needs an API key: pass "
                f"api_key=... to {type(self).__name__} or set {service.api_key_env}",
                env_var=service.api_key_env,
            )
        return {}

    @property
    def base_url(self) -> str:
        """The service's base URL, without a trailing slash."""
        return self._options.base_url

    @property
    def timeout(self) -> httpx.Timeout:
        """The default timeout of every request."""
        return self._options.timeout

    @property
    def max_retries(self) -> int:
        """How many times a failed request may be retried, by default."""
        return self._options.max_retries

    @property
    def clock(self) -> Clock:
        """The clock used for retry waits and polling."""
        return self._transport.clock

    @contextmanager
    def capture_responses(self) -> Iterator[list[RawResponse]]:
        """Collect the raw HTTP response of every request made in this block.

        Works in sync and async code alike (it is scoped by `contextvars`), and sees the
        calls of this client and of its ``with_options`` copies::

            with client.capture_responses() as responses:
                client.get_relay_status(tx_id)
            print(responses[-1].status_code, responses[-1].headers["x-request-id"])
        """
        with capture_responses(self._transport.pool) as responses:
            yield responses

    def __repr__(self) -> str:
        key = ""
        if self._service.api_key_header is not None:
            key = f", api_key={'set' if self._options.api_key else 'unset'}"
        return f"{type(self).__name__}(base_url={self.base_url!r}{key})"


class SyncAPIClient(_ClientBase[httpx.Client]):
    """Base of the blocking clients."""

    _http_client_type = httpx.Client
    _transport_type = SyncTransport
    _transport: SyncTransport

    def _request(self, operation: Operation[T], options: RequestOptions) -> T:
        return self._transport.request(operation, options)

    def _run(self, flow: Flow[R], options: RequestOptions) -> R:
        return run_sync(flow, lambda op: self._request(op, options), self._transport.clock)

    def close(self) -> None:
        """Close the connection pool, unless it was passed in as ``http_client``."""
        self._transport.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class AsyncAPIClient(_ClientBase[httpx.AsyncClient]):
    """Base of the async clients."""

    _http_client_type = httpx.AsyncClient
    _transport_type = AsyncTransport
    _transport: AsyncTransport

    async def _request(self, operation: Operation[T], options: RequestOptions) -> T:
        return await self._transport.request(operation, options)

    async def _run(self, flow: Flow[R], options: RequestOptions) -> R:
        return await run_async(flow, lambda op: self._request(op, options), self._transport.clock)

    async def aclose(self) -> None:
        """Close the connection pool, unless it was passed in as ``http_client``."""
        await self._transport.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
