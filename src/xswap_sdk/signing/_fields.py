"""Field types shared by the signing models: unsigned integers and bytes32 addresses."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BeforeValidator, PlainSerializer

from xswap_sdk.types import to_checksum

__all__ = ["AddressOrBytes32", "Uint32", "Uint256", "pad_address"]

_DIGITS = re.compile(r"[0-9]+")
_BYTES32 = re.compile(r"0x[0-9a-fA-F]{64}")


def _uint(bits: int) -> BeforeValidator:
    top = 2**bits - 1

    def check(value: object) -> int:
        # bool is an int subclass and a float is inexact: neither is an EVM integer.
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError(f"must be an int or a decimal string (uint{bits}; floats are refused)")
        if isinstance(value, str):
            if _DIGITS.fullmatch(value) is None:
                raise ValueError(f"must be a non-negative base-10 integer (uint{bits})")
            value = int(value)
        if not 0 <= value <= top:
            raise ValueError(f"must be between 0 and 2**{bits} - 1 (uint{bits})")
        return value

    return BeforeValidator(check)


Uint32 = Annotated[int, _uint(32)]
"""A uint32 (domains, versions): an int, or a decimal string; kept and sent as an int."""

Uint256 = Annotated[int, _uint(256), PlainSerializer(str, return_type=str, when_used="json")]
"""A uint256: an int, or a decimal string; kept as an int, sent as a decimal string."""


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
