"""The error tree as a user meets it: every public error is named by its public module."""

from __future__ import annotations

import pytest

import xswap_sdk
from xswap_sdk import errors


@pytest.mark.parametrize("name", [*errors.__all__])
def test_a_public_name_is_named_by_the_public_module(name: str) -> None:
    value = getattr(errors, name)
    assert value.__module__ == "xswap_sdk.errors"
    assert value.__qualname__ == name


def test_the_top_level_package_hands_out_the_same_module() -> None:
    assert xswap_sdk.errors is errors
