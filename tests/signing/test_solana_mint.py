"""Minting on Solana: the GatewayMinter's ``gateway_mint`` instruction is built, with the
accounts and data of Circle's program, only for an attestation (Circle's reduced format)
that mints exactly the caller's intents; every field of a tampered attestation is
refused. Attestations are written by the sandbox's own encoder (eth-abi, not the SDK's)
and signed by its attester. Also: deposits, token accounts, and the ``solana`` extra."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from eth_account import Account
from eth_hash.auto import keccak
from solders.keypair import Keypair
from solders.pubkey import Pubkey

from xswap_sdk import errors
from xswap_sdk.chains import SOLANA, SOLANA_DEVNET
from xswap_sdk.gateway import TransferResult, build_transfer_intent
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox._attestation import encode_solana_attestation, sign_attestation
from xswap_sdk.signing import (
    BurnIntent,
    create_usdc_token_account_instruction,
    decode_solana_attestation,
    gateway_mint_call,
    sign_burn_intent,
    solana_deposit_instruction,
    transfer_spec_hash,
    usdc_token_account,
)
from xswap_sdk.signing.solana_programs import TOKEN_PROGRAM
from xswap_sdk.testing import TEST_SIGNER, TEST_SOLANA_ADDRESS, TEST_SOLANA_SIGNER

from .support import SOLANA_OWNER, base_to_solana

MAINNET = DEFAULT_REGISTRY.chain(SOLANA)
OWNER = SOLANA_OWNER
OWNER_ATA = "3Yu8dCTg9GabYv2Yg15sWcLUSoYewvQFaUWipUfkbZ2d"
PAYER = str(Keypair.from_seed(bytes(range(32))).pubkey())
# Derived from Circle's seeds for the mainnet programs (spec §1), independently here.
MINTER_STATE = "E7sUocNi9dYwGuqMnUzPMAvdQ3g31pUbHCLw1M92ztjY"
MINTER_EVENTS = "8kkX6gcGtNHDsiHLSVEWZzsxcsrDBMfoEoPq1ZG2bejy"
MINTER_USDC_CUSTODY = "CkzX3bvAt9PcjCh2QoQdM9ENzUVwH229hFe4dB7Y8qZK"
SLOT = 400_000_000


def to_solana(value: int, *, salt: int = 1, caller: str | None = None) -> BurnIntent:
    return base_to_solana(value, salt="0x" + f"{salt:064x}", destination_caller=caller)


def attested(intents: list[BurnIntent], **changes: Any) -> tuple[str, str]:
    """The sandbox's attestation of ``intents`` (spec fields changed by ``changes``)."""
    specs = [{**intent.spec.to_wire(), **changes} for intent in intents]
    payload = encode_solana_attestation(SLOT, specs)
    return "0x" + payload.hex(), sign_attestation(payload)


def resigned(payload: bytes) -> tuple[str, str]:
    return "0x" + payload.hex(), sign_attestation(payload)


def refused(
    attestation: str, signature: str, intents: list[BurnIntent]
) -> errors.UnsafePayloadError:
    """The `errors.UnsafePayloadError` a payer's mint of ``intents`` on Solana raises."""
    with pytest.raises(errors.UnsafePayloadError) as info:
        gateway_mint_call(
            chain_id=SOLANA,
            attestation=attestation,
            signature=signature,
            intents=intents,
            payer=PAYER,
        )
    return info.value


def pda(*seeds: bytes) -> str:
    minter = Pubkey.from_string(MAINNET.gateway_minter)
    return str(Pubkey.find_program_address(list(seeds), minter)[0])


def metas(instruction: Any) -> list[tuple[str, bool, bool]]:
    return [(str(m.pubkey), m.is_signer, m.is_writable) for m in instruction.accounts]


# ------------------------------------------------------------------------------ the mint


def test_the_mint_instruction_has_circles_accounts_and_data() -> None:
    intents = [to_solana(1_000_000, salt=1), to_solana(2_000_000, salt=2)]
    attestation, signature = attested(intents)
    made = gateway_mint_call(
        chain_id=SOLANA, attestation=attestation, signature=signature, intents=intents, payer=PAYER
    )
    assert str(made.program_id) == MAINNET.gateway_minter
    payload, signed = bytes.fromhex(attestation[2:]), bytes.fromhex(signature[2:])
    assert bytes(made.data) == (
        bytes([12, 0])
        + len(payload).to_bytes(4, "little")
        + payload
        + len(signed).to_bytes(4, "little")
        + signed
    )
    fixed = [
        (PAYER, True, True),
        (PAYER, True, False),  # the destination caller: the payer, listed twice
        (MINTER_STATE, False, False),
        ("11111111111111111111111111111111", False, False),
        (TOKEN_PROGRAM, False, False),
        (MINTER_EVENTS, False, False),
        (MAINNET.gateway_minter, False, False),
    ]
    per_element = []
    for intent in intents:
        spec_hash = bytes.fromhex(transfer_spec_hash(intent.spec)[2:])
        per_element += [
            (MINTER_USDC_CUSTODY, False, True),
            (OWNER_ATA, False, True),
            (pda(b"used_transfer_spec_hash", spec_hash), False, True),
        ]
    assert metas(made) == fixed + per_element
    assert pda(b"gateway_minter") == MINTER_STATE  # spec §1, derived here again


def test_transfer_result_mints_on_solana_with_a_payer() -> None:
    intents = [to_solana(1_000_000)]
    attestation, signature = attested(intents)
    result = TransferResult.model_validate(
        {"transferId": "3c90c3cc-0d44-4b50-8888-8dd25736052a", "attestation": attestation,
         "signature": signature}
    ).with_intents(intents)  # fmt: skip
    caller = str(Keypair.from_seed(bytes([7] * 32)).pubkey())
    made = result.mint_call(SOLANA, payer=Pubkey.from_string(PAYER), destination_caller=caller)
    assert metas(made)[:2] == [(PAYER, True, True), (caller, True, False)]
    with pytest.raises(errors.InvalidInputError) as info:
        result.mint_call(SOLANA)
    assert info.value.argument == "payer"
    with pytest.raises(errors.InvalidInputError) as info:
        result.mint_call(SOLANA, destination_caller=caller)  # type: ignore[call-overload]
    assert info.value.argument == "payer"


def test_a_named_destination_caller_must_sign_the_mint() -> None:
    caller = Keypair.from_seed(bytes([9] * 32)).pubkey()
    intents = [to_solana(1_000_000, caller=str(caller))]
    attestation, signature = attested(intents)
    arguments: dict[str, Any] = {
        "chain_id": SOLANA,
        "attestation": attestation,
        "signature": signature,
        "intents": intents,
        "payer": PAYER,
    }
    with pytest.raises(errors.InvalidInputError) as info:
        gateway_mint_call(**arguments)
    assert info.value.argument == "destination_caller"
    made = gateway_mint_call(**arguments, destination_caller=str(caller))
    assert metas(made)[1] == (str(caller), True, False)
    decoded = decode_solana_attestation(attestation)
    assert decoded.destination_caller == str(caller)


def test_the_attestation_decodes_as_the_program_reads_it() -> None:
    intents = [to_solana(1_000_000, salt=1), to_solana(3_000_000, salt=2)]
    attestation, _ = attested(intents)
    decoded = decode_solana_attestation(attestation)
    assert (decoded.version, decoded.destination_domain, decoded.max_block_height) == (1, 5, SLOT)
    assert decoded.destination_contract == MAINNET.gateway_minter
    assert decoded.destination_caller == "11111111111111111111111111111111"
    assert [(e.destination_token, e.destination_recipient, e.value) for e in decoded.elements] == [
        (MAINNET.usdc, OWNER_ATA, 1_000_000),
        (MAINNET.usdc, OWNER_ATA, 3_000_000),
    ]
    assert [e.transfer_spec_hash for e in decoded.elements] == [
        transfer_spec_hash(intent.spec) for intent in intents
    ]


# ------------------------------------------------------------------------------ tampers

THIEF = "0x" + bytes(Keypair.from_seed(bytes([6] * 32)).pubkey()).hex()


def _header(payload: bytes, offset: int, value: bytes) -> bytes:
    return payload[:offset] + value + payload[offset + len(value) :]


HEADER_TAMPERS = {
    # name: (field named in the error, how the payload is changed)
    "magic": ("attestation", lambda p: _header(p, 0, bytes.fromhex("ff6fb334"))),
    "version": ("attestation.version", lambda p: _header(p, 4, (2).to_bytes(4, "big"))),
    "domain": ("attestation.destinationDomain", lambda p: _header(p, 8, (6).to_bytes(4, "big"))),
    "minter": (
        "attestation.destinationContract",
        lambda p: _header(p, 12, bytes(Pubkey.from_string(MAINNET.gateway_wallet))),
    ),
    "caller": ("attestation.destinationCaller", lambda p: _header(p, 44, b"\x05" * 32)),
    "count": ("attestation", lambda p: _header(p, 84, (2).to_bytes(4, "big"))),
    "empty": ("attestation", lambda p: _header(p, 84, (0).to_bytes(4, "big"))),
    "trailing": ("attestation", lambda p: p + b"\x00"),
    "short": ("attestation", lambda p: p[:-1]),
}
ELEMENT_TAMPERS = {
    # wire name changed in every attested spec: the field named in the error
    "destinationToken": ("0x" + "11" * 32, "attestation.elements[0].transferSpecHash"),
    "destinationRecipient": (THIEF, "attestation.elements[0].transferSpecHash"),
    "value": (9_000_000, "attestation.elements[0].transferSpecHash"),
    "salt": ("0x" + "22" * 32, "attestation.elements[0].transferSpecHash"),
    "hookData": ("0xdead", "attestation.elements[0].transferSpecHash"),
}


@pytest.mark.parametrize("name", sorted(HEADER_TAMPERS))
def test_a_tampered_attestation_header_is_refused(name: str) -> None:
    intents = [to_solana(1_000_000)]
    honest, _ = attested(intents)
    field, change = HEADER_TAMPERS[name]
    attestation, signature = resigned(change(bytes.fromhex(honest[2:])))
    refusal = refused(attestation, signature, intents)
    assert refusal.field == field


@pytest.mark.parametrize("name", sorted(ELEMENT_TAMPERS))
def test_a_tampered_attestation_element_is_refused(name: str) -> None:
    intents = [to_solana(1_000_000)]
    value, field = ELEMENT_TAMPERS[name]
    attestation, signature = attested(intents, **{name: value})
    refusal = refused(attestation, signature, intents)
    assert refusal.field == field


def test_an_element_whose_hash_is_kept_but_whose_payment_changed_is_refused() -> None:
    # The attester could keep a spec's hash and change what the element pays: the SDK
    # compares the element with the intent of that hash, field by field.
    intents = [to_solana(1_000_000)]
    honest, _ = attested(intents)
    payload = bytes.fromhex(honest[2:])
    for offset, value, field in (
        (88, b"\x11" * 32, "destinationToken"),
        (88 + 32, bytes.fromhex(THIEF[2:]), "destinationRecipient"),
        (88 + 64, (9_000_000).to_bytes(8, "big"), "value"),
        (88 + 104, (2).to_bytes(4, "big") + b"\xde\xad", "hookData"),
    ):
        attestation, signature = resigned(_header(payload, offset, value))
        refusal = refused(attestation, signature, intents)
        assert refusal.field == f"attestation.elements[0].{field}"


HIGH_S = f"{0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364140:064x}"


@pytest.mark.parametrize(
    ("signature", "received"),
    [
        (lambda s: s[:-2], "64 bytes"),
        (lambda s: s[:-2] + "00", "v = 0"),
        (lambda s: s[:66] + HIGH_S + s[-2:], "a high s"),
    ],
)
def test_a_signature_the_program_would_refuse_is_refused(signature: Any, received: str) -> None:
    intents = [to_solana(1_000_000)]
    attestation, honest = attested(intents)
    refusal = refused(attestation, signature(honest), intents)
    assert refusal.field == "signature"
    assert received in str(refusal)


def test_mints_of_other_intents_or_on_another_chain_are_refused() -> None:
    mine, other = to_solana(1_000_000, salt=1), to_solana(1_000_000, salt=2)
    attestation, signature = attested([other])
    with pytest.raises(errors.UnsafePayloadError):
        gateway_mint_call(
            chain_id=SOLANA, attestation=attestation, signature=signature, intents=[mine],
            payer=PAYER,
        )  # fmt: skip
    with pytest.raises(errors.UnsafePayloadError) as unsafe:  # mainnet's minter, not devnet's
        gateway_mint_call(
            chain_id=SOLANA_DEVNET, attestation=attestation, signature=signature, intents=[other],
            payer=PAYER,
        )  # fmt: skip
    assert unsafe.value.field == "attestation.destinationContract"
    with pytest.raises(errors.InvalidInputError) as info:
        gateway_mint_call(  # type: ignore[call-overload]
            chain_id=8453, attestation=attestation, signature=signature, intents=[other],
        )  # fmt: skip
    assert info.value.argument == "intents[0].spec.destination_domain"
    with pytest.raises(errors.InvalidInputError) as info:
        gateway_mint_call(  # type: ignore[call-overload]
            chain_id=8453, attestation=attestation, signature=signature, intents=[other],
            payer=PAYER,
        )  # fmt: skip
    assert info.value.argument == "payer"


def test_intents_naming_two_callers_cannot_share_an_attestation() -> None:
    intents = [to_solana(1_000_000, salt=1), to_solana(1_000_000, salt=2, caller=PAYER)]
    attestation, signature = attested(intents[:1])
    with pytest.raises(errors.InvalidInputError, match="one destinationCaller"):
        gateway_mint_call(
            chain_id=SOLANA, attestation=attestation, signature=signature, intents=intents,
            payer=PAYER,
        )  # fmt: skip


# ------------------------------------------------------------------------------ accounts


def test_the_usdc_token_account_of_an_owner_and_of_no_owner() -> None:
    assert usdc_token_account(OWNER) == OWNER_ATA
    assert usdc_token_account(Pubkey.from_string(OWNER)) == OWNER_ATA
    devnet = usdc_token_account(OWNER, chain_id=SOLANA_DEVNET)
    assert devnet != OWNER_ATA
    for off_curve in (OWNER_ATA, MINTER_STATE):  # a token account, a PDA: no wallet
        with pytest.raises(errors.InvalidInputError, match="off the curve"):
            usdc_token_account(off_curve)
    with pytest.raises(errors.InvalidInputError):
        usdc_token_account("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
    with pytest.raises(errors.InvalidInputError) as info:
        usdc_token_account(OWNER, chain_id=8453)
    assert info.value.argument == "chain_id"


def test_creating_the_token_account_first() -> None:
    made = create_usdc_token_account_instruction(owner=OWNER, payer=PAYER)
    assert str(made.program_id) == "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"
    assert bytes(made.data) == b"\x01"  # CreateIdempotent
    assert metas(made) == [
        (PAYER, True, True),
        (OWNER_ATA, False, True),
        (OWNER, False, False),
        (MAINNET.usdc, False, False),
        ("11111111111111111111111111111111", False, False),
        (TOKEN_PROGRAM, False, False),
    ]


def test_a_deposit_with_another_payer_account_and_network() -> None:
    made = solana_deposit_instruction(
        owner=TEST_SOLANA_ADDRESS,
        amount=1,
        chain_id=SOLANA_DEVNET,
        payer=PAYER,
        owner_token_account=OWNER_ATA,
    )
    devnet = DEFAULT_REGISTRY.chain(SOLANA_DEVNET)
    assert str(made.program_id) == devnet.gateway_wallet
    accounts = metas(made)
    assert accounts[0] == (PAYER, True, True)
    assert accounts[1] == (TEST_SOLANA_ADDRESS, True, False)
    assert accounts[3] == (OWNER_ATA, False, True)
    assert accounts[-1] == (devnet.gateway_wallet, False, False)
    for amount in (0, 2**64, True, "1"):
        with pytest.raises(errors.InvalidInputError) as info:
            solana_deposit_instruction(owner=TEST_SOLANA_ADDRESS, amount=amount)  # type: ignore[arg-type]
        assert info.value.argument == "amount"


# ------------------------------------------------------------------------------ the extra


BUILT_WITH_THE_EXTRA = to_solana(1_000_000, salt=77)


@pytest.fixture
def no_solders(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "solders" or m.startswith("solders.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "solders", None)


@pytest.mark.usefixtures("no_solders")
def test_without_the_extra_solana_instructions_name_it() -> None:
    intents = [BUILT_WITH_THE_EXTRA]
    attestation, signature = attested(intents)
    for call in (
        lambda: usdc_token_account(OWNER),
        lambda: solana_deposit_instruction(owner=OWNER, amount=1),
        lambda: gateway_mint_call(
            chain_id=SOLANA, attestation=attestation, signature=signature, intents=intents,
            payer=PAYER,
        ),
        lambda: build_transfer_intent(
            source_chain_id=8453, destination_chain_id=SOLANA, depositor=TEST_SIGNER.address,
            recipient=OWNER, value=1,
        ),
    ):  # fmt: skip
        with pytest.raises(errors.MissingDependencyError) as info:
            call()
        assert 'pip install ".[solana]"' in str(info.value)


@pytest.mark.usefixtures("no_solders")
def test_without_the_extra_a_solana_key_still_signs_to_base() -> None:
    intent = build_transfer_intent(
        source_chain_id=SOLANA,
        destination_chain_id=8453,
        depositor=TEST_SOLANA_ADDRESS,
        recipient=TEST_SIGNER.address,
        value=1_000_000,
    )
    signed = sign_burn_intent(intent, TEST_SOLANA_SIGNER)
    assert signed.scheme == "ed25519"
    assert "solders.keypair" not in sys.modules or sys.modules["solders.keypair"] is None


def test_the_attester_signature_is_eip191_over_the_payload() -> None:
    # What the program's recover_evm_signer reads: the sandbox's attester signed it.
    intents = [to_solana(1_000_000)]
    attestation, signature = attested(intents)
    from eth_account.messages import encode_defunct

    from xswap_sdk.sandbox._attestation import ATTESTER

    digest = keccak(bytes.fromhex(attestation[2:]))
    recovered = Account.recover_message(encode_defunct(primitive=digest), signature=signature)
    assert recovered == ATTESTER.address
