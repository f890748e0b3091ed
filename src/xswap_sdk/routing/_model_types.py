"""The value types and validators the routing models share (re-exported by
`xswap_sdk.routing.models`): cheap, so every group of models imports them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal, InvalidOperation
from enum import IntEnum
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AliasChoices,
    BeforeValidator,
    Field,
    PlainSerializer,
    StrictStr,
)

from .._exports import name_by_home
from .._models import LenientInt
from ..types import to_checksum

__all__ = [
    "AcquisitionMode",
    "Percent",
    "RankingMode",
    "RouteKind",
    "RouteMode",
    "TokenAddress",
    "TxHashOrReference",
]

# ---------------------------------------------------------------------------- value types

RouteMode = Literal["fastest", "max_value", "suggested"]
"""How ``/quote`` ranks routes: by speed, by output value, or balanced."""

RankingMode = Literal["value_max", "balanced", "speed_max"]
"""How ``/gasless/quote`` ranks routes (not the same words as `RouteMode`)."""

RouteKind = Literal["sameChainSwap", "directBridge", "swapBridge", "multiBridge"]
"""The route kinds seen on the live service; fields typed ``RouteKind | str`` accept
others."""


class AcquisitionMode(IntEnum):
    """How the route takes the input token from the sender (``acquisitionMode``)."""

    DIRECT_TRANSFER = 0
    """A plain token transfer (the default when execution needs one)."""
    NATIVE_TOKEN = 1
    """The chain's native token, sent as the transaction's value."""
    PERMIT2 = 2
    """A Permit2 signature transfer."""
    PERMIT2_WITNESS = 3
    """A Permit2 signature transfer with a witness."""


_EVM_HEX_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")
_NO_SPACE_TEXT = re.compile(r"\S+")
_MAX_PERCENT: Final = Decimal(100)


def _to_token_address(value: object) -> str:
    # The spec's "token address or mint address as stored for fromChain": an EVM
    # address must carry a valid checksum (a typo there loses money); anything else,
    # such as a base58 Solana mint, is passed through for the service to judge.
    if not isinstance(value, str) or _NO_SPACE_TEXT.fullmatch(value) is None:
        raise ValueError("must be a token address (0x + 40 hex digits) or a non-EVM mint address")
    if value[:2].lower() == "0x" and len(value) == 42 and _EVM_HEX_ADDRESS.fullmatch(value):
        return to_checksum(value)
    if value[:2].lower() == "0x":
        raise ValueError("must be a 0x-prefixed 20-byte hex address (0x + 40 hex digits)")
    return value


def _to_percent(value: object) -> Decimal:
    # bool is an int subclass; refuse it rather than send "1" for True.
    if isinstance(value, bool) or not isinstance(value, Decimal | float | int | str):
        raise ValueError("must be a number of percent (Decimal, float, int or str), e.g. 0.5")
    try:
        # repr() gives a float's shortest round-tripping text: 0.1 is "0.1", not
        # 0.1000000000000000055511151231257827.
        number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation:
        raise ValueError("must be a decimal number of percent, e.g. '0.5'") from None
    if not number.is_finite() or not 0 <= number <= _MAX_PERCENT:
        raise ValueError("must be a percent from 0 to 100 (1 means 1%)")
    return number


def _to_hash_or_reference(value: object) -> str:
    if not isinstance(value, str) or _NO_SPACE_TEXT.fullmatch(value) is None:
        raise ValueError("must be a non-empty transaction hash without spaces")
    if value[:2].lower() == "0x":
        if re.fullmatch(r"0x[0-9a-fA-F]{64}", value) is None:
            raise ValueError("must be a 0x-prefixed 32-byte hash (0x + 64 hex digits)")
        return value.lower()
    return value


def _witness_by_default(value: object) -> object:
    # The witness binds the receiver, destination and minimum output into the signature;
    # without it the service's relayed transaction decides them.
    return AcquisitionMode.PERMIT2_WITNESS if value is None else value


def _to_acquisition_mode(value: object) -> object:
    # Lax enum validation would take True, 1.0 or "2"; a mode is an int.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("must be an AcquisitionMode or an int: 0, 1, 2 or 3")
    return value


TokenAddress = Annotated[str, BeforeValidator(_to_token_address)]
"""A token's address on its chain: an EVM address (checksummed; a mixed-case address
with a wrong EIP-55 checksum is refused) or, for non-EVM chains, a mint address sent as
given."""

Percent = Annotated[Decimal, BeforeValidator(_to_percent)]
"""A percentage from 0 to 100 (``1`` means 1%): a Decimal, int, float or decimal string,
sent as a plain number (``0.1`` goes out as ``"0.1"``)."""

TxHashOrReference = Annotated[str, BeforeValidator(_to_hash_or_reference)]
"""A source transaction hash: ``0x`` + 64 hex digits (lowercased) on EVM chains, or a
non-EVM transaction reference sent as given."""

_Mode = Annotated[AcquisitionMode, BeforeValidator(_to_acquisition_mode)]
_Amount = Annotated[LenientInt, PlainSerializer(str, return_type=str, when_used="json")]
_Usd = Annotated[Decimal, PlainSerializer(float, return_type=float, when_used="json")]
_Timestamp = Annotated[datetime | str | None, Field(union_mode="left_to_right")]

_ProviderName = Annotated[
    StrictStr, BeforeValidator(lambda v: v.strip() if isinstance(v, str) else v)
]


def _check_providers(value: object) -> object:
    # A bare string is a sequence of characters; refuse it rather than send "a,c,r,o,s,s".
    if isinstance(value, str):
        raise ValueError("must be a list of provider names, e.g. ['across'], not a string")
    if isinstance(value, Sequence | set | frozenset):
        names = list(value)
        if not names:
            raise ValueError("must name at least one provider (or be None)")
        for name in names:
            if not isinstance(name, str) or not name.strip() or "," in name:
                raise ValueError("provider names must be non-empty strings without commas")
        return names
    return value


_Providers = Annotated[list[_ProviderName], BeforeValidator(_check_providers)]


_RELAYER_TX_ID_ALIASES: Final[dict[str, Any]] = {
    "validation_alias": AliasChoices("relayerTxId", "tachyonTxId"),
    "serialization_alias": "relayerTxId",
}


def _is_failed(status: str | None) -> bool:
    return isinstance(status, str) and status.strip().lower() == "failed"


# Named by its public home, as the models are (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.routing.models")
