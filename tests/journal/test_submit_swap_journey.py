"""`FlashClient.submit_swap` (the manual path: the caller built and signed the order) is
a ``swap`` journey too: the exact request is journaled before it leaves, its result
names the journey, and resume never signs it again nor sends it twice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..support import Crash, crash_at
from .journeys import ME, WETH_ARBITRUM, client, fund, money_requests, resolve


async def _signed(flash: Any) -> Any:
    chains = await resolve(flash.get_supported_chains())
    quote = await resolve(
        flash.get_quote(
            input_amount=10_000_000,
            output_token=WETH_ARBITRUM,
            chain_id=42161,
            sender=ME,
            slippage="0.5",
        )
    )
    balances = await resolve(flash.get_balance(ME))
    order = flash.build_order(quote, chains=chains, balances=balances, user=ME)
    return flash.sign_order(order, TEST_SIGNER)


def _journaled_order(journey: Any) -> Any:
    """The signed order a journey started with (its terms: its caller signed it)."""
    return journey.arguments["submitted"]["signedOrder"]


async def test_a_submitted_order_is_a_swap_journey(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    events: list[StepEvent] = []
    with Sandbox() as sb:
        fund(sb)
        flash = client(sb, "swap", kind, journal=path, on_step=events.append)
        signed = await _signed(flash)
        submission = await resolve(flash.submit_swap(signed, slippage_bps=50))
        [request] = money_requests(sb, "swap")
    [journey] = SQLiteJournal(path).journeys()
    assert (journey.kind, journey.state, submission.journey_id) == ("swap", "completed", journey.id)
    assert [(s.step, s.status) for s in journey.steps] == [
        ("started", "started"),
        ("submitted", "sending"),
        ("submitted", "ok"),
        ("completed", "ok"),
    ]
    assert json.loads(request.body)["signedOrder"] == _journaled_order(journey)
    assert [e.step for e in events] == [s.step for s in journey.steps]


async def test_a_submitted_order_whose_answer_was_lost_is_sent_again_never_signed_anew(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        flash = client(sb, "swap", kind, journal=path)
        signed = await _signed(flash)
        sb.faults.drop_after_processing(service="flash", path="/swap")
        with pytest.raises(errors.APIConnectionError) as lost:
            await resolve(flash.submit_swap(signed, slippage_bps=50))
        assert lost.value.sent == "outcome_unknown"
        [journey] = SQLiteJournal(path).journeys()
        assert journey.state == "needs_attention"
        resumed = await resolve(client(sb, "swap", kind, journal=path).resume(journey.id))
        # The same bytes went again (its intents burn once) and were refused: taken once.
        assert len(money_requests(sb, "swap")) == 1
        bodies = {r.body for r in sb.requests.select("flash", "POST", "/swap")}
        assert len(bodies) == 1
    assert resumed.state == "needs_attention"


# A key in the environment would let resume sign a new swap: it must not.
@pytest.mark.usefixtures("key_in_env")
async def test_a_submitted_order_stopped_before_it_left_is_sent_once_never_re_signed(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        flash = client(sb, "swap", kind, journal=path, on_step=crash_at(status="sending"))
        signed = await _signed(flash)
        with pytest.raises(Crash):
            await resolve(flash.submit_swap(signed, slippage_bps=50))
        [journey] = SQLiteJournal(path).journeys()
        assert money_requests(sb, "swap") == []
        resumed = await resolve(client(sb, "swap", kind, journal=path).resume(journey.id))
        [request] = money_requests(sb, "swap")
        quotes = sb.requests.select("flash", "GET", "/quote")
    assert resumed.state == "completed"
    assert resumed.result.journey_id == journey.id
    # The journaled bytes went out, once; no new quote was asked, nothing signed anew.
    assert json.loads(request.body)["signedOrder"] == _journaled_order(journey)
    assert len(quotes) == 1
