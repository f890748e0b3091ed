"""The one model base, in two flavours, and argument validation.

Responses are read tolerantly (`WireModel`): unknown fields are kept, optional fields
may be absent or null, and wire names (camelCase or snake_case, as each service spells
them) are aliases of snake_case attributes. Requests are strict (`RequestModel`):
unknown fields are refused and every value is validated before any I/O, with errors
reported as `InvalidInputError` naming the Python argument.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Iterator
from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    PrivateAttr,
    TypeAdapter,
    ValidationError,
)
from pydantic.alias_generators import to_camel

from .errors import InvalidInputError
from .types import to_checksum

__all__ = [
    "LenientAddress",
    "LenientInt",
    "RequestModel",
    "WireModel",
    "adapter_for",
    "UNAWAITED_RULE",
    "check_argument",
    "refuse_unawaited",
    "validate_request",
]

UNAWAITED_RULE = "looks like an un-awaited coroutine: did you forget `await`?"
"""The rule reported for an awaitable passed where its result belongs."""

RequestT = TypeVar("RequestT", bound="RequestModel")
T = TypeVar("T")


class WireModel(BaseModel):
    """Base of every response model.

    Attributes are snake_case; the wire names are aliases (camelCase unless a model says
    otherwise), accepted on input and used again by ``model_dump()`` and
    ``model_dump_json()``, so a model dumps back to what the service sent. Fields the
    SDK does not know about are kept and reachable as attributes and in
    ``model_extra``.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        alias_generator=to_camel,
        extra="allow",
        frozen=True,
        validate_by_alias=True,
        validate_by_name=True,
        serialize_by_alias=True,
        # Built on first use, not at import: a program that uses one client should not
        # pay for the schemas of every model of every service.
        defer_build=True,
    )

    _request_id: str | None = PrivateAttr(default=None)
    _journey_id: str | None = PrivateAttr(default=None)

    @property
    def journey_id(self) -> str | None:
        """The id of the money journey this result ended, in the client's journal
        (see `xswap_sdk.journal`); ``None`` without a journal or for a plain read."""
        return self._journey_id

    @property
    def request_id(self) -> str | None:
        """The service's request or trace id of the answer this came from
        (``x-request-id``, ``x-trace-id`` or ``traceparent``), for support tickets;
        ``None`` when the service sent none or the model was built by hand."""
        return self._request_id

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        # Records have many optional fields; a repr that lists only the set ones reads
        # well in a notebook or a log line.
        for name, value in super().__repr_args__():
            if value is not None:
                yield name, value


class RequestModel(BaseModel):
    """Base of every request body and query: strict, wire names as aliases."""

    model_config: ClassVar[ConfigDict] = ConfigDict(
        alias_generator=to_camel,
        extra="forbid",
        frozen=True,
        validate_by_alias=False,
        validate_by_name=True,
        serialize_by_alias=True,
        loc_by_alias=False,
        defer_build=True,
    )

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready wire form, with unset optional fields left out."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


def _lenient_int(value: Any) -> Any:
    # Services send integers as numbers, decimal strings or (for gas) 0x hex strings.
    if isinstance(value, str):
        text = value.strip()
        if text.lower().startswith("0x"):
            return int(text, 16)
        if text.isdigit():
            return int(text)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _lenient_address(value: Any) -> Any:
    # Checksum what is an address; keep anything else as the service sent it.
    try:
        return to_checksum(value)
    except ValueError:
        return value


LenientInt = Annotated[int, BeforeValidator(_lenient_int)]
"""An integer in a response: a JSON number, a decimal string or a 0x hex string."""

LenientAddress = Annotated[str, BeforeValidator(_lenient_address)]
"""An address in a response: checksummed when it is one, kept as sent otherwise."""


def _rule(error: Any) -> str:
    message = str(error["msg"])
    # pydantic prefixes the text of a ValueError raised in a validator.
    return message.removeprefix("Value error, ")


def _location(loc: tuple[Any, ...], prefix: str = "") -> str:
    out = prefix
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def invalid_input(exc: ValidationError, *, argument: str | None = None) -> InvalidInputError:
    """Turn a pydantic error into an `InvalidInputError` naming the argument.

    The input values are left out on purpose: pydantic echoes them, and an argument may be
    a signature or a key pasted into the wrong place.
    """
    errors = exc.errors(include_url=False, include_input=False)
    first = errors[0]
    name = _location(first["loc"], argument or "") or "arguments"
    rule = _rule(first)
    if first["type"] == "missing":
        rule = "is required"
    elif first["type"] == "extra_forbidden":
        rule = "is not a known argument"
    more = len(errors) - 1
    if more:
        rule += f" (and {more} more problem{'s' if more > 1 else ''})"
    return InvalidInputError(name, rule)


def refuse_unawaited(argument: str, value: object) -> None:
    """Refuse an awaitable given where its result belongs.

    ``relayer.wait_for_execution_hash(relayer.relay(...))`` with an async client passes
    a coroutine: say so, rather than "must be a non-empty string".

    Raises:
        InvalidInputError: ``value`` is a coroutine, task or future.
    """
    if inspect.isawaitable(value):
        raise InvalidInputError(argument, UNAWAITED_RULE)


def validate_request(
    model: type[RequestT], /, *, validation_context: Any = None, **values: Any
) -> RequestT:
    """Build a request model from keyword arguments, or raise `InvalidInputError`.

    ``validation_context`` is handed to the model's validators (pydantic's
    ``context``), for rules that depend on the client's configuration.
    """
    for name, value in values.items():
        refuse_unawaited(name, value)
    try:
        return model.model_validate(values, context=validation_context)
    except ValidationError as exc:
        raise invalid_input(exc) from None


@functools.cache
def adapter_for(type_: Any) -> TypeAdapter[Any]:
    """A `pydantic.TypeAdapter` for ``type_``, built once per type."""
    return TypeAdapter(type_)


def check_argument(argument: str, type_: Any, value: Any) -> Any:
    """Validate one argument against a type (e.g. `xswap_sdk.types.Address`).

    Returns the normalised value, or raises `InvalidInputError` naming ``argument``.
    """
    refuse_unawaited(argument, value)
    try:
        return adapter_for(type_).validate_python(value)
    except ValidationError as exc:
        raise invalid_input(exc, argument=argument) from None
