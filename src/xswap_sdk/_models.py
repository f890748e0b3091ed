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
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, TypeVar

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    PrivateAttr,
    ValidationError,
)
from pydantic._internal._model_construction import init_private_attributes
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticUndefined

if TYPE_CHECKING:
    from pydantic import TypeAdapter

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

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        _fast_private_init(cls)


_IMMUTABLE = (type(None), bool, int, float, str, bytes)


def _private_defaults(cls: type[BaseModel]) -> dict[str, Any] | None:
    """The private attributes' defaults of ``cls``, when each is a plain immutable value
    (so one copy of this dict per object is what pydantic would build); else ``None``."""
    defaults: dict[str, Any] = {}
    for name, attribute in cls.__private_attributes__.items():
        default: Any = attribute.default
        if attribute.default_factory is not None:
            return None
        if default is PydanticUndefined:
            continue
        if not isinstance(default, _IMMUTABLE):
            return None
        defaults[name] = default
    return defaults


def _only_private_init(function: Any) -> bool:
    """Whether ``function``, a class's ``model_post_init``, only sets private attributes:
    pydantic's ``init_private_attributes``, ours, or pydantic's wrappers around them (one
    per subclass), with no ``model_post_init`` of a model's own anywhere in the chain."""
    pydantic_file = init_private_attributes.__code__.co_filename
    while True:
        if function is init_private_attributes or function in _FAST:
            return True
        # pydantic's wrapper takes the wrapped function's name (functools.wraps), not
        # its code's.
        code = getattr(function, "__code__", None)
        if (
            code is None
            or code.co_name != "wrapped_model_post_init"
            or code.co_filename != pydantic_file
        ):
            return False
        function = getattr(function, "__wrapped__", None)


_FAST: set[Any] = set()
"""The post-inits `_fast_private_init` made."""


def _fast_private_init(cls: type[BaseModel]) -> None:
    """Give ``cls`` a ``model_post_init`` that sets its private attributes (the request
    and journey ids every record carries) in one dict copy, instead of pydantic's chain
    of one ``init_private_attributes`` per class level, each looking every default up:
    a swap validates about forty records. Only where the result is the same: a model
    whose post-init does nothing else and whose defaults are immutable."""
    defaults = _private_defaults(cls)
    if defaults is None or not _only_private_init(cls.__dict__.get("model_post_init")):
        return

    def model_post_init(self: BaseModel, context: Any, /) -> None:
        if getattr(self, "__pydantic_private__", None) is None:
            object.__setattr__(self, "__pydantic_private__", dict(defaults))

    _FAST.add(model_post_init)
    cls.model_post_init = model_post_init  # type: ignore[method-assign]


_fast_private_init(WireModel)


def private_value(model: BaseModel, name: str) -> Any:
    """``getattr(model, name)`` for one of its private attributes, read from pydantic's
    dict of them: pydantic's own path (``__getattr__``, which asks the attribute for a
    ``__get__`` through an ``AttributeError``) costs some thirty times more, and a swap
    reads its quote's request eight times."""
    private = model.__pydantic_private__
    if private is not None and name in private:
        return private[name]
    return getattr(model, name)


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
    if type(value) is int:
        return value
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
    # Most arguments are plain values, which no type check needs to look at twice.
    if type(value) not in _NEVER_AWAITABLE and inspect.isawaitable(value):
        raise InvalidInputError(argument, UNAWAITED_RULE)


_NEVER_AWAITABLE: frozenset[type] = frozenset(
    {str, int, bool, float, bytes, type(None), dict, list, tuple, Decimal}
)
"""Exact types that are never awaitable (a subclass may be: it is checked in full)."""


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
    from pydantic import TypeAdapter  # pydantic's own module, loaded by the first one

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
