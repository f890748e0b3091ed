"""xswap-sdk: typed Python clients for cross-chain USDC swaps, routing and relaying.

```python
from xswap_sdk import RelayerClient

with RelayerClient(api_key="...") as relayer:
    tx_id = relayer.relay(chain_id=8453, to="0x...", call_data="0x")
    print(relayer.wait_for_execution_hash(tx_id).execution_tx_hash)
```

The names below are imported on first use (PEP 562), so importing a submodule such as
``xswap_sdk.testing.plugin``, which pytest does at every start, costs nothing until a
client is asked for.
"""

# Private names only: everything public here is in __all__ (a test checks).
import typing as _typing

from ._exports import attach as _attach
from ._version import __version__

if _typing.TYPE_CHECKING:
    from . import errors
    from ._capture import RawResponse
    from ._clock import Clock, SystemClock, VirtualClock
    from ._options import NOT_GIVEN, NotGiven, RequestOptions, WaitOptions
    from .chains import KnownChain
    from .flash import AsyncFlashClient, FlashClient
    from .gateway import AsyncGatewayClient, GatewayClient
    from .relayer import AsyncRelayerClient, RelayerClient
    from .routing import AsyncRoutingClient, RoutingClient
    from .types import (
        MAX_UINT256,
        Address,
        Bytes32,
        ChainId,
        HexBytes,
        TokenAmount,
        format_amount,
        from_units,
        to_checksum,
        to_units,
    )

__all__ = [
    "MAX_UINT256",
    "NOT_GIVEN",
    "Address",
    "AsyncFlashClient",
    "AsyncGatewayClient",
    "AsyncRelayerClient",
    "AsyncRoutingClient",
    "Bytes32",
    "ChainId",
    "Clock",
    "FlashClient",
    "GatewayClient",
    "HexBytes",
    "KnownChain",
    "NotGiven",
    "RawResponse",
    "RelayerClient",
    "RequestOptions",
    "RoutingClient",
    "SystemClock",
    "TokenAmount",
    "VirtualClock",
    "WaitOptions",
    "__version__",
    "errors",
    "format_amount",
    "from_units",
    "to_checksum",
    "to_units",
]

# Each name above is imported on first use (PEP 562), from where this table says it lives
# (see xswap_sdk._exports): a table, not the source, so that frozen and zipped apps work.
# -- lazy names: written by scripts/lazy_tables.py from the TYPE_CHECKING imports --
_HOMES = {
    "Address": (".types", "Address"),
    "AsyncFlashClient": (".flash", "AsyncFlashClient"),
    "AsyncGatewayClient": (".gateway", "AsyncGatewayClient"),
    "AsyncRelayerClient": (".relayer", "AsyncRelayerClient"),
    "AsyncRoutingClient": (".routing", "AsyncRoutingClient"),
    "Bytes32": (".types", "Bytes32"),
    "ChainId": (".types", "ChainId"),
    "Clock": ("._clock", "Clock"),
    "FlashClient": (".flash", "FlashClient"),
    "GatewayClient": (".gateway", "GatewayClient"),
    "HexBytes": (".types", "HexBytes"),
    "KnownChain": (".chains", "KnownChain"),
    "MAX_UINT256": (".types", "MAX_UINT256"),
    "NOT_GIVEN": ("._options", "NOT_GIVEN"),
    "NotGiven": ("._options", "NotGiven"),
    "RawResponse": ("._capture", "RawResponse"),
    "RelayerClient": (".relayer", "RelayerClient"),
    "RequestOptions": ("._options", "RequestOptions"),
    "RoutingClient": (".routing", "RoutingClient"),
    "SystemClock": ("._clock", "SystemClock"),
    "TokenAmount": (".types", "TokenAmount"),
    "VirtualClock": ("._clock", "VirtualClock"),
    "WaitOptions": ("._options", "WaitOptions"),
    "errors": (".errors", None),
    "format_amount": (".types", "format_amount"),
    "from_units": (".types", "from_units"),
    "to_checksum": (".types", "to_checksum"),
    "to_units": (".types", "to_units"),
}
# -- end of lazy names --

if not _typing.TYPE_CHECKING:
    __getattr__, __dir__ = _attach(__name__, _HOMES)
