"""The retry policy on its own: pure functions, no I/O."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xswap_sdk import errors
from xswap_sdk._retry import (
    MAX_BACKOFF,
    RETRY_AFTER_CAP,
    backoff_delay,
    is_retryable,
    parse_retry_after,
    retry_delay,
)


def status_error(code: int, **headers: str) -> errors.APIStatusError:
    return errors.APIStatusError("x", status_code=code, headers=headers)


@pytest.mark.parametrize("code", [408, 429, 500, 502, 503, 504])
def test_reads_retry_the_transient_statuses(code: int) -> None:
    assert is_retryable(status_error(code), idempotent=True)
    assert not is_retryable(status_error(code), idempotent=False)


@pytest.mark.parametrize("code", [400, 401, 402, 403, 404, 409, 422, 501])
def test_nobody_retries_the_others(code: int) -> None:
    assert not is_retryable(status_error(code), idempotent=True)


def test_connection_errors_depend_on_whether_the_request_left() -> None:
    never_sent = errors.APIConnectionError(request_sent=False)
    maybe_sent = errors.APITimeoutError(request_sent=True)
    assert is_retryable(never_sent, idempotent=False)
    assert is_retryable(never_sent, idempotent=True)
    assert not is_retryable(maybe_sent, idempotent=False)
    assert is_retryable(maybe_sent, idempotent=True)


def test_other_errors_are_never_retried() -> None:
    assert not is_retryable(ValueError("bug"), idempotent=True)
    assert not is_retryable(errors.InvalidInputError("x", "y"), idempotent=True)


def test_retry_after_over_the_cap_is_not_retried_even_on_503() -> None:
    assert is_retryable(status_error(503, **{"Retry-After": "60"}), idempotent=True)
    assert not is_retryable(status_error(503, **{"Retry-After": "61"}), idempotent=True)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("5", 5.0),
        (" 2.5 ", 2.5),
        ("-3", 0.0),
        ("Wed, 21 Oct 2015 07:28:10 GMT", 10.0),
        ("Wed, 21 Oct 2015 07:27:00 GMT", 0.0),
        ("soon", None),
        ("nan", None),
        ("inf", None),
        (None, None),
    ],
)
def test_parse_retry_after(header: str | None, expected: float | None) -> None:
    now = 1445412480.0  # Wed, 21 Oct 2015 07:28:00 GMT
    assert parse_retry_after(header, now=now) == expected


@given(st.integers(min_value=1, max_value=50), st.integers())
def test_backoff_is_full_jitter_under_an_exponential_ceiling(attempt: int, seed: int) -> None:
    delay = backoff_delay(attempt, rand=random.Random(seed))
    assert 0 <= delay <= min(MAX_BACKOFF, 0.5 * 2 ** (attempt - 1))


def test_retry_delay_prefers_retry_after() -> None:
    limited = errors.RateLimitError("slow down", status_code=429, retry_after=12.0)
    assert retry_delay(limited, 1) == 12.0
    assert retry_delay(status_error(503, **{"retry-after": "4"}), 3) == 4.0
    assert retry_delay(None, 1, rand=random.Random(1)) <= 0.5
    assert RETRY_AFTER_CAP == 60.0
