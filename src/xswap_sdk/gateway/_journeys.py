"""A Gateway transfer as one journey, from the estimate to the mint, and its resume.

`send_transfer` (``GatewayClient.send_transfer``) is one flow of kind ``transfer``:
``quoted`` (Gateway's estimate), ``verified`` (the estimate applied to the caller's own
intents with `apply_estimate`, which never widens their fee or expiry, and each fee at
most ``max_fee_cap``), ``signed`` (the exact ``POST /v1/transfer`` request, before it
leaves), ``submitted``, ``attested``; then, with web3, the mint (`mint_steps`):
``verified`` (the mint call checked against the signed intents and simulated),
``signed`` (the raw transaction), ``broadcast``, ``confirmed``, ``minted``. A fee-floor
refusal (HTTP 400 ``InsufficientMaxFeeError``: nothing was transferred) is
``requoted`` and estimated again, up to ``requote`` times; the new estimate is checked
again and offered to ``accept_quote`` before it is signed. Any other failure of the
request keeps the transport's rules: a request that may have arrived is never sent or
signed again.

`mint_journey` (``GatewayClient.mint``) sends the mint of a `TransferResult`: appended
to the transfer's own journey when it has one in the client's journal, else a journey
of kind ``mint``.

`resume_transfer` finishes a ``transfer`` or ``mint`` journey: see its docstring and
``docs/journeys.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from .._async_web3 import call_transaction, check_connected
from .._chain_steps import ChainIO, broadcast, mined, send
from .._flow import Begin, Call, Chain, Flow, Record
from .._journey import request_data
from .._models import check_argument
from .._operation import parser
from .._requote import check_requote
from .._resume import position, resend
from .._simulation import check_simulate_option
from ..errors import (
    BadRequestError,
    InsufficientMaxFeeError,
    InvalidInputError,
    QuoteRejectedError,
    UnsafePayloadError,
    XSwapError,
)
from ..journal import Journal, Journey
from ..registry import Registry
from ..signing._fields import pad_address
from ..signing.burn_intents import BurnIntent, as_intent, as_intents, check_signable
from ..signing.signed_intents import (
    _check_source_signer,
    sign_burn_intent,
    sign_burn_intent_set,
)
from ..signing.signer import Signer, signer_address
from ..simulation import SimulateOption
from ..types import TokenAmount
from . import _operations as operations
from .models import EstimatedTransfer, MintResult, TransferDetails, TransferResult

__all__ = [
    "MINT_KIND",
    "TRANSFER_KIND",
    "MintPlan",
    "Resumed",
    "TransferPlan",
    "continued",
    "destination_of",
    "mint_journey",
    "plan_mint",
    "plan_transfer",
    "resume_transfer",
    "send_transfer",
]

TRANSFER_KIND: Final = "transfer"
"""The journey kind of ``GatewayClient.transfer`` and ``send_transfer``."""

MINT_KIND: Final = "mint"
"""The journey kind of ``GatewayClient.mint`` of a transfer with no journey of its own."""

MINT: Final = "mint"
"""The key of the mint plan in a journey's ``started`` (or ``resumed``) data, and the
``what`` of the mint's chain steps."""

# A transfer Gateway says is minted (by this journey or anyone: an attestation mints once).
_MINTED_STATES: Final = ("confirmed", "finalized")


@dataclass(frozen=True, slots=True)
class MintPlan:
    """Where and how a transfer is minted.

    Attributes:
        chain_id: the destination chain.
        simulate: ``simulate=`` of the mint.
    """

    chain_id: int
    simulate: SimulateOption

    def data(self) -> dict[str, Any]:
        """What the journal keeps of it (resume mints by it)."""
        return {"chain_id": self.chain_id, "simulate": self.simulate}


@dataclass(frozen=True, slots=True)
class TransferPlan:
    """The checked arguments of `send_transfer`.

    Attributes:
        signer: signs the intents (and sends the mint).
        sender: the signer's address.
        intents: the caller's intents, as built.
        as_set: sign them as one set (a list was given) rather than one intent.
        max_fee_cap: the most ``maxFee`` accepted per intent, smallest USDC units.
        requote: how many new estimates a fee-floor refusal may ask for.
        accept_quote: the caller's hook over each new estimate.
        max_attestation_size: ``maxAttestationSize`` of the estimate and transfer.
        enable_forwarder: ``enableForwarder`` of the transfer.
        mint: where to mint, with web3; ``None`` to stop at the attestation.
        registry: the pinned chains.
    """

    signer: Signer
    sender: str
    intents: tuple[BurnIntent, ...]
    as_set: bool
    max_fee_cap: int
    requote: int
    accept_quote: Callable[[list[EstimatedTransfer]], bool] | None
    max_attestation_size: int | None
    enable_forwarder: bool | None
    mint: MintPlan | None
    registry: Registry

    def data(self) -> dict[str, Any]:
        """What a ``transfer`` journey is started with: the checked arguments, no signer."""
        return {
            "sender": self.sender,
            "intents": [intent.to_wire() for intent in self.intents],
            "as_set": self.as_set,
            "max_fee_cap": self.max_fee_cap,
            "requote": self.requote,
            "accept_quote": self.accept_quote is not None,
            "max_attestation_size": self.max_attestation_size,
            "enable_forwarder": self.enable_forwarder,
            MINT: None if self.mint is None else self.mint.data(),
        }


def _destination(intents: Sequence[BurnIntent], registry: Registry, testnet: bool) -> int:
    domains = {intent.spec.destination_domain for intent in intents}
    if len(domains) != 1:
        raise InvalidInputError("intents", "must all mint on one destination domain")
    [domain] = domains
    chain = registry.by_domain(domain, testnet=testnet)
    if chain is None:
        raise InvalidInputError(
            "intents", f"mint on Gateway domain {domain}, which is no chain of the registry"
        )
    return chain.chain_id


def plan_mint(chain_id: int, simulate: object) -> MintPlan:
    """A checked `MintPlan`."""
    return MintPlan(chain_id, check_simulate_option(simulate))


def plan_transfer(
    signer: Signer,
    intents: BurnIntent | Mapping[str, Any] | Sequence[BurnIntent | Mapping[str, Any]],
    *,
    max_fee_cap: int | str,
    requote: int,
    accept_quote: Callable[[list[EstimatedTransfer]], bool] | None,
    mint: bool,
    simulate: object,
    max_attestation_size: int | None,
    enable_forwarder: bool | None,
    registry: Registry,
    testnet: bool,
) -> TransferPlan:
    """Check every argument of `send_transfer`, before any I/O.

    Raises:
        InvalidInputError: naming the first bad argument.
    """
    sender = signer_address(signer)
    single = isinstance(intents, BurnIntent | Mapping)
    checked = [as_intent(intents, "intents")] if single else as_intents(intents, "intents")
    for index, intent in enumerate(checked):
        argument = "intents" if single else f"intents[{index}]"
        check_signable(intent, argument)
        _check_source_signer(intent, pad_address(sender), argument)
    cap: int = check_argument("max_fee_cap", TokenAmount, max_fee_cap)
    check_requote(requote, accept_quote)
    size = operations.check_size(max_attestation_size)
    forwarder = operations.check_flag("enable_forwarder", enable_forwarder)
    destination = _destination(checked, registry, testnet)
    plan = plan_mint(destination, simulate) if mint else None
    if plan is not None and forwarder:
        raise InvalidInputError(
            "enable_forwarder",
            "cannot be combined with web3: Gateway's forwarder would mint what web3 mints",
        )
    return TransferPlan(
        signer=signer,
        sender=sender,
        intents=tuple(checked),
        as_set=not single,
        max_fee_cap=cap,
        requote=requote,
        accept_quote=accept_quote,
        max_attestation_size=size,
        enable_forwarder=forwarder,
        mint=plan,
        registry=registry,
    )


# ------------------------------------------------------------------------------ send


def send_transfer(
    plan: TransferPlan, io: ChainIO | None, *, journey: str | None = None
) -> Flow[TransferResult]:
    """The one-call transfer: estimate, checks, signature, ``POST /v1/transfer`` (again
    after a fee-floor refusal, up to ``plan.requote`` times) and, with ``plan.mint``,
    the mint sent with ``io``. ``journey`` continues that one (a resume of a transfer
    stopped before it signed)."""
    if plan.mint is not None:
        # Before anything is signed: a mint on another chain would burn unminted.
        assert io is not None
        assert io.chain_id is not None
        check_connected(int((yield Chain(io.chain_id))), plan.mint.chain_id)
    journey_id: str | None = yield Begin(TRANSFER_KIND, plan.data(), resume=journey)
    requoted = 0
    while True:
        estimated: list[EstimatedTransfer] = yield from operations.typed_refusals(
            operations.estimate(list(plan.intents), max_attestation_size=plan.max_attestation_size)
        )
        yield Record("quoted", data={"estimate": estimated})
        intents = _applied(plan, estimated)
        if requoted and plan.accept_quote is not None and not plan.accept_quote(estimated):
            raise QuoteRejectedError("accept_quote", "declined the new estimate", quote=estimated)
        yield Record(
            "verified",
            data={
                "max_fee": [intent.max_fee for intent in intents],
                "max_block_height": [intent.max_block_height for intent in intents],
                "max_fee_cap": plan.max_fee_cap,
            },
        )
        # The signatures are held only by the operation, which seals them: this frame
        # is in the traceback if the request fails.
        operation = operations.transfer(
            _signed(plan, intents),
            max_attestation_size=plan.max_attestation_size,
            enable_forwarder=plan.enable_forwarder,
        )
        yield Record("signed", data=request_data(operation))
        try:
            result: TransferResult = yield from operations.typed_refusals(operation)
        except InsufficientMaxFeeError as exc:
            # A 400: Gateway took nothing, so signing a new fee is safe.
            if requoted >= plan.requote:
                raise
            requoted += 1
            yield Record(
                "requoted",
                data={
                    "reason": "Gateway's fee floor is above the signed maxFee",
                    "minimum_units": exc.minimum_units,
                    "attempt": requoted,
                },
            )
            continue
        break
    yield Record("attested", data=operations.attested_data(result))
    result._journey_id = journey_id
    if plan.mint is None:
        return result
    assert io is not None
    result._mint = yield from mint_steps(
        result, plan.mint, plan.sender, io, plan.registry, journey_id
    )
    return result


def _applied(plan: TransferPlan, estimated: list[EstimatedTransfer]) -> list[BurnIntent]:
    """The caller's own intents with the estimate's fee and height, each checked."""
    if len(estimated) != len(plan.intents):
        raise UnsafePayloadError(
            "estimate", expected=f"{len(plan.intents)} estimated intents", received=len(estimated)
        )
    return [
        operations.apply_estimate(intent, answer, max_fee_cap=plan.max_fee_cap)
        for intent, answer in zip(plan.intents, estimated, strict=True)
    ]


def _signed(plan: TransferPlan, intents: list[BurnIntent]) -> Any:
    if plan.as_set:
        return sign_burn_intent_set(intents, plan.signer)
    return sign_burn_intent(intents[0], plan.signer)


# ------------------------------------------------------------------------------ mint


def mint_steps(
    result: TransferResult,
    plan: MintPlan,
    sender: str,
    io: ChainIO,
    registry: Registry,
    journey_id: str | None,
    *,
    reopen: bool = False,
) -> Flow[MintResult]:
    """Check the mint call against the signed intents, simulate it, send it (the signed
    bytes written before they leave) and write ``minted``. ``reopen`` sets the
    journey ``running`` again (a completed transfer journey the mint is appended to)."""
    call = result.mint_call(plan.chain_id, registry=registry)
    fields, intent = call_transaction(call, sender)
    assert io.simulate is not None
    simulation = yield Chain(lambda: io.simulate(sender, [intent], plan.simulate))  # type: ignore[misc]
    yield Record(
        "verified",
        data={
            "what": MINT,
            "chain_id": plan.chain_id,
            "transfer_id": result.transfer_id,
            "simulation": simulation,
        },
        state="running" if reopen else None,
    )
    tx_hash = yield from send(io, fields, MINT)
    return (yield from _minted(result.transfer_id, plan.chain_id, tx_hash, journey_id, simulation))


def _minted(
    transfer_id: str, chain_id: int, tx_hash: str, journey_id: str | None, simulation: Any = None
) -> Flow[MintResult]:
    yield Record(
        "minted", data={"tx_hash": tx_hash, "chain_id": chain_id, "transfer_id": transfer_id}
    )
    return MintResult(
        transfer_id=transfer_id,
        chain_id=chain_id,
        tx_hash=tx_hash,
        simulation=simulation,
        journey_id=journey_id,
    )


def mint_journey(
    result: TransferResult,
    plan: MintPlan,
    sender: str,
    io: ChainIO,
    registry: Registry,
    continues: str | None,
) -> Flow[MintResult]:
    """``GatewayClient.mint``: the mint of ``result``, appended to its ``transfer``
    journey ``continues`` (in the client's journal), else a ``mint`` journey."""
    assert io.chain_id is not None
    check_connected(int((yield Chain(io.chain_id))), plan.chain_id)
    # Checked before the journey starts: a refused attestation leaves nothing to resume.
    result.mint_call(plan.chain_id, registry=registry)
    if continues is not None:
        journey_id = yield Begin(
            TRANSFER_KIND, {"from": "completed", MINT: plan.data()}, resume=continues
        )
    else:
        journey_id = yield Begin(
            MINT_KIND,
            {
                "transfer": result.model_dump(mode="json", by_alias=True),
                "intents": [intent.to_wire() for intent in result.intents],
                MINT: plan.data(),
            },
        )
    minted = yield from mint_steps(
        result, plan, sender, io, registry, journey_id, reopen=continues is not None
    )
    if continues is not None:
        # The transfer journey was completed before: say it is again, now minted.
        yield Record("completed", data={}, state="completed")
    return minted


# ------------------------------------------------------------------------------ resume


@dataclass(frozen=True, slots=True)
class Resumed:
    """What resume needs besides the journey."""

    io: ChainIO | None
    signer: Signer | None
    registry: Registry
    testnet: bool

    @property
    def sender(self) -> str | None:
        """The signer's address, or ``None`` without a signer."""
        return None if self.signer is None else signer_address(self.signer)


def _mint_plan(journey: Journey) -> MintPlan | None:
    """The last mint plan the journey was asked for (by ``send_transfer`` or ``mint``)."""
    found: MintPlan | None = None
    for step in journey.steps:
        if step.step in ("started", "resumed") and isinstance(step.data.get(MINT), Mapping):
            data = step.data[MINT]
            found = MintPlan(int(data["chain_id"]), data.get("simulate", "auto"))
    return found


def _chain_steps_of(journey: Journey, step: str) -> list[Mapping[str, Any]]:
    return [s.data for s in journey.steps if s.step == step and s.data.get("what") == MINT]


def _intents(journey: Journey) -> list[Any]:
    if journey.kind == MINT_KIND:
        return list(journey.arguments.get("intents") or [])
    signed = [s for s in journey.steps if s.step == "signed" and "body" in s.data]
    body = signed[-1].data["body"] if signed else journey.arguments.get("body") or []
    return operations.journaled_intents(body)


def _attested(journey: Journey) -> TransferResult | None:
    if journey.kind == MINT_KIND:
        data = journey.arguments.get("transfer")
    else:
        step = journey.last("attested")
        data = None if step is None else step.data.get("result")
    if data is None:
        return None
    result = TransferResult.model_validate(data)
    intents = _intents(journey)
    return result.with_intents(intents) if intents else result


def resume_transfer(journey: Journey, context: Resumed) -> Flow[Any]:
    """Resume a ``transfer`` or ``mint`` journey.

    - The transfer not attested yet: the rules of ``xswap_sdk._resume`` over its last
      signed request (resent only when it provably never left; needs attention when it
      may have arrived; failed when Gateway refused it). A `send_transfer` journey
      stopped before anything was signed is run again from its start when
      `_restart_plan` allows (else it fails: nothing is at stake).
    - Attested, no mint asked (no mint plan, no web3): the `TransferResult` to mint from.
    - Attested and a mint asked, or web3 given: the mint, by the mint's own rules (see
      `_resume_mint`), also for a journey that ended (``completed`` before it was
      minted, or ``failed`` because its mint was refused or could not be sent).

    Returns the `TransferResult` (a ``transfer`` journey; its ``mint`` set when minted)
    or the `MintResult` (a ``mint`` journey), or ``None`` when it ended without one.
    """
    plan = _mint_plan(journey)
    minted = journey.last("minted") is not None
    mint_wanted = plan is not None or context.io is not None
    unminted = journey.last("attested") is not None or journey.kind == MINT_KIND
    if journey.state in ("completed", "failed") and (minted or not mint_wanted or not unminted):
        # A failed one with an attestation is resumed: its mint failed (a simulation
        # refused it, say), and the attestation stays mintable until it expires.
        return None
    if journey.kind == TRANSFER_KIND and journey.last("attested") is None:
        again = _restart_plan(journey, context)
        if again is not None:
            return (yield from send_transfer(again, context.io, journey=journey.id))
        yield Begin(journey.kind, {"from": journey.state}, resume=journey.id)
        answer = yield from _resume_request(journey)
        if answer is None:
            return None
        result = _parse(journey)(answer)
        yield Record("attested", data=operations.attested_data(result))
    else:
        found = _attested(journey)
        if found is None:
            raise InvalidInputError("journey_id", f"journey {journey.id} holds no attestation")
        result = found
        yield Begin(journey.kind, {"from": journey.state}, resume=journey.id)
    result._journey_id = journey.id
    if not mint_wanted:
        return result
    done = journey.last("minted")
    if done is not None:
        # Stopped right after it was written: the journey only has to say it is over.
        mint: MintResult | None = MintResult(
            transfer_id=result.transfer_id,
            chain_id=int(done.data["chain_id"]),
            tx_hash=str(done.data["tx_hash"]),
            journey_id=journey.id,
        )
    else:
        mint = yield from _resume_mint(journey, result, plan, context)
    if mint is None:
        return None
    if journey.kind == MINT_KIND:
        return mint
    result._mint = mint
    return result


def _restart_plan(journey: Journey, context: Resumed) -> TransferPlan | None:
    """The plan to run a `send_transfer` journey again from its start, when it stopped
    before anything was signed and that is safe: a signer (the journaled intents'
    ``sourceSigner``), web3 when it was asked to mint, and no ``accept_quote`` hook
    (a function cannot be journaled, so it could not be asked); else ``None``.

    Raises:
        InvalidInputError: the signer is not the intents' ``sourceSigner``.
    """
    args = journey.arguments
    signed = any(s.step == "signed" for s in journey.steps)
    if signed or "intents" not in args or context.signer is None or args.get("accept_quote"):
        return None
    mint = args.get(MINT)
    if isinstance(mint, Mapping) and context.io is None:
        return None
    return plan_transfer(
        context.signer,
        args["intents"] if args.get("as_set") else args["intents"][0],
        max_fee_cap=args["max_fee_cap"],
        requote=args.get("requote", 0),
        accept_quote=None,
        mint=isinstance(mint, Mapping),
        simulate=mint.get("simulate", "auto") if isinstance(mint, Mapping) else "auto",
        max_attestation_size=args.get("max_attestation_size"),
        enable_forwarder=args.get("enable_forwarder"),
        registry=context.registry,
        testnet=context.testnet,
    )


def _parse(journey: Journey) -> Callable[[Any], TransferResult]:
    read = parser(TransferResult)
    intents = _intents(journey)

    def parse(data: Any) -> TransferResult:
        result: TransferResult = read(data)
        return result.with_intents(intents) if intents else result

    return parse


def _resume_request(journey: Journey) -> Flow[Any]:
    """The answer to the journey's ``POST /v1/transfer``: journaled, or got by resending
    the journaled bytes when they provably never left; ``None`` (and the journey ended)
    otherwise."""
    signed = [i for i, s in enumerate(journey.steps) if s.step == "signed" and "body" in s.data]
    # Only the last signed request counts: an earlier one was refused (a fee-floor 400).
    if signed:
        journey = replace(journey, steps=(journey.steps[0], *journey.steps[signed[-1] :]))
    where = position(journey)
    if where.request is None or _refused(journey):
        yield Record(
            "failed",
            "not_sent",
            {
                "reason": "stopped before its burn intents were signed, or Gateway refused "
                "them: nothing was transferred and nothing is at stake",
                "next": "call send_transfer again",
            },
            state="failed",
        )
        return None
    if where.answer is not None:
        return where.answer
    if (where.sending is None or where.never_arrived) and not where.paid:
        try:
            return (yield Call(resend(where.request, _parse(journey), auth="none")))
        except BadRequestError as exc:
            # Gateway took nothing (its fee floor moved, the intents expired...): over.
            yield Record(
                "failed",
                "sent",
                {
                    "error": type(exc).__name__,
                    "reason": "Gateway refused the journaled intents (HTTP 400): nothing "
                    "was transferred",
                    "next": "call send_transfer again (requote= rides out a fee floor that moved)",
                },
                state="failed",
            )
            return None
    yield Record(
        "needs_attention",
        "outcome_unknown",
        {
            "reason": "the transfer may have reached Gateway, which has no lookup but by "
            "transfer id; nothing was sent again",
            "next": "check the gateway balance: if the burn intents were not used, they "
            "expire at their maxBlockHeight; do not sign them again before then",
        },
        state="needs_attention",
    )
    return None


def _refused(journey: Journey) -> bool:
    """Gateway answered the last request with a 400: it took nothing."""
    last = journey.last("submitted")
    return (
        last is not None
        and last.status == "sent"
        and last.data.get("error") in ("BadRequestError", "InsufficientMaxFeeError")
    )


def _resume_mint(
    journey: Journey, result: TransferResult, plan: MintPlan | None, context: Resumed
) -> Flow[MintResult | None]:
    """The mint of a resumed journey's attestation.

    - A mint transaction that may have been broadcast is never sent again: its journaled
      hash is looked up on the chain (a receipt, with web3), then at Gateway
      (``GET /v1/transfer/{id}``: minted, with its transaction hash); found, ``minted``;
      not found, the journey needs attention.
    - One signed and never broadcast: its journaled bytes are broadcast (no new
      signature).
    - None signed: Gateway is asked first (someone may have minted it); then, with web3,
      it is minted (signed by ``signer=`` or ``XSWAP_PRIVATE_KEY``); without web3, the
      journey needs attention and says how to finish.
    """
    chain_id = (
        plan.chain_id
        if plan is not None
        else destination_of(result, context.registry, context.testnet)
    )
    io = context.io
    if io is not None:
        assert io.chain_id is not None
        check_connected(int((yield Chain(io.chain_id))), chain_id)
    reopen = journey.state in ("completed", "failed")
    sent = _chain_steps_of(journey, "broadcast")
    signed = _chain_steps_of(journey, "signed")
    if sent:
        hashes = [d.get("tx_hash") for d in sent] + [d.get("tx_hash") for d in signed]
        known = next((h for h in reversed(hashes) if isinstance(h, str)), None)
        confirmed = _chain_steps_of(journey, "confirmed")
        found = bool(confirmed) or (
            yield from mined(known, None if io is None else io.receipt, MINT)
        )
        if found and known is not None:
            return (yield from _minted(result.transfer_id, chain_id, known, journey.id))
        at_gateway = yield from _minted_at_gateway(result.transfer_id)
        if at_gateway is not None:
            yield Record("found", data={"what": MINT, "tx_hash": at_gateway})
            return (yield from _minted(result.transfer_id, chain_id, at_gateway, journey.id))
        yield Record(
            "needs_attention",
            "outcome_unknown",
            {
                "reason": "the mint transaction may have been broadcast and neither the chain "
                "(no receipt) nor Gateway knows it yet; nothing was signed or sent again",
                "next": "look the journaled tx_hash up on the chain's explorer, then resume "
                "again (with web3, or xswap resume --rpc-url)",
            },
            state="needs_attention",
        )
        return None
    if io is None:
        yield Record(
            "needs_attention",
            "not_sent",
            {
                "reason": f"the transfer is attested and not minted on chain {chain_id}",
                "next": f"resume with web3= on chain {chain_id} (xswap resume --rpc-url URL "
                f"{journey.id}), or mint it: result.mint_call({chain_id})",
            },
            state="needs_attention",
        )
        return None
    at_gateway = yield from _minted_at_gateway(result.transfer_id)
    if at_gateway is not None:
        yield Record("found", data={"what": MINT, "tx_hash": at_gateway})
        minted = yield from _minted(result.transfer_id, chain_id, at_gateway, journey.id)
    elif signed:
        minted = yield from _rebroadcast(result, chain_id, signed[-1], io, journey.id)
    else:
        if context.sender is None:
            raise InvalidInputError(
                "signer",
                "the mint still needs a signature: pass signer= or set XSWAP_PRIVATE_KEY",
            )
        simulate = "auto" if plan is None else plan.simulate
        minted = yield from mint_steps(
            result,
            MintPlan(chain_id, simulate),
            context.sender,
            io,
            context.registry,
            journey.id,
            reopen=reopen,
        )
    if reopen:
        yield Record("completed", data={}, state="completed")
    return minted


def destination_of(result: TransferResult, registry: Registry, testnet: bool) -> int:
    """The chain a transfer mints on: its intents' destination.

    Raises:
        InvalidInputError: the result knows no intents (see `TransferResult.with_intents`).
    """
    if not result.intents:
        raise InvalidInputError(
            "transfer",
            "knows no burn intents: pass chain_id=, or rebuild it with with_intents()",
        )
    return _destination(result.intents, registry, testnet)


def continued(journal: Journal | None, journey_id: str | None) -> str | None:
    """``journey_id`` when it is a ``transfer`` journey of ``journal`` (a mint is
    appended to it), else ``None`` (the mint is a journey of its own).

    Raises:
        InvalidInputError: that journey minted the transfer already (an attestation
            mints once: a second mint would only revert).
    """
    if journal is None or journey_id is None:
        return None
    journey = journal.journey(journey_id)
    if journey is None or journey.kind != TRANSFER_KIND:
        return None
    minted = journey.last("minted")
    if minted is not None:
        raise InvalidInputError(
            "transfer",
            f"was minted already by journey {journey_id} (transaction "
            f"{minted.data.get('tx_hash')}); an attestation mints once",
        )
    return journey_id


def _minted_at_gateway(transfer_id: str) -> Flow[str | None]:
    """The mint's transaction hash when Gateway says the transfer is minted, else
    ``None`` (also when it cannot be asked: the chain is the judge then)."""
    try:
        record: TransferDetails = yield Call(operations.get_transfer(transfer_id))
    except XSwapError:
        return None
    if record.status in _MINTED_STATES and record.transaction_hash:
        return record.transaction_hash
    return None


def _rebroadcast(
    result: TransferResult,
    chain_id: int,
    signed: Mapping[str, Any],
    io: ChainIO,
    journey_id: str,
) -> Flow[MintResult]:
    """Broadcast the journaled mint transaction that never left: the same bytes."""
    tx_hash = yield from broadcast(io, dict(signed.get("fields") or {}), signed.get("raw"), MINT)
    return (yield from _minted(result.transfer_id, chain_id, tx_hash, journey_id))
