"""``simulate="auto"`` on a node without ``eth_simulateV1`` (sync and async): the SDK
uses the best check the node offers and the result says which (`Simulation.method`):

1. ``debug_traceCall`` with a call trace and its logs: every movement is compared by
   the same rules as a simulation (a deposit the wallet credits to someone else is
   refused);
2. a plain ``eth_call``: only a revert can be seen (``movements`` is empty);
3. nothing: logged, and the call goes on (as before).

A call the SDK cannot read (``send_call(..., unsafe_any_call=True)``) needs its
movements compared: with only ``eth_call`` it is refused.

The node is a stand-in ``provider.make_request`` answering canned JSON-RPC.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from xswap_sdk import _async_web3, _simulation, _sync_web3
from xswap_sdk.errors import SimulationError
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import ContractCall
from xswap_sdk.testing import TEST_SIGNER

from .gateway.chain import CHAIN_ID, destination, mints_sent
from .support import resolve

OWNER = TEST_SIGNER.address.lower()
USDC = "0x" + "33" * 20
WALLET = "0x" + "55" * 20
OTHER = "0x" + "66" * 20
TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
DEPOSITED = "0x4174a9435a04d04d274c76779cad136a41fde6937c56241c09ab9d3c7064a1a9"
NOT_OFFERED = {"error": {"code": -32601, "message": "the method does not exist"}}


def topic(address: str) -> str:
    return "0x" + address[2:].rjust(64, "0")


def log(emitter: str, head: str, *addresses: str, amount: int) -> dict[str, Any]:
    return {
        "address": emitter,
        "topics": [head, *(topic(a) for a in addresses)],
        "data": f"0x{amount:064x}",
    }


def deposit_trace(credited: str) -> dict[str, Any]:
    """A callTracer trace of a deposit of 50: USDC moves in, the wallet credits."""
    return {
        "type": "CALL",
        "from": OWNER,
        "to": WALLET,
        "value": "0x0",
        "logs": [log(WALLET, DEPOSITED, USDC, credited, OWNER, amount=50)],
        "calls": [
            {
                "type": "CALL",
                "from": WALLET,
                "to": USDC,
                "value": "0x0",
                "logs": [log(USDC, TRANSFER, OWNER, WALLET, amount=50)],
            }
        ],
    }


class Node:
    """A web3 stand-in whose node answers ``answers[method]`` (absent: not offered)."""

    def __init__(self, **answers: Any) -> None:
        self.answers = answers
        self.asked: list[str] = []
        self.provider = self

    def make_request(self, method: str, params: Any) -> Any:
        self.asked.append(method)
        answer = self.answers.get(method, NOT_OFFERED)
        return answer if isinstance(answer, Mapping) and "error" in answer else {"result": answer}


class AsyncNode(Node):
    async def make_request(self, method: str, params: Any) -> Any:  # type: ignore[override]
        return Node.make_request(self, method, params)


def deposit() -> _simulation.Intent:
    fields = {"to": WALLET, "data": "0x", "value": 0}
    return _simulation.deposit_intent(
        fields, usdc=USDC, gateway_wallet=WALLET, amount=50, depositor=OWNER
    )


async def check(kind: str, node: Node, option: Any = "auto", **kwargs: Any) -> Any:
    if kind == "sync":
        return _sync_web3.check_by_simulation(node, OWNER, [deposit()], option, **kwargs)  # type: ignore[arg-type]
    web3 = AsyncNode(**node.answers)
    return await _async_web3.async_check_by_simulation(web3, OWNER, [deposit()], option, **kwargs)  # type: ignore[arg-type]


async def test_a_call_trace_is_compared_like_a_simulation(kind: str) -> None:
    result = await check(kind, Node(debug_traceCall=deposit_trace(OWNER)))
    assert result.method == "debug_traceCall"
    assert [m.kind for m in result.movements] == ["deposit", "transfer"]


async def test_a_traced_deposit_credited_to_someone_else_is_refused(kind: str) -> None:
    with pytest.raises(SimulationError, match="credit"):
        await check(kind, Node(debug_traceCall=deposit_trace(OTHER)))


async def test_a_plain_call_sees_reverts_only_and_says_so(kind: str) -> None:
    result = await check(kind, Node(eth_call="0x"))
    assert (result.method, result.movements) == ("eth_call", ())
    reverting = Node(eth_call={"error": {"code": 3, "message": "execution reverted"}})
    with pytest.raises(SimulationError, match="would revert"):
        await check(kind, reverting)


async def test_movements_are_required_for_a_call_the_sdk_cannot_read(kind: str) -> None:
    with pytest.raises(SimulationError, match="not one the SDK can read"):
        await check(kind, Node(eth_call="0x"), movements_required=True)
    # a trace compares the movements: enough
    traced = await check(kind, Node(debug_traceCall=deposit_trace(OWNER)), movements_required=True)
    assert traced.method == "debug_traceCall"


async def test_simulate_true_accepts_a_trace_but_not_a_plain_call(kind: str) -> None:
    assert (await check(kind, Node(debug_traceCall=deposit_trace(OWNER)), True)).movements
    with pytest.raises(SimulationError, match="simulate=True"):
        await check(kind, Node(eth_call="0x"), True)


async def test_a_node_that_offers_nothing_is_logged_and_skipped(kind: str) -> None:
    assert await check(kind, Node()) is None


@pytest.mark.evm
async def test_send_call_refuses_an_unreadable_call_it_cannot_check(kind: str) -> None:
    # eth-tester offers neither eth_simulateV1 nor debug_traceCall.
    web3 = destination(kind)
    unknown = ContractCall(to=OTHER, data="0x12345678", chain_id=CHAIN_ID, function="poke()")
    with Sandbox() as sb:
        gateway = (sb.gateway_client if kind == "sync" else sb.async_gateway_client)()
        with pytest.raises(SimulationError, match="not one the SDK can read"):
            await resolve(
                gateway.send_call(unknown, web3=web3, signer=TEST_SIGNER, unsafe_any_call=True)
            )
        assert await mints_sent(web3) == 0
        # simulate=False is the caller's explicit choice: sent unchecked.
        await resolve(
            gateway.send_call(
                unknown, web3=web3, signer=TEST_SIGNER, unsafe_any_call=True, simulate=False
            )
        )
    assert await mints_sent(web3) == 1
