"""GatewayClient and AsyncGatewayClient against a mocked Circle Gateway API: every
endpoint's exact request and model, the typed fee-floor refusal, and the waiters."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import httpx
import pytest
from eth_account import Account
from pytest_httpx import HTTPXMock

from xswap_sdk import errors
from xswap_sdk._clock import VirtualClock
from xswap_sdk.gateway import (
    GATEWAY_MAINNET_URL,
    GATEWAY_TESTNET_URL,
    AsyncGatewayClient,
    GatewayClient,
    build_transfer_intent,
)
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.signing import sign_burn_intent, sign_burn_intent_set

from ..support import ADDRESS, resolve
from .conftest import GATEWAY_URL
from .support import TRANSFER_ID, domain_info, fees, transfer_answer, transfer_record

ACCOUNT = Account.from_key("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37")
OTHER = "0x000000000000000000000000000000000000dEaD"
TRANSFER_URL = f"{GATEWAY_URL}/v1/transfer"
RECORD_URL = f"{GATEWAY_URL}/v1/transfer/{TRANSFER_ID}"


def sent(httpx_mock: HTTPXMock, index: int = 0) -> Any:
    return json.loads(httpx_mock.get_requests()[index].content)


def intent(value: int = 1_000_000, **overrides: Any) -> Any:
    arguments: dict[str, Any] = {
        "source_chain_id": 8453,
        "destination_chain_id": 42161,
        "depositor": ACCOUNT.address,
        "recipient": ACCOUNT.address,
        "value": value,
        "salt": "0x" + "5a" * 32,
        **overrides,
    }
    return build_transfer_intent(**arguments)


# ------------------------------------------------------------------------------ construction


@pytest.mark.parametrize("cls", [GatewayClient, AsyncGatewayClient])
def test_mainnet_and_testnet_base_urls_and_the_environment(
    cls: type[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cls().base_url == GATEWAY_MAINNET_URL
    assert cls(testnet=True).base_url == GATEWAY_TESTNET_URL
    assert cls(testnet=True).testnet is True
    monkeypatch.setenv("XSWAP_GATEWAY_URL", "https://gateway.example")
    assert cls().base_url == "https://gateway.example"
    assert cls(testnet=True).base_url == "https://gateway.example"
    assert cls(base_url="https://mine.example/").base_url == "https://mine.example"
    assert "network='testnet'" in repr(cls(testnet=True))


@pytest.mark.parametrize("cls", [GatewayClient, AsyncGatewayClient])
def test_bad_construction_is_refused(cls: type[Any]) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        cls(testnet="yes")
    assert info.value.argument == "testnet"
    with pytest.raises(errors.InvalidInputError) as info:
        cls(registry={8453: "Base"})
    assert info.value.argument == "registry"
    with pytest.raises(errors.InvalidInputError) as info:
        cls(base_url="http://gateway.example")
    assert info.value.argument == "base_url"


def test_no_api_key_is_taken() -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        GatewayClient().with_options(api_key="anything")
    assert info.value.argument == "api_key"


def test_chains_map_to_domains_on_the_clients_network() -> None:
    mainnet, testnet = GatewayClient(), GatewayClient(testnet=True)
    assert [mainnet.domain_of(c) for c in (1, 8453, 42161)] == [0, 6, 3]
    assert testnet.domain_of(84532) == 6
    with pytest.raises(errors.InvalidInputError) as info:
        mainnet.domain_of(84532)
    assert "testnet=True" in info.value.rule
    with pytest.raises(errors.InvalidInputError):
        testnet.domain_of(8453)
    with pytest.raises(errors.UnsafePayloadError):
        mainnet.domain_of(56)


# ------------------------------------------------------------------------------ /v1/info


async def test_get_info_reads_every_documented_field(gateway: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{GATEWAY_URL}/v1/info",
        method="GET",
        json={"version": 1, "domains": [domain_info(0, "Ethereum"), domain_info()]},
    )
    info = await resolve(gateway.get_info())
    assert info.version == 1
    base = info.domain(6)
    assert base is not None
    assert (base.chain, base.network) == ("Base", "Mainnet")
    assert base.processed_height == 8666762
    assert base.burn_intent_expiration_height == 8666792
    assert base.wallet_contract.address == DEFAULT_REGISTRY.chain(8453).gateway_wallet
    assert base.minter_contract.supported_tokens == ["USDC"]
    assert info.domain(99) is None
    request = httpx_mock.get_requests()[0]
    assert "api-key" not in request.headers
    assert request.content == b""


async def test_an_info_answer_without_a_documented_field_is_refused(
    gateway: Any, httpx_mock: HTTPXMock
) -> None:
    partial = domain_info()
    del partial["burnIntentExpirationHeight"]
    httpx_mock.add_response(url=f"{GATEWAY_URL}/v1/info", json={"version": 1, "domains": [partial]})
    with pytest.raises(errors.ResponseValidationError) as info:
        await resolve(gateway.get_info())
    assert "burnIntentExpirationHeight" in str(info.value)


# ------------------------------------------------------------------------------ /v1/balances


async def test_get_balances_sends_one_source_per_chain(gateway: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{GATEWAY_URL}/v1/balances",
        method="POST",
        json={
            "token": "USDC",
            "balances": [
                {"domain": 6, "depositor": ADDRESS.lower(), "balance": "1.500000"},
                {"domain": 3, "depositor": ADDRESS.lower(), "balance": "0.000001"},
            ],
        },
    )
    balances = await resolve(gateway.get_balances(ADDRESS.lower(), chain_ids=[8453, 42161]))
    assert sent(httpx_mock) == {
        "token": "USDC",
        "sources": [{"depositor": ADDRESS, "domain": 6}, {"depositor": ADDRESS, "domain": 3}],
    }
    base = balances.for_domain(6)
    assert base is not None
    assert base.balance == 1_500_000  # "1.5" USDC on the wire, read exactly
    assert base.balance_units == 1_500_000
    assert base.model_dump(mode="json")["balance"] == "1.500000"  # and written back
    assert base.depositor == ADDRESS
    assert balances.total == 1_500_001
    assert balances.total_units == 1_500_001
    assert balances.for_domain(0) is None


async def test_get_balances_without_chains_asks_for_every_domain(
    gateway: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(json={"token": "USDC", "balances": []})
    httpx_mock.add_response(json={"token": "USDC", "balances": []})
    await resolve(gateway.get_balances([ADDRESS, OTHER]))
    await resolve(gateway.get_balances(ADDRESS, domains=[0, 26], token="EURC"))
    assert sent(httpx_mock, 0) == {
        "token": "USDC",
        "sources": [{"depositor": ADDRESS}, {"depositor": OTHER}],
    }
    assert sent(httpx_mock, 1) == {
        "token": "EURC",
        "sources": [{"depositor": ADDRESS, "domain": 0}, {"depositor": ADDRESS, "domain": 26}],
    }


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"depositor": "0x1234"}, "sources[0].depositor"),
        ({"depositor": []}, "depositor"),
        ({"chain_ids": [8453], "domains": [6]}, "domains"),
        ({"chain_ids": [84532]}, "chain_id"),
        # A read signs nothing: an unknown chain is a bad argument, not a refusal to sign.
        ({"chain_ids": [8453, 999999]}, "chain_ids"),
        ({"domains": []}, "domains"),
        ({"domains": [-1]}, "sources[0].domain"),
        ({"token": "usdc; drop"}, "token"),
    ],
)
async def test_bad_balance_arguments_are_refused_before_any_request(
    gateway: Any, httpx_mock: HTTPXMock, arguments: dict[str, Any], argument: str
) -> None:
    call = {"depositor": ADDRESS, **arguments}
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(gateway.get_balances(call.pop("depositor"), **call))
    assert info.value.argument == argument
    assert not httpx_mock.get_requests()


# ------------------------------------------------------------------------------ /v1/estimate


async def test_estimate_sends_the_intents_and_reads_either_answer_shape(
    gateway: Any, httpx_mock: HTTPXMock
) -> None:
    own = intent()
    estimated = {**own.to_wire(), "maxFee": "10000", "maxBlockHeight": "555"}
    httpx_mock.add_response(
        url=f"{GATEWAY_URL}/v1/estimate?maxAttestationSize=2048",
        method="POST",
        json=[{"burnIntent": estimated, "fees": fees()}],
    )
    httpx_mock.add_response(
        url=f"{GATEWAY_URL}/v1/estimate", json={"body": [{"burnIntent": estimated}]}
    )
    first = await resolve(gateway.estimate(own, max_attestation_size=2048))
    second = await resolve(gateway.estimate([own.spec]))
    assert sent(httpx_mock, 0) == [own.to_wire()]
    assert sent(httpx_mock, 1) == [{"spec": own.spec.to_wire()}]
    for answer in (first, second):
        assert len(answer) == 1
        assert answer[0].burn_intent.max_fee == 10_000
        assert answer[0].burn_intent.max_block_height == 555
    assert first[0].fees.total == 1_178_000
    assert first[0].fees.per_intent[0].base_fee == 2_000_000
    assert second[0].fees is None


async def test_estimate_refuses_what_is_not_an_intent(gateway: Any, httpx_mock: HTTPXMock) -> None:
    for bad in ([], "0x", [{"maxFee": "1"}], [{"spec": {"version": 1}}], [12]):
        with pytest.raises(errors.InvalidInputError):
            await resolve(gateway.estimate(bad))
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(gateway.estimate(intent(), max_attestation_size=0))
    assert info.value.argument == "max_attestation_size"
    assert not httpx_mock.get_requests()


# ------------------------------------------------------------------------------ /v1/transfer


async def test_transfer_sends_each_signed_intent_exactly_as_signed(
    gateway: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(
        url=TRANSFER_URL, method="POST", status_code=201, json=transfer_answer()
    )
    one = sign_burn_intent(intent(), ACCOUNT)
    several = sign_burn_intent_set([intent(2), intent(3, source_chain_id=1)], ACCOUNT)
    result = await resolve(gateway.transfer([one, several]))
    assert sent(httpx_mock) == [one.to_wire(), several.to_wire()]
    body = sent(httpx_mock)
    assert body[0]["burnIntent"]["maxFee"] == "2010000"
    assert body[1]["burnIntentSet"]["intents"][1]["spec"]["sourceDomain"] == 0
    assert result.transfer_id == TRANSFER_ID
    assert result.attestation == "0x" + "aa" * 40
    assert result.fees.forwarding_fee == 210_000
    assert result.expiration_block == 123456
    assert result.signature[2:] not in repr(result)
    # The result remembers what it attests: these bytes are no attestation of it.
    with pytest.raises(errors.UnsafePayloadError) as refused:
        result.mint_call(42161)
    assert refused.value.field == "signature"  # 0xbb... has v = 187


async def test_transfer_options_reach_the_query(gateway: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=f"{TRANSFER_URL}?maxAttestationSize=4096&enableForwarder=true",
        json=transfer_answer(),
    )
    signed = sign_burn_intent(intent(), ACCOUNT)
    await resolve(gateway.transfer(signed, max_attestation_size=4096, enable_forwarder=True))
    assert sent(httpx_mock) == [signed.to_wire()]


async def test_a_fee_below_the_floor_is_a_typed_error_with_the_minimum(
    gateway: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(
        url=TRANSFER_URL,
        status_code=400,
        json={"message": "Insufficient max fee: expected at least 2.000125, got 1.01"},
    )
    signed = sign_burn_intent(intent(), ACCOUNT)
    with pytest.raises(errors.InsufficientMaxFeeError) as info:
        await resolve(gateway.transfer(signed))
    error = info.value
    assert isinstance(error, errors.BadRequestError)
    assert error.minimum == Decimal("2.000125")
    assert error.minimum_units == 2_000_125
    assert error.received == Decimal("1.01")
    assert error.status_code == 400
    assert (error.method, error.path) == ("POST", "/v1/transfer")
    assert not error.outcome_unknown
    assert len(httpx_mock.get_requests()) == 1


async def test_an_estimate_below_the_floor_is_typed_too(
    gateway: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(
        status_code=400, json={"message": "insufficient max fee: expected at least 0.01"}
    )
    with pytest.raises(errors.InsufficientMaxFeeError) as info:
        await resolve(gateway.estimate(intent()))
    assert info.value.minimum_units == 10_000
    assert info.value.received is None


async def test_other_refusals_stay_plain_and_never_show_the_signature(
    gateway: Any, httpx_mock: HTTPXMock
) -> None:
    signed = sign_burn_intent(intent(), ACCOUNT)
    httpx_mock.add_response(
        url=TRANSFER_URL,
        status_code=400,
        json={"message": f"Invalid signature {signed.signature}: recovered signer mismatch"},
    )
    with pytest.raises(errors.BadRequestError) as info:
        await resolve(gateway.transfer(signed))
    assert type(info.value) is errors.BadRequestError
    assert signed.signature not in str(info.value)
    assert signed.signature[2:] not in str(info.value)


async def test_a_transfer_is_not_resent_when_its_answer_is_lost(
    gateway: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=TRANSFER_URL, status_code=503, json={"message": "down"})
    with pytest.raises(errors.InternalServerError) as info:
        await resolve(gateway.transfer(sign_burn_intent(intent(), ACCOUNT)))
    assert info.value.outcome_unknown
    assert len(httpx_mock.get_requests()) == 1


@pytest.mark.parametrize("bad", [[], "0x", [{"burnIntent": {}, "signature": "0x"}], None])
async def test_transfer_takes_only_signed_intents(
    gateway: Any, httpx_mock: HTTPXMock, bad: Any
) -> None:
    with pytest.raises(errors.InvalidInputError):
        await resolve(gateway.transfer(bad))
    assert not httpx_mock.get_requests()


# ------------------------------------------------------------------------------ /v1/transfer/{id}


async def test_get_transfer_reads_the_record(gateway: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(
        url=RECORD_URL,
        method="GET",
        json=transfer_record(
            "confirmed",
            transactionHash="0x" + "ef" * 32,
            forwardingDetails={"forwardingEnabled": True, "failureReason": None},
        ),
    )
    record = await resolve(gateway.get_transfer(TRANSFER_ID.upper()))
    assert record.status == "confirmed"
    assert not record.is_terminal
    assert record.destination_domain == 3
    assert record.transaction_hash == "0x" + "ef" * 32
    assert record.burn_intents[0].max_fee == 2_010_000
    assert record.forwarding_details.forwarding_enabled is True
    assert record.attestation.expiration_block == 123456
    assert record.fees.total_units == 1_178_000


@pytest.mark.parametrize("bad", ["", "../v1/info", "not-a-uuid", 12])
async def test_get_transfer_needs_a_uuid(gateway: Any, httpx_mock: HTTPXMock, bad: Any) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(gateway.get_transfer(bad))
    assert info.value.argument == "transfer_id"
    assert not httpx_mock.get_requests()


async def test_a_record_without_a_status_is_refused(gateway: Any, httpx_mock: HTTPXMock) -> None:
    record = transfer_record("pending")
    del record["status"]
    httpx_mock.add_response(url=RECORD_URL, json=record)
    with pytest.raises(errors.ResponseValidationError):
        await resolve(gateway.get_transfer(TRANSFER_ID))


# ------------------------------------------------------------------------------ waiting


async def test_wait_for_transfer_rides_out_a_404_and_pending(
    gateway: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    httpx_mock.add_response(url=RECORD_URL, status_code=404, json={"message": "not found"})
    httpx_mock.add_response(url=RECORD_URL, json=transfer_record("pending"))
    httpx_mock.add_response(url=RECORD_URL, json=transfer_record("confirmed"))
    httpx_mock.add_response(url=RECORD_URL, json=transfer_record("finalized"))
    started = clock.monotonic()
    done = await resolve(gateway.wait_for_transfer(TRANSFER_ID, poll_interval=2.5))
    assert done.status == "finalized"
    assert done.is_terminal
    assert len(httpx_mock.get_requests()) == 4
    assert clock.monotonic() - started == pytest.approx(7.5)


async def test_wait_for_transfer_can_stop_at_confirmed(gateway: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=RECORD_URL, json=transfer_record("pending"))
    httpx_mock.add_response(url=RECORD_URL, json=transfer_record("confirmed"))
    done = await resolve(gateway.wait_for_transfer(TRANSFER_ID, until="confirmed"))
    assert done.status == "confirmed"


@pytest.mark.parametrize("status", ["failed", "expired"])
async def test_a_failed_or_expired_transfer_raises(
    gateway: Any, httpx_mock: HTTPXMock, status: str
) -> None:
    httpx_mock.add_response(
        url=RECORD_URL,
        json=transfer_record(
            status, forwardingDetails={"forwardingEnabled": True, "failureReason": "reverted"}
        ),
    )
    with pytest.raises(errors.TransferFailedError) as info:
        await resolve(gateway.wait_for_transfer(TRANSFER_ID, until="confirmed"))
    assert info.value.transfer_status == status
    assert info.value.status == status
    assert info.value.record.status == status
    assert "reverted" in str(info.value)
    assert isinstance(info.value, errors.TerminalStateError)


async def test_wait_for_transfer_gives_up_on_time(gateway: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url=RECORD_URL, json=transfer_record("pending"), is_reusable=True)
    with pytest.raises(errors.WaitTimeoutError) as info:
        await resolve(gateway.wait_for_transfer(TRANSFER_ID, wait_timeout=10, poll_interval=5))
    assert info.value.last_status.status == "pending"
    assert info.value.timeout == 10
    assert len(httpx_mock.get_requests()) == 2


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"until": "minted"}, "until"),
        ({"poll_interval": 0}, "poll_interval"),
        ({"wait_timeout": -1}, "wait_timeout"),
    ],
)
async def test_bad_wait_arguments_are_refused(
    gateway: Any, httpx_mock: HTTPXMock, arguments: dict[str, Any], argument: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(gateway.wait_for_transfer(TRANSFER_ID, **arguments))
    assert info.value.argument == argument


def balances_answer(*amounts: str) -> list[dict[str, Any]]:
    return [
        {"token": "USDC", "balances": [{"domain": 6, "depositor": ADDRESS, "balance": amount}]}
        for amount in amounts
    ]


async def test_wait_for_gateway_balance_polls_until_the_deposit_counts(
    gateway: Any, httpx_mock: HTTPXMock, clock: VirtualClock
) -> None:
    for answer in [{"token": "USDC", "balances": []}, *balances_answer("0.5", "5.000000")]:
        httpx_mock.add_response(url=f"{GATEWAY_URL}/v1/balances", json=answer)
    started = clock.monotonic()
    entry = await resolve(
        gateway.wait_for_gateway_balance(ADDRESS, 8453, at_least="5000000", poll_interval=30)
    )
    assert entry.balance_units == 5_000_000
    assert entry.domain == 6
    assert len(httpx_mock.get_requests()) == 3
    assert all(
        json.loads(r.content) == {"token": "USDC", "sources": [{"depositor": ADDRESS, "domain": 6}]}
        for r in httpx_mock.get_requests()
    )
    assert clock.monotonic() - started == pytest.approx(60)


async def test_wait_for_gateway_balance_times_out_with_the_last_entry(
    gateway: Any, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(json=balances_answer("4.999999")[0], is_reusable=True)
    with pytest.raises(errors.WaitTimeoutError) as info:
        await resolve(
            gateway.wait_for_gateway_balance(
                ADDRESS, 8453, at_least=5_000_000, wait_timeout=20, poll_interval=10
            )
        )
    assert info.value.last_status.balance == 4_999_999
    assert "5000000" in str(info.value)


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"at_least": -1}, "at_least"),
        ({"at_least": 1.5}, "at_least"),
        ({"chain_id": 84532}, "chain_id"),
        ({"depositor": "nobody"}, "depositor"),
        ({"wait_timeout": float("nan")}, "wait_timeout"),
    ],
)
async def test_bad_balance_wait_arguments_are_refused(
    gateway: Any, httpx_mock: HTTPXMock, arguments: dict[str, Any], argument: str
) -> None:
    call: dict[str, Any] = {"depositor": ADDRESS, "chain_id": 8453, "at_least": 1, **arguments}
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(gateway.wait_for_gateway_balance(**call))
    assert info.value.argument == argument
    assert not httpx_mock.get_requests()


async def test_retries_and_timeouts_apply_per_request(gateway: Any, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_exception(httpx.ConnectError("refused"))
    httpx_mock.add_response(json={"version": 1, "domains": []})
    info = await resolve(gateway.get_info(timeout=3.5, max_retries=1))
    assert info.domains == []
    reads = [r.extensions["timeout"]["read"] for r in httpx_mock.get_requests()]
    assert reads == [3.5, 3.5]
