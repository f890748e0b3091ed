"""Solana in the registry and the ids: domain 5 on both networks, base58 everywhere a
user reads or writes an address, 32-byte keys on the wire; building intents from and to
Solana (owner wallets turned into their USDC token accounts, u64 bounds, a slot as the
default expiry); and the EVM-only builders refusing Solana."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solders.pubkey import Pubkey

from xswap_sdk import _base58, errors
from xswap_sdk.chains import SOLANA, SOLANA_DEVNET, KnownChain, check_address
from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.gateway._operations import build_balances_request, check_depositor
from xswap_sdk.registry import DEFAULT_REGISTRY, GatewayChain
from xswap_sdk.signing import (
    initiate_withdrawal_call,
    sign_deposit_authorization,
)
from xswap_sdk.testing import TEST_SIGNER, TEST_SOLANA_ADDRESS

from .support import SOLANA_OWNER, base_to_solana

MAINNET = DEFAULT_REGISTRY.chain(SOLANA)
OWNER = SOLANA_OWNER
OWNER_ATA = "3Yu8dCTg9GabYv2Yg15sWcLUSoYewvQFaUWipUfkbZ2d"


def test_solana_is_domain_5_with_circles_programs_on_both_networks() -> None:
    assert SOLANA == KnownChain.SOLANA == 10100000
    assert (MAINNET.domain, MAINNET.testnet, MAINNET.family) == (5, False, "solana")
    assert MAINNET.gateway_wallet == "GATEwy4YxeiEbRJLwB6dXgg7q61e6zBPrMzYj5h1pRXQ"
    assert MAINNET.gateway_minter == "GATEm5SoBJiSw1v2Pz1iPBgUYkXzCUJ27XSXhDfSyzVZ"
    assert MAINNET.usdc == "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
    devnet = DEFAULT_REGISTRY.by_domain(5, testnet=True)
    assert devnet is not None
    assert (devnet.chain_id, devnet.family) == (SOLANA_DEVNET, "solana")
    assert devnet.gateway_wallet == "GATEwdfmYNELfp5wDmmR6noSr2vHnAfBPMm2PvCzX5vu"
    assert devnet.gateway_minter == "GATEmKK2ECL1brEngQZWCgMWPbvrEYqsV6u29dAaHavr"
    assert devnet.usdc == "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU"
    assert DEFAULT_REGISTRY.by_domain(5, testnet=False) == MAINNET


def test_a_solana_entry_takes_base58_bytes32_or_a_pubkey_and_keeps_base58() -> None:
    def entry(**addresses: Any) -> GatewayChain:
        return GatewayChain(
            chain_id=1,
            name="x",
            domain=5,
            testnet=False,
            family="solana",
            **{
                "usdc": MAINNET.usdc,
                "gateway_wallet": MAINNET.gateway_wallet,
                "gateway_minter": MAINNET.gateway_minter,
                **addresses,
            },
        )

    plain = entry()
    as_hex = entry(usdc="0x" + bytes(Pubkey.from_string(MAINNET.usdc)).hex())
    as_key = entry(gateway_wallet=Pubkey.from_string(MAINNET.gateway_wallet))
    assert plain == as_hex == as_key
    assert as_hex.usdc == MAINNET.usdc
    for bad in (TEST_SIGNER.address, "0x" + "11" * 31, "GATEwy4Yxei0", 5, b"\x00" * 31):
        with pytest.raises(errors.InvalidInputError):
            entry(usdc=bad)
    with pytest.raises(errors.InvalidInputError) as info:
        GatewayChain(1, "x", 5, MAINNET.usdc, MAINNET.usdc, MAINNET.usdc, False, family="tron")  # type: ignore[arg-type]
    assert info.value.argument == "family"
    with pytest.raises(errors.InvalidInputError):
        GatewayChain(
            1, "x", 6, OWNER, OWNER, OWNER, False, "USD Coin", "2", family="solana"
        )  # no EIP-712 on Solana


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_base58_round_trips_as_solders_writes_it(raw: bytes) -> None:
    text = _base58.encode(raw)
    assert text == str(Pubkey(raw))
    assert _base58.solana_key_bytes(text) == raw
    assert check_address("solana", text) == text
    assert _base58.fold(text) == text
    assert _base58.fold(TEST_SIGNER.address) == TEST_SIGNER.address.lower()


def test_intents_from_solana_are_u64_with_a_slot_expiry() -> None:
    intent = build_transfer_intent(
        source_chain_id=SOLANA,
        destination_chain_id=8453,
        depositor=Pubkey.from_string(TEST_SOLANA_ADDRESS),  # type: ignore[arg-type]
        recipient=TEST_SIGNER.address,
        value=1,
    )
    assert intent.max_block_height == 2**64 - 1
    assert intent.spec.source_signer == intent.spec.source_depositor
    assert intent.spec.destination_caller == "0x" + "00" * 32
    for name in ("value", "max_fee", "max_block_height"):
        with pytest.raises(errors.InvalidInputError, match="u64") as info:
            build_transfer_intent(
                source_chain_id=SOLANA,
                destination_chain_id=8453,
                depositor=TEST_SOLANA_ADDRESS,
                recipient=TEST_SIGNER.address,
                **{"value": 1, name: 2**64},
            )
        assert info.value.argument == name
    evm = base_to_solana(1)
    assert evm.max_block_height == 2**256 - 1  # an EVM block number: no u64 bound


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"depositor": TEST_SIGNER.address}, "depositor"),
        ({"source_signer": TEST_SIGNER.address}, "source_signer"),
        ({"recipient": OWNER}, "recipient"),
        ({"destination_caller": OWNER}, "destination_caller"),
    ],
)
def test_addresses_of_the_other_family_are_refused(
    arguments: dict[str, Any], argument: str
) -> None:
    base: dict[str, Any] = {
        "source_chain_id": SOLANA,
        "destination_chain_id": 8453,
        "depositor": TEST_SOLANA_ADDRESS,
        "recipient": TEST_SIGNER.address,
        "value": 1,
    }
    with pytest.raises(errors.InvalidInputError) as info:
        build_transfer_intent(**{**base, **arguments})
    assert info.value.argument == argument


def test_a_solana_recipient_is_an_owner_wallet_never_a_token_account() -> None:
    arguments: dict[str, Any] = {
        "source_chain_id": 8453,
        "destination_chain_id": SOLANA,
        "depositor": TEST_SIGNER.address,
        "value": 1,
    }
    paid = build_transfer_intent(**arguments, recipient=OWNER)
    assert paid.spec.destination_recipient == "0x" + bytes(Pubkey.from_string(OWNER_ATA)).hex()
    for wrong in (OWNER_ATA, TEST_SIGNER.address, "0x" + bytes(Pubkey.from_string(OWNER)).hex()):
        with pytest.raises(errors.InvalidInputError) as info:
            build_transfer_intent(**arguments, recipient=wrong)
        assert info.value.argument == "recipient"
    with pytest.raises(errors.InvalidInputError):
        build_transfer_intent(
            **{**arguments, "destination_chain_id": SOLANA_DEVNET}, recipient=OWNER
        )


def test_balances_take_base58_depositors_on_solana_only() -> None:
    body = build_balances_request([TEST_SOLANA_ADDRESS, TEST_SIGNER.address], None, "USDC")
    assert body.to_wire()["sources"] == [
        {"depositor": TEST_SOLANA_ADDRESS},
        {"depositor": TEST_SIGNER.address},
    ]
    with pytest.raises(errors.InvalidInputError, match="Solana address"):
        build_balances_request(TEST_SIGNER.address, [5], "USDC")
    with pytest.raises(errors.InvalidInputError, match="EVM chain"):
        build_balances_request(TEST_SOLANA_ADDRESS, [6], "USDC")
    assert check_depositor(TEST_SOLANA_ADDRESS, 5) == TEST_SOLANA_ADDRESS
    assert check_depositor(TEST_SIGNER.address.lower(), 6) == TEST_SIGNER.address


def test_evm_only_builders_refuse_solana() -> None:
    with pytest.raises(errors.InvalidInputError, match="not an EVM chain") as info:
        initiate_withdrawal_call(chain_id=SOLANA, value=1, depositor=TEST_SIGNER.address)
    assert info.value.argument == "chain_id"
    with pytest.raises(errors.InvalidInputError, match="not an EVM chain"):
        sign_deposit_authorization(TEST_SIGNER, chain_id=SOLANA, value=1)
    with pytest.raises(errors.InvalidInputError) as info:
        MAINNET.require_evm("source")
    assert info.value.argument == "source"
    assert DEFAULT_REGISTRY.chain(8453).require_evm().chain_id == 8453
