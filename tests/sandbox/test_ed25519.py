"""The sandbox's own Ed25519 verification (RFC 8032 written out): it agrees with
pycryptodome's on signatures that verify, and refuses any changed byte."""

from __future__ import annotations

import hypothesis.strategies as st
from Crypto.PublicKey import ECC
from Crypto.Signature import eddsa
from hypothesis import given, settings

from xswap_sdk.sandbox._ed25519 import verify

# RFC 8032, section 7.1, TEST 2: a one-byte message.
RFC_PUBLIC = bytes.fromhex("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c")
RFC_SIGNATURE = bytes.fromhex(
    "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
    "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
)


def test_the_rfc_vector_verifies_and_a_changed_one_does_not() -> None:
    assert verify(RFC_PUBLIC, b"\x72", RFC_SIGNATURE)
    assert not verify(RFC_PUBLIC, b"\x73", RFC_SIGNATURE)
    assert not verify(RFC_PUBLIC, b"\x72", RFC_SIGNATURE[:-1] + b"\x01")
    assert not verify(RFC_PUBLIC[:31], b"\x72", RFC_SIGNATURE)


@settings(max_examples=25, deadline=None)
@given(st.binary(max_size=500), st.integers(min_value=0, max_value=63))
def test_it_agrees_with_pycryptodome(message: bytes, flipped: int) -> None:
    key = ECC.generate(curve="ed25519")
    public = key.public_key().export_key(format="raw")
    signature = eddsa.new(key, "rfc8032").sign(message)
    assert verify(public, message, signature)
    changed = bytearray(signature)
    changed[flipped] ^= 0x01
    assert not verify(public, message, bytes(changed))
