"""The fault server itself: each fault does what it says, over real sockets, and the
server counts what it received and stops by itself."""

from __future__ import annotations

import json
import socket
import time

import httpx
import pytest

from .faultserver import (
    FaultServer,
    ReceivedRequest,
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
    text_reply,
    truncated_json,
)


def test_a_plain_answer_and_the_request_record() -> None:
    with FaultServer(json_reply({"ok": True}, headers={"X-Request-Id": "r-1"})) as server:
        response = httpx.post(
            server.url + "/api/submit-tx?x=1",
            json={"chainId": 8453},
            headers={"api-key": "k-123"},
        )
        assert response.status_code == 200
        assert response.json() == {"ok": True}
        assert response.headers["x-request-id"] == "r-1"
        (request,) = server.requests
    assert request.method == "POST"
    assert (request.path, request.query, request.target) == (
        "/api/submit-tx",
        "x=1",
        "/api/submit-tx?x=1",
    )
    assert request.header("API-KEY") == "k-123"
    assert request.json() == {"chainId": 8453}


def test_replies_are_queued_then_the_default_answers() -> None:
    with FaultServer(json_reply(1), json_reply(2)) as server:
        server.enqueue(json_reply(3))
        answers = [httpx.get(server.url + "/n").json() for _ in range(3)]
        fallback = httpx.get(server.url + "/n")
    assert answers == [1, 2, 3]
    assert fallback.status_code == 500
    assert "no reply planned for GET /n" in fallback.text
    assert len(server.requests) == 4


def test_routes_answer_every_time_and_plans_can_read_the_request() -> None:
    def echo(request: ReceivedRequest) -> Reply:
        return json_reply({"seen": request.json()})

    routes = {"/auth/message": json_reply({"message": "sign me"})}
    with FaultServer(echo, routes=routes) as server:
        assert httpx.get(server.url + "/auth/message").json() == {"message": "sign me"}
        assert httpx.get(server.url + "/auth/message").json() == {"message": "sign me"}
        assert httpx.post(server.url + "/swap", json=[1]).json() == {"seen": [1]}


def test_a_chunked_request_body_is_read() -> None:
    def parts() -> object:
        yield b'{"a":'
        yield b" 1}"

    with FaultServer(json_reply({})) as server:
        httpx.post(server.url + "/x", content=parts())
    assert server.requests[0].json() == {"a": 1}


@pytest.mark.parametrize(
    ("reply", "status", "body"),
    [
        (success_false(), 200, {"success": False}),
        (code_error(), 200, {"code": 1001}),
        (json_reply({"detail": "busy"}, 503), 503, {"detail": "busy"}),
    ],
)
def test_error_shaped_envelopes(reply: Reply, status: int, body: dict[str, object]) -> None:
    with FaultServer(reply) as server:
        response = httpx.get(server.url + "/")
    assert response.status_code == status
    assert body.items() <= response.json().items()


def test_truncated_json_is_a_complete_answer_with_a_broken_body() -> None:
    with FaultServer(truncated_json()) as server:
        response = httpx.get(server.url + "/")
    assert response.status_code == 200
    assert response.text.startswith('{"success": true')
    with pytest.raises(json.JSONDecodeError):
        response.json()


def test_html_and_bad_charsets() -> None:
    with FaultServer(html_reply(), bad_charset("utf-16"), bad_charset("rot13", 503)) as server:
        page = httpx.get(server.url + "/")
        utf16 = httpx.get(server.url + "/")
        rot13 = httpx.get(server.url + "/")
    assert page.headers["content-type"].startswith("text/html")
    assert b"<html>" in page.content
    assert utf16.status_code == 502
    assert utf16.headers["content-type"] == "text/html; charset=utf-16"
    assert len(utf16.content) % 2 == 1  # not decodable as UTF-16
    assert rot13.headers["content-type"] == "text/html; charset=rot13"
    with pytest.raises((TypeError, LookupError, UnicodeError)):
        _ = rot13.text  # what the SDK must not let escape


def test_deeply_nested_body() -> None:
    with FaultServer(deeply_nested(1000)) as server:
        content = httpx.get(server.url + "/").content
    assert content == b"[" * 1000 + b"]" * 1000


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_redirects_are_sent_and_not_followed_by_default(status: int) -> None:
    with FaultServer(redirect(status)) as server:
        response = httpx.post(server.url + "/swap", json={})
    assert response.status_code == status
    assert response.headers["location"] == "https://elsewhere.example/steal?k=1"
    assert len(server.requests) == 1


def test_a_followed_redirect_reaches_the_other_origin() -> None:
    # What a caller's http_client=httpx.Client(follow_redirects=True) would do.
    with FaultServer(json_reply({"got": "there"})) as target:  # noqa: SIM117
        with FaultServer(redirect(307, target.url + "/landing")) as origin:
            with httpx.Client(follow_redirects=True) as client:
                response = client.post(origin.url + "/swap", json={"pay": 1})
    assert response.json() == {"got": "there"}
    assert target.requests[0].json() == {"pay": 1}  # a 307 re-posts the payload


def test_dripping_takes_a_byte_per_interval() -> None:
    body = b'{"ok": 1}'
    with FaultServer(dripping(body, interval=0.02)) as server:
        started = time.monotonic()
        response = httpx.get(server.url + "/", timeout=1.0)  # each read is well within 1 s
        elapsed = time.monotonic() - started
    assert response.content == body
    assert elapsed >= 0.02 * (len(body) - 1)


async def test_dripping_outlasts_a_read_timeout_without_tripping_it() -> None:
    body = b"x" * 30
    with FaultServer(dripping(body, interval=0.01)) as server:
        started = time.monotonic()
        async with httpx.AsyncClient(timeout=0.2) as client:
            response = await client.get(server.url + "/")
        elapsed = time.monotonic() - started
    assert response.content == body
    assert elapsed > 0.25  # longer than the read timeout: only a total deadline stops it


def test_a_huge_body_is_streamed_and_stops_when_the_client_does() -> None:
    size = 50 * 1024 * 1024
    with FaultServer(huge(size)) as server:
        with httpx.stream("GET", server.url + "/") as response:
            assert "content-length" not in response.headers
            read = 0
            for chunk in response.iter_raw():
                read += len(chunk)
                if read >= 1 << 20:
                    break
        time.sleep(0.2)
        sent = server.bytes_sent
    assert read >= 1 << 20
    assert sent < size // 4  # the server stopped making it when the client left


def test_a_huge_body_is_all_there_when_read_to_the_end() -> None:
    with FaultServer(huge(3 * 1024 * 1024 + 7, declare_length=True)) as server:
        response = httpx.get(server.url + "/")
    assert int(response.headers["content-length"]) == len(response.content) == 3 * 1024 * 1024 + 7
    assert len(response.json()["data"]) == len(response.content) - len(b'{"data": ""}')


def test_a_connection_closed_mid_body() -> None:
    with FaultServer(closed_mid_body(sent=10)) as server:
        with pytest.raises(httpx.RemoteProtocolError):
            httpx.get(server.url + "/")
        assert len(server.requests) == 1


async def test_a_connection_reset_after_the_request_was_read() -> None:
    with FaultServer(reset_after_request()) as server:
        async with httpx.AsyncClient() as client:
            with pytest.raises((httpx.ReadError, httpx.RemoteProtocolError)):
                await client.post(server.url + "/api/submit-tx", json={"n": 1})
        assert server.requests[0].json() == {"n": 1}  # it arrived, then the line went dead


def test_a_connection_closed_without_an_answer() -> None:
    with FaultServer(closed_after_request()) as server:
        with pytest.raises(httpx.RemoteProtocolError):
            httpx.get(server.url + "/")
        assert len(server.requests) == 1


def test_a_delayed_answer_trips_the_read_timeout() -> None:
    with FaultServer(delayed(json_reply({}), 1.0)) as server:
        with pytest.raises(httpx.ReadTimeout):
            httpx.get(server.url + "/", timeout=0.1)
        assert len(server.requests) == 1


def test_text_reply_takes_any_content_type() -> None:
    with FaultServer(text_reply("busy", 503, "text/plain; charset=base64")) as server:
        response = httpx.get(server.url + "/")
    assert (response.status_code, response.content) == (503, b"busy")


def test_the_server_stops_itself_when_idle_and_frees_its_port() -> None:
    server = FaultServer(idle_timeout=0.2).start()
    port = server.port
    deadline = time.monotonic() + 5
    while server.running and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not server.running
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass


def test_leaving_the_block_stops_a_dripping_answer_at_once() -> None:
    with FaultServer(dripping(b"x" * 10_000, interval=0.5)) as server:
        client = httpx.Client(timeout=5)
        with client.stream("GET", server.url + "/") as response:
            assert response.status_code == 200
            started = time.monotonic()
            server.stop()
            with pytest.raises(httpx.HTTPError):
                response.read()
        client.close()
    assert time.monotonic() - started < 3


async def test_an_sdk_client_talks_to_it(kind: str) -> None:
    # The lead's fault matrix drives the real clients like this, sync and async.
    from xswap_sdk import AsyncRelayerClient, RelayerClient

    from .support import RELAYER_KEY, TX_ID, relayer_ok, resolve, tx_record

    with FaultServer(json_reply(relayer_ok(tx_record("PENDING")))) as server:
        cls = RelayerClient if kind == "sync" else AsyncRelayerClient
        client = cls(api_key=RELAYER_KEY, base_url=server.url, max_retries=0)
        record = await resolve(client.get_relay_status(TX_ID))
        await resolve(client.close() if kind == "sync" else client.aclose())
    assert record.status == "PENDING"
    (request,) = server.requests
    assert request.header("api-key") == RELAYER_KEY
    assert request.path.endswith(TX_ID) or TX_ID in request.query
