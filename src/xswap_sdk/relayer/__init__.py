"""The transaction relayer: submit a transaction, then poll until it executed or failed."""

import typing as _typing

from .._exports import attach as _attach

if _typing.TYPE_CHECKING:
    from ._async_client import AsyncRelayerClient
    from ._operations import RelayerPaths
    from ._sync_client import RelayerClient
    from .models import (
        AccountInfo,
        NativeCurrency,
        RelayedTxId,
        RelayerChain,
        RelayState,
        RelayStatus,
        SubmitSignedTxRequest,
        SubmitTxRequest,
        SubmitTxResult,
        TransactionType,
        UserConfig,
        X402Payment,
    )

# The clients first, sync before async: the API reference follows this order.
__all__ = [
    "RelayerClient",
    "AsyncRelayerClient",
    "AccountInfo",
    "NativeCurrency",
    "RelayState",
    "RelayStatus",
    "RelayedTxId",
    "RelayerChain",
    "RelayerPaths",
    "SubmitSignedTxRequest",
    "SubmitTxRequest",
    "SubmitTxResult",
    "TransactionType",
    "UserConfig",
    "X402Payment",
]

# Each name above is imported on first use (PEP 562), from where this table says it lives
# (see xswap_sdk._exports): a table, not the source, so that frozen and zipped apps work.
# -- lazy names: written by scripts/lazy_tables.py from the TYPE_CHECKING imports --
_HOMES = {
    "AccountInfo": (".models", "AccountInfo"),
    "AsyncRelayerClient": ("._async_client", "AsyncRelayerClient"),
    "NativeCurrency": (".models", "NativeCurrency"),
    "RelayState": (".models", "RelayState"),
    "RelayStatus": (".models", "RelayStatus"),
    "RelayedTxId": (".models", "RelayedTxId"),
    "RelayerChain": (".models", "RelayerChain"),
    "RelayerClient": ("._sync_client", "RelayerClient"),
    "RelayerPaths": ("._operations", "RelayerPaths"),
    "SubmitSignedTxRequest": (".models", "SubmitSignedTxRequest"),
    "SubmitTxRequest": (".models", "SubmitTxRequest"),
    "SubmitTxResult": (".models", "SubmitTxResult"),
    "TransactionType": (".models", "TransactionType"),
    "UserConfig": (".models", "UserConfig"),
    "X402Payment": (".models", "X402Payment"),
}
# -- end of lazy names --

if not _typing.TYPE_CHECKING:
    __getattr__, __dir__ = _attach(__name__, _HOMES)
