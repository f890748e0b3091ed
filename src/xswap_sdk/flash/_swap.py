"""The one-call swap and the wait for its outcome, written once as flows.

`swap` reads the chains, asks for a quote, checks it, reads the gateway balances, builds
and signs the order, and submits it; with ``wait`` it then follows the swap in the
history. Both clients run the same flow.

The checks made before signing (nothing is signed or sent when one fails):

- the destination chain is one the backend supports (`InvalidInputError`) and one the
  registry pins (`UnsafePayloadError`);
- the quote is for the amount and the token asked, and gives at least
  ``min_amount_out`` when given (`UnsafePayloadError`); a quote without ``expires_at``,
  a router or calldata does not even parse (`ResponseValidationError`);
- the quote has not expired by the client's clock (`QuoteRejectedError`). The spec
  does not give the unit of ``expires_at``: values from 1e11 on are read as
  milliseconds, smaller ones as seconds. It is checked when the quote arrives and again
  just before signing;
- the quote's gateway fee is at most ``max_fee_cap`` when one is given
  (`QuoteRejectedError`), else at most the default cap, 2.01 USDC plus 1 bp of the
  amount (`UnsafePayloadError`, see `xswap_sdk.flash._orders.default_max_fee_cap`);
- the slippage is at most ``max_slippage`` (5 % by default), before any I/O
  (`InvalidInputError`);
- everything `build_order` and `sign_order` check: the chain list against the
  registry; the router pinned (registry or ``trusted_routers``) and the destination
  chain's ``routerAddress``; the router's hook data and calldata against the
  recipient, the output token and the least output asked; the fees per intent and per
  order; every field of every intent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

from .._chain_steps import UnavailableEvmSigner
from .._clock import Clock
from .._flow import Begin, Call, Flow, Now, Random, Record, Wait
from .._models import check_argument, refuse_unawaited, validate_request
from .._operation import Operation
from .._polling import check_wait_arguments, poll_found
from .._requote import MAX_REQUOTES, again, check_requote, offer
from ..errors import (
    InvalidInputError,
    MissingCredentialsError,
    QuoteRejectedError,
    ResponseValidationError,
    SwapFailedError,
)
from ..journal import Journey
from ..registry import DEFAULT_REGISTRY, Registry
from ..signing.signer import Signer, signer_address

if TYPE_CHECKING:
    from .._kinds import ResumeInputs
from ..types import ChainId, TokenAmount
from . import _operations as operations
from . import _trust
from ._operations import DEFAULT_SWAP_POLL_INTERVAL, DEFAULT_SWAP_TIMEOUT
from ._orders import Order, SignedOrder, TrustedRoutersArg, order_for_checked_quote, signing_order
from .models import (
    Chain,
    HistoryPage,
    Quote,
    QuoteRequest,
    SwapRecord,
    SwapRequest,
    SwapSubmission,
)

__all__ = [
    "DEFAULT_SWAP_POLL_INTERVAL",
    "DEFAULT_SWAP_TIMEOUT",
    "SwapPlan",
    "check_quote",
    "check_transaction_hash",
    "EXPECTED_SWAP_SECONDS",
    "MAX_REQUOTES",
    "completed",
    "follow",
    "plan_swap",
    "rebuild",
    "swap",
    "submission",
    "submitted_swap",
    "wait_for_swap",
]

_WAIT_PAGE_SIZE: Final = 50

EXPECTED_SWAP_SECONDS: Final = 60.0
"""About how long a submitted swap takes to complete (a Gateway transfer and the
destination swap), what the progress display says while waiting."""


@dataclass(frozen=True, slots=True)
class SwapPlan:
    """The checked arguments of a one-call swap.

    Attributes:
        signer: signs the order.
        user: the signer's address.
        quote: the quote request.
        slippage_bps: the slippage sent with ``POST /swap``.
        sources: the caller's choice of source chains, if any.
        max_fee_cap: the caller's fee cap; ``None`` for the default cap.
        min_amount_out: the least output accepted, if given.
        trusted_routers: the caller's pinned routers, if given, checked once here: the
            order is built and signed with this very mapping, which its proof holds.
        registry: the pinned chains, contracts and routers.
        max_total_fee: the caller's cap on the sum of the intents' ``maxFee``.
        unsafe_trust_service_parties: accept a router nobody pinned (DANGEROUS).
        unsafe_trust_router_output: sign hook data the SDK cannot read (DANGEROUS).
        wait: whether to follow the swap to its outcome.
        wait_timeout: seconds to wait with ``wait``.
        poll_interval: seconds between two reads of the history.
        requote: how many new quotes may replace one that expired before signing.
        accept_quote: the caller's hook over each new quote, after its checks.
    """

    signer: Signer
    user: str
    quote: QuoteRequest
    slippage_bps: int
    sources: Mapping[int, int] | None
    max_fee_cap: int | None
    wait: bool
    wait_timeout: float
    poll_interval: float
    min_amount_out: int | None = None
    trusted_routers: _trust.TrustedRouters | None = None
    registry: Registry = DEFAULT_REGISTRY
    max_total_fee: int | None = None
    unsafe_trust_service_parties: bool = False
    unsafe_trust_router_output: bool = False
    requote: int = 0
    accept_quote: Callable[[Quote], bool] | None = None
    asks: bool = False

    def terms(self) -> dict[str, Any]:
        """What a swap journey is started with, and rebuilt from (`rebuild`): the
        checked arguments and the pins they were checked against, no signer."""
        return {
            "user": self.user,
            "quote": self.quote.model_dump(mode="json", by_alias=False, exclude_none=True),
            "slippage_bps": self.slippage_bps,
            "sources": None
            if self.sources is None
            else {str(k): v for k, v in self.sources.items()},
            "max_fee_cap": self.max_fee_cap,
            "min_amount_out": self.min_amount_out,
            "max_total_fee": self.max_total_fee,
            "requote": self.requote,
            "accept_quote": self.asks,
            "wait": self.wait,
            "wait_timeout": self.wait_timeout,
            "poll_interval": self.poll_interval,
            "pins": {
                "trusted_routers": None
                if self.trusted_routers is None
                else {str(k): sorted(v) for k, v in self.trusted_routers.items()},
                "unsafe_trust_service_parties": self.unsafe_trust_service_parties,
                "unsafe_trust_router_output": self.unsafe_trust_router_output,
            },
        }


def plan_swap(
    signer: Signer,
    *,
    input_amount: int | str,
    output_token: str,
    chain_id: int,
    slippage: Decimal | float | int | str,
    recipient: str | None,
    sources: Mapping[int, int] | None,
    max_fee_cap: int | str | None,
    wait: bool,
    wait_timeout: float,
    poll_interval: float,
    min_amount_out: int | str | None = None,
    trusted_routers: TrustedRoutersArg = None,
    registry: Registry | None = None,
    max_slippage: Decimal | float | int | str | None = None,
    max_total_fee: int | str | None = None,
    unsafe_trust_service_parties: bool = False,
    unsafe_trust_router_output: bool = False,
    requote: int = 0,
    accept_quote: Callable[[Quote], bool] | None = None,
    asks: bool | None = None,
) -> SwapPlan:
    """Check every argument of `swap`, before any I/O.

    ``asks`` says whether a new quote is offered to ``accept_quote`` (by default when
    one is given): a resumed journey whose caller gave a hook asks, with no hook to
    answer (see `xswap_sdk._flow.Ask`).

    ``min_amount_out`` (output token units), ``trusted_routers``
    (``{chain_id: [router, ...]}``) and ``registry`` (default
    `xswap_sdk.registry.DEFAULT_REGISTRY`) are checked here and applied before signing.

    Raises:
        InvalidInputError: naming the first bad argument.
    """
    user = signer_address(signer)
    request = operations.quote_request(
        input_amount=input_amount,
        output_token=output_token,
        chain_id=chain_id,
        sender=user,
        slippage=slippage,
        recipient=recipient,
        max_slippage=max_slippage,
    )
    if sources is not None:
        if not isinstance(sources, Mapping) or not sources:
            raise InvalidInputError("sources", "must be a non-empty {chain_id: amount} mapping")
        sources = {
            check_argument("sources (chain id)", ChainId, key): check_argument(
                f"sources[{key}]", TokenAmount, value
            )
            for key, value in sources.items()
        }
    cap = None if max_fee_cap is None else check_argument("max_fee_cap", TokenAmount, max_fee_cap)
    total_cap = (
        None
        if max_total_fee is None
        else check_argument("max_total_fee", TokenAmount, max_total_fee)
    )
    for name, flag in (
        ("unsafe_trust_service_parties", unsafe_trust_service_parties),
        ("unsafe_trust_router_output", unsafe_trust_router_output),
    ):
        if not isinstance(flag, bool):
            raise InvalidInputError(name, "must be True or False")
    least_out = (
        None
        if min_amount_out is None
        else check_argument("min_amount_out", TokenAmount, min_amount_out)
    )
    routers = _trust.check_trusted_routers(trusted_routers)
    if registry is not None and not isinstance(registry, Registry):
        raise InvalidInputError("registry", "must be a xswap_sdk.registry.Registry")
    if not isinstance(wait, bool):
        raise InvalidInputError("wait", "must be True or False")
    check_wait_arguments(wait_timeout, poll_interval, timeout_name="wait_timeout")
    requote, accept_quote = check_requote(requote, accept_quote)
    if asks is None:
        asks = accept_quote is not None
    return SwapPlan(
        signer=signer,
        user=user,
        quote=request,
        slippage_bps=operations.slippage_bps(request.slippage),
        sources=sources,
        max_fee_cap=cap,
        wait=wait,
        wait_timeout=wait_timeout,
        poll_interval=poll_interval,
        min_amount_out=least_out,
        trusted_routers=routers,
        registry=DEFAULT_REGISTRY if registry is None else registry,
        max_total_fee=total_cap,
        unsafe_trust_service_parties=unsafe_trust_service_parties,
        unsafe_trust_router_output=unsafe_trust_router_output,
        requote=requote,
        accept_quote=accept_quote,
        asks=asks,
    )


def check_quote(
    quote: Quote,
    *,
    now: float,
    max_fee_cap: int | None = None,
    min_amount_out: int | None = None,
) -> None:
    """The checks on a quote made before signing (the chain list is checked by
    `build_order`).

    Args:
        quote: the backend's quote; its ``request`` is what was asked.
        now: the time in Unix seconds, by the client's clock.
        max_fee_cap: the caller's cap on the gateway fee; ``None`` for the default cap
            (2.01 USDC plus 1 bp of the amount).
        min_amount_out: the least output accepted, if any.

    Raises:
        UnsafePayloadError: not for the amount or the token asked, below
            ``min_amount_out``, or a fee above the default cap.
        QuoteRejectedError: expired, or a gateway fee above ``max_fee_cap``.
    """
    _trust.check_quote_terms(quote, request=quote.request, now=now, min_amount_out=min_amount_out)
    amount = quote.request.input_amount if quote.request else quote.token_in.amount
    _trust.check_fee(quote, amount=amount, max_fee_cap=max_fee_cap)


def submission(
    signed_order: SignedOrder | Sequence[Mapping[str, Any]],
    *,
    slippage_bps: int,
    user_address: str | None,
    chain_id: int | None,
    swap_router_address: str | None,
    swap_calldata: str | None,
) -> SwapRequest:
    """The ``POST /swap`` body from a `SignedOrder` (the other fields default to the
    order's) or from a raw ``signedOrder`` array (every field given)."""
    given: dict[str, object] = {
        "user_address": user_address,
        "chain_id": chain_id,
        "swap_router_address": swap_router_address,
        "swap_calldata": swap_calldata,
    }
    if isinstance(signed_order, SignedOrder):
        order = signed_order.order
        own: dict[str, object] = {
            "user_address": order.user,
            "chain_id": order.chain_id,
            "swap_router_address": order.swap_router_address,
            "swap_calldata": order.swap_calldata,
        }
        for name, value in given.items():
            if (
                value is not None
                and own[name] is not None
                and str(value).lower() != str(own[name]).lower()
            ):
                raise InvalidInputError(name, f"differs from the signed order's ({own[name]})")
            if value is None:
                given[name] = own[name]
        wire: Any = signed_order.to_wire()
    else:
        wire = _raw_order(signed_order)
    return validate_request(SwapRequest, signed_order=wire, slippage_bps=slippage_bps, **given)


def submitted_swap(operation: Operation[SwapSubmission]) -> Flow[SwapSubmission]:
    """``submit_swap`` as a ``swap`` journey that starts signed: its terms are the exact
    request (the caller signed it), then ``submitted``. On resume its bytes are sent
    again when they may not have arrived (the intents burn once); it never signs."""
    journey_id: str | None = yield Begin(
        "swap", {"submitted": operation.json, "slippage_bps": operation.json.get("slippageBps")}
    )
    result: SwapSubmission = yield Call(operation)
    result._journey_id = journey_id
    return result


def _raw_order(signed_order: object) -> list[dict[str, Any]]:
    refuse_unawaited("signed_order", signed_order)
    if isinstance(signed_order, str | bytes) or not isinstance(signed_order, Sequence):
        raise InvalidInputError(
            "signed_order", "must be a SignedOrder or the signedOrder list of dicts"
        )
    if not all(isinstance(element, Mapping) for element in signed_order):
        raise InvalidInputError("signed_order", "must hold {intent, signature} dicts")
    return [dict(element) for element in signed_order]


def _supported(chains: list[Chain], chain_id: int) -> None:
    if not any(chain.id == chain_id for chain in chains):
        known = ", ".join(str(chain.id) for chain in chains) or "none"
        raise InvalidInputError(
            "chain_id", f"{chain_id} is not a chain the backend supports (supported: {known})"
        )


_EXPIRED: Final = ("quote.expires_at",)
"""The refusal a new quote is asked for: only an expired quote (see `again`)."""


def swap(plan: SwapPlan, *, clock: Clock) -> Flow[SwapSubmission]:
    """The one-call swap: chains, quote, checks, balances, order, signature, submission,
    and (with ``plan.wait``) the wait for the outcome. A journey of kind ``swap``:
    ``quoted``, ``verified``, ``signed``, ``submitted``, ``waiting``, ``executed``."""
    journey_id: str | None = yield Begin("swap", plan.terms())
    chains: list[Chain] = yield Call(operations.get_supported_chains())
    _supported(chains, plan.quote.chain_id)
    # Refused before asking for a quote: nothing can be signed for an unpinned chain.
    plan.registry.chain(plan.quote.chain_id)
    requoted = 0
    while True:
        quote: Quote = yield Call(operations.get_quote(plan.quote))
        yield Record("quoted", data=_quoted(quote))
        try:
            order: Order = yield from _checked_order(plan, quote, chains)
        except QuoteRejectedError as exc:
            requoted = yield from again(exc, requoted, plan.requote, expired=_EXPIRED)
            continue
        if requoted and plan.asks:
            yield from offer(plan.accept_quote, quote)
        break
    yield Record("verified", data={"intents": len(order.intents)})
    signed = yield from signing_order(
        order,
        plan.signer,
        registry=plan.registry,
        trusted_routers=plan.trusted_routers,
        unsafe_trust_service_parties=plan.unsafe_trust_service_parties,
        unsafe_trust_router_output=plan.unsafe_trust_router_output,
    )
    yield Record("signed", data={"what": "order", "intents": len(order.intents)})
    # The signed order is held only by the operation, which seals it: this frame is in
    # the traceback if the submission fails, and a signature would be recorded with it.
    operation = operations.submit_swap(
        submission(
            signed,
            slippage_bps=plan.slippage_bps,
            user_address=None,
            chain_id=None,
            swap_router_address=None,
            swap_calldata=None,
        )
    )
    del signed
    submitted: SwapSubmission = yield Call(operation)
    result = yield from follow(submitted, plan.wait, plan.wait_timeout, plan.poll_interval, clock)
    result._journey_id = journey_id
    return result


def _quoted(quote: Quote) -> dict[str, Any]:
    """What the ``quoted`` step shows of a quote (the whole answer is in the journal)."""
    return {
        "token_out": quote.token_out.address,
        "amount_out": str(quote.token_out.amount),
        "gateway_fee": quote.fees.gateway_fee if quote.fees else None,
        "expires_at": quote.expires_at,
    }


def _checked_order(plan: SwapPlan, quote: Quote, chains: list[Chain]) -> Flow[Order]:
    """Check ``quote``, read the balances, build the order, and check the quote again:
    everything before signing, for the first quote and each new one alike. The time
    and the salts are steps (a journey replays them)."""
    now: float = yield Now()
    check_quote(quote, now=now, max_fee_cap=plan.max_fee_cap, min_amount_out=plan.min_amount_out)
    balances = yield Call(operations.get_balance(plan.user))
    seed: str = yield Random(32)
    now = yield Now()
    # The plan checked every argument, and check_quote the quote's terms and fee:
    # the order is built without checking them again (its expiry, now, is).
    order = order_for_checked_quote(
        quote,
        chains=chains,
        balances=balances,
        user=plan.user,
        sources=plan.sources,
        chain_id=plan.quote.chain_id,
        min_amount_out=plan.min_amount_out,
        max_fee_cap=plan.max_fee_cap,
        trusted_routers=plan.trusted_routers,
        registry=plan.registry,
        now=now,
        max_total_fee=plan.max_total_fee,
        unsafe_trust_service_parties=plan.unsafe_trust_service_parties,
        unsafe_trust_router_output=plan.unsafe_trust_router_output,
        salt_seed=seed,
    )
    return order


def follow(
    submitted: SwapSubmission, wait: bool, wait_timeout: float, poll_interval: float, clock: Clock
) -> Flow[SwapSubmission]:
    """After ``POST /swap``: with ``wait``, follow the swap to its outcome (``waiting``,
    then ``executed``); the rest of `swap`, and what resume does once submitted."""
    if not wait:
        return submitted
    if not submitted.transaction_hash:
        raise ResponseValidationError(
            "POST /swap accepted the swap without a transactionHash to follow it by; "
            "check get_history() for its outcome",
            body=submitted.model_dump(),
            method="POST",
            path="/swap",
            # The order was sent and answered 2xx: the backend may well have taken it.
            outcome_unknown=True,
        )
    yield Record(
        "waiting",
        data={
            "transaction_hash": submitted.transaction_hash,
            "expected_seconds": EXPECTED_SWAP_SECONDS,
            "check": f"xswap status swap {submitted.transaction_hash}",
        },
        identities=(submitted.transaction_hash,),
    )
    record: SwapRecord = yield Wait(
        wait_for_swap(
            submitted.transaction_hash,
            timeout=wait_timeout,
            interval=poll_interval,
            clock=clock,
        ),
        decode=SwapRecord.model_validate,
    )
    yield Record("executed", data={"status": record.status})
    return completed(submitted, record)


def completed(submitted: SwapSubmission, record: SwapRecord) -> SwapSubmission:
    """The submission as it stands once waited for: the final ``status`` of its history
    ``record`` (the answer of ``POST /swap`` said ``pending``), and the record kept."""
    final = submitted.model_copy(update={"status": record.status})
    final._record = record
    return final


def _find(page: HistoryPage, transaction_hash: str) -> SwapRecord | None:
    wanted = transaction_hash.lower()
    for record in page.swaps:
        if wanted in ((record.transaction_hash or "").lower(), (record.tx_id or "").lower()):
            return record
    return None


def check_transaction_hash(transaction_hash: object) -> str:
    """Validate the hash a swap is followed by."""
    refuse_unawaited("transaction_hash", transaction_hash)
    if not isinstance(transaction_hash, str) or not transaction_hash.strip():
        raise InvalidInputError(
            "transaction_hash", "must be the non-empty transactionHash from POST /swap"
        )
    return transaction_hash


def wait_for_swap(
    transaction_hash: str, *, timeout: float, interval: float, clock: Clock
) -> Flow[SwapRecord]:
    """Poll the history until the swap with ``transaction_hash`` completed or failed.

    Raises:
        SwapFailedError: the swap's status became ``failed``.
        WaitTimeoutError: time ran out; the swap may still complete.
    """
    wanted = check_transaction_hash(transaction_hash)
    check_wait_arguments(timeout, interval, timeout_name="wait_timeout")
    page = operations.get_history(page=1, page_size=_WAIT_PAGE_SIZE)

    def parse(data: Any) -> SwapRecord | None:
        return _find(page.parse(data), wanted)

    # The history page read down to this swap's record (None while it is not listed),
    # so a timeout's ``last_status`` is the record itself.
    operation = page.reading(parse)

    def done(record: SwapRecord | None) -> bool:
        if record is None:
            return False
        if record.status == "failed":
            raise SwapFailedError(f"swap {wanted} failed", record=record)
        return record.status == "completed"

    def timeout_message(last: SwapRecord | None) -> str:
        seen = f"last status {last.status}" if last else "not in the history yet"
        return (
            f"timed out after {timeout:g} s waiting for swap {wanted} ({seen}). It may "
            "still complete: check get_history() before swapping again."
        )

    return (
        yield from poll_found(
            operation,
            done,
            timeout=timeout,
            interval=interval,
            clock=clock,
            timeout_message=timeout_message,
        )
    )


def rebuild(client: Any, journey: Journey, inputs: ResumeInputs) -> tuple[Flow[Any], Any]:
    """A ``swap`` journey's flow, built again from its terms (see ``xswap_sdk._kinds``):
    the same checks, with the pins it started with and the client's registry. Going on
    needs the swap's signer (to log in, and for any signature not replayed).

    Raises:
        MissingCredentialsError: no signer, and the client has no session token.
        InvalidInputError: the signer is not the swap's.
    """
    terms = journey.terms
    if "submitted" in terms:
        request = SwapRequest.model_validate(terms["submitted"], by_alias=True)
        operation = operations.submit_swap(request)
        return submitted_swap(operation), client._transport_for(inputs.evm_signer)
    user = str(terms.get("user", ""))
    signer = inputs.evm_signer
    if signer is None:
        if not client._has_session():
            raise MissingCredentialsError(
                "signer",
                f"is needed to go on with swap journey {journey.id}: its signer {user} logs "
                "in (pass signer= or set XSWAP_PRIVATE_KEY)",
            )
        signer = UnavailableEvmSigner(user)
    quote = dict(terms.get("quote") or {})
    pins = dict(terms.get("pins") or {})
    plan = plan_swap(
        signer,
        input_amount=quote.get("input_amount", 0),
        output_token=quote.get("output_token", ""),
        chain_id=quote.get("chain_id", 0),
        slippage=quote.get("slippage", "0"),
        recipient=quote.get("recipient"),
        sources=terms.get("sources"),
        max_fee_cap=terms.get("max_fee_cap"),
        min_amount_out=terms.get("min_amount_out"),
        max_total_fee=terms.get("max_total_fee"),
        wait=bool(terms.get("wait", True)),
        wait_timeout=float(terms.get("wait_timeout", DEFAULT_SWAP_TIMEOUT)),
        poll_interval=float(terms.get("poll_interval", DEFAULT_SWAP_POLL_INTERVAL)),
        trusted_routers=pins.get("trusted_routers"),
        registry=client._registry,
        max_slippage=client._max_slippage,
        unsafe_trust_service_parties=bool(pins.get("unsafe_trust_service_parties")),
        unsafe_trust_router_output=bool(pins.get("unsafe_trust_router_output")),
        requote=terms.get("requote", 0),
        accept_quote=None,
        asks=bool(terms.get("accept_quote")),
    )
    transport = client._transport_for(None if isinstance(signer, UnavailableEvmSigner) else signer)
    return swap(plan, clock=client.clock), transport
