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
from ..journal import Journey
from ..signing.call_reading import check_call
from ..signing.calls import ContractCall
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
    call: ContractCall,
    sender: str,
    io: ChainIO,
    simulate: SimulateOption,
    *,
    unsafe_any_call: bool = False,
) -> Flow[SentCall]:
    """The ``call`` journey of ``call``, sent by ``sender`` through ``io``; with
    ``unsafe_any_call`` (a call `check_call` could not read), only once its simulation
    compared what it moves."""
    fields, intent = call_transaction(call, sender)
    yield from on_chain(io, call.chain_id)  # before the journey: a refusal leaves none
    terms = {"call": call.model_dump(mode="json"), "sender": sender, "simulate": simulate}
    if unsafe_any_call:
        terms["unsafe_any_call"] = True
    journey_id = yield Begin(KIND, terms)
    args = (sender, [intent], simulate, True) if unsafe_any_call else (sender, [intent], simulate)
    simulation: Simulation | None = yield Chain(
        io, "simulate", args, call.function, decode=_simulation
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
    simulate = check_simulate_option(terms.get("simulate", "auto"))
    # Read again like any input: a journaled call that is not one the SDK can read is
    # resumed only when its journey was started with unsafe_any_call=True.
    unread = terms.get("unsafe_any_call") is True
    read = check_call(call, sender=sender, registry=client._registry, unsafe_any_call=unread)
    flow = call_journey(call, sender, inputs.io, simulate, unsafe_any_call=read is None)
    return flow, client._transport
