"""Simulate before sending: what a transaction would move, read on the caller's own node.

Every SDK method that sends an on-chain transaction (`RoutingClient.execute_route` and
`RoutingClient.check_permit2_allowance`, `FlashClient.deposit` sent through web3, and
`send_call` for the Gateway calls of `xswap_sdk.signing`: mints, withdrawals) takes
``simulate=``:

- ``"auto"`` (the default): the best check the node offers, and the result says which
  (`Simulation.method`): ``eth_simulateV1``; else, for a single transaction, a call
  trace with its logs (``debug_traceCall`` with geth's ``callTracer`` and ``withLog``),
  compared by the same rules; else a plain ``eth_call``, which can tell only whether it
  would revert (``movements`` empty). A node that offers none of them is logged and
  the call goes on. A call the SDK cannot read (``send_call(..., unsafe_any_call=True)``)
  is refused unless its movements were checked (``eth_simulateV1`` or the trace);
- ``True``: require a check of the movements (``eth_simulateV1`` or the trace), and
  raise `xswap_sdk.errors.SimulationError` before sending when the node offers neither;
- ``False``: do not simulate.

The exact transactions about to be signed are simulated in order, in one block, on the
``web3`` you passed (``eth_simulateV1`` with ``traceTransfers``). Their asset movements,
native transfers and ERC-20 ``Transfer`` and ``Approval`` logs (and the GatewayWallet's
``Deposited``), are compared with what the call means; a revert or a movement the call
does not mean raises `xswap_sdk.errors.SimulationError`, and no transaction is signed
or sent. The result of the call carries the movements as `Simulation`. See the
Simulation guide for what is compared and what a simulation cannot prove.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._simulation_models import (
    NATIVE_TOKEN,
    AssetMovement,
    MovementKind,
    SentCall,
    SimulateOption,
    Simulation,
    SimulationMethod,
)

if TYPE_CHECKING:
    from web3 import AsyncWeb3, Web3

    from .signing.calls import ContractCall
    from .signing.signer import Signer

__all__ = [
    "NATIVE_TOKEN",
    "AssetMovement",
    "MovementKind",
    "SentCall",
    "SimulateOption",
    "Simulation",
    "SimulationMethod",
    "async_send_call",
    "send_call",
]


def send_call(
    web3: Web3,
    signer: Signer,
    call: ContractCall,
    *,
    simulate: SimulateOption = "auto",
    unsafe_any_call: bool = False,
) -> SentCall:
    """Simulate a `xswap_sdk.signing.ContractCall` (a Gateway mint, withdrawal,
    deposit or delegate call), compare it with what it means, send it from the signer
    and wait for it to succeed.

    Nothing is journaled: ``GatewayClient.send_call`` sends the same call as a journey
    of its client's journal, which a crash can be resumed from.

    A ``gatewayMint`` must pay each attested recipient the attested value of the
    attested token; every call moves nothing of the signer's but what it deposits.

    Args:
        web3: a connected `web3.Web3` on ``call.chain_id`` (the ``web3`` extra).
        signer: who sends it (``call.sender`` when the call names one).
        call: a call from `xswap_sdk.signing`.
        simulate: ``"auto"``, ``True`` or ``False`` (see the module).
        unsafe_any_call: DANGEROUS: send a call the SDK cannot read; by default it must
            be a known function of a contract the registry pins, matching its label
            (`xswap_sdk.signing.call_reading.check_call`).

    Returns:
        The call, the hash of its transaction, and its simulation.

    Raises:
        InvalidInputError: a bad argument, or web3 on another chain.
        UnsafePayloadError: the call is not a known function of a pinned contract, or
            its label is not what its calldata does (nothing signed).
        SimulationError: the simulation reverted or moved what the call does not mean,
            or ``simulate=True`` and the node cannot simulate (nothing sent).
        SwapFailedError: the transaction reverted.
    """
    from . import _sync_web3  # lazy: the web3 I/O loads with the first send, not with the models

    return _sync_web3.send_call(
        web3, signer, call, simulate=simulate, unsafe_any_call=unsafe_any_call
    )


async def async_send_call(
    web3: AsyncWeb3[Any],
    signer: Signer,
    call: ContractCall,
    *,
    simulate: SimulateOption = "auto",
    unsafe_any_call: bool = False,
) -> SentCall:
    """`send_call` for a `web3.AsyncWeb3`.

    Args:
        web3: a connected `web3.AsyncWeb3` on ``call.chain_id``.
        signer: who sends it.
        call: a call from `xswap_sdk.signing`.
        simulate: ``"auto"``, ``True`` or ``False``.
        unsafe_any_call: DANGEROUS: send a call the SDK cannot read.

    Returns:
        The call, the hash of its transaction, and its simulation.

    Raises:
        InvalidInputError: a bad argument, or web3 on another chain.
        SimulationError: the simulation reverted or moved what the call does not mean,
            or ``simulate=True`` and the node cannot simulate (nothing sent).
        SwapFailedError: the transaction reverted.
    """
    from . import _async_web3  # lazy: the web3 I/O loads with the first send, not with the models

    return await _async_web3.async_send_call(
        web3, signer, call, simulate=simulate, unsafe_any_call=unsafe_any_call
    )
