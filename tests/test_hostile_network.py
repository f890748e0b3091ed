"""Every client against a hostile network and a broken service, over real sockets.

A fault matrix: each fault below, for each of the three services, for a read and for a
request that moves money, with the blocking and the async client. The fault server
(tests/faultserver.py) counts what reached it, so each case shows the SDK's typed error,
its ``outcome_unknown``, and how often the request was sent: reads retried by the policy,
money never sent twice, the process alive whatever the bytes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xswap_sdk import (
    AsyncFlashClient,
    AsyncRelayerClient,
    AsyncRoutingClient,
    FlashClient,
    RelayerClient,
    RoutingClient,
    SystemClock,
    VirtualClock,
    errors,
)

from .faultserver import (
    FaultServer,
    Reply,
    bad_charset,
    closed_after_request,
    closed_mid_body,
    code_error,
    deeply_nested,
    delayed,
    dripping,
    html_reply,
    huge,
    json_reply,
    redirect,
    reset_after_request,
    success_false,
    truncated_json,
)
from .support import ADDRESS, resolve

KEY = "hostile-key-5b2e9c71"
JWT = "hostile.jwt.token-8d3f"
SIGNATURE = "0x" + "1b" * 65


@dataclass(frozen=True)
class Call:
    """One operation of one service: how to build its client and make the call."""

    service: str
    money: bool
    clients: tuple[type[Any], type[Any]]
    call: Callable[[Any], Any]
    credentials: dict[str, str]


CALLS = [
    Call(
        "relayer",
        False,
        (RelayerClient, AsyncRelayerClient),
        lambda c: c.get_relay_status("65f1a2b3c4d5e6f708192a3b"),
        {"api_key": KEY},
    ),
    Call(
        "relayer",
        True,
        (RelayerClient, AsyncRelayerClient),
        lambda c: c.submit_tx(to=ADDRESS, call_data="0x", chain_id=8453),
        {"api_key": KEY},
    ),
    Call(
        "routing",
        False,
        (RoutingClient, AsyncRoutingClient),
        lambda c: c.get_supported_chains(),
        {"api_key": KEY},
    ),
    Call(
        "routing",
        True,
        (RoutingClient, AsyncRoutingClient),
        # A quote this client did not verify: submitted only with the loud opt-in.
        lambda c: c.submit_gasless_swap("gq-1", SIGNATURE, sign_unverified_payload=True),
        {"api_key": KEY},
    ),
    Call(
        "flash",
        False,
        (FlashClient, AsyncFlashClient),
        lambda c: c.get_referrals(),
        {"jwt": JWT},
    ),
    Call(
        "flash",
        True,
        (FlashClient, AsyncFlashClient),
        lambda c: c.submit_swap(
            [{"burnIntent": {}, "signature": SIGNATURE}],
            slippage_bps=50,
            user_address=ADDRESS,
            chain_id=8453,
            swap_router_address=ADDRESS,
            swap_calldata="0x",
        ),
        {"jwt": JWT},
    ),
]


@dataclass(frozen=True)
class Fault:
    """A fault, the error it must end in, and whether a read retries it."""

    name: str
    reply: Callable[[], Reply]
    error: type[errors.XSwapError]
    read_retried: bool


FAULTS = [
    Fault("truncated JSON", truncated_json, errors.APIError, False),
    Fault("HTML page", html_reply, errors.APIError, False),
    Fault("success false", success_false, errors.APIError, False),
    Fault("code 1001", code_error, errors.APIError, False),
    Fault("nested 100,000 deep", deeply_nested, errors.ResponseValidationError, False),
    Fault("utf-16 502 page", bad_charset, errors.InternalServerError, True),
    Fault("rot13 502 page", lambda: bad_charset("rot13"), errors.InternalServerError, True),
    Fault("307 elsewhere", redirect, errors.RedirectError, False),
    Fault("301 elsewhere", lambda: redirect(301), errors.RedirectError, False),
    Fault("body cut short", closed_mid_body, errors.APIConnectionError, True),
    Fault("reset after request", reset_after_request, errors.APIConnectionError, True),
    Fault("closed after request", closed_after_request, errors.APIConnectionError, True),
    Fault("50 MB body", huge, errors.ResponseTooLargeError, False),
    Fault(
        "Retry-After 3600",
        lambda: json_reply({"message": "busy"}, 503, {"Retry-After": "3600"}),
        errors.InternalServerError,
        False,
    ),
]


def client_for(kind: str, call: Call, server: FaultServer, **options: Any) -> Any:
    cls = call.clients[0 if kind == "sync" else 1]
    arguments: dict[str, Any] = {
        "base_url": f"{server.url}/{call.service}",
        "clock": VirtualClock(),
        **call.credentials,
        **options,
    }
    return cls(**arguments)


async def close(client: Any) -> None:
    await resolve(client.close() if hasattr(client, "close") else client.aclose())


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
@pytest.mark.parametrize(
    "call", CALLS, ids=[f"{c.service}-{'money' if c.money else 'read'}" for c in CALLS]
)
async def test_every_fault_ends_in_a_typed_error_with_the_right_outcome(
    kind: str, call: Call, fault: Fault
) -> None:
    with FaultServer() as server:
        for _ in range(3):
            server.enqueue(fault.reply())
        client = client_for(kind, call, server)
        try:
            with pytest.raises(errors.XSwapError) as info:
                await resolve(call.call(client))
        finally:
            await close(client)
        error = info.value
        assert isinstance(error, fault.error), error
        sent = len(server.requests)
        if call.money:
            # Money is sent once, and any answer but a usable success leaves it unknown.
            assert sent == 1
            assert error.outcome_unknown is True, error
        else:
            assert sent == (3 if fault.read_retried else 1)
            assert error.outcome_unknown is False
        # Nothing of the credentials in what the caller sees.
        for secret in (KEY, JWT, SIGNATURE[2:]):
            assert secret not in str(error)
            assert secret not in repr(error)


async def test_a_redirect_is_not_followed_even_by_a_client_that_follows_redirects(
    kind: str,
) -> None:
    with FaultServer() as server:
        server.enqueue(redirect(307, f"{server.url}/elsewhere/api/submit-tx"))
        http_client: httpx.Client | httpx.AsyncClient
        if kind == "sync":
            http_client = httpx.Client(follow_redirects=True)
        else:
            http_client = httpx.AsyncClient(follow_redirects=True)
        cls = RelayerClient if kind == "sync" else AsyncRelayerClient
        client = cls(api_key=KEY, base_url=f"{server.url}/relayer", http_client=http_client)
        with pytest.raises(errors.RedirectError) as info:
            await resolve(client.submit_tx(to=ADDRESS, call_data="0x", chain_id=8453))
        await resolve(http_client.close() if kind == "sync" else http_client.aclose())
        assert [r.path for r in server.requests] == ["/relayer/api/submit-tx"]
        assert info.value.status_code == 307
        assert info.value.location_origin == server.url
        assert info.value.outcome_unknown is True


async def test_a_dripping_answer_ends_at_the_deadline(kind: str) -> None:
    # One byte every 0.1 s never trips a read timeout; the call's deadline stops it.
    with FaultServer() as server:
        server.enqueue(dripping(b'{"success": true, "data": {"id": "' + b"x" * 200 + b'"}}'))
        cls = RelayerClient if kind == "sync" else AsyncRelayerClient
        client = cls(
            api_key=KEY, base_url=f"{server.url}/relayer", clock=SystemClock(), deadline=0.6
        )
        started = time.monotonic()
        with pytest.raises(errors.DeadlineExceededError):
            await resolve(client.get_relay_status("65f1a2b3c4d5e6f708192a3b"))
        assert time.monotonic() - started < 2.0
        await close(client)


async def test_a_silent_server_ends_at_the_read_timeout_and_a_payment_is_not_resent(
    kind: str,
) -> None:
    with FaultServer() as server:
        for _ in range(3):
            server.enqueue(delayed(json_reply({"success": True, "data": {}}), 1.0))
        cls = RelayerClient if kind == "sync" else AsyncRelayerClient
        client = cls(api_key=KEY, base_url=f"{server.url}/relayer", timeout=0.2)
        with pytest.raises(errors.APITimeoutError) as info:
            await resolve(client.submit_tx(to=ADDRESS, call_data="0x", chain_id=8453))
        await close(client)
        assert len(server.requests) == 1
        assert info.value.outcome_unknown is True
        assert "read timed out after 0.2 s" in str(info.value)


async def test_a_wait_ends_on_time_whatever_retry_after_says(kind: str) -> None:
    # The relayer asks to wait 30 s; the 5 s wait ends at 5 s with a WaitTimeoutError.
    clock = VirtualClock()
    with FaultServer() as server:
        server.enqueue(json_reply({"message": "slow down"}, 429, {"Retry-After": "30"}))
        cls = RelayerClient if kind == "sync" else AsyncRelayerClient
        client = cls(api_key=KEY, base_url=f"{server.url}/relayer", clock=clock)
        started = clock.monotonic()
        with pytest.raises(errors.WaitTimeoutError) as info:
            await resolve(client.wait_for_execution_hash("65f1a2b3c4d5e6f708192a3b"))
        await close(client)
        assert clock.monotonic() - started <= 5.0
        assert isinstance(info.value.__cause__, errors.DeadlineExceededError)
        assert len(server.requests) == 1


# ---------------------------------------------------------------------------- any bytes

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["success", "data", "code", "error", "message", "txId", "id", "status"])
            | st.text(max_size=8),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)
bodies = st.one_of(
    st.binary(max_size=300),
    json_values.map(lambda value: json.dumps(value).encode()),
    st.integers(min_value=60, max_value=3000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(min_value=1, max_value=200).map(lambda n: b'{"a":' * n),
)
charsets = st.sampled_from(
    [None, "utf-8", "utf-16", "utf-32", "rot13", "base64", "zlib", "punycode", "nope", ""]
)
statuses = st.sampled_from([200, 201, 204, 301, 307, 400, 401, 404, 409, 429, 500, 502, 503])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=bodies, charset=charsets, status=statuses, which=st.sampled_from(CALLS))
def test_any_answer_ends_in_a_result_or_an_sdk_error(
    body: bytes, charset: str | None, status: int, which: Call
) -> None:
    content_type = "application/json" + (f"; charset={charset}" if charset is not None else "")

    def answer(request: httpx.Request) -> httpx.Response:
        headers = {"content-type": content_type, "location": "https://elsewhere.example/x"}
        return httpx.Response(status, content=body, headers=headers)

    client = which.clients[0](
        base_url=f"https://{which.service}.test",
        clock=VirtualClock(),
        http_client=httpx.Client(transport=httpx.MockTransport(answer)),
        **which.credentials,
    )
    error: errors.XSwapError | None = None
    try:
        which.call(client)
    except errors.XSwapError as exc:  # anything else escapes and fails the test
        error = exc
    finally:
        client.close()
    refused = isinstance(error, errors.APIStatusError) and error.status_code < 500
    if which.money and error is not None and not refused:
        # After a payment was sent, only a usable success says what happened.
        assert isinstance(error, errors.APIError)
        assert error.outcome_unknown, error
