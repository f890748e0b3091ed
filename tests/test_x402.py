"""Keyless relaying paid with x402 from a Circle Gateway balance, and relay_signed_tx, on
the wire against the sandbox (sync and async)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from eth_account import Account

from xswap_sdk import errors
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.relayer import AsyncRelayerClient, RelayerClient
from xswap_sdk.relayer._x402 import MAX_X402_VALIDITY, decode_x402_header
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from .support import resolve

USDC_ON_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
PRICE = 10_000


class CountingSigner:
    """A signer that is not a LocalAccount (so it is given the full typed data) and
    counts what it signs."""

    def __init__(self) -> None:
        self.address = TEST_SIGNER.address
        self.signed: list[dict[str, Any]] = []

    def sign_message(self, signable_message: Any) -> Any:
        return TEST_SIGNER.sign_message(signable_message)

    def sign_typed_data(self, full_message: dict[str, Any] | None = None, **_: Any) -> Any:
        assert full_message is not None
        self.signed.append(full_message)
        return TEST_SIGNER.sign_typed_data(full_message=full_message)


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        sandbox.fund(TEST_SIGNER.address, 8453, 5_000_000)
        yield sandbox


@pytest.fixture
def signer() -> CountingSigner:
    return CountingSigner()


@pytest.fixture
def relayer(kind: str, sb: Sandbox, signer: CountingSigner) -> Any:
    make = sb.relayer_client if kind == "sync" else sb.async_relayer_client
    return make(api_key=None, payer=signer, max_payment=50_000)


async def relay(relayer: Any) -> Any:
    return await resolve(relayer.submit_tx(chain_id=8453, to=USDC_ON_BASE, call_data="0x"))


async def test_a_keyless_relay_pays_from_the_gateway_balance_end_to_end(
    relayer: Any, sb: Sandbox, signer: CountingSigner
) -> None:
    result = await relay(relayer)
    payment = result.x402_payment
    assert payment is not None
    assert payment.amount == PRICE
    assert payment.payer == TEST_SIGNER.address
    assert payment.network == "eip155:8453"
    assert sb.gateway.balance(TEST_SIGNER.address, 8453) == 5_000_000 - PRICE
    assert len(signer.signed) == 1
    assert len(sb.relayer.payments_received) == 1
    # What was signed: the Gateway-batched domain with the pinned GatewayWallet.
    typed = signer.signed[0]
    assert typed["primaryType"] == "TransferWithAuthorization"
    assert typed["domain"] == {
        "name": "GatewayWalletBatched",
        "version": "1",
        "chainId": 8453,
        "verifyingContract": DEFAULT_REGISTRY.chain(8453).gateway_wallet,
    }
    assert typed["message"]["to"] == sb.relayer.x402_pay_to
    assert typed["message"]["value"] == str(PRICE)
    # The header is x402 v2: base64 JSON with the requirement accepted as offered.
    sent = sb.relayer.payments_received[0]
    assert sent["x402Version"] == 2
    assert sent["accepted"] == sb.relayer.x402_offer()
    assert sent["payload"]["authorization"]["from"] == TEST_SIGNER.address
    record = await resolve(relayer.wait_for_execution_hash(result.tx_id))
    assert record.status == "EXECUTED"


async def test_each_submission_pays_once(relayer: Any, sb: Sandbox) -> None:
    await relay(relayer)
    tx_id = await resolve(relayer.relay(chain_id=8453, to=USDC_ON_BASE, call_data="0x"))
    assert isinstance(tx_id, str)
    assert len(sb.gateway.x402_transfers) == 2
    assert sb.gateway.balance(TEST_SIGNER.address, 8453) == 5_000_000 - 2 * PRICE


WALLET = DEFAULT_REGISTRY.chain(8453).gateway_wallet
OTHER = "0x1111111111111111111111111111111111111111"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"extra": {"verifyingContract": OTHER}}, "extra.verifyingContract"),
        ({"asset": OTHER}, "asset"),
        ({"extra": {"version": "2"}}, "extra.version"),
        ({"amount": "50001"}, "amount"),
        ({"maxTimeoutSeconds": 0}, "maxTimeoutSeconds"),
        ({"maxTimeoutSeconds": MAX_X402_VALIDITY + 1}, "maxTimeoutSeconds"),
        ({"network": "eip155:999999"}, "network"),
        ({"scheme": "upto"}, "scheme"),
        ({"payTo": "0x" + "0" * 40}, "payTo"),
        ({"payTo": TEST_SIGNER.address}, "payTo"),
    ],
)
async def test_a_requirement_that_does_not_fit_is_refused_with_nothing_signed(
    relayer: Any, sb: Sandbox, signer: CountingSigner, changes: dict[str, Any], field: str
) -> None:
    sb.relayer.x402_offer_changes = changes
    with pytest.raises(errors.UnsafePayloadError) as raised:
        await relay(relayer)
    assert raised.value.field == f"x402.accepts[0].{field}"
    assert signer.signed == []
    assert sb.relayer.payments_received == []
    assert sb.relayer.transaction_ids == []
    assert sb.gateway.balance(TEST_SIGNER.address, 8453) == 5_000_000


async def test_a_402_with_no_gateway_batched_option_is_refused(
    relayer: Any, sb: Sandbox, signer: CountingSigner
) -> None:
    sb.relayer.x402_offer_changes = {"extra": {"name": "USD Coin"}}
    with pytest.raises(errors.UnsafePayloadError) as raised:
        await relay(relayer)
    assert raised.value.field == "x402.accepts"
    assert signer.signed == []


async def test_a_second_402_after_paying_is_an_error_never_a_second_payment(
    relayer: Any, sb: Sandbox, signer: CountingSigner
) -> None:
    sb.relayer.refuse_payments()
    with pytest.raises(errors.PaymentNotAcceptedError) as raised:
        await relay(relayer)
    assert raised.value.outcome_unknown is True
    assert isinstance(raised.value, errors.PaymentRequiredError)
    assert len(signer.signed) == 1
    assert len(sb.relayer.payments_received) == 1
    assert sb.relayer.transaction_ids == []
    # The signature never shows in the error.
    header = base64.b64encode(json.dumps(sb.relayer.payments_received[0]).encode()).decode()
    signature = sb.relayer.payments_received[0]["payload"]["signature"]
    assert signature not in str(raised.value)
    assert header not in str(raised.value)


async def test_without_a_payer_a_402_stays_payment_required(kind: str, sb: Sandbox) -> None:
    sb.relayer.payment_required = True
    make = sb.relayer_client if kind == "sync" else sb.async_relayer_client
    client = make()
    with pytest.raises(errors.PaymentRequiredError) as raised:
        await relay(client)
    assert not isinstance(raised.value, errors.PaymentNotAcceptedError)


@pytest.mark.parametrize("cls", [RelayerClient, AsyncRelayerClient])
@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"payer": TEST_SIGNER}, "max_payment"),
        ({"payer": TEST_SIGNER, "max_payment": 0}, "max_payment"),
        ({"payer": TEST_SIGNER, "max_payment": 1.5}, "max_payment"),
        ({"max_payment": 10_000}, "max_payment"),
        ({"payer": object(), "max_payment": 10_000}, "payer"),
        ({"payer": TEST_SIGNER, "max_payment": 10_000, "registry": {}}, "registry"),
    ],
)
def test_payer_arguments_are_checked_before_any_io(
    cls: type[Any], kwargs: dict[str, Any], argument: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as raised:
        cls(base_url="https://relayer.test", **kwargs)
    assert raised.value.argument == argument


def test_the_header_is_base64_json() -> None:
    assert decode_x402_header(base64.b64encode(b'{"a": 1}').decode()) == {"a": 1}
    with pytest.raises(ValueError, match="base64"):
        decode_x402_header("not base64!")


# ------------------------------------------------------------------ relay_signed_tx

SENDER = Account.from_key("0x" + "42" * 32)


def signed(chain_id: int = 8453, **fields: Any) -> str:
    tx = {
        "type": 2,
        "chainId": chain_id,
        "nonce": 0,
        "to": USDC_ON_BASE,
        "value": 0,
        "gas": 60_000,
        "maxFeePerGas": 10**9,
        "maxPriorityFeePerGas": 10**8,
        "data": "0x",
        **fields,
    }
    return "0x" + SENDER.sign_transaction(tx).raw_transaction.hex()


@pytest.fixture
def keyed(kind: str, sb: Sandbox) -> Any:
    return sb.relayer_client() if kind == "sync" else sb.async_relayer_client()


async def test_relay_signed_tx_submits_and_is_followed(keyed: Any, sb: Sandbox) -> None:
    result = await resolve(
        keyed.relay_signed_tx(
            signed_tx=signed(),
            min_balance_required=60_000 * 10**9,
            from_address=SENDER.address,
            chain_id=8453,
            label="signed",
        )
    )
    body = json.loads(sb.requests.select("relayer", "POST", "/api/submit-signed-tx")[0].body)
    assert body == {
        "signedTx": signed(),
        "minBalanceRequired": str(60_000 * 10**9),
        "fromAddress": SENDER.address,
        "chainId": 8453,
        "label": "signed",
    }
    record = await resolve(keyed.wait_for_execution_hash(result.tx_id))
    assert record.status == "EXECUTED"


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"from_address": TEST_SIGNER.address}, "from_address"),
        ({"chain_id": 1}, "chain_id"),
        ({"signed_tx": "0x02f8"}, "signed_tx"),
        ({"signed_tx": "nothex"}, "signed_tx"),
        ({"min_balance_required": -1}, "min_balance_required"),
    ],
)
async def test_relay_signed_tx_checks_sender_and_chain_before_any_io(
    keyed: Any, sb: Sandbox, kwargs: dict[str, Any], argument: str
) -> None:
    arguments = {
        "signed_tx": signed(),
        "min_balance_required": 1,
        "from_address": SENDER.address,
        "chain_id": 8453,
        **kwargs,
    }
    with pytest.raises(errors.InvalidInputError) as raised:
        await resolve(keyed.relay_signed_tx(**arguments))
    assert raised.value.argument == argument
    assert sb.requests.select("relayer") == []


def test_a_legacy_transaction_without_a_chain_id_is_refused() -> None:
    from xswap_sdk.relayer._operations import build_signed_tx_request

    tx = {"nonce": 0, "to": USDC_ON_BASE, "value": 0, "gas": 21_000, "gasPrice": 1, "data": b""}
    raw = "0x" + SENDER.sign_transaction(tx).raw_transaction.hex()
    with pytest.raises(errors.InvalidInputError, match="pre-EIP-155"):
        build_signed_tx_request(
            signed_tx=raw,
            min_balance_required=1,
            from_address=SENDER.address,
            chain_id=8453,
            label=None,
        )


# ------------------------------------------------------------------ the attempt loop


class Wire:
    """The sandbox behind a recorder that can fail the paid attempt: refuse it before it
    is sent (``refuse``) or time it out after it was (``timeout``)."""

    def __init__(self, sb: Sandbox, fault: str | None) -> None:
        self.sb = sb
        self.fault = fault
        self.sent: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request)
        if "payment-signature" in request.headers and self.fault is not None:
            fault, self.fault = self.fault, None
            if fault == "refuse":
                raise httpx.ConnectError("refused by the test", request=request)
            self.sb._handle(request)  # the relayer acts, then the answer is lost
            raise httpx.ReadTimeout("lost by the test", request=request)
        return self.sb._handle(request)

    def client(self, kind: str, signer: Any) -> Any:
        transport = httpx.MockTransport(self)
        cls, http = (
            (RelayerClient, httpx.Client(transport=transport))
            if kind == "sync"
            else (AsyncRelayerClient, httpx.AsyncClient(transport=transport))
        )
        return cls(
            base_url=self.sb.url("relayer"),
            http_client=http,
            clock=self.sb.clock,
            payer=signer,
            max_payment=50_000,
        )


async def test_a_paid_attempt_that_never_left_is_sent_again_with_the_same_payment(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    wire = Wire(sb, "refuse")
    result = await relay(wire.client(kind, signer))
    assert result.x402_payment is not None
    paid = [r.headers["payment-signature"] for r in wire.sent if "payment-signature" in r.headers]
    assert len(paid) == 2
    assert paid[0] == paid[1]
    assert len(signer.signed) == 1
    assert len(sb.gateway.x402_transfers) == 1


async def test_a_paid_attempt_lost_after_sending_is_not_sent_again(
    kind: str, sb: Sandbox, signer: CountingSigner
) -> None:
    wire = Wire(sb, "timeout")
    with pytest.raises(errors.APITimeoutError) as raised:
        await relay(wire.client(kind, signer))
    assert raised.value.outcome_unknown is True
    assert len([r for r in wire.sent if "payment-signature" in r.headers]) == 1
    assert len(signer.signed) == 1
    assert len(sb.relayer.transaction_ids) == 1


async def test_relay_sync_pays_too_and_shows_the_payment(relayer: Any, sb: Sandbox) -> None:
    record = await resolve(relayer.relay_sync(chain_id=8453, to=USDC_ON_BASE, call_data="0x"))
    assert record.status == "EXECUTED"
    assert record.x402_payment is not None
    assert record.x402_payment.amount == PRICE


# ------------------------------------------------------------------ the payer alone


def _offer(**changes: Any) -> dict[str, Any]:
    chain = DEFAULT_REGISTRY.chain(8453)
    offer = {
        "scheme": "exact",
        "network": "eip155:8453",
        "asset": chain.usdc,
        "maxAmountRequired": "10000",
        "payTo": "0x7a584Cf717de6545baa7f76F8d7d3dB386E186fc",
        "maxTimeoutSeconds": 600,
        "extra": {
            "name": "GatewayWalletBatched",
            "version": "1",
            "verifyingContract": chain.gateway_wallet,
        },
    }
    return {**offer, **changes}


def _payer() -> Any:
    from xswap_sdk._clock import VirtualClock
    from xswap_sdk.relayer._x402 import X402Payer

    return X402Payer(TEST_SIGNER, 50_000, DEFAULT_REGISTRY, VirtualClock(start=1_000))


def _required(body: Any) -> errors.PaymentRequiredError:
    return errors.PaymentRequiredError("payment required", status_code=402, body=body)


def test_a_version_1_requirement_in_the_body_is_paid_with_x_payment() -> None:
    headers = _payer().pay(_required({"x402Version": 1, "accepts": [_offer()]}))
    assert headers is not None
    assert list(headers) == ["X-PAYMENT"]
    document = decode_x402_header(headers["X-PAYMENT"])
    assert (document["x402Version"], document["scheme"], document["network"]) == (
        1,
        "exact",
        "eip155:8453",
    )
    authorization = document["payload"]["authorization"]
    assert authorization["value"] == "10000"
    assert authorization["validBefore"] == str(1_000 + 600)


def test_the_first_fitting_batched_option_is_paid() -> None:
    accepts = [
        {"scheme": "exact", "network": "eip155:8453", "extra": {}},  # not batched: skipped
        _offer(network="eip155:999999"),  # batched, on no chain of the registry
        _offer(),
    ]
    headers = _payer().pay(_required({"x402Version": 2, "accepts": accepts}))
    assert headers is not None
    assert decode_x402_header(headers["Payment-Signature"])["accepted"] == accepts[2]


def test_a_402_without_requirements_is_left_to_the_caller() -> None:
    assert (
        _payer().pay(_required({"success": False, "error": {"code": "PAYMENT_REQUIRED"}})) is None
    )


def test_a_malformed_requirements_header_is_refused() -> None:
    error = errors.PaymentRequiredError(
        "payment required", status_code=402, headers={"PAYMENT-REQUIRED": "%%%"}
    )
    with pytest.raises(errors.UnsafePayloadError) as raised:
        _payer().pay(error)
    assert raised.value.field == "x402.PAYMENT-REQUIRED"


def test_the_transfer_authorization_digest_is_eth_accounts() -> None:
    from eth_account.messages import encode_typed_data
    from eth_hash.auto import keccak

    from xswap_sdk.signing import recover_typed_data, sign_transfer_authorization
    from xswap_sdk.signing.eip3009 import _arguments, _payload

    signed = sign_transfer_authorization(
        TEST_SIGNER,
        domain_name="GatewayWalletBatched",
        domain_version="1",
        chain_id=8453,
        verifying_contract=WALLET,
        to=OTHER,
        value=10_000,
        valid_before=2_000_000_000,
        nonce="0x" + "ab" * 32,
    )
    payload = _payload(
        _arguments(
            primary_type="TransferWithAuthorization",
            token_name="GatewayWalletBatched",
            token_version="1",
            chain_id=8453,
            token=WALLET,
            authorizer=TEST_SIGNER.address,
            to=OTHER,
            value=10_000,
            valid_after=0,
            valid_before=2_000_000_000,
            nonce="0x" + "ab" * 32,
        )
    )
    message = encode_typed_data(full_message=payload)
    digest = keccak(b"\x19" + message.version + message.header + message.body)
    assert "0x" + digest.hex() == signed.digest
    assert recover_typed_data(payload, signed.signature) == TEST_SIGNER.address
