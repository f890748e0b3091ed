"""Gateway's newer endpoints on the wire (sandbox and documented samples), sync and async:
pending deposits, withdrawing/withdrawable, batched authorizations, the x402
facilitator's kinds and transfers (Link cursor), webhook keys and signatures."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from xswap_sdk import errors
from xswap_sdk.gateway import (
    AsyncGatewayClient,
    GatewayClient,
    NotificationDeduplicator,
    PendingDeposits,
    X402Transfer,
    verify_webhook,
)
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.relayer.models import SubmitTxResult
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..support import resolve

SAMPLES = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "gateway-x402-samples.json").read_text()
)
ME = TEST_SIGNER.address
OTHER = "0x742D35CC6634c0532925A3b844BC9E7595F0BEb0"


async def drain(iterator: Any) -> list[Any]:
    if hasattr(iterator, "__aiter__"):
        return [item async for item in iterator]
    return list(iterator)


def bodies(sb: Sandbox, path: str) -> list[Any]:
    return [json.loads(r.body) for r in sb.requests.select("gateway", "POST", path)]


# ------------------------------------------------------------------ documented samples


def test_the_documented_samples_parse() -> None:
    transfer = X402Transfer.model_validate(SAMPLES["x402_transfer"])
    assert transfer.amount == 10_000
    assert transfer.status == "received"
    assert transfer.tx_hash is None
    deposits = PendingDeposits.model_validate(SAMPLES["pending_deposits"])
    assert deposits.deposits[0].amount == 1_500_000
    assert deposits.total_units == 1_500_000
    assert deposits.deposits[0].block_height == 15_000_000
    paid = SubmitTxResult.model_validate(SAMPLES["relayer_paid"]["data"])
    assert paid.x402_payment is not None
    assert paid.x402_payment.amount == 10_000
    assert paid.x402_payment.transaction == SAMPLES["x402_transfer"]["id"]
    assert SubmitTxResult.model_validate(SAMPLES["signed_tx_response"]["data"]).tx_id


# ------------------------------------------------------------------ deposits and balances


async def test_pending_deposits_until_final(sb_gateway: Any, sb: Sandbox) -> None:
    sb.gateway.deposit(ME, 8453, 2_000_000)
    pending = await resolve(sb_gateway.get_deposits(ME, chain_ids=[8453]))
    assert [(d.domain, d.amount, d.status) for d in pending.deposits] == [(6, 2_000_000, "pending")]
    assert pending.deposits[0].transaction_hash.startswith("0x")
    assert bodies(sb, "/v1/deposits")[-1] == {
        "token": "USDC",
        "sources": [{"depositor": ME, "domain": 6}],
    }
    sb.wait(1201)
    assert (await resolve(sb_gateway.get_deposits(ME))).deposits == []


async def test_balances_carry_withdrawing_and_withdrawable_in_units(
    sb_gateway: Any, sb: Sandbox
) -> None:
    sb.fund(ME, 8453, 1_000_000)
    balances = await resolve(sb_gateway.get_balances(ME, chain_ids=[8453]))
    entry = balances.balances[0]
    assert entry.withdrawing == 0
    assert entry.withdrawable == 0
    assert isinstance(entry.withdrawing, int)


# ------------------------------------------------------------------ batch and x402


async def test_submit_batch_signs_from_pinned_facts_and_is_settled(
    sb_gateway: Any, sb: Sandbox
) -> None:
    sb.fund(ME, 8453, 1_000_000)
    submission = await resolve(
        sb_gateway.submit_batch(TEST_SIGNER, chain_id=8453, to=OTHER, value=25_000)
    )
    body = bodies(sb, "/v1/batch/submit")[0]
    assert (body["token"], body["sendingDomain"], body["recipientDomain"]) == ("USDC", 6, 6)
    auth = body["auth"]["eip3009Auth"]
    assert (auth["from"], auth["to"], auth["value"], auth["validAfter"]) == (
        ME,
        OTHER,
        "25000",
        "0",
    )
    assert int(auth["validBefore"]) > sb.clock.time() + 3 * 24 * 3600
    transfer = await resolve(sb_gateway.get_x402_transfer(submission.id))
    assert (transfer.from_address, transfer.to_address, transfer.amount) == (ME, OTHER, 25_000)
    assert transfer.status == "received"
    assert transfer.nonce == auth["nonce"]
    assert sb.gateway.balance(ME, 8453) == 1_000_000 - 25_000
    sb.wait(61)
    done = await resolve(sb_gateway.get_x402_transfer(submission.id))
    assert done.status == "completed"
    assert done.tx_hash


@pytest.mark.parametrize(
    ("kwargs", "error", "where"),
    [
        ({"value": 0}, errors.InvalidInputError, "value"),
        ({"to": "0x12"}, errors.InvalidInputError, "to"),
        ({"chain_id": 11155111}, errors.InvalidInputError, None),
    ],
)
async def test_submit_batch_refuses_before_any_io(
    sb_gateway: Any, sb: Sandbox, kwargs: dict[str, Any], error: type[Exception], where: str | None
) -> None:
    arguments = {"chain_id": 8453, "to": OTHER, "value": 1, **kwargs}
    with pytest.raises(error) as raised:
        await resolve(sb_gateway.submit_batch(TEST_SIGNER, **arguments))
    if where is not None:
        assert raised.value.argument == where  # type: ignore[attr-defined]
    assert sb.requests.select("gateway") == []


async def test_x402_supported_names_the_pinned_gateway_wallet(sb_gateway: Any) -> None:
    supported = await resolve(sb_gateway.get_x402_supported())
    kind = supported.for_chain(8453)
    assert kind is not None
    assert kind.scheme == "exact"
    assert kind.network == "eip155:8453"
    assert kind.verifying_contract == DEFAULT_REGISTRY.chain(8453).gateway_wallet


async def test_the_transfer_search_follows_the_link_cursor(sb_gateway: Any, sb: Sandbox) -> None:
    sb.fund(ME, 8453, 1_000_000)
    ids = [
        (await resolve(sb_gateway.submit_batch(TEST_SIGNER, chain_id=8453, to=OTHER, value=v))).id
        for v in (1, 2, 3, 4, 5)
    ]
    found = await drain(sb_gateway.iter_x402_transfers(from_address=ME, page_size=2))
    assert [t.id for t in found] == ids
    reads = sb.requests.select("gateway", "GET", "/v1/x402/transfers")
    assert len(reads) == 3
    none = await drain(sb_gateway.iter_x402_transfers(to_address=ME))
    assert none == []


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"status": "completed"}, "status"),
        ({"nonce": "0x12"}, "nonce"),
        ({"page_size": 0}, "page_size"),
        ({"from_address": "nope"}, "from_address"),
    ],
)
async def test_search_filters_are_checked_before_any_io(
    sb_gateway: Any, sb: Sandbox, kwargs: dict[str, Any], argument: str
) -> None:
    with pytest.raises(errors.InvalidInputError) as raised:
        await drain(sb_gateway.iter_x402_transfers(**kwargs))
    assert raised.value.argument == argument
    assert sb.requests.select("gateway") == []


def _mocked(kind: str, handler: Any) -> Any:
    transport = httpx.MockTransport(handler)
    if kind == "sync":
        return GatewayClient(
            base_url="https://gateway.test", http_client=httpx.Client(transport=transport)
        )
    return AsyncGatewayClient(
        base_url="https://gateway.test", http_client=httpx.AsyncClient(transport=transport)
    )


async def test_only_the_cursor_is_taken_from_a_link_never_its_host(kind: str) -> None:
    seen: list[httpx.URL] = []
    sample = SAMPLES["x402_transfer"]

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url)
        if "pageAfter" in request.url.params:
            return httpx.Response(
                200, json={"transfers": [{**sample, "id": "5" * 8 + sample["id"][8:]}]}
            )
        link = '<https://elsewhere.example/v1/x402/transfers?pageAfter=abc&pageSize=1>; rel="next"'
        return httpx.Response(200, json=[sample], headers={"Link": link})

    found = await drain(_mocked(kind, handler).iter_x402_transfers(page_size=1))
    assert len(found) == 2
    assert [url.host for url in seen] == ["gateway.test", "gateway.test"]
    assert seen[1].params["pageAfter"] == "abc"


async def test_a_cursor_sent_twice_is_a_pagination_error(kind: str) -> None:
    sample = SAMPLES["x402_transfer"]
    link = '<https://gateway.test/v1/x402/transfers?pageAfter=same>; rel="next"'

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=[sample], headers={"Link": link})

    with pytest.raises(errors.PaginationError):
        await drain(_mocked(kind, handler).iter_x402_transfers())


async def test_a_keyless_relay_shows_in_the_transfer_search(kind: str, sb: Sandbox) -> None:
    sb.fund(ME, 8453, 1_000_000)
    make = sb.relayer_client if kind == "sync" else sb.async_relayer_client
    relayer = make(api_key=None, payer=TEST_SIGNER, max_payment=10_000)
    paid = await resolve(relayer.submit_tx(chain_id=8453, to=OTHER, call_data="0x"))
    gateway = sb.gateway_client() if kind == "sync" else sb.async_gateway_client()
    transfer = await resolve(gateway.get_x402_transfer(paid.x402_payment.transaction))
    assert transfer.from_address == ME
    assert transfer.to_address == sb.relayer.x402_pay_to
    found = await drain(gateway.iter_x402_transfers(from_address=ME, status="received"))
    assert [t.id for t in found] == [transfer.id]


# ------------------------------------------------------------------ webhooks


class _Receiver(BaseHTTPRequestHandler):
    received: list[tuple[bytes, dict[str, str]]]

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        self.received.append((self.rfile.read(length), dict(self.headers.items())))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        return None


@pytest.fixture
def receiver() -> Iterator[tuple[str, list[tuple[bytes, dict[str, str]]]]]:
    """A webhook endpoint on 127.0.0.1 that keeps what it receives; stopped after."""
    received: list[tuple[bytes, dict[str, str]]] = []
    handler = type("Receiver", (_Receiver,), {"received": received})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hooks", received
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


async def test_signed_deliveries_verify_and_repeats_are_dropped(
    sb_gateway: Any, sb: Sandbox, receiver: tuple[str, list[Any]]
) -> None:
    url, received = receiver
    sb.gateway.subscribe_webhooks(url)
    event = {"walletAddress": ME, "domain": 6, "amount": "1.000000"}
    notification_id = sb.gateway.send_webhook("gateway.deposit.finalized", event, times=2)
    assert len(received) == 2
    seen = NotificationDeduplicator()
    handled = []
    for body, headers in received:
        notification = await resolve(
            sb_gateway.verify_webhook(
                body, signature=headers["X-Circle-Signature"], key_id=headers["X-Circle-Key-Id"]
            )
        )
        assert notification.notification_id == notification_id
        assert notification.notification_type == "gateway.deposit.finalized"
        assert notification.notification == event
        if seen.first_time(notification):
            handled.append(notification)
    assert len(handled) == 1
    # The key was read once, then kept on the client by its id.
    assert len(sb.requests.select("gateway", "GET")) == 1


async def test_a_tampered_webhook_is_refused(sb: Sandbox, sb_gateway: Any) -> None:
    body = sb.gateway.notification_body(
        "gateway.mint.finalized", {"amount": "1.000000"}, notification_id="n-1"
    )
    signature = sb.gateway.sign_webhook(body)
    key = sb.gateway.webhook_public_key()
    assert verify_webhook(body, signature, key).notification_id == "n-1"
    tampered = body.replace(b"1.000000", b"9.000000")
    with pytest.raises(errors.WebhookSignatureError):
        verify_webhook(tampered, signature, key)
    with pytest.raises(errors.WebhookSignatureError):
        await resolve(
            sb_gateway.verify_webhook(
                tampered, signature=signature, key_id=sb.gateway.webhook_key_id
            )
        )


def test_every_other_mismatch_is_a_webhook_signature_error(sb: Sandbox) -> None:
    from Crypto.PublicKey import ECC

    body = sb.gateway.notification_body("gateway.mint.forwarded", {}, notification_id="n-2")
    signature = sb.gateway.sign_webhook(body)
    key = sb.gateway.webhook_public_key()
    other_key = ECC.generate(curve="P-256")
    other = other_key.public_key().export_key(format="PEM")
    p384 = ECC.generate(curve="P-384").public_key().export_key(format="DER")
    ed25519 = ECC.generate(curve="Ed25519").public_key().export_key(format="DER")
    private = other_key.export_key(format="PEM")
    not_a_notification = b'{"hello": "world"}'
    for args in [
        (body, signature, other),  # another key
        (body, signature, p384),  # not P-256
        (body, signature, ed25519),  # not ECDSA
        (body, signature, private),  # a private key given by mistake
        (body, signature, base64.b64encode(b"\x30\x03\x02\x01\x01").decode()),  # DER, no key
        (body, "not base64!", key),
        (body, "", key),
        (body, base64.b64encode(b"\x30\x00").decode(), key),  # DER, no signature
        (body, signature, "bm90IGEga2V5"),  # base64, not a key
        (body, signature, 42),  # not a key at all
        (not_a_notification, sb.gateway.sign_webhook(not_a_notification), key),
    ]:
        with pytest.raises(errors.WebhookSignatureError):
            verify_webhook(*args)


def test_a_signature_made_by_another_implementation_verifies() -> None:
    # Signed with OpenSSL (through the cryptography package), not with pycryptodome:
    # see tests/data/README.md.
    vector = json.loads(
        (Path(__file__).resolve().parents[1] / "data" / "webhook-signature-vector.json").read_text()
    )
    body = vector["body"].encode()
    for key in (vector["public_key"], vector["public_key_pem"]):
        notification = verify_webhook(body, vector["signature"], key)
        assert notification.notification_type == "gateway.mint.finalized"
    der = base64.b64decode(vector["public_key"])
    assert verify_webhook(body, vector["signature"], der).notification_id.endswith("c0de")
    with pytest.raises(errors.WebhookSignatureError):
        verify_webhook(body.replace(b"25.000000", b"26.000000"), vector["signature"], der)


def test_the_deduplicator_forgets_the_oldest() -> None:
    seen = NotificationDeduplicator(max_entries=2)
    assert [seen.first_time(i) for i in ("a", "b", "a", "c", "b", "a")] == [
        True,
        True,
        False,
        True,
        True,
        True,
    ]
    with pytest.raises(errors.InvalidInputError):
        NotificationDeduplicator(max_entries=0)


# ------------------------------------------------------------------ delegates


def test_delegate_readiness_follows_the_finality_table() -> None:
    from xswap_sdk.gateway import FINALITY_SECONDS, delegate_readiness

    base = {"chain_id": 8453, "added_at": 1_000.0}
    assert delegate_readiness(authorized=False, now=5_000.0, **base) == "none"
    assert delegate_readiness(authorized=True, now=1_001.0, **base) == "pending"
    ready_at = 1_000.0 + FINALITY_SECONDS[8453]
    assert delegate_readiness(authorized=True, now=ready_at, **base) == "ready"
    fast = {"chain_id": 43114, "added_at": 1_000.0, "authorized": True}
    assert delegate_readiness(now=1_009.0, **fast) == "ready"
    with pytest.raises(errors.InvalidInputError) as raised:
        delegate_readiness(authorized=True, added_at=0, now=1, chain_id=424242)
    assert raised.value.argument == "finality_seconds"
    assert (
        delegate_readiness(
            authorized=True, added_at=0, now=10, chain_id=424242, finality_seconds=10
        )
        == "ready"
    )


@pytest.mark.parametrize("key_id", ["not-a-uuid", "3c90c3cc-0d44-4b50-8888-8dd25736052a"])
async def test_a_key_id_that_names_no_key_is_refused(
    sb_gateway: Any, sb: Sandbox, key_id: str
) -> None:
    body = sb.gateway.notification_body("gateway.mint.finalized", {}, notification_id="n-3")
    with pytest.raises(errors.WebhookSignatureError):
        await resolve(
            sb_gateway.verify_webhook(body, signature=sb.gateway.sign_webhook(body), key_id=key_id)
        )
