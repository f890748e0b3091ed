"""The routing service: quotes, executable transactions, status and gasless swaps."""

import typing as _typing

from .._exports import attach as _attach

if _typing.TYPE_CHECKING:
    from ._async_client import AsyncRoutingClient
    from ._execution import AllowanceCheck, RouteExecution
    from ._gasless import GaslessSwapResult
    from ._operations import DEFAULT_POLL_INTERVAL, DEFAULT_WAIT_TIMEOUT, RoutingPaths
    from ._sync_client import RoutingClient
    from ._verification import verify_gasless_quote
    from .models import (
        AcquisitionMode,
        BuildBestPathRequest,
        BuildPathRequest,
        BuiltPath,
        ChainFeatures,
        GasFee,
        GaslessFee,
        GaslessQuote,
        GaslessQuoteRequest,
        GaslessQuoteSummary,
        GaslessStatus,
        GaslessSubmission,
        GasToken,
        NativeToken,
        PathStep,
        Percent,
        Provider,
        QuoteRequest,
        RankingMode,
        Route,
        RouteFees,
        RouteKind,
        RouteMode,
        RouteToken,
        StatusProvider,
        SupportedChain,
        Token,
        TokenAddress,
        TokenSearchResult,
        Transaction,
        TransactionStatus,
        TxDetails,
    )

# The clients first, sync before async: the API reference follows this order.
__all__ = [
    "RoutingClient",
    "AsyncRoutingClient",
    "DEFAULT_POLL_INTERVAL",
    "DEFAULT_WAIT_TIMEOUT",
    "AcquisitionMode",
    "AllowanceCheck",
    "BuildBestPathRequest",
    "BuildPathRequest",
    "BuiltPath",
    "ChainFeatures",
    "GasFee",
    "GasToken",
    "GaslessFee",
    "GaslessQuote",
    "GaslessQuoteRequest",
    "GaslessQuoteSummary",
    "GaslessStatus",
    "GaslessSubmission",
    "GaslessSwapResult",
    "NativeToken",
    "PathStep",
    "Percent",
    "Provider",
    "QuoteRequest",
    "RankingMode",
    "Route",
    "RouteExecution",
    "RouteFees",
    "RouteKind",
    "RouteMode",
    "RouteToken",
    "RoutingPaths",
    "StatusProvider",
    "SupportedChain",
    "Token",
    "TokenAddress",
    "TokenSearchResult",
    "Transaction",
    "TransactionStatus",
    "TxDetails",
    "verify_gasless_quote",
]

# Each name above is imported on first use (PEP 562), from where this table says it lives
# (see xswap_sdk._exports): a table, not the source, so that frozen and zipped apps work.
# -- lazy names: written by scripts/lazy_tables.py from the TYPE_CHECKING imports --
_HOMES = {
    "AcquisitionMode": (".models", "AcquisitionMode"),
    "AllowanceCheck": ("._execution", "AllowanceCheck"),
    "AsyncRoutingClient": ("._async_client", "AsyncRoutingClient"),
    "BuildBestPathRequest": (".models", "BuildBestPathRequest"),
    "BuildPathRequest": (".models", "BuildPathRequest"),
    "BuiltPath": (".models", "BuiltPath"),
    "ChainFeatures": (".models", "ChainFeatures"),
    "DEFAULT_POLL_INTERVAL": ("._operations", "DEFAULT_POLL_INTERVAL"),
    "DEFAULT_WAIT_TIMEOUT": ("._operations", "DEFAULT_WAIT_TIMEOUT"),
    "GasFee": (".models", "GasFee"),
    "GasToken": (".models", "GasToken"),
    "GaslessFee": (".models", "GaslessFee"),
    "GaslessQuote": (".models", "GaslessQuote"),
    "GaslessQuoteRequest": (".models", "GaslessQuoteRequest"),
    "GaslessQuoteSummary": (".models", "GaslessQuoteSummary"),
    "GaslessStatus": (".models", "GaslessStatus"),
    "GaslessSubmission": (".models", "GaslessSubmission"),
    "GaslessSwapResult": ("._gasless", "GaslessSwapResult"),
    "NativeToken": (".models", "NativeToken"),
    "PathStep": (".models", "PathStep"),
    "Percent": (".models", "Percent"),
    "Provider": (".models", "Provider"),
    "QuoteRequest": (".models", "QuoteRequest"),
    "RankingMode": (".models", "RankingMode"),
    "Route": (".models", "Route"),
    "RouteExecution": ("._execution", "RouteExecution"),
    "RouteFees": (".models", "RouteFees"),
    "RouteKind": (".models", "RouteKind"),
    "RouteMode": (".models", "RouteMode"),
    "RouteToken": (".models", "RouteToken"),
    "RoutingClient": ("._sync_client", "RoutingClient"),
    "RoutingPaths": ("._operations", "RoutingPaths"),
    "StatusProvider": (".models", "StatusProvider"),
    "SupportedChain": (".models", "SupportedChain"),
    "Token": (".models", "Token"),
    "TokenAddress": (".models", "TokenAddress"),
    "TokenSearchResult": (".models", "TokenSearchResult"),
    "Transaction": (".models", "Transaction"),
    "TransactionStatus": (".models", "TransactionStatus"),
    "TxDetails": (".models", "TxDetails"),
    "verify_gasless_quote": ("._verification", "verify_gasless_quote"),
}
# -- end of lazy names --

if not _typing.TYPE_CHECKING:
    __getattr__, __dir__ = _attach(__name__, _HOMES)
