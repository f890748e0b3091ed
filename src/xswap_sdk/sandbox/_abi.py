"""ABI encoding of static arguments, enough for the sandbox's made-up calldata.

The emulated services only pack ``bytes32``, ``address`` and ``uint256`` values, each one
32-byte word. Writing that out spares the sandbox ``eth_abi``, which parses its type
grammar on import (about 0.1 s for every program that starts a sandbox).
"""

from __future__ import annotations

__all__ = ["abi_words"]


def abi_words(*values: bytes | str | int) -> bytes:
    """The ABI encoding of static arguments: 32 bytes (``bytes32``), a 0x address
    (``address``, left-padded) or a non-negative int (``uint256``), one word each."""
    words = []
    for value in values:
        if isinstance(value, bytes):
            if len(value) != 32:
                raise ValueError("a bytes32 argument must be exactly 32 bytes")
            words.append(value)
        elif isinstance(value, str):
            words.append(bytes.fromhex(value.removeprefix("0x")).rjust(32, b"\0"))
        else:
            words.append(value.to_bytes(32, "big"))
    return b"".join(words)
