"""One exception tree for everything the SDK raises.

```text
XSwapError
├── InvalidInputError (also ValueError)    bad argument, raised before any I/O
│   ├── MissingCredentialsError            no API key / JWT / signer where one is needed
│   ├── InsufficientBalanceError           gateway balances cannot cover an order
│   └── QuoteRejectedError                 a quote failed a check made before signing
├── APIError                               something went wrong talking to a service
│   ├── APIStatusError                     HTTP 4xx/5xx
│   │   ├── BadRequestError (400)
│   │   ├── AuthenticationError (401)
│   │   ├── PaymentRequiredError (402)
│   │   ├── PermissionDeniedError (403)
│   │   ├── NotFoundError (404)
│   │   ├── ConflictError (409)
│   │   ├── UnprocessableEntityError (422)
│   │   ├── RateLimitError (429)
│   │   └── InternalServerError (5xx)
│   ├── APIConnectionError                 the request did not get an HTTP answer
│   │   └── APITimeoutError
│   ├── EnvelopeError                      HTTP 2xx, but the envelope says failure
│   └── ResponseValidationError            a body that does not fit its model
├── TerminalStateError                     a watched operation ended in failure
│   ├── RelayFailedError                   relayer status FAILED
│   └── SwapFailedError                    a swap or gasless swap ended failed
├── WaitTimeoutError                       polling ran out of time; may still land
├── LoginError                             wallet-signature login failed
├── SigningError                           a signature could not be made or checked
└── MissingDependencyError (also ImportError)  an optional extra is not installed
```

Every message is readable on its own and never holds a secret: no API key, JWT,
signature or private key is put into an error, and request query strings are left out
because they can carry user data.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    "EnvelopeError",
    "InsufficientBalanceError",
    "InternalServerError",
    "InvalidInputError",
    "LoginError",
    "MissingCredentialsError",
    "MissingDependencyError",
    "NotFoundError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "QuoteRejectedError",
    "RateLimitError",
    "RelayFailedError",
    "ResponseValidationError",
    "SigningError",
    "SwapFailedError",
    "TerminalStateError",
    "UnprocessableEntityError",
    "WaitTimeoutError",
    "XSwapError",
]

_OUTCOME_UNKNOWN_HINT = (
    "The request was sent, so the service may have accepted it: check its status before "
    "sending it again."
)


class XSwapError(Exception):
    """Root of every exception raised by `xswap_sdk`."""


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
    """A quote failed a check made before signing: it expired, its gateway fee is above
    the caller's cap, it lacks a field the order needs, or its amount is not the amount
    asked for. Nothing was signed or sent; ask for a new quote.

    Attributes:
        quote: the rejected quote.
    """

    def __init__(self, argument: str, rule: str, *, quote: Any = None) -> None:
        self.quote = quote
        super().__init__(argument, rule)


class APIError(XSwapError):
    """A request to a service failed.

    Attributes:
        method: the HTTP method of the request, e.g. ``"POST"``.
        path: the request path without its query string, e.g. ``"/api/submit-tx"``.
        outcome_unknown: ``True`` when a state-changing request was sent but no usable
            answer came back, so the service may have acted on it. Check the status of what
            you submitted before submitting again.
    """

    def __init__(
        self,
        message: str,
        *,
        method: str | None = None,
        path: str | None = None,
        outcome_unknown: bool = False,
    ) -> None:
        self.message = message
        self.method = method
        self.path = path
        self.outcome_unknown = outcome_unknown
        super().__init__(message)

    def __str__(self) -> str:
        where = f"{self.method} {self.path}: " if self.method and self.path else ""
        hint = f" {_OUTCOME_UNKNOWN_HINT}" if self.outcome_unknown else ""
        return f"{where}{self.message}{hint}"


class APIStatusError(APIError):
    """The service answered with an HTTP error status (4xx or 5xx).

    Attributes:
        status_code: the HTTP status.
        body: the parsed JSON body, or the text when the body is not JSON.
        code: the service's own error code when it sends one (``"AUTH_002"``, ``401``).
        trace_id: the service's trace or request id, for support tickets.
        headers: the response headers.
    """

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        body: Any = None,
        code: str | int | None = None,
        trace_id: str | None = None,
        headers: Mapping[str, str] | None = None,
        method: str | None = None,
        path: str | None = None,
        outcome_unknown: bool = False,
    ) -> None:
        self.status_code = status_code
        self.body = body
        self.code = code
        self.trace_id = trace_id
        # Case-insensitive, like the response's own headers.
        self.headers: Mapping[str, str] = httpx.Headers(dict(headers or {}))
        super().__init__(message, method=method, path=path, outcome_unknown=outcome_unknown)

    def __str__(self) -> str:
        # The routing service repeats the HTTP status as its code: "HTTP 401 [401]"
        # says nothing more than "HTTP 401".
        repeated = self.code is not None and str(self.code) == str(self.status_code)
        code = f" [{self.code}]" if self.code is not None and not repeated else ""
        trace = f" (trace id {self.trace_id})" if self.trace_id else ""
        where = f"{self.method} {self.path} -> " if self.method and self.path else ""
        hint = f" {_OUTCOME_UNKNOWN_HINT}" if self.outcome_unknown else ""
        return f"{where}HTTP {self.status_code}{code}: {self.message}{trace}{hint}"


class BadRequestError(APIStatusError):
    """HTTP 400: the service rejected the request as malformed or invalid."""


class AuthenticationError(APIStatusError):
    """HTTP 401: missing, invalid or expired API key or JWT."""


class PaymentRequiredError(APIStatusError):
    """HTTP 402: the relayer's pay-per-request mode wants payment; ``body`` has the cost."""


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
        method: str | None = None,
        path: str | None = None,
        outcome_unknown: bool = False,
    ) -> None:
        self.request_sent = request_sent
        super().__init__(message, method=method, path=path, outcome_unknown=outcome_unknown)


class APITimeoutError(APIConnectionError):
    """The request timed out (connect, read, write or waiting for a pooled connection)."""


class EnvelopeError(APIError):
    """HTTP 2xx, but the response envelope reports failure.

    Attributes:
        code: the envelope's error code (routing: the numeric ``code``; relayer: the
            ``error.code`` string).
        status_code: the HTTP status, usually 200.
        body: the parsed body.
        trace_id: the service's trace id when present.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str | int | None,
        status_code: int,
        body: Any = None,
        trace_id: str | None = None,
        method: str | None = None,
        path: str | None = None,
    ) -> None:
        self.code = code
        self.status_code = status_code
        self.body = body
        self.trace_id = trace_id
        super().__init__(message, method=method, path=path)

    def __str__(self) -> str:
        where = f"{self.method} {self.path}: " if self.method and self.path else ""
        trace = f" (trace id {self.trace_id})" if self.trace_id else ""
        return f"{where}service reported failure [code {self.code}]: {self.message}{trace}"


class ResponseValidationError(APIError):
    """The response body does not fit the model the SDK expected.

    Attributes:
        body: the parsed body, kept so nothing the service said is lost.
        errors: pydantic's list of validation errors.
    """

    def __init__(
        self,
        message: str,
        *,
        body: Any = None,
        errors: list[Any] | None = None,
        method: str | None = None,
        path: str | None = None,
        outcome_unknown: bool = False,
    ) -> None:
        self.body = body
        self.errors = errors or []
        super().__init__(message, method=method, path=path, outcome_unknown=outcome_unknown)


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


class MissingDependencyError(XSwapError, ImportError):
    """A feature needs an optional extra that is not installed.

    The message gives the command that installs it, e.g.
    ``pip install "xswap-sdk[web3]"``.
    """
