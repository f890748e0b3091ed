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


def test_the_body_refusals_say_what_they_said() -> None:
    large = errors.ResponseTooLargeError(limit=1 << 20, status_code=200, method="GET", path="/x")
    assert str(large) == (
        "GET /x: the HTTP 200 response body is larger than the 1,048,576-byte cap; "
        "reading stopped there"
    )
    assert (large.limit, large.status_code, large.body) == (1 << 20, 200, None)
    deep = errors.ResponseTooDeepError(limit=64)
    assert str(deep) == "the response body nests JSON deeper than 64 levels; it was not parsed"
    assert (deep.limit, deep.status_code, deep.body) == (64, None, None)
