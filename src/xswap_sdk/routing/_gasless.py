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
verified before they are returned and remembered (`VerifiedQuotes`), and a signature
is submitted only for a verified quote and only when it recovers, over the payload as
it was verified, to the quote's sender.

The payload is then signed as the service sent it (`xswap_sdk.signing.sign_typed_data`
reads a string ``chainId`` and a domain without ``version`` as they are meant), and what
is submitted is that quote's id with that signature. The signature is not kept in the
result, and never appears in a log record or an error message.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from .._body import copy_json
from .._cache import ChainListCache
from .._clock import Clock
from .._flow import Call, Flow
from .._logging import logger
from .._models import check_argument
from .._operation import Operation
from ..errors import (
    APIError,
    InvalidInputError,
    SigningError,
    SwapFailedError,
    UnsafePayloadError,
)
from ..registry import routing_contract_of
from ..signing import Signer, recover_typed_data, sign_typed_data
from ..signing.signer import signer_address
from ..types import Address, ChainId, TokenAmount
from . import _operations as operations
from ._operations import RoutingPaths
from ._permit2 import check_permit2_payload
from .models import (
    AcquisitionMode,
    GaslessQuote,
    GaslessQuoteRequest,
    GaslessStatus,
    GaslessSubmission,
    SupportedChain,
)

__all__ = [
    "GaslessSwapResult",
    "VerifiedQuotes",
    "check_gasless_terms",
    "check_min_amount_out",
    "check_submission",
    "gasless_swap",
    "routing_contract",
    "service_contract",
    "unpinned_contract",
    "verified_quotes",
    "verify_gasless_quote",
]

_PIN_HINT: Final = (
    "Pin it: RoutingClient(routing_contracts={{{chain}: '0x...'}}) with the contract you "
    "vetted (xswap_sdk.registry.ROUTING_CONTRACTS lists the published ones), or, "
    "trusting the service with your funds, unsafe_trust_service_parties=True."
)


@dataclass(frozen=True, slots=True)
class GaslessSwapResult:
    """What `RoutingClient.gasless_swap` did.

    Attributes:
        quote: the quote that was signed (the first one the service returned).
        submission: the service's answer to the submission.
        status: the last status record when the call waited, else ``None``.
    """

    quote: GaslessQuote
    submission: GaslessSubmission
    status: GaslessStatus | None = None

    @property
    def swap_id(self) -> str:
        """The id to follow the swap with `RoutingClient.get_gasless_status`."""
        return self.submission.swap_id

    @property
    def execution_tx_hash(self) -> str | None:
        """The execution hash, from the final status or the submission, once known."""
        if self.status is not None and self.status.execution_tx_hash:
            return self.status.execution_tx_hash
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


def service_contract(chains: list[SupportedChain], chain_id: int) -> str:
    """The routing contract of ``chain_id`` (``serviceContract``), the spender a gasless
    Permit2 payload must name.

    Raises:
        UnsafePayloadError: the chain is not listed, or has no valid ``serviceContract``;
            then nothing could check the payload's spender.
    """
    chain = next((chain for chain in chains if chain.id == chain_id), None)
    contract = chain.service_contract if chain is not None else None
    try:
        checked: str = check_argument("serviceContract", Address, contract)
    except InvalidInputError:
        raise UnsafePayloadError(
            f"supported-chains[{chain_id}].serviceContract",
            expected=f"the routing contract of chain {chain_id}",
            received=contract,
            hint=_PIN_HINT.format(chain=chain_id),
        ) from None
    return checked


def unpinned_contract(chain_id: int) -> UnsafePayloadError:
    """The refusal of a chain whose routing contract nothing pins: neither the caller's
    ``routing_contracts`` nor `xswap_sdk.registry.ROUTING_CONTRACTS` names it, and the
    service's own ``serviceContract`` is not trusted by default."""
    return UnsafePayloadError(
        f"routing_contracts[{chain_id}]",
        expected=(
            f"the routing contract of chain {chain_id} (the Permit2 spender, the route's "
            "target and its allowance target), pinned by you or by the SDK's registry"
        ),
        received="no pin: only the service's own serviceContract names one",
        hint=_PIN_HINT.format(chain=chain_id),
    )


def check_min_amount_out(min_amount_out: object) -> int | None:
    """Validate ``min_amount_out`` (smallest units of the output token), or ``None``."""
    if min_amount_out is None:
        return None
    checked: int = check_argument("min_amount_out", TokenAmount, min_amount_out)
    return checked


def check_gasless_terms(request: GaslessQuoteRequest, min_amount_out: int | None) -> None:
    """Refuse a bare Permit2 signature (``acquisition_mode=2``) for a swap with terms
    of the caller's: a receiver, a minimum output or a slippage. Without a witness the
    signature names none of them, so the service's relayed transaction would decide.

    Raises:
        InvalidInputError: mode 2 with ``receiver``, ``min_amount_out`` or ``slippage``.
    """
    if request.acquisition_mode != AcquisitionMode.PERMIT2:
        return
    given = [
        name
        for name, value in (
            ("receiver", request.receiver),
            ("min_amount_out", min_amount_out),
            ("slippage", request.slippage),
        )
        if value is not None
    ]
    if given:
        raise InvalidInputError(
            "acquisition_mode",
            f"must be 3 (Permit2 witness, the default) with {', '.join(given)}: a bare "
            "Permit2 signature (2) binds none of them, so the service would decide them",
        )


_VERIFIED_KEPT: Final = 256


def _mark_verified(quote: GaslessQuote, sender: str) -> tuple[str, dict[str, Any]]:
    # A copy of the payload as it was checked: the quote's own dict can still be changed.
    record = (sender, copy_json(dict(quote.eip712)))
    quote._verified = record
    return record


class VerifiedQuotes:
    """The gasless quotes a client verified, by id, with the payload as it was verified
    and the sender who must sign it (the newest 256 are kept)."""

    def __init__(self) -> None:
        self._quotes: OrderedDict[str, tuple[str, dict[str, Any]]] = OrderedDict()

    def add(self, quote: GaslessQuote, sender: str) -> None:
        """Remember ``quote`` as verified for ``sender``, and mark the quote itself."""
        self._quotes[quote.quote_id] = _mark_verified(quote, sender)
        self._quotes.move_to_end(quote.quote_id)
        while len(self._quotes) > _VERIFIED_KEPT:
            self._quotes.popitem(last=False)

    def get(self, quote: GaslessQuote | str) -> tuple[str, dict[str, Any]] | None:
        """The verified payload and sender of ``quote`` (a quote or its id), if any."""
        if isinstance(quote, GaslessQuote):
            return quote._verified or self._quotes.get(quote.quote_id)
        return self._quotes.get(quote) if isinstance(quote, str) else None


def check_submission(
    quote: object, signature: object, verified: VerifiedQuotes, *, sign_unverified_payload: bool
) -> str:
    """Check, before anything is sent, that ``signature`` is over a verified payload:
    the one `get_gasless_quote` (or `verify_gasless_quote`) checked for this quote, by
    its sender. Returns the quote id to submit.

    Raises:
        InvalidInputError: a bad argument.
        UnsafePayloadError: the quote was never verified (without
            ``sign_unverified_payload=True``), or the signature is not the sender's over
            the verified payload.
    """
    if not isinstance(sign_unverified_payload, bool):
        raise InvalidInputError("sign_unverified_payload", "must be True or False")
    quote_id = quote.quote_id if isinstance(quote, GaslessQuote) else quote
    if not isinstance(quote_id, str) or not quote_id:
        raise InvalidInputError("quote_id", "must be a GaslessQuote or its quote_id")
    operations.check_signature(signature)
    record = verified.get(quote if isinstance(quote, GaslessQuote) else quote_id)
    if record is None:
        if sign_unverified_payload:
            logger.warning(
                "submitting a signature over gasless quote %s, which the SDK did not verify "
                "(sign_unverified_payload=True)",
                quote_id,
            )
            return quote_id
        raise UnsafePayloadError(
            "quote_id",
            expected="a quote get_gasless_quote or verify_gasless_quote checked",
            received=quote_id,
            hint=(
                "Its Permit2 payload was never compared with your request, so the "
                "signature could give anything away. Get it from get_gasless_quote, or "
                "pass sign_unverified_payload=True (dangerous)."
            ),
        )
    sender, payload = record
    try:
        signed_by = recover_typed_data(payload, str(signature))
    except (InvalidInputError, SigningError):
        signed_by = None
    # Not kept in this frame, which an error tracker would capture with the refusal.
    del signature
    if signed_by is None or signed_by.lower() != sender.lower():
        if sign_unverified_payload:
            logger.warning(
                "submitting a signature that is not the sender's over the verified payload "
                "of gasless quote %s (sign_unverified_payload=True)",
                quote_id,
            )
            return quote_id
        raise UnsafePayloadError(
            "signature",
            expected=f"a signature by {sender} over the verified payload of quote {quote_id}",
            received="a signature over another payload, or by another key",
            hint="Sign quote.eip712 exactly as get_gasless_quote returned it.",
        )
    return quote_id


def verify_gasless_quote(
    quote: GaslessQuote,
    *,
    request: GaslessQuoteRequest,
    spender: str | None = None,
    now: float | None = None,
    min_amount_out: int | str | None = None,
) -> GaslessQuote:
    """Check a gasless quote against what was asked before you sign its ``eip712``
    payload yourself, and mark it verified (`RoutingClient.submit_gasless_swap` then
    accepts a signature over it).

    `RoutingClient.get_gasless_quote` already does this for the quotes it returns; use
    this function for a quote from elsewhere (saved, or read with
    ``GaslessQuote.model_validate``).

    Args:
        quote: the quote.
        request: what was asked, e.g. ``GaslessQuoteRequest(from_chain=..., ...,
            sender=...)``; its ``sender`` must sign.
        spender: the routing contract of ``request.from_chain``; by default the one
            `xswap_sdk.registry.ROUTING_CONTRACTS` pins.
        now: the time in Unix seconds (default: the system clock).
        min_amount_out: the least output you accept, in the output token's smallest
            units.

    Returns:
        ``quote``, marked verified.

    Raises:
        InvalidInputError: a bad argument, or ``acquisition_mode=2`` with terms it
            cannot bind.
        UnsafePayloadError: the payload or the summary differs from the request, or no
            routing contract is pinned for the chain.
        QuoteRejectedError: the permit's deadline has passed.
    """
    if not isinstance(quote, GaslessQuote):
        raise InvalidInputError("quote", "must be a GaslessQuote")
    if not isinstance(request, GaslessQuoteRequest):
        raise InvalidInputError("request", "must be a GaslessQuoteRequest")
    least = check_min_amount_out(min_amount_out)
    check_gasless_terms(request, least)
    contract = (
        routing_contract_of(request.from_chain)
        if spender is None
        else check_argument("spender", Address, spender)
    )
    if contract is None:
        raise unpinned_contract(request.from_chain)
    _check_quote(quote, request, contract, time.time() if now is None else now, least)
    _mark_verified(quote, request.sender)
    return quote


def _check_quote(
    quote: GaslessQuote,
    request: GaslessQuoteRequest,
    spender: str,
    now: float,
    min_amount_out: int | None,
) -> None:
    try:
        check_permit2_payload(
            quote, request=request, spender=spender, now=now, min_amount_out=min_amount_out
        )
    except UnsafePayloadError as exc:
        where = f"Gasless quote {quote.quote_id} was refused."
        raise UnsafePayloadError(
            exc.field,
            expected=exc.expected,
            received=exc.received,
            hint=f"{where} {exc.hint}" if exc.hint else where,
        ) from None


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


def check_routing_contracts(routing_contracts: object) -> dict[int, str]:
    """Validate a client's pinned routing contracts: ``{chain_id: address}``.

    Raises:
        InvalidInputError: not a mapping of chain ids to addresses.
    """
    if routing_contracts is None:
        return {}
    if not isinstance(routing_contracts, Mapping):
        raise InvalidInputError("routing_contracts", "must be a mapping {chain_id: address}")
    return {
        check_argument("routing_contracts (chain id)", ChainId, chain_id): check_argument(
            f"routing_contracts[{chain_id}]", Address, address
        )
        for chain_id, address in routing_contracts.items()
    }


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
    quote_operation = operations.get_gasless_quote(paths, request)
    verification = _Verification(
        request, pinned, trust_service, chains, chains_key, least_out, sign_unverified_payload
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
        _check_quote(quote, request, spender, clock.time(), min_amount_out)
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
    spender: str | None = None
    if not verification.sign_unverified_payload:
        # Read before the quote, so that the quote is as fresh as can be when signed.
        spender = yield from routing_contract(
            paths,
            verification.request.from_chain,
            pinned=verification.spender,
            trust_service=verification.trust_service,
            chains=verification.chains,
            chains_key=verification.chains_key,
            clock=clock,
        )
    quotes: list[GaslessQuote] = yield Call(quote_operation)
    if not quotes:
        raise APIError(
            "the service returned no gasless quote for this swap",
            method=quote_operation.method,
            path=quote_operation.log_path,
        )
    quote = quotes[0]
    if spender is None:
        logger.warning(
            "signing gasless quote %s without checking its Permit2 payload "
            "(sign_unverified_payload=True)",
            quote.quote_id,
        )
    else:
        _check_quote(
            quote, verification.request, spender, clock.time(), verification.min_amount_out
        )
    signature = sign_quote(signer, quote)
    submission: GaslessSubmission = yield Call(
        operations.submit_gasless_swap(paths, quote.quote_id, signature)
    )
    if submission.is_failed:
        raise SwapFailedError(
            f"gasless swap {submission.swap_id} failed on submission "
            f"(status {submission.status!r})",
            status=submission,
        )
    status: GaslessStatus | None = None
    if wait:
        status = yield from operations.wait_for_gasless_status(
            paths,
            submission.swap_id,
            wait_timeout=wait_timeout,
            poll_interval=poll_interval,
            is_done=is_done,
            clock=clock,
        )
    return GaslessSwapResult(quote=quote, submission=submission, status=status)
