"""The sandbox's tamper rules: what they change, how often, and what is recorded."""

from __future__ import annotations

import pytest

from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox.faults import REMOVE, set_path

from .support import TEST_ADDRESS

QUOTE = (
    "/flash/quote?inputAmount=5000000&outputToken=0x4200000000000000000000000000000000000006"
    f"&chainId=8453&from={TEST_ADDRESS}&slippage=0.5"
)


def test_a_tamper_rule_changes_the_answer_the_chosen_number_of_times() -> None:
    with Sandbox() as sb:
        http = sb.http_client()
        rule = sb.faults.tamper_flash_quote(
            {"swap_router_address": "0x" + "66" * 20, "expires_at": REMOVE}, times=2
        )
        answers = [http.get(sb.base_url + QUOTE).json() for _ in range(3)]
        assert [a["swap_router_address"] for a in answers[:2]] == ["0x" + "66" * 20] * 2
        assert all("expires_at" not in a for a in answers[:2])
        assert answers[2]["swap_router_address"] != "0x" + "66" * 20
        assert "expires_at" in answers[2]
        assert rule.hits == 2
        assert [r.fault for r in sb.requests] == ["tamper", "tamper", None]
        assert all(r.processed for r in sb.requests)


def test_error_answers_are_left_alone_and_bodies_are_recorded() -> None:
    with Sandbox() as sb:
        http = sb.http_client()
        sb.faults.tamper_flash_chains(8453, {"domain": 0}, times=None)
        sb.faults.tamper(lambda body: {"replaced": True}, service="flash", path="/auth/message")
        chains = http.get(sb.base_url + "/flash/supported-chains").json()
        assert {c["id"]: c["domain"] for c in chains}[8453] == 0
        assert {c["id"]: c["domain"] for c in chains}[42161] == 3
        refused = http.post(sb.base_url + "/flash/auth/message", json={})
        assert refused.status_code == 400  # the service's own error, untouched
        assert sb.requests[-1].fault is None
        answered = http.post(
            sb.base_url + "/flash/auth/message", json={"userAddress": "0x" + "11" * 20}
        )
        assert answered.json() == {"replaced": True}
        recorded = sb.requests[-1]
        assert b"userAddress" in recorded.body
        assert "userAddress" not in repr(recorded)


def test_the_login_message_can_be_rewritten_from_the_honest_one() -> None:
    with Sandbox() as sb:
        http = sb.http_client()
        sb.faults.tamper_login_message(lambda text: text.replace("sandbox.invalid", "evil.example"))
        body = http.post(
            sb.base_url + "/flash/auth/message", json={"userAddress": TEST_ADDRESS}
        ).json()
        assert body["message"].startswith("evil.example wants you to sign in")


def test_set_path_and_bad_rules() -> None:
    document = {"a": [{"b": 1}], "c": 2}
    set_path(document, "a.0.b", 5)
    set_path(document, "c", REMOVE)
    assert document == {"a": [{"b": 5}]}
    with pytest.raises(KeyError):
        set_path(document, "x.y", 1)
    with Sandbox() as sb, pytest.raises(ValueError):
        sb.faults.tamper("not a function")  # type: ignore[arg-type]
    assert repr(REMOVE) == "REMOVE"
