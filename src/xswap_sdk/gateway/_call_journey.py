"""A Gateway contract call (a withdrawal, a delegate, a mint built by hand) sent as a
journey of kind ``call``: `GatewayClient.send_call`.

The flow starts the journey with the call (what it is: no secret but a mint's
attestation signature, which the mint needs), checks that web3 is on the call's chain,
simulates it like `xswap_sdk.simulation.send_call` (``verified``), sends it with
`xswap_sdk._chain_steps.send` (``signed``: the raw bytes, before they leave;
``broadcast``; ``confirmed``) and, for a ``gatewayMint``, writes ``minted``.

Resume replays it (`rebuild`, see ``xswap_sdk._journey``): a transaction that may have
been broadcast is looked up by its hash, and its signed bytes sent again only when the
chain does not have it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .._async_web3 import call_transaction
from .._chain_steps import ChainIO, on_chain, send
from .._flow import Begin, Chain, Flow, Record
from .._simulation import check_simulate_option
from ..errors import InvalidInputError
from ..journal import Journey
from ..signing.calls import ContractCall
from ..signing.signer import signer_address
from ..simulation import SentCall, SimulateOption, Simulation

if TYPE_CHECKING:
    from .._kinds import ResumeInputs

__all__ = ["KIND", "call_journey", "chain_of", "rebuild"]

KIND: Final = "call"
"""The journey kind of `GatewayClient.send_call`."""

_MINT_FUNCTION: Final = "gatewayMint"


def _simulation(value: Any) -> Simulation | None:
    return None if value is None else Simulation.model_validate(value)


def call_journey(
    call: ContractCall, sender: str, io: ChainIO, simulate: SimulateOption
) -> Flow[SentCall]:
    """The ``call`` journey of ``call``, sent by ``sender`` through ``io``."""
    fields, intent = call_transaction(call, sender)
    journey_id = yield Begin(
        KIND, {"call": call.model_dump(mode="json"), "sender": sender, "simulate": simulate}
    )
    yield from on_chain(io, call.chain_id)
    simulation: Simulation | None = yield Chain(
        io, "simulate", (sender, [intent], simulate), call.function, decode=_simulation
    )
    yield Record("verified", data={"what": call.function, "simulated": simulation is not None})
    tx_hash = yield from send(io, fields, call.function)
    if call.function.startswith(_MINT_FUNCTION):
        yield Record(
            "minted", data={"tx_hash": tx_hash, "chain_id": call.chain_id}, identities=(tx_hash,)
        )
    return SentCall(call=call, tx_hash=tx_hash, simulation=simulation, journey_id=journey_id)


def chain_of(terms: Any) -> int | None:
    """The chain a ``call`` journey sends on."""
    call = terms.get("call")
    chain = call.get("chain_id") if isinstance(call, dict) else None
    return chain if isinstance(chain, int) else None


def rebuild(client: Any, journey: Journey, inputs: ResumeInputs) -> tuple[Flow[Any], Any]:
    """A ``call`` journey's flow, built again from its terms (see ``xswap_sdk._kinds``),
    the call read again as any input."""
    terms = journey.terms
    call = ContractCall.model_validate(terms.get("call"))
    sender = str(terms.get("sender", ""))
    if inputs.signer is not None and signer_address(inputs.signer) != sender:
        raise InvalidInputError("signer", f"must be the call's sender {sender}")
    simulate = check_simulate_option(terms.get("simulate", "auto"))
    return call_journey(call, sender, inputs.io, simulate), client._transport
