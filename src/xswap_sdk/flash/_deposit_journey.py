"""A deposit sent by web3 as a ``deposit`` journey: its transaction is a step of one flow.

`FlashClient.deposit` checks the deposit, signs the permit or the authorization and
simulates before this flow starts (``started`` holds the transaction, with its signed
permit or authorization: what the deposit is). The flow signs the transaction
(``signed``: its raw bytes and hash, before they leave), writes ``broadcast/sending``,
broadcasts and writes ``broadcast/ok``; the call does not wait for the receipt.

Resume (`resume_deposit`) never signs or sends again: a deposit that may have been
broadcast is looked for by its journaled hash on the chain (its receipt, with web3);
found, the journey is completed (``confirmed``); not found, it needs attention. One
stopped before its transaction could have left ends ``failed`` (nothing was sent).
"""

from __future__ import annotations

from typing import Any, Final

from .._chain_steps import ChainIO, attention, mined, send
from .._flow import Begin, Flow, Record
from ..journal import Journey
from ._deposit import DepositResult

__all__ = ["KIND", "deposit_journey", "resume_deposit"]

KIND: Final = "deposit"
"""The journey kind of `FlashClient.deposit` when web3 sends it."""


def deposit_journey(
    result: DepositResult, fields: dict[str, Any], io: ChainIO
) -> Flow[DepositResult]:
    """The ``deposit`` journey of ``result`` (without its hash yet), sent with ``io``."""
    journey_id = yield Begin(KIND, {"deposit": result})
    tx_hash = yield from send(io, fields, "deposit", confirm=False)
    return result.model_copy(update={"tx_hash": tx_hash, "journey_id": journey_id})


def resume_deposit(journey: Journey, io: ChainIO | None) -> Flow[DepositResult | None]:
    """Resume a ``deposit`` journey by the rules of the module docstring."""
    if journey.state in ("completed", "failed"):
        return None
    yield Begin(KIND, {"from": journey.state}, resume=journey.id)
    broadcast = [s.data for s in journey.steps if s.step == "broadcast"]
    if not broadcast:
        yield Record(
            "failed",
            "not_sent",
            {"reason": "the deposit transaction was never sent; nothing is at stake"},
            state="failed",
        )
        return None
    known = next(
        (d["tx_hash"] for d in reversed(broadcast) if isinstance(d.get("tx_hash"), str)), None
    )
    if journey.last("broadcast", "ok") is None or journey.last("confirmed") is None:
        found = yield from mined(known, None if io is None else io.receipt, "deposit")
        if not found:
            yield from attention("the deposit transaction")
            return None
    assert known is not None
    result = DepositResult.model_validate(journey.arguments["deposit"])
    return result.model_copy(update={"tx_hash": known, "journey_id": journey.id})
