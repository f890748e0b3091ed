"""The service answered with an HTTP error status: one class per status, Circle
Gateway's fee floor (a 400) and the x402 payment errors (402)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import ROUND_CEILING, Decimal
from typing import Any

import httpx

from ._api import APIError, body_category, body_details
from ._redaction import redact_body

__all__ = [
    "APIStatusError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "InsufficientMaxFeeError",
    "InternalServerError",
    "NotFoundError",
    "PaymentNotAcceptedError",
    "PaymentNotDueError",
    "PaymentRequiredError",
    "PermissionDeniedError",
    "RateLimitError",
    "UnprocessableEntityError",
]


_USDC_SCALE = Decimal(10) ** 6
# Circle Gateway's wording, with X and Y in decimal USDC; bounded, as a hostile answer
# could send any number of digits. Compiled at first use (re keeps it), not at import.
_MAX_FEE_FLOOR = (
    r"insufficient max fee: expected at least (?P<minimum>[0-9]{1,24}(?:\.[0-9]{1,18})?)"
    r"(?:,\s*got (?P<got>[0-9]{1,24}(?:\.[0-9]{1,18})?))?"
)


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
        self.body: Any = redact_body(body)
        self.code = code
        # Case-insensitive, like the response's own headers.
        self.headers: Mapping[str, str] = httpx.Headers(dict(headers or {}))
        super().__init__(message, **request)

    @property
    def category(self) -> str | None:
        """The service's error category, when its body has one (the relayer's
        ``error.category``: ``VALIDATION_ERROR``, ``AUTH_ERROR``, ``PAYMENT``, ...)."""
        return body_category(self.body)

    @property
    def details(self) -> Any:
        """The service's error details, as sent (the relayer's ``error.details``: the
        field at fault, or for ``PAYMENT_REQUIRED`` the estimated cost); ``None`` when
        the body has none."""
        return body_details(self.body)

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
        self.minimum_units: int = int(
            (minimum * _USDC_SCALE).to_integral_value(rounding=ROUND_CEILING)
        )
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
        found = re.search(_MAX_FEE_FLOOR, error.message, re.IGNORECASE)
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


class PaymentNotDueError(PaymentRequiredError):
    """HTTP 402 on a call the service does not price, answered to a client with an x402
    payer: the SDK pays only the relayer's submissions, once each, never a read (a
    status poll, an account or chain lookup). Nothing was signed.

    A service that asks for money where none is due is broken or hostile: do not pay it
    by hand; use an API key, or find out why it asked.
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
