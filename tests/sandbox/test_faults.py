"""Fault rules: what they match, how often they fire, and what each kind does in-process."""

from __future__ import annotations

import httpx
import pytest

from xswap_sdk._clock import VirtualClock
from xswap_sdk.sandbox import Sandbox

TX = {"to": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "callData": "0x", "chainId": 8453}


@pytest.fixture
def key(sb: Sandbox) -> dict[str, str]:
    return {"api-key": sb.relayer.api_key}


def chains(http: httpx.Client, key: dict[str, str]) -> httpx.Response:
    return http.get("/relayer/api/supported-chains", headers=key)


def test_a_rule_fires_the_chosen_number_of_times_on_matching_requests(
    sb: Sandbox, http: httpx.Client, key: dict[str, str]
) -> None:
    rule = sb.faults.server_error(502, service="relayer", method="get", path="/api/*", times=2)
    assert http.get("/routing/tokens").status_code == 200  # another service
    assert http.post("/relayer/api/submit-tx", json=TX, headers=key).status_code == 200
    assert [chains(http, key).status_code for _ in range(3)] == [502, 502, 200]
    assert rule.hits == 2
    assert sb.faults.rules == []


def test_an_error_rule_answers_in_the_service_shape_without_handling(
    sb: Sandbox, http: httpx.Client, key: dict[str, str]
) -> None:
    sb.faults.rate_limit(retry_after=2.5, path="/api/submit-tx")
    response = http.post("/relayer/api/submit-tx", json=TX, headers=key)
    assert response.status_code == 429
    assert response.headers["retry-after"] == "2.5"
    assert response.json()["error"]["code"] == "RATE_LIMIT_EXCEEDED"
    assert sb.relayer.transaction_ids == []
    assert sb.requests[-1].processed is False
    assert sb.requests[-1].fault == "rate_limit"


def test_refused_connections_never_reach_the_service(
    sb: Sandbox, http: httpx.Client, key: dict[str, str]
) -> None:
    sb.faults.refuse_connection(service="relayer", times=None)
    with pytest.raises(httpx.ConnectError):
        http.post("/relayer/api/submit-tx", json=TX, headers=key)
    assert sb.relayer.transaction_ids == []
    seen = sb.requests[-1]
    assert (seen.status, seen.processed, seen.fault) == (None, False, "refuse_connection")


def test_a_drop_after_processing_keeps_what_the_request_did(
    sb: Sandbox, http: httpx.Client, key: dict[str, str]
) -> None:
    sb.faults.drop_after_processing(method="POST")
    with pytest.raises(httpx.RemoteProtocolError):
        http.post("/relayer/api/submit-tx", json=TX, headers=key)
    assert len(sb.relayer.transaction_ids) == 1
    assert sb.requests[-1].processed is True


def test_latency_moves_virtual_time_and_can_time_out(
    sb: Sandbox, http: httpx.Client, key: dict[str, str]
) -> None:
    assert isinstance(sb.clock, VirtualClock)
    sb.faults.latency(3, service="relayer", times=None)
    sb.faults.latency(1, service="relayer", path="/api/submit-tx")
    before = sb.clock.time()
    assert chains(http, key).status_code == 200
    assert sb.clock.time() - before == 3
    with pytest.raises(httpx.ReadTimeout):
        http.post("/relayer/api/submit-tx", json=TX, headers=key, timeout=httpx.Timeout(5, read=2))
    assert sb.clock.time() - before == 5  # 3 + the 2 s the client waited
    assert len(sb.relayer.transaction_ids) == 1  # handled, but the answer never came
    assert sb.requests[-1].fault == "timeout"
    assert sb.clock.sleeps == []  # server-side waits are not client sleeps


def test_removing_and_clearing_rules(sb: Sandbox, http: httpx.Client, key: dict[str, str]) -> None:
    rule = sb.faults.server_error(times=None)
    sb.faults.remove(rule)
    assert chains(http, key).status_code == 200
    sb.faults.server_error(times=None)
    sb.faults.clear()
    assert chains(http, key).status_code == 200


@pytest.mark.parametrize(
    "call",
    [
        lambda f: f.server_error(404),
        lambda f: f.latency(-1),
        lambda f: f.rate_limit(times=0),
        lambda f: f.refuse_connection(service="bank"),
        lambda f: f.drop_after_processing(path="api/tx"),
    ],
)
def test_bad_rules_are_refused(sb: Sandbox, call: object) -> None:
    with pytest.raises(ValueError):
        call(sb.faults)  # type: ignore[operator]
