"""Frozen dataclasses whose methods come from their source, not from code built at import.

``@dataclass(frozen=True)`` writes a class's ``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__`` and ``__delattr__`` as text and compiles each one when the
module is imported: about half a millisecond per class on Python 3.11, and the core of
every client has dozens. A class of the first read's path is instead declared

    @dataclass(init=False, repr=False, eq=False, slots=True)
    class Step(Frozen):
        name: str
        data: Mapping[str, Any] = field(default_factory=dict)

        def __init__(self, name: str, data: Mapping[str, Any] | None = None) -> None:
            object.__setattr__(self, "name", name)
            object.__setattr__(self, "data", {} if data is None else data)

with an ``__init__`` of its own (compiled with the module, like any function) and
`Frozen` for the rest: the same ``repr``, equality, hash and immutability as a frozen
dataclass, read from the class's fields. It stays a dataclass, so ``dataclasses.fields``,
``replace`` and ``asdict`` work on it as before.
"""

from __future__ import annotations

import dataclasses
import reprlib
from typing import Any

__all__ = ["Frozen"]

# Per class: the names its repr shows, that equality compares, and that its hash reads,
# in field order, as the frozen dataclass would have compiled them.
_PLANS: dict[type, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}


def _plan(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    plan = _PLANS.get(cls)
    if plan is None:
        fields = dataclasses.fields(cls)
        plan = _PLANS[cls] = (
            tuple(f.name for f in fields if f.repr),
            tuple(f.name for f in fields if f.compare),
            tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)),
        )
    return plan


class Frozen:
    """Base of a frozen record declared as above: immutable, compared and hashed by its
    fields, shown as ``Name(field=value, ...)``."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _plan(type(self))[0])
        return f"{type(self).__qualname__}({shown})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        names = _plan(type(self))[1]
        return tuple(getattr(self, name) for name in names) == tuple(
            getattr(other, name) for name in names
        )

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, name) for name in _plan(type(self))[2]))

    # copy, deepcopy and pickle restore a slotted object by setting its attributes, which
    # __setattr__ refuses: the frozen dataclass's own pair, which set them underneath.
    def __getstate__(self) -> list[Any]:
        return [getattr(self, field.name) for field in dataclasses.fields(self)]  # type: ignore[arg-type]

    def __setstate__(self, state: list[Any]) -> None:
        for field, value in zip(dataclasses.fields(self), state, strict=False):  # type: ignore[arg-type]
            object.__setattr__(self, field.name, value)
