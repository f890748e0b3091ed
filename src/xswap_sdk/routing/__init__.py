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

# Each name above is imported on first use (PEP 562): see xswap_sdk._exports.
if not _typing.TYPE_CHECKING:
    __getattr__, __dir__ = _attach(__name__, __file__)
