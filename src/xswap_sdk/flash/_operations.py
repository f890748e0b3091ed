"""The swap backend's operations as plain data: validate arguments, build `Operation`s.

No I/O; shared by `FlashClient` and `AsyncFlashClient`. Every argument is checked here,
before anything is sent.

Authentication, per the spec: ``POST /swap``, ``GET /history`` and ``GET /referrals``
need the JWT (``auth="required"``); every other operation is sent without it.

Retry decisions, per operation:

- ``POST /swap`` moves money: retried only when the request never left this machine.
  After it was sent, a timeout or 5xx raises with ``outcome_unknown=True``.
- ``POST /auth/verify`` spends the single-use message id: not retried once sent either
  (a new login asks for a new message).
- ``POST /auth/message`` and ``POST /search-token`` change nothing that matters and are
  retried like reads; so is every GET.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from .._models import check_argument, refuse_unawaited, validate_request
from .._operation import Operation, parser
from .._slippage import check_slippage as shared_check_slippage
from ..errors import InvalidInputError
from ..types import Address, ChainId, HexBytes
from ._chain_models import Chain

if TYPE_CHECKING:
    from ._auth_models import AuthMessage, AuthVerification
    from ._balance_models import GatewayBalance
    from ._history_models import HistoryPage, LeaderboardPage, ReferralOverview
    from ._quote_models import Quote, QuoteRequest
    from ._swap_models import SwapRequest, SwapSubmission
    from ._token_models import Token, TokenSearchResult

__all__ = [
    "DEFAULT_SWAP_POLL_INTERVAL",
    "DEFAULT_SWAP_TIMEOUT",
    "MAX_PAGE_SIZE",
    "check_chain_id",
    "check_page",
    "check_page_size",
    "check_slippage",
    "get_balance",
    "get_history",
    "get_leaderboard",
    "get_quote",
    "get_referrals",
    "get_supported_chains",
    "get_token_list",
    "quote_request",
    "request_auth_message",
    "search_token",
    "slippage_bps",
    "submit_swap",
    "verify_auth",
]

DEFAULT_SWAP_TIMEOUT: Final = 300.0
"""Seconds `swap` with ``wait=True`` (and `FlashClient.wait_for_swap`) waits for a swap
to complete or fail: a Gateway transfer and the destination swap usually take well
under a minute, and five minutes leaves room for a slow chain."""

DEFAULT_SWAP_POLL_INTERVAL: Final = 5.0
"""Seconds between two reads of the history while waiting."""

MAX_PAGE_SIZE: Final = 100
"""The largest ``page_size`` the SDK sends. The spec gives no maximum; 100 is our bound,
so a typo such as ``page_size=10000`` is refused before it reaches the service."""

_BPS_PER_PERCENT: Final = 100


# ------------------------------------------------------------------------------ arguments


def check_chain_id(chain_id: object, argument: str = "chain_id") -> int:
    """Validate a chain id argument (a positive int)."""
    checked: int = check_argument(argument, ChainId, chain_id)
    if checked == 0:
        raise InvalidInputError(argument, "must be a positive chain id")
    return checked


def check_page(page: object) -> int:
    """Validate a page number: an int from 1."""
    if isinstance(page, bool) or not isinstance(page, int) or page < 1:
        raise InvalidInputError("page", "must be an int of at least 1")
    return page


def check_page_size(page_size: object) -> int:
    """Validate a page size: an int from 1 to `MAX_PAGE_SIZE`."""
    if (
        isinstance(page_size, bool)
        or not isinstance(page_size, int)
        or not 1 <= page_size <= MAX_PAGE_SIZE
    ):
        raise InvalidInputError("page_size", f"must be an int from 1 to {MAX_PAGE_SIZE}")
    return page_size


def _check_choice(argument: str, value: object, choices: tuple[str, ...]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in choices:
        raise InvalidInputError(argument, f"must be one of {', '.join(choices)}, or None")
    return value


def check_slippage(
    slippage: object, argument: str = "slippage", *, max_slippage: object = None
) -> Decimal:
    """Validate a slippage in percent and return it as an exact `decimal.Decimal`.

    ``1.5`` means 1.5 %. The shared rule (`xswap_sdk._slippage.check_slippage`) applies:
    a number from 0 to 100, at most ``max_slippage`` (5 % by default), refused naming
    ``slippage`` and ``max_slippage`` above it. On top, the value must be a whole number
    of basis points: ``1.5`` and ``"0.01"`` are, ``1.234`` is not (``POST /swap`` takes
    basis points, so a finer value could not be honoured). A float is read through its
    shortest text (``1.1`` is ``Decimal("1.1")``), never through its binary value.
    """
    if slippage is None:
        raise InvalidInputError(argument, "is required: a number of percent such as 0.5")
    value = shared_check_slippage(slippage, max_slippage=max_slippage, argument=argument)
    assert value is not None  # only None gives None
    if (value * _BPS_PER_PERCENT) % 1 != 0:
        raise InvalidInputError(
            argument, "must be a whole number of basis points (at most 2 decimal places)"
        )
    return value


def slippage_bps(slippage: Decimal) -> int:
    """Basis points from a checked percent: ``Decimal("1.5")`` gives 150, exactly."""
    return int(slippage * _BPS_PER_PERCENT)


def quote_request(
    *,
    input_amount: int | str,
    output_token: str,
    chain_id: int,
    sender: str,
    slippage: Decimal | float | int | str,
    recipient: str | None = None,
    max_slippage: Decimal | float | int | str | None = None,
) -> QuoteRequest:
    """Validate the arguments of ``GET /quote`` (``slippage`` at most ``max_slippage``,
    5 % by default)."""
    from ._quote_models import QuoteRequest  # lazy: the quote models, at the first quote

    return validate_request(
        QuoteRequest,
        input_amount=input_amount,
        output_token=output_token,
        chain_id=check_chain_id(chain_id),
        sender=sender,
        slippage=check_slippage(slippage, max_slippage=max_slippage),
        recipient=recipient,
    )


# ------------------------------------------------------------------------------ operations


def get_supported_chains() -> Operation[list[Chain]]:
    """``GET /supported-chains``: a bare JSON array of chains."""
    return Operation("GET", "/supported-chains", parser(list[Chain]), auth="none")


def request_auth_message(user_address: str) -> Operation[AuthMessage]:
    """``POST /auth/message``: the text the wallet signs to log in."""
    from ._auth_models import AuthMessage  # lazy: the login models, at the first login

    address = check_argument("user_address", Address, user_address)
    return Operation(
        "POST",
        "/auth/message",
        parser(AuthMessage),
        json={"userAddress": address},
        auth="none",
    )


def verify_auth(
    signature: str, message_id: str, referred_by_code: str | None = None
) -> Operation[AuthVerification]:
    """``POST /auth/verify``: trade the signed message for a JWT."""
    from ._auth_models import AuthVerification  # lazy: the login models, at the first login

    signature = check_argument("signature", HexBytes, signature)
    if len(signature) < 4:
        raise InvalidInputError("signature", "must not be empty")
    refuse_unawaited("message_id", message_id)
    if not isinstance(message_id, str) or not message_id.strip():
        raise InvalidInputError("message_id", "must be the messageId from request_auth_message")
    body: dict[str, Any] = {"signature": signature, "messageId": message_id}
    if referred_by_code is not None:
        if not isinstance(referred_by_code, str) or not referred_by_code.strip():
            raise InvalidInputError("referred_by_code", "must be a non-empty string or None")
        body["referredByCode"] = referred_by_code
    return Operation(
        "POST",
        "/auth/verify",
        parser(AuthVerification),
        json=body,
        idempotent=False,
        auth="none",
        secrets=(signature,),
        redact=("token",),
    )


def _tokens(data: Any) -> list[Token]:
    from ._token_models import TokenList  # lazy: the token models, at the first token call

    # The spec's {"tokens": [...]}; a bare array is read as the list itself.
    if isinstance(data, list):
        data = {"tokens": data}
    return TokenList.model_validate(data).tokens


def get_token_list(chain_id: int | None = None) -> Operation[list[Token]]:
    """``GET /token-list``, for one chain or (``chain_id=None``) for all."""
    params = None if chain_id is None else [("chain_id", str(check_chain_id(chain_id)))]
    return Operation("GET", "/token-list", _tokens, params=params, auth="none")


def search_token(chain_id: int, address: str) -> Operation[TokenSearchResult]:
    """``POST /search-token``: look a token up by address."""
    # lazy: the token models, at the first token call
    from ._token_models import SearchTokenRequest, TokenSearchResult

    request = validate_request(
        SearchTokenRequest, chain_id=check_chain_id(chain_id), address=address
    )
    return Operation(
        "POST", "/search-token", parser(TokenSearchResult), json=request.to_wire(), auth="none"
    )


def get_quote(request: QuoteRequest) -> Operation[Quote]:
    """``GET /quote``; the `Quote` keeps ``request`` for the checks made before signing."""

    from ._quote_models import Quote  # lazy: the quote models, at the first quote

    def parse(data: Any) -> Quote:
        quote = Quote.model_validate(data)
        quote._request = request
        return quote

    return Operation("GET", "/quote", parse, params=request.to_params(), auth="none")


def get_balance(address: str) -> Operation[GatewayBalance]:
    """``GET /balance/{address}``: the user's gateway balances."""
    from ._balance_models import GatewayBalance  # lazy: the balance models, when used

    checked = check_argument("address", Address, address)
    return Operation(
        "GET",
        f"/balance/{checked}",
        parser(GatewayBalance),
        auth="none",
        path_template="/balance/{address}",
    )


def submit_swap(request: SwapRequest) -> Operation[SwapSubmission]:
    """``POST /swap``: money-moving, so never retried once sent. Single-use: its burn
    intents can be burned once (by salt), however often the order is sent."""
    from ._swap_models import SwapSubmission  # lazy: the swap models, at the first swap

    signatures = tuple(
        element["signature"]
        for element in request.signed_order
        if isinstance(element.get("signature"), str)
    )
    return Operation(
        "POST",
        "/swap",
        parser(SwapSubmission),
        json=request.to_wire(),
        idempotent=False,
        auth="required",
        secrets=signatures,
        single_use=True,
        identify=_swap_hash,
    )


def _swap_hash(result: SwapSubmission) -> tuple[str, ...]:
    return (result.transaction_hash,) if result.transaction_hash else ()


def get_history(
    page: int = 1, page_size: int = 20, status: str | None = None
) -> Operation[HistoryPage]:
    """``GET /history``: one page of the user's swaps."""
    from ._history_models import HistoryPage  # lazy: the history models, when used
    from ._model_types import SWAP_STATUSES  # lazy: loaded with the history models

    params = [("page", str(check_page(page))), ("page_size", str(check_page_size(page_size)))]
    checked = _check_choice("status", status, SWAP_STATUSES)
    if checked is not None:
        params.append(("status", checked))
    return Operation("GET", "/history", parser(HistoryPage), params=params, auth="required")


def get_leaderboard(
    page: int = 1, page_size: int = 50, time_range: str | None = None
) -> Operation[LeaderboardPage]:
    """``GET /leaderboard``: one page of the ranking."""
    from ._history_models import LeaderboardPage  # lazy: the history models, when used
    from ._model_types import TIME_RANGES  # lazy: loaded with the history models

    params = [("page", str(check_page(page))), ("page_size", str(check_page_size(page_size)))]
    checked = _check_choice("time_range", time_range, TIME_RANGES)
    if checked is not None:
        params.append(("time_range", checked))
    return Operation("GET", "/leaderboard", parser(LeaderboardPage), params=params, auth="none")


def get_referrals() -> Operation[ReferralOverview]:
    """``GET /referrals``: the user's referrals."""
    from ._history_models import ReferralOverview  # lazy: the history models, when used

    return Operation("GET", "/referrals", parser(ReferralOverview), auth="required")
