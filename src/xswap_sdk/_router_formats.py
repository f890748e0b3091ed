"""What a swap router is told to do with the USDC it receives, read from its bytes.

A Flash quote carries two opaque byte strings for the router on the destination chain:
``hook_data``, which every burn intent signs, and ``swap_calldata``, which ``POST
/swap`` sends beside the signature. Their layout belongs to the router, so the SDK can
read them only for a router whose format it knows. A *router format* is a decoder
registered under an id (`xswap_sdk.registry.Registry.router_formats`); a pinned router
(`xswap_sdk.registry.SwapRouter`) names the id of its format. The decoder turns the
bytes into `RouterTerms`, and the swap is checked against what the caller asked: who
receives the output, which token, and at least how much.

One format is known: `SANDBOX_ROUTER_FORMAT`, the sandbox's router, with a simple,
documented ABI layout (see `decode_sandbox_router`). No live router's format is
published (see the registry's docstring).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from ._keccak import keccak
from ._record import Frozen
from .types import to_checksum

__all__ = [
    "SANDBOX_ROUTER_FORMAT",
    "SANDBOX_SWAP_SELECTOR",
    "RouterDecoder",
    "RouterTerms",
    "decode_sandbox_router",
    "encode_sandbox_router",
]

SANDBOX_ROUTER_FORMAT: Final = "xswap-sandbox-v1"
"""The id of the sandbox router's format (see `decode_sandbox_router`)."""

SANDBOX_SWAP_SELECTOR: Final = keccak(b"swap(bytes32,address,uint256,uint256,address)")[:4]
"""The selector of the sandbox router's ``swap(bytes32 quoteId, address tokenOut,
uint256 amountIn, uint256 minAmountOut, address recipient)``."""

_WORD = 32


@dataclass(init=False, repr=False, eq=False, slots=True)
class RouterTerms(Frozen):
    """What one of the router's byte strings says it will do with the output.

    A term the bytes do not carry is ``None``; between them, the parts a decoder returns
    must carry the recipient, the output token and the minimum output, or the format
    is refused as one that does not bind them.

    Attributes:
        field: where the terms were read, ``"quote.hook_data"`` or ``"quote.swap_calldata"``.
        recipient: who receives the output (checksummed).
        token_out: the output token (checksummed).
        min_amount_out: the least output the router accepts, in the token's smallest units.
        amount_in: the USDC the router swaps, in smallest units.
    """

    field: str
    recipient: str | None = None
    token_out: str | None = None
    min_amount_out: int | None = None
    amount_in: int | None = None

    def __init__(
        self,
        field: str,
        recipient: str | None = None,
        token_out: str | None = None,
        min_amount_out: int | None = None,
        amount_in: int | None = None,
    ) -> None:
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "recipient", recipient)
        object.__setattr__(self, "token_out", token_out)
        object.__setattr__(self, "min_amount_out", min_amount_out)
        object.__setattr__(self, "amount_in", amount_in)


RouterDecoder = Callable[[str, str], Sequence[RouterTerms]]
"""A router format's decoder: ``(hook_data, swap_calldata)`` (``0x`` hex) to the terms
each carries. It raises `ValueError` for bytes that are not in its format."""


def _bytes(field: str, text: str) -> bytes:
    if not isinstance(text, str) or not text.startswith(("0x", "0X")):
        raise ValueError(f"{field} is not 0x-prefixed hex")
    try:
        return bytes.fromhex(text[2:])
    except ValueError:
        raise ValueError(f"{field} is not hex") from None


def _words(field: str, data: bytes, count: int) -> list[bytes]:
    if len(data) != count * _WORD:
        raise ValueError(f"{field} must be exactly {count} ABI words ({count * _WORD} bytes)")
    return [data[i * _WORD : (i + 1) * _WORD] for i in range(count)]


def _address(field: str, word: bytes) -> str:
    if any(word[:12]):
        raise ValueError(f"{field}: an address word must have 12 zero bytes first")
    return to_checksum("0x" + word[12:].hex())


def decode_sandbox_router(hook_data: str, swap_calldata: str) -> list[RouterTerms]:
    """Read the sandbox router's ``hook_data`` and ``swap_calldata``.

    The layout (standard ABI encoding, 32-byte words):

    - ``hook_data`` = ``abi.encode(bytes32 quoteId, address recipient, address tokenOut,
      uint256 minAmountOut)``;
    - ``swap_calldata`` = `SANDBOX_SWAP_SELECTOR` + ``abi.encode(bytes32 quoteId, address
      tokenOut, uint256 amountIn, uint256 minAmountOut, address recipient)``.

    The two must name the same quote id.

    Raises:
        ValueError: bytes not in this layout, or two quote ids.
    """
    hook = _words("hook_data", _bytes("hook_data", hook_data), 4)
    call = _bytes("swap_calldata", swap_calldata)
    if call[:4] != SANDBOX_SWAP_SELECTOR:
        raise ValueError(
            "swap_calldata does not call swap(bytes32,address,uint256,uint256,address)"
        )
    args = _words("swap_calldata", call[4:], 5)
    if hook[0] != args[0]:
        raise ValueError("hook_data and swap_calldata name different quotes")
    return [
        RouterTerms(
            "quote.hook_data",
            recipient=_address("hook_data.recipient", hook[1]),
            token_out=_address("hook_data.tokenOut", hook[2]),
            min_amount_out=int.from_bytes(hook[3], "big"),
        ),
        RouterTerms(
            "quote.swap_calldata",
            token_out=_address("swap_calldata.tokenOut", args[1]),
            amount_in=int.from_bytes(args[2], "big"),
            min_amount_out=int.from_bytes(args[3], "big"),
            recipient=_address("swap_calldata.recipient", args[4]),
        ),
    ]


def _word(value: bytes | str | int) -> bytes:
    if isinstance(value, int):
        return value.to_bytes(_WORD, "big")
    if isinstance(value, str):
        return bytes.fromhex(value.removeprefix("0x")).rjust(_WORD, b"\0")
    return value.rjust(_WORD, b"\0")


def encode_sandbox_router(
    *, quote_id: bytes, recipient: str, token_out: str, amount_in: int, min_amount_out: int
) -> tuple[str, str]:
    """The sandbox router's ``(hook_data, swap_calldata)`` for these terms, as hex (the
    inverse of `decode_sandbox_router`; the sandbox's quotes and the tests use it)."""
    hook = b"".join(_word(v) for v in (quote_id, recipient, token_out, min_amount_out))
    call = SANDBOX_SWAP_SELECTOR + b"".join(
        _word(v) for v in (quote_id, token_out, amount_in, min_amount_out, recipient)
    )
    return "0x" + hook.hex(), "0x" + call.hex()
