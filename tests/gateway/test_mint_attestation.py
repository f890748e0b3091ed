"""``gatewayMint`` is built only for an attestation of exactly the transfer signed.

Attestations here are written by the sandbox's encoder (eth-abi's packed encoding of
Circle's layout, signed by eth-account), not by the SDK, so the SDK's decoder is checked
against an independent one; and against the Circle contract's own test layout (offsets
of ``Attestations.sol`` / ``TransferSpec.sol``).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xswap_sdk import errors
from xswap_sdk.gateway import TransferResult
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox._attestation import encode_attestation, sign_attestation
from xswap_sdk.signing import gateway_mint_call, sign_burn_intent, sign_burn_intent_set
from xswap_sdk.signing.attestations import decode_attestation
from xswap_sdk.testing import TEST_SIGNER as ACCOUNT

from .support import transfer_intent

ME = ACCOUNT.address
ATTACKER = "0x" + "66" * 20
ARBITRUM = DEFAULT_REGISTRY.chain(42161)


intent = transfer_intent


def attest(*intents: Any, height: int = 10**6, **changes: Any) -> tuple[str, str]:
    """An attestation of ``intents`` (their specs changed by ``changes``) and its
    signature, as the sandbox's Gateway writes them."""
    payload = encode_attestation([(height, {**i.spec.to_wire(), **changes}) for i in intents])
    return "0x" + payload.hex(), sign_attestation(payload)


def mint(attestation: str, signature: str, intents: Any, chain_id: int = 42161) -> Any:
    return gateway_mint_call(
        chain_id=chain_id, attestation=attestation, signature=signature, intents=intents
    )


def test_the_decoder_reads_what_the_independent_encoder_wrote() -> None:
    own = intent(hook_data="0xdeadbeef")
    attestation, _ = attest(own, height=777)
    [decoded] = decode_attestation(attestation)
    assert decoded.max_block_height == 777
    assert decoded.spec == own.spec
    several = [intent(1), intent(2, source_chain_id=1), intent(3)]
    assert [a.spec for a in decode_attestation(attest(*several)[0])] == [i.spec for i in several]


def test_circles_offsets() -> None:
    # Attestations.sol: magic 0..4, maxBlockHeight 4..36, spec length 36..40, spec 40..
    # TransferSpec.sol: value at 272, salt at 304, hookData length at 336, hookData 340..
    own = intent(value=123, hook_data="0xabcd")
    data = bytes.fromhex(attest(own, height=9)[0][2:])
    assert data[:4].hex() == "ff6fb334"
    assert int.from_bytes(data[4:36], "big") == 9
    spec = data[40:]
    assert int.from_bytes(data[36:40], "big") == len(spec) == 342
    assert spec[:4].hex() == "ca85def7"
    assert int.from_bytes(spec[272:304], "big") == 123
    assert spec[336:340] == (2).to_bytes(4, "big")
    assert spec[340:] == bytes.fromhex("abcd")


def test_the_honest_attestation_is_minted() -> None:
    signed = sign_burn_intent(intent(), ACCOUNT)
    attestation, signature = attest(signed.intent)
    for expected in (signed, signed.intent, [signed], [signed.intent.to_wire()]):
        call = mint(attestation, signature, expected)
        assert call.to == ARBITRUM.gateway_minter
        assert call.data.startswith("0x9fb01cc5")
    several = [intent(1), intent(2, source_chain_id=1)]
    a_set = sign_burn_intent_set(several, ACCOUNT)
    attestation, signature = attest(*reversed(several))  # any order
    assert mint(attestation, signature, a_set).chain_id == 42161


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"destinationRecipient": ATTACKER}, "destinationRecipient"),
        ({"value": 4_000_000_000}, "value"),
        ({"destinationToken": ATTACKER}, "destinationToken"),
        ({"destinationContract": ATTACKER}, "destinationContract"),
        ({"destinationCaller": ATTACKER}, "destinationCaller"),
        ({"hookData": "0x01"}, "hookData"),
        ({"salt": "0x" + "77" * 32}, "salt"),
    ],
)
def test_an_attestation_of_another_transfer_is_refused(change: dict[str, Any], field: str) -> None:
    signed = sign_burn_intent(intent(), ACCOUNT)
    attestation, signature = attest(signed.intent, **change)
    with pytest.raises(errors.UnsafePayloadError) as info:
        mint(attestation, signature, signed)
    assert info.value.field == f"attestation[0].spec.{field}"


def test_another_chain_a_missing_intent_or_an_extra_one_is_refused() -> None:
    own, other = intent(), intent(7)
    # 4,000 USDC to another address on another chain, for a 5 USDC transfer to oneself.
    attestation, signature = attest(
        own, destinationDomain=0, destinationRecipient=ATTACKER, value=4_000_000_000
    )
    with pytest.raises(errors.UnsafePayloadError) as info:
        mint(attestation, signature, own)
    assert info.value.field == "attestation[0].spec.destinationDomain"
    with pytest.raises(errors.UnsafePayloadError) as extra:
        mint(*attest(own, other), own)
    assert extra.value.field == "attestation"
    with pytest.raises(errors.UnsafePayloadError):
        mint(*attest(own), [own, other])
    with pytest.raises(errors.InvalidInputError) as wrong_chain:
        mint(*attest(own), own, chain_id=8453)
    assert wrong_chain.value.argument == "intents[0].spec.destination_domain"


@pytest.mark.parametrize("size", [0, 64, 66, 130])
def test_a_signature_gateway_mint_would_refuse_is_refused(size: int) -> None:
    own = intent()
    attestation, signature = attest(own)
    raw = bytes.fromhex(signature[2:])
    with pytest.raises((errors.UnsafePayloadError, errors.InvalidInputError)) as info:
        mint(attestation, "0x" + (raw + bytes(size))[:size].hex(), own)
    assert "signature" in str(info.value)
    for bad in (raw[:64] + b"\x01", raw[:32] + (2**256 - 1).to_bytes(32, "big") + raw[64:]):
        with pytest.raises(errors.UnsafePayloadError) as refused:
            mint(attestation, "0x" + bad.hex(), own)
        assert refused.value.field == "signature"
        assert bad.hex() not in str(refused.value)


@pytest.mark.parametrize(
    "payload",
    ["0xff6fb334", "0x1e12db7100000000", "0x" + "aa" * 40],
)
def test_bytes_that_are_not_an_attestation_are_refused(payload: str) -> None:
    own = intent()
    _, signature = attest(own)
    with pytest.raises(errors.UnsafePayloadError) as info:
        mint(payload, signature, own)
    assert info.value.field == "attestation"


def test_trailing_bytes_are_refused() -> None:
    own = intent()
    attestation, signature = attest(own)
    with pytest.raises(errors.UnsafePayloadError):
        mint(attestation + "00", signature, own)


def test_the_expected_transfer_is_required() -> None:
    own = intent()
    attestation, signature = attest(own)
    with pytest.raises(TypeError):
        gateway_mint_call(chain_id=42161, attestation=attestation, signature=signature)  # type: ignore[call-arg]
    result = TransferResult.model_validate(
        {"transferId": "t", "attestation": attestation, "signature": signature}
    )
    with pytest.raises(errors.InvalidInputError) as info:
        result.mint_call(42161)
    assert info.value.argument == "intents"
    assert result.mint_call(42161, intents=own).to == ARBITRUM.gateway_minter
    assert result.with_intents(own).mint_call(42161).to == ARBITRUM.gateway_minter


@given(
    field=st.sampled_from(["destinationRecipient", "value", "destinationToken", "sourceDepositor"]),
    word=st.integers(min_value=1, max_value=2**160 - 1),
)
def test_any_change_to_a_party_or_amount_is_refused(field: str, word: int) -> None:
    own = intent()
    original = own.spec.to_wire()[field]
    changed: Any = word if field == "value" else "0x" + f"{word:064x}"
    if str(changed) == str(original):
        return
    attestation, signature = attest(own, **{field: changed})
    with pytest.raises(errors.UnsafePayloadError):
        mint(attestation, signature, own)
