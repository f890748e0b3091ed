"""Models of the routing service: what it returns, and the queries it takes.

Response models read tolerantly: statuses and route kinds are open sets, unknown fields
are kept, and the live service's spellings are accepted
next to the spec's (``tachyonTxId`` for ``relayerTxId``; a ``/status`` record in its
second documented shape with ``state``, ``providerKey``, ``txRef``, ``sourceTxHash`` and
``destinationTxHash``; a gasless ``chainId`` as a number or a string). Amounts are
``int`` in smallest units and dump back to decimal strings; USD values are
`decimal.Decimal` and dump back to JSON numbers.

A field the spec lists is required, so a typed caller needs no ``None`` check for it
(``route.amount_out``, ``tx.data``); a missing one raises
`xswap_sdk.errors.ResponseValidationError` naming it. Optional are only what the spec
or the live service leaves out: a route's ``slippage`` and ``integratorId`` (echoed
only when asked for), an execution hash before execution, the ``allowanceTarget`` of a
native-token transaction, the destination side of a transfer still under way, the
fields of ``/status`` (two documented shapes), and what the spec does not list.

Request models validate every argument before any I/O: chains are non-negative ints,
amounts go through `xswap_sdk.types.TokenAmount`, wallets through
`xswap_sdk.types.Address`, and token addresses through `TokenAddress` (EVM addresses are
checksummed; other identifiers, such as a Solana mint, are sent as given).
"""

import typing as _typing

from .._exports import attach as _attach

if _typing.TYPE_CHECKING:
    from ._chain_models import (
        ChainFeatures,
        NativeToken,
        SupportedChain,
    )
    from ._gasless_models import (
        GaslessFee,
        GaslessQuote,
        GaslessQuoteRequest,
        GaslessQuoteSummary,
        GaslessStatus,
        GaslessSubmission,
    )
    from ._model_types import (
        AcquisitionMode,
        Percent,
        RankingMode,
        RouteKind,
        RouteMode,
        TokenAddress,
        TxHashOrReference,
    )
    from ._quote_models import (
        BuildBestPathRequest,
        BuildPathRequest,
        BuiltPath,
        GasFee,
        GasToken,
        PathStep,
        Provider,
        QuoteRequest,
        Route,
        RouteFees,
        RouteToken,
        Transaction,
    )
    from ._status_models import (
        StatusProvider,
        TransactionStatus,
        TxDetails,
    )
    from ._token_models import Token, TokenSearchResult

__all__ = [
    "AcquisitionMode",
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
    "NativeToken",
    "PathStep",
    "Percent",
    "Provider",
    "QuoteRequest",
    "RankingMode",
    "Route",
    "RouteFees",
    "RouteKind",
    "RouteMode",
    "RouteToken",
    "StatusProvider",
    "SupportedChain",
    "Token",
    "TokenAddress",
    "TokenSearchResult",
    "Transaction",
    "TransactionStatus",
    "TxDetails",
    "TxHashOrReference",
]

# Each model is written in a private module of its group (chains, tokens, quotes, status,
# gasless), loaded on first use (PEP 562) from where this table says it lives: a client's
# first read builds the chain models alone, not the service's thirty. Every class names
# this module as its home (__module__), so reprs, pickles and the reference are as before.
# -- lazy names: written by scripts/lazy_tables.py from the TYPE_CHECKING imports --
_HOMES = {
    "AcquisitionMode": ("._model_types", "AcquisitionMode"),
    "BuildBestPathRequest": ("._quote_models", "BuildBestPathRequest"),
    "BuildPathRequest": ("._quote_models", "BuildPathRequest"),
    "BuiltPath": ("._quote_models", "BuiltPath"),
    "ChainFeatures": ("._chain_models", "ChainFeatures"),
    "GasFee": ("._quote_models", "GasFee"),
    "GasToken": ("._quote_models", "GasToken"),
    "GaslessFee": ("._gasless_models", "GaslessFee"),
    "GaslessQuote": ("._gasless_models", "GaslessQuote"),
    "GaslessQuoteRequest": ("._gasless_models", "GaslessQuoteRequest"),
    "GaslessQuoteSummary": ("._gasless_models", "GaslessQuoteSummary"),
    "GaslessStatus": ("._gasless_models", "GaslessStatus"),
    "GaslessSubmission": ("._gasless_models", "GaslessSubmission"),
    "NativeToken": ("._chain_models", "NativeToken"),
    "PathStep": ("._quote_models", "PathStep"),
    "Percent": ("._model_types", "Percent"),
    "Provider": ("._quote_models", "Provider"),
    "QuoteRequest": ("._quote_models", "QuoteRequest"),
    "RankingMode": ("._model_types", "RankingMode"),
    "Route": ("._quote_models", "Route"),
    "RouteFees": ("._quote_models", "RouteFees"),
    "RouteKind": ("._model_types", "RouteKind"),
    "RouteMode": ("._model_types", "RouteMode"),
    "RouteToken": ("._quote_models", "RouteToken"),
    "StatusProvider": ("._status_models", "StatusProvider"),
    "SupportedChain": ("._chain_models", "SupportedChain"),
    "Token": ("._token_models", "Token"),
    "TokenAddress": ("._model_types", "TokenAddress"),
    "TokenSearchResult": ("._token_models", "TokenSearchResult"),
    "Transaction": ("._quote_models", "Transaction"),
    "TransactionStatus": ("._status_models", "TransactionStatus"),
    "TxDetails": ("._status_models", "TxDetails"),
    "TxHashOrReference": ("._model_types", "TxHashOrReference"),
}
# -- end of lazy names --

if not _typing.TYPE_CHECKING:
    __getattr__, __dir__ = _attach(__name__, _HOMES)
