"""What the swap backend says, checked against the caller's request and the registry.

Pure functions, no I/O, shared by `build_order`, `sign_order` and the one-call swap. Each
refuses with `UnsafePayloadError` naming the field, what was expected and what was
received, before anything is signed:

- a chain whose domain, ``gatewayWallet``, ``gatewayMinter`` or USDC address is not the
  one `xswap_sdk.registry` pins; a chain the registry does not know; source and
  destination chains of different networks (mainnet and testnet); two intents on one
  source domain;
- a quote whose ``swap_router_address`` (every burn intent's recipient and destination
  caller) is not the destination chain's ``routerAddress``, or, when the caller pins
  routers (``trusted_routers``), not one of those;
- a quote that is not for what was asked (``token_in.amount``, ``token_out.address``),
  that gives less than ``min_amount_out``, or that has no ``expires_at``;
- a gateway fee above the default cap (see `default_max_fee_cap`).

What is not checked here, because the spec makes it opaque: the quote's ``hook_data``
and ``swap_calldata``. They are what the router executes on the destination chain; the
SDK signs ``hook_data`` as given. See the "Trust model" page of the docs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from .._models import check_argument
from ..errors import InvalidInputError, QuoteRejectedError, UnsafePayloadError
from ..registry import GatewayChain, Registry
from ..signing._fields import pad_address
from ..signing.burn_intents import BurnIntent, signable_problem
from ..types import Address, ChainId, from_units, to_checksum
from .models import Chain, Quote, QuoteRequest

__all__ = [
    "DEFAULT_FEE_CAP_BASE",
    "DEFAULT_FEE_CAP_BPS",
    "TrustedRouters",
    "check_fee",
    "check_intents",
    "check_listed_chain",
    "check_quote_terms",
    "check_router",
    "check_trusted_routers",
    "default_max_fee_cap",
    "pinned_chain",
]

TrustedRouters = Mapping[int, frozenset[str]]
"""Checked ``trusted_routers``: per destination chain id, the routers allowed there."""

DEFAULT_FEE_CAP_BASE: Final = 2_010_000
"""The fixed part of the default gateway fee cap, per burn intent: 2.01 USDC, the spec's
helper default ``maxFee``. Circle Gateway's gas fee per source chain is at most 2.00 USDC
(Ethereum; cents elsewhere), so this covers every chain."""

DEFAULT_FEE_CAP_BPS: Final = 1
"""The proportional part of the default cap, in basis points of the amount swapped:
1 bp, twice Circle Gateway's transfer fee (0.5 bp) for headroom."""

_BPS = 10_000


def _usdc(units: int) -> str:
    return f"{from_units(units, 6)} USDC"


def default_max_fee_cap(amount: int) -> int:
    """The most a quote's gateway fee (each burn intent's ``maxFee``) may be when the
    caller gives no ``max_fee_cap``: 2.01 USDC plus 1 basis point of ``amount``.

    Why this rule. Circle Gateway charges, per burn intent, a gas fee that depends on the
    source chain (at most 2.00 USDC, on Ethereum) plus a transfer fee of 0.5 bp of the
    value. ``maxFee`` is a ceiling on that charge, and every source chain must hold
    ``value + maxFee``; a service that inflates it can lock up the caller's balance or,
    if Gateway's fees rise, let them be charged far more than they expect. The fixed part
    is the spec's helper default (2.01 USDC, which the quickstart uses), so every honest
    quote of the spec is accepted on any chain; the proportional part lets large swaps
    pay Gateway's transfer fee twice over, and nothing more. A 60 USDC fee on a 40 USDC
    swap is far above 2.01 + 0.004 USDC and is refused. Callers who accept more pass
    ``max_fee_cap`` themselves.

    Args:
        amount: the USDC swapped, in smallest units.

    Returns:
        The cap, in smallest USDC units.
    """
    return DEFAULT_FEE_CAP_BASE + amount * DEFAULT_FEE_CAP_BPS // _BPS


def check_fee(quote: Quote, *, amount: int, max_fee_cap: int | None) -> None:
    """Check the quote's gateway fee (each intent's ``maxFee``) against a cap.

    With ``max_fee_cap`` (the caller's own limit), a fee above it is a
    `QuoteRejectedError`: the quote is too expensive for the caller, ask again later.
    Without, the default cap (`default_max_fee_cap`) applies, and a fee above it is an
    `UnsafePayloadError`.

    Raises:
        QuoteRejectedError: above ``max_fee_cap``.
        UnsafePayloadError: above the default cap.
    """
    fee = quote.gateway_fee
    if max_fee_cap is not None:
        if fee > max_fee_cap:
            raise QuoteRejectedError(
                "quote.fees.gateway_fee",
                f"is {fee}, above max_fee_cap {max_fee_cap} (smallest USDC units)",
                quote=quote,
            )
        return
    cap = default_max_fee_cap(amount)
    if fee > cap:
        raise UnsafePayloadError(
            "quote.fees.gateway_fee",
            expected=(
                f"at most {cap} ({_usdc(cap)}: the default cap, 2.01 USDC + 1 bp of "
                f"{_usdc(amount)})"
            ),
            received=fee,
            hint="If you accept such a fee, pass max_fee_cap= yourself.",
        )


def check_quote_terms(
    quote: Quote,
    *,
    request: QuoteRequest | None,
    now: float | None,
    min_amount_out: int | None,
) -> None:
    """Check that the quote is for what was asked and is still good.

    Args:
        quote: the backend's quote.
        request: what was asked (``inputAmount``, ``outputToken``); ``None`` when the
            quote did not come from `get_quote`, and then only what the quote says is
            checked.
        now: the time in Unix seconds, to check the expiry; ``None`` to check only that
            the quote has one.
        min_amount_out: the least output the caller accepts, in the output token's
            smallest units, or ``None``.

    Raises:
        UnsafePayloadError: ``token_in.amount`` is not the amount asked,
            ``token_out.address`` is not the token asked, or ``token_out.amount`` is
            below ``min_amount_out``. (A quote without ``expires_at`` does not parse.)
        QuoteRejectedError: the quote has expired; ask for a new one.
    """
    if request is not None:
        amount = quote.token_in.amount
        if amount != request.input_amount:
            raise UnsafePayloadError(
                "quote.token_in.amount",
                expected=request.input_amount,
                received=amount,
                hint="The quote is not for the amount asked.",
            )
        token_out = quote.token_out.address
        if token_out.lower() != request.output_token.lower():
            raise UnsafePayloadError(
                "quote.token_out.address",
                expected=request.output_token,
                received=token_out,
                hint="The quote is not for the token asked.",
            )
    if min_amount_out is not None:
        out = quote.token_out.amount
        if out < min_amount_out:
            raise UnsafePayloadError(
                "quote.token_out.amount",
                expected=f"at least {min_amount_out} (min_amount_out)",
                received=out,
            )
    expires = quote.expires_at_seconds
    if now is not None and now >= expires:
        raise QuoteRejectedError(
            "quote.expires_at",
            f"the quote expired {now - expires:.1f} s ago; ask for a new one",
            quote=quote,
        )


def check_trusted_routers(trusted_routers: object) -> TrustedRouters | None:
    """Validate the caller's ``trusted_routers``: ``{chain_id: [router, ...]}``.

    Returns:
        The mapping with checksummed addresses, or ``None`` when none was given.

    Raises:
        InvalidInputError: not a mapping of chain ids to non-empty lists of addresses.
    """
    if trusted_routers is None:
        return None
    if not isinstance(trusted_routers, Mapping):
        raise InvalidInputError(
            "trusted_routers", "must be a mapping {chain_id: [router address, ...]}"
        )
    checked: dict[int, frozenset[str]] = {}
    for key, routers in trusted_routers.items():
        chain_id: int = check_argument("trusted_routers (chain id)", ChainId, key)
        if isinstance(routers, str | bytes) or not isinstance(routers, Iterable):
            raise InvalidInputError(f"trusted_routers[{key}]", "must be a list of router addresses")
        found = frozenset(
            check_argument(f"trusted_routers[{key}]", Address, router) for router in routers
        )
        if not found:
            raise InvalidInputError(f"trusted_routers[{key}]", "must name at least one router")
        checked[chain_id] = found
    return checked


def _same(listed: object, pinned: str) -> bool:
    return isinstance(listed, str) and listed.lower() == pinned.lower()


def pinned_chain(registry: Registry, chain_id: int, listed: Chain | None) -> GatewayChain:
    """The registry's entry for ``chain_id``, after checking the backend's entry.

    Raises:
        UnsafePayloadError: the registry does not know the chain, or the backend's entry
            disagrees with it (see `check_listed_chain`).
    """
    pinned = registry.chain(chain_id)
    if listed is not None:
        check_listed_chain(listed, pinned)
    return pinned


def check_listed_chain(listed: Chain, pinned: GatewayChain) -> None:
    """Compare the backend's chain entry with the registry's.

    Raises:
        UnsafePayloadError: the domain, ``gatewayWallet``, ``gatewayMinter`` or
            ``usdc.address`` differs from the registry's.
    """
    where = f"chains[{listed.id}]"
    if listed.domain != pinned.domain:
        raise UnsafePayloadError(f"{where}.domain", expected=pinned.domain, received=listed.domain)
    for field, value, expected in (
        ("gatewayWallet", listed.gateway_wallet, pinned.gateway_wallet),
        ("gatewayMinter", listed.gateway_minter, pinned.gateway_minter),
        ("usdc.address", listed.usdc.address, pinned.usdc),
    ):
        if not _same(value, expected):
            raise UnsafePayloadError(f"{where}.{field}", expected=expected, received=value)


def check_router(
    router: str,
    *,
    chain_id: int,
    listed: Chain,
    trusted_routers: TrustedRouters | None,
) -> None:
    """Check the router every burn intent will name as recipient and destination caller.

    It must be the destination chain's ``routerAddress`` in the backend's chain list
    and, when the caller pins routers, one of ``trusted_routers[chain_id]``.

    Raises:
        UnsafePayloadError: the router is neither.
    """
    if trusted_routers is not None:
        allowed = trusted_routers.get(chain_id, frozenset())
        if router not in allowed:
            raise UnsafePayloadError(
                "quote.swap_router_address",
                expected=(
                    f"one of trusted_routers[{chain_id}] ({', '.join(sorted(allowed))})"
                    if allowed
                    else f"a router in trusted_routers, which has none for chain {chain_id}"
                ),
                received=router,
            )
    if not _same(listed.router_address, router):
        raise UnsafePayloadError(
            "quote.swap_router_address",
            expected=f"chain {chain_id}'s routerAddress {listed.router_address}",
            received=router,
        )


def _word(address: str) -> str:
    return pad_address(address)


def check_intents(
    intents: Sequence[BurnIntent],
    *,
    source_chain_ids: Sequence[int],
    destination: GatewayChain,
    registry: Registry,
    user: str,
    router: str,
    trusted_routers: TrustedRouters | None,
) -> None:
    """Check every field of every burn intent that will be signed against the registry
    and what the caller asked for, as the last step before signing.

    Args:
        intents: the intents, in order.
        source_chain_ids: each intent's source chain id, in the same order.
        destination: the registry's entry of the destination chain.
        registry: the pinned facts.
        user: the depositor and signer (checksummed).
        router: the recipient and destination caller of every intent (checksummed).
        trusted_routers: the caller's pinned routers, if any.

    Raises:
        UnsafePayloadError: a field that differs from what it must be, two intents on one
            source domain, chains of different networks, a ``value`` of 0 or a
            ``version`` other than 1.
    """
    try:
        router = to_checksum(router)
    except ValueError:
        raise UnsafePayloadError(
            "order.swap_router_address", expected="an address", received=router
        ) from None
    if len(intents) != len(source_chain_ids) or not intents:
        raise UnsafePayloadError(
            "order.sources",
            expected=f"one source per intent ({len(intents)})",
            received=len(source_chain_ids),
        )
    if trusted_routers is not None:
        allowed = trusted_routers.get(destination.chain_id, frozenset())
        if router not in allowed:
            raise UnsafePayloadError(
                "order.swap_router_address",
                expected=f"one of trusted_routers[{destination.chain_id}]",
                received=router,
            )
    seen: set[int] = set()
    for index, (intent, chain_id) in enumerate(zip(intents, source_chain_ids, strict=True)):
        where = f"intents[{index}]"
        source = registry.chain(chain_id)
        if source.testnet != destination.testnet:
            raise UnsafePayloadError(
                f"{where}.spec.sourceDomain",
                expected=f"a {'testnet' if destination.testnet else 'mainnet'} chain, as "
                f"the destination {destination.name} is",
                received=f"{source.name} ({chain_id})",
            )
        spec = intent.spec
        if spec.source_domain in seen:
            raise UnsafePayloadError(
                f"{where}.spec.sourceDomain",
                expected="a domain no other intent of the order uses",
                received=spec.source_domain,
            )
        seen.add(spec.source_domain)
        problem = signable_problem(intent)
        if problem is not None:
            field, rule = problem
            received = spec.version if field == "spec.version" else spec.value
            raise UnsafePayloadError(f"{where}.{field}", expected=rule, received=received)
        expected: dict[str, object] = {
            "sourceDomain": source.domain,
            "destinationDomain": destination.domain,
            "sourceContract": _word(source.gateway_wallet),
            "destinationContract": _word(destination.gateway_minter),
            "sourceToken": _word(source.usdc),
            "destinationToken": _word(destination.usdc),
            "sourceDepositor": _word(user),
            "sourceSigner": _word(user),
            "destinationRecipient": _word(router),
            "destinationCaller": _word(router),
        }
        wire = spec.to_wire()
        for name, value in expected.items():
            if wire[name] != value:
                raise UnsafePayloadError(
                    f"{where}.spec.{name}", expected=value, received=wire[name]
                )
    hooks = {intent.spec.hook_data for intent in intents}
    if len(hooks) > 1:
        raise UnsafePayloadError(
            "intents.spec.hookData",
            expected="the same hook data in every intent (the quote's hook_data)",
            received=sorted(hooks),
        )
