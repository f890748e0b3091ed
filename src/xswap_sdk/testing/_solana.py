"""A Solana signer for tests and examples, from a published seed: Ed25519 by
pycryptodome (a dependency of the SDK), so it needs no ``solana`` extra."""

from __future__ import annotations

from Crypto.PublicKey import ECC
from Crypto.Signature import eddsa

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
        self._key = eddsa.import_private_key(bytes(seed))
        key: ECC.EccKey = self._key
        self._public = encode(key.public_key().export_key(format="raw"))

    def pubkey(self) -> str:
        """The public key, base58."""
        return self._public

    def sign_message(self, message: bytes, /) -> bytes:
        """The 64-byte Ed25519 signature of ``message``."""
        signature: bytes = eddsa.new(self._key, "rfc8032").sign(bytes(message))
        return signature

    def __repr__(self) -> str:
        return f"SeedSigner({self._public})"
