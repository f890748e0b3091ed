"""A request to a service that failed without an HTTP error status: no answer, a
redirect, a 2xx envelope saying failure, a body that does not fit, a paged list that
misbehaves; and `APIError`, the root of every request's error."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import httpx

from ._base import XSwapError
from ._redaction import redact_body

__all__ = [
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "DeadlineExceededError",
    "EnvelopeError",
    "PaginationError",
    "RedirectError",
    "RequestInfo",
    "ResponseTooDeepError",
    "ResponseTooLargeError",
    "ResponseValidationError",
    "body_category",
    "body_details",
]


_OUTCOME_UNKNOWN_HINT = (
    "The request was sent, so the service may have accepted it: check its status before "
    "sending it again."
)


def _error_object(body: Any) -> Mapping[str, Any] | None:
    """The ``error`` object of an error body (the relayer's framing), if there is one."""
    error = body.get("error") if isinstance(body, Mapping) else None
    return error if isinstance(error, Mapping) else None


def body_category(body: Any) -> str | None:
    category = (_error_object(body) or {}).get("category")
    return category if isinstance(category, str) else None


def body_details(body: Any) -> Any:
    return (_error_object(body) or {}).get("details")


@dataclass(frozen=True, slots=True)
class RequestInfo:
    """Which request an `APIError` is about: every API error holds one, as ``request_info``.

    Attributes:
        method: the HTTP method of the request, e.g. ``"POST"``.
        path: the request path without its query string, e.g. ``"/api/submit-tx"``.
        trace_id: the service's trace or request id for it, for support tickets, when
            an answer carried one.
        outcome_unknown: ``True`` when a state-changing request was sent but no usable
            answer came back, so the service may have acted on it.
    """

    method: str | None = None
    path: str | None = None
    trace_id: str | None = None
    outcome_unknown: bool = False


class APIError(XSwapError):
    """A request to a service failed.

    Every subclass takes the request's description the same way: ``method=``, ``path=``,
    ``trace_id=`` and ``outcome_unknown=`` as keywords, or one ``request_info=``
    (`RequestInfo`); its attributes below read it.

    Attributes:
        message: what went wrong, without the method, the path or any secret.
        request_info: the `RequestInfo` of the failed request.
        method: ``request_info.method``.
        path: ``request_info.path``.
        trace_id: ``request_info.trace_id``.
        outcome_unknown: ``request_info.outcome_unknown``: ``True`` when a state-changing
            request was sent but no usable answer came back, so the service may have
            acted on it. Check the status of what you submitted before submitting again.
        attempts: how many times the request was sent before this error was raised
            (``1`` when it was not retried).
    """

    attempts: int = 1

    def __init__(
        self,
        message: str,
        *,
        method: str | None = None,
        path: str | None = None,
        trace_id: str | None = None,
        outcome_unknown: bool = False,
        request_info: RequestInfo | None = None,
    ) -> None:
        self.message = message
        self.request_info: RequestInfo = request_info or RequestInfo(
            method, path, trace_id, outcome_unknown
        )
        super().__init__(message)

    @property
    def method(self) -> str | None:
        """The HTTP method of the request (``request_info.method``)."""
        return self.request_info.method

    @property
    def path(self) -> str | None:
        """The request path without its query string (``request_info.path``)."""
        return self.request_info.path

    @property
    def trace_id(self) -> str | None:
        """The service's trace or request id, when an answer carried one."""
        return self.request_info.trace_id

    @property
    def outcome_unknown(self) -> bool:
        """Whether the service may have acted on the request (``request_info``'s)."""
        return self.request_info.outcome_unknown

    @outcome_unknown.setter
    def outcome_unknown(self, value: bool) -> None:
        # Known only once the answer is read (a 2xx whose envelope says failure).
        self.request_info = replace(self.request_info, outcome_unknown=value)

    def _reached_service(self) -> bool:
        return bool(getattr(self, "request_sent", True))

    def _tail(self) -> str:
        tried = f" ({self.attempts} attempts)" if self.attempts > 1 else ""
        hint = f" {_OUTCOME_UNKNOWN_HINT}" if self.outcome_unknown else ""
        return tried + hint

    def __str__(self) -> str:
        where = f"{self.method} {self.path}: " if self.method and self.path else ""
        return f"{where}{self.message}{self._tail()}"


class APIConnectionError(APIError):
    """No HTTP answer: the connection could not be made or broke off.

    Attributes:
        request_sent: ``False`` when the request certainly never left this machine (a
            refused connection, a connect or pool timeout); ``True`` when it may have.
    """

    def __init__(
        self,
        message: str = "Connection error.",
        *,
        request_sent: bool = True,
        **request: Any,
    ) -> None:
        self.request_sent = request_sent
        super().__init__(message, **request)


class APITimeoutError(APIConnectionError):
    """The request timed out (connect, read, write or waiting for a pooled connection)."""


class DeadlineExceededError(APITimeoutError):
    """The call's total deadline passed: across its attempts, a slowly dripping answer,
    or a retry wait (a ``Retry-After``) that would end after it.

    Set with ``deadline=`` per client or per call (default 120 s, retries included).
    A ``wait_*`` method raises `WaitTimeoutError` instead, on time, whatever the
    service asks to wait.
    """


class EnvelopeError(APIError):
    """HTTP 2xx, but the response envelope reports failure.

    Attributes:
        code: the envelope's error code (routing: the numeric ``code``; relayer: the
            ``error.code`` string).
        status_code: the HTTP status, usually 200.
        body: the parsed body; credentials and signatures in it are ``"[redacted]"``.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str | int | None,
        status_code: int,
        body: Any = None,
        **request: Any,
    ) -> None:
        self.code = code
        self.status_code = status_code
        self.body: Any = redact_body(body)
        super().__init__(message, **request)

    @property
    def category(self) -> str | None:
        """The service's error category, when the envelope has one (the relayer's
        ``error.category``)."""
        return body_category(self.body)

    @property
    def details(self) -> Any:
        """The service's error details, as sent (the relayer's ``error.details``)."""
        return body_details(self.body)

    def __str__(self) -> str:
        where = f"{self.method} {self.path}: " if self.method and self.path else ""
        trace = f" (trace id {self.trace_id})" if self.trace_id else ""
        return (
            f"{where}service reported failure [code {self.code}]: {self.message}{trace}"
            f"{self._tail()}"
        )


class ResponseValidationError(APIError):
    """The response body does not fit the model the SDK expected.

    Attributes:
        body: the parsed body, kept so nothing the service said is lost, except
            secrets: credentials and signatures in it are ``"[redacted]"``.
        errors: pydantic's list of validation errors.
        outcome_unknown: ``True`` when the request moved money or state: an answer the
            SDK cannot read says nothing about whether the service acted on it.
    """

    def __init__(
        self,
        message: str,
        *,
        body: Any = None,
        errors: list[Any] | None = None,
        **request: Any,
    ) -> None:
        self.body: Any = redact_body(body)
        self.errors: list[Any] = errors or []
        super().__init__(message, **request)


class ResponseTooLargeError(ResponseValidationError):
    """The response body grew past the size cap, so reading stopped there.

    Nothing of the body is kept (``body`` is ``None``). Set ``outcome_unknown=True`` when
    the request moved money or state: the service answered, but the SDK did not read
    the answer, so it may have acted on the request.

    Attributes:
        limit: the cap, in bytes.
        status_code: the HTTP status of the oversized answer, when known.
    """

    def __init__(self, *, limit: int, status_code: int | None = None, **request: Any) -> None:
        self.limit = limit
        self.status_code = status_code
        what = f"is larger than the {limit:,}-byte cap; reading stopped there"
        super().__init__(_unread_body(status_code, what), **request)


class ResponseTooDeepError(ResponseValidationError):
    """The response body nests JSON arrays or objects deeper than the limit.

    Such a body is refused before it is parsed: parsing it would exhaust the stack (with
    ``eth_account`` imported, which raises the recursion limit, it would crash the
    process). ``body`` is ``None``. ``outcome_unknown`` has the same meaning as for
    `ResponseTooLargeError`.

    Attributes:
        limit: the deepest nesting accepted.
        status_code: the HTTP status of the answer, when known.
    """

    def __init__(self, *, limit: int, status_code: int | None = None, **request: Any) -> None:
        self.limit = limit
        self.status_code = status_code
        what = f"nests JSON deeper than {limit} levels; it was not parsed"
        super().__init__(_unread_body(status_code, what), **request)


def _unread_body(status_code: int | None, what: str) -> str:
    """The message of a body refused unread: ``the [HTTP 200 ]response body <what>``."""
    status = f"HTTP {status_code} " if status_code is not None else ""
    return f"the {status}response body {what}"


class RedirectError(APIError):
    """The service answered with a redirect (HTTP 3xx), which the SDK never follows.

    Following it would send the credentials, and a signed payment, to an address the
    caller did not choose. Only the target's origin (``scheme://host[:port]``) is kept:
    a redirect URL's path and query may carry tokens. For a request that moved money or
    state, ``outcome_unknown`` is ``True``: a 303 in particular means the service did
    act on it.

    Attributes:
        status_code: the HTTP status (301, 302, 303, 307, 308...).
        location_origin: the origin the ``Location`` header points at (resolved against
            the request URL when relative), or ``None`` when there is no readable one.
    """

    def __init__(
        self,
        *,
        status_code: int,
        location_origin: str | None,
        **request: Any,
    ) -> None:
        self.status_code = status_code
        self.location_origin = location_origin
        target = f"to {location_origin}" if location_origin else "with no readable Location"
        super().__init__(
            f"HTTP {status_code} redirect {target}; the SDK does not follow redirects, so "
            "credentials and signed payloads never go to an address you did not configure "
            "(check base_url)",
            **request,
        )

    @classmethod
    def from_location(
        cls,
        status_code: int,
        location: str | None,
        *,
        request_url: str | httpx.URL,
        **request: Any,
    ) -> RedirectError:
        """Build the error from a raw ``Location`` header, keeping only its origin.

        Args:
            status_code: the 3xx status.
            location: the ``Location`` header, absolute or relative, or ``None``.
            request_url: the URL the request went to, to resolve a relative target.
            **request: the request's ``method``, ``path`` (template, without its query)
                and ``outcome_unknown`` (whether it moved money or state), as for
                `APIError`.

        Returns:
            The error; its message and attributes hold the target's origin only.
        """
        return cls(
            status_code=status_code,
            location_origin=_origin_of(location, request_url),
            **request,
        )


def _origin_of(location: str | None, request_url: str | httpx.URL) -> str | None:
    """The origin (``scheme://host[:port]``) a ``Location`` header points at.

    A relative target is resolved against ``request_url``. User info, path, query and
    fragment are dropped. Returns ``None`` for a missing or unreadable header.

    Args:
        location: the header value, or ``None``.
        request_url: the URL of the request that was redirected.

    Returns:
        The origin, or ``None``.
    """
    if not location or not location.strip():
        return None
    try:
        target = httpx.URL(request_url).join(location.strip())
        if not target.scheme or not target.host:
            return None
        host = f"[{target.host}]" if ":" in target.host else target.host
        port = f":{target.port}" if target.port is not None else ""
        return f"{target.scheme}://{host}{port}"
    except Exception:  # any unreadable header; it is only quoted in a message
        return None


class PaginationError(APIError):
    """A paged list misbehaved, so walking it stopped instead of looping forever.

    Raised when a page repeats the previous one (the same items, or a page number the
    service already reported) or when the walk passes its page bound. The items already
    handed out were real; what follows them is unknown.

    Attributes:
        page: the page number requested when the walk stopped.
    """

    def __init__(self, message: str, *, page: int, **request: Any) -> None:
        self.page = page
        super().__init__(message, **request)
