"""The error tree as a user meets it: every public error is named by its public module,
survives pickling (a process pool's worker raising it), and says the same thing after."""

from __future__ import annotations

import copy
import inspect
import pickle
from decimal import Decimal

import pytest

import xswap_sdk
from xswap_sdk import errors

REQUEST = {"method": "POST", "path": "/api/submit-tx", "trace_id": "t-1"}
STATUS = {"status_code": 400, "body": {"error": {"category": "X"}, "jwt": "s3cr3t"}, **REQUEST}


def samples() -> dict[str, errors.XSwapError]:
    """One new instance of every public error, built as the SDK builds it."""
    return {
        "XSwapError": errors.XSwapError("something failed"),
        "InvalidInputError": errors.InvalidInputError("amount", "must be positive"),
        "MissingCredentialsError": errors.MissingCredentialsError(
            "api_key", "is required", env_var="XSWAP_API_KEY"
        ),
        "InsufficientBalanceError": errors.InsufficientBalanceError(
            "short of 5", shortfall=5, usable={8453: 10}
        ),
        "QuoteRejectedError": errors.QuoteRejectedError("quote", "expired", quote={"id": 1}),
        "APIError": errors.APIError("failed", outcome_unknown=True, **REQUEST),
        "APIStatusError": errors.APIStatusError("bad", code="E1", headers={"X-A": "1"}, **STATUS),
        "BadRequestError": errors.BadRequestError("bad", **STATUS),
        "InsufficientMaxFeeError": errors.InsufficientMaxFeeError(
            "Insufficient max fee: expected at least 2.000125, got 1",
            minimum=Decimal("2.000125"),
            received=Decimal(1),
            **STATUS,
        ),
        "AuthenticationError": errors.AuthenticationError("no", **{**STATUS, "status_code": 401}),
        "PaymentRequiredError": errors.PaymentRequiredError(
            "pay", **{**STATUS, "status_code": 402}
        ),
        "PaymentNotAcceptedError": errors.PaymentNotAcceptedError(
            "paid", outcome_unknown=True, **{**STATUS, "status_code": 402}
        ),
        "PaymentNotDueError": errors.PaymentNotDueError("read", **{**STATUS, "status_code": 402}),
        "PermissionDeniedError": errors.PermissionDeniedError(
            "no", **{**STATUS, "status_code": 403}
        ),
        "NotFoundError": errors.NotFoundError("none", **{**STATUS, "status_code": 404}),
        "ConflictError": errors.ConflictError("state", **{**STATUS, "status_code": 409}),
        "UnprocessableEntityError": errors.UnprocessableEntityError(
            "invalid", **{**STATUS, "status_code": 422}
        ),
        "RateLimitError": errors.RateLimitError(
            "slow down", retry_after=2.5, **{**STATUS, "status_code": 429}
        ),
        "InternalServerError": errors.InternalServerError("oops", **{**STATUS, "status_code": 503}),
        "APIConnectionError": errors.APIConnectionError(request_sent=False, **REQUEST),
        "APITimeoutError": errors.APITimeoutError("read timeout", **REQUEST),
        "DeadlineExceededError": errors.DeadlineExceededError("deadline", **REQUEST),
        "RedirectError": errors.RedirectError.from_location(
            307, "https://evil.example/x?token=1", request_url="https://relayer.test/", **REQUEST
        ),
        "EnvelopeError": errors.EnvelopeError("failed", code=7, status_code=200, body={"code": 7}),
        "PaginationError": errors.PaginationError("repeats", page=3, **REQUEST),
        "ResponseValidationError": errors.ResponseValidationError(
            "does not fit", body={"a": 1}, errors=[{"loc": ("a",)}], **REQUEST
        ),
        "ResponseTooLargeError": errors.ResponseTooLargeError(limit=1 << 20, status_code=200),
        "ResponseTooDeepError": errors.ResponseTooDeepError(limit=64, **REQUEST),
        "TerminalStateError": errors.TerminalStateError("ended", record={"status": 0}),
        "RelayFailedError": errors.RelayFailedError(
            "failed", record={"status": "FAILED"}, error_message="reverted"
        ),
        "SwapFailedError": errors.SwapFailedError("failed", record={"status": "failed"}),
        "TransferFailedError": errors.TransferFailedError("expired", transfer_status="expired"),
        "WaitTimeoutError": errors.WaitTimeoutError("waited", last_status={"s": 1}, timeout=30.0),
        "LoginError": errors.LoginError("login failed"),
        "LoginRateLimitError": errors.LoginRateLimitError(retry_after=12.5, limit=3, window=60),
        "SigningError": errors.SigningError("cannot sign"),
        "UnsafePayloadError": errors.UnsafePayloadError(
            "quote.spender", expected="0xabc", received="0xdef", hint="Ask again."
        ),
        "PolicyRefusedError": errors.PolicyRefusedError("max_fee", "fee 3 above 2"),
        "WebhookSignatureError": errors.WebhookSignatureError("does not verify"),
        "JournalError": errors.JournalError("cannot write", journey_id="j-1", step="submit"),
        "JourneyBusyError": errors.JourneyBusyError("busy", journey_id="j-1", holder="process 1"),
        "JourneyTamperedError": errors.JourneyTamperedError("tampered", journey_id="j-1"),
        "RestartRequiredError": errors.RestartRequiredError("new quote", journey_id="j-1"),
        "SimulationError": errors.SimulationError("reverted", transaction=1),
        "MissingDependencyError": errors.MissingDependencyError("pip install web3", name="web3"),
    }


PUBLIC_ERRORS = [
    name
    for name in errors.__all__
    if inspect.isclass(getattr(errors, name))
    and issubclass(getattr(errors, name), errors.XSwapError)
]


def test_every_public_error_has_a_sample() -> None:
    assert sorted(samples()) == sorted(PUBLIC_ERRORS)
    for name, sample in samples().items():
        assert type(sample) is getattr(errors, name)


@pytest.mark.parametrize("name", [*errors.__all__])
def test_a_public_name_is_named_by_the_public_module(name: str) -> None:
    value = getattr(errors, name)
    assert value.__module__ == "xswap_sdk.errors"
    assert value.__qualname__ == name


def test_the_top_level_package_hands_out_the_same_module() -> None:
    assert xswap_sdk.errors is errors


@pytest.mark.parametrize("name", PUBLIC_ERRORS)
@pytest.mark.parametrize("protocol", [0, pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL])
def test_every_public_error_pickles_to_the_same_error(name: str, protocol: int) -> None:
    original = samples()[name]
    original.journey_id = "j-9"
    original.add_note("a note")
    data = pickle.dumps(original, protocol=protocol)
    assert b"xswap_sdk.errors._" not in data  # only the public path is written
    restored = pickle.loads(data)
    assert type(restored) is type(original)
    assert str(restored) == str(original)
    assert repr(restored) == repr(original)
    assert restored.args == original.args
    assert restored.sent == original.sent
    assert restored.__notes__ == ["a note"]
    assert vars(restored).keys() == vars(original).keys()
    copied = copy.copy(original)
    assert type(copied) is type(original)
    assert str(copied) == str(original)


def test_what_an_error_carries_survives_pickling() -> None:
    status = pickle.loads(pickle.dumps(samples()["RateLimitError"]))
    assert status.status_code == 429
    assert status.retry_after == 2.5
    assert status.category == "X"
    assert status.body["jwt"] == "[redacted]"
    assert status.method == "POST"
    assert status.trace_id == "t-1"
    headers = pickle.loads(pickle.dumps(samples()["APIStatusError"])).headers
    assert headers["x-a"] == "1"
    fee = pickle.loads(pickle.dumps(samples()["InsufficientMaxFeeError"]))
    assert fee.minimum_units == 2_000_125
    connection = pickle.loads(pickle.dumps(samples()["APIConnectionError"]))
    assert connection.sent == "not_sent"
    assert connection.request_sent is False
    missing = pickle.loads(pickle.dumps(samples()["MissingDependencyError"]))
    assert missing.name == "web3"
    balance = pickle.loads(pickle.dumps(samples()["InsufficientBalanceError"]))
    assert (balance.argument, balance.shortfall, balance.usable) == ("balances", 5, {8453: 10})


def test_the_body_refusals_say_what_they_said() -> None:
    large = errors.ResponseTooLargeError(limit=1 << 20, status_code=200, method="GET", path="/x")
    assert str(large) == (
        "GET /x: the HTTP 200 response body is larger than the 1,048,576-byte cap; "
        "reading stopped there"
    )
    assert (large.limit, large.status_code, large.body) == (1 << 20, 200, None)
    deep = errors.ResponseTooDeepError(limit=64)
    assert str(deep) == "the response body nests JSON deeper than 64 levels; it was not parsed"
    assert (deep.limit, deep.status_code, deep.body) == (64, None, None)
