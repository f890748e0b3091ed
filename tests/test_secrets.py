"""No secret reaches a log record, a repr or an error message.

Secrets are planted in every place a request can carry one (the API key, an
Authorization header, the body) and in what the service sends back (an error message
that echoes the key, a success body holding a token); then every record logged at DEBUG,
by any logger, and every repr and error message is searched for them.
"""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import errors

from .support import ADDRESS, RELAYER_URL, TX_ID, relayer_ok, resolve, tx_record

API_KEY = "PLANTED-api-key-4b1d0c"
JWT = "eyJhbGciOiJIUzI1NiJ9.PLANTED-jwt-payload.c2lnbmF0dXJl"
SIGNATURE = "0x" + "5e" * 65
PRIVATE_KEY = "0x" + "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37"
SECRETS = (API_KEY, JWT, SIGNATURE[2:], PRIVATE_KEY[2:])


def record_text(record: logging.LogRecord) -> str:
    return " ".join([record.getMessage(), repr(record.args), repr(vars(record))])


def assert_clean(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text


async def test_no_secret_in_any_log_record_repr_or_error(
    kind: str, httpx_mock: HTTPXMock, caplog: pytest.LogCaptureFixture
) -> None:
    from xswap_sdk import AsyncRelayerClient, RelayerClient

    caplog.set_level(logging.DEBUG)
    cls = RelayerClient if kind == "sync" else AsyncRelayerClient
    client: Any = cls(
        api_key=API_KEY,
        base_url=RELAYER_URL,
        headers={"Authorization": f"Bearer {JWT}"},
        max_retries=1,
    )
    submit = f"{RELAYER_URL}/api/submit-tx"
    # An error that echoes the key, a retried read whose answer holds a secret, a timeout.
    httpx_mock.add_response(
        url=submit,
        status_code=401,
        json={
            "success": False,
            "error": {"code": "AUTH_002", "message": f"Invalid API key {API_KEY} for {JWT}"},
        },
    )
    status_url = f"{RELAYER_URL}/api/tx?id={TX_ID}"
    httpx_mock.add_response(url=status_url, status_code=429, headers={"Retry-After": "0"})
    httpx_mock.add_response(
        url=status_url, json=relayer_ok(tx_record("EXECUTED", privateKey=PRIVATE_KEY))
    )
    httpx_mock.add_exception(httpx.ReadTimeout(f"read timed out {API_KEY}"), url=submit)

    body = {
        "to": ADDRESS,
        "call_data": SIGNATURE,
        "chain_id": 8453,
        # Secret-shaped values in the body (authorizations are now checked, so the key
        # rides in a free-text field).
        "derivation_path": PRIVATE_KEY,
    }
    raised: list[BaseException] = []
    with pytest.raises(errors.AuthenticationError) as info:
        await resolve(client.submit_tx(**body))
    raised.append(info.value)
    record = await resolve(client.get_relay_status(TX_ID))
    with pytest.raises(errors.APITimeoutError) as timeout_info:
        await resolve(client.submit_tx(**body))
    raised.append(timeout_info.value)

    assert caplog.records, "the SDK should have logged its requests"
    assert any(r.name == "xswap_sdk" and r.levelno == logging.INFO for r in caplog.records)
    for log_record in caplog.records:
        assert_clean(record_text(log_record))
    for error in raised:
        assert_clean(str(error))
        assert_clean(repr(error))
        assert_clean(error.message)  # type: ignore[attr-defined]
    assert "[redacted]" in str(raised[0])
    assert_clean(repr(client))
    assert_clean(repr(client.with_options(timeout=3)))
    assert_clean(repr(client._options))
    assert record.model_extra["privateKey"] == PRIVATE_KEY  # kept, but never logged


def test_sdk_records_carry_metadata_fields(
    httpx_mock: HTTPXMock, caplog: pytest.LogCaptureFixture
) -> None:
    from xswap_sdk import RelayerClient

    caplog.set_level(logging.DEBUG, logger="xswap_sdk")
    httpx_mock.add_response(
        url=f"{RELAYER_URL}/api/tx?id={TX_ID}",
        json=relayer_ok(tx_record("PENDING")),
        headers={"X-Request-Id": "req-77"},
    )
    with RelayerClient(api_key=API_KEY, base_url=RELAYER_URL) as client:
        client.get_relay_status(TX_ID)
    (record,) = [r for r in caplog.records if r.name == "xswap_sdk"]
    assert record.levelno == logging.DEBUG
    assert record.xswap_method == "GET"  # type: ignore[attr-defined]
    assert record.xswap_path == "/api/tx"  # type: ignore[attr-defined]
    assert record.xswap_status == 200  # type: ignore[attr-defined]
    assert record.xswap_attempt == 1  # type: ignore[attr-defined]
    assert record.xswap_trace_id == "req-77"  # type: ignore[attr-defined]
    assert record.xswap_elapsed_ms >= 0  # type: ignore[attr-defined]
    assert TX_ID not in record.getMessage()  # no query string


def test_logger_has_no_handlers_of_its_own() -> None:
    import xswap_sdk  # noqa: F401

    assert logging.getLogger("xswap_sdk").handlers == []


# ---------------------------------------------------------------------------- bodies on errors


def test_bodies_kept_on_errors_drop_credentials_and_signatures() -> None:
    body = {
        "token": JWT,
        "user": {"access_token": API_KEY, "Api-Key": API_KEY, "name": "kept"},
        "echo": [{"signature": SIGNATURE}, f"Bearer {JWT}"],
        "message": "kept",
    }
    made = [
        errors.ResponseValidationError("x", body=body),
        errors.BadRequestError("x", status_code=400, body=body),
        errors.EnvelopeError("x", code=1, status_code=200, body=body),
        errors.ResponseValidationError("x", body=f"not json but {JWT}"),
    ]
    for error in made:
        text = repr(error.body) + repr(vars(error)) + str(error)
        assert_clean(text)
    kept = made[0].body
    assert kept["token"] == "[redacted]"
    assert kept["user"]["name"] == "kept"
    assert kept["message"] == "kept"
    assert body["token"] == JWT  # the answer itself is not changed


async def test_a_login_answer_that_does_not_fit_keeps_no_jwt(
    kind: str, httpx_mock: HTTPXMock
) -> None:
    from eth_account import Account

    from xswap_sdk import AsyncFlashClient, FlashClient

    from .flash.payloads import siwe

    account = Account.from_key(PRIVATE_KEY)
    flash_url = "https://flash.test"
    httpx_mock.add_response(
        url=f"{flash_url}/auth/message",
        json={
            "message": siwe(account.address, host="flash.test"),
            "expiry": 9_999_999_999,
            "messageId": "m1",
        },
    )
    # The JWT arrives, in an answer that does not fit the model.
    httpx_mock.add_response(
        url=f"{flash_url}/auth/verify", json={"token": JWT, "user_address": "not an address"}
    )
    cls = FlashClient if kind == "sync" else AsyncFlashClient
    client: Any = cls(signer=account, base_url=flash_url)
    with pytest.raises(errors.XSwapError) as info:
        await resolve(client.login())
    current: BaseException | None = info.value
    while current is not None:
        assert_clean(repr(vars(current)) + str(current) + repr(current))
        current = current.__cause__ or current.__context__
