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
