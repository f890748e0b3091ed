"""Relay with no API key, paying each submission from a Circle Gateway balance (x402),
then find the payment at Gateway and check a signed webhook.

1. Fund the Gateway balance (in the sandbox, as a finalized deposit would).
2. Submit a transaction with a keyless ``RelayerClient(payer=..., max_payment=...)``: the
   relayer answers 402, the SDK checks its Gateway-batched requirement against the pinned
   facts and the cap, signs one EIP-3009 authorization and sends the request again.
3. Read the batched transfer that settles it through ``GatewayClient``.
4. A relayer that asks for more than the cap is refused before anything is signed.
5. Verify a webhook notification as Gateway signs it, and drop its repeat.

Runs against the SDK's sandbox: no network, no funds, virtual time.

    python examples/keyless_relay.py
"""

from __future__ import annotations

from xswap_sdk import errors, from_units
from xswap_sdk.gateway import NotificationDeduplicator, verify_webhook
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

BASE = 8453
USDC_ON_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"


def usdc(units: int) -> str:
    return f"{from_units(units, 6)} USDC"


def main() -> None:
    with Sandbox() as sb:
        me = TEST_SIGNER.address
        sb.fund(me, BASE, 2_000_000)
        print("== Gateway balance on Base:", usdc(sb.gateway.balance(me, BASE)))

        # live: RelayerClient(payer=account, max_payment=50_000)
        relayer = sb.relayer_client(api_key=None, payer=TEST_SIGNER, max_payment=50_000)
        submitted = relayer.submit_tx(chain_id=BASE, to=USDC_ON_BASE, call_data="0x")
        payment = submitted.x402_payment
        assert payment is not None
        assert payment.amount is not None
        print(f"== Relayed {submitted.tx_id}, paid {usdc(payment.amount)} on {payment.network}")
        record = relayer.wait_for_execution_hash(submitted.tx_id)
        print("   executed:", record.status, record.execution_tx_hash)

        gateway = sb.gateway_client()  # live: GatewayClient()
        assert payment.transaction is not None
        transfer = gateway.get_x402_transfer(payment.transaction)
        print(f"== At Gateway: {transfer.status}, {usdc(transfer.amount)} to {transfer.to_address}")
        print("   balance now:", usdc(sb.gateway.balance(me, BASE)))

        sb.relayer.x402_offer_changes = {"amount": "90000"}  # a relayer asking too much
        try:
            relayer.relay(chain_id=BASE, to=USDC_ON_BASE, call_data="0x")
        except errors.UnsafePayloadError as exc:
            print(f"== Refused, nothing signed: {exc.field} (expected {exc.expected})")
        sb.relayer.x402_offer_changes = {}

        body = sb.gateway.notification_body(
            "gateway.deposit.finalized",
            {"walletAddress": me, "domain": 6, "amount": "1.000000"},
            notification_id="b2c3d4e5-f6a7-8901-bcde-f12345678901",
        )
        signature = sb.gateway.sign_webhook(body)
        key = gateway.get_notification_public_key(sb.gateway.webhook_key_id)
        seen = NotificationDeduplicator()
        for delivery in (body, body):  # delivered at least once: here twice
            notification = verify_webhook(delivery, signature, key)
            print(
                "== Webhook", notification.notification_type, "new:", seen.first_time(notification)
            )
        try:
            verify_webhook(body.replace(b"1.000000", b"9.000000"), signature, key)
        except errors.WebhookSignatureError as exc:
            print("== Tampered webhook:", exc)


if __name__ == "__main__":
    main()
