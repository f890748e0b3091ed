"""A whole Gateway transfer as one journey: `send_transfer`.

One flow of kind ``transfer``: ``quoted`` (Gateway's estimate), ``verified`` (the
estimate applied to the caller's own intents with `apply_estimate`, which never widens
their fee or expiry, and each fee at most ``max_fee_cap``), ``signed`` (the exact
``POST /v1/transfer`` request, before it leaves), ``submitted``, ``attested``; then,
with web3, the mint (`_mint_journey.mint_steps`). A fee-floor refusal (HTTP 400
``InsufficientMaxFeeError``: nothing was transferred) is ``requoted`` and estimated
again, up to ``requote`` times; the new estimate is checked again and offered to
``accept_quote`` before it is signed. Any other failure of the request keeps the
journey driver's rules: a request that may have arrived is sent again only as the same
bytes (burn intents are used once), and nothing is signed again.

`rebuild` builds the same flow from a journey's terms, for resume (see
``xswap_sdk._kinds``); a plain `GatewayClient.transfer` (intents its caller signed) is
rebuilt from its journaled request, its signatures checked again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from .._base58 import encode, is_solana_key
from .._chain_steps import ChainIO, UnavailableSigner, on_chain, unavailable_signer
from .._flow import Begin, Flow, Record
from .._models import check_argument
from .._requote import again, check_requote, offer
from ..errors import (
    InsufficientMaxFeeError,
    InvalidInputError,
    UnsafePayloadError,
)
from ..journal import Journey
from ..registry import Registry
from ..signing.burn_intents import BurnIntent, as_intent, as_intents
from ..signing.signed_intents import (
    _signing_burn_intent,
    _signing_burn_intent_set,
    check_burn_intent,
    signed_from_wire,
)
from ..signing.signer import Signer, signer_address
from ..signing.solana import SolanaSigner, is_solana_signer, solana_public_key
from ..types import TokenAmount
from . import _operations as operations
from ._mint_journey import MINT, TRANSFER_KIND, MintPlan, destination, mint_steps, plan_mint
from .models import EstimatedTransfer, TransferResult

if TYPE_CHECKING:
    from .._kinds import ResumeInputs

__all__ = ["TransferPlan", "chain_of", "plan_transfer", "rebuild", "send_transfer"]


@dataclass(frozen=True, slots=True)
class TransferPlan:
    """The checked arguments of `send_transfer`.

    Attributes:
        signer: signs the intents (and sends the mint): an EVM signer, or a
            `SolanaSigner` for intents that spend a Gateway balance on Solana.
        sender: the signer's address (a Solana key in base58).
        intents: the caller's intents, as built.
        as_set: a list was given: an EVM signer signs it as one set, a Solana key
            signs each intent alone (Gateway takes no set from Solana).
        max_fee_cap: the most ``maxFee`` accepted per intent, smallest USDC units.
        requote: how many new estimates a fee-floor refusal may ask for.
        accept_quote: the caller's hook over each new estimate.
        max_attestation_size: ``maxAttestationSize`` of the estimate and transfer.
        enable_forwarder: ``enableForwarder`` of the transfer.
        mint: where to mint, with web3; ``None`` to stop at the attestation.
        registry: the pinned chains.
    """

    signer: Signer | SolanaSigner
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

    asks: bool = False

    def terms(self) -> dict[str, Any]:
        """What a ``transfer`` journey is started with, and rebuilt from: the checked
        arguments, no signer."""
        return {
            "sender": self.sender,
            "intents": [intent.to_wire() for intent in self.intents],
            "as_set": self.as_set,
            "max_fee_cap": self.max_fee_cap,
            "requote": self.requote,
            "accept_quote": self.asks,
            "max_attestation_size": self.max_attestation_size,
            "enable_forwarder": self.enable_forwarder,
            MINT: None if self.mint is None else self.mint.data(),
        }


def _sender(signer: Signer | SolanaSigner) -> str:
    """Who signs: the address, or the Solana key in base58."""
    if isinstance(signer, UnavailableSigner):
        return signer.address
    if is_solana_signer(signer):
        return encode(solana_public_key(signer))
    return signer_address(signer)


def plan_transfer(
    signer: Signer | SolanaSigner,
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
    asks: bool | None = None,
) -> TransferPlan:
    """Check every argument of `send_transfer`, before any I/O.

    Raises:
        InvalidInputError: naming the first bad argument.
    """
    sender = _sender(signer)
    single = isinstance(intents, BurnIntent | Mapping)
    checked = [as_intent(intents, "intents")] if single else as_intents(intents, "intents")
    for index, intent in enumerate(checked):
        argument = "intents" if single else f"intents[{index}]"
        check_burn_intent(intent, signer, registry=registry, argument=argument)
    cap: int = check_argument("max_fee_cap", TokenAmount, max_fee_cap)
    check_requote(requote, accept_quote)
    size = operations.check_size(max_attestation_size)
    forwarder = operations.check_flag("enable_forwarder", enable_forwarder)
    chain_id = destination(checked, registry, testnet)
    if mint and registry.chain(chain_id).family != "evm":
        raise InvalidInputError(
            "web3",
            f"cannot mint on chain {chain_id} ({registry.chain(chain_id).family}): web3 mints "
            "on EVM chains; mint a Solana attestation with the instructions of "
            "xswap_sdk.signing.solana_programs, or leave web3 out to stop at the attestation",
        )
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
        asks=accept_quote is not None if asks is None else asks,
    )


# ------------------------------------------------------------------------------ send


def send_transfer(plan: TransferPlan, io: ChainIO | None) -> Flow[TransferResult]:
    """The one-call transfer: estimate, checks, signature, ``POST /v1/transfer`` (again
    after a fee-floor refusal, up to ``plan.requote`` times) and, with ``plan.mint``,
    the mint sent with ``io``."""
    if plan.mint is not None:
        # Before the journey starts: a mint on another chain would burn unminted.
        assert io is not None
        yield from on_chain(io, plan.mint.chain_id)
    journey_id: str | None = yield Begin(TRANSFER_KIND, plan.terms())
    requoted = 0
    while True:
        estimated: list[EstimatedTransfer] = yield from operations.typed_refusals(
            operations.estimate(list(plan.intents), max_attestation_size=plan.max_attestation_size)
        )
        yield Record("quoted", data={"estimated": len(estimated)})
        intents = _applied(plan, estimated)
        if requoted and plan.asks:
            yield from offer(plan.accept_quote, estimated, "estimate")
        yield Record(
            "verified",
            data={
                "max_fee": [intent.max_fee for intent in intents],
                "max_block_height": [intent.max_block_height for intent in intents],
                "max_fee_cap": plan.max_fee_cap,
            },
        )
        signed = yield from _signed(plan, intents)
        yield Record("signed", data={"what": "burn intents", "intents": len(intents)})
        # The signatures are held only by the operation, which seals them: this frame
        # is in the traceback if the request fails.
        operation = operations.transfer(
            signed,
            max_attestation_size=plan.max_attestation_size,
            enable_forwarder=plan.enable_forwarder,
        )
        del signed
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
    yield from operations.attested(result)
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


def _signed(plan: TransferPlan, intents: list[BurnIntent]) -> Flow[Any]:
    solana = is_solana_key(plan.sender)
    if plan.as_set and not solana:
        signer = cast(Signer, plan.signer)
        return (yield from _signing_burn_intent_set(intents, signer, registry=plan.registry))
    signed = []
    for intent in intents:  # Gateway takes each intent from Solana signed alone
        signed.append(
            (yield from _signing_burn_intent(intent, plan.signer, registry=plan.registry))
        )
    return signed if plan.as_set else signed[0]


def chain_of(terms: Any) -> int | None:
    """The chain a ``transfer`` journey mints on, when it was asked to mint."""
    mint = terms.get(MINT)
    chain = mint.get("chain_id") if isinstance(mint, Mapping) else None
    return chain if isinstance(chain, int) else None


def rebuild(client: Any, journey: Journey, inputs: ResumeInputs) -> tuple[Flow[Any], Any]:
    """A ``transfer`` journey's flow, built again from its terms (see
    ``xswap_sdk._kinds``): `send_transfer` with the same intents and caps, or a plain
    ``transfer`` of the journaled signed request (its signatures checked again)."""
    terms = journey.terms
    if "submitted" in terms:
        body = terms["submitted"]
        if not isinstance(body, list):
            raise InvalidInputError("journey_id", "its terms hold no signed request")
        signed = [
            signed_from_wire(item, f"journey terms: submitted[{n}]") for n, item in enumerate(body)
        ]
        operation = operations.transfer(
            signed,
            max_attestation_size=terms.get("max_attestation_size"),
            enable_forwarder=terms.get("enable_forwarder"),
        )
        flow = operations.transfer_journey(
            operation,
            max_attestation_size=terms.get("max_attestation_size"),
            enable_forwarder=terms.get("enable_forwarder"),
        )
        return flow, client._transport
    sender = str(terms.get("sender", ""))
    signer: Signer | SolanaSigner
    # resume checked a given signer against the sender (`ResumeInputs.signer`)
    signer = unavailable_signer(sender) if inputs.signer is None else inputs.signer
    wire = terms.get("intents") or []
    mint = terms.get(MINT)
    plan = plan_transfer(
        signer,
        wire if terms.get("as_set") else wire[0] if wire else None,  # type: ignore[arg-type]
        max_fee_cap=terms.get("max_fee_cap"),  # type: ignore[arg-type]
        requote=terms.get("requote", 0),
        accept_quote=None,
        mint=isinstance(mint, Mapping),
        simulate=mint.get("simulate", "auto") if isinstance(mint, Mapping) else "auto",
        max_attestation_size=terms.get("max_attestation_size"),
        enable_forwarder=terms.get("enable_forwarder"),
        registry=client._registry,
        testnet=client._testnet,
        asks=bool(terms.get("accept_quote")),
    )
    return send_transfer(plan, inputs.io), client._transport
