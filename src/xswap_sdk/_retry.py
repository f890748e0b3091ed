"""What may be retried, and how long to wait: pure functions, no I/O.

The rule is by idempotency, not by status alone:

- A request that may safely be sent twice (reads, and writes we judged cheap to redo)
  is retried on connection errors, timeouts and HTTP 408, 429, 500, 502, 503, 504.
- A request that moves money or state is retried only when it certainly never left this
  machine: a refused connection, a connect timeout, or no free pooled connection.

Waits use exponential backoff with full jitter (a random wait between 0 and
``min(cap, base * 2**n)``) unless the service sent ``Retry-After``, which is honoured up
to `RETRY_AFTER_CAP`; a longer ``Retry-After`` raises at once rather than stalling.

The schedule is tenacity's (``wait_exponential``); the transport's attempt loop asks for
one delay at a time instead of building a tenacity ``Retrying`` per call, and tenacity is
imported on the first retry only (a retry is already the slow path; importing it costs
more than a whole successful call).
"""

from __future__ import annotations

import email.utils
import functools
import random
import time
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Final, cast

from ._record import Frozen
from .errors import APIConnectionError, APIStatusError, RateLimitError, XSwapError

if TYPE_CHECKING:
    import tenacity

__all__ = [
    "RETRYABLE_STATUS",
    "RETRY_AFTER_CAP",
    "backoff_delay",
    "is_retryable",
    "parse_retry_after",
    "requested_wait",
    "retry_delay",
]

RETRYABLE_STATUS: Final = frozenset({408, 429, 500, 502, 503, 504})
RETRY_AFTER_CAP: Final = 60.0
"""The longest ``Retry-After`` we wait for, in seconds."""

INITIAL_BACKOFF: Final = 0.5
MAX_BACKOFF: Final = 8.0


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date.

    Returns ``None`` for a missing or unreadable header; a date in the past gives 0.
    """
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when: datetime = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if seconds != seconds or seconds == float("inf"):  # NaN or infinite
        return None
    return max(0.0, seconds)


def is_retryable(exc: BaseException, *, idempotent: bool, now: float | None = None) -> bool:
    """Whether a failed attempt may be tried again."""
    if isinstance(exc, APIConnectionError):
        return idempotent or not exc.request_sent
    if not idempotent or not isinstance(exc, APIStatusError):
        return False
    if exc.status_code not in RETRYABLE_STATUS:
        return False
    requested = requested_wait(exc, now=now)
    return requested is None or requested <= RETRY_AFTER_CAP


def requested_wait(exc: BaseException, *, now: float | None = None) -> float | None:
    """The wait the service asked for with ``Retry-After``, in seconds, if it did."""
    if isinstance(exc, RateLimitError) and exc.retry_after is not None:
        return exc.retry_after
    if isinstance(exc, APIStatusError):
        return parse_retry_after(exc.headers.get("retry-after"), now=now)
    return None


@dataclass(init=False, repr=False, eq=False, slots=True)
class _Attempt(Frozen):
    # The one field of tenacity's RetryCallState that its wait strategies read.
    attempt_number: int

    def __init__(self, attempt_number: int) -> None:
        object.__setattr__(self, "attempt_number", attempt_number)


@functools.cache
def _schedule() -> tenacity.wait.wait_exponential:
    import tenacity

    return tenacity.wait_exponential(multiplier=INITIAL_BACKOFF, max=MAX_BACKOFF)


def backoff_delay(attempt: int, *, rand: random.Random | None = None) -> float:
    """Full-jitter exponential backoff for the wait after failed attempt ``attempt``
    (1-based): uniform between 0 and tenacity's exponential ceiling, drawn from ``rand``
    (seedable) or the `random` module."""
    ceiling = _schedule()(cast("tenacity.RetryCallState", _Attempt(attempt)))
    return (rand or random).uniform(0.0, ceiling)


def retry_delay(
    exc: XSwapError | None,
    attempt: int,
    *,
    now: float | None = None,
    rand: random.Random | None = None,
) -> float:
    """How long to wait before the next attempt: the service's ``Retry-After`` if it sent
    one (already checked to be within the cap), otherwise backoff."""
    retry_after = None if exc is None else requested_wait(exc, now=now)
    if retry_after is not None:
        return min(retry_after, RETRY_AFTER_CAP)
    return backoff_delay(attempt, rand=rand)
