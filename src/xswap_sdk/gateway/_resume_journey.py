"""Resume a ``transfer`` or ``mint`` journey: `resume_transfer`.

Where the journey stopped decides (see ``docs/journeys.md``): the transfer request by
the rules of ``xswap_sdk._resume`` over its last signed request; a `send_transfer`
stopped before it signed is run again when that is safe (`_restart_plan`); an
attestation is minted when the journey was asked to mint or web3 is given; a mint that
may have been broadcast is never sent again (the chain, then Gateway, are asked).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from .._chain_steps import ChainIO, broadcast, mined, on_chain
from .._flow import Begin, Call, Flow, Record
from .._operation import parser
from .._resume import position, resend
from ..errors import BadRequestError, InvalidInputError, XSwapError
from ..journal import Journey
from ..registry import Registry
from ..signing.signer import Signer, signer_address
from . import _operations as operations
from ._mint_journey import (
    MINT,
    MINT_KIND,
    TRANSFER_KIND,
    MintPlan,
    destination_of,
    mint_steps,
    minted_step,
)
from ._transfer_journey import TransferPlan, plan_transfer, send_transfer
from .models import MintResult, TransferDetails, TransferResult

__all__ = ["Resumed", "resume_transfer"]

# A transfer Gateway says is minted (by this journey or anyone: an attestation mints once).
_MINTED_STATES: Final = ("confirmed", "finalized")


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
        yield from on_chain(io, chain_id)
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
            return (yield from minted_step(result.transfer_id, chain_id, known, journey.id))
        at_gateway = yield from _minted_at_gateway(result.transfer_id)
        if at_gateway is not None:
            yield Record("found", data={"what": MINT, "tx_hash": at_gateway})
            return (yield from minted_step(result.transfer_id, chain_id, at_gateway, journey.id))
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
        minted = yield from minted_step(result.transfer_id, chain_id, at_gateway, journey.id)
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
    return (yield from minted_step(result.transfer_id, chain_id, tx_hash, journey_id))
