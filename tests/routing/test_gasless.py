"""Gasless swaps: the quote, the submission (sent once), the status, and the whole flow
with a real signature from a fixed key, checked by recovering the signer with
eth_account directly (not with the SDK's own signing code)."""

from __future__ import annotations

import copy
import json
import logging
import re
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest
from eth_account import Account
from eth_account.messages import encode_typed_data
from pytest_httpx import HTTPXMock

from xswap_sdk import errors
from xswap_sdk._clock import VirtualClock
from xswap_sdk.routing import (
    AcquisitionMode,
    GaslessQuote,
    GaslessStatus,
    GaslessSubmission,
    GaslessSwapResult,
)

from ..support import (
    ROUTING_KEY,
    ROUTING_URL,
    SWAP_ID,
    TEST_ADDRESS,
    TEST_PRIVATE_KEY,
    USDC_ARBITRUM,
    USDC_BASE,
    gasless_quote_wire,
    gasless_status_wire,
    permit2_typed_data,
    resolve,
    routing_ok,
)

QUOTE_URL = re.compile(re.escape(f"{ROUTING_URL}/gasless/quote?") + ".*")
SUBMIT_URL = f"{ROUTING_URL}/gasless/submit-swap"
STATUS_URL = f"{ROUTING_URL}/gasless/status?id={SWAP_ID}"
EXECUTION_HASH = "0x" + "e7" * 32
SWAP: dict[str, Any] = {
    "from_chain": 8453,
    "to_chain": 42161,
    "from_token": USDC_BASE,
    "to_token": USDC_ARBITRUM,
    "amount": 1_000_000,
    # The mocked payload has no witness; the SDK's default asks for one.
    "acquisition_mode": 2,
}


def submission_wire(status: str = "submitted", **fields: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "swapId": SWAP_ID,
        "status": status,
        "amountIn": "1000000",
        "amountOut": "997000",
        "executionTxHash": None,
        "feeAmount": "1000",
        "fromToken": USDC_BASE,
        "toToken": USDC_ARBITRUM,
        "fromChain": 8453,
        "toChain": 42161,
        "tachyonTxId": "65f1a2b3c4d5e6f708192a3b",
        "routeKind": {"kind": "directBridge", "bridges": ["cctp"]},
    }
    record.update(fields)
    return record


def recovered_signer(typed_data: dict[str, Any], signature: str) -> str:
    """Recover with eth_account alone; a string chainId is read as the number it names."""
    payload = copy.deepcopy(typed_data)
    payload["domain"]["chainId"] = int(payload["domain"]["chainId"])
    address: str = Account.recover_message(
        encode_typed_data(full_message=payload), signature=signature
    )
    return address


@pytest.fixture
def account() -> Any:
    return Account.from_key(TEST_PRIVATE_KEY)


def test_the_fixed_key_is_the_expected_account(account: Any) -> None:
    assert account.address == TEST_ADDRESS


# ---------------------------------------------------------------------------- quote


async def test_gasless_quote_sends_every_parameter(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(json=routing_ok([gasless_quote_wire()]))
    await resolve(
        routing.get_gasless_quote(
            **{key: value for key, value in SWAP.items() if key != "acquisition_mode"},
            sender=TEST_ADDRESS.lower(),
            receiver=TEST_ADDRESS,
            fee_bps=10,
            allow_multi_bridge=False,
            ranking_mode="speed_max",
            slippage=0.3,
            acquisition_mode=AcquisitionMode.PERMIT2_WITNESS,
            deadline_minutes=20,
            meta="order-42",
            include_providers=["cctp"],
            exclude_providers=["across", "stargate"],
            # What is sent is under test here; the mocked answer is not for this request.
            sign_unverified_payload=True,
        )
    )
    request = httpx_mock.get_requests()[0]
    assert request.url.path == "/gasless/quote"
    assert parse_qsl(request.url.query.decode()) == [
        ("fromChain", "8453"),
        ("toChain", "42161"),
        ("fromToken", USDC_BASE),
        ("toToken", USDC_ARBITRUM),
        ("amount", "1000000"),
        ("sender", TEST_ADDRESS),
        ("receiver", TEST_ADDRESS),
        ("feeBps", "10"),
        ("allowMultiBridge", "false"),
        ("rankingMode", "speed_max"),
        ("slippage", "0.3"),
        ("acquisitionMode", "3"),
        ("deadlineMinutes", "20"),
        ("meta", "order-42"),
        ("includeProvider", "cctp"),
        ("excludeProvider", "across,stargate"),
    ]


@pytest.mark.parametrize("shape", ["object", "array"])
async def test_gasless_quote_is_always_a_list(
    routing: Any, httpx_mock: HTTPXMock, shape: str
) -> None:
    wire = gasless_quote_wire()
    httpx_mock.add_response(json=routing_ok(wire if shape == "object" else [wire]))
    quotes = await resolve(routing.get_gasless_quote(**SWAP, sender=TEST_ADDRESS))
    assert isinstance(quotes, list)
    (quote,) = quotes
    assert isinstance(quote, GaslessQuote)
    assert quote.quote_id == "gq-9a8b7c"
    assert quote.eip712 == permit2_typed_data()  # kept exactly, chainId still a string
    assert quote.eip712["domain"]["chainId"] == "8453"
    assert quote.deadline == 1735691400
    assert quote.quote.from_chain == 8453
    assert quote.quote.amount_out == 997_000
    assert quote.quote.bridge_providers == ["cctp"]
    assert quote.fee.fee_amount == 1000


@pytest.mark.parametrize(
    ("arguments", "argument", "rule"),
    [
        ({"acquisition_mode": 0}, "acquisition_mode", "PERMIT2"),
        ({"acquisition_mode": AcquisitionMode.NATIVE_TOKEN}, "acquisition_mode", "PERMIT2"),
        ({"ranking_mode": "fastest"}, "ranking_mode", "value_max"),
        ({"deadline_minutes": 0}, "deadline_minutes", "greater than 0"),
        ({"meta": {"a": 1}}, "meta", "string"),
        ({"sender": "0xnope"}, "sender", "address"),
    ],
)
async def test_bad_gasless_quote_input_is_refused(
    routing: Any, httpx_mock: HTTPXMock, arguments: dict[str, Any], argument: str, rule: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.get_gasless_quote(**{**SWAP, "sender": TEST_ADDRESS, **arguments}))
    assert info.value.argument == argument
    assert rule in info.value.rule
    assert httpx_mock.get_requests() == []


# ---------------------------------------------------------------------------- submit, status


async def test_submit_posts_quote_id_and_signature(
    routing: Any, httpx_mock: HTTPXMock, account: Any
) -> None:
    signature = "0x" + "ab" * 65
    httpx_mock.add_response(url=SUBMIT_URL, method="POST", json=routing_ok(submission_wire()))
    submission = await resolve(
        routing.submit_gasless_swap("gq-9a8b7c", signature, sign_unverified_payload=True)
    )
    assert json.loads(httpx_mock.get_requests()[0].content) == {
        "quoteId": "gq-9a8b7c",
        "signature": signature,
    }
    assert isinstance(submission, GaslessSubmission)
    assert submission.swap_id == SWAP_ID
    assert submission.relayer_tx_id == "65f1a2b3c4d5e6f708192a3b"  # from tachyonTxId
    assert submission.route_kind == {"kind": "directBridge", "bridges": ["cctp"]}
    assert submission.amount_out == 997_000


async def test_submit_is_sent_once_on_a_5xx_and_says_the_outcome_is_unknown(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=SUBMIT_URL, status_code=503, text="busy", is_reusable=True)
    with pytest.raises(errors.InternalServerError) as info:
        await resolve(
            routing.submit_gasless_swap("gq-9a8b7c", "0x" + "ab" * 65, sign_unverified_payload=True)
        )
    assert len(httpx_mock.get_requests()) == 1
    assert info.value.outcome_unknown is True
    assert "check its status" in str(info.value)


async def test_submit_is_not_retried_after_a_read_timeout(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_exception(httpx.ReadTimeout("slow"), url=SUBMIT_URL, is_reusable=True)
    with pytest.raises(errors.APITimeoutError) as info:
        await resolve(
            routing.submit_gasless_swap("gq-9a8b7c", "0x" + "ab" * 65, sign_unverified_payload=True)
        )
    assert len(httpx_mock.get_requests()) == 1
    assert info.value.outcome_unknown is True


async def test_submit_is_retried_when_it_never_left(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_exception(httpx.ConnectError("refused"), url=SUBMIT_URL)
    httpx_mock.add_response(url=SUBMIT_URL, json=routing_ok(submission_wire()))
    submission = await resolve(
        routing.submit_gasless_swap("gq-9a8b7c", "0x" + "ab" * 65, sign_unverified_payload=True)
    )
    assert submission.swap_id == SWAP_ID
    assert len(httpx_mock.get_requests()) == 2


async def test_a_signature_echoed_by_the_service_is_kept_out_of_the_error(
    routing: Any, httpx_mock: HTTPXMock
) -> None:
    signature = "0x" + "5e" * 65
    httpx_mock.add_response(
        url=SUBMIT_URL,
        json={"code": 4001, "message": f"bad signature {signature}", "data": None},
    )
    with pytest.raises(errors.EnvelopeError) as info:
        await resolve(
            routing.submit_gasless_swap("gq-9a8b7c", signature, sign_unverified_payload=True)
        )
    assert signature[2:] not in str(info.value)
    assert info.value.code == 4001


@pytest.mark.parametrize(
    ("quote_id", "signature", "argument"),
    [
        ("", "0x" + "ab" * 65, "quote_id"),
        ("gq-1", "0x" + "ab" * 64, "signature"),
        ("gq-1", "ab" * 65, "signature"),
        ("gq-1", None, "signature"),
    ],
)
async def test_bad_submit_input_is_refused_without_echoing_the_signature(
    routing: Any, httpx_mock: HTTPXMock, quote_id: str, signature: Any, argument: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.submit_gasless_swap(quote_id, signature))
    assert info.value.argument == argument
    assert "abab" not in str(info.value)
    assert httpx_mock.get_requests() == []


async def test_get_gasless_status(routing: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=STATUS_URL,
        json=routing_ok(gasless_status_wire("executed", executionTxHash=EXECUTION_HASH)),
    )
    status = await resolve(routing.get_gasless_status(SWAP_ID))
    assert isinstance(status, GaslessStatus)
    assert status.execution_tx_hash == EXECUTION_HASH
    assert status.from_ == TEST_ADDRESS
    assert status.relayer_tx_id == "65f1a2b3c4d5e6f708192a3b"
    assert status.created_at.year == 2025
    assert status.amount_in == 1_000_000
    assert status.model_dump(mode="json", exclude_none=True)["from"] == TEST_ADDRESS
    assert httpx_mock.get_requests()[0].headers["api-key"]


# ---------------------------------------------------------------------------- the whole flow


async def test_gasless_swap_end_to_end_signs_the_quote_as_given(
    routing: Any, httpx_mock: HTTPXMock, account: Any
) -> None:
    httpx_mock.add_response(url=QUOTE_URL, json=routing_ok([gasless_quote_wire()]))
    httpx_mock.add_response(url=SUBMIT_URL, json=routing_ok(submission_wire()))
    result = await resolve(routing.gasless_swap(account, **SWAP))

    # No chain list: the spender is the routing contract the registry pins on Base.
    quote_request, submit_request = httpx_mock.get_requests()
    query = dict(parse_qsl(quote_request.url.query.decode()))
    assert query["sender"] == TEST_ADDRESS  # the signer's address
    assert query["acquisitionMode"] == "2"
    body = json.loads(submit_request.content)
    assert body["quoteId"] == "gq-9a8b7c"
    assert recovered_signer(permit2_typed_data(), body["signature"]) == TEST_ADDRESS

    assert isinstance(result, GaslessSwapResult)
    assert result.swap_id == SWAP_ID
    assert result.quote.quote_id == "gq-9a8b7c"
    assert result.record is None  # not asked to wait
    assert result.status == result.submission.status
    assert body["signature"][2:] not in repr(result)


async def test_gasless_swap_signs_a_numeric_chain_id_and_an_explicit_domain_type(
    routing: Any, httpx_mock: HTTPXMock, account: Any
) -> None:
    typed_data = permit2_typed_data(chain_id=8453)
    typed_data["types"]["EIP712Domain"] = [
        {"name": "name", "type": "string"},
        {"name": "chainId", "type": "uint256"},
        {"name": "verifyingContract", "type": "address"},
    ]
    httpx_mock.add_response(url=QUOTE_URL, json=routing_ok(gasless_quote_wire(eip712=typed_data)))
    httpx_mock.add_response(url=SUBMIT_URL, json=routing_ok(submission_wire()))
    await resolve(routing.gasless_swap(account, **SWAP))
    signature = json.loads(httpx_mock.get_requests()[1].content)["signature"]
    assert recovered_signer(typed_data, signature) == TEST_ADDRESS
    # A different chain would be a different digest: the domain really was signed.
    assert recovered_signer(permit2_typed_data(chain_id=42161), signature) != TEST_ADDRESS


async def test_gasless_swap_signs_the_first_ranked_quote(
    routing: Any, httpx_mock: HTTPXMock, account: Any
) -> None:
    second = gasless_quote_wire(quoteId="gq-2", eip712=permit2_typed_data(nonce="9"))
    httpx_mock.add_response(url=QUOTE_URL, json=routing_ok([gasless_quote_wire(), second]))
    httpx_mock.add_response(url=SUBMIT_URL, json=routing_ok(submission_wire()))
    result = await resolve(routing.gasless_swap(account, **SWAP))
    body = json.loads(httpx_mock.get_requests()[1].content)
    assert body["quoteId"] == "gq-9a8b7c" == result.quote.quote_id
    assert recovered_signer(permit2_typed_data(), body["signature"]) == TEST_ADDRESS


async def test_gasless_swap_waits_until_executed(
    routing: Any, httpx_mock: HTTPXMock, account: Any, clock: VirtualClock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, status_code=404, text="not found")
    for status in ("pending", "relaying"):
        httpx_mock.add_response(url=STATUS_URL, json=routing_ok(gasless_status_wire(status)))
    httpx_mock.add_response(
        url=STATUS_URL,
        json=routing_ok(gasless_status_wire("success", executionTxHash=EXECUTION_HASH)),
    )
    httpx_mock.add_response(url=QUOTE_URL, json=routing_ok(gasless_quote_wire()))
    httpx_mock.add_response(url=SUBMIT_URL, json=routing_ok(submission_wire()))
    result = await resolve(routing.gasless_swap(account, **SWAP, wait=True))
    assert result.status == "success"
    assert result.record is not None
    assert result.execution_tx_hash == EXECUTION_HASH
    assert len(httpx_mock.get_requests()) == 2 + 4
    assert clock.sleeps == [5.0] * 3


async def test_gasless_swap_raises_when_the_submission_failed(
    routing: Any, httpx_mock: HTTPXMock, account: Any
) -> None:
    httpx_mock.add_response(url=QUOTE_URL, json=routing_ok([gasless_quote_wire()]))
    httpx_mock.add_response(url=SUBMIT_URL, json=routing_ok(submission_wire("FAILED")))
    with pytest.raises(errors.SwapFailedError) as info:
        await resolve(routing.gasless_swap(account, **SWAP, wait=True))
    assert info.value.record.swap_id == SWAP_ID
    assert len(httpx_mock.get_requests()) == 2  # no status polling after a failure


async def test_gasless_swap_with_an_unsignable_payload_submits_nothing(
    routing: Any, httpx_mock: HTTPXMock, account: Any
) -> None:
    broken = permit2_typed_data()
    broken["primaryType"] = "Missing"
    httpx_mock.add_response(url=QUOTE_URL, json=routing_ok([gasless_quote_wire(eip712=broken)]))
    with pytest.raises(errors.SigningError) as info:
        await resolve(routing.gasless_swap(account, **SWAP))
    assert "gq-9a8b7c" in str(info.value)
    assert isinstance(info.value, errors.UnsafePayloadError)  # refused before signing
    assert [r.url.path for r in httpx_mock.get_requests()] == ["/gasless/quote"]


async def test_gasless_swap_with_no_quote_submits_nothing(
    routing: Any, httpx_mock: HTTPXMock, account: Any
) -> None:
    httpx_mock.add_response(url=QUOTE_URL, json=routing_ok([]))
    with pytest.raises(errors.APIError, match="no gasless quote"):
        await resolve(routing.gasless_swap(account, **SWAP))
    assert len(httpx_mock.get_requests()) == 1  # the quote; the spender is pinned


@pytest.mark.parametrize(
    ("signer", "arguments", "argument"),
    [
        (object(), {}, "signer"),
        (None, {"amount": -1}, "amount"),
        (None, {"wait": "yes"}, "wait"),
        (None, {"wait": True, "wait_timeout": -1}, "wait_timeout"),
        (None, {"poll_interval": 0}, "poll_interval"),
        (None, {"is_done": "executed"}, "is_done"),
    ],
)
async def test_bad_gasless_swap_input_is_refused_before_any_request(
    routing: Any,
    httpx_mock: HTTPXMock,
    account: Any,
    signer: Any,
    arguments: dict[str, Any],
    argument: str,
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.gasless_swap(signer or account, **{**SWAP, **arguments}))
    assert info.value.argument == argument
    assert httpx_mock.get_requests() == []


async def test_no_key_or_signature_reaches_a_log_record_or_an_error(
    routing: Any,
    httpx_mock: HTTPXMock,
    account: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    httpx_mock.add_response(url=QUOTE_URL, json=routing_ok([gasless_quote_wire()]))
    # The service echoes the key and the signature in its answer to the submission.
    seen: list[str] = []

    def echo(request: httpx.Request) -> httpx.Response:
        signature = json.loads(request.content)["signature"]
        seen.append(signature)
        message = f"rejected {signature} for key {ROUTING_KEY}"
        return httpx.Response(500, json={"code": 5000, "message": message, "data": None})

    httpx_mock.add_callback(echo, url=SUBMIT_URL)
    with pytest.raises(errors.InternalServerError) as info:
        await resolve(routing.gasless_swap(account, **SWAP))
    (signature,) = seen
    secrets = (ROUTING_KEY, signature[2:])
    assert any(r.name == "xswap_sdk" for r in caplog.records)
    texts = [" ".join([r.getMessage(), repr(r.args), repr(vars(r))]) for r in caplog.records]
    texts += [str(info.value), repr(info.value), info.value.message, repr(routing)]
    for text in texts:
        for secret in secrets:
            assert secret not in text
    assert info.value.outcome_unknown is True
    assert len(seen) == 1  # sent once
