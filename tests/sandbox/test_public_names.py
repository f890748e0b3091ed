"""The sandbox's and the testing package's public names exist and are documented."""

from __future__ import annotations

import inspect
from types import ModuleType

import pytest

import xswap_sdk.sandbox
import xswap_sdk.sandbox.faults
import xswap_sdk.sandbox.server
import xswap_sdk.testing
import xswap_sdk.testing.plugin

MODULES = [
    xswap_sdk.sandbox,
    xswap_sdk.sandbox.faults,
    xswap_sdk.sandbox.server,
    xswap_sdk.testing,
    xswap_sdk.testing.plugin,
]
CONSTANTS = {
    "BASE_URL",
    "SERVICES",
    "FaultKind",
    "Tamper",
    "TEST_ADDRESS",
    "TEST_PRIVATE_KEY",
    "TEST_SIGNER",
}


def public(module: ModuleType) -> list[tuple[str, object]]:
    return [(name, getattr(module, name)) for name in module.__all__ if name not in CONSTANTS]


@pytest.mark.parametrize(
    ("name", "obj"),
    [item for module in MODULES for item in public(module)],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_every_public_name_is_documented(name: str, obj: object) -> None:
    assert inspect.getdoc(obj), f"{name} has no docstring"
    if inspect.isclass(obj):
        for member_name, member in vars(obj).items():
            if member_name.startswith("_"):
                continue
            if inspect.isfunction(member) or isinstance(member, property):
                assert inspect.getdoc(member), f"{name}.{member_name} has no docstring"


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_all_lists_what_the_module_defines(module: ModuleType) -> None:
    for name in module.__all__:
        assert hasattr(module, name), name
