"""The emulated routing service (xPath): quotes, built transactions, status, chains,
tokens and gasless swaps.

Successful answers are ``{code: 0, message: "success", data}``. Failures are the same
envelope with the HTTP status as ``code`` and ``data: null``, except where the spec
shows plain text: ``Invalid request`` (``/supported-chains`` given parameters it does
not take) and ``Internal server error`` (any 5xx, injected by a fault). ``api-key`` is
required on ``/supported-chains`` and ``/gasless/status`` (401 without it, or with
another key); other endpoints do not check it.

The sandbox has no chain. A transaction built by ``/build-path`` goes nowhere until
`RoutingService.broadcast` stands in for sending it; ``/status`` then reports it
``pending``, and ``completed`` once the route's estimated time (or
`RoutingService.status_delay`) has passed. ``/status`` answers in both documented
request shapes: ``txHash`` and ``fromChain``, or ``providerKey`` and ``txRef`` (then in
the second answer shape).

Allowances can be emulated too: with ``enforce_allowances = True``, `broadcast` of an
ERC-20 route needs the sender to have approved the transaction's target for the amount
(`RoutingService.approve`, or a real chain's state copied in), and spends it, as the
routing contract's ``transferFrom`` would; a short allowance fails the send.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Annotated, Any, Final

from eth_hash.auto import keccak
from pydantic import Field

from ..types import Address, ChainId, TokenAmount
from ._abi import abi_words
from ._catalog import CHAINS, TOKENS, Token, find_token, logo, token_json
from ._gasless import RELAYER_ID_FIELD, GaslessDesk
from ._http import HTTPError, Request, Response, Service, check_api_key, checked
from ._routes import Plan, RouteMode, RouteQuery, plan_routes, rank, route_json
from ._world import Timeline, World
from .relayer import RelayerService

__all__ = ["API_KEY", "SANDBOX_ROUTING_CONTRACTS", "RoutingService"]

API_KEY: Final = "sandbox-routing-key"
"""The API key the sandbox routing service accepts."""

SANDBOX_ROUTING_CONTRACTS: Final[Mapping[int, str]] = MappingProxyType(
    {chain.id: chain.routing_contract for chain in CHAINS.values()}
)
"""The sandbox's routing contract on each chain (``{chain_id: address}``): what its
clients pin as ``routing_contracts=``, and what a live `RoutingClient` pointed at a
served sandbox must pin too, since the SDK takes no spender from a service's answer."""

_ROUTE_SELECTOR = keccak(b"executeRoute(bytes32,address,uint256,address)")[:4]
_RANKING_MODES: Final = {"value_max": "max_value", "balanced": "suggested", "speed_max": "fastest"}
"""``/gasless/quote``'s ``rankingMode`` words, in ``/quote``'s ``routeMode`` words."""
_QUOTE_QUERY: Final = (
    "fromChain",
    "toChain",
    "fromToken",
    "toToken",
    "amount",
    "sender",
    "receiver?",
    "slippage?",
    "feeBps?",
    "includeProvider?",
    "excludeProvider?",
    "routeMode?",
    "Integrator?",
    "allowMultiBridge?",
)
_Percent = Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)]
_Bps = Annotated[int, Field(ge=0, le=10_000)]
_PositiveAmount = Annotated[TokenAmount, Field(gt=0)]


@dataclass
class _Quoted:
    route: dict[str, Any]
    plan: Plan
    expiry: int


@dataclass
class _Tracked:
    source_hash: str
    quoted: _Quoted
    created_at: float
    timeline: Timeline

    @property
    def route(self) -> dict[str, Any]:
        return self.quoted.route


def _is_tracked_as(tracked: _Tracked, request: Request) -> bool:
    # The optional qualifiers of /status must agree with what is tracked.
    from_chain = request.arg("fromChain")
    source_chain = tracked.route["fromToken"]["chain"]
    if from_chain is not None and checked("fromChain", ChainId, from_chain) != source_chain:
        return False
    user = request.arg("userAddress")
    if user is not None and checked("userAddress", Address, user) != tracked.route["sender"]:
        return False
    key = request.arg("providerKey")
    return key is None or key.lower() in {p.key for p in tracked.quoted.plan.providers}


def _mode(value: str | None, *, ranking: bool) -> RouteMode:
    if ranking and value is not None:
        value = _RANKING_MODES.get(value, value)
    # Any other value, or none, means max_value.
    return "fastest" if value == "fastest" else "suggested" if value == "suggested" else "max_value"


def _providers(request: Request, name: str) -> frozenset[str]:
    # Repeated or comma-separated, case-insensitive.
    return frozenset(
        part.strip().lower()
        for value in request.args(name)
        for part in value.split(",")
        if part.strip()
    )


class RoutingService(Service):
    """The routing service (``sb.routing``).

    Attributes:
        api_key: the key ``/supported-chains`` and ``/gasless/status`` require.
        quote_lifetime: seconds a quoted route stays buildable by id (``expiry``).
        gasless_deadline_minutes: the Permit2 deadline when a gasless quote sets none.
        status_delay: seconds a broadcast route stays ``pending`` on ``/status``;
            ``None`` (default): the route's estimated time.
    """

    name = "routing"
    """Its name in fault rules, the request log and `Sandbox.url`."""

    def __init__(self, world: World, relayer: RelayerService) -> None:
        super().__init__()
        self._world = world
        self.api_key = API_KEY
        self.quote_lifetime: float = 120.0
        self.gasless_deadline_minutes = 10
        self.status_delay: float | None = None
        self._gasless = GaslessDesk(world, relayer)
        self._quotes: dict[str, _Quoted] = {}
        self._built: dict[str, str] = {}
        self._tracked: dict[str, _Tracked] = {}
        self.enforce_allowances = False
        """Whether `broadcast` refuses a swap whose sender has not approved enough
        (see `approve`)."""
        self._allowances: dict[tuple[int, str, str, str], int] = {}
        add = self.router.add
        add("GET", "/quote", self._quote, summary="ranked routes", query=_QUOTE_QUERY)
        add(
            "GET",
            "/build-best-path",
            self._build_best_path,
            summary="plan the best route and build its transaction",
            query=(*_QUOTE_QUERY, "minOutputAmount?", "includeRoute?"),
        )
        add(
            "POST",
            "/build-path",
            self._build_path,
            summary="build the transaction of a route from /quote",
            body=("route", "sender"),
        )
        add(
            "POST",
            "/build-path-by-id",
            self._build_path_by_id,
            summary="build the transaction of a quoted route by its quoteId",
            body=("quoteId", "sender?"),
        )
        add(
            "GET",
            "/status",
            self._status,
            summary="follow a broadcast route (see POST /sandbox/routing/broadcast)",
            query=("txHash?", "fromChain?", "userAddress?", "providerKey?", "txRef?"),
        )
        add(
            "GET",
            "/supported-chains",
            self._chains,
            summary="chains and features",
            auth="api-key",
        )
        add(
            "GET",
            "/search-token",
            self._search_token,
            summary="tokens by symbol, name or address",
            query=("query", "chainId?"),
        )
        add("GET", "/tokens", self._tokens, summary="tokens", query=("chainId?",))
        add(
            "GET",
            "/gasless/quote",
            self._gasless_quote,
            summary="Permit2 quotes: sign eip712 as given",
            query=(
                *_QUOTE_QUERY[:11],
                "allowMultiBridge?",
                "rankingMode?",
                "acquisitionMode?",
                "deadlineMinutes?",
                "meta?",
            ),
        )
        add(
            "POST",
            "/gasless/submit-swap",
            self._gasless_submit,
            summary="submit a signed gasless quote; the relayer pays the gas",
            body=("quoteId", "signature"),
        )
        add(
            "GET",
            "/gasless/status",
            self._gasless_status,
            summary="a gasless swap's record",
            query=("id",),
            auth="api-key",
        )

    # ------------------------------------------------------------------ framing

    @staticmethod
    def _ok(data: Any) -> Response:
        return Response.json({"code": 0, "message": "success", "data": data})

    def error_response(self, error: HTTPError) -> Response:
        """The envelope with the status as ``code``; plain text where the spec shows it."""
        if error.status >= 500:
            return Response.text("Internal server error", error.status, error.headers)
        if error.code == "text":
            return Response.text(error.message, error.status, error.headers)
        body = {"code": error.status, "message": error.message, "data": None}
        return Response.json(body, error.status, error.headers)

    # ------------------------------------------------------------------ quotes

    def _token(self, request: Request, chain_name: str, token_name: str) -> Token:
        chain_id: int = checked(chain_name, ChainId, request.arg(chain_name))
        if chain_id not in CHAINS:
            raise HTTPError(400, f"{chain_name}: chain {chain_id} is not supported")
        address = request.arg(token_name) or ""
        token = find_token(chain_id, address)
        if token is None:
            raise HTTPError(
                400, f"{token_name}: token {address} is not supported on chain {chain_id}"
            )
        return token

    def _query(self, request: Request, mode_name: str = "routeMode") -> RouteQuery:
        for name in ("fromChain", "toChain", "fromToken", "toToken", "amount", "sender"):
            if not request.arg(name):
                raise HTTPError(400, f"{name} is required")
        sender: str = checked("sender", Address, request.arg("sender"))
        slippage = request.arg("slippage")
        fee_bps = request.arg("feeBps")
        return RouteQuery(
            from_token=self._token(request, "fromChain", "fromToken"),
            to_token=self._token(request, "toChain", "toToken"),
            amount=checked("amount", _PositiveAmount, request.arg("amount")),
            sender=sender,
            receiver=checked("receiver", Address, request.arg("receiver") or sender),
            slippage=None if slippage is None else checked("slippage", _Percent, slippage),
            fee_bps=0 if fee_bps is None else checked("feeBps", _Bps, fee_bps),
            include=_providers(request, "includeProvider"),
            exclude=_providers(request, "excludeProvider"),
            mode=_mode(request.arg(mode_name), ranking=mode_name == "rankingMode"),
            integrator=request.arg("Integrator"),
            allow_multi_bridge=request.arg("allowMultiBridge") == "true",
        )

    def _routes(self, query: RouteQuery) -> list[dict[str, Any]]:
        expiry = int(self._world.now() + self.quote_lifetime)
        routes = []
        for plan in rank(plan_routes(self._world, query), query):
            quote_id = self._world.uuid()
            route = route_json(plan, query, quote_id=quote_id, expiry=expiry)
            self._quotes[quote_id] = _Quoted(route, plan, expiry)
            routes.append(route)
        return routes

    def _quote(self, request: Request) -> Response:
        return self._ok(self._routes(self._query(request)))

    # ------------------------------------------------------------------ building

    def _tx(self, route: Mapping[str, Any], sender: str) -> dict[str, Any]:
        source = route["fromToken"]
        chain = CHAINS[source["chain"]]
        token = find_token(chain.id, source["address"])
        quote_id = str(route.get("quoteId", ""))
        payload = abi_words(
            keccak(quote_id.encode()), source["address"], int(route["amount"]), sender
        )
        data = "0x" + (_ROUTE_SELECTOR + payload).hex()
        self._built[data] = quote_id
        is_native = token is not None and token.is_native
        return {
            "to": chain.routing_contract,
            "data": data,
            "chain": chain.id,
            "value": str(route["amount"]) if is_native else "0",
            "gasLimit": route.get("gasFee", {}).get("gasLimit", "300000"),
            "allowanceTarget": None if is_native else chain.routing_contract,
            # A route sent in the spec's flat form has no expiry: the built
            # transaction gets a quote's lifetime.
            "expiry": route.get("expiry") or int(self._world.now() + self.quote_lifetime),
            "simulation": False,
        }

    def _build_best_path(self, request: Request) -> Response:
        query = self._query(request)
        routes = self._routes(query)
        minimum = request.arg("minOutputAmount")
        if minimum is not None:
            floor: int = checked("minOutputAmount", TokenAmount, minimum)
            routes = [route for route in routes if int(route["amountOut"]) >= floor]
        if not routes:
            raise HTTPError(404, "no route found")
        best = routes[0]
        summary = {
            k: best[k] for k in ("quoteId", "amount", "amountOut", "minAmountOut", "routeKind")
        }
        if request.arg("includeRoute") == "true":
            summary.update(path=best["path"], providers=best["providers"])
        return self._ok({"Tx": self._tx(best, query.sender), "route": summary})

    def _build_path(self, request: Request) -> Response:
        body = request.json()
        if not isinstance(body, dict):
            raise HTTPError(400, "the request body must be a JSON object")
        route = body.get("route")
        sender = body.get("sender") or body.get("Sender")
        if not isinstance(route, dict):
            route = self._route_from_fields(body)
        if sender is None:
            raise HTTPError(400, "sender is required")
        quoted = self._quotes.get(str(route.get("quoteId")))
        if quoted is not None and self._world.now() > quoted.expiry:
            raise HTTPError(400, "the route has expired; request a new quote")
        try:
            return self._ok(self._tx(route, checked("sender", Address, sender)))
        except (KeyError, TypeError, ValueError):
            raise HTTPError(400, "route must be a route from /quote") from None

    def _route_from_fields(self, body: dict[str, Any]) -> dict[str, Any]:
        # The spec's flat form: fromChain, fromToken, Amount (the rest is not needed).
        for name in ("fromChain", "toChain", "fromToken", "toToken", "Amount"):
            if body.get(name) is None:
                raise HTTPError(400, f"{name} is required (or send a route from /quote)")
        chain_id: int = checked("fromChain", ChainId, body["fromChain"])
        if chain_id not in CHAINS:
            raise HTTPError(400, f"fromChain: chain {chain_id} is not supported")
        return {
            "fromToken": {
                "chain": chain_id,
                "address": checked("fromToken", Address, body["fromToken"]),
            },
            "amount": checked("Amount", _PositiveAmount, body["Amount"]),
        }

    def _build_path_by_id(self, request: Request) -> Response:
        body = request.json()
        if not isinstance(body, dict) or not body.get("quoteId"):
            raise HTTPError(400, "quoteId is required")
        quoted = self._quotes.get(str(body["quoteId"]))
        if quoted is None:
            raise HTTPError(404, f"quote {body['quoteId']} not found")
        if self._world.now() > quoted.expiry:
            raise HTTPError(400, "the route has expired; request a new quote")
        sender = body.get("sender") or body.get("Sender") or quoted.route["sender"]
        return self._ok(self._tx(quoted.route, checked("sender", Address, sender)))

    # ------------------------------------------------------------------ allowances

    def approve(self, owner: str, token: str, spender: str, amount: int, *, chain_id: int) -> None:
        """Set ``owner``'s allowance of ``token`` to ``spender`` on ``chain_id``, as an
        ERC-20 ``approve`` would (used when ``enforce_allowances`` is on)."""
        key = (chain_id, owner.lower(), token.lower(), spender.lower())
        self._allowances[key] = int(amount)

    def allowance(self, owner: str, token: str, spender: str, *, chain_id: int) -> int:
        """``owner``'s emulated allowance of ``token`` to ``spender`` on ``chain_id``."""
        return self._allowances.get((chain_id, owner.lower(), token.lower(), spender.lower()), 0)

    def _spend_allowance(self, quoted: _Quoted, tx: Mapping[str, Any] | Any) -> None:
        route = quoted.route
        source = route["fromToken"]
        token = find_token(source["chain"], source["address"])
        if token is None or token.is_native:
            return
        target = tx.get("to") if isinstance(tx, Mapping) else getattr(tx, "to", None)
        spender = str(target or CHAINS[source["chain"]].routing_contract)
        owner, amount, chain_id = route["sender"], int(route["amount"]), source["chain"]
        have = self.allowance(owner, source["address"], spender, chain_id=chain_id)
        if have < amount:
            raise ValueError(
                f"transferFrom would revert: {owner} allowed {spender} {have} of "
                f"{source['address']}, not the {amount} the route takes"
            )
        self.approve(owner, source["address"], spender, have - amount, chain_id=chain_id)

    def broadcast(
        self, tx: Mapping[str, Any] | Any, *, fail: bool = False, source_hash: str | None = None
    ) -> str:
        """Stand in for sending a transaction built by ``/build-path``,
        ``/build-path-by-id`` or ``/build-best-path``: return its source hash, which
        ``/status`` then follows to ``completed`` (or ``failed``) after the route's
        estimated time.

        Args:
            tx: the built transaction (a dict, or a model with a ``data`` attribute).
            fail: make the route end ``failed``.
            source_hash: the hash it was sent with, when a real (test) chain sent it;
                by default the sandbox makes one up.

        Raises:
            ValueError: the sandbox did not build this transaction from a quoted route,
                or (with ``enforce_allowances``) the sender's allowance is short.
        """
        data = tx.get("data") if isinstance(tx, Mapping) else getattr(tx, "data", None)
        quoted = self._quotes.get(self._built.get(str(data), ""))
        if quoted is None:
            raise ValueError(
                "the sandbox follows only transactions it built from a quoted route "
                "(/build-path with a route, /build-path-by-id or /build-best-path)"
            )
        if self.enforce_allowances:
            self._spend_allowance(quoted, tx)
        now = self._world.now()
        source_hash = self._world.tx_hash() if source_hash is None else source_hash.lower()
        done = now + (quoted.plan.seconds if self.status_delay is None else self.status_delay)
        timeline = Timeline().then(now, status="pending")
        if fail:
            timeline.then(done, status="failed")
        else:
            timeline.then(done, status="completed", destinationTxHash=self._world.tx_hash())
        self._tracked[source_hash] = _Tracked(source_hash, quoted, now, timeline)
        return source_hash

    # ------------------------------------------------------------------ status

    def _status(self, request: Request) -> Response:
        first = request.arg("txHash") is not None or request.arg("fromChain") is not None
        second = request.arg("txRef") is not None or request.arg("providerKey") is not None
        if first and second:
            raise HTTPError(400, "send txHash and fromChain, or providerKey and txRef, not both")
        if second and (not request.arg("txRef") or not request.arg("providerKey")):
            raise HTTPError(400, "providerKey and txRef are required together")
        reference = request.arg("txHash") or request.arg("txRef")
        if not reference:
            raise HTTPError(400, "txHash and fromChain (or providerKey and txRef) are required")
        tracked = self._tracked.get(reference.lower())
        if tracked is not None and not _is_tracked_as(tracked, request):
            tracked = None
        if tracked is None:
            raise HTTPError(404, f"transaction {reference} not found")
        return self._ok(self._status_json(tracked, second_shape=request.arg("txRef") is not None))

    def _status_json(self, tracked: _Tracked, *, second_shape: bool) -> dict[str, Any]:
        now = self._world.now()
        state = tracked.timeline.at(now)
        route = tracked.route
        provider = tracked.quoted.plan.providers[0]
        updated_ms = int(tracked.timeline.changed_at(now) * 1000)
        destination = state.get("destinationTxHash")
        if second_shape:
            return {
                "state": state["status"],
                "providerKey": provider.key,
                "txRef": tracked.source_hash,
                "sourceTxHash": tracked.source_hash,
                "destinationTxHash": destination,
                "routeKind": route["routeKind"],
                "updatedAtMs": updated_ms,
            }
        source_chain, target_chain = route["fromToken"]["chain"], route["toToken"]["chain"]
        return {
            "status": state["status"],
            "kind": "swap" if route["routeKind"] == "sameChainSwap" else "bridge",
            "routeKind": route["routeKind"],
            "swapId": route["quoteId"],
            RELAYER_ID_FIELD: None,
            "updatedAtMs": updated_ms,
            "provider": {"key": provider.key, "name": provider.name},
            "srcTxDetails": {
                "chainId": source_chain,
                "chainLogo": logo(CHAINS[source_chain].key),
                "timestamp": int(tracked.created_at),
                "txHash": tracked.source_hash,
            },
            "destTxDetails": {
                "chainId": target_chain,
                "chainLogo": logo(CHAINS[target_chain].key),
                "timestamp": int(tracked.timeline.changed_at(now)) if destination else None,
                "txHash": destination,
            },
            "details": None,
            "fromToken": route["fromToken"],
            "toToken": route["toToken"],
        }

    # ------------------------------------------------------------------ chains, tokens

    def _chains(self, request: Request) -> Response:
        check_api_key(request, self.api_key)
        if request.query:
            raise HTTPError(400, "Invalid request", code="text")
        return self._ok(
            [
                {
                    "id": chain.id,
                    "name": chain.key,
                    "displayName": chain.display_name,
                    "logoUrl": logo(chain.key),
                    "explorerUrl": chain.explorer_url,
                    "publicRpcUrl": chain.rpc_url,
                    "serviceContract": chain.routing_contract,
                    "chainType": "evm",
                    "isTestnet": False,
                    "nativeToken": {
                        "symbol": chain.native_symbol,
                        "name": chain.native_name,
                        "decimals": 18,
                        "logoUrl": logo(chain.native_symbol),
                        "marketdataId": chain.marketdata_id,
                    },
                    "features": {"gaslessSwaps": True, "crossChain": True, "permit2": True},
                }
                for chain in CHAINS.values()
            ]
        )

    def _chain_filter(self, request: Request) -> list[Token]:
        chain = request.arg("chainId")
        if chain is None:
            return list(TOKENS)
        chain_id: int = checked("chainId", ChainId, chain)
        return [token for token in TOKENS if token.chain_id == chain_id]

    def _search_token(self, request: Request) -> Response:
        text = (request.arg("query") or "").strip().lower()
        if not text:
            raise HTTPError(400, "query is required")
        found = [
            token
            for token in self._chain_filter(request)
            if text in token.symbol.lower()
            or text in token.name.lower()
            or text == token.address.lower()
        ]
        return self._ok([token_json(token) for token in found])

    def _tokens(self, request: Request) -> Response:
        return self._ok([token_json(token) for token in self._chain_filter(request)])

    # ------------------------------------------------------------------ gasless

    def _gasless_quote(self, request: Request) -> Response:
        query = self._query(request, "rankingMode")
        mode = request.arg("acquisitionMode") or "2"
        if mode not in ("2", "3"):
            raise HTTPError(400, "acquisitionMode must be 2 (Permit2) or 3 (Permit2 witness)")
        minutes = request.arg("deadlineMinutes")
        deadline: int = (
            self.gasless_deadline_minutes
            if minutes is None
            else checked("deadlineMinutes", Annotated[int, Field(gt=0)], minutes)
        )
        return self._ok(self._gasless.quote(query, witness=mode == "3", deadline_minutes=deadline))

    def _gasless_submit(self, request: Request) -> Response:
        return self._ok(self._gasless.submit(request.json()))

    def _gasless_status(self, request: Request) -> Response:
        check_api_key(request, self.api_key)
        swap_id = request.arg("id")
        if not swap_id:
            raise HTTPError(400, "id is required")
        return self._ok(self._gasless.status(swap_id))
