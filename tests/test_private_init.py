"""`WireModel`'s private attributes (request and journey ids) are set by one dict copy
per object, with what pydantic's own ``init_private_attributes`` would set."""

from __future__ import annotations

from typing import Any

from pydantic import PrivateAttr

from xswap_sdk._models import _FAST, WireModel
from xswap_sdk.flash.models import Chain, Quote
from xswap_sdk.relayer.models import RelayStatus


class _Own(WireModel):
    x: int
    seen: tuple[int, ...] = ()

    def model_post_init(self, context: Any, /) -> None:
        object.__setattr__(self, "seen", (self.x,))


class _Listed(WireModel):
    x: int
    _items: list[int] = PrivateAttr(default_factory=list)


def test_defaults_and_fresh_dict_per_object() -> None:
    one, two = _Listed(x=1), _Listed(x=1)
    assert one.__pydantic_private__ == {"_request_id": None, "_journey_id": None, "_items": []}
    one._items.append(1)
    assert two._items == []
    record = RelayStatus.model_validate(
        {"id": "a", "status": "PENDING", "userId": "u", "to": "0x" + "ab" * 20,
         "callData": "0x", "value": "0", "chainId": 1, "costUSD": 0}
    )  # fmt: skip
    assert record.request_id is None
    assert record.journey_id is None
    assert record.__pydantic_private__ == {"_request_id": None, "_journey_id": None}
    object.__setattr__(record, "__pydantic_private__", {**record.__pydantic_private__})
    copy = record.model_copy()
    assert copy == record


def test_request_ids_still_tell_records_apart() -> None:
    data = {"x": 1}
    first, second = _Listed.model_validate(data), _Listed.model_validate(data)
    assert first == second
    first.__pydantic_private__["_request_id"] = "req-1"  # type: ignore[index]
    assert first != second
    assert first.request_id == "req-1"
    assert second.request_id is None


def test_fast_only_where_it_changes_nothing() -> None:
    for model in (WireModel, Chain, Quote, RelayStatus):
        assert model.model_post_init in _FAST, model
    # A model's own post-init is kept, and still runs after the private attributes.
    assert _Own.model_post_init not in _FAST
    own = _Own(x=3)
    assert own.seen == (3,)
    assert own.request_id is None
    # A default factory is pydantic's to run.
    assert _Listed.model_post_init not in _FAST
    assert _Listed(x=1)._items == []
