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
    TransactionType,
    UserConfig,
)

# The clients first, sync before async: the API reference follows this order.
__all__ = [
    "RelayerClient",
    "AsyncRelayerClient",
    "AccountInfo",
    "NativeCurrency",
    "RelayState",
    "RelayStatus",
    "RelayerChain",
    "RelayerPaths",
    "SubmitTxRequest",
    "SubmitTxResult",
    "TransactionType",
    "UserConfig",
]
