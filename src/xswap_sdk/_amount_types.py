"""The amount types written back as text in JSON: `xswap_sdk.types.TokenAmount`,
`xswap_sdk.types.UsdcUnits` and `xswap_sdk.types.UsdcNumberUnits`.

Defined apart from `xswap_sdk.types`, which exports them and imports this module when
one of them is first asked for: their serializer is pydantic's ``PlainSerializer``,
whose module costs about 2 ms to import, and a client's first read uses none of them.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, PlainSerializer

from .types import _to_amount, _usdc_number_units, _usdc_text, _usdc_units

__all__ = ["TokenAmount", "UsdcNumberUnits", "UsdcUnits"]

TokenAmount = Annotated[
    int,
    BeforeValidator(_to_amount),
    PlainSerializer(str, return_type=str, when_used="json"),
]
"""A token amount in smallest units (an ``int`` from 0 to 2**256 - 1), sent as a string."""

UsdcUnits = Annotated[
    int,
    BeforeValidator(_usdc_units),
    PlainSerializer(_usdc_text, return_type=str, when_used="json"),
]
"""An ``int`` of smallest USDC units, read exactly from a decimal string of USDC as
Circle Gateway sends it (``"1.500000"`` is ``1500000``) and written back as that string
in JSON. An ``int`` given in Python is taken as smallest units already."""

UsdcNumberUnits = Annotated[
    int,
    BeforeValidator(_usdc_number_units),
    PlainSerializer(_usdc_text, return_type=str, when_used="json"),
]
"""An ``int`` of smallest USDC units, read from a JSON number of USDC (``12.5`` is
``12500000``; ``12`` is twelve USDC, not twelve units), rounded to the nearest unit when
the number is a float. Written back as a decimal string in JSON."""
