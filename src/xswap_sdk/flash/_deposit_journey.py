"""A deposit sent by web3 as one ``deposit`` journey: `FlashClient.deposit` is a thin call
into `deposit_journey`, whose chain reads and sends are `Chain` steps.

The flow checks that web3 is on the deposit's chain, reads the backend's chain list
(which must agree with the registry), prepares the deposit (the permit or the
authorization, signed; a permit reads its nonce through web3) and simulates it, then
writes ``prepared`` (the deposit: what the transaction is, with its signed permit or
authorization). With ``wait``, it reads the Gateway balance the deposit must add to
first. Then it signs the transaction (``signed``: its raw bytes and hash, before they
leave), writes ``broadcast/sending``, broadcasts and writes ``broadcast/ok``. Without
``wait`` the call ends there. With ``wait`` it waits for the receipt (``confirmed``),
then for Gateway to count the deposit (``waiting``, expected to take the chain's
`xswap_sdk.registry.FINALITY_SECONDS`, so the watchdog reports a slow or stuck
finality), and writes ``finalized`` with the balance reached.

Resume (`resume_deposit`) never signs or sends again: a deposit that may have been
broadcast is looked for by its journaled hash on the chain (its receipt, with web3);
found, the journey is completed (``confirmed``), after the finality wait when the call
waited; not found, it needs attention. One stopped before its transaction could have
left ends ``failed`` (nothing was sent).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from .._chain_steps import ChainIO, need, on_chain, send, settled
from .._clock import Clock
from .._flow import Begin, Call, Chain, Flow, Record
from .._polling import check_wait_arguments
from ..errors import InvalidInputError
from ..journal import Journey
from ..registry import FINALITY_SECONDS, Registry
from ..simulation import SimulateOption
from . import _operations as operations
from ._balance import balance_on, wait_for_balance
from ._deposit import (
    DepositPlan,
    DepositResult,
    DepositTarget,
    deposit_target,
    simulated_deposit,
)

__all__ = [
    "KIND",
    "DepositWait",
    "check_wait",
    "deposit_journey",
    "journaled_chain",
    "prepared_deposit",
    "resume_deposit",
]

KIND: Final = "deposit"
"""The journey kind of `FlashClient.deposit` when web3 sends it."""


@dataclass(frozen=True, slots=True)
class DepositWait:
    """How a deposit waits for Gateway to count it (``wait=True``)."""

    timeout: float
    interval: float


def check_wait(
    wait: object, timeout: float, interval: float, relayer: object
) -> DepositWait | None:
    """``deposit``'s wait arguments, checked before any I/O.

    Raises:
        InvalidInputError: a bad argument, or ``wait`` with a relayer (whose transaction
            is followed with the relayer client).
    """
    if not isinstance(wait, bool):
        raise InvalidInputError("wait", "must be True or False")
    if not wait:
        return None
    if relayer is not None:
        raise InvalidInputError(
            "wait",
            "is for a deposit web3 sends: follow a relayed one with the relayer's "
            "wait_for_execution_hash, then wait_for_gateway_balance",
        )
    check_wait_arguments(timeout, interval, timeout_name="wait_timeout")
    return DepositWait(float(timeout), float(interval))


def prepared_deposit(
    plan: DepositPlan,
    prepare: Callable[[DepositTarget], Any],
    *,
    registry: Registry,
) -> Flow[Any]:
    """The deposit's transaction, prepared for the registry's wallet and USDC once the
    backend's chain list agrees with them (also what a relayed deposit sends)."""
    chains = yield Call(operations.get_supported_chains())
    target = deposit_target(chains, plan.chain_id, registry=registry)
    transaction = yield Chain(lambda: prepare(target))
    return target, transaction


def deposit_journey(
    plan: DepositPlan,
    prepare: Callable[[DepositTarget], Any],
    io: ChainIO,
    *,
    simulate: SimulateOption,
    registry: Registry,
    wait: DepositWait | None,
    clock: Clock,
) -> Flow[DepositResult]:
    """The ``deposit`` journey of ``plan`` (see the module): ``prepare`` (bound by the
    client method; async in an async client) makes the checked transaction for a
    target, its permit or authorization signed; ``io`` reads, simulates and sends."""
    journey_id = yield Begin(KIND, {"plan": _plan_data(plan), "wait": _wait_data(wait)})
    yield from on_chain(io, plan.chain_id)
    target, transaction = yield from prepared_deposit(plan, prepare, registry=registry)
    fields = transaction.to_transaction()
    intent = simulated_deposit(fields, plan, target)
    check = need(io.simulate, "simulate")
    simulated = yield Chain(lambda: check(plan.owner, [intent], simulate))
    result = DepositResult(transaction=transaction, chain_id=plan.chain_id, simulation=simulated)
    at_least = None
    if wait is not None:
        # What the balance must reach: what it is now, and the deposit.
        at_least = (yield from balance_on(plan.owner, plan.chain_id)) + plan.amount
    yield Record("prepared", data={"deposit": result, "at_least": at_least})
    tx_hash = yield from send(io, fields, "deposit", confirm=wait is not None)
    result = result.model_copy(update={"tx_hash": tx_hash, "journey_id": journey_id})
    if wait is None or at_least is None:
        return result
    balance = yield from _finality(plan.owner, plan.chain_id, at_least, wait, tx_hash, clock)
    return result.model_copy(update={"balance": balance})


def _finality(
    owner: str, chain_id: int, at_least: int, wait: DepositWait, tx_hash: str, clock: Clock
) -> Flow[int]:
    """Wait for Gateway to count the mined deposit, watched against the chain's
    finality; ``finalized`` with the balance reached."""
    yield Record(
        "waiting",
        data={
            "what": "finality",
            "tx_hash": tx_hash,
            "at_least": at_least,
            "expected_seconds": FINALITY_SECONDS.get(chain_id),
        },
    )
    entry = yield from wait_for_balance(
        owner,
        chain_id,
        at_least=at_least,
        timeout=wait.timeout,
        interval=wait.interval,
        clock=clock,
    )
    yield Record("finalized", data={"tx_hash": tx_hash, "balance": entry.balance})
    return int(entry.balance)


def _plan_data(plan: DepositPlan) -> dict[str, Any]:
    return {"owner": plan.owner, "chain_id": plan.chain_id, "amount": plan.amount}


def _wait_data(wait: DepositWait | None) -> dict[str, float] | None:
    return None if wait is None else {"timeout": wait.timeout, "interval": wait.interval}


def journaled_chain(journey: Journey) -> int | None:
    """The chain of a ``deposit`` journey, from its plan (or, written before the plan
    was kept, its deposit)."""
    for key in ("plan", "deposit"):
        entry = journey.arguments.get(key)
        if isinstance(entry, dict) and isinstance(entry.get("chain_id"), int):
            return int(entry["chain_id"])
    return None


def _journaled_result(journey: Journey) -> DepositResult | None:
    prepared = journey.last("prepared")
    # A journey written before ``prepared`` existed kept the deposit in its start data.
    saved = prepared.data.get("deposit") if prepared else journey.arguments.get("deposit")
    return None if saved is None else DepositResult.model_validate(saved)


def resume_deposit(
    journey: Journey, io: ChainIO | None, *, clock: Clock
) -> Flow[DepositResult | None]:
    """Resume a ``deposit`` journey by the rules of the module docstring."""
    if journey.state in ("completed", "failed"):
        return None
    chain_id = journaled_chain(journey)
    if io is not None and chain_id is not None:
        # A node of another chain would have no receipt: that is no answer.
        yield from on_chain(io, chain_id)
    yield Begin(KIND, {"from": journey.state}, resume=journey.id)
    result = _journaled_result(journey)
    if journey.last("broadcast") is None or result is None:
        yield Record(
            "failed",
            "not_sent",
            {"reason": "the deposit transaction was never sent; nothing is at stake"},
            state="failed",
        )
        return None
    known = yield from settled(journey, io, "deposit")
    if known is None:
        return None
    result = result.model_copy(update={"tx_hash": known, "journey_id": journey.id})
    return (yield from _resumed_wait(journey, result, known, clock))


def _resumed_wait(
    journey: Journey, result: DepositResult, tx_hash: str, clock: Clock
) -> Flow[DepositResult]:
    """A mined deposit whose call waited for finality waits again, unless the journal
    already says Gateway counted it (a webhook, or the run before)."""
    finalized = journey.last("finalized")
    if finalized is not None:
        return result.model_copy(update={"balance": finalized.data.get("balance")})
    wait, plan = journey.arguments.get("wait"), journey.arguments.get("plan") or {}
    prepared = journey.last("prepared")
    at_least = prepared.data.get("at_least") if prepared else None
    owner = plan.get("owner")
    if not isinstance(wait, dict) or not isinstance(at_least, int) or not isinstance(owner, str):
        return result
    try:
        waiting = DepositWait(float(wait["timeout"]), float(wait["interval"]))
    except (KeyError, TypeError, ValueError):
        raise InvalidInputError("journey", "its journaled wait is not readable") from None
    balance = yield from _finality(owner, result.chain_id, at_least, waiting, tx_hash, clock)
    return result.model_copy(update={"balance": balance})
