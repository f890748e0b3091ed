"""The shared slippage rule: a percent, refused above a maximum before any I/O."""

from __future__ import annotations

from decimal import Decimal

import pytest

from xswap_sdk._slippage import DEFAULT_MAX_SLIPPAGE, check_slippage
from xswap_sdk.errors import InvalidInputError


def test_default_maximum_is_five_percent() -> None:
    assert Decimal(5) == DEFAULT_MAX_SLIPPAGE
    assert check_slippage("5") == Decimal(5)
    assert check_slippage(0.5) == Decimal("0.5")
    assert check_slippage(None) is None


@pytest.mark.parametrize("slippage", [50, "5.01", Decimal("99"), 100])
def test_above_the_maximum_is_refused_naming_both_arguments(slippage: object) -> None:
    with pytest.raises(InvalidInputError) as caught:
        check_slippage(slippage)
    assert caught.value.argument == "slippage"
    assert "max_slippage" in str(caught.value)


def test_max_slippage_raises_the_limit() -> None:
    assert check_slippage(50, max_slippage=50) == Decimal(50)
    with pytest.raises(InvalidInputError, match="max_slippage"):
        check_slippage(51, max_slippage="50")


@pytest.mark.parametrize("bad", [True, "abc", float("nan"), -1, 101, [1]])
def test_malformed_values_are_refused(bad: object) -> None:
    with pytest.raises(InvalidInputError) as caught:
        check_slippage(bad, argument="tolerance")
    assert caught.value.argument == "tolerance"
    with pytest.raises(InvalidInputError) as caught:
        check_slippage("1", max_slippage=bad)
    assert caught.value.argument == "max_slippage"
