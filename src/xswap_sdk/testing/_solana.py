"""A Solana signer for tests and examples, from a published seed: Ed25519 by the
``cryptography`` package (a dependency of the SDK), so it needs no ``solana`` extra."""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from .._base58 import encode

__all__ = ["SeedSigner"]


class SeedSigner:
    """A `xswap_sdk.signing.SolanaSigner` from a 32-byte Ed25519 seed (what a solders
    ``Keypair.from_seed`` holds): ``pubkey()`` is the base58 public key,
    ``sign_message`` plain Ed25519. For tests and examples: the SDK has no key store.

    Args:
        seed: the 32-byte seed.
    """

    def __init__(self, seed: bytes) -> None:
        self._key = Ed25519PrivateKey.from_private_bytes(seed)
        raw = self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self._public = encode(raw)

    def pubkey(self) -> str:
        """The public key, base58."""
        return self._public

    def sign_message(self, message: bytes, /) -> bytes:
        """The 64-byte Ed25519 signature of ``message``."""
        return self._key.sign(bytes(message))

    def __repr__(self) -> str:
        return f"SeedSigner({self._public})"
