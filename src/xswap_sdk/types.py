"""Shared value types: addresses, hex strings, token amounts and chain ids.

Each type is an ``Annotated`` alias that pydantic models use as a field type, so the
same rule is applied to what users pass in and to what services send back:

- `Address`: any case in; a mixed-case address must carry a valid EIP-55 checksum;
  the EIP-55 checksummed form out.
- `Bytes32`: ``0x`` and 64 hex digits, lowercase.
- `HexBytes`: ``0x`` and an even number of hex digits, lowercase (calldata, hook data).
- `TokenAmount`: an ``int`` in the token's smallest units, never a float; accepts an int
  or a decimal string and is sent as a decimal string.
- `ChainId`: a non-negative ``int``.

Amounts: one unit everywhere
----------------------------

Every amount of every model, argument and result is an ``int`` in the token's smallest
units (``1_500_000`` is 1.5 USDC, which has 6 decimals), even where a service sends a
decimal string (Circle Gateway's ``"1.500000"`` is read as `UsdcUnits`). Prices and
values in US dollars, percentages and durations are not token amounts and stay
`decimal.Decimal` or ``float``. These three helpers are the one way across:

- `to_units` parses a display amount exactly: ``to_units("1.5", 6) == 1500000``;
- `from_units` gives it back as a `decimal.Decimal`: ``Decimal("1.500000")``;
- `format_amount` writes it for people: ``format_amount(1500000) == "1.50 USDC"``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from decimal import ROUND_HALF_EVEN, Context, Decimal, InvalidOperation
from typing import TYPE_CHECKING, Annotated

from pydantic import BeforeValidator

from ._exports import attach as _attach
from ._keccak import keccak
from .errors import InvalidInputError

if TYPE_CHECKING:
    from ._amount_types import TokenAmount, UsdcNumberUnits, UsdcUnits

__all__ = [
    "MAX_UINT256",
    "Address",
    "Bytes32",
    "ChainId",
    "HexBytes",
    "TokenAmount",
    "USDC_DECIMALS",
    "UsdcNumberUnits",
    "UsdcUnits",
    "format_amount",
    "from_units",
    "to_checksum",
    "to_units",
]

USDC_DECIMALS = 6
"""USDC's decimals on every chain the SDK knows: one USDC is ``1_000_000`` units."""

MAX_UINT256 = 2**256 - 1
"""The largest uint256, the default ``maxBlockHeight`` of a burn intent."""

_ADDRESS_RE = re.compile(r"0x[0-9a-fA-F]{40}")
_HEX_RE = re.compile(r"0x(?:[0-9a-fA-F]{2})*")
_DIGITS_RE = re.compile(r"[0-9]+")
_MAX_DIGITS = 80  # a uint256 has 78 decimal digits
# The default decimal context keeps 28 digits and would round large amounts silently.
_EXACT = Context(prec=_MAX_DIGITS + 80, Emax=_MAX_DIGITS + 80, Emin=-(_MAX_DIGITS + 80))


def to_checksum(value: object) -> str:
    """Return the EIP-55 checksummed form of an address.

    Raises:
        ValueError: not a 20-byte hex address, or mixed case with a wrong checksum.
    """
    if not isinstance(value, str):
        raise ValueError("must be a 0x-prefixed 20-byte hex address (0x + 40 hex digits)")
    return _checked(value)


@functools.lru_cache(maxsize=4096)
def _checked(value: str) -> str:
    # Cached by the string as given (a swap checks the same few addresses some fifty
    # times); a refusal raises, and is not cached.
    if _ADDRESS_RE.fullmatch(value) is None:
        raise ValueError("must be a 0x-prefixed 20-byte hex address (0x + 40 hex digits)")
    body = value[2:]
    checksummed = _checksum(body.lower())
    if body not in (body.lower(), body.upper()) and checksummed != value:
        raise ValueError("mixed-case address has an invalid EIP-55 checksum")
    return checksummed


def _same_address(left: object, right: object) -> bool:
    """Whether two addresses name the same account: the SDK's one address comparison.

    EVM addresses (``0x`` hex) are compared case aside, since a checksum is only a
    case; any other address (a Solana account in base58, whose case is part of it)
    exactly. Anything that is not a str is no address, and matches nothing.
    """
    if not isinstance(left, str) or not isinstance(right, str):
        return False
    if left[:2] in ("0x", "0X") and right[:2] in ("0x", "0X"):
        return left.lower() == right.lower()
    return left == right


@functools.lru_cache(maxsize=4096)
def _checksum(body: str) -> str:
    # EIP-55 written out: eth_utils' version validates and converts several times over
    # and dominated the cost of signing a permit. Cached, since a program sees the same
    # few addresses again and again.
    digest = keccak(body.encode("ascii")).hex()
    return "0x" + "".join(
        char.upper() if nibble in "89abcdef" else char
        for char, nibble in zip(body, digest, strict=False)
    )


def _to_hex(value: object, *, length: int | None) -> str:
    if isinstance(value, bytes | bytearray):
        value = "0x" + bytes(value).hex()
    if not isinstance(value, str) or _HEX_RE.fullmatch(value) is None:
        raise ValueError("must be a 0x-prefixed hex string with an even number of digits")
    if length is not None and len(value) != 2 + 2 * length:
        raise ValueError(f"must be exactly {length} bytes (0x + {2 * length} hex digits)")
    return value.lower()


def _to_bytes32(value: object) -> str:
    return _to_hex(value, length=32)


def _to_hex_bytes(value: object) -> str:
    return _to_hex(value, length=None)


def _uint_parser(bits: int, *, hint: str = "") -> Callable[[object], int]:
    """A validator for an unsigned integer of ``bits`` bits, given as an int or a string
    of decimal digits. ``hint`` is added to the message for wrong types."""
    top = 2**bits - 1
    hint = f" ({hint})" if hint else ""

    def parse(value: object) -> int:
        # bool is an int subclass and float is inexact: both are refused for EVM integers.
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError(
                f"must be an int or a decimal string of digits; floats are refused{hint}"
            )
        if isinstance(value, str):
            if _DIGITS_RE.fullmatch(value) is None:
                raise ValueError("must be a non-negative base-10 integer string such as '1000000'")
            value = int(value)
        if not 0 <= value <= top:
            raise ValueError(f"must be between 0 and 2**{bits} - 1")
        return value

    return parse


_to_amount = _uint_parser(256, hint="use to_units() to convert a display amount")


def _to_chain_id(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError("must be a non-negative integer chain id")
    if isinstance(value, str):
        if _DIGITS_RE.fullmatch(value) is None:
            raise ValueError("must be a non-negative integer chain id")
        value = int(value)
    if value < 0:
        raise ValueError("must be a non-negative integer chain id")
    return value


Address = Annotated[str, BeforeValidator(to_checksum)]
"""A 20-byte EVM address; validated and normalised to its EIP-55 checksummed form."""

Bytes32 = Annotated[str, BeforeValidator(_to_bytes32)]
"""32 bytes as ``0x`` + 64 lowercase hex digits; ``bytes`` of length 32 are accepted."""

HexBytes = Annotated[str, BeforeValidator(_to_hex_bytes)]
"""Arbitrary bytes as ``0x`` + an even number of lowercase hex digits (``"0x"`` is empty)."""

ChainId = Annotated[int, BeforeValidator(_to_chain_id)]
"""An EVM chain id (``1`` Ethereum, ``8453`` Base, ``42161`` Arbitrum One, ...)."""


def to_units(amount: Decimal | str | int, decimals: int) -> int:
    """Convert a display amount to smallest units, exactly.

    ``to_units("1.5", 6) == 1500000``. Floats are refused because they cannot hold most
    decimal fractions exactly; pass a string or a `decimal.Decimal`.

    Raises:
        InvalidInputError: a float, a negative amount, or more fractional digits than
            ``decimals`` allows (nothing is rounded away silently).
    """
    if isinstance(amount, bool) or not isinstance(amount, Decimal | str | int):
        raise InvalidInputError(
            "amount", "must be a str, int or Decimal such as '1.5' (floats are inexact)"
        )
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 77:
        raise InvalidInputError("decimals", "must be an int from 0 to 77")
    try:
        value = Decimal(amount)
    except InvalidOperation:
        raise InvalidInputError("amount", "must be a decimal number such as '1.5'") from None
    if not value.is_finite() or value < 0:
        raise InvalidInputError("amount", "must be a finite, non-negative number")
    if value and value.adjusted() + decimals >= _MAX_DIGITS:
        raise InvalidInputError("amount", "is larger than any uint256 amount")
    if value and value.adjusted() < -decimals:
        # Below one smallest unit; checked first so it cannot underflow to 0 unseen.
        raise InvalidInputError("amount", f"has more than {decimals} decimal places")
    scaled = value.scaleb(decimals, context=_EXACT)
    if scaled != scaled.to_integral_value(context=_EXACT):
        raise InvalidInputError("amount", f"has more than {decimals} decimal places")
    return int(scaled)


def from_units(amount: int | str, decimals: int) -> Decimal:
    """Convert smallest units to a display `decimal.Decimal`, keeping ``decimals`` places:
    ``from_units(1500000, 6)`` is ``Decimal("1.500000")``.

    Raises:
        InvalidInputError: not an integer amount, or bad ``decimals``.
    """
    try:
        units = _to_amount(amount)
    except ValueError as exc:
        raise InvalidInputError("amount", str(exc)) from None
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 77:
        raise InvalidInputError("decimals", "must be an int from 0 to 77")
    # Not normalised: Decimal("10.000000") keeps its scale, where normalize() would
    # print it as 1E+1.
    return Decimal(units).scaleb(-decimals, context=_EXACT)


def format_amount(
    units: int, decimals: int = USDC_DECIMALS, symbol: str | None = "USDC", *, places: int = 2
) -> str:
    """Write an amount in smallest units for people, exactly: no digit is rounded away.

    ``format_amount(1_500_000) == "1.50 USDC"``, ``format_amount(1_234_567) ==
    "1.234567 USDC"``, ``format_amount(10**18, 18, "WETH") == "1.00 WETH"``,
    ``format_amount(25, symbol=None) == "0.000025"``. Trailing zeros are dropped down to
    ``places`` decimal places; `to_units` reads the number back.

    Args:
        units: the amount, in the token's smallest units.
        decimals: the token's decimals (6 for USDC).
        symbol: appended after a space; ``None`` for the number alone.
        places: the fewest decimal places shown.

    Raises:
        InvalidInputError: not an integer amount, or bad ``decimals`` or ``places``.
    """
    if isinstance(places, bool) or not isinstance(places, int) or places < 0:
        raise InvalidInputError("places", "must be an int of at least 0")
    negative = isinstance(units, int) and not isinstance(units, bool) and units < 0
    text = f"{from_units(-units if negative else units, decimals):f}"
    whole, _, fraction = text.partition(".")
    fraction = fraction.rstrip("0")
    fraction += "0" * (min(places, decimals) - len(fraction))
    number = ("-" if negative else "") + whole + ("." + fraction if fraction else "")
    return number if symbol is None else f"{number} {symbol}"


def _usdc_units(value: object) -> object:
    # The wire's decimal string is USDC; an int is already smallest units (what the field
    # holds, so a model built in Python or dumped and read back keeps its value).
    if isinstance(value, str | Decimal):
        try:
            return to_units(value.strip() if isinstance(value, str) else value, USDC_DECIMALS)
        except InvalidInputError as exc:
            raise ValueError(str(exc).partition(": ")[2] or str(exc)) from None
    if isinstance(value, float):
        raise ValueError("must be a decimal string of USDC such as '1.500000', not a float")
    if isinstance(value, bool) or (isinstance(value, int) and value < 0):
        raise ValueError("must be a non-negative number of smallest units")
    return value


def _usdc_text(units: int) -> str:
    return f"{from_units(units, USDC_DECIMALS):f}"


def _usdc_number_units(value: object) -> object:
    # A JSON number of USDC: an int is whole USDC here, and a float is read through its
    # shortest text (0.1 is "0.1") and rounded to the nearest smallest unit, since the
    # service's float cannot be exact anyway.
    if isinstance(value, bool):
        raise ValueError("must be a number of USDC")
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("must be a finite number of USDC")
        value = Decimal(repr(value)).quantize(Decimal(1).scaleb(-USDC_DECIMALS), ROUND_HALF_EVEN)
    if isinstance(value, int):
        value = Decimal(value)
    return _usdc_units(value)


# TokenAmount, UsdcUnits and UsdcNumberUnits, the types written back as text in JSON, are
# made on first use (PEP 562), in xswap_sdk._amount_types: pydantic's serializers module,
# which they alone need, costs about 2 ms to import, and a client's first read uses none.
_HOMES = {
    "TokenAmount": ("xswap_sdk._amount_types", "TokenAmount"),
    "UsdcNumberUnits": ("xswap_sdk._amount_types", "UsdcNumberUnits"),
    "UsdcUnits": ("xswap_sdk._amount_types", "UsdcUnits"),
}

if not TYPE_CHECKING:
    __getattr__, __dir__ = _attach(__name__, _HOMES)
