"""The emulated relayer on the wire: envelopes, codes, validation and the life of a
transaction."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from xswap_sdk.sandbox import RelayerTimings, Sandbox

USDC_ON_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
TX = {"to": USDC_ON_BASE, "callData": "0xa9059cbb", "chainId": 8453}


@pytest.fixture
def key(sb: Sandbox) -> dict[str, str]:
    return {"api-key": sb.relayer.api_key}


def submit(http: httpx.Client, key: dict[str, str], **fields: Any) -> str:
    response = http.post("/relayer/api/submit-tx", json={**TX, **fields}, headers=key)
    assert response.status_code == 200, response.text
    tx_id: str = response.json()["data"]["txId"]
    return tx_id


def record(http: httpx.Client, key: dict[str, str], tx_id: str, **params: str) -> Any:
    response = http.get("/relayer/api/tx", params={"id": tx_id, **params}, headers=key)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def test_success_envelope_and_a_24_hex_id(http: httpx.Client, key: dict[str, str]) -> None:
    body = http.post("/relayer/api/submit-tx", json=TX, headers=key).json()
    assert body["success"] is True
    assert re.fullmatch(r"[0-9a-f]{24}", body["data"]["txId"])
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", body["timestamp"])


@pytest.mark.parametrize(
    ("headers", "code"), [({}, "AUTH_001"), ({"api-key": "someone-elses"}, "AUTH_002")]
)
def test_a_missing_or_wrong_key_is_401_in_the_error_envelope(
    http: httpx.Client, headers: dict[str, str], code: str
) -> None:
    response = http.get("/relayer/api/supported-chains", headers=headers)
    assert response.status_code == 401
    body = response.json()
    assert body["success"] is False
    assert body["error"]["code"] == code
    assert set(body["error"]) == {"code", "message", "category", "details", "traceId"}
    assert "timestamp" in body


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ([1, 2], "VALIDATION_001", None),
        ({"callData": "0x", "chainId": 1}, "VALIDATION_002", "to"),
        ({**TX, "to": "0x1234"}, "VALIDATION_003", "to"),
        ({**TX, "callData": "0xabc"}, "VALIDATION_003", "callData"),
        ({**TX, "value": 1.5}, "VALIDATION_003", "value"),
        ({**TX, "gasPrice": "1", "maxFeePerGas": "2"}, "VALIDATION_003", "gasPrice"),
        ({**TX, "chainId": 31337}, "VALIDATION_004", "chainId"),
    ],
)
def test_submit_validation(
    http: httpx.Client, key: dict[str, str], body: Any, code: str, field: str | None
) -> None:
    response = http.post("/relayer/api/submit-tx", json=body, headers=key)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == code
    assert error["category"] == "VALIDATION_ERROR"
    assert (error["details"] or {}).get("field") == field


def test_a_body_that_is_not_json_is_validation_001(http: httpx.Client, key: dict[str, str]) -> None:
    response = http.post("/relayer/api/submit-tx", content=b"{nope", headers=key)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "VALIDATION_001"


def test_payment_required_mode(sb: Sandbox, http: httpx.Client, key: dict[str, str]) -> None:
    sb.relayer.payment_required = True
    response = http.post("/relayer/api/submit-tx", json=TX, headers=key)
    assert response.status_code == 402
    error = response.json()["error"]
    assert (error["code"], error["category"]) == ("PAYMENT_REQUIRED", "PAYMENT")
    assert error["details"]["estimatedCostUSD"] > 0
    assert sb.relayer.transaction_ids == []


def test_a_transaction_moves_through_its_states_as_time_passes(
    sb: Sandbox, http: httpx.Client, key: dict[str, str]
) -> None:
    sb.relayer.timings = RelayerTimings(pickup=1.0, execution=4.0)
    tx_id = submit(http, key, gasLimit="90000")
    first = record(http, key, tx_id)
    assert first["status"] == "NOT_PICKED_UP"
    # Before execution the live service sends these as null, even a given gasLimit.
    for name in ("gasLimit", "gasPrice", "latency", "executionTxHash", "error"):
        assert first[name] is None, name
    sb.wait(1.5)
    assert record(http, key, tx_id)["status"] == "PENDING"
    assert record(http, key, tx_id)["executionTxHash"] is None
    sb.wait(2.0)  # broadcast halfway through PENDING: the hash is known, not yet executed
    broadcast = record(http, key, tx_id)
    assert broadcast["status"] == "PENDING"
    assert re.fullmatch(r"0x[0-9a-f]{64}", broadcast["executionTxHash"])
    assert broadcast["gasLimit"] == "90000"
    sb.wait(2.0)
    done = record(http, key, tx_id)
    assert done["status"] == "EXECUTED"
    assert done["executionTxHash"] == broadcast["executionTxHash"]
    assert done["latency"] == 5000
    assert done["costUSD"] > 0
    assert done["isCharged"] is True


def test_receipt_and_revert_info_on_request(
    sb: Sandbox, http: httpx.Client, key: dict[str, str]
) -> None:
    executed = submit(http, key)
    sb.relayer.fail_next("out of gas")
    failed = submit(http, key)
    sb.wait(10)
    receipt = record(http, key, executed, includeReceipt="true")["receipt"]
    assert receipt["status"] == "success"
    assert receipt["transactionHash"] == record(http, key, executed)["executionTxHash"]
    assert "receipt" not in record(http, key, executed)
    assert record(http, key, failed, includeRevertInfo="true")["revertInfo"] == {
        "reason": "out of gas"
    }


def test_scripted_failure_and_retry(sb: Sandbox, http: httpx.Client, key: dict[str, str]) -> None:
    sb.relayer.fail_next("execution reverted: STF", label="doomed")
    sb.relayer.retry_next()
    fine = submit(http, key, label="fine")  # the failure waits for its label
    doomed = submit(http, key, label="doomed")
    statuses = []
    for _ in range(12):
        statuses.append(record(http, key, fine)["status"])
        sb.wait(0.5)
    assert "NEEDS_TO_BE_RETRIED" in statuses
    assert statuses[-1] == "EXECUTED"
    assert record(http, key, fine)["retries"] == 1
    failed = record(http, key, doomed)
    assert (failed["status"], failed["error"]) == ("FAILED", "execution reverted: STF")
    assert failed["executionTxHash"] is None


def test_failing_a_transaction_in_flight(
    sb: Sandbox, http: httpx.Client, key: dict[str, str]
) -> None:
    tx_id = submit(http, key)
    sb.relayer.fail(tx_id, "nonce too low")
    sb.wait(60)
    assert record(http, key, tx_id)["status"] == "FAILED"
    with pytest.raises(ValueError, match="already finished"):
        sb.relayer.fail(tx_id)


def test_unknown_transaction_is_404(http: httpx.Client, key: dict[str, str]) -> None:
    response = http.get("/relayer/api/tx", params={"id": "0" * 24}, headers=key)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "TX_NOT_FOUND"


def test_submit_sync_waits_in_sandbox_time(
    sb: Sandbox, http: httpx.Client, key: dict[str, str]
) -> None:
    started = sb.clock.time()
    response = http.post(
        "/relayer/api/submit-tx-sync", json={"tx": TX, "timeoutMs": 30_000}, headers=key
    )
    assert response.json()["data"]["status"] == "EXECUTED"
    assert sb.clock.time() - started == pytest.approx(2.0)  # the default timings


def test_submit_sync_answers_the_latest_record_on_timeout(
    sb: Sandbox, http: httpx.Client, key: dict[str, str]
) -> None:
    sb.relayer.timings = RelayerTimings(pickup=5.0)
    started = sb.clock.time()
    response = http.post(
        "/relayer/api/submit-tx-sync", json={"tx": TX, "timeoutMs": 1000}, headers=key
    )
    assert response.json()["data"]["status"] == "NOT_PICKED_UP"
    assert sb.clock.time() - started == pytest.approx(1.0)


@pytest.mark.parametrize("body", [{"timeoutMs": 1000}, {"tx": TX, "timeoutMs": 999}])
def test_submit_sync_validation(http: httpx.Client, key: dict[str, str], body: Any) -> None:
    response = http.post("/relayer/api/submit-tx-sync", json=body, headers=key)
    assert response.status_code == 400


def test_account_info_tracks_what_executions_cost(
    sb: Sandbox, http: httpx.Client, key: dict[str, str]
) -> None:
    address = "0x5a3ca05337a87116a27a21b11cde16d85efb3586"
    before = http.get("/relayer/api/user", params={"address": address}, headers=key).json()
    assert before["data"]["address"] == "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586"
    tx_id = submit(http, key)
    pending = http.get("/relayer/api/user", params={"address": address}, headers=key).json()
    assert pending["data"]["pendingBalance"] > 0
    sb.wait(10)
    cost = record(http, key, tx_id)["costUSD"]
    after = http.get("/relayer/api/user", params={"address": address}, headers=key).json()
    assert after["data"]["pendingBalance"] == 0
    assert after["data"]["availableBalance"] == pytest.approx(
        before["data"]["availableBalance"] - cost
    )


def test_supported_chains_are_the_client_library_shape(
    http: httpx.Client, key: dict[str, str]
) -> None:
    chains = http.get("/relayer/api/supported-chains", headers=key).json()["data"]
    base = next(chain for chain in chains if chain["id"] == 8453)
    assert set(base) == {"id", "name", "iconUrl", "isTestnet", "nativeCurrency", "blockExplorers"}
    assert {1, 10, 56, 137, 8453, 42161} <= {chain["id"] for chain in chains}
