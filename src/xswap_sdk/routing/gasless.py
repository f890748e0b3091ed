"""The gasless swap in one flow: quote, sign the Permit2 payload, submit, optionally wait.

Written once as a flow (see ``xswap_sdk._flow``) and run by both clients. The payload is
signed exactly as the service sent it (`xswap_sdk.signing.sign_typed_data` reads a string
``chainId`` and a domain without ``version`` as they are meant), and what is submitted is
that quote's id with that signature. The signature is not kept in the result, and never
appears in a log record or an error message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._clock import Clock
from .._flow import Call, Flow
from .._operation import Operation
from ..errors import APIError, InvalidInputError, SigningError, SwapFailedError
from ..signing import Signer, sign_typed_data
from ..signing.signer import signer_address
from . import _operations as operations
from ._operations import RoutingPaths
from .models import GaslessQuote, GaslessStatus, GaslessSubmission

__all__ = ["GaslessSwapResult", "gasless_swap"]


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


def gasless_swap(
    paths: RoutingPaths,
    signer: Signer,
    *,
    wait: bool,
    wait_timeout: float,
    poll_interval: float,
    is_done: Callable[[GaslessStatus], bool] | None,
    clock: Clock,
    **quote_fields: Any,
) -> Flow[GaslessSwapResult]:
    """Validate everything, then return the flow: ``GET /gasless/quote`` for the
    signer's address, sign, ``POST /gasless/submit-swap`` and, with ``wait``, poll
    ``GET /gasless/status``."""
    request = operations.gasless_quote_request(sender=signer_address(signer), **quote_fields)
    if not isinstance(wait, bool):
        raise InvalidInputError("wait", "must be True or False")
    predicate = operations.check_wait(wait_timeout, poll_interval, is_done)
    quote_operation = operations.get_gasless_quote(paths, request)
    return _run(
        paths,
        quote_operation,
        signer,
        wait=wait,
        wait_timeout=wait_timeout,
        poll_interval=poll_interval,
        is_done=predicate,
        clock=clock,
    )


def _run(
    paths: RoutingPaths,
    quote_operation: Operation[list[GaslessQuote]],
    signer: Signer,
    *,
    wait: bool,
    wait_timeout: float,
    poll_interval: float,
    is_done: Callable[[GaslessStatus], bool] | None,
    clock: Clock,
) -> Flow[GaslessSwapResult]:
    quotes: list[GaslessQuote] = yield Call(quote_operation)
    if not quotes:
        raise APIError(
            "the service returned no gasless quote for this swap",
            method=quote_operation.method,
            path=quote_operation.log_path,
        )
    quote = quotes[0]
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
