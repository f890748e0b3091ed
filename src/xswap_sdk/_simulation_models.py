"""What a simulation reports (`AssetMovement`, `Simulation`) and what ``send_call``
returns (`SentCall`): the data `xswap_sdk.simulation` exports, kept below the rules
(``_simulation.py``) and the web3 I/O (``_async_web3.py``) that build it, so that the
public module's ``send_call`` can call that I/O without the I/O importing it back.
"""

from __future__ import annotations

from typing import ClassVar, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field

from .signing.calls import ContractCall

__all__ = [
    "NATIVE_TOKEN",
    "AssetMovement",
    "MovementKind",
    "SentCall",
    "SimulateOption",
    "Simulation",
    "SimulationMethod",
]

NATIVE_TOKEN = "0xEeeeeEeeeEeEeEeEeEeEEEeeeeEeeeeeeeEEeE"
"""The token address a native transfer is reported under (``eth_simulateV1``'s
``traceTransfers`` convention)."""

SimulateOption: TypeAlias = Literal["auto"] | bool
"""``simulate=``: ``"auto"`` (when the node can), ``True`` (required) or ``False``."""

SimulationMethod: TypeAlias = Literal["eth_simulateV1", "debug_traceCall", "eth_call"]
"""How a call was checked: a simulation of the block (``eth_simulateV1``), a call
trace with logs (``debug_traceCall``), or a plain ``eth_call`` (reverts only)."""

MovementKind: TypeAlias = Literal["native", "transfer", "approval", "deposit"]
"""What an `AssetMovement` is: a native transfer, an ERC-20 ``Transfer``, an ERC-20
``Approval`` (the allowance set, not a move), or a GatewayWallet ``Deposited`` credit."""


class AssetMovement(BaseModel):
    """One asset movement a simulated transaction would make.

    Attributes:
        kind: ``"native"``, ``"transfer"``, ``"approval"`` or ``"deposit"``.
        token: the ERC-20, or `NATIVE_TOKEN` for a native transfer.
        from_: who the asset leaves (the owner, for an approval; the depositor, for a
            deposit); ``"from"`` when dumped by alias.
        to: who receives it (the spender, for an approval; the GatewayWallet, for a
            deposit).
        amount: in the token's smallest units (the allowance set, for an approval).
        transaction: the index of the transaction in the simulated batch.
        emitter: the contract whose log reported it (`NATIVE_TOKEN` for a native
            transfer).
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        frozen=True, populate_by_name=True, defer_build=True
    )

    kind: MovementKind
    token: str
    from_: str = Field(alias="from")
    to: str
    amount: int
    transaction: int
    emitter: str


class Simulation(BaseModel):
    """What the transactions of one call did in their simulation, which matched what
    the call means.

    Attributes:
        transactions: what each simulated transaction was, in order (``"approval"``,
            ``"route"``, ``"deposit"``, ``"mint"``, ``"withdrawal"`` or ``"call"``).
        movements: every asset movement, in order (none for ``eth_call``).
        method: how it was checked (`SimulationMethod`): ``"eth_simulateV1"`` and
            ``"debug_traceCall"`` compare every movement with what the call means;
            ``"eth_call"`` only tells it would not revert.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True, defer_build=True)

    transactions: tuple[str, ...]
    movements: tuple[AssetMovement, ...]
    method: SimulationMethod = "eth_simulateV1"


class SentCall(BaseModel):
    """What `send_call` (or ``GatewayClient.send_call``) sent.

    Attributes:
        call: the contract call, as built.
        tx_hash: the hash of the transaction, which succeeded.
        simulation: its simulation, or ``None`` when it was not simulated.
        journey_id: the ``call`` journey in the client's journal, when
            ``GatewayClient.send_call`` sent it with a journal; else ``None``.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True, defer_build=True)

    call: ContractCall
    tx_hash: str
    simulation: Simulation | None = None
    journey_id: str | None = None
