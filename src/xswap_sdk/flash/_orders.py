"""Orders: which gateway balances pay for a swap, the burn intents, and their signature.

Pure functions, no I/O. `build_order` turns a quote, the chain configuration and the
user's gateway balances into one burn intent per source chain; `sign_order` signs them
(one `BurnIntent`, or one `BurnIntentSet` for several) and gives the ``signedOrder``
array that ``POST /swap`` takes, serialised once, from the same values that were signed.

Verify before signing. The domains, Gateway contracts and USDC addresses written into
the intents come from `xswap_sdk.registry`, not from the backend: the backend's chain
list is compared with the registry and refused (`UnsafePayloadError`) where it differs.
The quote's router, amounts, output token, expiry and fee are checked too (see
``xswap_sdk.flash._trust``). The order `build_order` returns is a checked order: it
carries what it was checked against, bound to its content, and `sign_order` signs it as
checked under the same pins; any other order (built by hand, changed, copied, read back)
it checks in full, every field of every intent, right before signing.

Source selection, when ``sources`` is not given: the fewest chains that can cover the
amount. A chain can give at most its balance less the intent's ``maxFee`` (Circle
Gateway needs ``balance >= value + maxFee`` on each source chain). Chains are taken by
that usable amount, largest first, ties broken by the lower chain id; each gives all it
can, the last one only the remainder. Taking the largest first is what makes the count
minimal: no other choice of fewer chains could add up to more.
"""

from __future__ import annotations

import operator
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal

from pydantic import BaseModel, ConfigDict, PrivateAttr, ValidationError

from .._flow import Flow
from .._keccak import keccak
from .._models import check_argument, invalid_input, private_value, refuse_unawaited
from ..errors import (
    InsufficientBalanceError,
    InvalidInputError,
    UnsafePayloadError,
)
from ..registry import DEFAULT_REGISTRY, GatewayChain, Registry, SwapRouter
from ..signing.burn_intents import (
    MAX_INTENTS_PER_SET,
    BurnIntent,
    TransferSpec,
    _intent_digest,
    _set_digest,
    build_burn_intent,
    burn_intent_set_typed_data,
    burn_intent_typed_data,
)
from ..signing.signed_intents import (
    SignedBurnIntent,
    SignedBurnIntentSet,
    _signing_burn_intent,
    _signing_burn_intent_set,
    _signing_checked_intents,
)
from ..signing.signer import Signer, _signed_now, signer_address
from ..types import Address, Bytes32, ChainId, TokenAmount, _same_address, format_amount
from . import _trust
from .models import Chain, GatewayBalance, Quote

__all__ = [
    "DEFAULT_FEE_CAP_BASE",
    "DEFAULT_FEE_CAP_BPS",
    "Order",
    "OrderSource",
    "SignedOrder",
    "TrustedRoutersArg",
    "build_order",
    "default_max_fee_cap",
    "default_max_total_fee",
    "select_sources",
    "sign_order",
]

DEFAULT_FEE_CAP_BASE = _trust.DEFAULT_FEE_CAP_BASE
DEFAULT_FEE_CAP_BPS = _trust.DEFAULT_FEE_CAP_BPS
default_max_fee_cap = _trust.default_max_fee_cap
default_max_total_fee = _trust.default_max_total_fee

ChainsArg = Sequence[Chain | Mapping[str, Any]]
BalancesArg = GatewayBalance | Mapping[int, int]
MaxFeeArg = int | Mapping[int, int] | None
TrustedRoutersArg = Mapping[int, Collection[str]] | None
"""``trusted_routers``: per destination chain id, the routers an order may pay."""


class OrderSource(BaseModel):
    """One source chain of an order: what it gives and what it must hold.

    Attributes:
        chain_id: the source chain.
        domain: its Circle Gateway domain.
        value: the USDC taken from it, in smallest units.
        max_fee: the intent's ``maxFee``; the balance must hold ``value + max_fee``.
        balance: the user's gateway balance there, as given to `build_order`.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True)

    chain_id: int
    domain: int
    value: int
    max_fee: int
    balance: int


_SEAL: Final = object()
"""This module's own mark on a `_Proof`: a proof made anywhere else is not one."""


@dataclass(frozen=True, slots=True, eq=False)
class _Proof:
    """What `build_order` checked an order against, bound to what it checked.

    Only `_assemble` makes one, after every check of `build_order` passed, and puts it on
    the `Order` it built. `sign_order` takes it as the order's checks only while it
    still describes the order: the same content (``content``, every field but the
    intents, as plain values), the same intents (``values``: the very objects, ints and
    strings, the EIP-712 digest was computed from) and the same pins (the registry
    itself, the trusted routers, the two ``unsafe_*`` flags). Anything else, and any
    order without one, is checked in full. ``digest`` is what the intents are signed
    under, computed once, when the proof is made, and handed on to the signature.
    """

    seal: object
    content: tuple[object, ...]
    values: tuple[object, ...]
    digest: bytes
    registry: Registry
    trusted_routers: _trust.TrustedRouters | None
    trust_service: bool
    trust_output: bool
    router: SwapRouter
    terms: _trust.OutputTerms
    max_fee_cap: int | None
    max_total_fee: int | None

    def __deepcopy__(self, memo: dict[int, Any]) -> None:
        # A deep copy of an order is another order, whose pins are copies: unchecked.
        return None

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        # Pickled and read back, an order is checked in full, like any order from outside.
        return _no_proof, ()


def _no_proof() -> None:
    """What a `_Proof` becomes when its order is pickled: none."""


class Order(BaseModel):
    """Burn intents ready to sign, and what ``POST /swap`` needs beside them.

    An order from `build_order` is a *checked* order: it carries, privately, what
    `build_order` verified (the pinned router with its format, the terms, the caps and
    the pins), bound to its content. `sign_order` signs a checked order without
    checking it again when given the same pins, and checks any other order (built by
    hand, copied with changes, read back from elsewhere) in full.

    Attributes:
        user: the depositor and signer of every intent (checksummed).
        chain_id: the destination chain.
        amount: the USDC swapped, in smallest units; the intents' values add up to it.
        sources: one entry per intent, in the same order.
        intents: the burn intents (one per source chain).
        swap_router_address: the quote's router: every intent's recipient and
            destination caller, and ``swapRouterAddress`` in ``POST /swap``.
        swap_calldata: the quote's ``swap_calldata``.
        terms: what the router's hook data and calldata were checked to say (the
            recipient, the output token, the least output, the amount); `sign_order`
            checks them again.
        hook_data: the quote's hook data, as checked; every intent must carry it.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True)

    user: str
    chain_id: int
    amount: int
    sources: tuple[OrderSource, ...]
    intents: tuple[BurnIntent, ...]
    swap_router_address: str
    swap_calldata: str | None = None
    terms: _trust.OutputTerms | None = None
    hook_data: str | None = None

    _proof: _Proof | None = PrivateAttr(default=None)

    def __eq__(self, other: object) -> bool:
        # Equal fields make equal orders, checked or not (the proof is no field).
        if not isinstance(other, Order):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    @property
    def primary_type(self) -> Literal["BurnIntent", "BurnIntentSet"]:
        """What `sign_order` signs: one ``BurnIntent``, or a ``BurnIntentSet`` for several."""
        return "BurnIntent" if len(self.intents) == 1 else "BurnIntentSet"

    @property
    def total_max_fee(self) -> int:
        """The most the Gateway may charge in all, over every source chain."""
        return sum(source.max_fee for source in self.sources)

    def typed_data(self) -> dict[str, Any]:
        """The EIP-712 payload `sign_order` signs, to sign it elsewhere (a browser or
        hardware wallet)."""
        if len(self.intents) == 1:
            return burn_intent_typed_data(self.intents[0])
        return burn_intent_set_typed_data(list(self.intents))


class SignedOrder(BaseModel):
    """A signed order: the order, and the signed intent or set.

    Attributes:
        order: what was signed.
        signed: the signing module's `SignedBurnIntent` (one source) or
            `SignedBurnIntentSet` (several); their ``repr`` hides the signature.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True)

    order: Order
    signed: SignedBurnIntent | SignedBurnIntentSet

    @property
    def signer(self) -> str:
        """The checksummed address that signed."""
        return self.signed.signer

    @property
    def digest(self) -> str:
        """The EIP-712 digest that was signed."""
        return self.signed.digest

    def to_wire(self) -> list[dict[str, Any]]:
        """The ``signedOrder`` array: ``{"intent": ...}`` per intent, the first also
        carrying ``signature``. The same serialisation that was signed."""
        return self.signed.to_signed_order()


# ------------------------------------------------------------------------------ inputs


def _usdc(units: int) -> str:
    # Every digit, so that sums in a message add up as shown.
    return format_amount(units, places=6)


def _as_quote(quote: object) -> Quote:
    if isinstance(quote, Quote):
        return quote
    if not isinstance(quote, Mapping):
        refuse_unawaited("quote", quote)
        raise InvalidInputError("quote", "must be a Quote (from get_quote) or its wire dict")
    try:
        return Quote.model_validate(quote)
    except ValidationError as exc:
        raise invalid_input(exc, argument="quote") from None


def _as_chains(chains: object) -> dict[int, Chain]:
    if isinstance(chains, str | bytes) or not isinstance(chains, Sequence):
        refuse_unawaited("chains", chains)
        raise InvalidInputError("chains", "must be the list from get_supported_chains()")
    found: dict[int, Chain] = {}
    for index, chain in enumerate(chains):
        try:
            checked = chain if isinstance(chain, Chain) else Chain.model_validate(chain)
        except ValidationError as exc:
            raise invalid_input(exc, argument=f"chains[{index}]") from None
        if checked.id in found:
            # Two entries for one chain: which one would be signed for is not clear.
            raise UnsafePayloadError(
                f"chains[{index}].id", expected="each chain listed once", received=checked.id
            )
        found[checked.id] = checked
    return found


@dataclass(frozen=True, slots=True)
class _Contracts:
    """What a burn intent needs of one chain, from the registry."""

    domain: int
    gateway: str  # gatewayWallet on a source chain, gatewayMinter on the destination
    usdc: str


def _destination(
    chains: Mapping[int, Chain], chain_id: int, registry: Registry
) -> tuple[Chain, GatewayChain]:
    chain = chains.get(chain_id)
    if chain is None:
        raise InvalidInputError(
            "chain_id",
            f"{chain_id} is not among the supported chains ({', '.join(map(str, chains))})",
        )
    return chain, _trust.pinned_chain(registry, chain_id, chain)


def _candidates(
    chains: Mapping[int, Chain], registry: Registry, destination: GatewayChain
) -> dict[int, _Contracts]:
    """The chains that may give: listed by the backend, pinned in the registry, and of
    the destination's network. Their contracts come from the registry."""
    found: dict[int, _Contracts] = {}
    for chain_id in chains:
        pinned = registry.get(chain_id)
        if pinned is not None and pinned.testnet == destination.testnet:
            found[chain_id] = _Contracts(pinned.domain, pinned.gateway_wallet, pinned.usdc)
    return found


def _balances(balances: object, user: str) -> dict[int, int]:
    if isinstance(balances, GatewayBalance):
        found: dict[int, int] = {}
        for entry in balances.balances:
            if not _same_address(entry.depositor, user):
                raise InvalidInputError(
                    "balances", f"are those of {entry.depositor}, not of user {user}"
                )
            found[entry.chain_id] = found.get(entry.chain_id, 0) + entry.balance
        return found
    if not isinstance(balances, Mapping):
        refuse_unawaited("balances", balances)
        raise InvalidInputError(
            "balances", "must be the GatewayBalance from get_balance(), or {chain_id: amount}"
        )
    return {
        check_argument("balances (chain id)", ChainId, key): check_argument(
            f"balances[{key}]", TokenAmount, value
        )
        for key, value in balances.items()
    }


def _fees(quote: Quote, max_fee: object) -> tuple[int, dict[int, int]]:
    default = quote.gateway_fee
    if max_fee is None:
        return default, {}
    if isinstance(max_fee, Mapping):
        return default, {
            check_argument("max_fee (chain id)", ChainId, key): check_argument(
                f"max_fee[{key}]", TokenAmount, value
            )
            for key, value in max_fee.items()
        }
    return check_argument("max_fee", TokenAmount, max_fee), {}


def _order_amount(quote: Quote) -> int:
    asked = quote.request.input_amount if quote.request else None
    if asked is not None:
        # The caller's own amount; check_quote_terms has compared the quote's with it.
        return asked
    amount = quote.token_in.amount
    if amount <= 0:
        raise UnsafePayloadError(
            "quote.token_in.amount", expected="a positive amount", received=amount
        )
    return amount


# ------------------------------------------------------------------------------ selection


def select_sources(amount: int, usable: Mapping[int, int]) -> dict[int, int] | None:
    """The documented policy: the fewest chains, by usable amount, largest first (ties
    by chain id); each gives all it can, the last the remainder.

    Args:
        amount: what must be covered, in smallest units.
        usable: per chain id, what may be taken (balance less that chain's fee).

    Returns:
        ``{chain_id: value}`` in selection order, or ``None`` when all the usable
        amounts together fall short. It may name more than 16 chains; `build_order`
        refuses that.
    """
    chosen: dict[int, int] = {}
    remaining = amount
    for chain_id, available in sorted(usable.items(), key=lambda item: (-item[1], item[0])):
        if remaining == 0 or available <= 0:
            break
        take = min(available, remaining)
        chosen[chain_id] = take
        remaining -= take
    return chosen if remaining == 0 else None


def _shortfall_report(
    amount: int,
    user: str,
    balances: Mapping[int, int],
    fees: Mapping[int, int],
    chains: Mapping[int, Chain],
    candidates: Mapping[int, _Contracts],
) -> InsufficientBalanceError:
    usable: dict[int, int] = {}
    lines = []
    for chain_id in sorted(balances):
        balance = balances[chain_id]
        chain = chains.get(chain_id)
        name = f"{chain_id} ({chain.name})" if chain and chain.name else str(chain_id)
        if chain is None:
            lines.append(f"{name}: balance {_usdc(balance)}, not usable (no chain configuration)")
            continue
        if chain_id not in candidates:
            lines.append(
                f"{name}: balance {_usdc(balance)}, not usable (not a chain of the destination's "
                "network in the SDK's registry)"
            )
            continue
        fee = fees[chain_id]
        usable[chain_id] = max(0, balance - fee)
        lines.append(
            f"{name}: balance {_usdc(balance)}, max fee {_usdc(fee)}, "
            f"usable {_usdc(usable[chain_id])}"
        )
    shortfall = amount - sum(usable.values())
    detail = "; ".join(lines) if lines else "no gateway balance on any chain"
    return InsufficientBalanceError(
        f"the gateway balances of {user} cannot cover {_usdc(amount)}: short by "
        f"{_usdc(shortfall)} (each source chain must hold value + max fee). Per chain: "
        f"{detail}",
        shortfall=shortfall,
        usable=usable,
    )


def _checked_sources(
    sources: object,
    amount: int,
    balances: Mapping[int, int],
    fee_of: Mapping[int, int],
    chains: Mapping[int, Chain],
    candidates: Mapping[int, _Contracts],
    registry: Registry,
) -> dict[int, int]:
    if not isinstance(sources, Mapping) or not sources:
        raise InvalidInputError("sources", "must be a non-empty {chain_id: amount} mapping")
    chosen: dict[int, int] = {}
    for key, value in sources.items():
        chain_id = check_argument("sources (chain id)", ChainId, key)
        units = check_argument(f"sources[{key}]", TokenAmount, value)
        if units == 0:
            raise InvalidInputError(f"sources[{key}]", "must be positive")
        if chain_id not in chains:
            raise InvalidInputError(
                f"sources[{key}]",
                "names a chain without configuration: the backend does not list it",
            )
        if chain_id not in candidates:
            registry.chain(chain_id)  # not pinned: refused, saying how to add it
            raise InvalidInputError(
                f"sources[{key}]",
                "names a chain of another network (mainnet and testnet cannot be mixed)",
            )
        chosen[chain_id] = units
    if sum(chosen.values()) != amount:
        raise InvalidInputError(
            "sources",
            f"add up to {_usdc(sum(chosen.values()))}, but the quote is for {_usdc(amount)}",
        )
    short = {
        chain_id: value + fee_of[chain_id] - balances.get(chain_id, 0)
        for chain_id, value in chosen.items()
        if balances.get(chain_id, 0) < value + fee_of[chain_id]
    }
    if short:
        detail = "; ".join(
            f"{chain_id}: needs {_usdc(chosen[chain_id] + fee_of[chain_id])} "
            f"(value + max fee), holds {_usdc(balances.get(chain_id, 0))}, "
            f"short by {_usdc(missing)}"
            for chain_id, missing in short.items()
        )
        raise InsufficientBalanceError(
            f"the chosen sources are not covered: {detail}",
            shortfall=sum(short.values()),
            usable={c: max(0, balances.get(c, 0) - fee_of[c]) for c in chosen},
        )
    return chosen


# ------------------------------------------------------------------------------ building


def build_order(
    quote: Quote,
    *,
    chains: ChainsArg,
    balances: BalancesArg,
    user: str,
    sources: Mapping[int, int] | None = None,
    max_fee: MaxFeeArg = None,
    chain_id: int | None = None,
    min_amount_out: int | str | None = None,
    max_fee_cap: int | str | None = None,
    trusted_routers: TrustedRoutersArg = None,
    registry: Registry | None = None,
    now: float | None = None,
    recipient: str | None = None,
    max_total_fee: int | str | None = None,
    unsafe_trust_service_parties: bool = False,
    unsafe_trust_router_output: bool = False,
    salt_seed: str | None = None,
) -> Order:
    """Choose the source chains and build one burn intent per source, per the spec.

    Every intent takes its domains, Gateway contracts and USDC addresses from the
    registry (the backend's ``chains`` must agree with it); ``sourceDepositor`` and
    ``sourceSigner`` are ``user``; ``destinationRecipient`` and ``destinationCaller``
    are the quote's ``swap_router_address``; ``hookData`` is the quote's ``hook_data``;
    ``maxFee`` is the quote's ``fees.gateway_fee`` (2010000 when the quote has none)
    unless ``max_fee`` says otherwise; ``maxBlockHeight`` is the largest uint256 and
    ``salt`` 32 random bytes.

    Before building, the quote and the chain list are checked; what fails is refused
    with `UnsafePayloadError` (see ``xswap_sdk.flash._trust``): a chain whose domain,
    ``gatewayWallet``, ``gatewayMinter`` or USDC address is not the registry's, a chain
    the registry does not know, a router that is not the destination chain's
    ``routerAddress`` or is not pinned (in the registry or ``trusted_routers``), hook
    data or calldata that name another recipient, another token or a lower minimum
    output (or that cannot be read, for a router of unknown format), a quote not for
    the amount or the token asked, below ``min_amount_out``, without ``expires_at``, or
    fees above the default caps (per intent and per order).

    Args:
        quote: from `FlashClient.get_quote` (or its wire dict; then what was asked is
            not known, and only the quote's own terms are checked).
        chains: from `FlashClient.get_supported_chains`.
        balances: the user's `GatewayBalance` (from `FlashClient.get_balance`), or
            ``{chain_id: amount}`` in smallest units.
        user: the depositor who signs.
        sources: ``{chain_id: amount}`` to choose the sources yourself; the amounts
            must add up to the quote's amount, and each chain must still hold
            ``amount + max fee``.
        max_fee: each intent's ``maxFee``: one value, or ``{chain_id: fee}`` for the
            chains whose minimum differs (the others keep the quote's fee).
        chain_id: the destination chain; defaults to the one the quote was asked for.
        min_amount_out: the least output accepted, in the output token's smallest
            units: the quote's stated ``token_out.amount`` must reach it, and so must
            the minimum output the router's hook data and calldata enforce (for a
            router whose format is known).
        max_fee_cap: refuse (`QuoteRejectedError`) a quote whose gateway fee (each
            intent's ``maxFee``) is above this, in smallest USDC units. When not given,
            the default cap applies per intent: 2.01 USDC plus 1 basis point of the
            amount (see `default_max_fee_cap`).
        trusted_routers: ``{chain_id: [router, ...]}``: routers the order may pay on
            top of those the registry pins, per destination chain (of unknown format).
        registry: the pinned chains and contracts; `xswap_sdk.registry.DEFAULT_REGISTRY`
            when not given. Add a chain with `Registry.with_chains`.
        now: the time in Unix seconds (the client passes its clock's); the quote must
            not have expired by then. When not given, only the presence of
            ``expires_at`` is checked.
        recipient: who must receive the output; the quote request's ``recipient``, else
            ``user``.
        max_total_fee: refuse (`QuoteRejectedError`) an order whose intents' ``maxFee``
            add up to more than this, in smallest USDC units; by default 2 x 2.01 USDC
            plus 1 bp of the amount (`UnsafePayloadError`, see `default_max_total_fee`).
        unsafe_trust_service_parties: DANGEROUS: accept a router that is not pinned
            when the backend names it (quote and chain list): trusting the service
            with your funds.
        unsafe_trust_router_output: DANGEROUS: sign hook data the SDK cannot read (a
            router of unknown format): the router is trusted with the output.
        salt_seed: 32 random bytes (``0x`` hex) the intents' salts are derived from
            (``keccak(seed || index)``), so that building the order again gives the same
            intents (a journey's replay); 32 fresh random bytes per intent when not
            given.

    Returns:
        The order, ready for `sign_order`: a checked order, which `sign_order` signs
        without checking it again while it is unchanged and signed under the same
        ``registry``, ``trusted_routers`` and ``unsafe_*`` flags (see `Order`).

    Raises:
        UnsafePayloadError: the quote or the chain list disagrees with what was asked
            or with the registry (nothing is built, nothing is signed).
        InsufficientBalanceError: the balances cannot cover the amount plus a max fee
            per source chain; the message names what each chain holds and can give.
        QuoteRejectedError: the quote lacks its router or amount, has expired, or its
            fee is above ``max_fee_cap``.
        InvalidInputError: more than 16 source chains would be needed, a bad
            ``sources`` entry or argument, or an unknown destination chain.
    """
    checked_quote = _as_quote(quote)
    owner: str = check_argument("user", Address, user)
    destination_id = _destination_id(checked_quote, chain_id)
    pins = DEFAULT_REGISTRY if registry is None else _registry(registry)
    routers = _trust.check_trusted_routers(trusted_routers)
    least_out = (
        None
        if min_amount_out is None
        else check_argument("min_amount_out", TokenAmount, min_amount_out)
    )
    cap = None if max_fee_cap is None else check_argument("max_fee_cap", TokenAmount, max_fee_cap)
    total_cap = (
        None
        if max_total_fee is None
        else check_argument("max_total_fee", TokenAmount, max_total_fee)
    )
    wanted_recipient = (
        None if recipient is None else check_argument("recipient", Address, recipient)
    )
    trust_service = _flag("unsafe_trust_service_parties", unsafe_trust_service_parties)
    trust_output = _flag("unsafe_trust_router_output", unsafe_trust_router_output)
    seed = None if salt_seed is None else check_argument("salt_seed", Bytes32, salt_seed)
    return _build(
        checked_quote,
        _Asked(
            user=owner,
            chain_id=destination_id,
            registry=pins,
            trusted_routers=routers,
            min_amount_out=least_out,
            fee_cap=cap,
            total_cap=total_cap,
            recipient=wanted_recipient,
            trust_service=trust_service,
            trust_output=trust_output,
        ),
        chains=chains,
        balances=balances,
        sources=sources,
        max_fee=max_fee,
        now=now,
        seed=seed,
        quote_checked=False,
    )


@dataclass(frozen=True, slots=True)
class _Asked:
    """`build_order`'s arguments once checked: what the order is checked against."""

    user: str
    chain_id: int
    registry: Registry
    trusted_routers: _trust.TrustedRouters | None
    min_amount_out: int | None
    fee_cap: int | None
    total_cap: int | None
    recipient: str | None
    trust_service: bool
    trust_output: bool


def _build(
    quote: Quote,
    asked: _Asked,
    *,
    chains: object,
    balances: object,
    sources: Mapping[int, int] | None,
    max_fee: object,
    now: float | None,
    seed: str | None,
    quote_checked: bool,
) -> Order:
    """`build_order` from checked arguments: check the quote, pick the sources,
    assemble and check the intents, and seal the order with its `_Proof`."""
    checked = _check_quote(
        quote,
        asked,
        chains=chains,
        # A single max_fee replaces the quote's fee everywhere: only then is it not checked.
        check_fee=not isinstance(max_fee, int) or isinstance(max_fee, bool),
        now=now,
        quote_checked=quote_checked,
    )
    picked = _pick_sources(
        checked, balances=balances, sources=sources, max_fee=max_fee, max_total_fee=asked.total_cap
    )
    return _assemble(checked, picked, seed)


def order_for_checked_quote(
    quote: Quote,
    *,
    chains: Sequence[Chain],
    balances: GatewayBalance,
    user: str,
    chain_id: int,
    sources: Mapping[int, int] | None,
    min_amount_out: int | None,
    max_fee_cap: int | None,
    max_total_fee: int | None,
    trusted_routers: _trust.TrustedRouters | None,
    registry: Registry,
    unsafe_trust_service_parties: bool,
    unsafe_trust_router_output: bool,
    now: float,
    salt_seed: str,
) -> Order:
    """`build_order` for the one-call swap, whose plan (`xswap_sdk.flash._swap.plan_swap`)
    checked every argument and whose flow checked ``quote`` (`check_quote`: its terms and
    its fee, with these caps) when it arrived: neither is checked again; the quote's
    expiry is, at ``now``, and everything else `build_order` checks."""
    return _build(
        quote,
        _Asked(
            user=user,
            chain_id=chain_id,
            registry=registry,
            trusted_routers=trusted_routers,
            min_amount_out=min_amount_out,
            fee_cap=max_fee_cap,
            total_cap=max_total_fee,
            recipient=None,
            trust_service=unsafe_trust_service_parties,
            trust_output=unsafe_trust_router_output,
        ),
        chains=chains,
        balances=balances,
        sources=sources,
        max_fee=None,
        now=now,
        seed=salt_seed,
        quote_checked=True,
    )


def _salt(seed: str | None, index: int) -> str | None:
    """The salt of the order's intent ``index``: derived from ``seed``, or ``None`` (a
    fresh random one)."""
    if seed is None:
        return None
    return "0x" + keccak(bytes.fromhex(seed[2:]) + index.to_bytes(32, "big")).hex()


def _destination_id(quote: Quote, chain_id: int | None) -> int:
    found = (
        chain_id if chain_id is not None else (quote.request.chain_id if quote.request else None)
    )
    if found is None:
        raise InvalidInputError(
            "chain_id", "is needed: this quote does not record its destination chain"
        )
    checked: int = check_argument("chain_id", ChainId, found)
    return checked


@dataclass(frozen=True, slots=True)
class _Checked:
    """A quote checked against what was asked, the chain list and the registry."""

    quote: Quote
    asked: _Asked
    chains: dict[int, Chain]
    destination: GatewayChain
    router: str
    pinned: SwapRouter
    amount: int
    terms: _trust.OutputTerms

    @property
    def user(self) -> str:
        return self.asked.user

    @property
    def registry(self) -> Registry:
        return self.asked.registry


def _check_quote(
    quote: Quote,
    asked: _Asked,
    *,
    chains: object,
    check_fee: bool,
    now: float | None,
    quote_checked: bool,
) -> _Checked:
    """Step one of `build_order`: the quote's router, terms, fee and router output.

    With ``quote_checked`` (the one-call swap, which ran `check_quote` on this quote
    with the same caps), the quote's terms and fee are not checked again; its expiry is.
    """
    router = quote.swap_router_address
    try:
        router = check_argument("quote.swap_router_address", Address, router)
    except InvalidInputError:
        raise UnsafePayloadError(
            "quote.swap_router_address", expected="an address", received=router
        ) from None
    known = _as_chains(chains)
    if quote_checked:
        _trust.check_expiry(quote, now)
    else:
        _trust.check_quote_terms(
            quote, request=quote.request, now=now, min_amount_out=asked.min_amount_out
        )
    amount = _order_amount(quote)
    if check_fee and not quote_checked:
        # The quote's fee becomes a maxFee somewhere: it must be within the cap.
        _trust.check_fee(quote, amount=amount, max_fee_cap=asked.fee_cap)
    listed, destination = _destination(known, asked.chain_id, asked.registry)
    pinned = _trust.pinned_router(
        router,
        chain_id=asked.chain_id,
        listed=listed,
        registry=asked.registry,
        trusted_routers=asked.trusted_routers,
        trust_service=asked.trust_service,
    )
    terms = _trust.output_terms(
        quote,
        user=asked.user,
        recipient=asked.recipient,
        min_amount_out=asked.min_amount_out,
        slippage=quote.request.slippage if quote.request else None,
        amount=amount,
    )
    _trust.check_router_output(
        quote.hook_data,
        quote.swap_calldata,
        router=pinned,
        registry=asked.registry,
        terms=terms,
        trust_output=asked.trust_output,
    )
    return _Checked(quote, asked, known, destination, router, pinned, amount, terms)


@dataclass(frozen=True, slots=True)
class _Picked:
    """The source chains chosen, with what each holds and may be charged."""

    chosen: dict[int, int]
    held: dict[int, int]
    fee_of: dict[int, int]
    contracts: dict[int, _Contracts]


def _pick_sources(
    checked: _Checked,
    *,
    balances: object,
    sources: Mapping[int, int] | None,
    max_fee: object,
    max_total_fee: int | None,
) -> _Picked:
    """Step two of `build_order`: the caller's sources checked, or the policy's choice."""
    held = _balances(balances, checked.user)
    default_fee, fee_overrides = _fees(checked.quote, max_fee)
    known, amount = checked.chains, checked.amount
    configs = _candidates(known, checked.registry, checked.destination)
    fee_of = {c: fee_overrides.get(c, default_fee) for c in {*configs, *held, *known}}

    if sources is not None:
        chosen = _checked_sources(sources, amount, held, fee_of, known, configs, checked.registry)
    else:
        usable = {c: max(0, held.get(c, 0) - fee_of[c]) for c in configs if c in held}
        picked = select_sources(amount, usable)
        if picked is None:
            raise _shortfall_report(amount, checked.user, held, fee_of, known, configs)
        chosen = picked
    if len(chosen) > MAX_INTENTS_PER_SET:
        raise InvalidInputError(
            "sources" if sources is not None else "balances",
            f"covering {_usdc(amount)} takes {len(chosen)} source chains, but one signed "
            f"order holds at most {MAX_INTENTS_PER_SET} burn intents",
        )
    if max_fee is None or max_total_fee is not None:
        # The number of intents follows the reported balances: the total is capped too.
        _trust.check_total_fee(
            sum(fee_of[chain] for chain in chosen),
            amount=amount,
            intents=len(chosen),
            max_total_fee=max_total_fee,
        )
    return _Picked(chosen, held, fee_of, configs)


def _assemble(checked: _Checked, picked: _Picked, seed: str | None = None) -> Order:
    """Step three of `build_order`: one burn intent per source, checked, in an order
    sealed with its `_Proof`."""
    destination, pins = checked.destination, checked.registry
    router = checked.router
    intents = []
    order_sources = []
    for index, (source_id, value) in enumerate(picked.chosen.items()):
        if source_id != checked.asked.chain_id:  # the destination's was, in _check_quote
            # The backend's entry of every chain that gives must agree with the registry.
            _trust.pinned_chain(pins, source_id, checked.chains[source_id])
        source = picked.contracts[source_id]
        fee = picked.fee_of[source_id]
        intents.append(
            build_burn_intent(
                source_domain=source.domain,
                destination_domain=destination.domain,
                source_contract=source.gateway,
                destination_contract=destination.gateway_minter,
                source_token=source.usdc,
                destination_token=destination.usdc,
                user=checked.user,
                recipient=router,
                value=value,
                hook_data=checked.quote.hook_data,
                max_fee=fee,
                salt=_salt(seed, index),
            )
        )
        order_sources.append(
            OrderSource(
                chain_id=source_id,
                domain=source.domain,
                value=value,
                max_fee=fee,
                balance=picked.held.get(source_id, 0),
            )
        )
    _trust.check_intents(
        intents,
        source_chain_ids=list(picked.chosen),
        destination=destination,
        registry=pins,
        user=checked.user,
        router=router,
    )
    order = Order(
        user=checked.user,
        chain_id=checked.asked.chain_id,
        amount=checked.amount,
        sources=tuple(order_sources),
        intents=tuple(intents),
        swap_router_address=router,
        swap_calldata=checked.quote.swap_calldata,
        terms=checked.terms,
        hook_data=intents[0].spec.hook_data,
    )
    _check_terms(order)
    asked = checked.asked
    order._proof = _Proof(
        seal=_SEAL,
        content=_content(order),
        values=_signed_values(order.intents),
        digest=_digest(order.intents),
        registry=pins,
        trusted_routers=asked.trusted_routers,
        trust_service=asked.trust_service,
        trust_output=asked.trust_output,
        router=checked.pinned,
        terms=checked.terms,
        max_fee_cap=asked.fee_cap,
        max_total_fee=asked.total_cap,
    )
    return order


def _content(order: Order) -> tuple[object, ...]:
    """Every field of ``order`` but its intents, as plain values: what a `_Proof` holds
    of it (the intents are held as their digest)."""
    terms = order.terms
    return (
        order.user,
        order.chain_id,
        order.amount,
        tuple((s.chain_id, s.domain, s.value, s.max_fee, s.balance) for s in order.sources),
        order.swap_router_address,
        order.swap_calldata,
        None
        if terms is None
        else (terms.recipient, terms.token_out, terms.least_out, terms.amount_in),
        order.hook_data,
        len(order.intents),
    )


def _signed_values(intents: Sequence[BurnIntent]) -> tuple[object, ...]:
    """Every value the intents' EIP-712 digest is computed from, in order: the objects
    themselves (immutable ints and strings), so that finding the very same objects again
    proves the digest unchanged without computing it again."""
    values: list[object] = []
    for intent in intents:
        spec = intent.spec
        values += (intent.max_block_height, intent.max_fee)
        values += [getattr(spec, name) for name in _SPEC_FIELDS]
    return tuple(values)


_SPEC_FIELDS: Final = tuple(TransferSpec.model_fields)
"""The transfer spec's fields: each one goes into the digest (`_spec_hash`)."""


def _digest(intents: Sequence[BurnIntent]) -> bytes:
    """The EIP-712 digest the order's intents are signed under: one ``BurnIntent``, or
    a ``BurnIntentSet``."""
    return _intent_digest(intents[0]) if len(intents) == 1 else _set_digest(intents)


def _proven(
    order: Order,
    *,
    registry: Registry,
    trusted_routers: object,
    trust_service: bool,
    trust_output: bool,
) -> bytes | None:
    """The digest to sign when ``order`` carries `build_order`'s proof for these very
    pins and is still what was checked; ``None`` (check it in full) otherwise."""
    proof: _Proof | None = private_value(order, "_proof")
    if type(proof) is not _Proof or proof.seal is not _SEAL:
        return None
    if (
        proof.registry is not registry
        or proof.trust_service is not trust_service
        or proof.trust_output is not trust_output
    ):
        return None
    if trusted_routers is not proof.trusted_routers and (
        trusted_routers is None
        or proof.trusted_routers is None
        or _trust.check_trusted_routers(trusted_routers) != proof.trusted_routers
    ):
        return None
    if proof.content != _content(order):
        return None
    try:
        values = _signed_values(order.intents)
    except AttributeError:
        return None  # intents changed past what can be read: the full checks say how
    held = proof.values
    if len(values) != len(held) or not all(map(operator.is_, values, held)):
        # Not the very objects the digest was computed from: changed since, or copied.
        return None
    return proof.digest


def _flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidInputError(name, "must be True or False")
    return value


def _registry(registry: object) -> Registry:
    if not isinstance(registry, Registry):
        raise InvalidInputError("registry", "must be a xswap_sdk.registry.Registry")
    return registry


def sign_order(
    order: Order,
    signer: Signer,
    *,
    registry: Registry | None = None,
    trusted_routers: TrustedRoutersArg = None,
    unsafe_trust_service_parties: bool = False,
    unsafe_trust_router_output: bool = False,
) -> SignedOrder:
    """Sign an order: one ``BurnIntent`` for one source, one ``BurnIntentSet`` for
    several (signed once).

    An order `build_order` returned, unchanged since and signed with the same
    ``registry`` (the same object), ``trusted_routers`` and ``unsafe_*`` flags, is
    signed as it was checked: its checks passed on these very values, and are not run
    again. Any other order (built by hand, changed or copied since, read back from
    elsewhere, or signed under other pins) is checked in full right before signing,
    every field of every intent against the registry and the order itself: the
    domains, Gateway contracts and USDC addresses of its chains, the depositor and
    signer, the router as recipient and destination caller (pinned in the registry or
    ``trusted_routers``), the hook data and calldata against the order's ``terms`` (for
    a router of known format), one intent per source domain, a positive value and
    transfer spec version 1. The signer must be the order's user either way.

    Args:
        order: from `build_order`.
        signer: the order's user.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given (use the same registry as for `build_order`).
        trusted_routers: ``{chain_id: [router, ...]}``: routers pinned on top of the
            registry's.
        unsafe_trust_service_parties: DANGEROUS: accept a router nobody pinned.
        unsafe_trust_router_output: DANGEROUS: sign hook data the SDK cannot read.

    Returns:
        The signed order; `SignedOrder.to_wire` is the ``signedOrder`` array, in which
        only the first element carries the signature.

    Raises:
        InvalidInputError: ``signer`` is not the order's user, or a bad argument.
        UnsafePayloadError: an intent differs from what the registry and the order say
            it must be; nothing is signed.
        SigningError: the signer failed, or signed for another address.
    """
    return _signed_now(
        signing_order(
            order,
            signer,
            registry=registry,
            trusted_routers=trusted_routers,
            unsafe_trust_service_parties=unsafe_trust_service_parties,
            unsafe_trust_router_output=unsafe_trust_router_output,
        )
    )


def signing_order(
    order: Order,
    signer: Signer,
    *,
    registry: Registry | None = None,
    trusted_routers: TrustedRoutersArg = None,
    unsafe_trust_service_parties: bool = False,
    unsafe_trust_router_output: bool = False,
) -> Flow[SignedOrder]:
    """`sign_order` as a flow: its checks, then one `xswap_sdk._flow.Sign` step (a
    journey's driver makes, or replays, the signature)."""
    if not isinstance(order, Order):
        raise InvalidInputError("order", "must be an Order from build_order()")
    address = signer_address(signer)
    if address != order.user:
        raise InvalidInputError("signer", f"must be the order's user {order.user}, not {address}")
    pins = DEFAULT_REGISTRY if registry is None else _registry(registry)
    trust_service = _flag("unsafe_trust_service_parties", unsafe_trust_service_parties)
    trust_output = _flag("unsafe_trust_router_output", unsafe_trust_router_output)
    digest = _proven(
        order,
        registry=pins,
        trusted_routers=trusted_routers,
        trust_service=trust_service,
        trust_output=trust_output,
    )
    if digest is not None:
        # build_order checked this very order against these very pins.
        proven = yield from _signing_checked_intents(order.intents, signer, address, digest)
        return SignedOrder(order=order, signed=proven)
    _check_order(
        order,
        registry=pins,
        trusted_routers=_trust.check_trusted_routers(trusted_routers),
        trust_service=trust_service,
        trust_output=trust_output,
    )
    signed: SignedBurnIntent | SignedBurnIntentSet
    if len(order.intents) == 1:
        signed = yield from _signing_burn_intent(order.intents[0], signer)
    else:
        signed = yield from _signing_burn_intent_set(list(order.intents), signer)
    return SignedOrder(order=order, signed=signed)


def _check_terms(order: Order) -> None:
    """The order's terms against its intents and sources (`_trust.check_order_terms`):
    when `build_order` makes it, and before signing one that lacks its proof."""
    _trust.check_order_terms(
        order.intents,
        values=[source.value for source in order.sources],
        max_fees=[source.max_fee for source in order.sources],
        amount=order.amount,
        hook_data=order.hook_data,
    )


def _check_order(
    order: Order,
    *,
    registry: Registry,
    trusted_routers: _trust.TrustedRouters | None,
    trust_service: bool,
    trust_output: bool,
) -> None:
    """Every check of an order that does not carry `build_order`'s proof for the pins
    it is signed with: every field of every intent, the terms, the router and its
    output, as `build_order` checks them."""
    _trust.check_intents(
        order.intents,
        source_chain_ids=[source.chain_id for source in order.sources],
        destination=registry.chain(order.chain_id),
        registry=registry,
        user=order.user,
        router=order.swap_router_address,
    )
    _check_terms(order)
    pinned = _trust.pinned_router(
        order.swap_router_address,
        chain_id=order.chain_id,
        listed=None,
        registry=registry,
        trusted_routers=trusted_routers,
        trust_service=trust_service,
    )
    if order.terms is None and not trust_output:
        raise UnsafePayloadError(
            "order.terms",
            expected="the terms build_order checked the router's data against",
            received=None,
            hint="Build the order with build_order().",
        )
    if order.terms is not None:
        _trust.check_router_output(
            order.intents[0].spec.hook_data,
            order.swap_calldata,
            router=pinned,
            registry=registry,
            terms=order.terms,
            trust_output=trust_output,
        )
