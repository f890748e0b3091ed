"""A Gateway contract call (a withdrawal, a delegate, a mint built by hand) sent as a
journey of kind ``call``: `GatewayClient.send_call`.

The flow checks that web3 is on the call's chain, starts the journey with the call
(what it is: no secret but a mint's attestation signature, which resume needs), simulates
it like `xswap_sdk.simulation.send_call` (``verified``), sends it with
`xswap_sdk._chain_steps.send` (``signed``: the raw bytes, before they leave;
``broadcast``; ``confirmed``) and, for a ``gatewayMint``, writes ``minted``.

Resume (`resume_call`) never signs again: a transaction that may have been broadcast is
looked for by its journaled hash (its receipt, with web3), else the journey needs
attention; one signed and never broadcast is broadcast from its journaled bytes (the
same transaction: it can be mined once at most); one stopped before it was signed ends
``failed`` (nothing was sent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .._async_web3 import call_transaction
from .._chain_steps import ChainIO, broadcast, need, on_chain, send, settled
from .._flow import Begin, Chain, Flow, Record
from ..journal import Journey
from ..signing.calls import ContractCall
from ..simulation import SentCall, SimulateOption

__all__ = ["KIND", "call_journey", "resume_call"]

KIND: Final = "call"
"""The journey kind of `GatewayClient.send_call`."""

_MINT_FUNCTION: Final = "gatewayMint"


def call_journey(
    call: ContractCall, sender: str, io: ChainIO, simulate: SimulateOption
) -> Flow[SentCall]:
    """The ``call`` journey of ``call``, sent by ``sender`` through ``io``."""
    fields, intent = call_transaction(call, sender)
    yield from on_chain(io, call.chain_id)
    journey_id = yield Begin(
        KIND, {"call": call.model_dump(mode="json"), "sender": sender, "simulate": simulate}
    )
    check = need(io.simulate, "simulate")
    simulation = yield Chain(lambda: check(sender, [intent], simulate))
    yield Record("verified", data={"what": call.function, "simulation": simulation})
    tx_hash = yield from send(io, fields, call.function)
    return (yield from _done(call, tx_hash, journey_id, simulation))


def _done(
    call: ContractCall, tx_hash: str, journey_id: str | None, simulation: Any
) -> Flow[SentCall]:
    if call.function.startswith(_MINT_FUNCTION):
        yield Record("minted", data={"tx_hash": tx_hash, "chain_id": call.chain_id})
    return SentCall(call=call, tx_hash=tx_hash, simulation=simulation, journey_id=journey_id)


def _steps(journey: Journey, step: str) -> list[Mapping[str, Any]]:
    return [s.data for s in journey.steps if s.step == step]


def resume_call(journey: Journey, io: ChainIO | None) -> Flow[SentCall | None]:
    """Resume a ``call`` journey by the rules of the module docstring."""
    if journey.state in ("completed", "failed"):
        return None
    call = ContractCall.model_validate(journey.arguments["call"])
    if io is not None:
        yield from on_chain(io, call.chain_id)
    yield Begin(KIND, {"from": journey.state}, resume=journey.id)
    verified = journey.last("verified")
    simulation = verified.data.get("simulation") if verified is not None else None
    sent, signed = _steps(journey, "broadcast"), _steps(journey, "signed")
    if sent:
        known = yield from settled(journey, io, call.function)
        if known is None:
            return None
        return (yield from _done(call, known, journey.id, simulation))
    if not signed:
        yield Record(
            "failed",
            "not_sent",
            {"reason": "the call was never signed; nothing is at stake"},
            state="failed",
        )
        return None
    if io is None:
        yield Record(
            "needs_attention",
            "not_sent",
            {
                "reason": "the call is signed and was never sent",
                "next": f"resume with web3= on chain {call.chain_id} (or xswap resume "
                f"--rpc-url URL {journey.id}): its journaled bytes are sent",
            },
            state="needs_attention",
        )
        return None
    last = signed[-1]
    tx_hash = yield from broadcast(
        io, dict(last.get("fields") or {}), last.get("raw"), call.function
    )
    return (yield from _done(call, tx_hash, journey.id, simulation))
