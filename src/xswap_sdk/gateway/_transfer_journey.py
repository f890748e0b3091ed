"""A whole Gateway transfer as one journey: `send_transfer`.

One flow of kind ``transfer``: ``quoted`` (Gateway's estimate), ``verified`` (the
estimate applied to the caller's own intents with `apply_estimate`, which never widens
their fee or expiry, and each fee at most ``max_fee_cap``), ``signed`` (the exact
``POST /v1/transfer`` request, before it leaves), ``submitted``, ``attested``; then,
with web3, the mint (`_mint_journey.mint_steps`). A fee-floor refusal (HTTP 400
``InsufficientMaxFeeError``: nothing was transferred) is ``requoted`` and estimated
again, up to ``requote`` times; the new estimate is checked again and offered to
``accept_quote`` before it is signed. Any other failure of the request keeps the
transport's rules: a request that may have arrived is never sent or signed again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._chain_steps import ChainIO, on_chain
from .._flow import Begin, Flow, Record
from .._journey import request_data
from .._models import check_argument
from .._requote import again, check_requote, offer
from ..errors import (
    InsufficientMaxFeeError,
    InvalidInputError,
    UnsafePayloadError,
)
from ..registry import Registry
from ..signing._fields import pad_address
from ..signing.burn_intents import BurnIntent, as_intent, as_intents, check_signable
from ..signing.signed_intents import _check_source_signer, sign_burn_intent, sign_burn_intent_set
from ..signing.signer import Signer, signer_address
from ..types import TokenAmount
from . import _operations as operations
from ._mint_journey import MINT, TRANSFER_KIND, MintPlan, destination, mint_steps, plan_mint
from .models import EstimatedTransfer, TransferResult

__all__ = ["TransferPlan", "plan_transfer", "send_transfer"]


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
    chain_id = destination(checked, registry, testnet)
    plan = plan_mint(chain_id, simulate) if mint else None
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
        yield from on_chain(io, plan.mint.chain_id)
    journey_id: str | None = yield Begin(TRANSFER_KIND, plan.data(), resume=journey)
    requoted = 0
    while True:
        estimated: list[EstimatedTransfer] = yield from operations.typed_refusals(
            operations.estimate(list(plan.intents), max_attestation_size=plan.max_attestation_size)
        )
        yield Record("quoted", data={"estimate": estimated})
        intents = _applied(plan, estimated)
        if requoted:
            offer(plan.accept_quote, estimated, "estimate")
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
            requoted = yield from again(
                exc,
                requoted,
                plan.requote,
                data={
                    "reason": "Gateway's fee floor is above the signed maxFee",
                    "minimum_units": exc.minimum_units,
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
