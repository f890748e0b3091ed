"""Models of the swap backend: what it returns, and the bodies sent to it.

Response models read tolerantly: statuses are an open set and unknown fields are kept.
A field the spec lists is required, so a typed caller needs no ``None`` check for it; a
missing one raises `xswap_sdk.errors.ResponseValidationError` naming it. Only what the
spec does not promise is optional (``usdc.version``, a leaderboard user's last swap). The backend
mixes spellings, and each model follows the spec's: chains, balances, history records,
the history summary and the leaderboard are camelCase; quotes, token lists, pagination
and referrals are snake_case; the login answer mixes both. Every token amount is an
``int`` in smallest units, also where the backend sends decimal USDC (``"12.5"`` is read
exactly as ``12500000``, see `xswap_sdk.types.UsdcUnits`); prices and values in USD and
percentages stay `decimal.Decimal`.

The token list flag ``in_service_token_list`` / ``inServiceTokenList`` carries a brand
word on the live service in place of ``service``; any ``in_<word>_token_list`` or
``in<Word>TokenList`` key is read into that field.
"""

import typing as _typing

from .._exports import attach as _attach

if _typing.TYPE_CHECKING:
    from ._auth_models import (
        AuthMessage,
        AuthVerification,
    )
    from ._balance_models import (
        GatewayBalance,
        GatewayBalanceEntry,
    )
    from ._chain_models import (
        Chain,
        ChainToken,
    )
    from ._history_models import (
        HistoryPage,
        HistorySummary,
        LeaderboardEntry,
        LeaderboardPage,
        Pagination,
        Referral,
        ReferralOverview,
        SwapRecord,
    )
    from ._model_types import (
        SWAP_STATUSES,
        TIME_RANGES,
        SwapStatus,
        TimeRange,
    )
    from ._quote_models import (
        Quote,
        QuoteFees,
        QuoteRequest,
        QuoteToken,
    )
    from ._swap_models import (
        SwapRequest,
        SwapSubmission,
    )
    from ._token_models import (
        SearchTokenRequest,
        Token,
        TokenList,
        TokenSearchResult,
    )

__all__ = [
    "AuthMessage",
    "AuthVerification",
    "Chain",
    "ChainToken",
    "GatewayBalance",
    "GatewayBalanceEntry",
    "HistoryPage",
    "HistorySummary",
    "LeaderboardEntry",
    "LeaderboardPage",
    "Pagination",
    "Quote",
    "QuoteFees",
    "QuoteRequest",
    "QuoteToken",
    "Referral",
    "ReferralOverview",
    "SearchTokenRequest",
    "SWAP_STATUSES",
    "SwapRecord",
    "SwapRequest",
    "SwapStatus",
    "SwapSubmission",
    "TIME_RANGES",
    "TimeRange",
    "Token",
    "TokenList",
    "TokenSearchResult",
]

# Each model is written in a private module of its group (chains, tokens, quotes,
# balances, history, login, swaps), loaded on first use (PEP 562) from where this table
# says it lives: a client's first read builds the chain models alone, not the service's
# twenty-five. Every class names this module as its home (__module__), so reprs, pickles
# and the reference are as before.
# -- lazy names: written by scripts/lazy_tables.py from the TYPE_CHECKING imports --
_HOMES = {
    "AuthMessage": ("._auth_models", "AuthMessage"),
    "AuthVerification": ("._auth_models", "AuthVerification"),
    "Chain": ("._chain_models", "Chain"),
    "ChainToken": ("._chain_models", "ChainToken"),
    "GatewayBalance": ("._balance_models", "GatewayBalance"),
    "GatewayBalanceEntry": ("._balance_models", "GatewayBalanceEntry"),
    "HistoryPage": ("._history_models", "HistoryPage"),
    "HistorySummary": ("._history_models", "HistorySummary"),
    "LeaderboardEntry": ("._history_models", "LeaderboardEntry"),
    "LeaderboardPage": ("._history_models", "LeaderboardPage"),
    "Pagination": ("._history_models", "Pagination"),
    "Quote": ("._quote_models", "Quote"),
    "QuoteFees": ("._quote_models", "QuoteFees"),
    "QuoteRequest": ("._quote_models", "QuoteRequest"),
    "QuoteToken": ("._quote_models", "QuoteToken"),
    "Referral": ("._history_models", "Referral"),
    "ReferralOverview": ("._history_models", "ReferralOverview"),
    "SWAP_STATUSES": ("._model_types", "SWAP_STATUSES"),
    "SearchTokenRequest": ("._token_models", "SearchTokenRequest"),
    "SwapRecord": ("._history_models", "SwapRecord"),
    "SwapRequest": ("._swap_models", "SwapRequest"),
    "SwapStatus": ("._model_types", "SwapStatus"),
    "SwapSubmission": ("._swap_models", "SwapSubmission"),
    "TIME_RANGES": ("._model_types", "TIME_RANGES"),
    "TimeRange": ("._model_types", "TimeRange"),
    "Token": ("._token_models", "Token"),
    "TokenList": ("._token_models", "TokenList"),
    "TokenSearchResult": ("._token_models", "TokenSearchResult"),
}
# -- end of lazy names --

if not _typing.TYPE_CHECKING:
    __getattr__, __dir__ = _attach(__name__, _HOMES)
