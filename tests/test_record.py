"""`xswap_sdk._record.Frozen` behaves as the frozen dataclass it replaces."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from xswap_sdk._flow import Record
from xswap_sdk._options import ClientOptions, ServiceConfig
from xswap_sdk._record import Frozen
from xswap_sdk.registry import SwapRouter


@dataclass(frozen=True, slots=True)
class Generated:
    step: str
    status: str = "ok"
    data: Mapping[str, Any] = field(default_factory=dict)
    hidden: int = field(default=0, repr=False, compare=False)


@dataclass(init=False, repr=False, eq=False, slots=True)
class Written(Frozen):
    step: str
    status: str = "ok"
    data: Mapping[str, Any] = field(default_factory=dict)
    hidden: int = field(default=0, repr=False, compare=False)

    def __init__(
        self,
        step: str,
        status: str = "ok",
        data: Mapping[str, Any] | None = None,
        hidden: int = 0,
    ) -> None:
        object.__setattr__(self, "step", step)
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "data", {} if data is None else data)
        object.__setattr__(self, "hidden", hidden)


def both(*args: Any, **kwargs: Any) -> tuple[Generated, Written]:
    return Generated(*args, **kwargs), Written(*args, **kwargs)


def test_repr_names_the_same_fields() -> None:
    generated, written = both("x", data={"k": 1}, hidden=3)
    assert repr(written) == repr(generated).replace("Generated(", "Written(")


def test_equality_and_hash_read_the_compared_fields() -> None:
    _, written = both("x", data=(), hidden=3)
    assert written == Written("x", data=(), hidden=4)  # hidden is not compared
    assert written != Written("y", data=())
    assert written != Generated("x", data=())
    assert hash(written) == hash(Generated("x", data=())) == hash(("x", "ok", ()))


def test_it_refuses_assignment_and_deletion() -> None:
    written = Written("x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        written.step = "y"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del written.step
    with pytest.raises(dataclasses.FrozenInstanceError):
        written.other = 1  # type: ignore[attr-defined]
    assert not hasattr(written, "__dict__")


def test_a_default_factory_gives_each_object_its_own_value() -> None:
    first, second = Written("x"), Written("y")
    assert first.data == {}
    assert first.data is not second.data


def test_it_stays_a_dataclass() -> None:
    written = Written("x", data={"k": 1})
    assert dataclasses.is_dataclass(written)
    assert [f.name for f in dataclasses.fields(written)] == ["step", "status", "data", "hidden"]
    assert dataclasses.replace(written, status="failed") == Written("x", "failed", {"k": 1})
    assert dataclasses.asdict(written) == {
        "step": "x",
        "status": "ok",
        "data": {"k": 1},
        "hidden": 0,
    }
    assert Written.__match_args__ == Generated.__match_args__


@pytest.mark.parametrize(
    "value",
    [
        Written("x", data={"k": [1]}),
        Record("quoted", data={"amount": "1"}, identities=("0xabc",)),
        SwapRouter(8453, "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", name="router"),
        ClientOptions(ServiceConfig("relayer", "https://example.org", "URL"), "https://x.org"),
    ],
)
def test_copies_and_pickles_equal_the_original(value: Frozen) -> None:
    for copied in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert copied == value
        assert repr(copied) == repr(value)


def test_post_init_checks_still_run() -> None:
    with pytest.raises(Exception, match="chain_id"):
        SwapRouter(0, "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913")


def _every_frozen_class() -> list[type[Frozen]]:
    """Every `Frozen` record of the SDK, once each of its modules is imported."""
    import importlib
    import pkgutil

    import xswap_sdk

    for module in pkgutil.walk_packages(xswap_sdk.__path__, "xswap_sdk."):
        if module.name.startswith(("xswap_sdk._cli", "xswap_sdk.testing.plugin")):
            continue  # programs: importing them reads argv or registers a pytest plugin
        importlib.import_module(module.name)
    found: list[type[Frozen]] = []
    waiting = list(Frozen.__subclasses__())
    while waiting:
        cls = waiting.pop()
        found.append(cls)
        waiting.extend(cls.__subclasses__())
    return [cls for cls in found if cls.__module__.startswith("xswap_sdk.")]


# Operation's __init__ is its own by design: it takes the JSON body and the secrets in it
# and keeps them wrapped in private fields (`Secret`), never shown by a repr.
_OWN_INIT = frozenset({"xswap_sdk._operation.Operation"})


def _init_mismatches(cls: type[Frozen]) -> list[str]:
    """How ``cls``'s written-out ``__init__`` differs from the one a dataclass would
    generate: the names, their order, and which have a default (and its value)."""
    import inspect

    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = [f for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
    if [p.name for p in parameters] != [f.name for f in fields]:
        return [f"{cls.__qualname__}: takes {[p.name for p in parameters]}"]
    wrong = []
    for parameter, f in zip(parameters, fields, strict=True):
        has_default = (
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        )
        given = parameter.default is not inspect.Parameter.empty
        if given != has_default or (
            f.default is not dataclasses.MISSING and parameter.default != f.default
        ):
            wrong.append(f"{cls.__qualname__}.{f.name}: default {parameter.default!r}")
    return wrong


def test_each_written_init_takes_the_fields_in_order_with_their_defaults() -> None:
    # A written-out __init__ repeats its class's fields: this holds the two together, as
    # the generated one would be, so that a field added to a class and not to its
    # __init__ (or a default changed in one place) fails here.
    classes = [
        cls
        for cls in _every_frozen_class()
        if f"{cls.__module__}.{cls.__qualname__}" not in _OWN_INIT
    ]
    assert len(classes) > 20  # the SDK's, found
    assert [wrong for cls in classes for wrong in _init_mismatches(cls)] == []
    assert _init_mismatches(Written) == []
