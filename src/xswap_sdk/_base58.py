"""Base58 (the Bitcoin alphabet), the way Solana writes its 32-byte keys.

Pure Python and small on purpose: the base install reads and writes Solana addresses
(a depositor, a program id in the registry, a balance entry) without the ``solana``
extra. Building Solana instructions and deriving token accounts is another matter and
needs ``solders`` (`xswap_sdk.signing.solana_programs`).
"""

from __future__ import annotations

from typing import Final

__all__ = ["decode", "encode", "fold", "is_solana_key", "solana_key_bytes"]

ALPHABET: Final = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_INDEX: Final = {char: index for index, char in enumerate(ALPHABET)}
KEY_BYTES: Final = 32
"""A Solana public key (an account, a program id, a mint) is 32 bytes."""


def decode(text: str) -> bytes | None:
    """The bytes ``text`` encodes, or ``None`` when it holds a character outside the
    alphabet (``0``, ``O``, ``I``, ``l``, anything not alphanumeric)."""
    number = 0
    for char in text:
        digit = _INDEX.get(char)
        if digit is None:
            return None
        number = number * 58 + digit
    body = number.to_bytes((number.bit_length() + 7) // 8, "big") if number else b""
    # Each leading "1" is a leading zero byte.
    zeros = len(text) - len(text.lstrip("1"))
    return b"\x00" * zeros + body


def encode(data: bytes) -> str:
    """``data`` in base58: the one text of those bytes (so two keys are equal exactly
    when their texts are)."""
    number = int.from_bytes(data, "big")
    digits = []
    while number:
        number, digit = divmod(number, 58)
        digits.append(ALPHABET[digit])
    zeros = len(data) - len(data.lstrip(b"\x00"))
    return "1" * zeros + "".join(reversed(digits))


def solana_key_bytes(value: object) -> bytes:
    """The 32 bytes of a Solana key written in base58 (32 bytes take 32 to 44
    characters; the length check bounds the work).

    Raises:
        ValueError: not a base58 string of exactly 32 bytes.
    """
    if not isinstance(value, str):
        raise ValueError("must be a base58 Solana address of 32 bytes")
    if not 32 <= len(value) <= 44:
        raise ValueError(f"it has {len(value)} characters, and a key is 32 to 44")
    decoded = decode(value)
    if decoded is None:
        raise ValueError("it is not base58, which has no 0, O, I or l")
    if len(decoded) != KEY_BYTES:
        raise ValueError(f"it decodes to {len(decoded)} bytes, not 32")
    return decoded


def is_solana_key(value: object) -> bool:
    """Whether ``value`` is a base58 Solana key of 32 bytes."""
    try:
        solana_key_bytes(value)
    except ValueError:
        return False
    return True


def fold(name: str) -> str:
    """The form an address (or a name beside addresses) is compared in: lower case (EVM
    addresses, hosts, ``USDC``), but a Solana base58 key as it is, since its case is
    part of it."""
    return name if is_solana_key(name) else name.lower()
