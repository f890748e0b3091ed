"""The framework-free pieces: router, requests, timelines, scripted outcomes, JWTs."""

from __future__ import annotations

import pytest

from xswap_sdk.sandbox import _jwt
from xswap_sdk.sandbox._http import HTTPError, Request, Response, Router
from xswap_sdk.sandbox._world import OutcomeQueue, Timeline


def echo(request: Request) -> Response:
    return Response.json({"params": dict(request.path_params), "q": request.args("q")})


def test_router_matches_templates_and_distinguishes_404_from_405() -> None:
    router = Router()
    router.add("GET", "/balance/{address}", echo)
    answer = router.dispatch(Request("GET", "/balance/0xabc", (("q", "1"), ("q", "2"))))
    assert answer.body == b'{"params":{"address":"0xabc"},"q":["1","2"]}'
    assert router.dispatch(Request("GET", "/balance/0xabc/")).status == 200
    with pytest.raises(HTTPError) as not_allowed:
        router.dispatch(Request("POST", "/balance/0xabc"))
    assert not_allowed.value.status == 405
    assert not_allowed.value.headers == {"Allow": "GET"}
    with pytest.raises(HTTPError) as missing:
        router.dispatch(Request("GET", "/balance/0xabc/more"))
    assert missing.value.status == 404


def test_request_helpers() -> None:
    request = Request("POST", "/x", (("a", "1"),), {"api-key": "k"}, b"{bad")
    assert request.header("API-Key") == "k"
    assert request.arg("a") == "1"
    assert request.arg("b") is None
    with pytest.raises(HTTPError) as bad:
        request.json()
    assert bad.value.status == 400


def test_timeline_reads_what_has_started() -> None:
    timeline = Timeline().then(10, status="A", n=1).then(20, status="B").then(15, n=2)
    assert timeline.at(9) == {}
    assert timeline.at(10) == {"status": "A", "n": 1}
    assert timeline.at(16) == {"status": "A", "n": 2}
    assert timeline.at(25) == {"status": "B", "n": 2}
    assert timeline.changed_at(17) == 15
    assert timeline.settles_at == 20
    timeline.cut(12, status="X")
    assert timeline.at(30) == {"status": "X", "n": 1}


def test_outcome_queue_takes_in_order_honouring_labels() -> None:
    queue: OutcomeQueue[str] = OutcomeQueue()
    queue.push("labelled", 1, label="x")
    queue.push("any", 2)
    assert queue.take("y") == "any"
    assert queue.take("x") == "labelled"
    assert queue.take(None) == "any"
    assert queue.take(None) is None
    with pytest.raises(ValueError, match="positive"):
        queue.push("bad", 0)


def test_jwt_round_trip_and_refusals() -> None:
    secret = b"s" * 32
    token = _jwt.encode({"sub": "me", "exp": 100}, secret)
    assert _jwt.decode(token, secret, now=99) == {"sub": "me", "exp": 100}
    with pytest.raises(_jwt.TokenError, match="expired"):
        _jwt.decode(token, secret, now=100)
    with pytest.raises(_jwt.TokenError, match="signature"):
        _jwt.decode(token, b"other" * 8, now=0)
    body = token.split(".")[1]
    none_alg = _jwt._b64(b'{"alg":"none"}')
    with pytest.raises(_jwt.TokenError, match="algorithm"):
        _jwt.decode(f"{none_alg}.{body}.", secret, now=0)
    with pytest.raises(_jwt.TokenError, match="malformed"):
        _jwt.decode("not-a-token", secret, now=0)
