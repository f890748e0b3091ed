"""Burn intent signatures checked by a contract: ``burn_intent_verifier.vy`` hashes a
BurnIntent and a BurnIntentSet per EIP-712 with the spec's type strings, written out
independently of the SDK, and ``ecrecover``s the signer."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from eth_account.signers.local import LocalAccount
from web3 import Web3
from web3.contract import Contract
from web3.providers.eth_tester import EthereumTesterProvider

from xswap_sdk.signing import (
    BurnIntent,
    build_burn_intent,
    sign_burn_intent,
    sign_burn_intent_set,
)

from ..gateway.support import SPEC_FIELDS

pytestmark = pytest.mark.evm

VECTORS = Path(__file__).resolve().parents[1] / "data" / "signing-vectors.json"

GATEWAY_WALLET = "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE"
GATEWAY_MINTER = "0x2222222d7164433c4C09B0b0D809a9b52C04C205"


@pytest.fixture(scope="module")
def verifier(compiled: dict[str, dict[str, Any]]) -> Contract:
    # The verifier is pure, so one chain serves the whole module.
    w3 = Web3(EthereumTesterProvider())
    abi, bytecode = (
        compiled["burn_intent_verifier"]["abi"],
        compiled["burn_intent_verifier"]["bytecode"],
    )
    tx_hash = (
        w3.eth.contract(abi=abi, bytecode=bytecode)
        .constructor()
        .transact({"from": w3.eth.accounts[0]})
    )
    address = w3.eth.wait_for_transaction_receipt(tx_hash)["contractAddress"]
    return w3.eth.contract(address=address, abi=abi)


def as_tuple(intent: BurnIntent) -> tuple[Any, ...]:
    """The ABI tuple of an intent, built from its wire form (what is sent)."""
    wire = intent.to_wire()
    spec = wire["spec"]
    # The spec's bytes32 words: from sourceContract to destinationCaller.
    words = [spec[name] for name in SPEC_FIELDS[3:11]]
    return (
        int(wire["maxBlockHeight"]),
        int(wire["maxFee"]),
        (
            spec["version"],
            spec["sourceDomain"],
            spec["destinationDomain"],
            *(bytes.fromhex(word[2:]) for word in words),
            int(spec["value"]),
            bytes.fromhex(spec["salt"][2:]),
            bytes.fromhex(spec["hookData"][2:]),
        ),
    )


def vrs(signature: str) -> tuple[int, bytes, bytes]:
    raw = bytes.fromhex(signature[2:])
    return raw[64], raw[:32], raw[32:64]


def random_address(rng: random.Random) -> str:
    return "0x" + rng.randbytes(20).hex()


def random_intent(rng: random.Random, signer: LocalAccount) -> BurnIntent:
    return build_burn_intent(
        source_domain=rng.choice([0, 1, 2, 3, 6, 7, 10, 2**32 - 1]),
        destination_domain=rng.choice([0, 3, 6]),
        source_contract=GATEWAY_WALLET,
        destination_contract=GATEWAY_MINTER,
        source_token=random_address(rng),
        destination_token=random_address(rng),
        user=signer.address,
        recipient=random_address(rng),
        # Not 0: Circle Gateway refuses an intent of 0, so the SDK will not sign one.
        value=rng.choice([1, 1_000_000, 2**256 - 1, max(1, rng.getrandbits(256))]),
        hook_data=rng.randbytes(rng.choice([0, 1, 31, 32, 33, 200, 1024])),
        max_fee=rng.choice([0, 2_010_000, rng.getrandbits(256)]),
        max_block_height=rng.choice([2**256 - 1, rng.getrandbits(64)]),
    )


@pytest.mark.parametrize("seed", range(6))
def test_single_intent_recovers_on_chain(
    verifier: Contract, holder: LocalAccount, seed: int
) -> None:
    intent = random_intent(random.Random(seed), holder)
    signed = sign_burn_intent(intent, holder)
    assert verifier.functions.burn_intent_digest(as_tuple(intent)).call().hex() == signed.digest[2:]
    recovered = verifier.functions.recover_burn_intent(as_tuple(intent), *vrs(signed.signature))
    assert recovered.call() == holder.address


@pytest.mark.parametrize("size", [1, 2, 5, 16])
def test_intent_set_recovers_on_chain(verifier: Contract, holder: LocalAccount, size: int) -> None:
    rng = random.Random(size)
    intents = [random_intent(rng, holder) for _ in range(size)]
    signed = sign_burn_intent_set(intents, holder)
    tuples = [as_tuple(intent) for intent in intents]
    assert verifier.functions.burn_intent_set_digest(tuples).call().hex() == signed.digest[2:]
    recovered = verifier.functions.recover_burn_intent_set(tuples, *vrs(signed.signature))
    assert recovered.call() == holder.address


def test_a_changed_field_recovers_someone_else(verifier: Contract, holder: LocalAccount) -> None:
    intent = random_intent(random.Random(99), holder)
    signed = sign_burn_intent(intent, holder)
    tampered = intent.model_copy(
        update={"spec": intent.spec.model_copy(update={"value": intent.spec.value ^ 1})}
    )
    recovered = verifier.functions.recover_burn_intent(as_tuple(tampered), *vrs(signed.signature))
    assert recovered.call() != holder.address


def test_set_of_one_is_not_the_intent_alone(verifier: Contract, holder: LocalAccount) -> None:
    intent = random_intent(random.Random(7), holder)
    alone = sign_burn_intent(intent, holder)
    as_set = sign_burn_intent_set([intent], holder)
    assert alone.digest != as_set.digest
    on_chain_set = verifier.functions.burn_intent_set_digest([as_tuple(intent)]).call()
    assert on_chain_set.hex() == as_set.digest[2:]


def test_shared_vectors_hash_the_same_on_chain(verifier: Contract) -> None:
    cases = {case["input"]["kind"]: case for case in json.loads(VECTORS.read_text())["cases"]}
    single = cases["burnIntent"]
    intent = BurnIntent.model_validate(
        {key: single["input"][key] for key in ("maxBlockHeight", "maxFee", "spec")}
    )
    digest = verifier.functions.burn_intent_digest(as_tuple(intent)).call()
    assert "0x" + digest.hex() == single["expected"]["digest"]

    many = cases["burnIntentSet"]
    intents = [BurnIntent.model_validate(item) for item in many["input"]["intents"]]
    digest = verifier.functions.burn_intent_set_digest([as_tuple(i) for i in intents]).call()
    assert "0x" + digest.hex() == many["expected"]["digest"]
