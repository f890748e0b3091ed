"""The mint of a Gateway transfer's attestation as steps of a journey.

`mint_steps` checks the ``gatewayMint`` call against the signed intents
(`TransferResult.mint_call`), simulates it like `xswap_sdk.simulation.send_call` (a
`Chain` step: ``ChainIO.simulate``), writes ``verified``, sends it with
`xswap_sdk._chain_steps.send` (``signed``: the raw bytes, before they leave;
``broadcast``; ``confirmed``) and writes ``minted``. `GatewayClient.send_transfer` runs
it after the attestation, in the transfer's journey; `mint_journey`
(``GatewayClient.mint``) runs it appended to the transfer's own journey when the
client's journal has it (`continued`), else as a journey of kind ``mint``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from .._async_web3 import call_transaction
from .._chain_steps import ChainIO, need, on_chain, send
from .._flow import Begin, Chain, Flow, Record
from .._simulation import check_simulate_option
from ..errors import InvalidInputError
from ..journal import Journal
from ..registry import Registry
from ..signing.burn_intents import BurnIntent
from ..simulation import SimulateOption
from .models import MintResult, TransferResult

__all__ = [
    "MINT",
    "MINT_KIND",
    "TRANSFER_KIND",
    "MintPlan",
    "continued",
    "destination",
    "destination_of",
    "mint_journey",
    "mint_steps",
    "minted_step",
    "plan_mint",
]

TRANSFER_KIND: Final = "transfer"
"""The journey kind of ``GatewayClient.transfer`` and ``send_transfer``."""

MINT_KIND: Final = "mint"
"""The journey kind of ``GatewayClient.mint`` of a transfer with no journey of its own."""

MINT: Final = "mint"
"""The key of the mint plan in a journey's ``started`` (or ``resumed``) data, and the
``what`` of the mint's chain steps."""


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
    check = need(io.simulate, "simulate")
    simulation = yield Chain(lambda: check(sender, [intent], plan.simulate))
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
    return (
        yield from minted_step(result.transfer_id, plan.chain_id, tx_hash, journey_id, simulation)
    )


def minted_step(
    transfer_id: str, chain_id: int, tx_hash: str, journey_id: str | None, simulation: Any = None
) -> Flow[MintResult]:
    """Write ``minted`` and return the `MintResult`."""
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
    yield from on_chain(io, plan.chain_id)
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
