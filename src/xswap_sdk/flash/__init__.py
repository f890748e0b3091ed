"""The cross-chain USDC swap backend (Flash) on Circle Gateway.

`FlashClient` and `AsyncFlashClient` cover every endpoint: chains, tokens, quotes,
gateway balances, swap submission, history, leaderboard, referrals and the
wallet-signature login. On top of them: `build_order` and `sign_order` turn a quote and
the gateway balances into signed burn intents, `FlashClient.swap` does the whole swap in
one call, and `FlashClient.deposit` fills the gateway wallet with a USDC permit.
"""

import typing as _typing

from .._exports import attach as _attach

if _typing.TYPE_CHECKING:
    from ._async_client import AsyncFlashClient
    from ._auth import AuthSession
    from ._deposit import DepositResult
    from ._operations import DEFAULT_SWAP_POLL_INTERVAL, DEFAULT_SWAP_TIMEOUT
    from ._orders import Order, OrderSource, SignedOrder, build_order, select_sources, sign_order
    from ._sync_client import FlashClient
    from ._trust import OutputTerms
    from .models import (
        AuthMessage,
        AuthVerification,
        Chain,
        ChainToken,
        GatewayBalance,
        GatewayBalanceEntry,
        HistoryPage,
        HistorySummary,
        LeaderboardEntry,
        LeaderboardPage,
        Pagination,
        Quote,
        QuoteFees,
        QuoteRequest,
        QuoteToken,
        Referral,
        ReferralOverview,
        SwapRecord,
        SwapRequest,
        SwapStatus,
        SwapSubmission,
        TimeRange,
        Token,
        TokenSearchResult,
    )

# The clients first, sync before async: the API reference follows this order.
__all__ = [
    "FlashClient",
    "AsyncFlashClient",
    "DEFAULT_SWAP_POLL_INTERVAL",
    "DEFAULT_SWAP_TIMEOUT",
    "AuthMessage",
    "AuthSession",
    "AuthVerification",
    "Chain",
    "ChainToken",
    "DepositResult",
    "GatewayBalance",
    "GatewayBalanceEntry",
    "HistoryPage",
    "HistorySummary",
    "LeaderboardEntry",
    "LeaderboardPage",
    "Order",
    "OrderSource",
    "OutputTerms",
    "Pagination",
    "Quote",
    "QuoteFees",
    "QuoteRequest",
    "QuoteToken",
    "Referral",
    "ReferralOverview",
    "SignedOrder",
    "SwapRecord",
    "SwapRequest",
    "SwapStatus",
    "SwapSubmission",
    "TimeRange",
    "Token",
    "TokenSearchResult",
    "build_order",
    "select_sources",
    "sign_order",
]

# Each name above is imported on first use (PEP 562), from where this table says it lives
# (see xswap_sdk._exports): a table, not the source, so that frozen and zipped apps work.
# -- lazy names: written by scripts/lazy_tables.py from the TYPE_CHECKING imports --
_HOMES = {
    "AsyncFlashClient": ("._async_client", "AsyncFlashClient"),
    "AuthMessage": (".models", "AuthMessage"),
    "AuthSession": ("._auth", "AuthSession"),
    "AuthVerification": (".models", "AuthVerification"),
    "Chain": (".models", "Chain"),
    "ChainToken": (".models", "ChainToken"),
    "DEFAULT_SWAP_POLL_INTERVAL": ("._operations", "DEFAULT_SWAP_POLL_INTERVAL"),
    "DEFAULT_SWAP_TIMEOUT": ("._operations", "DEFAULT_SWAP_TIMEOUT"),
    "DepositResult": ("._deposit", "DepositResult"),
    "FlashClient": ("._sync_client", "FlashClient"),
    "GatewayBalance": (".models", "GatewayBalance"),
    "GatewayBalanceEntry": (".models", "GatewayBalanceEntry"),
    "HistoryPage": (".models", "HistoryPage"),
    "HistorySummary": (".models", "HistorySummary"),
    "LeaderboardEntry": (".models", "LeaderboardEntry"),
    "LeaderboardPage": (".models", "LeaderboardPage"),
    "Order": ("._orders", "Order"),
    "OrderSource": ("._orders", "OrderSource"),
    "OutputTerms": ("._trust", "OutputTerms"),
    "Pagination": (".models", "Pagination"),
    "Quote": (".models", "Quote"),
    "QuoteFees": (".models", "QuoteFees"),
    "QuoteRequest": (".models", "QuoteRequest"),
    "QuoteToken": (".models", "QuoteToken"),
    "Referral": (".models", "Referral"),
    "ReferralOverview": (".models", "ReferralOverview"),
    "SignedOrder": ("._orders", "SignedOrder"),
    "SwapRecord": (".models", "SwapRecord"),
    "SwapRequest": (".models", "SwapRequest"),
    "SwapStatus": (".models", "SwapStatus"),
    "SwapSubmission": (".models", "SwapSubmission"),
    "TimeRange": (".models", "TimeRange"),
    "Token": (".models", "Token"),
    "TokenSearchResult": (".models", "TokenSearchResult"),
    "build_order": ("._orders", "build_order"),
    "select_sources": ("._orders", "select_sources"),
    "sign_order": ("._orders", "sign_order"),
}
# -- end of lazy names --

if not _typing.TYPE_CHECKING:
    __getattr__, __dir__ = _attach(__name__, _HOMES)
