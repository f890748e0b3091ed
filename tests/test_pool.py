"""The connection pool: its limits, whose timeout applies, the in-flight gate, and the
request the SDK builds in place of ``client.build_request``."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from xswap_sdk import AsyncRelayerClient, RelayerClient, errors
from xswap_sdk._concurrency import pool_size
from xswap_sdk._options import DEFAULT_LIMITS, DEFAULT_TIMEOUT

from .faultserver import FaultServer, ReceivedRequest, Reply, json_reply
from .support import RELAYER_KEY, RELAYER_URL, TX_ID, relayer_ok, tx_record

# -- limits


@pytest.mark.parametrize("cls", [RelayerClient, AsyncRelayerClient])
def test_the_pool_the_sdk_creates_keeps_every_connection_alive(cls: Any) -> None:
    client = cls(api_key=RELAYER_KEY, base_url=RELAYER_URL)
    http_client = client._transport.pool.get()
    assert pool_size(http_client) == DEFAULT_LIMITS.max_connections == 100
    pool = http_client._transport._pool
    assert pool._max_keepalive_connections == 100
    assert http_client.timeout == DEFAULT_TIMEOUT
    assert client._transport.pool.gate.size == 100


@pytest.mark.parametrize("cls", [RelayerClient, AsyncRelayerClient])
def test_limits_configure_the_pool_and_its_gate(cls: Any) -> None:
    limits = httpx.Limits(max_connections=7, max_keepalive_connections=3)
    client = cls(api_key=RELAYER_KEY, base_url=RELAYER_URL, limits=limits)
    assert pool_size(client._transport.pool.get()) == 7
    assert client._transport.pool.gate.size == 7
    # with_options copies share the pool, so they share its gate.
    assert client.with_options(timeout=3)._transport.pool.gate is client._transport.pool.gate


def test_unlimited_connections_have_no_gate() -> None:
    client = RelayerClient(
        api_key=RELAYER_KEY, base_url=RELAYER_URL, limits=httpx.Limits(max_connections=None)
    )
    assert client._transport.pool.gate is None


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        ({"limits": 100}, "must be an httpx.Limits"),
        ({"limits": {"max_connections": 5}}, "must be an httpx.Limits"),
        (
            {"limits": httpx.Limits(max_connections=5), "http_client": httpx.Client()},
            "give your http_client its own limits",
        ),
    ],
)
def test_bad_limits_are_refused_naming_the_argument(kwargs: dict[str, Any], rule: str) -> None:
    with pytest.raises(errors.InvalidInputError, match=rule) as info:
        RelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL, **kwargs)
    assert info.value.argument == "limits"


def test_a_callers_client_is_gated_by_its_own_pool_size() -> None:
    mine = httpx.AsyncClient(limits=httpx.Limits(max_connections=12))
    client = AsyncRelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL, http_client=mine)
    assert client._transport.pool.gate.size == 12
    # A client whose pool cannot be read (a custom transport) is not gated.
    mocked = httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(200)))
    assert pool_size(mocked) is None
    plain = RelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL, http_client=mocked)
    assert plain._transport.pool.gate is None


# -- whose timeout applies


def _recording(timeouts: list[dict[str, Any]]) -> httpx.MockTransport:
    def answer(request: httpx.Request) -> httpx.Response:
        timeouts.append(request.extensions["timeout"])
        return httpx.Response(200, json=relayer_ok(tx_record("EXECUTED")))

    return httpx.MockTransport(answer)


def test_a_callers_client_keeps_its_timeout_unless_the_sdk_is_told_otherwise() -> None:
    seen: list[dict[str, Any]] = []
    mine = httpx.Client(transport=_recording(seen), timeout=httpx.Timeout(7.0, connect=2.0))
    client = RelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL, http_client=mine)
    assert client.timeout == httpx.Timeout(7.0, connect=2.0)
    client.get_relay_status(TX_ID)
    assert seen[-1] == {"connect": 2.0, "read": 7.0, "write": 7.0, "pool": 7.0}
    # The call's own timeout wins over the httpx client's ...
    client.get_relay_status(TX_ID, timeout=3)
    assert seen[-1]["read"] == 3
    # ... and so does a timeout given to the SDK client.
    told = RelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL, http_client=mine, timeout=4)
    assert told.timeout == httpx.Timeout(4)
    told.get_relay_status(TX_ID)
    assert seen[-1]["read"] == 4
    assert client.with_options(timeout=5).timeout == httpx.Timeout(5)


def test_the_sdks_own_pool_uses_the_default_timeout() -> None:
    client = RelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL)
    assert client.timeout == DEFAULT_TIMEOUT


# -- the request, as httpx would have built it


def test_the_request_keeps_the_callers_headers_params_and_cookies() -> None:
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json=relayer_ok(tx_record("EXECUTED")))

    mine = httpx.Client(
        transport=httpx.MockTransport(answer),
        headers={"X-Team": "payments", "User-Agent": "theirs/1", "api-key": "not-this-one"},
        params={"tenant": "acme", "id": "replaced"},
        cookies={"session": "s1"},
    )
    client = RelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL, http_client=mine)
    client.get_relay_status(TX_ID, extra_headers={"X-Trace": "t1"})
    request = sent[-1]
    assert request.headers["x-team"] == "payments"
    assert request.headers["x-trace"] == "t1"
    assert request.headers["user-agent"].startswith("xswap-sdk-python/")
    assert request.headers["api-key"] == RELAYER_KEY  # the credentials always come last
    assert request.headers["cookie"] == "session=s1"
    # The httpx client's parameters come along; a name the SDK sends replaces its own.
    assert request.url.params.multi_items() == [("tenant", "acme"), ("id", TX_ID)]
    # A change to the httpx client's headers is seen by the next request.
    mine.headers["X-Team"] = "treasury"
    client.get_relay_status(TX_ID)
    assert sent[-1].headers["x-team"] == "treasury"
    assert "x-trace" not in sent[-1].headers


def test_the_request_matches_what_httpx_would_build() -> None:
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json=relayer_ok(tx_record("EXECUTED")))

    mine = httpx.Client(transport=httpx.MockTransport(answer))
    client = RelayerClient(api_key=RELAYER_KEY, base_url=RELAYER_URL, http_client=mine)
    client.get_relay_status(TX_ID, include_receipt=True, extra_query={"q": "a b&c"})
    ours = sent[-1]
    theirs = mine.build_request(
        "GET",
        f"{RELAYER_URL}/api/tx",
        params=[("id", TX_ID), ("includeReceipt", "true"), ("q", "a b&c")],
        headers=dict(ours.headers),
    )
    assert str(ours.url) == str(theirs.url)
    assert ours.headers.multi_items() == theirs.headers.multi_items()
    assert ours.extensions == theirs.extensions


# -- the in-flight gate, over real sockets


class _Tally:
    """Counts requests in flight at the server, and the most at once."""

    def __init__(self, hold: float) -> None:
        self.hold = hold
        self.now = 0
        self.most = 0
        self.lock = threading.Lock()

    def __call__(self, _request: ReceivedRequest) -> Reply:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(self.hold)
        with self.lock:
            self.now -= 1
        return json_reply(relayer_ok(tx_record("EXECUTED")))


async def test_an_async_burst_waits_in_the_gate_not_in_the_pool() -> None:
    tally = _Tally(hold=0.02)
    with FaultServer(routes={"/api/tx": tally}) as server:
        client = AsyncRelayerClient(
            api_key=RELAYER_KEY,
            base_url=server.url,
            limits=httpx.Limits(max_connections=4, max_keepalive_connections=4),
            # httpx's pool wait alone would give up long before the burst is through,
            # and no retry may hide that.
            timeout=httpx.Timeout(5.0, pool=0.05),
            max_retries=0,
        )
        results = await asyncio.gather(*(client.get_relay_status(TX_ID) for _ in range(40)))
        await client.aclose()
    assert len(results) == 40
    assert all(r.status == "EXECUTED" for r in results)
    assert tally.most <= 4
    assert len(server.requests) == 40


def test_a_threaded_burst_waits_in_the_gate_not_in_the_pool() -> None:
    tally = _Tally(hold=0.02)
    with FaultServer(routes={"/api/tx": tally}) as server:
        client = RelayerClient(
            api_key=RELAYER_KEY,
            base_url=server.url,
            limits=httpx.Limits(max_connections=3, max_keepalive_connections=3),
            timeout=httpx.Timeout(5.0, pool=0.05),
            max_retries=0,
        )
        with ThreadPoolExecutor(max_workers=12) as threads:
            results = list(threads.map(lambda _: client.get_relay_status(TX_ID), range(24)))
        client.close()
    assert len(results) == 24
    assert tally.most <= 3


@pytest.mark.parametrize("kind", ["sync", "async"])
async def test_waiting_in_the_gate_ends_at_the_deadline_before_anything_is_sent(
    kind: str,
) -> None:
    tally = _Tally(hold=0.3)
    with FaultServer(routes={"/api/tx": tally}) as server:
        limits = httpx.Limits(max_connections=1)
        if kind == "async":
            aclient = AsyncRelayerClient(
                api_key=RELAYER_KEY, base_url=server.url, limits=limits, deadline=0.15
            )
            outcomes = await asyncio.gather(
                *(aclient.get_relay_status(TX_ID) for _ in range(3)), return_exceptions=True
            )
            await aclient.aclose()
        else:
            client = RelayerClient(
                api_key=RELAYER_KEY, base_url=server.url, limits=limits, deadline=0.15
            )
            with ThreadPoolExecutor(max_workers=3) as threads:
                futures = [threads.submit(client.get_relay_status, TX_ID) for _ in range(3)]
                outcomes = [f.exception() or f.result() for f in futures]
            client.close()
        waited = [o for o in outcomes if isinstance(o, errors.DeadlineExceededError)]
    # One request held the only connection past the deadline; the two behind it gave up
    # in the gate, and the server never saw them.
    assert len(server.requests) == 1
    unsent = [e for e in waited if not e.request_sent]
    assert len(unsent) == 2
    assert all(not e.outcome_unknown for e in unsent)


def test_an_async_client_gates_a_burst_in_a_second_event_loop_too() -> None:
    # A notebook or script that calls asyncio.run twice with one client: the gate of the
    # first loop, which made requests wait there, must not refuse to wait in the second.
    tally = _Tally(hold=0.01)
    with FaultServer(routes={"/api/tx": tally}) as server:
        client = AsyncRelayerClient(
            api_key=RELAYER_KEY, base_url=server.url, limits=httpx.Limits(max_connections=1)
        )

        async def burst() -> list[Any]:
            # A pool of its own per loop: httpx's connections belong to the loop too.
            client._transport.pool._client = httpx.AsyncClient(
                limits=httpx.Limits(max_connections=1)
            )
            return await asyncio.gather(*(client.get_relay_status(TX_ID) for _ in range(3)))

        assert len(asyncio.run(burst())) == 3
        assert len(asyncio.run(burst())) == 3
    assert tally.most == 1
