"""Settings refused before any I/O: credentials and headers, base URLs, timeouts, the
deadline and the size cap. Errors name the argument and the rule, never the value."""

from __future__ import annotations

import math
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import SecretStr
from pytest_httpx import HTTPXMock

from xswap_sdk import RelayerClient, errors
from xswap_sdk._options import (
    DEFAULT_DEADLINE,
    DEFAULT_MAX_RESPONSE_BYTES,
    ClientOptions,
    check_base_url,
    check_credential,
    check_deadline,
    check_header_value,
    check_headers,
    check_seconds,
    clip_timeout,
    is_loopback_host,
    normalize_timeout,
)

from .support import RELAYER_URL, TX_ID, relayer_ok, tx_record
from .support import TEST_SERVICE as SERVICE

KEY = "live-key-9f8e7d6c5b"


def resolve(**kwargs: Any) -> ClientOptions:
    kwargs.setdefault("environ", {})
    return ClientOptions.resolve(SERVICE, **kwargs)


def refused(call: Any, secret: str | None = None) -> errors.InvalidInputError:
    with pytest.raises(errors.InvalidInputError) as info:
        call()
    if secret:
        assert secret not in str(info.value)
        assert secret not in repr(info.value)
    return info.value


# ---------------------------------------------------------------------------- credentials


@pytest.mark.parametrize("suffix", ["\n", "\r\n", " ", "\t", "\n\n"])
def test_surrounding_whitespace_of_a_key_is_stripped(suffix: str) -> None:
    options = resolve(api_key=f"{suffix}{KEY}{suffix}")
    assert options.api_key is not None
    assert options.api_key.get_secret_value() == KEY
    from_env = resolve(environ={"XSWAP_TEST_API_KEY": KEY + suffix})
    assert from_env.api_key == SecretStr(KEY)
    assert check_credential(SecretStr(KEY + suffix), argument="jwt").get_secret_value() == KEY


@pytest.mark.parametrize(
    "bad",
    [
        "live-key\n9f8e",
        "live-key\r9f8e",
        "live-key\x00",
        "live-key\x7fx",
        "live\tkey",
        "clé-secrète-9f8e",
        "live-key-\u2028-9f8e",
        "live-key-\ud800-9f8e",
    ],
)
def test_a_key_with_a_control_or_non_ascii_character_is_refused(bad: str) -> None:
    exc = refused(lambda: resolve(api_key=bad), secret=bad.strip())
    assert exc.argument == "api_key"
    assert "printable ASCII" in exc.rule
    assert "stripped" in exc.rule  # the rule says what happens to whitespace
    exc = refused(lambda: resolve(environ={"XSWAP_TEST_API_KEY": bad}), secret=bad.strip())
    assert exc.argument == "XSWAP_TEST_API_KEY"  # names where the value came from
    assert refused(lambda: check_credential(bad, argument="jwt")).argument == "jwt"
    assert refused(lambda: resolve().replace(api_key=bad)).argument == "api_key"


@pytest.mark.parametrize("empty", ["", " ", "\n", " \r\n\t"])
def test_an_empty_key_is_refused(empty: str) -> None:
    exc = refused(lambda: check_credential(empty, argument="api_key"))
    assert exc.rule == "must not be empty"


def test_a_credential_must_be_a_string() -> None:
    assert refused(lambda: check_credential(b"key", argument="jwt")).rule == "must be a string"


CREDENTIAL_RULES = {
    "must not be empty",
    "must be printable ASCII without CR, LF, tabs or other control characters "
    "(surrounding whitespace is stripped; the value is not shown)",
}


@given(st.text(max_size=40))
def test_any_key_is_kept_masked_or_refused_without_being_shown(key: str) -> None:
    try:
        masked = check_credential(key, argument="api_key")
    except errors.InvalidInputError as exc:
        refusal = exc
    else:
        value = masked.get_secret_value()
        assert value == key.strip(" \t\r\n")
        assert value.isascii()
        assert value.isprintable()
        assert value.encode("ascii")  # can be sent as a header
        assert "*" in repr(masked)
        return
    # The message is one of the fixed rules: nothing of the value is put in it.
    assert refusal.rule in CREDENTIAL_RULES
    assert str(refusal) == f"api_key: {refusal.rule}"


def test_a_key_with_a_trailing_newline_is_sent_stripped(httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(json=relayer_ok(tx_record("PENDING")))
    with RelayerClient(api_key=KEY + "\n", base_url=RELAYER_URL, max_retries=0) as client:
        client.get_relay_status(TX_ID)
    assert httpx_mock.get_request().headers["api-key"] == KEY


def test_a_bad_key_is_refused_by_the_client_before_any_request(httpx_mock: HTTPXMock) -> None:
    exc = refused(lambda: RelayerClient(api_key="schlüssel-9f8e7d", base_url=RELAYER_URL))
    assert exc.argument == "api_key"
    assert httpx_mock.get_requests() == []


# ---------------------------------------------------------------------------- headers


def test_header_values_are_stripped_and_checked() -> None:
    assert check_headers({"X-Team": " payments \n"}) == {"X-Team": "payments"}
    assert check_headers({"X-Empty": ""}) == {"X-Empty": ""}
    assert check_header_value("a\tb", argument="h") == "a\tb"
    for bad in ("pay\r\nX-Evil: 1", "pay\nments", "zahlungsverkehr-ü", "\x00", "a\x1bb"):
        exc = refused(lambda bad=bad: check_headers({"X-Team": bad}), secret=bad.strip())
        assert exc.argument == "headers['X-Team']"
        assert "printable ASCII" in exc.rule


@pytest.mark.parametrize("name", ["", "X Team", "X-Team:", "X-Tëam", "X-Team\r\n", "(x)"])
def test_header_names_must_be_http_tokens(name: str) -> None:
    exc = refused(lambda: resolve(headers={name: "v"}))
    assert exc.argument == "headers"
    assert "HTTP tokens" in exc.rule


def test_headers_must_map_str_to_str() -> None:
    assert refused(lambda: check_headers({"X-A": 1})).rule == "must be a mapping of str to str"
    assert refused(lambda: check_headers([("X-A", "1")])).argument == "headers"


def test_with_options_checks_added_headers() -> None:
    options = resolve(headers={"X-A": "1"})
    assert options.replace(headers={"X-B": " 2 "}).headers == {"X-A": "1", "X-B": "2"}
    refused(lambda: options.replace(headers={"X-B": "\u00e9"}))


# ---------------------------------------------------------------------------- base URLs


@pytest.mark.parametrize(
    "url",
    [
        "https://relay.example",
        "https://relay.example:8443/prefix/",
        "http://localhost:8787",
        "http://LOCALHOST",
        "http://localhost.:1",
        "http://127.0.0.1:8787/relayer",
        "http://127.9.8.7",
        "http://[::1]:8787",
    ],
)
def test_accepted_base_urls(url: str) -> None:
    assert resolve(base_url=url).base_url == url.rstrip("/")


@pytest.mark.parametrize(
    "url",
    [
        "http://relay.example",
        "http://sandbox.invalid/relayer",  # a name that should never resolve still might
        "http://10.0.0.5:8080",
        "http://192.168.1.1",
        "http://[::2]",
        "http://[::ffff:7f00:1]",
        "http://localhost.example.com",
        "http://127.0.0.1.nip.io",
        "http://invalid.example",
    ],
)
def test_plain_http_to_another_host_needs_the_loud_opt_in(url: str) -> None:
    exc = refused(lambda: resolve(base_url=url))
    assert exc.argument == "base_url"
    assert "allow_insecure_http=True" in exc.rule
    assert resolve(base_url=url, allow_insecure_http=True).base_url == url
    exc = refused(lambda: resolve(environ={"XSWAP_TEST_URL": url}))
    assert exc.argument == "XSWAP_TEST_URL"
    assert resolve(environ={"XSWAP_TEST_URL": url}, allow_insecure_http=True).base_url == url


def test_the_opt_in_is_kept_by_replace_and_rechecked_when_dropped() -> None:
    insecure = resolve(base_url="http://relay.example", allow_insecure_http=True)
    assert "allow_insecure_http=True" in repr(insecure)
    moved = insecure.replace(base_url="http://other.example")
    assert moved.base_url == "http://other.example"
    assert refused(lambda: insecure.replace(allow_insecure_http=False)).argument == "base_url"
    secure = resolve()
    refused(lambda: secure.replace(base_url="http://relay.example"))
    assert secure.replace(
        base_url="http://relay.example", allow_insecure_http=True
    ).allow_insecure_http
    refused(lambda: secure.replace(allow_insecure_http="yes"))  # type: ignore[arg-type]
    refused(lambda: resolve(allow_insecure_http=1))


@pytest.mark.parametrize(
    "url",
    [
        "https://alice:hunter2-pw@relay.example",
        "https://hunter2-pw@relay.example",
        "http://alice:hunter2-pw@localhost:8787",
    ],
)
def test_credentials_in_a_base_url_are_refused_and_never_shown(url: str) -> None:
    exc = refused(lambda: resolve(base_url=url), secret="hunter2-pw")
    assert "user:password@" in exc.rule
    exc = refused(lambda: resolve(environ={"XSWAP_TEST_URL": url}), secret="hunter2-pw")
    assert exc.argument == "XSWAP_TEST_URL"
    with pytest.raises(errors.InvalidInputError) as info:
        RelayerClient(base_url=url)
    assert "hunter2-pw" not in str(info.value)


@pytest.mark.parametrize(
    ("url", "rule"),
    [
        ("https://relay.example/?key=1", "query"),
        ("https://relay.example/#frag", "fragment"),
        ("https://relay.example/#", "fragment"),
        ("https://relay example", "spaces"),
        ("https://relay.example\n", "spaces"),
        ("https://relay.exämple", "ASCII"),
        ("http://[::1", "valid absolute URL"),
        ("ftp://relay.example", "http:// or https://"),
        ("relay.example", "http:// or https://"),
        (None, "must be a string"),
    ],
)
def test_malformed_base_urls_are_refused(url: Any, rule: str) -> None:
    assert rule in refused(lambda: check_base_url(url)).rule


@given(st.text(max_size=40))
def test_any_base_url_is_accepted_or_refused_as_invalid_input(url: str) -> None:
    try:
        checked = check_base_url(url)
    except errors.InvalidInputError:
        return
    parsed = httpx.URL(checked)
    assert parsed.scheme == "https" or is_loopback_host(parsed.host)
    assert not parsed.userinfo
    assert not parsed.query


def test_repr_never_shows_the_key() -> None:
    options = resolve(api_key=KEY, headers={"Authorization": "Bearer tok-123456"})
    assert KEY not in repr(options)
    assert "tok-123456" not in repr(options)


# ---------------------------------------------------------------------------- timeouts


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, -1, 0, 0.0, True, "5", 10**400])
def test_bad_float_timeouts_are_refused(bad: Any) -> None:
    exc = refused(lambda: normalize_timeout(bad))
    assert exc.argument == "timeout"
    refused(lambda: resolve(timeout=bad))
    refused(lambda: resolve().replace(timeout=bad))


def test_timeout_rules_are_clear() -> None:
    assert "not NaN" in refused(lambda: normalize_timeout(math.nan)).rule
    assert "None for no limit" in refused(lambda: normalize_timeout(math.inf)).rule
    assert "above zero" in refused(lambda: normalize_timeout(0)).rule


@pytest.mark.parametrize("phase", ["connect", "read", "write", "pool"])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -2.0, 0.0])
def test_each_phase_of_an_httpx_timeout_is_checked(phase: str, bad: float) -> None:
    timeout = httpx.Timeout(10.0, **{phase: bad})
    exc = refused(lambda: normalize_timeout(timeout))
    assert exc.argument == f"timeout.{phase}"


def test_good_timeouts_are_kept() -> None:
    assert normalize_timeout(None) == httpx.Timeout(None)
    assert normalize_timeout(2) == httpx.Timeout(2.0)
    kept = httpx.Timeout(5.0, read=None)
    assert normalize_timeout(kept) is kept


def test_check_seconds_rules() -> None:
    assert check_seconds(0, argument="t", allow_zero=True) == 0.0
    assert check_seconds(None, argument="t", allow_none=True) is None
    assert refused(lambda: check_seconds(None, argument="t")).rule == "must be a number of seconds"
    assert refused(lambda: check_seconds(-0.5, argument="t", allow_zero=True)).rule == (
        "must be zero or more seconds"
    )


def test_wait_timeouts_must_end() -> None:
    from xswap_sdk._polling import check_wait_arguments

    check_wait_arguments(0, 0.5)
    for bad in (math.nan, math.inf, -1):
        assert refused(lambda bad=bad: check_wait_arguments(bad, 1.0)).argument == "timeout"
    for bad in (math.nan, math.inf, 0):
        exc = refused(lambda bad=bad: check_wait_arguments(5, bad))
        assert exc.argument == "poll_interval"


# ---------------------------------------------------------------------------- deadline, cap


def test_deadline_default_and_rules() -> None:
    options = resolve()
    assert options.deadline == DEFAULT_DEADLINE == 120.0
    assert resolve(deadline=None).deadline is None
    assert resolve(deadline=5).deadline == 5.0
    assert options.replace(deadline=1.5).deadline == 1.5
    assert options.replace(deadline=None).deadline is None
    for bad in (math.nan, math.inf, 0, -1, "10", True):
        assert refused(lambda bad=bad: resolve(deadline=bad)).argument == "deadline"
        assert refused(lambda bad=bad: check_deadline(bad)).argument == "deadline"


def test_max_response_bytes_default_and_rules() -> None:
    assert resolve().max_response_bytes == DEFAULT_MAX_RESPONSE_BYTES
    assert resolve(max_response_bytes=1024).replace(max_response_bytes=2048).max_response_bytes == (
        2048
    )
    for bad in (0, -1, 1.5, True, None):
        exc = refused(lambda bad=bad: resolve(max_response_bytes=bad))
        assert exc.argument == "max_response_bytes"


def test_clip_timeout_bounds_every_phase_by_the_time_left() -> None:
    clipped = clip_timeout(httpx.Timeout(30.0, connect=5.0), 7.5)
    assert (clipped.connect, clipped.read, clipped.write, clipped.pool) == (5.0, 7.5, 7.5, 7.5)
    unlimited = clip_timeout(httpx.Timeout(None), 3.0)
    assert (unlimited.connect, unlimited.read, unlimited.write, unlimited.pool) == (3.0,) * 4
    assert clip_timeout(httpx.Timeout(30.0), -1.0).read == 0.001
