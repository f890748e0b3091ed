"""Field types shared by the signing models (unsigned integers, bytes32 addresses), the
address check every signed or sent payment runs against its pinned contracts, and the
one conversion between an address and its bytes32 word, for both families Gateway
serves: an EVM address is left-padded with 12 zero bytes, a Solana key is its 32 raw
bytes (base58-decoded, neither padded nor hashed)."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BeforeValidator, PlainSerializer

from .._base58 import encode, solana_key_bytes
from ..errors import UnsafePayloadError
from ..types import _same_address, _uint_parser, to_checksum

__all__ = [
    "GATEWAY_BATCHED_DOMAIN_NAME",
    "MAX_UINT64",
    "AddressOrBytes32",
    "Uint32",
    "Uint256",
    "pad_address",
    "read_word",
    "require_addresses",
    "to_word",
]

GATEWAY_BATCHED_DOMAIN_NAME = "GatewayWalletBatched"
"""The ``name`` of the EIP-712 domain of Circle Gateway's batched payments (x402 and
``POST /v1/batch/submit``), whose verifying contract is the chain's GatewayWallet."""

MAX_UINT64 = 2**64 - 1
"""The largest u64: Solana's programs read a burn intent's ``maxBlockHeight``,
``maxFee`` and ``value`` as u64 (a uint256 whose high 24 bytes must be zero)."""

_BYTES32 = re.compile(r"0x[0-9a-fA-F]{64}")


Uint32 = Annotated[int, BeforeValidator(_uint_parser(32))]
"""A uint32 (domains, versions): an int, or a decimal string; kept and sent as an int."""

Uint256 = Annotated[
    int, BeforeValidator(_uint_parser(256)), PlainSerializer(str, return_type=str, when_used="json")
]
"""A uint256: an int, or a decimal string; kept as an int, sent as a decimal string."""


def require_addresses(*checks: tuple[str, str, str], hint: str | None = None) -> None:
    """Refuse the first ``(field, received, expected)`` whose two addresses differ (case
    aside: both are validated addresses) with an `UnsafePayloadError` naming the field."""
    for field, received, expected in checks:
        if not _same_address(received, expected):
            raise UnsafePayloadError(field, expected=expected, received=received, hint=hint)


def pad_address(address: str) -> str:
    """An already validated address as bytes32: lowercase, left-padded with zeros."""
    return "0x" + "0" * 24 + address[2:].lower()


def _address_or_bytes32(value: object) -> str:
    if isinstance(value, str) and _BYTES32.fullmatch(value):
        return value.lower()
    return pad_address(to_checksum(value))


AddressOrBytes32 = Annotated[str, BeforeValidator(_address_or_bytes32)]
"""A 20-byte address, stored left-padded to bytes32; 32 bytes given as such are kept, so
a non-EVM recipient (a Solana account) can be named too."""


def to_word(family: str, address: str) -> str:
    """An address of ``family`` (``"evm"``: checksummed or lowercase hex; ``"solana"``:
    base58) as the bytes32 word a transfer spec holds, lowercase ``0x`` hex.

    Raises:
        ValueError: not an address of that family.
    """
    if family == "solana":
        return "0x" + solana_key_bytes(address).hex()
    return pad_address(to_checksum(address))


def read_word(family: str | None, word: object) -> str | None:
    """A bytes32 word read back as an address: base58 on Solana; on EVM (or when the
    family is not known, ``None``) the checksummed address its last 20 bytes hold when
    its first 12 are zero. ``None`` when it cannot be read so."""
    if not isinstance(word, str) or _BYTES32.fullmatch(word) is None:
        return None
    if family == "solana":
        return encode(bytes.fromhex(word[2:]))
    if word[2:26].strip("0") != "":
        return None
    return to_checksum("0x" + word[26:])
