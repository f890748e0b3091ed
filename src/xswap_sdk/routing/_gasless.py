"""The gasless swap in one flow: quote, verify and sign the Permit2 payload, submit,
optionally wait; and the verification the manual path shares with it.

Written once as a flow (see ``xswap_sdk._flow``) and run by both clients. Before the
payload is signed, it is compared field by field with the Permit2 message the caller's
arguments call for (see ``xswap_sdk.routing._permit2``): the token, the amount, the
spender (the routing contract of the source chain: pinned by the caller with
``routing_contracts``, or in `xswap_sdk.registry.ROUTING_CONTRACTS`; ``serviceContract``
from ``GET /supported-chains`` only with ``unsafe_trust_service_parties=True``), the
deadline, the quote's summary and, with a witness (the default), the receiver,
destination and minimum output. A mismatch raises `UnsafePayloadError` and nothing is
signed or submitted. ``sign_unverified_payload=True`` skips this, dangerously.

The manual path (`RoutingClient.get_gasless_quote`, sign ``quote.eip712`` yourself,
`RoutingClient.submit_gasless_swap`) goes through the same checks: the quotes are
verified before they are returned and remembered (``_verification.VerifiedQuotes``), and a signature
is submitted only for a verified quote and only when it recovers, over the payload as
it was verified, to the quote's sender.

The payload is then signed as the service sent it (`xswap_sdk.signing.sign_typed_data`
reads a string ``chainId`` and a domain without ``version`` as they are meant), and what
is submitted is that quote's id with that signature. The signature is not kept in the
result, and never appears in a log record or an error message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from .._cache import ChainListCache
from .._chain_steps import UnavailableEvmSigner
from .._clock import Clock
from .._flow import Begin, Call, Flow, Now, Record, Wait
from .._logging import logger
from .._models import check_argument
from .._operation import Operation
from .._requote import again, check_requote, offer
from ..errors import (
    APIError,
    InvalidInputError,
    QuoteRejectedError,
    SigningError,
    SwapFailedError,
)
from ..journal import Journey
from ..registry import routing_contract_of
from ..signing import Signer, sign_typed_data
from ..signing.eip712 import _signing_typed_data
from ..signing.signer import signer_address
from ..types import Address
from . import _operations as operations
from ._operations import RoutingPaths, check_routing_contracts
from ._permit2 import PERMIT_EXPIRED
from ._verification import (
    VerifiedQuotes,
    check_gasless_terms,
    check_min_amount_out,
    check_quote,
    service_contract,
    unpinned_contract,
)

if TYPE_CHECKING:
    from .._kinds import ResumeInputs

from .models import (
    GaslessQuote,
    GaslessQuoteRequest,
    GaslessStatus,
    GaslessSubmission,
    SupportedChain,
)

__all__ = [
    "EXPECTED_GASLESS_SECONDS",
    "GaslessSwapResult",
    "check_routing_contracts",
    "follow_gasless",
    "gasless_swap",
    "rebuild",
    "routing_contract",
    "verified_quotes",
]


EXPECTED_GASLESS_SECONDS: Final = 30.0
"""About how long a submitted gasless swap takes to execute (the relayer's usual
latency and a bridge hop), what the progress display says while waiting."""


@dataclass(frozen=True, slots=True)
class GaslessSwapResult:
    """What `RoutingClient.gasless_swap` did.

    Attributes:
        quote: the quote that was signed (the first of the service's last answer).
        submission: the service's answer to the submission.
        record: the last status record when the call waited, else ``None``.
        journey_id: the journey's id in the client's journal (see
            `xswap_sdk.journal`), or ``None`` without one.
    """

    quote: GaslessQuote
    submission: GaslessSubmission
    record: GaslessStatus | None = None
    journey_id: str | None = None

    @property
    def status(self) -> str:
        """The swap's status, as text: the last record's when the call waited (e.g.
        ``"success"``), else the submission's."""
        return self.record.status if self.record is not None else self.submission.status

    @property
    def swap_id(self) -> str:
        """The id to follow the swap with `RoutingClient.get_gasless_status`."""
        return self.submission.swap_id

    @property
    def execution_tx_hash(self) -> str | None:
        """The execution hash, from the final status or the submission, once known."""
        if self.record is not None and self.record.execution_tx_hash:
            return self.record.execution_tx_hash
        return self.submission.execution_tx_hash


def sign_quote(signer: Signer, quote: GaslessQuote) -> str:
    """Sign a gasless quote's ``eip712`` payload exactly as given.

    Raises:
        SigningError: the payload is not valid EIP-712 typed data (the service sent
            something unsignable), or the signer failed.
    """
    try:
        return sign_typed_data(signer, quote.eip712)
    except InvalidInputError as exc:
        # The payload came from the service, not from the caller: not an input error.
        raise SigningError(f"gasless quote {quote.quote_id} cannot be signed: {exc}") from exc


@dataclass(frozen=True, slots=True)
class _Verification:
    """How the payload is checked before it is signed."""

    request: GaslessQuoteRequest
    spender: str | None
    trust_service: bool
    chains: ChainListCache[SupportedChain] | None
    chains_key: str
    min_amount_out: int | None
    sign_unverified_payload: bool
    requote: int = 0
    accept_quote: Callable[[GaslessQuote], bool] | None = None
    asks: bool = False
    max_slippage: str | None = None


def gasless_swap(
    paths: RoutingPaths,
    signer: Signer,
    *,
    wait: bool,
    wait_timeout: float,
    poll_interval: float,
    is_done: Callable[[GaslessStatus], bool] | None,
    clock: Clock,
    spender: str | None = None,
    trust_service: bool = False,
    chains: ChainListCache[SupportedChain] | None = None,
    chains_key: str = "",
    min_amount_out: int | str | None = None,
    sign_unverified_payload: bool = False,
    max_slippage: object = None,
    requote: int = 0,
    accept_quote: Callable[[GaslessQuote], bool] | None = None,
    asks: bool | None = None,
    **quote_fields: Any,
) -> Flow[GaslessSwapResult]:
    """Validate everything, then return the flow: ``GET /gasless/quote`` for the
    signer's address, verify and sign its Permit2 payload, ``POST /gasless/submit-swap``
    and, with ``wait``, poll ``GET /gasless/status``.

    Args:
        paths: the service's paths.
        signer: signs the payload; its address is the quote's ``sender``.
        wait: poll the status after submitting.
        wait_timeout: seconds to poll with ``wait``.
        poll_interval: seconds between two polls.
        is_done: the caller's own test of a status record.
        clock: the client's clock (the permit's deadline is checked by it).
        spender: the routing contract of ``from_chain`` as the caller pins it; when not
            given, the registry's (`xswap_sdk.registry.ROUTING_CONTRACTS`). Without
            either, the swap is refused before any request, unless ``trust_service``.
        trust_service: DANGEROUS. With no pin, take ``serviceContract`` from
            ``GET /supported-chains`` (kept in ``chains`` when given): the service then
            chooses who may pull the tokens.
        chains: the client's chain-list cache, read before ``/supported-chains`` is
            asked and filled after.
        chains_key: the cache key (the client's base URL).
        min_amount_out: the least output accepted, in the output token's smallest units;
            a witness must name at least this.
        sign_unverified_payload: DANGEROUS. Sign the service's payload as it is, without
            comparing it with what was asked: a compromised or spoofed service can then
            take any of the signer's tokens that Permit2 may move. Only for a service you
            control, whose payload the SDK cannot read yet.
        max_slippage: the largest ``slippage`` accepted, in percent (default 5).
        requote: how many new quotes may replace one whose permit deadline passed
            before it was signed (0 to `xswap_sdk._requote.MAX_REQUOTES`).
        accept_quote: the caller's hook over each new quote, after its checks.
        asks: whether a new quote is offered to ``accept_quote`` (by default when one
            is given; a resumed journey whose caller gave one asks with no hook).
        **quote_fields: the arguments of ``GET /gasless/quote`` but ``sender``.

    Raises:
        InvalidInputError: a bad argument (before any request).
        UnsafePayloadError: no routing contract is pinned for ``from_chain`` (before any
            request).
    """
    request = operations.gasless_quote_request(
        sender=signer_address(signer), max_slippage=max_slippage, **quote_fields
    )
    if not isinstance(wait, bool):
        raise InvalidInputError("wait", "must be True or False")
    if not isinstance(sign_unverified_payload, bool):
        raise InvalidInputError("sign_unverified_payload", "must be True or False")
    if not isinstance(trust_service, bool):
        raise InvalidInputError("unsafe_trust_service_parties", "must be True or False")
    pinned = (
        routing_contract_of(request.from_chain)
        if spender is None
        else check_argument("spender", Address, spender)
    )
    if chains is not None and not isinstance(chains, ChainListCache):
        raise InvalidInputError("chains", "must be the client's ChainListCache or None")
    least_out = check_min_amount_out(min_amount_out)
    check_gasless_terms(request, least_out)
    if pinned is None and not trust_service and not sign_unverified_payload:
        raise unpinned_contract(request.from_chain)
    predicate = operations.check_wait(wait_timeout, poll_interval, is_done)
    requote, accept_quote = check_requote(requote, accept_quote)
    quote_operation = operations.get_gasless_quote(paths, request)
    verification = _Verification(
        request,
        pinned,
        trust_service,
        chains,
        chains_key,
        least_out,
        sign_unverified_payload,
        requote,
        accept_quote,
        accept_quote is not None if asks is None else asks,
        None if max_slippage is None else str(max_slippage),
    )
    return _run(
        paths,
        quote_operation,
        signer,
        verification,
        wait=wait,
        wait_timeout=wait_timeout,
        poll_interval=poll_interval,
        is_done=predicate,
        clock=clock,
    )


def routing_contract(
    paths: RoutingPaths,
    chain_id: int,
    *,
    pinned: str | None,
    trust_service: bool = False,
    chains: ChainListCache[SupportedChain] | None,
    chains_key: str,
    clock: Clock,
) -> Flow[str]:
    """The routing contract of ``chain_id``: ``pinned`` when the caller or the registry
    pins one; else, only with ``trust_service``, ``serviceContract`` from
    ``GET /supported-chains`` (through the client's cache).

    Raises:
        UnsafePayloadError: nothing pins the chain and the service is not trusted
            (before any request), or the list names no valid contract for it.
    """
    if pinned is not None:
        return pinned
    if not trust_service:
        raise unpinned_contract(chain_id)
    operation = operations.get_supported_chains(paths)
    if chains is None:
        listed: list[SupportedChain] = yield Call(operation)
    else:
        listed = yield from chains.read(chains_key, operation, clock=clock)
    logger.warning(
        "taking the routing contract of chain %s from the service's /supported-chains "
        "(unsafe_trust_service_parties=True)",
        chain_id,
    )
    return service_contract(listed, chain_id)


def verified_quotes(
    paths: RoutingPaths,
    request: GaslessQuoteRequest,
    *,
    pinned: str | None,
    trust_service: bool,
    chains: ChainListCache[SupportedChain] | None,
    chains_key: str,
    clock: Clock,
    min_amount_out: int | None,
    verified: VerifiedQuotes,
    sign_unverified_payload: bool,
) -> Flow[list[GaslessQuote]]:
    """``GET /gasless/quote``, every quote verified (`verify_gasless_quote`'s checks) and
    remembered in ``verified`` before it is returned: the manual path's first step.

    Raises:
        UnsafePayloadError: a quote differs from the request; none is returned.
    """
    spender: str | None = None
    if not sign_unverified_payload:
        spender = yield from routing_contract(
            paths,
            request.from_chain,
            pinned=pinned,
            trust_service=trust_service,
            chains=chains,
            chains_key=chains_key,
            clock=clock,
        )
    quotes: list[GaslessQuote] = yield Call(operations.get_gasless_quote(paths, request))
    if spender is None:
        logger.warning(
            "returning %d gasless quote(s) without checking their Permit2 payloads "
            "(sign_unverified_payload=True)",
            len(quotes),
        )
        return quotes
    for quote in quotes:
        check_quote(quote, request, spender, clock.time(), min_amount_out)
    for quote in quotes:
        verified.add(quote, request.sender)
    return quotes


def _run(
    paths: RoutingPaths,
    quote_operation: Operation[list[GaslessQuote]],
    signer: Signer,
    verification: _Verification,
    *,
    wait: bool,
    wait_timeout: float,
    poll_interval: float,
    is_done: Callable[[GaslessStatus], bool] | None,
    clock: Clock,
) -> Flow[GaslessSwapResult]:
    journey_id: str | None = yield Begin(
        "gasless_swap",
        {
            "request": verification.request.model_dump(
                mode="json", by_alias=False, exclude_none=True
            ),
            "min_amount_out": verification.min_amount_out,
            "wait": wait,
            "wait_timeout": wait_timeout,
            "poll_interval": poll_interval,
            "requote": verification.requote,
            "accept_quote": verification.asks,
            "max_slippage": verification.max_slippage,
            "pins": {
                "spender": verification.spender,
                "unsafe_trust_service_parties": verification.trust_service,
                "sign_unverified_payload": verification.sign_unverified_payload,
            },
        },
    )
    spender: str | None = None
    if not verification.sign_unverified_payload:
        # Read before the quote, so that the quote is as fresh as can be when signed.
        # One step whatever it reads (the client's cache may answer): a replay is fed
        # the contract it found.
        spender = yield Wait(
            routing_contract(
                paths,
                verification.request.from_chain,
                pinned=verification.spender,
                trust_service=verification.trust_service,
                chains=verification.chains,
                chains_key=verification.chains_key,
                clock=clock,
            )
        )
    requoted = 0
    while True:
        quotes: list[GaslessQuote] = yield Call(quote_operation)
        if not quotes:
            raise APIError(
                "the service returned no gasless quote for this swap",
                method=quote_operation.method,
                path=quote_operation.log_path,
            )
        quote = quotes[0]
        yield Record("quoted", data={"quote_id": quote.quote_id})
        if spender is None:
            logger.warning(
                "signing gasless quote %s without checking its Permit2 payload "
                "(sign_unverified_payload=True)",
                quote.quote_id,
            )
            break
        now: float = yield Now()
        try:
            check_quote(quote, verification.request, spender, now, verification.min_amount_out)
        except QuoteRejectedError as exc:
            # Only a quote whose permit expired is asked again.
            requoted = yield from again(
                exc, requoted, verification.requote, expired=(PERMIT_EXPIRED,)
            )
            continue
        if requoted and verification.asks:
            yield from offer(verification.accept_quote, quote)
        yield Record("verified", data={"spender": spender})
        break
    try:
        signature = yield from _signing_typed_data(signer, quote.eip712)
    except InvalidInputError as exc:
        # The payload came from the service, not from the caller: not an input error.
        raise SigningError(f"gasless quote {quote.quote_id} cannot be signed: {exc}") from exc
    yield Record("signed", data={"what": "permit2", "quote_id": quote.quote_id})
    # Held only by the sealed operation: this frame is in the traceback if the
    # submission fails.
    operation = operations.submit_gasless_swap(paths, quote.quote_id, signature)
    del signature
    submission: GaslessSubmission = yield Call(operation)
    status = yield from follow_gasless(
        paths,
        submission,
        wait=wait,
        wait_timeout=wait_timeout,
        poll_interval=poll_interval,
        is_done=is_done,
        clock=clock,
    )
    return GaslessSwapResult(
        quote=quote, submission=submission, record=status, journey_id=journey_id
    )


def follow_gasless(
    paths: RoutingPaths,
    submission: GaslessSubmission,
    *,
    wait: bool,
    wait_timeout: float,
    poll_interval: float,
    is_done: Callable[[GaslessStatus], bool] | None,
    clock: Clock,
) -> Flow[GaslessStatus | None]:
    """After the submission: refuse a failed one and, with ``wait``, poll the status
    (``waiting``, ``executed``); the rest of `gasless_swap`, and what resume does."""
    if submission.is_failed:
        raise SwapFailedError(
            f"gasless swap {submission.swap_id} failed on submission "
            f"(status {submission.status!r})",
            record=submission,
        )
    if not wait:
        return None
    yield Record(
        "waiting",
        data={
            "swap_id": submission.swap_id,
            "expected_seconds": EXPECTED_GASLESS_SECONDS,
            "check": f"xswap status gasless {submission.swap_id}",
        },
    )
    status: GaslessStatus = yield Wait(
        operations.wait_for_gasless_status(
            paths,
            submission.swap_id,
            wait_timeout=wait_timeout,
            poll_interval=poll_interval,
            is_done=is_done,
            clock=clock,
        ),
        decode=GaslessStatus.model_validate,
    )
    yield Record("executed", data={"status": status.status})
    return status


def rebuild(client: Any, journey: Journey, inputs: ResumeInputs) -> tuple[Flow[Any], Any]:
    """A ``gasless_swap`` journey's flow, built again from its terms (see
    ``xswap_sdk._kinds``), with the pins it started with; every term checked again."""
    terms = journey.terms
    asked = dict(terms.get("request") or {})
    sender = str(asked.pop("sender", ""))
    signer = inputs.evm_signer
    if signer is None:
        signer = UnavailableEvmSigner(sender)
    pins = dict(terms.get("pins") or {})
    flow = gasless_swap(
        client.paths,
        signer,
        wait=bool(terms.get("wait")),
        wait_timeout=float(terms.get("wait_timeout", 300.0)),
        poll_interval=float(terms.get("poll_interval", 2.0)),
        is_done=None,
        clock=client.clock,
        spender=pins.get("spender"),
        trust_service=bool(pins.get("unsafe_trust_service_parties")),
        chains=client._chains,
        chains_key=client.base_url,
        min_amount_out=terms.get("min_amount_out"),
        sign_unverified_payload=bool(pins.get("sign_unverified_payload")),
        max_slippage=terms.get("max_slippage"),
        requote=terms.get("requote", 0),
        accept_quote=None,
        asks=bool(terms.get("accept_quote")),
        **asked,
    )
    return flow, client._transport
