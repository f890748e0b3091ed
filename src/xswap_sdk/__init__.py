"""xswap-sdk: typed Python clients for cross-chain USDC swaps, routing and relaying."""

from . import errors
from ._version import __version__
from .types import Address, Bytes32, ChainId, HexBytes, TokenAmount, from_units, to_units

__all__ = [
    "Address",
    "Bytes32",
    "ChainId",
    "HexBytes",
    "TokenAmount",
    "__version__",
    "errors",
    "from_units",
    "to_units",
]
