"""The transaction relayer: submit a transaction, then poll until it executed or failed."""

from ._async_client import AsyncRelayerClient
from ._operations import RelayerPaths
from ._sync_client import RelayerClient
from .models import (
    AccountInfo,
    NativeCurrency,
    RelayerChain,
    RelayState,
    RelayStatus,
    SubmitTxRequest,
    SubmitTxResult,
)

__all__ = [
    "AccountInfo",
    "AsyncRelayerClient",
    "NativeCurrency",
    "RelayState",
    "RelayStatus",
    "RelayerChain",
    "RelayerClient",
    "RelayerPaths",
    "SubmitTxRequest",
    "SubmitTxResult",
]
