"""Circle Gateway on Solana: every vector made with Circle's own code (tests/data/
solana-gateway-vectors.json, see tests/data/README.md) is reproduced byte for byte:
the intents built from their arguments, their binary encoding and spec hashes, the
Ed25519 signatures (a solders Keypair, and the cryptography-based test signer), the
EIP-712 digests and signatures of EVM intents to Solana, the transfer bodies, the
token accounts, the deposit instruction, the balances request and the registry.

The client side, sync and async (the bodies sent), is in
tests/gateway/test_solana_client.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from eth_account import Account
from solders.keypair import Keypair
from solders.pubkey import Pubkey

from xswap_sdk.chains import SOLANA, SOLANA_DEVNET
from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.gateway._operations import build_balances_request
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.signing import (
    BURN_INTENT_MESSAGE_PREFIX,
    BurnIntent,
    burn_intent_bytes,
    burn_intent_set_typed_data,
    burn_intent_typed_data,
    sign_burn_intent,
    sign_burn_intent_set,
    solana_burn_intent_message,
    solana_deposit_instruction,
    transfer_spec_bytes,
    transfer_spec_hash,
    usdc_token_account,
)
from xswap_sdk.signing.burn_intents import BURN_INTENT_MAGIC, TRANSFER_SPEC_MAGIC
from xswap_sdk.signing.solana_programs import (
    ASSOCIATED_TOKEN_PROGRAM,
    DEPOSIT_DISCRIMINATOR,
    GATEWAY_MINT_DISCRIMINATOR,
    SYSTEM_PROGRAM,
    TOKEN_PROGRAM,
)
from xswap_sdk.testing import TEST_SOLANA_ADDRESS, TEST_SOLANA_SEED, TEST_SOLANA_SIGNER

from .support import eth_account_digest

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "solana-gateway-vectors.json").read_text()
)
CASES: dict[str, dict[str, Any]] = VECTORS["cases"]
KEYS = VECTORS["keys"]
DEPOSITOR = Keypair.from_seed(bytes.fromhex(KEYS["solana_depositor"]["seed_hex"][2:]))
EVM_SIGNER = Account.from_key(KEYS["evm_signer"]["private_key"])
SOLANA_CASES = sorted(name for name, case in CASES.items() if case["source_family"] == "solana")
EVM_CASES = sorted(name for name, case in CASES.items() if case["source_family"] == "evm")


def hexed(data: bytes) -> str:
    return "0x" + data.hex()


def built(case: dict[str, Any]) -> list[BurnIntent]:
    arguments = case["build_args"]
    return [
        build_transfer_intent(**item)
        for item in (arguments if isinstance(arguments, list) else [arguments])
    ]


def wires(case: dict[str, Any]) -> list[dict[str, Any]]:
    return case.get("intents_wire") or [case["intent_wire"]]


def test_the_vectors_cover_both_directions_and_both_signers() -> None:
    assert SOLANA_CASES == ["solana_to_base", "solana_to_solana"]
    assert EVM_CASES == ["base_to_solana", "evm_set_to_solana"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_intents_are_built_as_circles_kit_builds_them(name: str) -> None:
    case = CASES[name]
    assert [intent.to_wire() for intent in built(case)] == wires(case)


@pytest.mark.parametrize("name", sorted(CASES))
def test_transfer_specs_and_their_hashes(name: str) -> None:
    case = CASES[name]
    intents = [BurnIntent.model_validate(wire) for wire in wires(case)]
    hashes = case.get("transfer_spec_hashes") or [case["transfer_spec_hash"]]
    assert [transfer_spec_hash(intent.spec) for intent in intents] == hashes
    if "transfer_spec_hex" in case:
        assert hexed(transfer_spec_bytes(intents[0].spec)) == case["transfer_spec_hex"]


@pytest.mark.parametrize("name", SOLANA_CASES)
def test_the_solana_message_is_the_prefix_and_the_intent_bytes(name: str) -> None:
    case = CASES[name]
    intent = BurnIntent.model_validate(case["intent_wire"])
    assert hexed(burn_intent_bytes(intent)) == case["burn_intent_hex"]
    message = solana_burn_intent_message(intent)
    assert hexed(message) == case["signed_message_hex"]
    assert message[:16] == BURN_INTENT_MESSAGE_PREFIX
    assert len(message) == 428  # no hook data


@pytest.mark.parametrize("signer", ["solders", "cryptography"])
@pytest.mark.parametrize("name", SOLANA_CASES)
def test_a_solana_key_signs_the_vector_byte_for_byte(name: str, signer: str) -> None:
    case = CASES[name]
    key = DEPOSITOR if signer == "solders" else TEST_SOLANA_SIGNER
    signed = sign_burn_intent(built(case)[0], key)
    assert signed.signature == case["signature_hex"]
    assert signed.scheme == "ed25519"
    assert signed.signer == case["ed25519_public_key"]["base58"]
    assert signed.digest == case["signed_message_hex"]
    assert [signed.to_wire()] == case["transfer_body"]


@pytest.mark.parametrize("name", SOLANA_CASES)
def test_circles_kit_body_holds_the_same_values(name: str) -> None:
    # Circle's kit writes EVM addresses in bytes32 in checksum case and leaves an empty
    # hookData out; the SDK sends Circle's skill's form. Same values either way.
    case = CASES[name]
    kit = case["circle_kit_transfer_body"][0]
    assert (
        BurnIntent.model_validate(
            {**kit["burnIntent"], "spec": {"hookData": "0x", **kit["burnIntent"]["spec"]}}
        ).to_wire()
        == case["transfer_body"][0]["burnIntent"]
    )
    assert kit["signature"] == case["transfer_body"][0]["signature"]


@pytest.mark.parametrize("name", EVM_CASES)
def test_an_evm_key_signs_intents_to_solana_byte_for_byte(name: str) -> None:
    case = CASES[name]
    intents = built(case)
    if len(intents) == 1:
        signed: Any = sign_burn_intent(intents[0], EVM_SIGNER)
        typed = burn_intent_typed_data(intents[0])
    else:
        signed = sign_burn_intent_set(intents, EVM_SIGNER)
        typed = burn_intent_set_typed_data(intents)
    assert signed.digest == case["eip712_digest"]
    assert eth_account_digest(case["eip712_typed_data"]) == case["eip712_digest"]
    assert typed == case["eip712_typed_data"]
    assert signed.signature == case["signature_hex"]
    assert signed.signer == case["evm_signer"]
    assert [signed.to_wire()] == case["transfer_body"]


@pytest.mark.parametrize("name", ["solana_to_solana", "base_to_solana", "evm_set_to_solana"])
def test_a_solana_recipient_is_paid_in_its_usdc_token_account(name: str) -> None:
    case = CASES[name]
    owner = KEYS["solana_recipient_owner"]
    assert owner["usdc_ata_mainnet"] == case["destination_recipient_account"]
    assert usdc_token_account(owner["pubkey"]) == case["destination_recipient_account"]
    account = Pubkey.from_string(case["destination_recipient_account"])
    for intent in built(case):
        assert intent.spec.destination_recipient == hexed(bytes(account))


def test_the_deposit_instruction() -> None:
    given = VECTORS["deposit_instruction"]
    made = solana_deposit_instruction(owner=TEST_SOLANA_ADDRESS, amount=int(given["amount"]))
    assert str(made.program_id) == given["program_id"]
    assert hexed(bytes(made.data)) == given["data_hex"]
    assert [
        {"pubkey": str(meta.pubkey), "is_signer": meta.is_signer, "is_writable": meta.is_writable}
        for meta in made.accounts
    ] == [
        {key: account[key] for key in ("pubkey", "is_signer", "is_writable")}
        for account in given["accounts"]
    ]


def test_the_balances_request() -> None:
    given = VECTORS["balances_request"]
    assert build_balances_request(TEST_SOLANA_ADDRESS, [5], "USDC").to_wire() == given["body"]


def test_the_registry_pins_the_vectors_programs_and_mints() -> None:
    for network, chain_id in (("mainnet", SOLANA), ("devnet", SOLANA_DEVNET)):
        given = VECTORS["registry"][network]
        chain = DEFAULT_REGISTRY.by_domain(given["domain"], testnet=given["testnet"])
        assert chain is not None
        assert chain == DEFAULT_REGISTRY.chain(chain_id)
        assert chain.family == "solana"
        assert (chain.gateway_wallet, chain.gateway_minter, chain.usdc) == (
            given["gateway_wallet"],
            given["gateway_minter"],
            given["usdc"],
        )
    assert VECTORS["registry"]["mainnet"]["chain_id"] == SOLANA == 10100000


def test_the_constants() -> None:
    constants = VECTORS["constants"]
    assert constants["solana_chain_id"] == SOLANA
    assert hexed(BURN_INTENT_MESSAGE_PREFIX) == constants["burn_intent_message_prefix_hex"]
    assert hexed(BURN_INTENT_MAGIC) == constants["burn_intent_magic"]
    assert hexed(TRANSFER_SPEC_MAGIC) == constants["transfer_spec_magic"]
    assert (
        constants["system_program"],
        constants["token_program"],
        constants["associated_token_program"],
    ) == (SYSTEM_PROGRAM, TOKEN_PROGRAM, ASSOCIATED_TOKEN_PROGRAM)
    discriminators = constants["instruction_discriminators"]
    assert list(GATEWAY_MINT_DISCRIMINATOR) == discriminators["gateway_minter"]["gateway_mint"]
    assert list(DEPOSIT_DISCRIMINATOR) == discriminators["gateway_wallet"]["deposit"]


def test_the_test_signer_is_the_vectors_depositor() -> None:
    assert KEYS["solana_depositor"]["seed_hex"] == TEST_SOLANA_SEED
    assert TEST_SOLANA_ADDRESS == str(DEPOSITOR.pubkey()) == KEYS["solana_depositor"]["pubkey"]
    assert TEST_SOLANA_SIGNER.pubkey() == TEST_SOLANA_ADDRESS
