"""One exception tree for everything the SDK raises.

```text
XSwapError
├── InvalidInputError (also ValueError)    bad argument, raised before any I/O
│   ├── MissingCredentialsError            no API key / JWT / signer where one is needed
│   ├── InsufficientBalanceError           gateway balances cannot cover an order
│   └── QuoteRejectedError                 a quote is expired, too dear, or incomplete
├── APIError                               something went wrong talking to a service
│   ├── APIStatusError                     HTTP 4xx/5xx
│   │   ├── BadRequestError (400)
│   │   │   └── InsufficientMaxFeeError    Circle Gateway: maxFee below its floor
│   │   ├── AuthenticationError (401)
│   │   ├── PaymentRequiredError (402)
│   │   │   └── PaymentNotAcceptedError    402 again after paying (x402); outcome unknown
│   │   ├── PermissionDeniedError (403)
│   │   ├── NotFoundError (404)
│   │   ├── ConflictError (409)
│   │   ├── UnprocessableEntityError (422)
│   │   ├── RateLimitError (429)
│   │   └── InternalServerError (5xx)
│   ├── APIConnectionError                 the request did not get an HTTP answer
│   │   └── APITimeoutError
│   │       └── DeadlineExceededError      the call's total deadline passed
│   ├── RedirectError                      HTTP 3xx: never followed; names the target origin
│   ├── EnvelopeError                      HTTP 2xx, but the envelope says failure
│   ├── PaginationError                    a paged list repeats itself or never ends
│   └── ResponseValidationError            a body that does not fit its model
│       ├── ResponseTooLargeError          a body past the size cap; reading stopped there
│       └── ResponseTooDeepError           JSON nested past the depth limit; never parsed
├── TerminalStateError                     a watched operation ended in failure
│   ├── RelayFailedError                   relayer status FAILED
│   ├── SwapFailedError                    a swap or gasless swap ended failed
│   └── TransferFailedError                a Circle Gateway transfer failed or expired
├── WaitTimeoutError                       polling ran out of time; may still land
├── LoginError                             wallet-signature login failed
├── SigningError                           a signature could not be made or checked
│   ├── UnsafePayloadError                 what a service asked us to sign disagrees with
│   │                                      the caller's request or a pinned fact
│   └── PolicyRefusedError                 the caller's signing policy refused a signature
├── WebhookSignatureError                  a webhook whose signature does not verify
├── JournalError                           the journal could not be written or read
│   ├── JourneyBusyError                   another run holds the journey's lease
│   ├── JourneyTamperedError               a journey's MAC does not verify: refused
│   └── RestartRequiredError               resuming would sign something new
├── SimulationError                        a transaction's simulation reverted or moved
│                                          assets the call does not mean; nothing sent
└── MissingDependencyError (also ImportError)  an optional extra is not installed
```

Every message is readable on its own and never holds a secret: no API key, JWT,
signature or private key is put into an error, and request query strings are left out
because they can carry user data.
"""

from __future__ import annotations

import re
import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import ROUND_CEILING, Decimal
from typing import Any

import httpx

__all__ = [
    "APIConnectionError",
    "APIError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "DeadlineExceededError",
    "EnvelopeError",
    "InsufficientBalanceError",
    "InsufficientMaxFeeError",
    "InternalServerError",
    "InvalidInputError",
    "JournalError",
    "JourneyBusyError",
    "JourneyTamperedError",
    "LoginError",
    "MissingCredentialsError",
    "MissingDependencyError",
    "NotFoundError",
    "PaginationError",
    "PaymentNotAcceptedError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "PolicyRefusedError",
    "QuoteRejectedError",
    "RateLimitError",
    "RedirectError",
    "RelayFailedError",
    "RequestInfo",
    "ResponseTooDeepError",
    "ResponseTooLargeError",
    "ResponseValidationError",
    "RestartRequiredError",
    "SigningError",
    "SimulationError",
    "SwapFailedError",
    "TerminalStateError",
    "TransferFailedError",
    "UnprocessableEntityError",
    "UnsafePayloadError",
    "WaitTimeoutError",
    "WebhookSignatureError",
    "XSwapError",
]

_USDC_SCALE = Decimal(10) ** 6
# Circle Gateway's wording, with X and Y in decimal USDC; bounded, as a hostile answer
# could send any number of digits.
_MAX_FEE_FLOOR = re.compile(
    r"insufficient max fee: expected at least (?P<minimum>[0-9]{1,24}(?:\.[0-9]{1,18})?)"
    r"(?:,\s*got (?P<got>[0-9]{1,24}(?:\.[0-9]{1,18})?))?",
    re.IGNORECASE,
)

_OUTCOME_UNKNOWN_HINT = (
    "The request was sent, so the service may have accepted it: check its status before "
    "sending it again."
)


# Keys whose values are credentials or signatures, compared lower-case without "_" or
# "-": a login's JWT, an API key, a Permit2 or burn-intent signature echoed back.
_SECRET_KEYS = frozenset(
    {
        "token",
        "jwt",
        "accesstoken",
        "refreshtoken",
        "idtoken",
        "authtoken",
        "bearertoken",
        "sessiontoken",
        "authorization",
        "apikey",
        "xapikey",
        "secret",
        "clientsecret",
        "privatekey",
        "mnemonic",
        "password",
        "signature",
        "signatures",
        "sig",
        "permitsignature",
    }
)
# A JWT anywhere in a string (three base64url parts, the header a JSON object).
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")
_REDACTED = "[redacted]"


def _is_secret_key(key: object) -> bool:
    return isinstance(key, str) and key.lower().replace("_", "").replace("-", "") in _SECRET_KEYS


def _redact_scalar(value: Any, secret: bool) -> Any:
    if secret and value is not None and not isinstance(value, bool):
        return _REDACTED
    if isinstance(value, str) and "eyJ" in value:
        return _JWT.sub(_REDACTED, value)
    return value


def _redact_body(body: Any) -> Any:
    """A copy of a service's answer fit to keep on an exception: the value of every
    secret-shaped key (``token``, ``jwt``, ``accessToken``, ``apiKey``, ``signature``,
    ... at any depth, any spelling) and every JWT inside a string replaced by
    ``"[redacted]"``. Walked without recursion; the answer itself is not changed.

    Args:
        body: parsed JSON, text, or ``None``.

    Returns:
        The redacted copy (the same object when it holds nothing to redact).
    """
    if not isinstance(body, dict | list):
        return _redact_scalar(body, False)
    root: list[Any] = [None]
    # Each entry: a source value, whether it sits under a secret key, and where its copy goes.
    stack: list[tuple[Any, bool, Any, Any]] = [(body, False, root, 0)]
    while stack:
        source, secret, parent, key = stack.pop()
        if isinstance(source, dict):
            copied: dict[Any, Any] = {}
            parent[key] = copied
            for name, item in source.items():
                copied[name] = None
                stack.append((item, secret or _is_secret_key(name), copied, name))
        elif isinstance(source, list):
            items: list[Any] = [None] * len(source)
            parent[key] = items
            stack.extend((item, secret, items, index) for index, item in enumerate(source))
        else:
            parent[key] = _redact_scalar(source, secret)
    return root[0]


def _error_object(body: Any) -> Mapping[str, Any] | None:
    """The ``error`` object of an error body (the relayer's framing), if there is one."""
    error = body.get("error") if isinstance(body, Mapping) else None
    return error if isinstance(error, Mapping) else None


def _category(body: Any) -> str | None:
    category = (_error_object(body) or {}).get("category")
    return category if isinstance(category, str) else None


def _details(body: Any) -> Any:
    return (_error_object(body) or {}).get("details")


class XSwapError(Exception):
    """Root of every exception raised by `xswap_sdk`.

    Its ``sent`` says whether the failed request reached the service: ``"not_sent"``,
    ``"outcome_unknown"`` (it may have: check before sending again) or ``"sent"`` (the
    service answered). An error raised before any request says ``"not_sent"``.
    """

    journey_id: str | None = None
    """The money journey the error ended (or interrupted), when it was raised by one: what
    ``resume`` takes. ``None`` otherwise."""

    _journey_sent: str | None = None

    @property
    def sent(self) -> str:
        """``"not_sent"``, ``"outcome_unknown"`` or ``"sent"``; see the class.

        Raised by a journey after its money request was accepted, it says ``"sent"``
        whatever failed later (a wait that timed out, a status read that failed): the
        money moved, and sending again would move it twice."""
        if getattr(self, "outcome_unknown", False):
            return "outcome_unknown"
        if self._journey_sent is not None:
            return self._journey_sent
        if isinstance(self, APIError) and getattr(self, "request_sent", True):
            return "sent"
        return "not_sent"


class InvalidInputError(XSwapError, ValueError):
    """An argument broke a rule; raised before any network I/O.

    Attributes:
        argument: the name of the offending argument or field, as the caller spelled it.
        rule: what the value must be.
    """

    def __init__(self, argument: str, rule: str) -> None:
        self.argument = argument
        self.rule = rule
        super().__init__(f"{argument}: {rule}")


class MissingCredentialsError(InvalidInputError):
    """A call needs credentials that the client was not given.

    The message names the constructor argument and the environment variable that provide
    them. Raised before any network I/O.

    Attributes:
        env_var: the environment variable that would provide them, if one does.
    """

    def __init__(self, argument: str, rule: str, *, env_var: str | None = None) -> None:
        self.env_var = env_var
        super().__init__(argument, rule)


class InsufficientBalanceError(InvalidInputError):
    """The gateway balances cannot cover an order: each source chain needs its balance to
    hold the value taken from it plus the intent's ``maxFee``.

    The message names, per chain, what is there and what can be used. Raised before
    anything is signed or sent.

    Attributes:
        shortfall: how much is missing, in smallest USDC units.
        usable: per chain id, what could be taken (balance less the fee, never negative).
    """

    def __init__(self, rule: str, *, shortfall: int, usable: Mapping[int, int]) -> None:
        self.shortfall = shortfall
        self.usable = dict(usable)
        super().__init__("balances", rule)


class QuoteRejectedError(InvalidInputError):
    """A quote that looks honest cannot be used: it expired, its gateway fee is above
    the caller's own ``max_fee_cap``, or it lacks a field the order needs. Nothing was
    signed or sent; ask for a new quote. (A quote that is not what was asked for, or
    that disagrees with a pinned fact, is an `UnsafePayloadError` instead.)

    Attributes:
        quote: the rejected quote.
    """

    def __init__(self, argument: str, rule: str, *, quote: Any = None) -> None:
        self.quote = quote
        super().__init__(argument, rule)


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
        self.request_info = request_info or RequestInfo(method, path, trace_id, outcome_unknown)
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

    def _tail(self) -> str:
        tried = f" ({self.attempts} attempts)" if self.attempts > 1 else ""
        hint = f" {_OUTCOME_UNKNOWN_HINT}" if self.outcome_unknown else ""
        return tried + hint

    def __str__(self) -> str:
        where = f"{self.method} {self.path}: " if self.method and self.path else ""
        return f"{where}{self.message}{self._tail()}"


class APIStatusError(APIError):
    """The service answered with an HTTP error status (4xx or 5xx).

    Attributes:
        status_code: the HTTP status.
        body: the parsed JSON body, or the text when the body is not JSON; credentials
            and signatures in it are ``"[redacted]"``.
        code: the service's own error code when it sends one (``"AUTH_002"``, ``401``).
        headers: the response headers.
    """

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        body: Any = None,
        code: str | int | None = None,
        headers: Mapping[str, str] | None = None,
        **request: Any,
    ) -> None:
        self.status_code = status_code
        self.body = _redact_body(body)
        self.code = code
        # Case-insensitive, like the response's own headers.
        self.headers: Mapping[str, str] = httpx.Headers(dict(headers or {}))
        super().__init__(message, **request)

    @property
    def category(self) -> str | None:
        """The service's error category, when its body has one (the relayer's
        ``error.category``: ``VALIDATION_ERROR``, ``AUTH_ERROR``, ``PAYMENT``, ...)."""
        return _category(self.body)

    @property
    def details(self) -> Any:
        """The service's error details, as sent (the relayer's ``error.details``: the
        field at fault, or for ``PAYMENT_REQUIRED`` the estimated cost); ``None`` when
        the body has none."""
        return _details(self.body)

    def __str__(self) -> str:
        # The routing service repeats the HTTP status as its code: "HTTP 401 [401]"
        # says nothing more than "HTTP 401".
        repeated = self.code is not None and str(self.code) == str(self.status_code)
        code = f" [{self.code}]" if self.code is not None and not repeated else ""
        trace = f" (trace id {self.trace_id})" if self.trace_id else ""
        where = f"{self.method} {self.path} -> " if self.method and self.path else ""
        return f"{where}HTTP {self.status_code}{code}: {self.message}{trace}{self._tail()}"


class BadRequestError(APIStatusError):
    """HTTP 400: the service rejected the request as malformed or invalid."""


class InsufficientMaxFeeError(BadRequestError):
    """HTTP 400 from Circle Gateway: a burn intent's ``maxFee`` is below the fee it
    charges now (``Insufficient max fee: expected at least X, got Y``).

    Nothing was transferred. The minimum varies by source chain and over time: build
    the intents again with a ``max_fee`` of at least `minimum_units` (or ask
    ``GatewayClient.estimate`` first), sign them again and resend.

    Attributes:
        minimum: the least ``maxFee`` Gateway accepts, in USDC (``Decimal("2.000125")``),
            as the message says.
        minimum_units: the same in smallest USDC units (6 decimals), rounded up.
        received: the ``maxFee`` Gateway saw, in USDC, when the message says it.
    """

    def __init__(
        self,
        message: str,
        *,
        minimum: Decimal,
        received: Decimal | None = None,
        **kwargs: Any,
    ) -> None:
        self.minimum = minimum
        self.minimum_units = int((minimum * _USDC_SCALE).to_integral_value(rounding=ROUND_CEILING))
        self.received = received
        super().__init__(message, **kwargs)

    @classmethod
    def from_error(cls, error: APIStatusError) -> InsufficientMaxFeeError | None:
        """The typed error for a Gateway refusal that names the fee floor, or ``None``.

        Args:
            error: the `BadRequestError` (or other status error) Gateway answered with.

        Returns:
            An `InsufficientMaxFeeError` carrying every attribute of ``error``, when its
            message is ``Insufficient max fee: expected at least X[, got Y]``.
        """
        found = _MAX_FEE_FLOOR.search(error.message)
        if found is None:
            return None
        received = Decimal(found.group("got")) if found.group("got") else None
        typed = cls(
            error.message,
            minimum=Decimal(found.group("minimum")),
            received=received,
            status_code=error.status_code,
            body=error.body,
            code=error.code,
            headers=error.headers,
            request_info=error.request_info,
        )
        typed.attempts = error.attempts
        return typed


class AuthenticationError(APIStatusError):
    """HTTP 401: missing, invalid or expired API key or JWT."""


class PaymentRequiredError(APIStatusError):
    """HTTP 402: the relayer's pay-per-request mode wants payment; ``body`` has the cost."""


class PaymentNotAcceptedError(PaymentRequiredError):
    """HTTP 402 again after the SDK paid (x402): the service did not accept the payment.

    A payment authorization was sent with the request, so whether it will be settled is
    not known (``outcome_unknown`` is ``True``). The SDK never pays a second time for one
    call: check your Gateway balance and the service's records before calling again.
    """


class PermissionDeniedError(APIStatusError):
    """HTTP 403: the credentials are valid but not allowed to do this."""


class NotFoundError(APIStatusError):
    """HTTP 404: no such resource (or not visible yet)."""


class ConflictError(APIStatusError):
    """HTTP 409: the request conflicts with the resource's current state."""


class UnprocessableEntityError(APIStatusError):
    """HTTP 422: the request was well-formed but semantically invalid."""


class RateLimitError(APIStatusError):
    """HTTP 429: too many requests.

    Attributes:
        retry_after: seconds the service asked us to wait, when it said.
    """

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        self.retry_after = retry_after
        super().__init__(message, **kwargs)

    def __str__(self) -> str:
        if self.retry_after is None:
            wait = " The service did not say how long to wait."
        else:
            wait = f" The service asked to wait {self.retry_after:g} s before retrying."
        return super().__str__() + wait


class InternalServerError(APIStatusError):
    """HTTP 5xx: the service failed."""


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
        self.body = _redact_body(body)
        super().__init__(message, **request)

    @property
    def category(self) -> str | None:
        """The service's error category, when the envelope has one (the relayer's
        ``error.category``)."""
        return _category(self.body)

    @property
    def details(self) -> Any:
        """The service's error details, as sent (the relayer's ``error.details``)."""
        return _details(self.body)

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
        self.body = _redact_body(body)
        self.errors = errors or []
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

    def __init__(
        self,
        *,
        limit: int,
        status_code: int | None = None,
        **request: Any,
    ) -> None:
        self.limit = limit
        self.status_code = status_code
        status = f"HTTP {status_code} " if status_code is not None else ""
        super().__init__(
            f"the {status}response body is larger than the {limit:,}-byte cap; "
            "reading stopped there",
            **request,
        )


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

    def __init__(
        self,
        *,
        limit: int,
        status_code: int | None = None,
        **request: Any,
    ) -> None:
        self.limit = limit
        self.status_code = status_code
        status = f"HTTP {status_code} " if status_code is not None else ""
        super().__init__(
            f"the {status}response body nests JSON deeper than {limit} levels; it was not parsed",
            **request,
        )


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


class TerminalStateError(XSwapError):
    """A watched operation reached a terminal failure state.

    Attributes:
        status: the last record the service returned (a model).
    """

    def __init__(self, message: str, *, status: Any = None) -> None:
        self.status = status
        super().__init__(message)


class RelayFailedError(TerminalStateError):
    """The relayer reports the transaction as FAILED.

    Attributes:
        status: the `RelayStatus` record.
        error_message: the relayer's failure message, when it gave one.
    """

    def __init__(self, message: str, *, status: Any = None, error_message: str | None = None):
        self.error_message = error_message
        super().__init__(message, status=status)


class SwapFailedError(TerminalStateError):
    """A swap, bridge or gasless swap ended in a failure state."""


class TransferFailedError(TerminalStateError):
    """A Circle Gateway transfer ended ``failed`` (on chain, or while forwarding) or
    ``expired`` (its attestation was not used in time).

    Attributes:
        status: the last `TransferDetails` record Gateway returned.
        transfer_status: ``"failed"`` or ``"expired"``.
    """

    def __init__(self, message: str, *, status: Any = None, transfer_status: str) -> None:
        self.transfer_status = transfer_status
        super().__init__(message, status=status)


class WaitTimeoutError(XSwapError):
    """Polling ran out of time before the operation reached a terminal state.

    The operation itself was not cancelled and may still complete: check its status again
    later rather than submitting it a second time.

    Attributes:
        last_status: the last record seen, or ``None`` if none arrived.
        timeout: the time waited, in seconds.
    """

    def __init__(self, message: str, *, last_status: Any = None, timeout: float) -> None:
        self.last_status = last_status
        self.timeout = timeout
        super().__init__(message)


class LoginError(XSwapError):
    """Wallet-signature login failed (message request, signature, or verification)."""


class SigningError(XSwapError):
    """A signature could not be produced or does not verify."""


class WebhookSignatureError(XSwapError):
    """A webhook notification was refused: its ``X-Circle-Signature`` does not verify
    with the public key (tampered body, wrong key, malformed signature or key), or its
    body is not a notification. Answer the sender with an error and process nothing."""


_SHOWN_CHARS = 160
_SHOWN = reprlib.Repr()
# Bounded in depth and size: a hostile service's value may nest thousands deep.
_SHOWN.maxlevel = 3
_SHOWN.maxstring = _SHOWN_CHARS
_SHOWN.maxother = _SHOWN_CHARS
_SHOWN.maxlist = _SHOWN.maxdict = _SHOWN.maxtuple = _SHOWN.maxset = 8


def _shown(value: object, *, quoted: bool) -> str:
    """``value`` for a message, cut in the middle when long.

    What is shown is an address, an amount, a rule or a service's text, never a
    signature or a key. A service's value is shown as a bounded ``repr`` (control
    characters escaped, depth and length capped), so that a hostile service cannot
    forge, flood or overflow a log line.
    """
    if not isinstance(value, str):
        text = _SHOWN.repr(value)
    elif quoted:
        text = repr(value)
    else:
        text = value
    if len(text) <= _SHOWN_CHARS:
        return text
    half = (_SHOWN_CHARS - 5) // 2
    return f"{text[:half]} ... {text[-half:]}"


class UnsafePayloadError(SigningError):
    """Refused before signing: a value that would end up under the caller's signature is
    not what the caller asked for, not a fact the SDK pins (Circle Gateway's contracts
    and domains, native USDC, Permit2, see `xswap_sdk.registry`), or fails a check made
    against one of them.

    This is the error of a service that answers something other than what was asked: a
    compromised backend, a proxy that rewrites answers, or a bug. Nothing was signed and
    nothing was sent. Do not retry blindly: find out why the service answered this.

    Attributes:
        field: where the value sits, e.g. ``"quote.swap_router_address"`` or
            ``"eip712.message.spender"``.
        expected: what the SDK expected there (a value, or a rule such as
            ``"at most 2011000"``).
        received: what the service sent (``None`` when the field was missing).
        hint: what the caller can do, when the SDK knows (also in the message).

    Args:
        field: see above.
        expected: see above.
        received: see above.
        hint: a sentence added to the message, saying what the caller can do.
    """

    def __init__(
        self, field: str, *, expected: object, received: object, hint: str | None = None
    ) -> None:
        self.field = field
        self.expected = expected
        self.received = received
        self.hint = hint
        message = (
            f"refused to sign: {field} is {_shown(received, quoted=True)}, expected "
            f"{_shown(expected, quoted=False)}. "
            "Nothing was signed or sent."
        )
        if hint:
            message += f" {hint}"
        super().__init__(message)


class PolicyRefusedError(SigningError):
    """Refused before signing by the caller's own signing policy (`xswap_sdk.policy`).

    Nothing was signed and nothing was sent. Unlike `UnsafePayloadError`, the payload
    may be exactly what was asked for: the caller's `xswap_sdk.policy.Policy` (a cap,
    an allow-list, or its approval hook) said no.

    Attributes:
        rule: the rule that refused: ``"allowed_counterparties"``,
            ``"allowed_tokens"``, ``"max_per_signature"``, ``"max_fee"``,
            ``"max_per_day"`` or ``"approve"``.
        reason: why, in words (amounts, parties and tokens; never a signature).
        request: the `xswap_sdk.policy.SigningRequest` that was refused.

    Args:
        rule: see above.
        reason: see above.
        request: see above.
    """

    def __init__(self, rule: str, reason: str, *, request: Any = None) -> None:
        self.rule = rule
        self.reason = reason
        self.request = request
        kind = getattr(request, "kind", None)
        what = f"a {kind} signature" if kind else "a signature"
        super().__init__(
            f"the signing policy refused {what} ({rule}): {_shown(reason, quoted=False)}. "
            "Nothing was signed or sent."
        )


class JournalError(XSwapError):
    """The journal could not be written or read as a journey needs.

    Raised before a money-moving request when its step could not be written: the
    request was not sent (a journey that could not be resumed is not started). A write
    that fails after the request only logs a warning: the call's result is not lost.

    Attributes:
        journey_id: the journey, when it has one.
        step: the step concerned.
    """

    def __init__(self, message: str, *, journey_id: str | None, step: str) -> None:
        self.journey_id = journey_id
        self.step = step
        super().__init__(message)


class JourneyBusyError(JournalError):
    """Another run holds the journey's lease: a live call, or a resume, in this process or
    another, on this host or another. Nothing was signed or sent. Wait for it, or resume
    once its lease has expired (a run whose process died on this host frees it at once).

    Attributes:
        holder: who holds it (``process 123 on host``), when known.
    """

    def __init__(self, message: str, *, journey_id: str | None, holder: str | None = None) -> None:
        self.holder = holder
        super().__init__(message, journey_id=journey_id, step="claim")


class JourneyTamperedError(JournalError):
    """A journey's terms or steps do not carry a valid MAC of the journal key: someone
    else wrote them (or the key is not the one they were written with). The journey is
    refused and left as it is; nothing was signed or sent."""

    def __init__(self, message: str, *, journey_id: str | None) -> None:
        super().__init__(message, journey_id=journey_id, step="verify")


class RestartRequiredError(JournalError):
    """Resuming the journey would sign something that was not signed before it stopped
    (a new quote, a mint, a transaction). A resume never does that on its own: pass
    ``restart=True`` (``xswap resume --restart ID``), and the journey goes on as a new
    call would, through the client's checks, pins and policy. Nothing was signed or
    sent; the journey is left as it was."""

    def __init__(self, message: str, *, journey_id: str | None, step: str = "sign") -> None:
        super().__init__(message, journey_id=journey_id, step=step)


class SimulationError(XSwapError):
    """Refused before signing: the transactions a call was about to send were simulated
    on the caller's own node (``eth_simulateV1``) and either reverted or moved assets
    that the call does not mean (the receiver short of the minimum output, more of the
    caller's assets leaving than the input amount, an approval to another spender), or
    the node could not simulate when ``simulate=True`` required it.

    No transaction was signed and nothing was sent. (A deposit's permit or
    authorization is signed before its transaction is simulated, since the transaction
    carries it; it is dropped, never sent.) See the Simulation guide.

    Attributes:
        reason: what was wrong, in a sentence.
        movements: the simulated asset movements
            (`xswap_sdk.simulation.AssetMovement`), empty when there was no simulation.
        transaction: the index of the transaction that failed in the simulated
            batch, or ``None`` when the whole batch is concerned.

    Args:
        reason: see above.
        movements: see above.
        transaction: see above.
    """

    def __init__(
        self, reason: str, *, movements: tuple[Any, ...] = (), transaction: int | None = None
    ) -> None:
        self.reason = reason
        self.movements = movements
        self.transaction = transaction
        where = "" if transaction is None else f" (transaction {transaction} of the batch)"
        super().__init__(f"refused to send: {reason}{where}. No transaction was signed or sent.")


class MissingDependencyError(XSwapError, ImportError):
    """A feature needs an optional extra that is not installed.

    The message gives the command that installs it, e.g.
    ``pip install ".[web3]"`` in a checkout of xswap-sdk.
    """
