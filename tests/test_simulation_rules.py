"""The comparison of simulated movements with what a call means (``_simulation``), on
hand-written ``eth_simulateV1`` answers: each rule of the table refuses what it should
and lets through what it should. The same rules run on a real node in tests/anvil."""

from __future__ import annotations

from typing import Any

import pytest

from xswap_sdk import _simulation as sim
from xswap_sdk.errors import InvalidInputError, SimulationError, XSwapError
from xswap_sdk.simulation import NATIVE_TOKEN, AssetMovement

OWNER = "0x" + "11" * 20
ROUTER = "0x" + "22" * 20
TOKEN = "0x" + "33" * 20
OUT = "0x" + "44" * 20
WALLET = "0x" + "55" * 20
OTHER = "0x" + "66" * 20
TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
APPROVAL = "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925"
DEPOSITED = "0x4174a9435a04d04d274c76779cad136a41fde6937c56241c09ab9d3c7064a1a9"
FIELDS = {"to": ROUTER, "data": "0x", "value": 0}


def _topic(address: str) -> str:
    return "0x" + address[2:].rjust(64, "0")


def log(emitter: str, head: str, first: str, second: str, amount: int, *more: str) -> Any:
    topics = [head, _topic(first), _topic(second), *(_topic(m) for m in more)]
    return {"address": emitter, "topics": topics, "data": "0x" + f"{amount:064x}"}


def answer(*calls: list[Any], status: str = "0x1") -> list[Any]:
    return [{"calls": [{"status": status, "logs": logs} for logs in calls]}]


def route(**output: Any) -> sim.Intent:
    return sim.Intent(
        "route", FIELDS, token=TOKEN, counterparty=ROUTER, spend=100, approval=100, **output
    )


def test_the_request_is_one_block_of_the_exact_transactions_in_order() -> None:
    first = sim.approval_intent({"to": TOKEN, "data": "0xab", "value": 0}, TOKEN, ROUTER, 5)
    params = sim.simulate_params(OWNER, [first, route()])
    block = params[0]
    assert params[1] == "latest"
    assert block["traceTransfers"] is True
    assert [call["to"] for call in block["blockStateCalls"][0]["calls"]] == [TOKEN, ROUTER]
    assert block["blockStateCalls"][0]["calls"][0] == {
        "from": OWNER, "to": TOKEN, "data": "0xab", "value": "0x0"
    }  # fmt: skip


def test_an_honest_route_passes_and_its_movements_are_kept() -> None:
    result = answer(
        [log(TOKEN, TRANSFER, OWNER, ROUTER, 100), log(OUT, TRANSFER, ROUTER, OWNER, 7)]
    )
    simulation = sim.check_simulation(
        OWNER, [route(receiver=OWNER, output_token=OUT, min_output=7)], result
    )
    assert simulation.transactions == ("route",)
    assert simulation.movements[1] == AssetMovement(
        kind="transfer", token=OUT, from_=ROUTER, to=OWNER, amount=7, transaction=0, emitter=OUT
    )
    assert simulation.movements[1].model_dump(by_alias=True)["from"] == ROUTER


@pytest.mark.parametrize(
    ("logs", "reason"),
    [
        ([log(TOKEN, TRANSFER, OWNER, ROUTER, 101)], "more than the 100 asked"),
        ([log(TOKEN, TRANSFER, OWNER, OTHER, 1)], "would leave"),
        ([log(OUT, TRANSFER, OWNER, ROUTER, 1)], "would leave"),
        ([log(NATIVE_TOKEN, TRANSFER, OWNER, ROUTER, 1)], "would leave"),
        ([log(TOKEN, APPROVAL, OWNER, OTHER, 1)], "the call means no such approval"),
        ([log(TOKEN, APPROVAL, OWNER, ROUTER, 101)], "more than the 100 asked"),
    ],
)
def test_a_route_moving_more_of_the_owners_assets_is_refused(logs: list[Any], reason: str) -> None:
    with pytest.raises(SimulationError, match=reason) as caught:
        sim.check_simulation(OWNER, [route()], answer(logs))
    assert isinstance(caught.value, XSwapError)
    assert "No transaction was signed or sent" in str(caught.value)
    assert len(caught.value.movements) == 1


@pytest.mark.parametrize(
    "paid",
    [
        [log(OUT, TRANSFER, ROUTER, OTHER, 7)],  # elsewhere
        [log(OUT, TRANSFER, ROUTER, OWNER, 6)],  # too little
        [log(TOKEN, TRANSFER, ROUTER, OWNER, 7)],  # another token
        [],
    ],
)
def test_a_same_chain_route_must_pay_the_receiver_the_minimum(paid: list[Any]) -> None:
    with pytest.raises(SimulationError, match="less than the minimum 7"):
        sim.check_simulation(
            OWNER, [route(receiver=OWNER, output_token=OUT, min_output=7)], answer(paid)
        )


def test_a_cross_chain_route_pays_out_elsewhere_later() -> None:
    sim.check_simulation(OWNER, [route()], answer([log(TOKEN, TRANSFER, OWNER, ROUTER, 100)]))


def test_a_revert_is_refused_with_its_place_in_the_batch() -> None:
    first = sim.approval_intent(FIELDS, TOKEN, ROUTER, 100)
    result = [
        {
            "calls": [
                {"status": "0x1", "logs": [log(TOKEN, APPROVAL, OWNER, ROUTER, 100)]},
                {"status": "0x0", "logs": [], "error": {"message": "execution reverted"}},
            ]
        }
    ]
    with pytest.raises(SimulationError, match="would revert") as caught:
        sim.check_simulation(OWNER, [first, route()], result)
    assert caught.value.transaction == 1


@pytest.mark.parametrize("amount", [99, 0])
def test_an_approval_sets_exactly_the_amount(amount: int) -> None:
    intent = sim.approval_intent(FIELDS, TOKEN, ROUTER, 100)
    with pytest.raises(SimulationError, match="no Approval of 100"):
        sim.check_simulation(OWNER, [intent], answer([log(TOKEN, APPROVAL, OWNER, ROUTER, amount)]))
    sim.check_simulation(OWNER, [intent], answer([log(TOKEN, APPROVAL, OWNER, ROUTER, 100)]))


def deposit() -> sim.Intent:
    return sim.deposit_intent(FIELDS, usdc=TOKEN, gateway_wallet=WALLET, amount=50, depositor=OWNER)


def test_a_deposit_must_credit_the_owner_at_the_gateway_wallet() -> None:
    moved = log(TOKEN, TRANSFER, OWNER, WALLET, 50)
    credited = log(WALLET, DEPOSITED, TOKEN, OWNER, 50, OWNER)
    sim.check_simulation(OWNER, [deposit()], answer([moved, credited]))
    for wrong in (
        [log(WALLET, DEPOSITED, TOKEN, OTHER, 50, OWNER)],  # credits someone else
        [moved, log(WALLET, DEPOSITED, TOKEN, OTHER, 50, OWNER)],  # the owner's USDC, too
        [log(OTHER, DEPOSITED, TOKEN, OWNER, 50, OWNER)],  # another "wallet"
        [moved],  # a wallet that says nothing of whom it credits
    ):
        with pytest.raises(SimulationError, match="would credit"):
            sim.check_simulation(OWNER, [deposit()], answer(wrong))


def _attestation(recipient: str, value: int, *, spec_length: int = 340) -> bytes:
    spec = bytearray(spec_length)
    spec[0:4] = bytes.fromhex("ca85def7")
    spec[112 + 12 : 144] = bytes.fromhex(TOKEN[2:])
    spec[176 + 12 : 208] = bytes.fromhex(recipient[2:])
    spec[272:304] = value.to_bytes(32, "big")
    return bytes.fromhex("ff6fb334") + bytes(32) + spec_length.to_bytes(4, "big") + spec


def test_a_mint_pays_each_attested_recipient() -> None:
    one, two = _attestation(OWNER, 5), _attestation(OTHER, 9)
    pair = bytes.fromhex("1e12db71") + (2).to_bytes(4, "big") + one + two
    assert sim.attested_credits(one) == ((TOKEN, OWNER, 5),)
    assert sim.attested_credits(pair) == ((TOKEN, OWNER, 5), (TOKEN, OTHER, 9))
    intent = sim.Intent("mint", FIELDS, credits=sim.attested_credits(pair))
    minted = [log(TOKEN, TRANSFER, "0x" + "00" * 20, OWNER, 5)]
    with pytest.raises(SimulationError, match=f"attested recipient {OTHER} would get 0"):
        sim.check_simulation(OWNER, [intent], answer(minted))
    minted.append(log(TOKEN, TRANSFER, "0x" + "00" * 20, OTHER, 9))
    sim.check_simulation(OWNER, [intent], answer(minted))


@pytest.mark.parametrize(
    "payload",
    [b"", bytes.fromhex("deadbeef") + bytes(400), _attestation(OWNER, 1)[:100]],
)
def test_an_attestation_the_sdk_cannot_read_is_refused(payload: bytes) -> None:
    with pytest.raises(SimulationError):
        sim.attested_credits(payload)


def test_logs_that_are_not_asset_movements_are_ignored() -> None:
    nft = log(TOKEN, TRANSFER, OWNER, OTHER, 1, "0x01")  # ERC-721: four topics
    odd = {"address": TOKEN, "topics": [TRANSFER], "data": "0x"}
    _, movements = sim.movements_of(answer([nft, odd]), 1)
    assert movements == []


def test_an_answer_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(SimulationError, match="not one block of 2 calls"):
        sim.check_simulation(OWNER, [route(), route()], answer([]))


def test_a_node_that_cannot_simulate_is_told_apart() -> None:
    assert sim.unavailable({"result": []}) is None
    assert "-32601" in (sim.unavailable({"error": {"code": -32601, "message": "no"}}) or "")
    assert sim.unavailable({"result": None}) is not None


@pytest.mark.parametrize("value", ["auto", True, False])
def test_simulate_takes_auto_true_or_false(value: object) -> None:
    assert sim.check_simulate_option(value) is value


@pytest.mark.parametrize("value", ["yes", 1, 0, None, "AUTO"])
def test_any_other_simulate_is_refused(value: object) -> None:
    with pytest.raises(InvalidInputError, match="simulate"):
        sim.check_simulate_option(value)
