"""A deposit as one flow: `FlashClient.deposit` is a thin call into `deposit_journey`
(web3 sends it: a ``deposit`` journey) or `prepared_deposit` (the relayer sends it).

The flow checks that web3 is on the deposit's chain, reads the backend's chain list
(which must agree with the registry), prepares the deposit: for a permit, it reads the
token's permit facts through web3 and signs the permit; for an authorization, it takes a
random nonce and signs it (the time, the nonce and the signature are steps: a resume
replays them). It simulates the deposit and writes ``prepared``. With ``wait``, it reads
the Gateway balance the deposit must add to first. Then it sends the transaction
(`xswap_sdk._chain_steps.send`: ``signed``, ``broadcast``). Without ``wait`` the call
ends there. With ``wait`` it waits for the receipt (``confirmed``), then for Gateway to
count the deposit (``waiting``, expected to take the chain's
`xswap_sdk.registry.FINALITY_SECONDS`), and writes ``finalized`` with the balance
reached.

Resume replays it (see ``xswap_sdk._journey``): a deposit whose transaction may have
been broadcast is looked up by its hash, and its signed bytes are sent again only when
the chain does not have it (its nonce lets it be mined once).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from .._chain_steps import ChainIO, UnavailableEvmSigner, on_chain, send
from .._clock import Clock
from .._flow import Begin, Call, Chain, Flow, Now, Random, Record, Wait
from .._models import check_argument
from .._polling import check_wait_arguments
from .._simulation import check_simulate_option
from .._web3_support import PermitFacts
from ..errors import InvalidInputError
from ..journal import Journey
from ..registry import FINALITY_SECONDS, Registry
from ..signing.deposit import _permit_deposit_steps, deposit_arguments
from ..signing.permit import DEFAULT_PERMIT_LIFETIME
from ..signing.signer import Signer
from ..simulation import SimulateOption, Simulation
from ..types import Address, ChainId, TokenAmount
from . import _operations as operations
from ._balance import balance_on, wait_for_balance
from ._deposit import (
    DepositPlan,
    DepositResult,
    DepositTarget,
    authorization_deposit,
    check_prepared,
    deposit_target,
    simulated_deposit,
)
from .models import GatewayBalanceEntry

if TYPE_CHECKING:
    from .._kinds import ResumeInputs

__all__ = [
    "KIND",
    "DepositHow",
    "DepositWait",
    "chain_of",
    "check_wait",
    "deposit_journey",
    "prepared_deposit",
    "rebuild",
]

KIND: Final = "deposit"
"""The journey kind of `FlashClient.deposit` when web3 sends it."""


@dataclass(frozen=True, slots=True)
class DepositWait:
    """How a deposit waits for Gateway to count it (``wait=True``)."""

    timeout: float
    interval: float


@dataclass(frozen=True, slots=True)
class DepositHow:
    """How a deposit is prepared: by ``permit`` or ``authorization``, with the token's
    EIP-712 name and version when the caller gave them, and whether the token may be
    asked for them (``read_domain``: web3 was given). A flow branches on what its
    terms say, never on what a resume happens to be given."""

    method: Literal["permit", "authorization"]
    token_name: str | None = None
    token_version: str | None = None
    read_domain: bool = False


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


def _facts(value: Any) -> PermitFacts:
    """Permit facts from their recorded form."""
    name, version, separator, nonce, chain_id = (
        value["name"], value["version"], value["domain_separator"], value["nonce"],
        value["chain_id"],
    )  # fmt: skip
    return PermitFacts(
        name, version, None if separator is None else bytes.fromhex(separator.removeprefix("0x")),
        int(nonce), int(chain_id),
    )  # fmt: skip


def prepared_deposit(
    plan: DepositPlan,
    how: DepositHow,
    signer: Signer,
    io: ChainIO,
    *,
    registry: Registry,
) -> Flow[tuple[DepositTarget, Any]]:
    """The deposit's transaction, its permit or authorization signed, for the
    registry's wallet and USDC once the backend's chain list agrees with them (also what
    a relayed deposit sends)."""
    chains = yield Call(operations.get_supported_chains())
    target = deposit_target(chains, plan.chain_id, registry=registry)
    # The permit's deadline, or the authorization's window: the chain checks them.
    now: float = yield Now(chain=True)
    if how.method == "permit":
        facts: PermitFacts = yield Chain(
            io, "permit_facts", (target.usdc, plan.owner), "deposit", decode=_facts
        )
        _, args = deposit_arguments(
            signer,
            target.gateway_wallet,
            target.usdc,
            plan.amount,
            int(now) + DEFAULT_PERMIT_LIFETIME,
            target.usdc_version,
        )
        transaction = yield from _permit_deposit_steps(signer, args, facts)
        return target, check_prepared(transaction, plan, target)
    name, version = how.token_name, how.token_version
    pinned = registry.chain(plan.chain_id)
    if name is None and pinned.usdc_eip712_name is None and how.read_domain:
        name, read_version = yield Chain(io, "token_domain", (target.usdc,), "deposit")
        version = version or read_version or target.usdc_version
    nonce: str = yield Random(32)
    call = yield from authorization_deposit(
        signer,
        plan,
        target,
        nonce=nonce,
        now=now,
        token_name=name,
        token_version=version,
        registry=registry,
    )
    return target, call


def _simulation(value: Any) -> Simulation | None:
    return None if value is None else Simulation.model_validate(value)


def deposit_journey(
    plan: DepositPlan,
    how: DepositHow,
    signer: Signer,
    io: ChainIO,
    *,
    simulate: SimulateOption,
    registry: Registry,
    wait: DepositWait | None,
    clock: Clock,
) -> Flow[DepositResult]:
    """The ``deposit`` journey of ``plan`` (see the module)."""
    journey_id = yield Begin(KIND, _terms(plan, how, simulate, wait))
    yield from on_chain(io, plan.chain_id)
    target, transaction = yield from prepared_deposit(plan, how, signer, io, registry=registry)
    fields = transaction.to_transaction()
    intent = simulated_deposit(fields, plan, target)
    simulated: Simulation | None = yield Chain(
        io, "simulate", (plan.owner, [intent], simulate), "deposit", decode=_simulation
    )
    result = DepositResult(transaction=transaction, chain_id=plan.chain_id, simulation=simulated)
    at_least = None
    if wait is not None:
        # What the balance must reach: what it is now, and the deposit.
        at_least = (yield from balance_on(plan.owner, plan.chain_id)) + plan.amount
    yield Record("prepared", data={"method": how.method, "at_least": at_least})
    tx_hash = yield from send(io, fields, "deposit", confirm=wait is not None)
    result = result.model_copy(update={"tx_hash": tx_hash, "journey_id": journey_id})
    if wait is None or at_least is None:
        return result
    yield Record(
        "waiting",
        data={
            "what": "finality",
            "tx_hash": tx_hash,
            "at_least": at_least,
            "expected_seconds": FINALITY_SECONDS.get(plan.chain_id),
        },
    )
    entry = yield Wait(
        wait_for_balance(
            plan.owner,
            plan.chain_id,
            at_least=at_least,
            timeout=wait.timeout,
            interval=wait.interval,
            clock=clock,
        ),
        decode=_entry,
    )
    balance = int(entry.balance)
    yield Record("finalized", data={"tx_hash": tx_hash, "balance": balance})
    return result.model_copy(update={"balance": balance})


def _entry(value: Any) -> Any:

    return GatewayBalanceEntry.model_validate(value)


def _terms(
    plan: DepositPlan, how: DepositHow, simulate: SimulateOption, wait: DepositWait | None
) -> dict[str, Any]:
    return {
        "owner": plan.owner,
        "chain_id": plan.chain_id,
        "amount": plan.amount,
        "method": how.method,
        "token_name": how.token_name,
        "token_version": how.token_version,
        "read_domain": how.read_domain,
        "simulate": simulate,
        "wait": None if wait is None else {"timeout": wait.timeout, "interval": wait.interval},
    }


def chain_of(terms: Any) -> int | None:
    """The chain of a ``deposit`` journey (its node is what a resume reads)."""
    chain = terms.get("chain_id")
    return chain if isinstance(chain, int) else None


def rebuild(client: Any, journey: Journey, inputs: ResumeInputs) -> tuple[Flow[Any], Any]:
    """A ``deposit`` journey's flow, built again from its terms (see ``xswap_sdk._kinds``),
    every term checked again."""
    terms = journey.terms
    owner: str = check_argument("journey terms: owner", Address, terms.get("owner"))
    plan = DepositPlan(
        owner=owner,
        chain_id=check_argument("journey terms: chain_id", ChainId, terms.get("chain_id")),
        amount=check_argument("journey terms: amount", TokenAmount, terms.get("amount")),
    )
    method = terms.get("method")
    if method not in ("permit", "authorization"):
        raise InvalidInputError("journey_id", f"its terms name no deposit method ({method!r})")
    how = DepositHow(
        method,
        terms.get("token_name"),
        terms.get("token_version"),
        bool(terms.get("read_domain")),
    )
    waited = terms.get("wait")
    wait = (
        None
        if waited is None
        else check_wait(True, waited.get("timeout"), waited.get("interval"), None)
    )
    signer = inputs.evm_signer
    if signer is None:
        signer = UnavailableEvmSigner(owner)
    flow = deposit_journey(
        plan,
        how,
        signer,
        inputs.io,
        simulate=check_simulate_option(terms.get("simulate", "auto")),
        registry=client._registry,
        wait=wait,
        clock=client.clock,
    )
    return flow, client._transport
