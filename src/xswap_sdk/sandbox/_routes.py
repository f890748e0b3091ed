"""Route planning for the emulated routing service: which providers, how much comes
out, how long it takes, and in what order the routes are ranked.

A route is a chain of steps: a DEX swap on the source chain (unless the input is
already USDC), a bridge of USDC, a DEX swap on the destination chain (unless the output
is USDC); a same-chain route is one swap. Each provider takes its fee in basis points
and adds its time; prices come from the catalogue with a small seeded wobble per swap.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

from ._catalog import CHAINS, NATIVE_TOKEN, TOKENS, Token, logo, usdc
from ._world import World

__all__ = [
    "PROVIDERS",
    "Plan",
    "Provider",
    "RouteMode",
    "RouteQuery",
    "min_amount_out",
    "plan_routes",
    "rank",
    "route_json",
]

RouteMode = Literal["fastest", "max_value", "suggested"]


@dataclass(frozen=True, slots=True)
class Provider:
    """A DEX or bridge the sandbox routes through."""

    key: str
    name: str
    type: Literal["bridge", "dex"]
    fee_bps: int
    seconds: float
    usdc_only: bool = False

    def matches(self, names: set[str]) -> bool:
        """Whether ``names`` (lower case) name this provider, by key or by name."""
        return self.key in names or self.name.lower() in names

    def json(self) -> dict[str, str]:
        """The ``provider`` object of a route."""
        return {"icon": logo(self.key), "name": self.name, "type": self.type}


PROVIDERS: Final = (
    Provider("relay", "Relay", "bridge", 10, 6),
    Provider("across", "Across", "bridge", 6, 12),
    Provider("stargate", "Stargate", "bridge", 4, 45),
    Provider("cctp", "Circle CCTP", "bridge", 0, 900, usdc_only=True),
    Provider("uniswap", "Uniswap", "dex", 30, 2),
    Provider("kyberswap", "KyberSwap", "dex", 25, 3),
)
"""Every provider, bridges first."""

_GAS_LIMITS: Final = {
    "sameChainSwap": 180_000,
    "directBridge": 120_000,
    "swapBridge": 320_000,
    "multiBridge": 420_000,
}


@dataclass(frozen=True, slots=True)
class RouteQuery:
    """What a quote asks for, validated."""

    from_token: Token
    to_token: Token
    amount: int
    sender: str
    receiver: str
    slippage: float | None = None
    fee_bps: int = 0
    include: frozenset[str] = frozenset()
    exclude: frozenset[str] = frozenset()
    mode: RouteMode = "max_value"
    integrator: str | None = None
    allow_multi_bridge: bool = False


@dataclass(frozen=True, slots=True)
class _Step:
    provider: Provider
    token_in: Token
    token_out: Token
    amount: int
    amount_out: int


@dataclass(frozen=True, slots=True)
class Plan:
    """One route: its kind, steps, output and fees."""

    kind: str
    steps: tuple[_Step, ...]
    amount_out: int
    route_fee: int
    integrator_fee: int

    @property
    def seconds(self) -> float:
        """How long the route takes (parallel bridges count once)."""
        bridges = [s.provider.seconds for s in self.steps if s.provider.type == "bridge"]
        swaps = [s.provider.seconds for s in self.steps if s.provider.type == "dex"]
        return max(bridges, default=0.0) + sum(swaps)

    @property
    def providers(self) -> list[Provider]:
        """The providers used, in order, each once."""
        return list(dict.fromkeys(step.provider for step in self.steps))


def _allowed(query: RouteQuery) -> list[Provider]:
    allowed = [p for p in PROVIDERS if not p.matches(set(query.exclude))]
    for kind in ("bridge", "dex"):
        # Naming providers of one kind restricts that kind only: asking for "across"
        # keeps every DEX available for the swaps around the bridge.
        named = [p for p in allowed if p.type == kind and p.matches(set(query.include))]
        if named:
            allowed = [p for p in allowed if p.type != kind or p in named]
    return allowed


def _convert(world: World, amount: int, token_in: Token, token_out: Token, fee_bps: int) -> int:
    usd = amount / 10**token_in.decimals * token_in.price_usd * (1 - fee_bps / 10_000)
    price = token_out.price_usd
    if token_in.symbol != token_out.symbol:
        price *= world.wobble(0.002)
    return int(usd / price * 10**token_out.decimals)


def _legs(
    query: RouteQuery, bridges: Iterable[Provider], dex: Provider | None
) -> list[list[Provider]]:
    # Swap into USDC before the bridge and out of it after, where the tokens need it.
    before = [dex] if dex and not query.from_token.is_usdc else []
    after = [dex] if dex and not query.to_token.is_usdc else []
    return [[*before, bridge, *after] for bridge in bridges]


def _has_usdc(chain_id: int) -> bool:
    return any(token.chain_id == chain_id and token.is_usdc for token in TOKENS)


def _run(world: World, query: RouteQuery, kind: str, providers: list[Provider]) -> Plan:
    integrator_fee = query.amount * query.fee_bps // 10_000
    value = query.amount - integrator_fee
    token = query.from_token
    steps = []
    for index, provider in enumerate(providers):
        if index == len(providers) - 1:
            target = query.to_token
        elif provider.type == "bridge":
            target = usdc(query.to_token.chain_id)
        else:  # a swap into USDC before the bridge
            target = usdc(query.from_token.chain_id)
        out = _convert(world, value, token, target, provider.fee_bps)
        steps.append(_Step(provider, token, target, value, out))
        token, value = target, out
    route_fee = (query.amount - integrator_fee) * sum(p.fee_bps for p in providers) // 10_000
    return Plan(kind, tuple(steps), value, route_fee, integrator_fee)


def plan_routes(world: World, query: RouteQuery) -> list[Plan]:
    """Every route the allowed providers offer for ``query``, unranked."""
    allowed = _allowed(query)
    dexes = [p for p in allowed if p.type == "dex"]
    source, target = query.from_token, query.to_token
    if source.chain_id == target.chain_id:
        return [_run(world, query, "sameChainSwap", [dex]) for dex in dexes]
    if not (_has_usdc(source.chain_id) and _has_usdc(target.chain_id)):
        return []  # every cross-chain route bridges USDC
    both_usdc = source.is_usdc and target.is_usdc
    bridges = [p for p in allowed if p.type == "bridge" and (both_usdc or not p.usdc_only)]
    if both_usdc:
        plans = [_run(world, query, "directBridge", [bridge]) for bridge in bridges]
    else:
        plans = [
            _run(world, query, "swapBridge", leg)
            for dex in dexes
            for leg in _legs(query, bridges, dex)
        ]
    if query.allow_multi_bridge and len(bridges) >= 2 and plans:
        plans.append(_split(world, query, bridges[:2], dexes[0] if dexes else None))
    return plans


def _split(world: World, query: RouteQuery, bridges: list[Provider], dex: Provider | None) -> Plan:
    """Half the amount over each of two bridges."""
    legs = _legs(query, bridges, dex)
    halves = [query.amount // 2, query.amount - query.amount // 2]
    parts = [
        _run(world, replace(query, amount=half), "multiBridge", leg)
        for half, leg in zip(halves, legs, strict=True)
    ]
    return Plan(
        "multiBridge",
        tuple(step for part in parts for step in part.steps),
        sum(part.amount_out for part in parts),
        sum(part.route_fee for part in parts),
        sum(part.integrator_fee for part in parts),
    )


def _usd(amount: int, token: Token) -> float:
    usd: float = amount / 10**token.decimals * token.price_usd
    return round(usd, 6)


def _gas(plan: Plan, query: RouteQuery) -> tuple[int, int, int]:
    chain = CHAINS[query.from_token.chain_id]
    limit = _GAS_LIMITS[plan.kind]
    return limit, chain.gas_price_wei, limit * chain.gas_price_wei


def rank(plans: list[Plan], query: RouteQuery) -> list[Plan]:
    """``plans`` in the order ``query.mode`` asks for."""
    if query.mode == "fastest":
        return sorted(plans, key=lambda p: (p.seconds, -p.amount_out))
    if query.mode == "suggested":
        # Balanced: value out, minus gas, minus 0.05% of the value per minute waited.
        def score(plan: Plan) -> float:
            out = _usd(plan.amount_out, query.to_token)
            gas = _gas(plan, query)[2] / 1e18 * CHAINS[query.from_token.chain_id].native_usd
            return out - gas - out * 0.0005 * plan.seconds / 60

        return sorted(plans, key=lambda p: -score(p))
    return sorted(plans, key=lambda p: (-p.amount_out, p.seconds))


def _token_json(token: Token) -> dict[str, Any]:
    return {
        "address": token.address,
        "chain": token.chain_id,
        "decimals": token.decimals,
        "icon": logo(token.symbol),
        "name": token.name,
        "priceUsd": token.price_usd,
        "symbol": token.symbol,
    }


def min_amount_out(plan: Plan, query: RouteQuery) -> int:
    """The output after slippage (the full output when the quote set none)."""
    return int(plan.amount_out * (1 - (query.slippage or 0) / 100))


def route_json(plan: Plan, query: RouteQuery, *, quote_id: str, expiry: int) -> dict[str, Any]:
    """A route as ``/quote`` sends it."""
    source, target = query.from_token, query.to_token
    chain = CHAINS[source.chain_id]
    gas_limit, gas_price, gas_fee = _gas(plan, query)
    minimum = min_amount_out(plan, query)
    route: dict[str, Any] = {
        "quoteId": quote_id,
        "amount": str(query.amount),
        "amountOut": str(plan.amount_out),
        "minAmountOut": str(minimum),
        "amountUsd": _usd(query.amount, source),
        "amountOutUsd": _usd(plan.amount_out, target),
        "minAmountOutUsd": _usd(minimum, target),
        "expiry": expiry,
        "sender": query.sender,
        "receiver": query.receiver,
        "estimatedTimeMs": int(plan.seconds * 1000),
        "routeKind": plan.kind,
        "fromToken": _token_json(source),
        "toToken": _token_json(target),
        "fees": {
            "integratorFee": str(plan.integrator_fee),
            "integratorFeeUsd": _usd(plan.integrator_fee, source),
            "routeFee": str(plan.route_fee),
            "routeFeeUsd": _usd(plan.route_fee, source),
        },
        "gasFee": {
            "gasFee": str(gas_fee),
            "gasFeeUsd": round(gas_fee / 1e18 * chain.native_usd, 6),
            "gasLimit": str(gas_limit),
            "gasPrice": str(gas_price),
            "gasToken": {
                "address": NATIVE_TOKEN,
                "chain": chain.id,
                "decimals": 18,
                "icon": logo(chain.native_symbol),
                "name": chain.native_name,
                "symbol": chain.native_symbol,
            },
        },
        "path": [
            {
                "amount": str(step.amount),
                "amountOut": str(step.amount_out),
                "fromToken": step.token_in.address,
                "toToken": step.token_out.address,
                "type": step.provider.type,
                "provider": step.provider.json(),
            }
            for step in plan.steps
        ],
        "providers": [provider.json() for provider in plan.providers],
    }
    if query.slippage is not None:
        route["slippage"] = query.slippage
    if query.integrator is not None:
        route["integratorId"] = query.integrator
    return route
