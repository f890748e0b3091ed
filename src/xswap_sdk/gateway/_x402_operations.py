"""Operations of Gateway's newer endpoints as plain data: pending deposits, batched
authorizations, the x402 facilitator's kinds and transfers, webhook public keys.

Retry decisions: ``POST /v1/batch/submit`` locks the sender's balance and queues a
transfer, so it is retried only when it never left this machine; everything else here
reads.

The x402 transfer search pages with a cursor: Gateway answers a page with a ``Link``
header whose ``rel="next"`` URL carries ``pageAfter``. Only that cursor is taken from
the URL (never its host, so a page cannot send the walk elsewhere); a cursor seen twice
raises `PaginationError`, and so does a walk past `DEFAULT_MAX_PAGES` pages.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qs, quote, urlsplit

import httpx

from .._flow import Call
from .._models import check_argument
from .._operation import Operation, parser
from .._pagination import DEFAULT_MAX_PAGES, Emit, PageWalk
from ..errors import InvalidInputError, PaginationError
from ..registry import Registry
from ..signing._fields import Uint256
from ..signing.eip3009 import (
    GATEWAY_BATCH_VALIDITY,
    GATEWAY_BATCHED_DOMAIN_NAME,
    GATEWAY_BATCHED_DOMAIN_VERSION,
    GATEWAY_MIN_BATCH_VALIDITY,
    MAX_BATCH_VALIDITY,
    TransferAuthorization,
    sign_transfer_authorization,
)
from ..signing.signer import Signer
from ..types import Address
from ._operations import X402_TRANSFERS_PAGE_SIZE, domain_of
from .models import BalancesRequest
from .webhooks import NotificationPublicKey
from .x402 import (
    BatchAuthorization,
    BatchSubmission,
    BatchSubmitRequest,
    PendingDeposits,
    X402Supported,
    X402Transfer,
)

__all__ = ["DEFAULT_BATCH_LIFETIME", "X402_TRANSFERS_PAGE_SIZE"]

DEPOSITS_PATH: Final = "/v1/deposits"
BATCH_SUBMIT_PATH: Final = "/v1/batch/submit"
X402_SUPPORTED_PATH: Final = "/v1/x402/supported"
X402_TRANSFERS_PATH: Final = "/v1/x402/transfers"
PUBLIC_KEY_PATH: Final = "/v2/notifications/publicKey"

DEFAULT_BATCH_LIFETIME: Final = GATEWAY_BATCH_VALIDITY
"""Seconds a batched authorization stays valid when no ``valid_before`` is given:
604,900, Circle's batching window (Gateway refuses one valid less than seven days:
`xswap_sdk.signing.eip3009.GATEWAY_MIN_BATCH_VALIDITY`)."""

_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_LINK = re.compile(r"<([^>]*)>\s*((?:;\s*[^;,]*)*)")


def get_deposits(request: BalancesRequest) -> Operation[PendingDeposits]:
    """``POST /v1/deposits``: deposits seen but not yet final."""
    return Operation("POST", DEPOSITS_PATH, parser(PendingDeposits), json=request.to_wire())


def batch_valid_before(valid_before: object, now: float) -> int:
    """When a batched authorization expires: ``valid_before`` (unix seconds) checked
    against Gateway's rule, at least `GATEWAY_MIN_BATCH_VALIDITY` (seven days) from
    ``now``, and the SDK's, at most `MAX_BATCH_VALIDITY` (fourteen days); `now` plus
    `DEFAULT_BATCH_LIFETIME` when ``None``.

    Raises:
        InvalidInputError: not a whole unix time within those bounds.
    """
    start = int(now)
    if valid_before is None:
        return start + DEFAULT_BATCH_LIFETIME
    expires = check_argument("valid_before", Uint256, valid_before)
    low, high = start + GATEWAY_MIN_BATCH_VALIDITY, start + MAX_BATCH_VALIDITY
    if not low <= expires <= high:
        raise InvalidInputError(
            "valid_before",
            f"must be from {low} to {high} (unix seconds): Gateway refuses a batched "
            "authorization valid less than seven days (authorization_validity_too_short), "
            "and the SDK signs none valid more than fourteen",
        )
    return int(expires)


def sign_batch_authorization(
    signer: Signer,
    *,
    chain_id: int,
    to: str,
    value: int | str,
    valid_before: int | str | None,
    nonce: str | None,
    now: float,
    registry: Registry,
    testnet: bool,
) -> tuple[BatchSubmitRequest, TransferAuthorization]:
    """Sign a same-chain batched transfer of ``value`` to ``to`` from the signer's
    Gateway balance on ``chain_id``: the EIP-712 domain is ``GatewayWalletBatched`` ``1``
    with the registry's GatewayWallet of the chain, the domains are the registry's."""
    domain = domain_of(chain_id, registry=registry, testnet=testnet)
    registry.chain(chain_id).require_evm()
    recipient = check_argument("to", Address, to)
    if check_argument("value", Uint256, value) == 0:
        raise InvalidInputError("value", "must be above 0, in smallest USDC units")
    expires = batch_valid_before(valid_before, now)
    authorization = sign_transfer_authorization(
        signer,
        domain_name=GATEWAY_BATCHED_DOMAIN_NAME,
        domain_version=GATEWAY_BATCHED_DOMAIN_VERSION,
        chain_id=chain_id,
        verifying_contract=registry.chain(chain_id).gateway_wallet,
        to=recipient,
        value=value,
        valid_after=0,
        valid_before=expires,
        nonce=nonce,
        now=now,
    )
    auth = BatchAuthorization(
        from_=authorization.authorizer,
        to=authorization.to,
        value=str(authorization.value),
        valid_after=str(authorization.valid_after),
        valid_before=str(authorization.valid_before),
        nonce=authorization.nonce,
        signature=authorization.signature,
    )
    request = BatchSubmitRequest(
        sending_domain=domain, recipient_domain=domain, auth={"eip3009Auth": auth}
    )
    return request, authorization


def submit_batch(
    request: BatchSubmitRequest, authorization: TransferAuthorization
) -> Operation[BatchSubmission]:
    """``POST /v1/batch/submit``: moves money, so not retried once sent."""
    return Operation(
        "POST",
        BATCH_SUBMIT_PATH,
        parser(BatchSubmission),
        json=request.to_wire(),
        idempotent=False,
        secrets=(authorization.signature,),
    )


def get_x402_supported() -> Operation[X402Supported]:
    """``GET /v1/x402/supported``."""
    return Operation("GET", X402_SUPPORTED_PATH, parser(X402Supported))


def check_uuid(argument: str, value: object) -> str:
    """A UUID argument (an id of Gateway's), checked before any I/O."""
    if not isinstance(value, str) or not _UUID.fullmatch(value):
        raise InvalidInputError(argument, "must be a UUID such as 3c90c3cc-0d44-4b50-8888-...")
    return value


def get_x402_transfer(transfer_id: str) -> Operation[X402Transfer]:
    """``GET /v1/x402/transfers/{id}``."""
    checked = check_uuid("transfer_id", transfer_id)
    return Operation(
        "GET",
        f"{X402_TRANSFERS_PATH}/{quote(checked)}",
        parser(X402Transfer),
        path_template=f"{X402_TRANSFERS_PATH}/{{id}}",
    )


def get_notification_public_key(key_id: str) -> Operation[NotificationPublicKey]:
    """``GET /v2/notifications/publicKey/{id}``: the key that signs webhooks."""
    checked = check_uuid("key_id", key_id)
    return Operation(
        "GET",
        f"{PUBLIC_KEY_PATH}/{quote(checked)}",
        lambda data: parser(NotificationPublicKey)(
            data.get("data", data) if isinstance(data, dict) else data
        ),
        path_template=f"{PUBLIC_KEY_PATH}/{{id}}",
    )


# ------------------------------------------------------------------------------ the search


@dataclass(frozen=True, slots=True)
class _Page:
    items: list[X402Transfer]
    after: str | None


def _items(data: Any) -> list[X402Transfer]:
    # A bare list, or an object holding it (``transfers``, or ``data``).
    if isinstance(data, dict):
        data = data.get("transfers", data.get("data"))
    result: list[X402Transfer] = parser(list[X402Transfer])(data)
    return result


def next_cursor(headers: httpx.Headers) -> str | None:
    """The ``pageAfter`` of the ``rel="next"`` link of a ``Link`` header, or ``None``."""
    for link in headers.get_list("link", split_commas=False):
        for url, params in _LINK.findall(link):
            if not re.search(r'rel\s*=\s*"?next"?', params):
                continue
            after: list[str] = parse_qs(urlsplit(url).query).get("pageAfter", [])
            if after:
                return after[0]
    return None


def _search_params(
    *,
    from_address: str | None,
    to_address: str | None,
    nonce: str | None,
    status: str | None,
    network: str | None,
    token: str | None,
    page_size: int,
) -> list[tuple[str, str]]:
    params: list[tuple[str, str]] = []
    if from_address is not None:
        params.append(("from", check_argument("from_address", Address, from_address)))
    if to_address is not None:
        params.append(("to", check_argument("to_address", Address, to_address)))
    if nonce is not None:
        if not isinstance(nonce, str) or not re.fullmatch(r"0x[0-9a-fA-F]{64}", nonce):
            raise InvalidInputError("nonce", "must be 0x and 64 hex digits")
        params.append(("nonce", nonce))
    if status is not None:
        if not isinstance(status, str) or not status:
            raise InvalidInputError("status", "must be a status such as 'completed'")
        if not params:
            raise InvalidInputError(
                "status",
                "needs from_address, to_address or nonce too (Gateway refuses a search "
                "by status alone)",
            )
        params.append(("status", status))
    for name, value in (("network", network), ("token", token)):
        if value is not None:
            if not isinstance(value, str) or not value:
                raise InvalidInputError(name, "must be a non-empty str")
            params.append((name, value))
    if isinstance(page_size, bool) or not isinstance(page_size, int) or not 1 <= page_size <= 100:
        raise InvalidInputError("page_size", "must be an int from 1 to 100")
    params.append(("pageSize", str(page_size)))
    return params


def walk_x402_transfers(
    *, max_pages: int = DEFAULT_MAX_PAGES, **filters: Any
) -> PageWalk[X402Transfer]:
    """Read the x402 transfer search page after page, following the ``Link`` cursor.

    Filters are checked before any I/O (see `_search_params`).
    """
    params = _search_params(**filters)

    def fetch(after: str | None) -> Operation[_Page]:
        query = params if after is None else [*params, ("pageAfter", after)]
        operation: Operation[Any] = Operation(
            "GET",
            X402_TRANSFERS_PATH,
            _items,
            params=query,
            with_headers=lambda items, headers: _Page(items, next_cursor(headers)),
        )
        return operation

    return _walk(fetch, max_pages)


def _walk(fetch: Callable[[str | None], Operation[_Page]], max_pages: int) -> PageWalk[Any]:
    after: str | None = None
    seen: set[str] = set()
    for number in range(1, max_pages + 1):
        operation = fetch(after)
        page: _Page = yield Call(operation)
        for item in page.items:
            yield Emit(item)
        if page.after is None or not page.items:
            return
        if page.after in seen:
            raise PaginationError(
                f"the service sent the cursor of page {number} before; stopped rather "
                "than loop forever",
                page=number,
                method=operation.method,
                path=operation.log_path,
            )
        seen.add(page.after)
        after = page.after
    raise PaginationError(
        f"the service still reports a next page after {max_pages:,} pages",
        page=max_pages + 1,
        method="GET",
        path=X402_TRANSFERS_PATH,
    )
