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
from datetime import datetime
from decimal import Decimal
from typing import Any, Final

from .._clock import Clock
from .._flow import Begin, Call, Flow, Record
from .._journey import request_data
from .._models import check_argument, refuse_unawaited, validate_request
from .._operation import Operation, parser
from .._polling import check_wait_arguments, poll
from .._requote import MAX_REQUOTES, again, check_requote, offer
from .._resume import Position, ResumeSpec, resend
from ..errors import (
    InvalidInputError,
    QuoteRejectedError,
    ResponseValidationError,
    SwapFailedError,
)
from ..journal import Journey
from ..registry import DEFAULT_REGISTRY, Registry
from ..signing.signer import Signer, signer_address
from ..types import ChainId, TokenAmount
from . import _operations as operations
from . import _trust
from ._orders import Order, SignedOrder, TrustedRoutersArg, build_order, sign_order
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
    "resume_spec",
    "swap",
    "submission",
    "submitted_swap",
    "wait_for_swap",
]

DEFAULT_SWAP_TIMEOUT: Final = 300.0
"""Seconds `swap` with ``wait=True`` (and `FlashClient.wait_for_swap`) waits for a swap
to complete or fail: a Gateway transfer and the destination swap usually take well
under a minute, and five minutes leaves room for a slow chain."""

DEFAULT_SWAP_POLL_INTERVAL: Final = 5.0
"""Seconds between two reads of the history while waiting."""

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
        trusted_routers: the caller's pinned routers, if given.
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
) -> SwapPlan:
    """Check every argument of `swap`, before any I/O.

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


def submitted_swap(
    operation: Operation[SwapSubmission], signed_order: SignedOrder | Sequence[Mapping[str, Any]]
) -> Flow[SwapSubmission]:
    """``submit_swap`` as a ``swap`` journey that starts signed: ``signed`` (the exact
    request), ``submitted``. Its start data says what resume looks for in the history
    when the order may have arrived (this amount to this token, from a `SignedOrder`;
    a raw order says nothing, and such a journey needs attention instead). It never
    restarts: its caller signed it."""
    journey_id: str | None = yield Begin("swap", _submitted_data(signed_order))
    yield Record("signed", data=request_data(operation))
    result: SwapSubmission = yield Call(operation)
    result._journey_id = journey_id
    return result


def _submitted_data(signed_order: object) -> dict[str, Any]:
    data: dict[str, Any] = {"submitted": True, "wait": False}
    if isinstance(signed_order, SignedOrder):
        order = signed_order.order
        data["quote"] = {
            "inputAmount": str(order.amount),
            "chainId": order.chain_id,
            "outputToken": order.terms.token_out if order.terms is not None else "",
        }
    return data


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


def swap(plan: SwapPlan, *, clock: Clock, journey: str | None = None) -> Flow[SwapSubmission]:
    """The one-call swap: chains, quote, checks, balances, order, signature, submission,
    and (with ``plan.wait``) the wait for the outcome. A journey of kind ``swap``:
    ``quoted``, ``verified``, ``signed``, ``submitted``, ``executed``, ``completed``;
    ``journey`` continues that one (a resume of a swap stopped before it signed)."""
    journey_id: str | None = yield Begin("swap", _plan_data(plan), resume=journey)
    chains: list[Chain] = yield Call(operations.get_supported_chains())
    _supported(chains, plan.quote.chain_id)
    # Refused before asking for a quote: nothing can be signed for an unpinned chain.
    plan.registry.chain(plan.quote.chain_id)
    requoted = 0
    while True:
        quote: Quote = yield Call(operations.get_quote(plan.quote))
        yield Record("quoted", data={"quote": quote})
        try:
            order: Order = yield from _checked_order(plan, quote, chains, clock)
        except QuoteRejectedError as exc:
            requoted = yield from again(exc, requoted, plan.requote, expired=_EXPIRED)
            continue
        if requoted:
            offer(plan.accept_quote, quote)
        break
    yield Record("verified", data={"intents": len(order.intents)})
    # The signed order is held only by the operation, which seals it: this frame is in
    # the traceback if the submission fails, and a signature would be recorded with it.
    operation = operations.submit_swap(
        submission(
            sign_order(
                order,
                plan.signer,
                registry=plan.registry,
                trusted_routers=plan.trusted_routers,
                unsafe_trust_service_parties=plan.unsafe_trust_service_parties,
                unsafe_trust_router_output=plan.unsafe_trust_router_output,
            ),
            slippage_bps=plan.slippage_bps,
            user_address=None,
            chain_id=None,
            swap_router_address=None,
            swap_calldata=None,
        )
    )
    yield Record("signed", data=request_data(operation))
    submitted: SwapSubmission = yield Call(operation)
    result = yield from follow(submitted, plan.wait, plan.wait_timeout, plan.poll_interval, clock)
    result._journey_id = journey_id
    return result


def _checked_order(plan: SwapPlan, quote: Quote, chains: list[Chain], clock: Clock) -> Flow[Order]:
    """Check ``quote``, read the balances, build the order, and check the quote again:
    everything before signing, for the first quote and each new one alike."""
    check_quote(
        quote,
        now=clock.time(),
        max_fee_cap=plan.max_fee_cap,
        min_amount_out=plan.min_amount_out,
    )
    balances = yield Call(operations.get_balance(plan.user))
    order = build_order(
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
        now=clock.time(),
        max_total_fee=plan.max_total_fee,
        unsafe_trust_service_parties=plan.unsafe_trust_service_parties,
        unsafe_trust_router_output=plan.unsafe_trust_router_output,
    )
    # Reading the balances took time: the quote must still be good when it is signed.
    check_quote(
        quote,
        now=clock.time(),
        max_fee_cap=plan.max_fee_cap,
        min_amount_out=plan.min_amount_out,
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
    )
    record = yield from wait_for_swap(
        submitted.transaction_hash,
        timeout=wait_timeout,
        interval=poll_interval,
        clock=clock,
    )
    yield Record("executed", data={"status": record.status})
    return completed(submitted, record)


def _plan_data(plan: SwapPlan) -> dict[str, Any]:
    """What a swap journey is started with: the checked arguments, no signer."""
    return {
        "user": plan.user,
        "quote": plan.quote.model_dump(mode="json", by_alias=True),
        "slippage_bps": plan.slippage_bps,
        "sources": None if plan.sources is None else {str(k): v for k, v in plan.sources.items()},
        "max_fee_cap": plan.max_fee_cap,
        "min_amount_out": plan.min_amount_out,
        "max_total_fee": plan.max_total_fee,
        "requote": plan.requote,
        "accept_quote": plan.accept_quote is not None,
        "wait": plan.wait,
        "wait_timeout": plan.wait_timeout,
        "poll_interval": plan.poll_interval,
    }


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

    record = yield from poll(
        lambda: operation,
        done,
        timeout=timeout,
        interval=interval,
        clock=clock,
        timeout_message=timeout_message,
    )
    assert record is not None
    return record


def resume_spec(
    journey: Journey,
    *,
    clock: Clock,
    restart: Callable[[], Flow[SwapSubmission]] | None,
) -> ResumeSpec[SwapSubmission]:
    """How a ``swap`` journey is resumed (see ``xswap_sdk._resume``): resend the
    journaled order, look for it in the history when it may have arrived, follow it
    there once submitted."""
    args = journey.arguments
    wait = bool(args.get("wait", True))
    wait_timeout = float(args.get("wait_timeout", DEFAULT_SWAP_TIMEOUT))
    poll_interval = float(args.get("poll_interval", DEFAULT_SWAP_POLL_INTERVAL))

    def follow_answer(answer: Any) -> Flow[SwapSubmission]:
        submitted = SwapSubmission.model_validate(answer)
        result = yield from follow(submitted, wait, wait_timeout, poll_interval, clock)
        result._journey_id = journey.id
        return result

    def check(where: Position) -> Flow[Any]:
        # The order may have arrived: a swap of this amount to this token, listed after
        # the journal wrote "sending", is it. Anything else (none, or several) is a
        # question for a person.
        quote = args.get("quote") or {}
        sent_at = where.sending.data.get("clock_time") if where.sending is not None else None
        since = (sent_at if isinstance(sent_at, int | float) else journey.created_at) - 5
        page: HistoryPage = yield Call(operations.get_history(page=1, page_size=_WAIT_PAGE_SIZE))
        found = [
            record
            for record in page.swaps
            if record.amount_usdc_raw == int(quote.get("inputAmount", -1))
            and record.chain_id == quote.get("chainId")
            and record.destination_token.lower() == str(quote.get("outputToken", "")).lower()
            and isinstance(record.created_at, datetime)
            and record.created_at.timestamp() >= since
        ]
        if len(found) != 1:
            return None
        yield Record("found", data={"transaction_hash": found[0].transaction_hash})
        return {
            "transactionHash": found[0].transaction_hash,
            "status": found[0].status,
            "message": "found in the history by resume",
        }

    return ResumeSpec(
        resend=lambda request: resend(request, parser(SwapSubmission), auth="required"),
        follow=follow_answer,
        check=check,
        restart=restart,
    )
