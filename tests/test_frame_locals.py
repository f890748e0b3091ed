"""The frame-locals secrets check: it finds a secret wherever a tracker would, and the
settings layer keeps credentials out of the frames that raise."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from pytest_httpx import HTTPXMock

from xswap_sdk import errors
from xswap_sdk._options import ClientOptions, check_credential

from .frame_locals import Finding, assert_no_secret_in_frames, find_secrets_in_frames
from .support import ADDRESS as TX_ADDRESS
from .support import RELAYER_KEY, TX_ID, resolve
from .support import TEST_SERVICE as SERVICE

SECRET = "sk-live-5f2b9c81d4"
HERE = (__name__,)


class Holder:
    def __init__(self, value: Any) -> None:
        self.inner = value


class Slotted:
    __slots__ = ("token",)

    def __init__(self, token: str) -> None:
        self.token = token


HIDING_PLACES = {
    "a string": lambda: f"Bearer {SECRET}",
    "bytes": lambda: b"api-key: " + SECRET.encode(),
    "a dict value": lambda: {"api-key": SECRET},
    "a dict key": lambda: {SECRET: 1},
    "a nested list": lambda: [[("x", [SECRET])]],
    "an attribute": lambda: Holder(Holder({"k": SECRET})),
    "a slot": lambda: Slotted(SECRET),
    "httpx headers": lambda: httpx.Headers({"api-key": SECRET}),
    "an httpx request": lambda: httpx.Request(
        "GET", "https://x.test/", headers={"Authorization": f"Bearer {SECRET}"}
    ),
    "a request body": lambda: httpx.Request("POST", "https://x.test/", json={"sig": SECRET}),
}


def raise_with(value: Any) -> None:
    held = value  # noqa: F841 - the local under test
    raise errors.APIError("boom")


def raised_here(findings: list[Finding]) -> list[Finding]:
    """The findings in `raise_with`, leaving out the test's own frame (which holds the
    secret it planted)."""
    return [finding for finding in findings if finding.frame.endswith(".raise_with")]


@pytest.mark.parametrize("place", sorted(HIDING_PLACES))
def test_a_planted_secret_is_found_wherever_it_hides(place: str) -> None:
    with pytest.raises(errors.APIError) as info:
        raise_with(HIDING_PLACES[place]())
    assert raised_here(find_secrets_in_frames(info.value, [SECRET], modules=HERE))
    with pytest.raises(AssertionError, match="raise_with"):
        assert_no_secret_in_frames(info.value, [SECRET], modules=HERE)


def test_objects_false_checks_only_what_sentry_would_send() -> None:
    with pytest.raises(errors.APIError) as info:
        raise_with(HIDING_PLACES["an httpx request"]())
    assert (
        raised_here(find_secrets_in_frames(info.value, [SECRET], modules=HERE, objects=False)) == []
    )
    with pytest.raises(errors.APIError) as info:
        raise_with([{"headers": {"api-key": SECRET}}])
    findings = find_secrets_in_frames(info.value, [SECRET], modules=HERE, objects=False)
    assert "[0]['headers']['api-key']" in {f.path for f in raised_here(findings)}


def test_masked_values_and_other_modules_are_not_findings() -> None:
    with pytest.raises(errors.APIError) as info:
        raise_with({"key": SecretStr(SECRET), "nested": [SecretStr(SECRET)]})
    assert raised_here(find_secrets_in_frames(info.value, [SECRET], modules=HERE)) == []
    with pytest.raises(errors.APIError) as info:
        raise_with(SECRET)
    assert find_secrets_in_frames(info.value, [SECRET], modules=("xswap_sdk",)) == []


def test_chained_errors_and_messages_are_searched() -> None:
    def inner() -> None:
        token = SECRET  # noqa: F841
        raise ValueError("inner")

    def outer() -> None:
        try:
            inner()
        except ValueError as exc:
            raise errors.APIError("outer") from exc

    with pytest.raises(errors.APIError) as info:
        outer()
    findings = find_secrets_in_frames(info.value, [SECRET], modules=HERE)
    assert {f.frame.rpartition(".")[2] for f in findings} == {"inner"}

    with pytest.raises(errors.APIError) as info:
        raise errors.APIError(f"key {SECRET} refused")
    with pytest.raises(AssertionError, match="the message of APIError"):
        assert_no_secret_in_frames(info.value, [SECRET], modules=HERE)


# ---------------------------------------------------------------------------- the SDK

BAD_KEY = "sk-live-\u00e9-5f2b9c81d4"  # non-ASCII: refused


@pytest.mark.parametrize(
    "make",
    [
        lambda: ClientOptions.resolve(SERVICE, api_key=BAD_KEY, environ={}),
        lambda: ClientOptions.resolve(SERVICE, api_key=SecretStr(BAD_KEY), environ={}),
        lambda: ClientOptions.resolve(SERVICE, environ={"XSWAP_TEST_API_KEY": BAD_KEY}),
        lambda: ClientOptions.resolve(SERVICE, environ={}).replace(api_key=BAD_KEY),
        lambda: check_credential(BAD_KEY + "\n", argument="jwt"),
    ],
)
def test_a_refused_credential_sits_in_no_frame_of_the_sdk(make: Any) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        make()
    assert_no_secret_in_frames(info.value, [BAD_KEY])


def test_the_environment_sits_in_no_frame_of_the_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    # os.environ's repr shows every variable; a frame holding it leaks them all.
    monkeypatch.setenv("SOME_OTHER_SERVICE_TOKEN", SECRET)
    monkeypatch.setenv("XSWAP_TEST_URL", "http://plain.example")
    with pytest.raises(errors.InvalidInputError) as info:
        ClientOptions.resolve(SERVICE)
    assert_no_secret_in_frames(info.value, [SECRET])


async def test_a_status_error_leaves_the_api_key_in_no_frame(
    relayer: Any, httpx_mock: HTTPXMock, kind: str
) -> None:
    httpx_mock.add_response(status_code=401, json={"success": False, "error": {"code": "A"}})
    with pytest.raises(errors.AuthenticationError) as info:
        await resolve(relayer.get_relay_status(TX_ID))
    assert_no_secret_in_frames(info.value, [RELAYER_KEY])


@pytest.mark.parametrize(
    "answer",
    [
        lambda: httpx.Response(500, json={"success": False, "error": {"code": "X"}}),
        lambda: httpx.Response(200, text="<html>proxy</html>"),
        lambda: httpx.Response(307, headers={"location": "https://elsewhere.example/x"}),
    ],
    ids=["5xx", "unusable 2xx", "redirect"],
)
async def test_other_failures_leave_the_api_key_in_no_frame(
    relayer: Any, httpx_mock: HTTPXMock, answer: Any
) -> None:
    httpx_mock.add_callback(lambda request: answer(), is_reusable=True)
    with pytest.raises(errors.APIError) as info:
        await resolve(relayer.submit_tx(to=TX_ADDRESS, call_data="0x", chain_id=8453))
    assert_no_secret_in_frames(info.value, [RELAYER_KEY])


async def test_a_connection_error_leaves_the_api_key_in_no_frame_of_the_sdk(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_exception(httpx.ReadError("gone"), is_reusable=True)
    with pytest.raises(errors.APIConnectionError) as info:
        await resolve(relayer.get_relay_status(TX_ID))
    # httpx's own frames hold its request; the SDK's hold neither it nor the key.
    assert_no_secret_in_frames(info.value, [RELAYER_KEY], objects=False)


async def test_a_refused_jwt_sits_in_no_frame(kind: str, httpx_mock: HTTPXMock) -> None:
    from xswap_sdk import AsyncFlashClient, FlashClient

    jwt = "flash.jwt.secret-77f1c0"
    cls = FlashClient if kind == "sync" else AsyncFlashClient
    client = cls(jwt=jwt, base_url="https://flash.test")
    httpx_mock.add_response(status_code=401, json={"message": "expired"})
    with pytest.raises(errors.AuthenticationError) as info:
        await resolve(client.get_referrals())
    assert_no_secret_in_frames(info.value, [jwt])


def test_an_operation_holds_its_body_and_signatures_sealed() -> None:
    from xswap_sdk._operation import Operation

    signature = "0x" + "5e" * 65
    operation: Operation[Any] = Operation(
        "POST", "/submit", lambda data: data, json={"signature": signature}, secrets=(signature,)
    )
    assert operation.json == {"signature": signature}
    assert operation.secrets == (signature,)
    assert operation.reading(str).json == operation.json
    assert signature not in repr(operation)

    def raise_with_operation(held: Operation[Any]) -> None:
        raise errors.APIError("boom")

    with pytest.raises(errors.APIError) as info:
        raise_with_operation(operation)
    found = find_secrets_in_frames(info.value, [signature], modules=HERE)
    # Only this test's own frame, which made the signature, holds it; not the one
    # that held nothing but the operation.
    assert {finding.frame.rpartition(".")[2] for finding in found} == {
        "test_an_operation_holds_its_body_and_signatures_sealed"
    }
