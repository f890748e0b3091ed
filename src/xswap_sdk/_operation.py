"""One HTTP call described as data: `Operation`, and `parser` to read its answer.

Pure: service packages build operations without importing the I/O layer, and the
transport sends them. Flows and page walks yield them as steps.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, Literal, TypeVar
from urllib.parse import urlencode

import httpx
from pydantic import BaseModel, Secret

from ._models import adapter_for
from ._options import NOT_GIVEN, NotGiven
from ._record import Frozen

__all__ = ["AuthRequirement", "Operation", "parser", "query_string"]

T = TypeVar("T")
U = TypeVar("U")

AuthRequirement = Literal["required", "optional", "none"]
"""Whether an operation needs credentials (checked before I/O), sends them when the
client has them, or never sends them."""


@dataclass(init=False, repr=False, eq=False, slots=True)
class Operation(Frozen, Generic[T]):
    """One HTTP call, described as data: what to send and how to read the answer.

    The body and the secrets are held sealed (in `pydantic.Secret`): an operation sits
    in every frame of the transport, so when a call fails, an error tracker that records
    frame locals (Sentry's default) sees ``Secret('**********')`` instead of the
    signatures a body carries. Read them with ``json`` and ``secrets``.

    Attributes:
        method: HTTP method.
        path: the concrete path, appended to the client's base URL.
        parse: turns the unwrapped payload into the result (raises pydantic's
            ``ValidationError`` when it does not fit).
        params: query parameters as pairs, so a name may repeat.
        idempotent: whether sending it twice is harmless, so it may be retried after it
            was sent. ``False`` for anything that moves money or state.
        auth: whether credentials are ``"required"`` (checked before I/O), sent when
            configured (``"optional"``), or never sent (``"none"``).
        path_template: the path with placeholders, for logs (``/balance/{address}``).
        timeout: this operation's own default timeout, when it needs a longer one.
        redact: top-level keys of a JSON answer whose values are credentials (a login's
            ``token``), replaced in what ``capture_responses()`` keeps.
        with_headers: called with the parsed result and the answer's headers, returns
            the call's result (a page that reads its cursor from ``Link``).
        single_use: for a request that moves money, whether what it carries can take
            effect once only, however often it is sent (signed burn intents, used once
            by salt; a Permit2 or EIP-3009 nonce; a signed transaction's nonce). A
            journey resends such a request when it may have arrived and the service
            cannot say; any other one it never sends twice.
        identify: what the result of a request that moves money identifies (a transfer
            id, a transaction hash): a journey's journal indexes it with the answer,
            so a webhook or a lookup finds the journey by it.
        priced: whether the service prices this call, so that an HTTP 402 answering it
            may be paid (x402) by a client with a payer: only the relayer's submissions
            are. A 402 on any other call is never paid (`xswap_sdk.errors.PaymentNotDueError`).
    """

    method: str
    path: str
    parse: Callable[[Any], T]
    params: Sequence[tuple[str, str]] | None
    idempotent: bool
    auth: AuthRequirement
    path_template: str | None
    timeout: httpx.Timeout | NotGiven
    redact: tuple[str, ...]
    with_headers: Callable[[Any, httpx.Headers], Any] | None
    single_use: bool
    identify: Callable[[Any], tuple[str, ...]] | None
    priced: bool
    _json: Secret[Any]
    _secrets: Secret[tuple[str, ...]]

    def __init__(
        self,
        method: str,
        path: str,
        parse: Callable[[Any], T],
        params: Sequence[tuple[str, str]] | None = None,
        json: Any = None,
        idempotent: bool = True,
        auth: AuthRequirement = "optional",
        path_template: str | None = None,
        timeout: httpx.Timeout | NotGiven = NOT_GIVEN,
        secrets: tuple[str, ...] = (),
        redact: tuple[str, ...] = (),
        with_headers: Callable[[Any, httpx.Headers], Any] | None = None,
        single_use: bool = False,
        identify: Callable[[Any], tuple[str, ...]] | None = None,
        priced: bool = False,
    ) -> None:
        """Describe the call.

        Args:
            method: see the attributes.
            path: see the attributes.
            parse: see the attributes.
            params: see the attributes.
            json: the JSON body, if any.
            idempotent: see the attributes.
            auth: see the attributes.
            path_template: see the attributes.
            timeout: see the attributes.
            secrets: values in this request to keep out of error messages (signatures).
            redact: see the attributes.
            with_headers: see the attributes.
            single_use: see the attributes.
            identify: see the attributes.
            priced: see the attributes.
        """
        init = object.__setattr__
        init(self, "method", method)
        init(self, "path", path)
        init(self, "parse", parse)
        init(self, "params", params)
        init(self, "idempotent", idempotent)
        init(self, "auth", auth)
        init(self, "path_template", path_template)
        init(self, "timeout", timeout)
        init(self, "redact", redact)
        init(self, "with_headers", with_headers)
        init(self, "single_use", single_use)
        init(self, "identify", identify)
        init(self, "priced", priced)
        init(self, "_json", Secret(json))
        init(self, "_secrets", Secret(tuple(secrets)))

    @property
    def json(self) -> Any:
        """The JSON body, if any."""
        return self._json.get_secret_value()

    @property
    def secrets(self) -> tuple[str, ...]:
        """Values in this request to keep out of error messages (signatures)."""
        return self._secrets.get_secret_value()

    @property
    def log_path(self) -> str:
        """The path as logged and reported: the template when there is one."""
        return self.path_template or self.path

    def reading(self, parse: Callable[[Any], U]) -> Operation[U]:
        """The same request, its answer read by ``parse`` instead (a waiter that reads a
        page down to the one entry it watches, so a timeout reports that entry)."""
        return self._copy(parse, self.secrets)

    def keeping_secret(self, *values: str) -> Operation[T]:
        """The same request with ``values`` (a payment's signature, say) also kept out of
        every error message."""
        return self._copy(self.parse, (*self.secrets, *values))

    def _copy(self, parse: Callable[[Any], U], secrets: tuple[str, ...]) -> Operation[U]:
        return Operation(
            self.method,
            self.path,
            parse,
            params=self.params,
            json=self.json,
            idempotent=self.idempotent,
            auth=self.auth,
            path_template=self.path_template,
            timeout=self.timeout,
            secrets=secrets,
            redact=self.redact,
            with_headers=self.with_headers,
            single_use=self.single_use,
            identify=self.identify,
            priced=self.priced,
        )


def parser(type_: Any) -> Callable[[Any], Any]:
    """A parse function for `Operation` that validates the payload into ``type_``."""
    if isinstance(type_, type) and issubclass(type_, BaseModel):
        # The model's own validator, which a TypeAdapter of it would wrap: a first read
        # then builds one validator (not a second for the adapter) and needs no
        # TypeAdapter at all.
        return type_.model_validate
    # Cached: operations are built per call, and a TypeAdapter costs more to build
    # than the request costs to send through a local transport.
    return adapter_for(type_).validate_python


_UNRESERVED: Final = re.compile(r"[A-Za-z0-9_.~-]*").fullmatch
"""Text `urllib.parse.quote_plus` leaves as it is (letters, digits and ``_.-~``)."""


def query_string(params: Sequence[tuple[str, str]]) -> str:
    """``urlencode(params)``: the same text, without quoting names and values that
    need none (amounts, addresses and chain ids: a quote's whole query)."""
    for name, value in params:
        if not (
            type(name) is str and type(value) is str and _UNRESERVED(name) and _UNRESERVED(value)
        ):
            return urlencode(list(params))
    return "&".join([f"{name}={value}" for name, value in params])
