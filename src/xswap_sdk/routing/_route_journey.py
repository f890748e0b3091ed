"""Route execution as one journey: its reads, checks and chain transactions are steps
of one flow, written once for both clients.

`RoutingClient.execute_route` checks its arguments (no I/O) and runs `route_journey`:
it starts the journey, reads the chain id web3 is on (`Chain`), the routing contract
(pinned, or the service's list with ``unsafe_trust_service_parties``), builds the route's
transaction (``POST /build-path``, ``quoted``), checks it, reads the allowance and
simulates the approval and the route transaction in order (`Chain`), checks the expiry
again and writes ``verified``. Then, for the approval (when one is needed) and the
route transaction, it signs (`Chain`), writes ``signed`` with the raw bytes and their
hash, writes ``broadcast/sending``, sends the bytes, writes ``broadcast/ok``, waits for
the receipt and writes ``confirmed`` (``approved`` after the approval); then it
follows ``/status`` (``waiting``, ``executed``). The client method hands it the async or
the blocking web3 helpers (`ChainIO`), so the async driver awaits them and the blocking
one calls them.

Re-quotes (``requote=``): when the built transaction (or the route itself) has expired
before signing, and only then, the flow writes ``requoted`` and builds the route again
(a route that expired is first quoted again with its original request: the route with
the same providers when the service offers it, else its best). The new one passes
every check the first did (`_execution.plan_route`: tokens, chains, amount, sender,
receiver, the floor of the slippage asked; no less guaranteed output than the route the
caller chose; the routing contract; the simulation), is offered to ``accept_quote``,
and only then signed.

Resume (`resume_route`) never signs or sends a transaction again. A route transaction
that may have been broadcast is looked for by its journaled hash: its receipt on the
chain (when resume is given web3), else its record on ``/status``; found, the journey
goes on (follows ``/status``); not found, it ends ``needs_attention``. One that stopped
before its route transaction could have left ends ``failed`` (nothing of the route was
sent; an approval already mined stays and is not sent again by a new `execute_route`).
A journey written before the reads became steps (its transaction in ``started``) is
resumed the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .. import _simulation as simulation
from .._chain_steps import ChainIO, attention, mined, need, on_chain, send
from .._clock import Clock
from .._flow import Begin, Call, Chain, Flow, Record
from .._requote import again, offer
from ..errors import InvalidInputError, QuoteRejectedError, XSwapError
from ..journal import Journey
from ..simulation import SimulateOption, Simulation
from . import _execution as execution
from . import _operations as operations
from ._execution import AllowanceCheck, ExecutionPlan, RouteExecution
from ._operations import RoutingPaths
from .models import Route, Transaction, TransactionStatus

__all__ = ["KIND", "RouteRun", "resume_route", "route_journey"]

KIND: Final = "route"
"""The journey kind of `RoutingClient.execute_route`."""

DONE_STATES: Final = ("completed", "failed")

_EXPIRED: Final = (execution.TX_EXPIRED, execution.ROUTE_EXPIRED)


@dataclass(frozen=True, slots=True)
class RouteRun:
    """What `RoutingClient.execute_route` checked before any I/O, for its journey.

    Attributes:
        plan: the checked route and the signer's address.
        paths: the service's paths.
        contract: the flow giving the routing contract of the route's source chain.
        clock: the client's clock, by which expiries are checked.
        approve: approve exactly the route's amount when the allowance is short.
        simulate: the simulation option (`xswap_sdk.simulation.SimulateOption`).
        follow: the ``/status`` wait for a transaction hash, or ``None`` not to wait.
        requote: how many times an expired transaction (or route) may be built again.
        accept_quote: the caller's hook over each new route (or transaction).
    """

    plan: ExecutionPlan
    paths: RoutingPaths
    contract: Callable[[], Flow[str]]
    clock: Clock
    approve: bool
    simulate: SimulateOption
    follow: Callable[[str], Flow[TransactionStatus]] | None
    requote: int = 0
    accept_quote: Callable[[Any], bool] | None = None


@dataclass(frozen=True, slots=True)
class _Checked:
    """A built transaction and all that was checked, read and simulated for it."""

    plan: ExecutionPlan
    tx: Transaction
    fields: dict[str, Any]
    approval: dict[str, Any] | None
    allowance: AllowanceCheck | None
    simulation: Simulation | None


def route_journey(run: RouteRun, io: ChainIO) -> Flow[RouteExecution]:
    """The whole ``route`` journey: reads and checks, approval, route transaction,
    ``/status`` (when waiting)."""
    plan = run.plan
    journey_id = yield Begin(
        KIND,
        {
            "chain_id": plan.chain_id,
            "sender": plan.owner,
            "route": plan.route.to_wire(),
            "request": plan.route.request,
            "approve": run.approve,
            "simulate": run.simulate,
            "requote": run.requote,
            "wait": run.follow is not None,
            "expected_seconds": _expected(plan),
        },
    )
    yield from on_chain(io, plan.chain_id)
    contract = yield from run.contract()
    checked = yield from _verified(run, io, contract)
    allowance = checked.allowance
    if checked.approval is not None and allowance is not None:
        approval_hash = yield from send(io, checked.approval, "approval")
        allowance = allowance.model_copy(update={"approval_tx_hash": approval_hash})
        yield Record("approved", "ok", {"tx_hash": approval_hash})
    tx_hash = yield from send(io, checked.fields, "route")
    status = yield from _follow(run.follow, tx_hash, _expected(checked.plan))
    return RouteExecution(
        transaction=checked.tx,
        tx_hash=tx_hash,
        allowance=allowance,
        record=status,
        simulation=checked.simulation,
        journey_id=journey_id,
    )


def _verified(run: RouteRun, io: ChainIO, contract: str) -> Flow[_Checked]:
    """Build and check the transaction; when it (or the route) expired before signing,
    build it again, up to ``run.requote`` times, each new one checked like the first
    and offered to ``run.accept_quote``."""
    plan = run.plan
    requoted = 0
    while True:
        try:
            checked = yield from _checked(run, plan, io, contract)
        except QuoteRejectedError as exc:
            # Only an expiry is built again.
            requoted = yield from again(
                exc, requoted, run.requote, expired=_EXPIRED, data={"what": exc.argument}
            )
            if execution.route_expired(plan.route, now=run.clock.time()):
                plan = yield from _quoted_again(run, plan)
            continue
        if requoted:
            if checked.plan.route is run.plan.route:
                offer(run.accept_quote, checked.tx, "transaction")
            else:
                offer(run.accept_quote, checked.plan.route, "route")
        yield Record(
            "verified",
            data={
                "contract": contract,
                "quote_id": checked.plan.route.quote_id,
                "transaction": checked.tx,
                "allowance": checked.allowance,
                "approval": checked.approval,
                "simulated": checked.simulation is not None,
                "estimated_seconds": _expected(checked.plan),
            },
        )
        return checked


def _quoted_again(run: RouteRun, plan: ExecutionPlan) -> Flow[ExecutionPlan]:
    """A new route for the route's original request, checked like the first one and
    guaranteeing no less than the route the caller chose."""
    asked = plan.route.request
    if asked is None:  # plan_route refuses such a route before any I/O
        raise InvalidInputError("route", "must come from get_quote() of this SDK")
    routes: list[Route] = yield Call(operations.get_quote(run.paths, asked))
    route = _like(routes, run.plan.route)
    new_plan = execution.plan_route(route, plan.owner)
    execution.check_not_worse(route, run.plan.route)
    return new_plan


def _like(routes: list[Route], chosen: Route) -> Route:
    """The new route with the providers of the route the caller chose, else the best."""
    if not routes:
        raise QuoteRejectedError(
            "route", "the service offers no route for the same request any more; quote again"
        )

    def providers(route: Route) -> list[str]:
        return [provider.name for provider in route.providers]

    same = [r for r in routes if providers(r) == providers(chosen)]
    return same[0] if same else routes[0]


def _checked(run: RouteRun, plan: ExecutionPlan, io: ChainIO, contract: str) -> Flow[_Checked]:
    """Everything before the first signature: build, check, read the allowance,
    decide the approval, simulate, and check the expiry again."""
    clock = run.clock
    execution.check_route_expiry(plan.route, now=clock.time())
    tx: Transaction = yield Call(operations.build_path(run.paths, plan.route, plan.owner))
    yield Record("quoted", data={"quote_id": plan.route.quote_id, "transaction": tx})
    execution.check_transaction(tx, plan, contract, now=clock.time())
    allowance = None
    approval = None
    token = plan.token
    if token is not None:
        read = need(io.allowance, "allowance")
        current = int((yield Chain(lambda: read(token, plan.owner, contract))))
        allowance = AllowanceCheck(
            chain_id=plan.chain_id,
            token=token,
            owner=plan.owner,
            spender=contract,
            amount=plan.amount,
            allowance=current,
        )
        if current < plan.amount:
            if not run.approve:
                raise InvalidInputError(
                    "approve",
                    f"the routing contract {contract} may move {current} of the "
                    f"{plan.amount} needed: pass approve=True to approve exactly "
                    "that amount first, or approve it yourself",
                )
            approval = execution.approval_fields(token, contract, plan.amount)
    # Both transactions are simulated, in order, before the first is signed.
    fields = execution.route_fields(tx)
    intents = [simulation.route_intent(fields, plan, contract)]
    if approval is not None and token is not None:
        intents.insert(0, simulation.approval_intent(approval, token, contract, plan.amount))
    simulate = need(io.simulate, "simulate")
    simulated = yield Chain(lambda: simulate(plan.owner, intents, run.simulate))
    # The reads and the simulation took time: the transaction must still be good when
    # it is signed.
    execution.check_expiry(tx, now=clock.time())
    return _Checked(plan, tx, fields, approval, allowance, simulated)


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


def _facts(journey: Journey) -> dict[str, Any]:
    """What the journey checked before signing: its ``verified`` step over its
    ``started`` one (a journey written before the reads were steps has it all in
    ``started``)."""
    facts = dict(journey.arguments)
    verified = journey.last("verified")
    if verified is not None:
        facts.update(verified.data)
        facts["expected_seconds"] = verified.data.get("estimated_seconds")
    return facts


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
    args = _facts(journey)
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
    approved = journey.last("approved")
    if allowance and approved is not None:
        allowance = {**allowance, "approval_tx_hash": approved.data.get("tx_hash")}
    result_status = yield from _follow(
        follow if args.get("wait") else None, known, args.get("expected_seconds")
    )
    return RouteExecution(
        transaction=Transaction.model_validate(args["transaction"]),
        tx_hash=known,
        allowance=AllowanceCheck.model_validate(allowance) if allowance else None,
        record=result_status,
        journey_id=journey.id,
    )
