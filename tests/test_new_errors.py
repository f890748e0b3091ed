"""The errors added for hostile networks and broken services: what they carry and say."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xswap_sdk import errors
from xswap_sdk._retry import is_retryable

REQUEST_URL = "https://relayer.test/api/submit-tx"


@pytest.mark.parametrize(
    ("location", "origin"),
    [
        ("https://evil.example/steal?token=s3cr3t#frag", "https://evil.example"),
        ("http://user:pass@evil.example:8080/x?q=1", "http://evil.example:8080"),
        ("//other.example/path?k=v", "https://other.example"),
        ("/elsewhere?api_key=s3cr3t", "https://relayer.test"),
        ("elsewhere", "https://relayer.test"),
        ("http://[::1]:9/x", "http://[::1]:9"),
        ("  https://spaced.example/  ", "https://spaced.example"),
        ("mailto:someone@example.com", None),
        ("http://", None),
        ("", None),
        (None, None),
    ],
)
def test_redirect_error_names_the_target_origin_only(location: str | None, origin: str) -> None:
    exc = errors.RedirectError.from_location(
        307,
        location,
        request_url=REQUEST_URL,
        method="POST",
        path="/api/submit-tx",
        outcome_unknown=True,
    )
    assert exc.location_origin == origin
    assert exc.status_code == 307
    text = str(exc)
    assert text.startswith("POST /api/submit-tx: HTTP 307 redirect ")
    assert (origin or "no readable Location") in text
    for secret in ("s3cr3t", "pass", "token", "frag", "/steal", "/elsewhere"):
        assert secret not in text
    assert "may have accepted it" in text
    assert isinstance(exc, errors.APIError)
    assert not isinstance(exc, errors.APIStatusError)


@given(st.text(max_size=60))
def test_any_location_header_gives_an_origin_or_none(location: str) -> None:
    exc = errors.RedirectError.from_location(301, location, request_url=REQUEST_URL)
    origin = exc.location_origin
    assert origin is None or ("://" in origin and "?" not in origin and "@" not in origin)
    assert exc.outcome_unknown is False


def test_none_of_the_new_errors_is_retried() -> None:
    made = [
        errors.RedirectError(status_code=302, location_origin=None),
        errors.ResponseTooLargeError(limit=10, status_code=200),
        errors.ResponseTooDeepError(limit=64, status_code=502),
        errors.PaginationError("loops", page=3),
    ]
    for exc in made:
        assert not is_retryable(exc, idempotent=True)


def test_pagination_error_message() -> None:
    exc = errors.PaginationError("page 3 repeats page 2", page=3, method="GET", path="/history")
    assert str(exc) == "GET /history: page 3 repeats page 2"
    assert exc.page == 3


def test_response_validation_error_takes_outcome_unknown() -> None:
    exc = errors.ResponseValidationError(
        "not JSON", method="POST", path="/swap", outcome_unknown=True
    )
    assert exc.outcome_unknown
    assert "check its status" in str(exc)
    assert not errors.ResponseValidationError("x").outcome_unknown


def test_every_api_error_holds_one_request_info() -> None:
    info = errors.RequestInfo("POST", "/api/submit-tx", trace_id="t-1", outcome_unknown=True)
    made = [
        errors.APIStatusError("no", status_code=500, request_info=info),
        errors.EnvelopeError("no", code=7, status_code=200, request_info=info),
        errors.APIConnectionError(request_info=info),
        errors.ResponseTooLargeError(limit=10, request_info=info),
        errors.RedirectError(status_code=302, location_origin=None, request_info=info),
        errors.PaginationError("loops", page=2, request_info=info),
    ]
    for error in made:
        assert error.request_info is info
        assert (error.method, error.path, error.trace_id) == ("POST", "/api/submit-tx", "t-1")
        assert error.outcome_unknown is True
    # The keywords describe the same object, and the answer may settle the outcome later.
    error = errors.APIStatusError(
        "no", status_code=500, method="POST", path="/api/submit-tx", trace_id="t-1"
    )
    assert error.request_info == errors.RequestInfo("POST", "/api/submit-tx", "t-1")
    error.outcome_unknown = True
    assert error.request_info == info
    assert "POST /api/submit-tx -> HTTP 500: no (trace id t-1)" in str(error)


def test_the_typed_fee_error_keeps_the_request_info_of_the_plain_one() -> None:
    plain = errors.BadRequestError(
        "Insufficient max fee: expected at least 2.000125, got 2",
        status_code=400,
        method="POST",
        path="/v1/transfer",
        trace_id="t-2",
        outcome_unknown=True,
    )
    typed = errors.InsufficientMaxFeeError.from_error(plain)
    assert typed is not None
    assert typed.request_info is plain.request_info
    assert typed.trace_id == "t-2"
