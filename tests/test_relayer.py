"""RelayerClient and AsyncRelayerClient: every method, its wire form, and the waiters."""

from __future__ import annotations

import itertools
import json
from decimal import Decimal
from typing import Any

import httpx
import pytest
from pytest_httpx import HTTPXMock

from xswap_sdk import __version__, errors
from xswap_sdk._clock import VirtualClock
from xswap_sdk.relayer import RelayerPaths, RelayStatus
from xswap_sdk.signing import sign_authorization
from xswap_sdk.testing import TEST_SIGNER

from .support import ADDRESS, RELAYER_URL, TX_ID, relayer_error, relayer_ok, resolve, tx_record

STATUS_URL = f"{RELAYER_URL}/api/tx?id={TX_ID}"
SUBMIT_URL = f"{RELAYER_URL}/api/submit-tx"
AUTHORIZATION = sign_authorization(TEST_SIGNER, chain_id=8453, address=ADDRESS, nonce=0)


def sent_json(httpx_mock: HTTPXMock, index: int = 0) -> Any:
    return json.loads(httpx_mock.get_requests()[index].content)


async def test_submit_tx_sends_every_field_in_wire_form(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=SUBMIT_URL, method="POST", json=relayer_ok({"txId": TX_ID}))
    result = await resolve(
        relayer.submit_tx(
            to=ADDRESS.lower(),
            call_data="0xA9059CBB",
            chain_id=8453,
            value=10**18,
            should_batch_in_multicall=True,
            max_priority_fee_per_gas="1000000",
            max_fee_per_gas=2_000_000_000,
            gas_limit=210_000,
            max_usd=Decimal("0.50"),
            label="payout-42",
            max_gas="300000",
            retries=3,
            transaction_type="flash",
            is_authenticated_tx=False,
            derivation_path="m/44'/60'/0'/0/0",
            authorization_list=[AUTHORIZATION],
        )
    )
    assert result.tx_id == TX_ID
    assert sent_json(httpx_mock) == {
        "to": ADDRESS,
        "callData": "0xa9059cbb",
        "chainId": 8453,
        "value": "1000000000000000000",
        "shouldBatchInMulticall": True,
        "maxPriorityFeePerGas": "1000000",
        "maxFeePerGas": "2000000000",
        "gasLimit": "210000",
        "maxUSD": 0.5,
        "label": "payout-42",
        "maxGas": "300000",
        "retries": 3,
        "transactionType": "flash",
        "isAuthenticatedTx": False,
        "derivationPath": "m/44'/60'/0'/0/0",
        "authorizationList": [
            {
                "chainId": 8453,
                "address": ADDRESS,
                "nonce": 0,
                "r": AUTHORIZATION.r,
                "s": AUTHORIZATION.s,
                "yParity": AUTHORIZATION.y_parity,
            }
        ],
    }
    request = httpx_mock.get_requests()[0]
    assert request.headers["api-key"]
    assert request.headers["content-type"] == "application/json"


async def test_relay_returns_the_id_and_sends_only_what_was_given(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=SUBMIT_URL, json=relayer_ok({"txId": TX_ID}))
    tx_id = await resolve(relayer.relay(chain_id=1, to=ADDRESS, call_data="0x", gas_limit="50000"))
    assert tx_id == TX_ID
    assert sent_json(httpx_mock) == {
        "to": ADDRESS,
        "callData": "0x",
        "chainId": 1,
        "value": "0",
        "gasLimit": "50000",
    }


@pytest.mark.parametrize(
    ("arguments", "argument", "rule"),
    [
        ({"to": "0x1234"}, "to", "20-byte hex address"),
        ({"to": "0x5a3CA05337A87116A27A21b11cDE16D85efb3586"}, "to", "EIP-55 checksum"),
        ({"call_data": "0xabc"}, "call_data", "even number of digits"),
        ({"call_data": "deadbeef"}, "call_data", "0x-prefixed"),
        ({"chain_id": 0}, "chain_id", "greater than 0"),
        ({"chain_id": -1}, "chain_id", "non-negative"),
        ({"value": -1}, "value", "between 0 and 2**256 - 1"),
        ({"value": 1.5}, "value", "floats are refused"),
        ({"value": True}, "value", "floats are refused"),
        ({"gas_limit": "21k"}, "gas_limit", "base-10 integer"),
        ({"retries": -2}, "retries", "greater than or equal to 0"),
        ({"max_usd": "-1"}, "max_usd", "greater than 0"),
        (
            {"gas_price": 1, "max_fee_per_gas": 2, "max_priority_fee_per_gas": 1},
            "gas_price",
            "exclusive",
        ),
        ({"max_fee_per_gas": 2}, "max_priority_fee_per_gas", "required"),
        ({"max_priority_fee_per_gas": 2}, "max_fee_per_gas", "required"),
        (
            {"max_fee_per_gas": 1, "max_priority_fee_per_gas": 2},
            "max_priority_fee_per_gas",
            "exceed",
        ),
        ({"should_batch_in_multicall": "yes"}, "should_batch_in_multicall", "boolean"),
    ],
)
async def test_bad_submit_input_is_refused_before_any_request(
    relayer: Any, httpx_mock: HTTPXMock, arguments: dict[str, Any], argument: str, rule: str
) -> None:
    base: dict[str, Any] = {"to": ADDRESS, "call_data": "0x", "chain_id": 8453}
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(relayer.submit_tx(**{**base, **arguments}))
    assert info.value.argument == argument
    assert rule in info.value.rule
    assert isinstance(info.value, ValueError)
    assert httpx_mock.get_requests() == []


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda c: c.get_relay_status(""), "tx_id"),
        (lambda c: c.get_relay_status(TX_ID, include_receipt="yes"), "include_receipt"),
        (lambda c: c.check_account_info("not-an-address"), "address"),
        (lambda c: c.is_chain_supported("base"), "chain_id"),
        (lambda c: c.wait_for_execution_hash(TX_ID, timeout_ms=-1), "timeout_ms"),
        (lambda c: c.wait_for_execution_hash(TX_ID, poll_interval_ms=0), "poll_interval_ms"),
        (lambda c: c.get_relay_status(TX_ID, max_retries=-1), "max_retries"),
        (lambda c: c.get_relay_status(TX_ID, timeout=0), "timeout"),
        (
            lambda c: c.relay_sync(chain_id=1, to=ADDRESS, call_data="0x", timeout_ms=500),
            "timeout_ms",
        ),
    ],
)
async def test_other_bad_input_is_refused_before_any_request(
    relayer: Any, httpx_mock: HTTPXMock, call: Any, argument: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(call(relayer))
    assert info.value.argument == argument
    assert httpx_mock.get_requests() == []


async def test_get_relay_status_reads_the_live_record(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{STATUS_URL}&includeReceipt=true&includeRevertInfo=false",
        json=relayer_ok(
            tx_record(
                "PENDING",
                gasPrice="0x3b9aca00",
                retryCount=1,
                isCharged=True,
                error=None,
            )
        ),
    )
    record = await resolve(
        relayer.get_relay_status(TX_ID, include_receipt=True, include_revert_info=False)
    )
    assert isinstance(record, RelayStatus)
    assert record.status == "PENDING"
    assert record.to == ADDRESS  # checksummed on the way in
    assert record.gas_price == 1_000_000_000
    assert record.gas_limit is None
    assert record.cost_usd == Decimal("0.0123")
    assert record.retryCount == 1  # unknown fields are kept
    assert record.model_extra == {"retryCount": 1, "isCharged": True}
    assert record.is_terminal is False
    assert record.model_dump()["costUSD"] == Decimal("0.0123")  # dumps to wire names


async def test_unknown_status_values_are_accepted(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("QUEUED_FOR_GAS")))
    record = await resolve(relayer.get_relay_status(TX_ID))
    assert record.status == "QUEUED_FOR_GAS"


async def test_wait_returns_the_executed_record_after_the_expected_polls(
    relayer: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    for status in ("NOT_PICKED_UP", "PENDING", "NEEDS_TO_BE_RETRIED", "PENDING", "EXECUTED"):
        httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record(status)))
    record = await resolve(relayer.wait_for_execution_hash(TX_ID))
    assert record.status == "EXECUTED"
    assert record.execution_tx_hash == "0x" + "ab" * 32
    assert len(httpx_mock.get_requests()) == 5
    assert clock.sleeps == [0.05] * 4  # the default 50 ms interval


async def test_wait_treats_an_early_404_as_not_yet_visible(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(
        url=STATUS_URL, status_code=404, json=relayer_error("TX_404", "not found")
    )
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("EXECUTED")))
    record = await resolve(relayer.wait_for_execution_hash(TX_ID))
    assert record.status == "EXECUTED"


async def test_wait_raises_relay_failed_with_the_record(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")))
    httpx_mock.add_response(
        url=STATUS_URL, json=relayer_ok(tx_record("FAILED", error="execution reverted"))
    )
    with pytest.raises(errors.RelayFailedError) as info:
        await resolve(relayer.wait_for_execution_hash(TX_ID))
    assert info.value.error_message == "execution reverted"
    assert info.value.status == "FAILED"
    assert info.value.record.status == "FAILED"
    assert str(info.value) == f"relayer transaction {TX_ID} failed: execution reverted"


async def test_wait_times_out_after_100_polls_at_the_defaults(
    relayer: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")), is_reusable=True)
    with pytest.raises(errors.WaitTimeoutError) as info:
        await resolve(relayer.wait_for_execution_hash(TX_ID))
    # Requests at 0, 50, ..., 4950 ms, like the JS client's loop over 5000 ms.
    assert len(httpx_mock.get_requests()) == 100
    assert clock.monotonic() == pytest.approx(4.95)
    assert info.value.last_status.status == "PENDING"
    assert info.value.timeout == 5.0
    assert "may still execute" in str(info.value)


async def test_wait_custom_timeout_and_interval(
    relayer: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("PENDING")), is_reusable=True)
    with pytest.raises(errors.WaitTimeoutError):
        await resolve(relayer.wait_for_execution_hash(TX_ID, timeout_ms=1000, poll_interval_ms=250))
    assert len(httpx_mock.get_requests()) == 4
    assert clock.sleeps == [0.25] * 3


async def test_the_interval_runs_from_the_start_of_the_previous_request(
    relayer: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    # Answers that take 20 ms, then one that takes 80 ms (longer than the interval),
    # then 20 ms again: the waiter sleeps what is left of each 50 ms, and after the slow
    # answer asks again at once, without a second request to catch up.
    slow = iter([0.02, 0.08, 0.02, 0.02])
    statuses = iter(["PENDING", "PENDING", "PENDING", "EXECUTED"])
    started: list[float] = []

    def answer(request: httpx.Request) -> httpx.Response:
        started.append(clock.monotonic())
        clock.advance(next(slow))
        return httpx.Response(200, json=relayer_ok(tx_record(next(statuses))))

    httpx_mock.add_callback(answer, url=STATUS_URL, is_reusable=True)
    record = await resolve(relayer.wait_for_execution_hash(TX_ID))
    assert record.status == "EXECUTED"
    assert clock.sleeps == [pytest.approx(0.03), pytest.approx(0.03)]
    assert started == [0, pytest.approx(0.05), pytest.approx(0.13), pytest.approx(0.18)]
    gaps = [b - a for a, b in itertools.pairwise(started)]
    assert all(gap >= 0.05 - 1e-9 for gap in gaps)  # never two requests in one interval


async def test_wait_with_zero_timeout_polls_once(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("EXECUTED")))
    record = await resolve(relayer.wait_for_execution_hash(TX_ID, timeout_ms=0))
    assert record.status == "EXECUTED"


async def test_executed_without_a_hash_keeps_polling(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=STATUS_URL, json=relayer_ok(tx_record("EXECUTED", executionTxHash=None))
    )
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("EXECUTED")))
    record = await resolve(relayer.wait_for_execution_hash(TX_ID))
    assert record.execution_tx_hash
    assert len(httpx_mock.get_requests()) == 2


async def test_wait_for_pending_hash_returns_while_pending(
    relayer: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=STATUS_URL, json=relayer_ok(tx_record("NOT_PICKED_UP")))
    httpx_mock.add_response(
        url=STATUS_URL, json=relayer_ok(tx_record("PENDING", executionTxHash="0x" + "cd" * 32))
    )
    record = await resolve(relayer.wait_for_pending_execution_hash(TX_ID))
    assert record.status == "PENDING"
    assert record.execution_tx_hash == "0x" + "cd" * 32


async def test_wait_stops_on_a_non_404_error(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=STATUS_URL, status_code=401, json=relayer_error("AUTH_002", "bad"))
    with pytest.raises(errors.AuthenticationError):
        await resolve(relayer.wait_for_execution_hash(TX_ID))


async def test_relay_sync_posts_the_nested_body(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{RELAYER_URL}/api/submit-tx-sync", json=relayer_ok(tx_record("EXECUTED", value="5"))
    )
    record = await resolve(
        relayer.relay_sync(
            chain_id=8453,
            to=ADDRESS,
            call_data="0x",
            value=5,
            include_receipt=True,
            include_revert_info=True,
        )
    )
    assert record.status == "EXECUTED"
    assert sent_json(httpx_mock) == {
        "tx": {"to": ADDRESS, "callData": "0x", "chainId": 8453, "value": "5"},
        "timeoutMs": 30000,
        "includeReceipt": True,
        "includeRevertInfo": True,
    }


async def test_relay_sync_is_not_retried_after_sending(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=f"{RELAYER_URL}/api/submit-tx-sync", status_code=504)
    with pytest.raises(errors.InternalServerError) as info:
        await resolve(relayer.relay_sync(chain_id=8453, to=ADDRESS, call_data="0x"))
    assert info.value.outcome_unknown
    assert len(httpx_mock.get_requests()) == 1


async def test_check_account_info(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{RELAYER_URL}/api/user?address={ADDRESS}",
        json=relayer_ok(
            {
                "userId": "u-1",
                "address": ADDRESS.lower(),
                "availableBalance": "12.5",
                "pendingBalance": 0.25,
                "defaultRelayerAccount": "0x" + "11" * 20,
            }
        ),
    )
    info = await resolve(relayer.check_account_info(ADDRESS.lower()))
    assert info.user_id == "u-1"
    assert info.address == ADDRESS
    assert info.available_balance == Decimal("12.5")
    assert info.pending_balance == Decimal("0.25")


CHAINS = [
    {
        "id": 8453,
        "name": "Base",
        "iconUrl": "https://icons.test/base.svg",
        "isTestnet": False,
        "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
        "blockExplorers": {"default": {"name": "Basescan", "url": "https://basescan.org"}},
    },
    {
        "id": 42161,
        "name": "Arbitrum One",
        "iconUrl": "https://icons.test/arbitrum.svg",
        "isTestnet": False,
        "nativeCurrency": {"name": "Ether", "symbol": "ETH", "decimals": 18},
        "blockExplorers": {"default": {"name": "Arbiscan", "url": "https://arbiscan.io"}},
    },
]


async def test_supported_chains_and_is_chain_supported(relayer: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{RELAYER_URL}/api/supported-chains", json=relayer_ok(CHAINS), is_reusable=True
    )
    chains = await resolve(relayer.get_supported_chains())
    assert [c.id for c in chains] == [8453, 42161]
    assert chains[0].native_currency.symbol == "ETH"
    assert chains[0].icon_url == "https://icons.test/base.svg"
    assert await resolve(relayer.is_chain_supported(8453)) is True
    assert await resolve(relayer.is_chain_supported("42161")) is True
    assert await resolve(relayer.is_chain_supported(1)) is False


async def test_paths_can_be_overridden(kind: str, httpx_mock: HTTPXMock) -> None:
    from xswap_sdk import AsyncRelayerClient, RelayerClient

    cls = RelayerClient if kind == "sync" else AsyncRelayerClient
    client = cls(
        api_key="k" * 10,
        base_url=f"{RELAYER_URL}/v2",
        paths=RelayerPaths(supported_chains="/chains", tx="/transactions"),
    )
    httpx_mock.add_response(url=f"{RELAYER_URL}/v2/chains", json=relayer_ok(CHAINS))
    httpx_mock.add_response(
        url=f"{RELAYER_URL}/v2/transactions?id={TX_ID}", json=relayer_ok(tx_record("PENDING"))
    )
    assert len(await resolve(client.get_supported_chains())) == 2
    assert (await resolve(client.get_relay_status(TX_ID))).status == "PENDING"


def test_get_version_is_the_package_version(relayer: Any) -> None:
    assert relayer.get_version() == __version__


async def test_missing_api_key_names_the_argument_and_variable(
    kind: str, httpx_mock: HTTPXMock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from xswap_sdk import AsyncRelayerClient, RelayerClient

    monkeypatch.delenv("XSWAP_RELAYER_API_KEY", raising=False)
    cls = RelayerClient if kind == "sync" else AsyncRelayerClient
    client = cls(base_url=RELAYER_URL)  # constructing without a key is fine
    with pytest.raises(errors.MissingCredentialsError) as info:
        await resolve(client.get_relay_status(TX_ID))
    assert info.value.argument == "api_key"
    assert info.value.env_var == "XSWAP_RELAYER_API_KEY"
    assert "XSWAP_RELAYER_API_KEY" in str(info.value)
    assert httpx_mock.get_requests() == []
