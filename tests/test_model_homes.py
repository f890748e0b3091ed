"""Each service's models are written in private modules, one per group (chains, quotes,
status...), and loaded on first use (issue 30: a client's first read builds only its
own models). To a user nothing moved: every class is importable, named, pickled and
documented as ``xswap_sdk.<service>.models.<Name>``, as before the split."""

from __future__ import annotations

import copy
import importlib
import pickle
import textwrap
from typing import Any

import pytest
from pydantic import BaseModel

from .flash import payloads
from .support import (
    TEST_ADDRESS,
    USDC_ARBITRUM,
    USDC_BASE,
    bridge_status_wire,
    gasless_quote_wire,
    gasless_status_wire,
    route_wire,
    run_python,
    supported_chain_wire,
    token_wire,
)

MODELS = ("xswap_sdk.routing.models", "xswap_sdk.flash.models")

# Each private group, and the groups it builds on (imports).
GROUPS: dict[str, tuple[str, ...]] = {
    "xswap_sdk.routing._chain_models": (),
    "xswap_sdk.routing._token_models": (),
    "xswap_sdk.routing._quote_models": (),
    "xswap_sdk.routing._status_models": (),
    "xswap_sdk.routing._gasless_models": (),
    "xswap_sdk.flash._chain_models": (),
    "xswap_sdk.flash._token_models": (),
    "xswap_sdk.flash._quote_models": (),
    "xswap_sdk.flash._balance_models": (),
    "xswap_sdk.flash._history_models": ("xswap_sdk.flash._token_models",),
    "xswap_sdk.flash._auth_models": (),
    "xswap_sdk.flash._swap_models": (
        "xswap_sdk.flash._history_models",
        "xswap_sdk.flash._token_models",
    ),
}


def public_classes(module_name: str) -> dict[str, type]:
    module = importlib.import_module(module_name)
    found = {name: getattr(module, name) for name in module.__all__}
    return {name: value for name, value in found.items() if isinstance(value, type)}


@pytest.mark.parametrize("module_name", MODELS)
def test_every_public_class_is_named_by_the_models_module(module_name: str) -> None:
    classes = public_classes(module_name)
    assert len(classes) > 10
    for name, cls in classes.items():
        assert cls.__module__ == module_name, name
        assert cls.__qualname__ == name
        if issubclass(cls, BaseModel):
            # Annotations resolved where the class was written: a later build never
            # needs the namespace of the module the class names as its home.
            assert cls.__pydantic_fields_complete__, name


@pytest.mark.parametrize("module_name", MODELS)
def test_the_groups_hold_every_public_name_once(module_name: str) -> None:
    package = module_name.rsplit(".", 1)[0]
    groups = [name for name in GROUPS if name.startswith(package + ".")]
    held: list[str] = []
    for group in [*groups, f"{package}._model_types"]:
        held += importlib.import_module(group).__all__
    assert sorted(held) == sorted(importlib.import_module(module_name).__all__)


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_a_group_loads_and_builds_alone(group: str) -> None:
    # Built in a fresh process from the group alone: its models validate without the
    # public module (whose name they carry) or any group they do not build on.
    package = group.rsplit(".", 1)[0]
    others = sorted(name for name in GROUPS if name.startswith(package) and name != group)
    result = run_python(
        textwrap.dedent(
            f"""
            import importlib, sys

            from pydantic import BaseModel


            def build(module):
                for name in module.__all__:
                    cls = getattr(module, name)
                    if isinstance(cls, type) and issubclass(cls, BaseModel):
                        assert cls.__pydantic_validator__.validate_python is not None
                        assert cls.__pydantic_complete__, name


            build(importlib.import_module({group!r}))
            assert {package + ".models"!r} not in sys.modules
            loaded = [m for m in {others!r} if m in sys.modules]
            assert loaded == sorted({list(GROUPS[group])!r}), loaded
            print("ok")
            """
        )
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def routing_records() -> list[Any]:
    from xswap_sdk.routing import models

    route = models.Route.from_wire(route_wire())
    route._request = models.QuoteRequest(
        from_chain=8453,
        to_chain=42161,
        from_token=USDC_BASE,
        to_token=USDC_ARBITRUM,
        amount=1_000_000,
        sender=TEST_ADDRESS,
    )
    return [
        models.SupportedChain.model_validate(supported_chain_wire(8453, "0x" + "12" * 20)),
        models.Token.model_validate(token_wire()),
        route,
        models.TransactionStatus.model_validate(bridge_status_wire("DONE", "0x" + "ab" * 32)),
        models.GaslessQuote.model_validate(gasless_quote_wire()),
        models.GaslessStatus.model_validate(gasless_status_wire("completed")),
        models.AcquisitionMode.PERMIT2_WITNESS,
    ]


def flash_records() -> list[Any]:
    from xswap_sdk.flash import models

    return [
        models.Chain.model_validate(payloads.chain(8453)),
        models.Token.model_validate(payloads.token()),
        models.Quote.model_validate(payloads.quote()),
        models.GatewayBalance.model_validate(payloads.balance({8453: 5_000_000})),
        models.HistoryPage.model_validate(
            payloads.history([payloads.swap_record("0x" + "cd" * 32)])
        ),
        models.AuthMessage.model_validate(payloads.auth_message()),
    ]


@pytest.mark.parametrize("records", [routing_records, flash_records])
def test_models_of_every_group_pickle_and_copy(records: Any) -> None:
    for record in records():
        data = pickle.dumps(record)
        assert f"{type(record).__module__}".encode() in data
        for again in (pickle.loads(data), copy.deepcopy(record), copy.copy(record)):
            assert type(again) is type(record)
            assert again == record
            if isinstance(record, BaseModel):
                assert again.__pydantic_private__ == record.__pydantic_private__
