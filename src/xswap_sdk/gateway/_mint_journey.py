"""The mint of a Gateway transfer's attestation as steps of a journey.

`mint_steps` checks the ``gatewayMint`` call against the signed intents
(`TransferResult.mint_call`), simulates it like `xswap_sdk.simulation.send_call` (a
`Chain` step: ``ChainIO.simulate``), writes ``verified``, sends it with
`xswap_sdk._chain_steps.send` (``signed``: the raw bytes, before they leave;
``broadcast``; ``confirmed``) and writes ``minted``. `GatewayClient.send_transfer` runs
it after the attestation, in the transfer's journey; `mint_journey`
(``GatewayClient.mint``) runs it as a journey of kind ``mint``, whose terms are the
attestation and the signed intents it must mint (checked again on resume).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from .._async_web3 import call_transaction
from .._chain_steps import ChainIO, on_chain, send
from .._flow import Begin, Chain, Flow, Record
from .._simulation import check_simulate_option
from ..errors import InvalidInputError
from ..journal import Journal, Journey
from ..registry import Registry
from ..signing.burn_intents import BurnIntent
from ..simulation import SimulateOption, Simulation
from .models import MintResult, TransferResult

if TYPE_CHECKING:
    from .._kinds import ResumeInputs

__all__ = [
    "MINT",
    "MINT_KIND",
    "TRANSFER_KIND",
    "MintPlan",
    "chain_of",
    "destination",
    "destination_of",
    "mint_journey",
    "mint_steps",
    "minted_already",
    "plan_mint",
    "rebuild",
]

TRANSFER_KIND: Final = "transfer"
"""The journey kind of ``GatewayClient.transfer`` and ``send_transfer``."""

MINT_KIND: Final = "mint"
"""The journey kind of ``GatewayClient.mint``."""

MINT: Final = "mint"
"""The key of the mint plan in a journey's terms, and the ``what`` of the mint's chain
steps."""


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


def plan_mint(chain_id: int, simulate: object) -> MintPlan:
    """A checked `MintPlan`."""
    return MintPlan(chain_id, check_simulate_option(simulate))


def destination(intents: Sequence[BurnIntent], registry: Registry, testnet: bool) -> int:
    """The chain id ``intents`` mint on (one destination domain, known to the registry).

    Raises:
        InvalidInputError: several destinations, or one the registry does not know.
    """
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
    return destination(result.intents, registry, testnet)


def minted_already(journal: Journal | None, transfer_id: str) -> None:
    """Refuse to mint a transfer a journey of ``journal`` minted already (found by its
    transfer id, which the journal indexes): an attestation mints once.

    Raises:
        InvalidInputError: naming ``transfer``.
    """
    if journal is None:
        return
    for journey_id in journal.find(transfer_id):
        journey = journal.journey(journey_id)
        minted = None if journey is None or not journey.authentic else journey.last("minted")
        if minted is not None:
            raise InvalidInputError(
                "transfer",
                f"was minted already by journey {journey_id} (transaction "
                f"{minted.data.get('tx_hash')}); an attestation mints once",
            )


def _simulation(value: Any) -> Simulation | None:
    return None if value is None else Simulation.model_validate(value)


def mint_steps(
    result: TransferResult,
    plan: MintPlan,
    sender: str,
    io: ChainIO,
    registry: Registry,
    journey_id: str | None,
) -> Flow[MintResult]:
    """Check the mint call against the signed intents, simulate it, send it (the signed
    bytes written before they leave) and write ``minted``."""
    call = result.mint_call(plan.chain_id, registry=registry)
    fields, intent = call_transaction(call, sender)
    simulation: Simulation | None = yield Chain(
        io, "simulate", (sender, [intent], plan.simulate), MINT, decode=_simulation
    )
    yield Record(
        "verified",
        data={
            "what": MINT,
            "chain_id": plan.chain_id,
            "transfer_id": result.transfer_id,
            "simulated": simulation is not None,
        },
    )
    tx_hash = yield from send(io, fields, MINT)
    yield Record(
        "minted",
        data={"tx_hash": tx_hash, "chain_id": plan.chain_id, "transfer_id": result.transfer_id},
        identities=(tx_hash, result.transfer_id),
    )
    return MintResult(
        transfer_id=result.transfer_id,
        chain_id=plan.chain_id,
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
) -> Flow[MintResult]:
    """``GatewayClient.mint``: the mint of ``result`` as a ``mint`` journey."""
    # Checked before the journey starts: a refused attestation, or web3 on another
    # chain, leaves nothing to resume.
    yield from on_chain(io, plan.chain_id)
    result.mint_call(plan.chain_id, registry=registry)
    journey_id = yield Begin(
        MINT_KIND,
        {
            "transfer": result.model_dump(mode="json", by_alias=True),
            "intents": [intent.to_wire() for intent in result.intents],
            "sender": sender,
            MINT: plan.data(),
        },
    )
    return (yield from mint_steps(result, plan, sender, io, registry, journey_id))


def chain_of(terms: Any) -> int | None:
    """The chain a ``mint`` journey mints on."""
    mint = terms.get(MINT)
    chain = mint.get("chain_id") if isinstance(mint, Mapping) else None
    return chain if isinstance(chain, int) else None


def rebuild(client: Any, journey: Journey, inputs: ResumeInputs) -> tuple[Flow[Any], Any]:
    """A ``mint`` journey's flow, built again from its terms (see ``xswap_sdk._kinds``):
    the attestation read again and checked again against the journaled intents before
    anything is sent."""
    terms = journey.terms
    result = TransferResult.model_validate(terms.get("transfer"))
    result = result.with_intents(list(terms.get("intents") or []))
    sender = str(terms.get("sender", ""))
    mint = terms.get(MINT)
    if not isinstance(mint, Mapping):
        raise InvalidInputError("journey_id", "its terms hold no mint")
    plan = plan_mint(int(mint["chain_id"]), mint.get("simulate", "auto"))
    return mint_journey(result, plan, sender, inputs.io, client._registry), client._transport
