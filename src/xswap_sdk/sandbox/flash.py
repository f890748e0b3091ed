"""The emulated swap backend (Flash): chains, tokens, quotes, gateway balances, login,
swaps, history, leaderboard and referrals.

It answers with bare JSON, spelled as the spec spells each resource (chains and history
in camelCase, quotes and token lists in snake_case). Errors, which the spec does not
describe, are ``{"error": "<code>", "message": "<text>"}``.

Three chains: Ethereum (domain 0), Base (6) and Arbitrum One (3), with Circle's mainnet
GatewayWallet and GatewayMinter and native USDC (sent lowercase, as the live service
does). Each chain's router reads the documented format
`xswap_sdk._router_formats.SANDBOX_ROUTER_FORMAT`: a quote's ``hook_data`` and
``swap_calldata`` name its recipient, output token and minimum output in plain ABI
words. Gateway balances exist only once `FlashService.fund` puts USDC there. A swap
debits them, is ``pending``, and becomes ``completed`` (or ``failed``, see
`FlashService.fail_next`) ``completion_delay`` seconds later; a failed swap gives its
USDC back.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Final, Literal

from pydantic import Field

from .._router_formats import SANDBOX_ROUTER_FORMAT, encode_sandbox_router
from ..registry import SwapRouter
from ..signing import DEFAULT_MAX_FEE
from ..types import Address, ChainId, TokenAmount, from_units
from ._catalog import (
    CHAINS,
    GATEWAY_MINTER,
    GATEWAY_WALLET,
    TOKENS,
    Chain,
    Token,
    find_token,
    logo,
    token_json,
    usdc,
)
from ._flash_auth import Accounts
from ._flash_orders import Debit, Quote, check_order
from ._http import HTTPError, Request, Response, Service, checked
from ._world import OutcomeQueue, Timeline, World, iso

__all__ = ["FLASH_CHAINS", "SANDBOX_ROUTERS", "TOKEN_LIST_WORD", "FlashService", "chain_json"]

TOKEN_LIST_WORD: Final = "flash"
"""The word in ``in_<word>_token_list``: the live service spells the spec's ``service``
with its brand word, so the sandbox does too (clients must accept any word)."""

FLASH_CHAINS: Final = tuple(chain for chain in CHAINS.values() if chain.gateway_domain is not None)
"""The chains the swap backend serves: those with a Circle Gateway domain."""

SANDBOX_ROUTERS: Final = tuple(
    SwapRouter(
        chain.id,
        chain.router,
        output_format=SANDBOX_ROUTER_FORMAT,
        name=f"sandbox swap router ({chain.display_name})",
    )
    for chain in FLASH_CHAINS
)
"""The sandbox's swap routers, one per chain, with their format: what the sandbox's
clients pin (``registry.with_routers(*SANDBOX_ROUTERS)``), as a careful integrator pins
the routers it vetted."""

_ERROR_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    429: "rate_limited",
    503: "service_unavailable",
}
_TIME_RANGES: Final = {"all": None, "30d": 30 * 86400, "7d": 7 * 86400, "24h": 86400}
_Slippage = Annotated[float, Field(ge=0, le=50, allow_inf_nan=False)]
_PageNumber = Annotated[int, Field(ge=1)]
_PageSize = Annotated[int, Field(ge=1, le=100)]

SwapStatus = Literal["pending", "completed", "failed"]


@dataclass
class _Swap:
    id: str
    user: str
    quote: Quote
    debits: list[Debit]
    created_at: float
    timeline: Timeline
    tx_hash: str
    tx_id: str


def _decimal(amount: int, decimals: int) -> str:
    return str(from_units(amount, decimals))


def _token_json(token: Token) -> dict[str, Any]:
    return {
        "address": token.address,
        "symbol": token.symbol,
        "decimals": token.decimals,
        "logo_url": logo(token.symbol),
        "name": token.name,
        "chain_id": token.chain_id,
        f"in_{TOKEN_LIST_WORD}_token_list": True,
    }


def chain_json(chain: Chain) -> dict[str, Any]:
    """A chain as ``GET /supported-chains`` lists it."""
    coin = usdc(chain.id)
    return {
        "id": chain.id,
        "name": chain.key,
        "displayName": chain.display_name,
        "logoUrl": logo(chain.key),
        "explorerUrl": chain.explorer_url,
        "domain": chain.gateway_domain,
        "routerAddress": chain.router,
        "gatewayWallet": GATEWAY_WALLET,
        "gatewayMinter": GATEWAY_MINTER,
        "nativeToken": {
            "address": "0x" + "0" * 40,
            "name": chain.native_name,
            "symbol": chain.native_symbol,
            "decimals": 18,
            "logoUrl": logo(chain.native_symbol),
        },
        "usdc": {
            "address": coin.address.lower(),
            "name": coin.name,
            "symbol": coin.symbol,
            "decimals": coin.decimals,
            "logoUrl": logo(coin.symbol),
            "version": "2",
        },
    }


def _page(
    request: Request, items: list[Any], default_size: int
) -> tuple[list[Any], dict[str, Any]]:
    page: int = checked("page", _PageNumber, request.arg("page") or 1)
    size: int = checked("page_size", _PageSize, request.arg("page_size") or default_size)
    pages = max(1, -(-len(items) // size))
    pagination = {
        "current_page": page,
        "page_size": size,
        "total_entries": len(items),
        "total_pages": pages,
        "has_next": page < pages,
        "has_previous": page > 1,
    }
    return items[(page - 1) * size : page * size], pagination


class FlashService(Service):
    """The swap backend (``sb.flash``).

    Attributes:
        accounts: login state; set ``accounts.token_lifetime``,
            ``accounts.message_lifetime`` or ``accounts.referral_limit`` to change them.
        quote_lifetime: seconds a quote stays usable (``expires_at``).
        completion_delay: seconds a swap stays ``pending``.
        execution_fee_bps: the service fee, in basis points of the input (at least
            0.01 USDC).
    """

    name = "flash"
    """Its name in fault rules, the request log and `Sandbox.url`."""

    def __init__(
        self, world: World, *, host: str = "sandbox.invalid", jwt_secret: bytes | None = None
    ) -> None:
        super().__init__()
        self._world = world
        # Not annotated: the reference would name the private Accounts.
        self.accounts = Accounts(world, host, jwt_secret=jwt_secret)
        self.quote_lifetime: float = 300.0
        self.completion_delay: float = 8.0
        self.execution_fee_bps = 10
        self._funded: defaultdict[tuple[str, int], int] = defaultdict(int)
        self._quotes: dict[str, Quote] = {}
        self._swaps: list[_Swap] = []
        self._fates: OutcomeQueue[SwapStatus] = OutcomeQueue()
        add = self.router.add
        add("GET", "/supported-chains", self._chains, summary="chains and their contracts")
        add(
            "POST",
            "/auth/message",
            lambda r: Response.json(self.accounts.issue_message(r.json())),
            summary="a sign-in message for a wallet (sign its text with personal_sign)",
            body=("userAddress",),
        )
        add(
            "POST",
            "/auth/verify",
            lambda r: Response.json(self.accounts.verify(r.json())),
            summary="trade the signed message for a JWT",
            body=("signature", "messageId", "referredByCode?"),
        )
        add("GET", "/token-list", self._token_list, summary="tokens", query=("chain_id?",))
        add(
            "POST",
            "/search-token",
            self._search_token,
            summary="one token by address",
            body=("chainId", "address"),
        )
        add(
            "GET",
            "/quote",
            self._quote,
            summary="quote USDC (smallest units) into a token on a destination chain",
            query=("inputAmount", "outputToken", "chainId", "from", "slippage", "recipient?"),
        )
        add("GET", "/balance/{address}", self._balance, summary="gateway USDC per chain")
        add(
            "POST",
            "/swap",
            self._swap,
            summary="submit signed burn intents for a quote",
            body=(
                "signedOrder",
                "userAddress",
                "chainId",
                "swapRouterAddress",
                "swapCalldata",
                "slippageBps",
            ),
            auth="bearer",
        )
        add(
            "GET",
            "/history",
            self._history,
            summary="the logged-in wallet's swaps, newest first",
            query=("page?", "page_size?", "status?"),
            auth="bearer",
        )
        add(
            "GET",
            "/leaderboard",
            self._leaderboard,
            summary="wallets by volume",
            query=("page?", "page_size?", "time_range?"),
        )
        add("GET", "/referrals", self._referrals, summary="users you referred", auth="bearer")

    def error_response(self, error: HTTPError) -> Response:
        """``{"error": "<code>", "message": "<text>"}``."""
        code = error.code or _ERROR_CODES.get(error.status, "internal_error")
        return Response.json({"error": code, "message": error.message}, error.status, error.headers)

    # ------------------------------------------------------------------ balances

    def _chain(self, chain_id: Any, name: str = "chainId") -> Chain:
        checked_id: int = checked(name, ChainId, chain_id)
        chain = CHAINS.get(checked_id)
        if chain is None or chain.gateway_domain is None:
            supported = ", ".join(str(c.id) for c in FLASH_CHAINS)
            raise HTTPError(400, f"{name}: chain {checked_id} is not supported ({supported})")
        return chain

    def fund(self, address: str, chain_id: int, amount: int | str) -> int:
        """Deposit ``amount`` USDC (smallest units) into ``address``'s gateway balance
        on ``chain_id``, as a ``depositWithPermit`` would; return the new balance.

        Raises:
            ValueError: a bad address or amount, or a chain the swap backend does not
                serve.
        """
        try:
            owner: str = checked("address", Address, address)
            chain = self._chain(chain_id, "chain_id")
            units: int = checked("amount", TokenAmount, amount)
        except HTTPError as exc:
            raise ValueError(exc.message) from None
        self._funded[(owner, chain.id)] += units
        return self.balance(owner, chain.id)

    def balance(self, address: str, chain_id: int) -> int:
        """``address``'s gateway USDC on ``chain_id`` now, in smallest units: funded,
        minus what swaps that have not failed took."""
        owner: str = checked("address", Address, address)
        now = self._world.now()
        spent = sum(
            debit.value + debit.fee
            for swap in self._swaps
            if swap.user == owner and swap.timeline.at(now)["status"] != "failed"
            for debit in swap.debits
            if debit.chain.id == chain_id
        )
        return self._funded[(owner, chain_id)] - spent

    def fail_next(self, *, count: int = 1) -> None:
        """Make the next ``count`` accepted swaps end ``failed`` instead of
        ``completed`` (their USDC goes back to the gateway balances)."""
        self._fates.push("failed", count)

    # ------------------------------------------------------------------ chains, tokens

    def _chains(self, request: Request) -> Response:
        return Response.json([chain_json(chain) for chain in FLASH_CHAINS])

    def _token_list(self, request: Request) -> Response:
        wanted = request.arg("chain_id")
        chains = [self._chain(wanted, "chain_id")] if wanted else FLASH_CHAINS
        ids = {chain.id for chain in chains}
        return Response.json({"tokens": [_token_json(t) for t in TOKENS if t.chain_id in ids]})

    def _search_token(self, request: Request) -> Response:
        body = request.json()
        if not isinstance(body, dict) or body.get("chainId") is None or not body.get("address"):
            raise HTTPError(400, "chainId and address are required")
        chain = self._chain(body["chainId"])
        address: str = checked("address", Address, body["address"])
        token = find_token(chain.id, address)
        if token is None:
            raise HTTPError(404, f"token {address} not found on chain {chain.id}")
        flag = f"in{TOKEN_LIST_WORD.capitalize()}TokenList"
        return Response.json({**token_json(token), flag: True})

    # ------------------------------------------------------------------ quotes

    def _required(self, request: Request, *names: str) -> list[str]:
        values = [request.arg(name) for name in names]
        for name, value in zip(names, values, strict=True):
            if value is None or value == "":
                raise HTTPError(400, f"{name} is required")
        return [value for value in values if value is not None]

    def _quote(self, request: Request) -> Response:
        raw_amount, raw_token, raw_chain, raw_from, raw_slippage = self._required(
            request, "inputAmount", "outputToken", "chainId", "from", "slippage"
        )
        amount: int = checked("inputAmount", TokenAmount, raw_amount)
        chain = self._chain(raw_chain)
        user: str = checked("from", Address, raw_from)
        checked("slippage", _Slippage, raw_slippage)
        recipient: str = checked("recipient", Address, request.arg("recipient") or user)
        out_address: str = checked("outputToken", Address, raw_token)
        token_out = find_token(chain.id, out_address)
        if token_out is None:
            raise HTTPError(400, f"outputToken {out_address} is not listed on chain {chain.id}")
        execution_fee = max(10_000, amount * self.execution_fee_bps // 10_000)
        if amount <= execution_fee:
            raise HTTPError(400, "inputAmount is too small to cover the fees")
        amount_out, price_out = self._price(token_out, amount - execution_fee)
        quote_id = bytes.fromhex(self._world.hex(32))
        # Exact decimal arithmetic, as a router would do it in integers.
        min_out = int(Decimal(amount_out) * (100 - Decimal(raw_slippage)) / 100)
        hook_data, calldata = encode_sandbox_router(
            quote_id=quote_id,
            recipient=recipient,
            token_out=token_out.address,
            amount_in=amount,
            min_amount_out=min_out,
        )
        quote = Quote(
            id="0x" + quote_id.hex(),
            user=user,
            recipient=recipient,
            chain=chain,
            input_amount=amount,
            token_out=token_out,
            amount_out=amount_out,
            min_amount_out=min_out,
            gateway_fee=DEFAULT_MAX_FEE,  # covers the minimum fee of every source chain
            execution_fee=execution_fee,
            hook_data=hook_data,
            calldata=calldata,
            expires_at=int(self._world.now() + self.quote_lifetime),
        )
        self._quotes[quote.calldata] = quote
        return Response.json(
            {
                "token_in": self._side(usdc(chain.id), amount, 1.0),
                "token_out": self._side(token_out, amount_out, price_out),
                "fees": {
                    "total_fee": str(quote.gateway_fee + execution_fee),
                    "gateway_fee": str(quote.gateway_fee),
                    "execution_fee": str(execution_fee),
                },
                "single_swap_router": chain.router,
                "hook_data": quote.hook_data,
                "swap_router_address": chain.router,
                "swap_calldata": quote.calldata,
                "expires_at": quote.expires_at,
            }
        )

    def _price(self, token: Token, usdc_units: int) -> tuple[int, float]:
        """What ``usdc_units`` of USDC buy of ``token``, and at what USD price."""
        if token.is_usdc:
            return usdc_units, 1.0
        price = token.price_usd * self._world.wobble(0.002)
        return int(usdc_units / 10**6 / price * 10**token.decimals), price

    @staticmethod
    def _side(token: Token, amount: int, price: float) -> dict[str, Any]:
        return {
            "address": token.address,
            "amount": str(amount),
            "decimals": token.decimals,
            "logo_url": logo(token.symbol),
            "price_usd": f"{price:.6f}",
            "usd_amount": f"{amount / 10**token.decimals * price:.6f}",
        }

    def _balance(self, request: Request) -> Response:
        owner: str = checked("address", Address, request.path_params["address"])
        amounts = {chain.id: self.balance(owner, chain.id) for chain in FLASH_CHAINS}
        balances = [
            {
                "domain": chain.gateway_domain,
                "depositor": owner,
                "balance": str(amounts[chain.id]),
                "chainId": chain.id,
                "chainName": chain.display_name,
            }
            for chain in FLASH_CHAINS
        ]
        return Response.json({"balances": balances, "totalBalance": str(sum(amounts.values()))})

    # ------------------------------------------------------------------ swaps

    def _swap(self, request: Request) -> Response:
        user = self.accounts.authenticate(request)
        now = self._world.now()
        quote, debits = check_order(request.json(), user=user, quotes=self._quotes, now=now)
        needed: defaultdict[int, int] = defaultdict(int)
        for debit in debits:
            needed[debit.chain.id] += debit.value + debit.max_fee
        for chain_id, amount in needed.items():
            available = self.balance(user, chain_id)
            if amount > available:
                raise HTTPError(
                    400,
                    f"Insufficient balance on {CHAINS[chain_id].display_name}: available "
                    f"{_decimal(available, 6)} USDC, needed {_decimal(amount, 6)} USDC "
                    "(value + maxFee of its burn intents)",
                )
        quote.used = True
        ends = now + self.completion_delay
        timeline = Timeline().then(now, status="pending")
        timeline.then(ends, status=self._fates.take() or "completed")
        swap = _Swap(
            self._world.uuid(),
            user,
            quote,
            debits,
            now,
            timeline,
            self._world.tx_hash(),
            self._world.uuid(),
        )
        self._swaps.append(swap)
        return Response.json(
            {"transactionHash": swap.tx_hash, "status": "pending", "message": "Swap submitted"}
        )

    def _swap_json(self, swap: _Swap, now: float) -> dict[str, Any]:
        state = swap.timeline.at(now)
        quote = swap.quote
        first = swap.debits[0].chain
        return {
            "id": swap.id,
            "sourceDomain": first.gateway_domain,
            "destinationDomain": quote.chain.gateway_domain,
            "sourceToken": usdc(first.id).address,
            "destinationToken": quote.token_out.address,
            "tokenIn": _token_json(usdc(quote.chain.id)),
            "tokenOut": _token_json(quote.token_out),
            "amountUsdc": _decimal(quote.input_amount, 6),
            "amountUsdcRaw": str(quote.input_amount),
            "chainId": quote.chain.id,
            "minAmountOut": _decimal(quote.min_amount_out, quote.token_out.decimals),
            "serviceFee": _decimal(quote.execution_fee, 6),
            "serviceFeeRaw": str(quote.execution_fee),
            "transactionHash": swap.tx_hash,
            "status": state["status"],
            "txId": swap.tx_id,
            "createdAt": iso(swap.created_at),
            "updatedAt": iso(swap.timeline.changed_at(now)),
        }

    def _history(self, request: Request) -> Response:
        user = self.accounts.authenticate(request)
        now = self._world.now()
        status = request.arg("status")
        if status is not None and status not in ("pending", "completed", "failed"):
            raise HTTPError(400, "status must be pending, completed or failed")
        records = [self._swap_json(s, now) for s in reversed(self._swaps) if s.user == user]
        if status is not None:
            records = [record for record in records if record["status"] == status]
        page, pagination = _page(request, records, 20)
        volume = sum(int(record["amountUsdcRaw"]) for record in records)
        fees = sum(int(record["serviceFeeRaw"]) for record in records)
        summary = {
            "totalSwaps": len(records),
            "totalVolume": _decimal(volume, 6),
            "totalVolumeRaw": str(volume),
            "totalFees": _decimal(fees, 6),
            "totalFeesRaw": str(fees),
        }
        return Response.json({"swaps": page, "pagination": pagination, "summary": summary})

    # ------------------------------------------------------------------ rankings

    def _volumes(self, since: float | None, now: float) -> dict[str, list[_Swap]]:
        by_user: dict[str, list[_Swap]] = defaultdict(list)
        for swap in self._swaps:
            if (since is None or swap.created_at >= since) and swap.timeline.at(now)[
                "status"
            ] != "failed":
                by_user[swap.user].append(swap)
        return by_user

    def _leaderboard(self, request: Request) -> Response:
        time_range = request.arg("time_range") or "all"
        if time_range not in _TIME_RANGES:
            raise HTTPError(400, "time_range must be all, 30d, 7d or 24h")
        now = self._world.now()
        span = _TIME_RANGES[time_range]
        swaps = self._volumes(None if span is None else now - span, now)
        ranked: list[tuple[int, str, dict[str, Any]]] = []
        for address, user in self.accounts.users.items():
            own = swaps.get(address, [])
            referred = [u.address for u in self.accounts.referred_by(address)]
            volume = sum(s.quote.input_amount for s in own)
            referral = sum(s.quote.input_amount for a in referred for s in swaps.get(a, []))
            if not volume and not referral:
                continue
            entry = {
                "walletAddress": address,
                "totalVolume": _decimal(volume, 6),
                "totalVolumeRaw": str(volume),
                "swapCount": len(own),
                "referralCount": len(referred),
                "referralVolume": _decimal(referral, 6),
                "referralVolumeRaw": str(referral),
                "combined_volume": _decimal(volume + referral, 6),
                "referralCode": user.referral_code,
                "lastSwapAt": iso(max(s.created_at for s in own)) if own else None,
            }
            ranked.append((-(volume + referral), address, entry))
        ranked.sort(key=lambda item: item[:2])
        entries = [{"rank": rank, **item[2]} for rank, item in enumerate(ranked, start=1)]
        page, pagination = _page(request, entries, 50)
        return Response.json({"entries": page, "pagination": pagination})

    def _referrals(self, request: Request) -> Response:
        user = self.accounts.authenticate(request)
        now = self._world.now()
        swaps = self._volumes(None, now)
        referred = self.accounts.referred_by(user)
        volumes = [
            float(from_units(sum(s.quote.input_amount for s in swaps.get(u.address, [])), 6))
            for u in referred
        ]
        rows = [
            {"user_address": other.address, "total_volume_usdc": volume}
            for other, volume in zip(referred, volumes, strict=True)
        ]
        return Response.json(
            {
                "referrals": rows,
                "total_referral_volume": sum(volumes),
                "total_referrals_count": len(rows),
                "remaining_referral_limit": max(0, self.accounts.referral_limit - len(rows)),
            }
        )
