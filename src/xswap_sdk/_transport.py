"""What the blocking and the async transport share: everything but the send and the sleep.

A request arrives as an `Operation` (plain data, see ``xswap_sdk._operation``). The
transport joins the base URL and path, merges headers, asks the client's `Auth` for
credentials, applies the timeout, sends, decides whether a failure may be retried (by
``xswap_sdk._retry``), maps failures to `xswap_sdk.errors`, unwraps the service's
envelope and parses the model. The request loop itself is written once, in
``_async_transport.py``; ``_sync_transport.py`` is generated from it.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar

import httpx
from pydantic import ValidationError

from ._auth import Auth
from ._clock import SYSTEM_CLOCK, Clock
from ._framing import Framing
from ._logging import SENSITIVE_HEADERS, log_response, log_retry
from ._operation import Operation
from ._options import (
    ClientOptions,
    RequestOptions,
    check_max_retries,
    normalize_timeout,
)
from ._retry import is_retryable, parse_retry_after, retry_delay
from ._version import __version__
from .errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    EnvelopeError,
    InternalServerError,
    NotFoundError,
    PaymentRequiredError,
    PermissionDeniedError,
    RateLimitError,
    ResponseValidationError,
    UnprocessableEntityError,
    XSwapError,
)

__all__ = ["BaseTransport", "Pool", "RawResponse", "capture_responses"]

T = TypeVar("T")
ClientT = TypeVar("ClientT", httpx.Client, httpx.AsyncClient)

USER_AGENT = f"xswap-sdk-python/{__version__}"
_TRACE_HEADERS = ("x-trace-id", "x-request-id", "traceparent")
_MIN_SECRET_LENGTH = 6


# ---------------------------------------------------------------------------- raw access


@dataclass(frozen=True, slots=True, repr=False)
class RawResponse:
    """One HTTP response as received, for status and headers beyond the parsed model.

    Collected by a client's ``capture_responses()``; one per attempt, so retried
    responses appear too. The request's own headers (which carry credentials) are not
    kept.
    """

    service: str
    method: str
    path: str
    status_code: int
    headers: httpx.Headers
    content: bytes
    elapsed: float
    attempt: int

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


# ---------------------------------------------------------------------------- the pool


class Pool(Generic[ClientT]):
    """The httpx client, created on first use and shared by ``with_options`` copies.

    A client passed in by the caller is used as is and never closed by us.
    """

    def __init__(self, factory: Callable[[], ClientT], client: ClientT | None) -> None:
        self._factory: Callable[[], ClientT] = factory
        self._client: ClientT | None = client
        self._owned = client is None
        self._closed = False
        self._lock = threading.Lock()

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

    def close(self) -> ClientT | None:
        """Mark the pool closed; return the httpx client to close, if we created one."""
        with self._lock:
            self._closed = True
            client = self._client if self._owned else None
            self._client = None
        return client


# ---------------------------------------------------------------------------- shared logic


def _decode_body(response: httpx.Response) -> Any:
    if not response.content:
        return None
    try:
        return json.loads(response.content)
    except ValueError:
        return response.text


def _scrub(text: str, secrets: Sequence[str]) -> str:
    for secret in secrets:
        if len(secret) >= _MIN_SECRET_LENGTH and secret in text:
            text = text.replace(secret, "[redacted]")
    return text


_STATUS_ERRORS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    402: PaymentRequiredError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


class BaseTransport(Generic[ClientT]):
    """The state and the non-I/O steps of a transport; see the module docstring."""

    def __init__(
        self,
        *,
        options: ClientOptions,
        framing: Framing,
        pool: Pool[ClientT],
        auth: Auth,
        clock: Clock = SYSTEM_CLOCK,
    ) -> None:
        self.options = options
        self.framing = framing
        self.pool: Pool[ClientT] = pool
        self.auth = auth
        self.clock = clock
        self.owns_pool = True

    @property
    def service(self) -> str:
        """The service's name, for logs and captured responses."""
        return self.options.service.name

    def derive(self, options: ClientOptions, auth: Auth) -> Self:
        """A transport with other settings over the same connection pool."""
        clone = self.with_auth(auth)
        clone.options = options
        # The pool belongs to the original client: closing a copy must not close it.
        clone.owns_pool = False
        return clone

    def with_auth(self, auth: Auth) -> Self:
        """This transport with other credentials, for one call or flow."""
        clone = object.__new__(type(self))
        clone.__dict__.update(self.__dict__)
        clone.auth = auth
        return clone

    # -- before sending

    def _timeout(self, operation: Operation[Any], options: RequestOptions) -> httpx.Timeout:
        if "timeout" in options:
            return normalize_timeout(options["timeout"])
        if isinstance(operation.timeout, httpx.Timeout):
            return operation.timeout
        return self.options.timeout

    def _max_retries(self, options: RequestOptions) -> int:
        if "max_retries" in options:
            return check_max_retries(options["max_retries"])
        return self.options.max_retries

    def _build_request(
        self, client: ClientT, operation: Operation[Any], timeout: httpx.Timeout
    ) -> httpx.Request:
        headers = {
            "User-Agent": USER_AGENT,
            "Accept": "application/json",
            **self.options.headers,
            **(self.auth.headers(operation) if operation.auth != "none" else {}),
        }
        return client.build_request(
            operation.method,
            self.options.base_url + operation.path,
            params=list(operation.params) if operation.params else None,
            json=operation.json,
            headers=headers,
            timeout=timeout,
        )

    def _secrets(self, request: httpx.Request, operation: Operation[Any]) -> list[str]:
        secrets = list(operation.secrets)
        for name in SENSITIVE_HEADERS:
            value = request.headers.get(name)
            if value:
                secrets.append(value)
                secrets.append(value.rpartition(" ")[2])  # the token of "Bearer <token>"
        return secrets

    # -- after sending

    def _connection_error(
        self, operation: Operation[Any], exc: httpx.HTTPError
    ) -> APIConnectionError:
        # Only these prove the request never reached the server; anything later may have.
        never_sent = isinstance(
            exc,
            httpx.ConnectError
            | httpx.ConnectTimeout
            | httpx.PoolTimeout
            | httpx.UnsupportedProtocol
            | httpx.LocalProtocolError,
        )
        unknown = not never_sent and not operation.idempotent
        cls = APITimeoutError if isinstance(exc, httpx.TimeoutException) else APIConnectionError
        what = "timed out" if cls is APITimeoutError else "connection failed"
        phase = "before the request was sent" if never_sent else "after the request was sent"
        return cls(
            f"{what} {phase} ({type(exc).__name__})",
            request_sent=not never_sent,
            method=operation.method,
            path=operation.log_path,
            outcome_unknown=unknown,
        )

    def _handle_response(
        self,
        operation: Operation[T],
        request: httpx.Request,
        response: httpx.Response,
        *,
        attempt: int,
        elapsed: float,
    ) -> T:
        trace_id = next(
            (response.headers[h] for h in _TRACE_HEADERS if h in response.headers), None
        )
        log_response(
            service=self.service,
            method=operation.method,
            path=operation.log_path,
            status=response.status_code,
            attempt=attempt,
            elapsed=elapsed,
            trace_id=trace_id,
        )
        for capture in _captures.get():
            if capture.pool is self.pool:
                capture.append(
                    RawResponse(
                        service=self.service,
                        method=operation.method,
                        path=operation.path,
                        status_code=response.status_code,
                        headers=response.headers,
                        content=response.content,
                        elapsed=elapsed,
                        attempt=attempt,
                    )
                )
        body = _decode_body(response)
        if response.status_code >= 400:
            secrets = self._secrets(request, operation)
            raise self._status_error(operation, response, body, trace_id, secrets)
        try:
            data = self.framing.unwrap(
                body,
                status_code=response.status_code,
                method=operation.method,
                path=operation.log_path,
            )
        except EnvelopeError as exc:
            exc.message = _scrub(exc.message, self._secrets(request, operation))
            exc.args = (exc.message,)
            raise
        try:
            return operation.parse(data)
        except ValidationError as exc:
            # Not chained: pydantic's text quotes the response, which may hold a token.
            raise ResponseValidationError(
                f"response does not fit the expected model ({exc.error_count()} problem(s); "
                f"first at {'.'.join(map(str, exc.errors()[0]['loc'])) or 'the top level'}: "
                f"{exc.errors()[0]['msg']})",
                body=body,
                errors=exc.errors(include_input=False, include_url=False),
                method=operation.method,
                path=operation.log_path,
            ) from None

    def _status_error(
        self,
        operation: Operation[Any],
        response: httpx.Response,
        body: Any,
        trace_id: str | None,
        secrets: Sequence[str],
    ) -> APIStatusError:
        status = response.status_code
        details = self.framing.error_details(body)
        cls = _STATUS_ERRORS.get(status) or (
            InternalServerError if status >= 500 else APIStatusError
        )
        kwargs: dict[str, Any] = {
            "status_code": status,
            "body": body,
            "code": details.code,
            "trace_id": details.trace_id or trace_id,
            "headers": response.headers,
            "method": operation.method,
            "path": operation.log_path,
            "outcome_unknown": status >= 500 and not operation.idempotent,
        }
        if cls is RateLimitError:
            kwargs["retry_after"] = parse_retry_after(
                response.headers.get("retry-after"), now=self.clock.time()
            )
        return cls(_scrub(details.message, secrets), **kwargs)

    def _retry_delay(
        self, operation: Operation[Any], exc: XSwapError, attempt: int, max_retries: int
    ) -> float | None:
        """Seconds to wait before trying ``operation`` again after failed attempt
        ``attempt``, or ``None`` when it must not be retried."""
        now = self.clock.time()
        if attempt > max_retries or not is_retryable(exc, idempotent=operation.idempotent, now=now):
            return None
        delay = retry_delay(exc, attempt, now=now)
        status = exc.status_code if isinstance(exc, APIStatusError) else None
        log_retry(
            service=self.service,
            method=operation.method,
            path=operation.log_path,
            attempt=attempt,
            delay=delay,
            reason=f"HTTP {status}" if status else type(exc).__name__,
            status=status,
            trace_id=getattr(exc, "trace_id", None),
        )
        return delay
