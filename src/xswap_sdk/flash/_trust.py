"""What the swap backend says, checked against the caller's request and the registry.

Pure functions, no I/O, shared by `build_order`, `sign_order` and the one-call swap. Each
refuses with `UnsafePayloadError` naming the field, what was expected and what was
received, before anything is signed:

- a chain whose domain, ``gatewayWallet``, ``gatewayMinter`` or USDC address is not the
  one `xswap_sdk.registry` pins; a chain the registry does not know; source and
  destination chains of different networks (mainnet and testnet); two intents on one
  source domain;
- a quote whose ``swap_router_address`` (every burn intent's recipient and destination
  caller) is not the destination chain's ``routerAddress``, or is pinned neither in the
  registry (`xswap_sdk.registry.SwapRouter`) nor in the caller's ``trusted_routers``
  (accepted then only with ``unsafe_trust_service_parties``: `pinned_router`);
- hook data and calldata that, read in the pinned router's format, name another
  recipient, another output token, a lower minimum output or another amount; or that
  cannot be read (a router of unknown format is accepted only with
  ``unsafe_trust_router_output``: `check_router_output`);
- a quote that is not for what was asked (``token_in.amount``, ``token_out.address``),
  that gives less than ``min_amount_out``, or that has no ``expires_at``;
- a gateway fee above the default cap per intent (`default_max_fee_cap`), or fees that
  add up, over the intents of one order, to more than the default total
  (`default_max_total_fee`);
- right before signing, any intent term that is not the order's (value, ``maxFee``,
  ``maxBlockHeight``, ``hookData``: `check_order_terms`).

See the "Trust model" page of the docs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Final

from .._logging import logger
from .._models import check_argument
from .._slippage import DEFAULT_MAX_SLIPPAGE
from ..errors import InvalidInputError, QuoteRejectedError, UnsafePayloadError
from ..gateway._operations import DEFAULT_FEE_CAP_BASE, DEFAULT_FEE_CAP_BPS, default_fee_cap
from ..registry import DEFAULT_TOTAL_FEE_CAP_INTENTS as _DEFAULT_TOTAL_FEE_CAP_INTENTS
from ..registry import GatewayChain, Registry, SwapRouter
from ..signing._fields import pad_address
from ..signing.burn_intents import BurnIntent, signable_problem
from ..types import (
    MAX_UINT256,
    USDC_DECIMALS,
    Address,
    ChainId,
    _same_address,
    from_units,
    to_checksum,
)
from .models import Chain, Quote, QuoteRequest

__all__ = [
    "DEFAULT_FEE_CAP_BASE",
    "DEFAULT_FEE_CAP_BPS",
    "DEFAULT_TOTAL_FEE_CAP_INTENTS",
    "OutputTerms",
    "TrustedRouters",
    "check_expiry",
    "check_fee",
    "check_intents",
    "check_listed_chain",
    "check_order_terms",
    "check_quote_terms",
    "check_router_output",
    "check_total_fee",
    "check_trusted_routers",
    "default_max_fee_cap",
    "default_max_total_fee",
    "output_terms",
    "pinned_chain",
    "pinned_router",
]

TrustedRouters = Mapping[int, frozenset[str]]
"""Checked ``trusted_routers``: per destination chain id, the routers allowed there."""

_BPS = 10_000


def _usdc(units: int) -> str:
    return f"{from_units(units, USDC_DECIMALS)} USDC"


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
    return default_fee_cap(amount)  # Gateway's own default cap is this rule


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


DEFAULT_TOTAL_FEE_CAP_INTENTS: Final = _DEFAULT_TOTAL_FEE_CAP_INTENTS
"""How many intents at the fixed part of the default cap the default *total* cap
allows (`xswap_sdk.registry.DEFAULT_TOTAL_FEE_CAP_INTENTS`)."""


def default_max_total_fee(amount: int) -> int:
    """The most the ``maxFee`` of all the burn intents of one order may add up to when
    the caller gives no ``max_total_fee``: 2 x 2.01 USDC plus 1 basis point of ``amount``.

    Why a total. The per-intent cap (`default_max_fee_cap`) bounds each intent, but the
    number of intents comes from the gateway balances the backend reports: a tampered
    balance answer that spreads an order over sixteen chains would multiply it by
    sixteen. The total cap does not grow with the number of chains: it covers the usual
    order from one or two source chains at the spec's default fee, and an order from
    more chains at that fee needs the caller's own ``max_total_fee``.

    Args:
        amount: the USDC swapped, in smallest units.

    Returns:
        The cap, in smallest USDC units.
    """
    return (
        DEFAULT_TOTAL_FEE_CAP_INTENTS * DEFAULT_FEE_CAP_BASE + amount * DEFAULT_FEE_CAP_BPS // _BPS
    )


def check_total_fee(total: int, *, amount: int, intents: int, max_total_fee: int | None) -> None:
    """Check the sum of the ``maxFee`` of an order's intents against a total cap.

    With ``max_total_fee`` (the caller's own limit), a sum above it is a
    `QuoteRejectedError`; without, the default total cap (`default_max_total_fee`)
    applies and a sum above it is an `UnsafePayloadError`.

    Raises:
        QuoteRejectedError: above ``max_total_fee``.
        UnsafePayloadError: above the default total cap.
    """
    if max_total_fee is not None:
        if total > max_total_fee:
            raise QuoteRejectedError(
                "order.total_max_fee",
                f"the {intents} burn intents may cost {total} in all, above max_total_fee "
                f"{max_total_fee} (smallest USDC units)",
            )
        return
    cap = default_max_total_fee(amount)
    if total > cap:
        raise UnsafePayloadError(
            "order.total_max_fee",
            expected=(
                f"at most {cap} ({_usdc(cap)} for the whole order: the default total cap, "
                f"2 x 2.01 USDC + 1 bp of {_usdc(amount)})"
            ),
            received=f"{total} over {intents} burn intents",
            hint=(
                "The gateway balances spread the order over more chains than the default "
                "covers. Choose sources= yourself, or pass max_total_fee= if you accept it."
            ),
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
        if not _same_address(token_out, request.output_token):
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
    check_expiry(quote, now)


def check_expiry(quote: Quote, now: float | None) -> None:
    """Check that the quote has not expired at ``now`` (Unix seconds; ``None`` checks
    nothing: a quote without ``expires_at`` does not parse).

    Raises:
        QuoteRejectedError: the quote has expired; ask for a new one.
    """
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
        The mapping with checksummed addresses (read-only), or ``None`` when none was
        given.

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
    # Read-only: a checked order's proof holds this very mapping, and an order signed
    # with it again is not re-checked, so nobody may change it after its check.
    return MappingProxyType(checked)


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
        if not _same_address(value, expected):
            raise UnsafePayloadError(f"{where}.{field}", expected=expected, received=value)


def _refuse_router(router: str, chain_id: int, trusted: frozenset[str]) -> UnsafePayloadError:
    pinned = f" (pinned there: {', '.join(sorted(trusted))})" if trusted else ""
    return UnsafePayloadError(
        "quote.swap_router_address",
        expected=f"a swap router pinned for chain {chain_id}{pinned}",
        received=router,
        hint=(
            f"Router {router} on chain {chain_id} would receive every burn intent, and "
            "neither you nor the SDK's registry chose it. If you vetted it, pin it: "
            f"FlashClient(trusted_routers={{{chain_id}: [{router!r}]}}), or "
            "registry=DEFAULT_REGISTRY.with_routers(SwapRouter(chain_id="
            f"{chain_id}, address={router!r}, output_format=...)). To let the service choose "
            "the router (trusting the service with your funds), pass "
            "unsafe_trust_service_parties=True to the client."
        ),
    )


def pinned_router(
    router: str,
    *,
    chain_id: int,
    listed: Chain | None,
    registry: Registry,
    trusted_routers: TrustedRouters | None,
    trust_service: bool = False,
) -> SwapRouter:
    """The router every burn intent will name as recipient and destination caller, as
    the caller or the registry pinned it.

    The router must be the destination chain's ``routerAddress`` in the backend's chain
    list (when ``listed`` is given) and, above all, pinned: in ``registry`` (with its
    format) or in the caller's ``trusted_routers`` (format unknown). With
    ``trust_service`` (the client's ``unsafe_trust_service_parties=True``), a router that
    is not pinned is accepted as the service names it, with a warning in the log.

    Returns:
        The router's entry: the registry's, or one of unknown format.

    Raises:
        UnsafePayloadError: the router is not the chain list's, or is not pinned; the
            message names the router, the chain and how to pin it.
    """
    if listed is not None and not _same_address(listed.router_address, router):
        raise UnsafePayloadError(
            "quote.swap_router_address",
            expected=f"chain {chain_id}'s routerAddress {listed.router_address}",
            received=router,
        )
    entry = registry.router(chain_id, router)
    if entry is not None:
        return entry
    trusted = (trusted_routers or {}).get(chain_id, frozenset())
    if router in trusted:
        return SwapRouter(chain_id, router)
    if trust_service:
        logger.warning(
            "unsafe_trust_service_parties: accepting the service's swap router %s on chain %d, "
            "which is not pinned; it receives the burn intents",
            router,
            chain_id,
        )
        return SwapRouter(chain_id, router)
    raise _refuse_router(router, chain_id, trusted)


@dataclass(frozen=True, slots=True)
class OutputTerms:
    """What the caller asked of the router's output, to compare with what its bytes say.

    Attributes:
        recipient: who must receive the output: the caller's ``recipient``, else the signer.
        token_out: the output token asked for.
        least_out: the smallest minimum output accepted, in the output token's smallest
            units: the caller's ``min_amount_out``, or the quoted output less the
            slippage, whichever is higher.
        amount_in: the USDC swapped, in smallest units.
    """

    recipient: str
    token_out: str
    least_out: int
    amount_in: int


def output_terms(
    quote: Quote,
    *,
    user: str,
    recipient: str | None,
    min_amount_out: int | None,
    slippage: Decimal | None,
    amount: int,
) -> OutputTerms:
    """The terms the router's bytes must carry, from the request (or the quote's own
    output token when the quote did not come from `get_quote`).

    ``least_out`` is the higher of ``min_amount_out`` and the quoted output less
    ``slippage`` (rounded down; `DEFAULT_MAX_SLIPPAGE` when the slippage asked is not
    known), and at least 1.
    """
    request = quote.request
    token_out = request.output_token if request is not None else quote.token_out.address
    asked = recipient or (request.recipient if request is not None else None) or user
    tolerance = slippage if slippage is not None else DEFAULT_MAX_SLIPPAGE
    quoted = quote.token_out.amount
    from_slippage = int(Decimal(quoted) * (Decimal(100) - tolerance) / Decimal(100))
    least = max(1, from_slippage, min_amount_out or 0)
    return OutputTerms(to_checksum(asked), to_checksum(token_out), least, amount)


def check_router_output(
    hook_data: str,
    swap_calldata: str | None,
    *,
    router: SwapRouter,
    registry: Registry,
    terms: OutputTerms,
    trust_output: bool = False,
) -> None:
    """Read the quote's ``hook_data`` (signed in every intent) and ``swap_calldata``
    (sent with ``POST /swap``) in the router's format and compare them with what the
    caller asked.

    Every part the format's decoder returns must name ``terms.recipient`` as the
    recipient and ``terms.token_out`` as the output token, ask for at least
    ``terms.least_out`` and, where it says, swap ``terms.amount_in``; between them the
    parts must carry all three terms. For a router whose format is not known, the swap
    is refused unless ``trust_output`` (``unsafe_trust_router_output=True``): the router
    is then trusted with the output, with a warning in the log.

    Raises:
        UnsafePayloadError: a term differs, the bytes are not in the router's format, or
            the format is unknown and not trusted.
    """
    decoder = (
        registry.router_formats.get(router.output_format)
        if router.output_format is not None
        else None
    )
    where = f"router {router.address} on chain {router.chain_id}"
    if decoder is None:
        if trust_output:
            logger.warning(
                "unsafe_trust_router_output: signing hook data the SDK cannot read for %s; "
                "the router decides who receives the output, and how much",
                where,
            )
            return
        raise UnsafePayloadError(
            "quote.hook_data",
            expected=f"hook data and calldata in a format the SDK can read for {where}",
            received=(
                f"format {router.output_format!r}, which the registry cannot read"
                if router.output_format
                else "a router of unknown format"
            ),
            hint=(
                "Pin the router with its format (SwapRouter(..., output_format=...), and "
                "Registry.with_router_format for a new one), or pass "
                "unsafe_trust_router_output=True (the router is then trusted with the output)."
            ),
        )
    try:
        parts = list(decoder(hook_data, swap_calldata or "0x"))
    except ValueError as exc:
        raise UnsafePayloadError(
            "quote.hook_data",
            expected=f"hook data and calldata in {router.output_format!r} format",
            received=str(exc),
        ) from None
    for name in ("recipient", "token_out", "min_amount_out"):
        if all(getattr(part, name) is None for part in parts):
            raise UnsafePayloadError(
                "quote.hook_data",
                expected=f"router data that binds the {name.replace('_', ' ')}",
                received=f"{router.output_format!r} data without it",
            )
    for part in parts:
        if part.recipient is not None and not _same_address(part.recipient, terms.recipient):
            raise UnsafePayloadError(
                f"{part.field}.recipient",
                expected=f"{terms.recipient} (your recipient, or the signer)",
                received=part.recipient,
            )
        if part.token_out is not None and not _same_address(part.token_out, terms.token_out):
            raise UnsafePayloadError(
                f"{part.field}.tokenOut", expected=terms.token_out, received=part.token_out
            )
        if part.min_amount_out is not None and part.min_amount_out < terms.least_out:
            raise UnsafePayloadError(
                f"{part.field}.minAmountOut",
                expected=(
                    f"at least {terms.least_out} (min_amount_out, or the quoted output "
                    "less the slippage)"
                ),
                received=part.min_amount_out,
            )
        if part.amount_in is not None and part.amount_in != terms.amount_in:
            raise UnsafePayloadError(
                f"{part.field}.amountIn", expected=terms.amount_in, received=part.amount_in
            )


def check_order_terms(
    intents: Sequence[BurnIntent],
    *,
    values: Sequence[int],
    max_fees: Sequence[int],
    amount: int,
    hook_data: str | None,
) -> None:
    """Check the terms of each intent against the order they belong to: its value and
    ``maxFee`` are its source's, the values add up to the order's amount, the
    ``maxBlockHeight`` is the largest uint256 (the spec's, and what `build_order`
    writes), and every ``hookData`` is the hook data the router's terms were checked in.

    Raises:
        UnsafePayloadError: a term that differs.
    """
    for index, (intent, value, fee) in enumerate(zip(intents, values, max_fees, strict=True)):
        where = f"intents[{index}]"
        if intent.spec.value != value:
            raise UnsafePayloadError(
                f"{where}.spec.value", expected=value, received=intent.spec.value
            )
        if intent.max_fee != fee:
            raise UnsafePayloadError(f"{where}.maxFee", expected=fee, received=intent.max_fee)
        if intent.max_block_height != MAX_UINT256:
            raise UnsafePayloadError(
                f"{where}.maxBlockHeight", expected=MAX_UINT256, received=intent.max_block_height
            )
        if hook_data is not None and intent.spec.hook_data.lower() != hook_data.lower():
            raise UnsafePayloadError(
                f"{where}.spec.hookData",
                expected=f"{hook_data} (the hook data the router's terms were checked in)",
                received=intent.spec.hook_data,
            )
    if sum(values) != amount:
        raise UnsafePayloadError(
            "order.sources", expected=f"values adding up to {amount}", received=sum(values)
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
) -> None:
    """Check every field of every burn intent that will be signed against the registry
    and what the caller asked for, as the last step before signing.

    Args:
        intents: the intents, in order.
        source_chain_ids: each intent's source chain id, in the same order.
        destination: the registry's entry of the destination chain.
        registry: the pinned facts.
        user: the depositor and signer (checksummed).
        router: the recipient and destination caller of every intent (checksummed);
            whether it is pinned is `pinned_router`'s check.

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
    seen: set[int] = set()
    for index, (intent, chain_id) in enumerate(zip(intents, source_chain_ids, strict=True)):
        where = f"intents[{index}]"
        source = registry.chain(chain_id)
        if source.family != "evm" or destination.family != "evm":
            # A swap order spends and mints on EVM chains, where the router is.
            raise UnsafePayloadError(
                f"{where}.spec.sourceDomain",
                expected="an EVM source and destination chain",
                received=f"{source.name} ({chain_id}) to {destination.name}",
            )
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
        # The spec's own values, which its wire form sends as they are (ints and
        # lowercase bytes32), read without serialising the whole spec.
        expected: tuple[tuple[str, object, object], ...] = (
            ("sourceDomain", spec.source_domain, source.domain),
            ("destinationDomain", spec.destination_domain, destination.domain),
            ("sourceContract", spec.source_contract, _word(source.gateway_wallet)),
            ("destinationContract", spec.destination_contract, _word(destination.gateway_minter)),
            ("sourceToken", spec.source_token, _word(source.usdc)),
            ("destinationToken", spec.destination_token, _word(destination.usdc)),
            ("sourceDepositor", spec.source_depositor, _word(user)),
            ("sourceSigner", spec.source_signer, _word(user)),
            ("destinationRecipient", spec.destination_recipient, _word(router)),
            ("destinationCaller", spec.destination_caller, _word(router)),
        )
        for name, found, value in expected:
            if found != value:
                raise UnsafePayloadError(f"{where}.spec.{name}", expected=value, received=found)
    hooks = {intent.spec.hook_data for intent in intents}
    if len(hooks) > 1:
        raise UnsafePayloadError(
            "intents.spec.hookData",
            expected="the same hook data in every intent (the quote's hook_data)",
            received=sorted(hooks),
        )
