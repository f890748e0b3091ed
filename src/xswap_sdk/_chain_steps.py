"""Chain I/O as steps of a journey's flow, written once for both drivers.

A flow yields `xswap_sdk._flow.Chain` steps calling the web3 helpers its client method
bound (`ChainIO`: async ones in an async client, blocking ones in a blocking client),
and `Record` steps around them, so a crash leaves in the journal what was signed
(``signed``: the raw bytes and their hash, before they are broadcast), whether it may
have left (``broadcast/sending``), its hash (``broadcast/ok``) and its receipt
(``confirmed``). Resume looks a transaction up by its journaled hash (`mined`) and never
sends one again: not found, the journey needs attention (`attention`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ._flow import Chain, Flow, Record
from ._web3_support import checked_receipt
from .errors import InvalidInputError

if TYPE_CHECKING:
    from .journal import Journey

__all__ = [
    "ChainIO",
    "attention",
    "broadcast",
    "check_connected",
    "hash_of",
    "mined",
    "need",
    "on_chain",
    "send",
    "settled",
]


@dataclass(frozen=True, slots=True)
class ChainIO:
    """The web3 helpers a journey runs with, bound to one web3 (and signer):
    async ones return awaitables, blocking ones values (see `xswap_sdk._flow.Chain`).

    Attributes:
        sign: fields -> (completed fields, raw signed bytes as hex, or ``None`` when
            the node signs).
        broadcast: (fields, raw) -> the transaction's hash.
        confirm: (hash, what) -> the hash, once mined successfully.
        receipt: hash -> the receipt, or ``None`` when the node has none.
        chain_id: () -> the chain id the node is on (a read before signing).
        allowance: (token, owner, spender) -> the ERC-20 allowance.
        simulate: (sender, intents, option) -> the simulation of the transactions, or
            ``None`` when not simulated (`xswap_sdk.simulation`).

    ``_async_web3.async_chain_io`` (and its blocking twin) binds them all; a stand-in
    may leave the three reads out, and `need` refuses a flow that asks for one that was
    not bound.
    """

    sign: Callable[[dict[str, Any]], Any]
    broadcast: Callable[[dict[str, Any], str | None], Any]
    confirm: Callable[[str, str], Any]
    receipt: Callable[[str], Any]
    chain_id: Callable[[], Any] | None = None
    allowance: Callable[[str, str, str], Any] | None = None
    simulate: Callable[[str, Sequence[Any], Any], Any] | None = None


def need(helper: Callable[..., Any] | None, name: str) -> Callable[..., Any]:
    """``helper``, a read a flow needs from its `ChainIO`; one the client method did not
    bind is the SDK's bug, not the caller's."""
    if helper is None:
        raise TypeError(f"this ChainIO binds no {name} helper")
    return helper


def check_connected(connected: int, chain_id: int) -> None:
    """Refuse a web3 connected (``eth_chainId``) to another chain than ``chain_id``,
    before anything is signed or sent.

    Raises:
        InvalidInputError: the chains differ (argument ``web3``).
    """
    if connected != chain_id:
        raise InvalidInputError("web3", f"is connected to chain {connected}, not {chain_id}")


def on_chain(io: ChainIO, chain_id: int) -> Flow[None]:
    """Read the chain ``io``'s node is on, and refuse another than ``chain_id``
    (`check_connected`)."""
    connected = yield Chain(need(io.chain_id, "chain_id"))
    check_connected(int(connected), chain_id)


def hash_of(raw: str | None) -> str | None:
    """The hash of a signed raw transaction (hex), known before it is broadcast."""
    if raw is None:
        return None  # the node signs: the hash is known once it is sent
    from eth_utils.crypto import keccak

    return "0x" + keccak(hexstr=raw).hex()


def send(io: ChainIO, fields: dict[str, Any], what: str, *, confirm: bool = True) -> Flow[str]:
    """Sign, journal the signed bytes, broadcast, and (``confirm``) wait for the receipt."""
    complete, raw = yield Chain(lambda: io.sign(fields))
    planned = hash_of(raw)
    yield Record("signed", "ok", {"what": what, "fields": complete, "raw": raw, "tx_hash": planned})
    return (yield from broadcast(io, complete, raw, what, confirm=confirm))


def broadcast(
    io: ChainIO, fields: dict[str, Any], raw: str | None, what: str, *, confirm: bool = True
) -> Flow[str]:
    """Broadcast a transaction `send` signed (``raw``, or ``fields`` when the node
    signs), and (``confirm``) wait for its receipt: the rest of `send`, and what resume
    does with a journaled transaction that provably never left (the same bytes)."""
    yield Record("broadcast", "sending", {"what": what, "tx_hash": hash_of(raw)})
    tx_hash: str = yield Chain(lambda: io.broadcast(fields, raw))
    yield Record("broadcast", "ok", {"what": what, "tx_hash": tx_hash})
    if not confirm:
        return tx_hash
    yield Chain(lambda: io.confirm(tx_hash, what))
    yield Record("confirmed", "ok", {"what": what, "tx_hash": tx_hash})
    return tx_hash


def mined(tx_hash: object, receipt: Callable[[str], Any] | None, what: str) -> Flow[bool]:
    """Whether the transaction is on the chain (``confirmed``); raises when it reverted."""
    if not isinstance(tx_hash, str) or receipt is None:
        return False
    found = yield Chain(lambda: receipt(tx_hash))
    if found is None:
        return False
    checked_receipt(found, what, tx_hash)
    yield Record("confirmed", "ok", {"what": what, "tx_hash": tx_hash})
    return True


def attention(what: str) -> Flow[None]:
    """End the journey ``needs_attention``: ``what`` may be on its way."""
    yield Record(
        "needs_attention",
        "outcome_unknown",
        {
            "reason": f"{what} may have been broadcast and neither the chain (no receipt) nor "
            "the service knows it yet; nothing was signed or sent again",
            "next": "look the journaled tx_hash up on the chain's explorer, then resume again",
        },
        state="needs_attention",
    )


def settled(journey: Journey, io: ChainIO | None, what: str) -> Flow[str | None]:
    """The hash of ``journey``'s ``what`` transaction, which may have been broadcast,
    once the chain has it: journaled ``confirmed``, else its receipt read through ``io``
    (`mined`). ``None`` when neither can say, the journey marked needs attention
    (`attention`); nothing is signed or sent."""
    hashes = [
        s.data.get("tx_hash")
        for s in journey.steps
        if s.step in ("signed", "broadcast") and s.data.get("what") == what
    ]
    known = next((h for h in reversed(hashes) if isinstance(h, str)), None)
    receipt = None if io is None else io.receipt
    if journey.last("confirmed") is None and not (yield from mined(known, receipt, what)):
        yield from attention(f"the {what} transaction")
        return None
    return known
