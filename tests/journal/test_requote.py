"""``requote=`` on the one-call swap: a quote that expires before signing is asked
again, the new one checked like the first and offered to ``accept_quote``; never a
worse one signed silently."""

from __future__ import annotations

from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.journal import StepEvent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..support import FLASH_SWAP
from .journeys import client, fund, resolve


def expiring(sb: Sandbox) -> Any:
    """Quotes live 10 s, and the first balance read takes 20 s."""
    sb.flash.quote_lifetime = 10
    slowed: list[bool] = []

    def slow_balance(event: Any) -> None:
        if event.path.startswith("/balance") and not slowed:
            slowed.append(True)
            sb.wait(20)

    return slow_balance


async def swap(flash: Any, **kwargs: Any) -> Any:
    return await resolve(
        flash.swap(
            TEST_SIGNER,
            **FLASH_SWAP,
            **kwargs,
        )
    )


def quotes_and_swaps(sb: Sandbox) -> tuple[int, int]:
    quotes = len(sb.requests.select("flash", "GET", "/quote"))
    swaps = len(sb.requests.select("flash", "POST", "/swap"))
    return quotes, swaps


async def test_an_expired_quote_is_refused_without_requote(kind: str) -> None:
    with Sandbox() as sb:
        fund(sb)
        flash = client(sb, "swap", kind, on_request=expiring(sb))
        with pytest.raises(errors.QuoteRejectedError) as expired:
            await swap(flash)
        assert expired.value.argument == "quote.expires_at"
        assert quotes_and_swaps(sb) == (1, 0)


async def test_requote_asks_again_and_checks_the_new_quote(kind: str) -> None:
    events: list[StepEvent] = []
    offered: list[Any] = []

    def accept(quote: Any) -> bool:
        offered.append(quote)
        return True

    with Sandbox() as sb:
        fund(sb)
        flash = client(sb, "swap", kind, on_request=expiring(sb), on_step=events.append)
        result = await swap(flash, requote=1, accept_quote=accept, min_amount_out=1)
        assert quotes_and_swaps(sb) == (2, 1)
    assert result.status == "pending"
    steps = [e.step for e in events]
    assert steps[:6] == ["started", "quoted", "requoted", "quoted", "verified", "signed"]
    assert events[2].data["attempt"] == 1
    assert len(offered) == 1  # the new quote only


async def test_a_declined_new_quote_is_never_signed(kind: str) -> None:
    with Sandbox() as sb:
        fund(sb)
        flash = client(sb, "swap", kind, on_request=expiring(sb))
        with pytest.raises(errors.QuoteRejectedError) as declined:
            await swap(flash, requote=2, accept_quote=lambda quote: False)
        assert declined.value.argument == "accept_quote"
        assert quotes_and_swaps(sb) == (2, 0)


@pytest.mark.parametrize("answer", [None, 1, "yes", "no", [0]], ids=repr)
async def test_accept_quote_must_return_exactly_true(kind: str, answer: object) -> None:
    # A hook that forgets to return (None) or returns any truthy value that is not True
    # has not accepted the new quote: it is refused, never signed.
    with Sandbox() as sb:
        fund(sb)
        flash = client(sb, "swap", kind, on_request=expiring(sb))
        with pytest.raises(errors.QuoteRejectedError) as refused:
            await swap(flash, requote=1, accept_quote=lambda quote: answer, min_amount_out=1)
        assert refused.value.argument == "accept_quote"
        assert "did not return True" in str(refused.value)
        assert quotes_and_swaps(sb) == (2, 0)


async def test_requote_never_lets_a_quote_below_the_floor_through(kind: str) -> None:
    with Sandbox() as sb:
        fund(sb)
        flash = client(sb, "swap", kind, on_request=expiring(sb))
        with pytest.raises(errors.UnsafePayloadError):
            # No quote gives this much: requote is only for expiry, never for the floors.
            await swap(flash, requote=1, min_amount_out=10**30)
        assert quotes_and_swaps(sb)[1] == 0


@pytest.mark.parametrize(
    ("arguments", "name"),
    [({"requote": -1}, "requote"), ({"requote": 9}, "requote"), ({"requote": True}, "requote"),
     ({"accept_quote": 3}, "accept_quote")],
)  # fmt: skip
async def test_requote_arguments_are_checked_before_any_io(
    kind: str, arguments: dict[str, Any], name: str
) -> None:
    with Sandbox() as sb:
        flash = client(sb, "swap", kind)
        with pytest.raises(errors.InvalidInputError, match=name):
            await swap(flash, **arguments)
        assert quotes_and_swaps(sb) == (0, 0)
