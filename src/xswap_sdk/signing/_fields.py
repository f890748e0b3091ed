"""Field types shared by the signing models (unsigned integers, bytes32 addresses), and
the address check every signed or sent payment runs against its pinned contracts."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import BeforeValidator, PlainSerializer

from ..errors import UnsafePayloadError
from ..types import _uint_parser, to_checksum

__all__ = ["AddressOrBytes32", "Uint32", "Uint256", "pad_address", "require_addresses"]

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
        if received.lower() != expected.lower():
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
