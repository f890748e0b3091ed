"""The pure checks a re-quote must pass before it is offered to ``accept_quote``:
``Quote.worse_than(first)`` (swap backend) and ``GaslessQuote.worse_than(first)``
(routing service) say why a new quote is worse for the caller than the first one, or
``None`` when it is not. A journey that re-quotes refuses a worse one."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from xswap_sdk.flash.models import Quote
from xswap_sdk.routing.models import GaslessQuote

from .flash.payloads import quote as flash_quote
from .support import gasless_quote_wire

OTHER = "0x2222222222222222222222222222222222222222"


def swap_quote(**edits: Any) -> Quote:
    body = flash_quote()
    for path, value in edits.items():
        section, _, field = path.partition("__")
        body[section][field] = value
    return Quote.model_validate(body)


def test_the_same_or_a_better_swap_quote_is_not_worse() -> None:
    first = swap_quote()
    assert swap_quote().worse_than(first) is None
    better = swap_quote(token_out__amount=str(int(first.token_out.amount) + 1))
    assert better.worse_than(first) is None


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ({"token_out__amount": "1"}, "token_out.amount"),
        ({"token_out__address": OTHER}, "token_out.address"),
        ({"token_in__amount": "99999999"}, "token_in.amount"),
        ({"fees__total_fee": "999999999"}, "fees.total_fee"),
        ({"fees__execution_fee": "999999"}, "fees.execution_fee"),
    ],
)
def test_a_worse_swap_quote_is_named(edit: dict[str, Any], field: str) -> None:
    reason = swap_quote(**edit).worse_than(swap_quote())
    assert reason is not None
    assert reason.startswith(field)


def gasless(**quote_fields: Any) -> GaslessQuote:
    body = gasless_quote_wire()
    body["quote"] = {**copy.deepcopy(body["quote"]), **quote_fields}
    return GaslessQuote.model_validate(body)


def test_the_same_gasless_quote_is_not_worse() -> None:
    assert gasless().worse_than(gasless()) is None
    assert gasless(amountOut="998000").worse_than(gasless()) is None


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ({"amountOut": "1"}, "quote.amount_out"),
        ({"amountIn": "2000000"}, "quote.amount_in"),
        ({"receiver": OTHER}, "quote.receiver"),
        ({"toToken": OTHER}, "quote.to_token"),
        ({"toChain": 10}, "quote.to_chain"),
        ({"amountOut": None}, "quote.amount_out"),
    ],
)
def test_a_worse_gasless_quote_is_named(edit: dict[str, Any], field: str) -> None:
    reason = gasless(**edit).worse_than(gasless())
    assert reason is not None
    assert reason.startswith(field)


def test_a_higher_gasless_fee_is_worse() -> None:
    dearer = gasless_quote_wire()
    dearer["fee"] = {**dearer["fee"], "feeAmount": "5000"}
    reason = GaslessQuote.model_validate(dearer).worse_than(gasless())
    assert reason is not None
    assert reason.startswith("fee.fee_amount")
