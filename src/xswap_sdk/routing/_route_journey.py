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

Resume replays the journey (`rebuild`, see ``xswap_sdk._journey``): its recorded reads,
checks and signatures are fed back; a transaction that may have been broadcast is
looked up by its hash and its signed bytes sent again only when the chain does not have
it; and a resume that would sign something new (the route stopped before it signed)
needs ``restart=True``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from .. import _simulation as simulation
from .._cache import ChainListCache
from .._chain_steps import ChainIO, on_chain, send
from .._clock import Clock
from .._flow import Begin, Call, Chain, Flow, Now, Record, Wait
from .._models import check_argument
from .._requote import again, check_requote, offer
from .._simulation import check_simulate_option
from ..errors import InvalidInputError, QuoteRejectedError
from ..journal import Journey
from ..simulation import SimulateOption, Simulation
from ..types import Address
from . import _execution as execution
from . import _operations as operations
from ._execution import AllowanceCheck, ExecutionPlan, RouteExecution
from ._gasless import routing_contract
from ._operations import RoutingPaths
from .models import QuoteRequest, Route, SupportedChain, Transaction, TransactionStatus

if TYPE_CHECKING:
    from collections.abc import Callable

    from .._kinds import ResumeInputs

__all__ = ["KIND", "RouteRun", "RouteWait", "chain_of", "rebuild", "route_journey"]

KIND: Final = "route"
"""The journey kind of `RoutingClient.execute_route`."""

_EXPIRED: Final = (execution.TX_EXPIRED, execution.ROUTE_EXPIRED)


@dataclass(frozen=True, slots=True)
class RouteWait:
    """How `RoutingClient.execute_route` follows ``/status`` once sent."""

    timeout: float
    interval: float
    is_done: Callable[[TransactionStatus], bool] | None = None


@dataclass(frozen=True, slots=True)
class RouteRun:
    """What `RoutingClient.execute_route` checked before any I/O, for its journey.

    Attributes:
        plan: the checked route and the signer's address.
        paths: the service's paths.
        pinned: the routing contract the caller (or the registry) pins, or ``None``.
        trust_service: take the contract from the service's chain list when unpinned.
        chains: the client's chain-list cache (for ``trust_service``).
        chains_key: its key (the client's base URL).
        clock: the client's clock, by which expiries are checked.
        approve: approve exactly the route's amount when the allowance is short.
        simulate: the simulation option (`xswap_sdk.simulation.SimulateOption`).
        wait: how to follow ``/status``, or ``None`` not to wait.
        requote: how many times an expired transaction (or route) may be built again.
        accept_quote: the caller's hook over each new route (or transaction).
        asks: whether a new one is offered to ``accept_quote`` (see `xswap_sdk._flow.Ask`).
    """

    plan: ExecutionPlan
    paths: RoutingPaths
    pinned: str | None
    trust_service: bool
    chains: ChainListCache[SupportedChain] | None
    chains_key: str
    clock: Clock
    approve: bool
    simulate: SimulateOption
    wait: RouteWait | None
    requote: int = 0
    accept_quote: Callable[[Any], bool] | None = None
    asks: bool = False

    def terms(self) -> dict[str, Any]:
        """What a ``route`` journey is started with, and rebuilt from (`rebuild`)."""
        route = self.plan.route
        request = route.request
        return {
            "chain_id": self.plan.chain_id,
            "sender": self.plan.owner,
            "route": route.to_wire(),
            "request": None
            if request is None
            else request.model_dump(mode="json", by_alias=False, exclude_none=True),
            "approve": self.approve,
            "simulate": self.simulate,
            "wait": None
            if self.wait is None
            else {"timeout": self.wait.timeout, "interval": self.wait.interval},
            "requote": self.requote,
            "accept_quote": self.asks,
            "pins": {
                "routing_contract": self.pinned,
                "unsafe_trust_service_parties": self.trust_service,
            },
        }


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
    journey_id = yield Begin(KIND, run.terms())
    yield from on_chain(io, plan.chain_id)
    # One step whatever it reads (the client's cache may answer): a replay is fed the
    # contract it found.
    contract: str = yield Wait(
        routing_contract(
            run.paths,
            plan.chain_id,
            pinned=run.pinned,
            trust_service=run.trust_service,
            chains=run.chains,
            chains_key=run.chains_key,
            clock=run.clock,
        )
    )
    checked = yield from _verified(run, io, contract)
    allowance = checked.allowance
    if checked.approval is not None and allowance is not None:
        approval_hash = yield from send(io, checked.approval, "approval")
        allowance = allowance.model_copy(update={"approval_tx_hash": approval_hash})
        yield Record("approved", "ok", {"tx_hash": approval_hash})
    tx_hash = yield from send(io, checked.fields, "route")
    status = yield from _follow(run, checked.plan, tx_hash)
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
            now: float = yield Now()
            if execution.route_expired(plan.route, now=now):
                plan = yield from _quoted_again(run, plan)
            continue
        if requoted and run.asks:
            if checked.plan.route is run.plan.route:
                yield from offer(run.accept_quote, checked.tx, "transaction")
            else:
                yield from offer(run.accept_quote, checked.plan.route, "route")
        yield Record(
            "verified",
            data={
                "contract": contract,
                "quote_id": checked.plan.route.quote_id,
                "approval": checked.approval is not None,
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


def _simulation(value: Any) -> Simulation | None:
    return None if value is None else Simulation.model_validate(value)


def _checked(run: RouteRun, plan: ExecutionPlan, io: ChainIO, contract: str) -> Flow[_Checked]:
    """Everything before the first signature: build, check, read the allowance,
    decide the approval, simulate, and check the expiry again."""
    now: float = yield Now()
    execution.check_route_expiry(plan.route, now=now)
    tx: Transaction = yield Call(operations.build_path(run.paths, plan.route, plan.owner))
    yield Record("quoted", data={"quote_id": plan.route.quote_id})
    now = yield Now()
    execution.check_transaction(tx, plan, contract, now=now)
    allowance = None
    approval = None
    token = plan.token
    if token is not None:
        current = int((yield Chain(io, "allowance", (token, plan.owner, contract), "route")))
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
    simulated: Simulation | None = yield Chain(
        io, "simulate", (plan.owner, intents, run.simulate), "route", decode=_simulation
    )
    # The reads and the simulation took time: the transaction must still be good when
    # it is signed.
    now = yield Now()
    execution.check_expiry(tx, now=now)
    return _Checked(plan, tx, fields, approval, allowance, simulated)


def _expected(plan: ExecutionPlan) -> float | None:
    # The routing service's own estimate: what the stall watchdog measures the wait by.
    estimate = plan.route.estimated_time_ms
    return estimate / 1000 if isinstance(estimate, int) and estimate > 0 else None


def _follow(run: RouteRun, plan: ExecutionPlan, tx_hash: str) -> Flow[TransactionStatus | None]:
    wait = run.wait
    if wait is None:
        return None
    yield Record("waiting", "ok", {"tx_hash": tx_hash, "expected_seconds": _expected(plan)})
    status: TransactionStatus = yield Wait(
        operations.wait_for_status(
            run.paths,
            tx_hash,
            plan.chain_id,
            plan.owner,
            wait_timeout=wait.timeout,
            poll_interval=wait.interval,
            is_done=wait.is_done,
            clock=run.clock,
        ),
        decode=TransactionStatus.model_validate,
    )
    yield Record("executed", "ok", {"status": status.status})
    return status


def chain_of(terms: Any) -> int | None:
    """The chain of a ``route`` journey (its node is what a resume reads)."""
    chain = terms.get("chain_id")
    return chain if isinstance(chain, int) else None


def rebuild(client: Any, journey: Journey, inputs: ResumeInputs) -> tuple[Flow[Any], Any]:
    """A ``route`` journey's flow, built again from its terms (see ``xswap_sdk._kinds``):
    the route and what it answered read again, and checked again against the sender."""
    terms = journey.terms
    owner: str = check_argument("journey terms: sender", Address, terms.get("sender"))
    route = Route.from_wire(terms.get("route"))
    if terms.get("request") is not None:
        route._request = QuoteRequest.model_validate(terms["request"])
    plan = execution.plan_route(route, owner)
    pins = dict(terms.get("pins") or {})
    pinned = pins.get("routing_contract")
    waited = terms.get("wait")
    requote, _ = check_requote(terms.get("requote", 0), None)
    run = RouteRun(
        plan=plan,
        paths=client.paths,
        pinned=None if pinned is None else check_argument("journey terms: pins", Address, pinned),
        trust_service=bool(pins.get("unsafe_trust_service_parties")),
        chains=client._chains,
        chains_key=client.base_url,
        clock=client.clock,
        approve=bool(terms.get("approve")),
        simulate=check_simulate_option(terms.get("simulate", "auto")),
        wait=None
        if waited is None
        else RouteWait(float(waited["timeout"]), float(waited["interval"])),
        requote=requote,
        accept_quote=None,
        asks=bool(terms.get("accept_quote")),
    )
    return route_journey(run, inputs.io), client._transport
