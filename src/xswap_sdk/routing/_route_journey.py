"""Route execution as a journey: its chain transactions are steps of one flow.

`RoutingClient.execute_route` checks the route, reads the allowance and simulates
before anything is signed (no side effect); what follows is this flow, written once:
for the approval (when one is needed), then the route transaction, it signs (`Chain`),
writes ``signed`` with the raw bytes and their hash, writes ``broadcast/sending``, sends
the bytes, writes ``broadcast/ok``, waits for the receipt and writes ``confirmed``
(``approved`` after the approval); then it follows ``/status`` (``waiting``,
``executed``). The client method hands it the async or the blocking web3 helpers
(`ChainIO`), so the async driver awaits them and the blocking one calls them.

Resume (`resume_route`) never signs or sends a transaction again. A route transaction
that may have been broadcast is looked for by its journaled hash: its receipt on the
chain (when resume is given web3), else its record on ``/status``; found, the journey
goes on (follows ``/status``); not found, it ends ``needs_attention``. One that stopped
before its route transaction could have left ends ``failed`` (nothing of the route was
sent; an approval already mined stays and is not sent again by a new `execute_route`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from .._chain_steps import ChainIO, attention, mined, send
from .._flow import Begin, Call, Flow, Record
from ..errors import XSwapError
from ..journal import Journey
from ._execution import AllowanceCheck, ExecutionPlan, RouteExecution
from .models import Transaction, TransactionStatus

__all__ = ["KIND", "resume_route", "route_journey"]

KIND: Final = "route"
"""The journey kind of `RoutingClient.execute_route`."""

DONE_STATES: Final = ("completed", "failed")


def route_journey(
    plan: ExecutionPlan,
    tx: Transaction,
    fields: dict[str, Any],
    approval: dict[str, Any] | None,
    allowance: AllowanceCheck | None,
    io: ChainIO,
    follow: Callable[[str], Flow[TransactionStatus]] | None,
    simulation: Any = None,
) -> Flow[RouteExecution]:
    """The ``route`` journey from the first signature: approval, route transaction,
    ``/status`` (``follow``, when waiting)."""
    journey_id = yield Begin(
        KIND,
        {
            "chain_id": plan.chain_id,
            "sender": plan.owner,
            "transaction": tx,
            "allowance": allowance,
            "approval": approval,
            "wait": follow is not None,
            "expected_seconds": _expected(plan),
        },
    )
    if approval is not None and allowance is not None:
        approval_hash = yield from send(io, approval, "approval")
        allowance = allowance.model_copy(update={"approval_tx_hash": approval_hash})
        yield Record("approved", "ok", {"tx_hash": approval_hash})
    tx_hash = yield from send(io, fields, "route")
    status = yield from _follow(follow, tx_hash, _expected(plan))
    return RouteExecution(
        transaction=tx,
        tx_hash=tx_hash,
        allowance=allowance,
        status=status,
        simulation=simulation,
        journey_id=journey_id,
    )


def _expected(plan: ExecutionPlan) -> float | None:
    # The routing service's own estimate: what the stall watchdog measures the wait by.
    estimate = plan.route.estimated_time_ms
    return estimate / 1000 if isinstance(estimate, int) and estimate > 0 else None


def _follow(
    follow: Callable[[str], Flow[TransactionStatus]] | None,
    tx_hash: str,
    expected: object = None,
) -> Flow[TransactionStatus | None]:
    if follow is None:
        return None
    yield Record("waiting", "ok", {"tx_hash": tx_hash, "expected_seconds": expected})
    status = yield from follow(tx_hash)
    yield Record("executed", "ok", {"status": status})
    return status


def _last(journey: Journey, step: str, what: str) -> Mapping[str, Any] | None:
    found: Mapping[str, Any] | None = None
    for s in journey.steps:
        if s.step == step and s.data.get("what") == what:
            found = s.data
    return found


def resume_route(
    journey: Journey,
    receipt: Callable[[str], Any] | None,
    status: Callable[[str], Call[TransactionStatus]],
    follow: Callable[[str], Flow[TransactionStatus]],
) -> Flow[RouteExecution | None]:
    """Resume a ``route`` journey by the rules of the module docstring."""
    if journey.state in DONE_STATES:
        return None
    yield Begin(KIND, {"from": journey.state}, resume=journey.id)
    args = journey.arguments
    sent = _last(journey, "broadcast", "route")
    if sent is None:
        approving = _last(journey, "broadcast", "approval")
        if approving is not None and _last(journey, "confirmed", "approval") is None:
            found = yield from mined(approving.get("tx_hash"), receipt, "approval")
            if not found:
                yield from attention("the approval")
                return None
        yield Record(
            "failed",
            "not_sent",
            {
                "reason": "the route transaction was never sent; nothing is at stake but an "
                "approval, which a new execute_route uses instead of approving again",
            },
            state="failed",
        )
        return None
    hashes = [
        s.data.get("tx_hash")
        for s in journey.steps
        if s.step == "broadcast" and s.data.get("what") == "route"
    ]
    known = next((h for h in reversed(hashes) if isinstance(h, str)), None)
    if _last(journey, "confirmed", "route") is None:
        found = yield from mined(known, receipt, "route")
        if not found and known is not None:
            try:
                record = yield status(known)
            except XSwapError:
                record = None
            if record is not None:
                yield Record("found", "ok", {"what": "route", "tx_hash": known})
                found = True
        if not found or known is None:
            yield from attention("the route transaction")
            return None
    assert known is not None
    allowance = args.get("allowance")
    result_status = yield from _follow(
        follow if args.get("wait") else None, known, args.get("expected_seconds")
    )
    return RouteExecution(
        transaction=Transaction.model_validate(args["transaction"]),
        tx_hash=known,
        allowance=AllowanceCheck.model_validate(allowance) if allowance else None,
        status=result_status,
        journey_id=journey.id,
    )
