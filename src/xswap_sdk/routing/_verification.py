"""The parties and terms of a gasless swap, checked: which routing contract may be the
Permit2 spender (pinned, never the service's choice by default), which terms a bare
Permit2 signature cannot carry, and which quotes were verified, so that a signature is
submitted only over a payload the SDK compared with the request.

Shared by the one-call flow (``_gasless.gasless_swap``), the manual path
(`RoutingClient.get_gasless_quote`, `RoutingClient.submit_gasless_swap`) and the public
`verify_gasless_quote`.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Final

from .._body import copy_json
from .._logging import logger
from .._models import check_argument
from ..errors import InvalidInputError, SigningError, UnsafePayloadError
from ..types import Address, TokenAmount, _same_address
from . import _operations as operations

if TYPE_CHECKING:
    from ._chain_models import SupportedChain
    from ._gasless_models import GaslessQuote, GaslessQuoteRequest

__all__ = [
    "VerifiedQuotes",
    "check_gasless_terms",
    "check_min_amount_out",
    "check_quote",
    "check_submission",
    "service_contract",
    "unpinned_contract",
    "verify_gasless_quote",
]

_PIN_HINT: Final = (
    "Pin it: RoutingClient(routing_contracts={{{chain}: '0x...'}}) with the contract you "
    "vetted (xswap_sdk.registry.ROUTING_CONTRACTS lists the published ones), or, "
    "trusting the service with your funds, unsafe_trust_service_parties=True."
)


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
    from ._model_types import AcquisitionMode  # lazy: loaded with the gasless models

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
        from ._gasless_models import GaslessQuote  # lazy: the gasless models, when used

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
    from ._gasless_models import GaslessQuote  # lazy: the gasless models, when used

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
    from ..signing import recover_typed_data  # lazy: EIP-712 recovery, at a submission only

    try:
        signed_by = recover_typed_data(payload, str(signature))
    except (InvalidInputError, SigningError):
        signed_by = None
    # Not kept in this frame, which an error tracker would capture with the refusal.
    del signature
    if not _same_address(signed_by, sender):
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
    # lazy: the gasless models, at the first gasless quote
    from ._gasless_models import GaslessQuote, GaslessQuoteRequest

    if not isinstance(quote, GaslessQuote):
        raise InvalidInputError("quote", "must be a GaslessQuote")
    if not isinstance(request, GaslessQuoteRequest):
        raise InvalidInputError("request", "must be a GaslessQuoteRequest")
    from ..registry import routing_contract_of  # lazy: the pins, at the first gasless check

    least = check_min_amount_out(min_amount_out)
    check_gasless_terms(request, least)
    contract = (
        routing_contract_of(request.from_chain)
        if spender is None
        else check_argument("spender", Address, spender)
    )
    if contract is None:
        raise unpinned_contract(request.from_chain)
    check_quote(quote, request, contract, time.time() if now is None else now, least)
    _mark_verified(quote, request.sender)
    return quote


def check_quote(
    quote: GaslessQuote,
    request: GaslessQuoteRequest,
    spender: str,
    now: float,
    min_amount_out: int | None,
) -> None:
    """`check_permit2_payload`, its refusal naming the quote.

    Raises:
        UnsafePayloadError: the payload or the summary differs from the request.
        QuoteRejectedError: the permit's deadline has passed.
    """
    from ._permit2 import check_permit2_payload  # lazy: a gasless quote's check only

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
