"""The emulated Gateway's newer endpoints, mixed into `GatewayService`: pending
deposits, batched EIP-3009 authorizations, the x402 facilitator (supported kinds,
settlement, transfers with a ``Link`` cursor) and signed webhook deliveries.

A batched authorization (an x402 payment the relayer settles, or ``/v1/batch/submit``)
is checked as Gateway checks it: a ``TransferWithAuthorization`` signed by its ``from``
for the ``GatewayWalletBatched`` ``1`` domain of the chain with Circle's GatewayWallet,
valid now, with a fresh nonce, within the payer's available balance on that chain,
which it debits. Its transfer is ``received``, then ``completed`` with a settlement hash
after `X402_SETTLE_SECONDS`.

Webhooks are signed with an ECDSA P-256 key made for the sandbox (``webhook_key_id``,
served at ``/v2/notifications/publicKey/{id}``) and POSTed to each URL given to
`NanopaymentsRoutes.subscribe_webhooks`: a test serves one on 127.0.0.1.
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import httpx

from ..errors import InvalidInputError, SigningError
from ..signing.eip3009 import (
    GATEWAY_BATCHED_DOMAIN_NAME,
    GATEWAY_BATCHED_DOMAIN_VERSION,
    GATEWAY_MIN_BATCH_VALIDITY,
    _arguments,
    _digest,
)
from ..signing.signer import recover_digest
from ._catalog import GATEWAY_WALLET, usdc
from ._http import HTTPError, Request, Response
from ._world import World, iso
from .flash import FLASH_CHAINS

if TYPE_CHECKING:
    from Crypto.PublicKey.ECC import EccKey

    from ._catalog import Chain

__all__ = ["X402_SETTLE_SECONDS", "NanopaymentsRoutes", "WebhookDelivery", "X402Transfer"]

X402_SETTLE_SECONDS: Final = 60.0
"""Seconds a batched transfer stays ``received`` before it is ``completed``."""

_PAGE_SIZE_MAX: Final = 100


@dataclass
class X402Transfer:
    """A batched transfer the emulated Gateway accepted (``sb.gateway.x402_transfers``).

    Attributes:
        id: its UUID.
        chain_id: the chain of its EIP-712 domain (and of the balance debited).
        payer: who paid (the authorization's ``from``).
        pay_to: who was paid.
        amount: smallest USDC units.
        nonce: the EIP-3009 nonce.
        created_at: when it was accepted, in seconds of the sandbox clock (unix time).
        tx_hash: the settlement transaction of its batch.
    """

    id: str
    chain_id: int
    payer: str
    pay_to: str
    amount: int
    nonce: str
    created_at: float
    tx_hash: str = ""


@dataclass
class WebhookDelivery:
    """One webhook POST the sandbox made.

    Attributes:
        url: where it went.
        body: the body, exactly as signed and sent.
        headers: ``X-Circle-Signature`` and ``X-Circle-Key-Id``.
        status: the endpoint's answer, or ``None`` when it could not be reached.
    """

    url: str
    body: bytes = field(repr=False)
    headers: dict[str, str] = field(repr=False)
    status: int | None


class NanopaymentsRoutes:
    """The routes and state of the newer Gateway endpoints (see the module docstring)."""

    _world: World
    x402_transfers: dict[str, X402Transfer]
    router: Any
    _delegates: Any

    def balance(self, address: str, chain_id: int) -> int:  # pragma: no cover - overridden
        """The Gateway balance of ``address`` on ``chain_id`` (the service defines it)."""
        raise NotImplementedError

    def sources(self, request: Request) -> list[tuple[str, Chain]]:  # pragma: no cover
        """The (depositor, chain) pairs a request asks about (the service defines it)."""
        raise NotImplementedError

    def pending_deposits(
        self, owner: str, chain: Chain
    ) -> list[dict[str, Any]]:  # pragma: no cover
        """The deposits of ``owner`` on ``chain`` not yet finalized (the service defines
        it)."""
        raise NotImplementedError

    def _add_nanopayment_routes(self) -> None:
        self.webhook_urls: list[str] = []
        self.webhook_deliveries: list[WebhookDelivery] = []
        self.webhook_key_id: str = self._world.uuid()
        self._webhook_key: EccKey | None = None
        handlers: Sequence[tuple[str, str, Callable[[Request], Response]]] = (
            ("POST", "/v1/deposits", self._deposits_route),
            ("POST", "/v1/batch/submit", self._batch_submit),
            ("GET", "/v1/x402/supported", self._x402_supported),
            ("GET", "/v1/x402/transfers", self._x402_transfers),
            ("GET", "/v1/x402/transfers/{id}", self._x402_transfer),
            ("GET", "/v2/notifications/publicKey/{id}", self._public_key),
        )
        for method, path, handler in handlers:
            self.router.add(method, path, handler)

    # ------------------------------------------------------------------ deposits

    def _deposits_route(self, request: Request) -> Response:
        deposits = [
            entry
            for owner, chain in self.sources(request)
            for entry in self.pending_deposits(owner, chain)
        ]
        return Response.json({"token": "USDC", "deposits": deposits})

    # ------------------------------------------------------------------ authorizations

    def accept_authorization(
        self,
        authorization: Any,
        signature: Any,
        chain_id: int,
        *,
        pay_to: str | None = None,
        amount: int | None = None,
    ) -> X402Transfer:
        """Accept a batched ``TransferWithAuthorization`` as Gateway does (see the
        module docstring) and debit the payer.

        Raises:
            HTTPError: 402 when the balance is short, 400 for anything else.
        """
        if not isinstance(authorization, dict):
            raise HTTPError(400, "invalid_payload: the authorization must be an object")
        try:
            args = _arguments(
                primary_type="TransferWithAuthorization",
                token_name=GATEWAY_BATCHED_DOMAIN_NAME,
                token_version=GATEWAY_BATCHED_DOMAIN_VERSION,
                chain_id=chain_id,
                token=GATEWAY_WALLET,
                authorizer=authorization.get("from"),
                to=authorization.get("to"),
                value=authorization.get("value"),
                valid_after=authorization.get("validAfter"),
                valid_before=authorization.get("validBefore"),
                nonce=authorization.get("nonce"),
            )
            signer = recover_digest(_digest(args), signature)
        except (InvalidInputError, SigningError) as exc:
            raise HTTPError(400, f"invalid_payload: {exc}") from None
        if signer != args.authorizer:
            raise HTTPError(400, "invalid_signature")
        if pay_to is not None and args.to.lower() != pay_to.lower():
            raise HTTPError(400, "address_mismatch")
        if amount is not None and args.value != amount:
            raise HTTPError(400, "amount_mismatch")
        if args.value == 0 or args.authorizer == args.to:
            raise HTTPError(400, "self_transfer" if args.value else "amount_mismatch")
        now = self._world.now()
        if args.valid_before <= now:
            raise HTTPError(400, "authorization_expired")
        if args.valid_before - now < GATEWAY_MIN_BATCH_VALIDITY:
            # Gateway's rule: a batched authorization valid less than seven days.
            raise HTTPError(400, "authorization_validity_too_short")
        if args.valid_after > now:
            raise HTTPError(400, "authorization_not_yet_valid")
        if any(t.nonce == args.nonce for t in self.x402_transfers.values()):
            raise HTTPError(400, "nonce_already_used")
        if self.balance(args.authorizer, chain_id) < args.value:
            raise HTTPError(402, "insufficient_balance")
        transfer = X402Transfer(
            self._world.uuid(),
            chain_id,
            args.authorizer,
            args.to,
            args.value,
            args.nonce,
            now,
            self._world.tx_hash(),
        )
        self.x402_transfers[transfer.id] = transfer
        return transfer

    def settle_x402(self, payload: Any, requirement: dict[str, Any]) -> X402Transfer:
        """Settle an x402 payment (``payload`` of a ``Payment-Signature``) against the
        requirement it answers: ``payTo`` and ``amount`` must be the requirement's.

        Raises:
            HTTPError: 402 when the balance is short, 400 for anything else.
        """
        if not isinstance(payload, dict):
            raise HTTPError(400, "invalid_payload: payload must be an object")
        chain_id = int(str(requirement["network"]).partition(":")[2])
        return self.accept_authorization(
            payload.get("authorization"),
            payload.get("signature"),
            chain_id,
            pay_to=str(requirement["payTo"]),
            amount=int(requirement["amount"]),
        )

    def _chain_of_domain(self, domain: object) -> Chain:

        chain = next((c for c in FLASH_CHAINS if c.gateway_domain == domain), None)
        if chain is None or isinstance(domain, bool):
            raise HTTPError(400, f"domain {domain!r} is not supported")
        return chain

    def _batch_submit(self, request: Request) -> Response:
        body = request.json()
        if not isinstance(body, dict) or body.get("token") != "USDC":
            raise HTTPError(400, "token must be USDC")
        sending, recipient = body.get("sendingDomain"), body.get("recipientDomain")
        if sending != recipient:
            raise HTTPError(400, "sendingDomain must equal recipientDomain (same-chain)")
        chain = self._chain_of_domain(sending)
        auth = body.get("auth")
        entry = auth.get("eip3009Auth") if isinstance(auth, dict) else None
        if not isinstance(entry, dict):
            raise HTTPError(400, "auth.eip3009Auth is required")
        fields = {k: v for k, v in entry.items() if k != "signature"}
        transfer = self.accept_authorization(fields, entry.get("signature"), chain.id)
        return Response.json({"id": transfer.id})

    # ------------------------------------------------------------------ x402

    def _x402_supported(self, request: Request) -> Response:

        kinds = [
            {
                "x402Version": 2,
                "scheme": "exact",
                "network": f"eip155:{chain.id}",
                "extra": {
                    "verifyingContract": GATEWAY_WALLET,
                    "assets": [
                        {"address": usdc(chain.id).address, "symbol": "USDC", "decimals": 6}
                    ],
                },
            }
            for chain in FLASH_CHAINS
        ]
        return Response.json({"kinds": kinds, "extensions": [], "signers": {}})

    def _render(self, transfer: X402Transfer) -> dict[str, Any]:
        done = self._world.now() >= transfer.created_at + X402_SETTLE_SECONDS
        network = f"eip155:{transfer.chain_id}"
        return {
            "id": transfer.id,
            "status": "completed" if done else "received",
            "token": "USDC",
            "sendingNetwork": network,
            "recipientNetwork": network,
            "fromAddress": transfer.payer,
            "toAddress": transfer.pay_to,
            "amount": str(transfer.amount),
            "nonce": transfer.nonce,
            "txHash": transfer.tx_hash if done else None,
            "createdAt": iso(transfer.created_at),
            "updatedAt": iso(transfer.created_at + (X402_SETTLE_SECONDS if done else 0.0)),
        }

    def _x402_transfer(self, request: Request) -> Response:
        try:
            transfer_id = str(uuid.UUID(request.path_params["id"]))
        except ValueError:
            raise HTTPError(400, "id must be a UUID") from None
        transfer = self.x402_transfers.get(transfer_id)
        if transfer is None:
            raise HTTPError(404, f"Transfer {transfer_id} not found")
        return Response.json(self._render(transfer))

    def _x402_transfers(self, request: Request) -> Response:
        filters = {
            "from": "fromAddress",
            "to": "toAddress",
            "nonce": "nonce",
            "status": "status",
            "network": "sendingNetwork",
            "token": "token",
        }
        if request.arg("status") and not any(request.arg(k) for k in ("from", "to", "nonce")):
            raise HTTPError(400, "status needs from, to or nonce")
        records = [self._render(t) for t in self.x402_transfers.values()]
        for name, key in filters.items():
            wanted = request.arg(name)
            if wanted:
                records = [r for r in records if str(r[key]).lower() == wanted.lower()]
        size_arg = request.arg("pageSize") or "10"
        if not size_arg.isdigit() or not 1 <= int(size_arg) <= _PAGE_SIZE_MAX:
            raise HTTPError(400, f"pageSize must be from 1 to {_PAGE_SIZE_MAX}")
        size = int(size_arg)
        after = request.arg("pageAfter")
        if after:
            ids = [r["id"] for r in records]
            if after not in ids:
                raise HTTPError(400, "pageAfter is not a transfer of this search")
            records = records[ids.index(after) + 1 :]
        page, rest = records[:size], records[size:]
        headers = {}
        if rest:
            query = [(k, v) for k, v in request.query if k != "pageAfter"]
            query.append(("pageAfter", page[-1]["id"]))
            link = httpx.URL("https://gateway.sandbox.invalid/v1/x402/transfers", params=query)
            headers["Link"] = f'<{link}>; rel="next"'
        return Response.json(page, headers=headers)

    # ------------------------------------------------------------------ webhooks

    def _key(self) -> EccKey:
        if self._webhook_key is None:
            from Crypto.PublicKey import ECC

            self._webhook_key = ECC.generate(curve="P-256")
        return self._webhook_key

    def webhook_public_key(self) -> str:
        """The public key of the sandbox's webhooks, base64 DER as Circle serves it."""
        der = self._key().public_key().export_key(format="DER")
        return base64.b64encode(der).decode()

    def _public_key(self, request: Request) -> Response:
        if request.path_params["id"] != self.webhook_key_id:
            raise HTTPError(404, "public key not found")
        return Response.json(
            {
                "data": {
                    "id": self.webhook_key_id,
                    "algorithm": "ECDSA_SHA_256",
                    "publicKey": self.webhook_public_key(),
                    "createDate": iso(self._world.now()),
                }
            }
        )

    def subscribe_webhooks(self, url: str) -> None:
        """Deliver every notification sent from now on to ``url`` too (a server of the
        test's, on 127.0.0.1)."""
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ValueError("url must be an http(s) URL")
        self.webhook_urls.append(url)

    def sign_webhook(self, body: bytes) -> str:
        """The ``X-Circle-Signature`` of ``body``: base64 DER ECDSA P-256 / SHA-256."""
        from Crypto.Hash import SHA256
        from Crypto.Signature import DSS

        signer = DSS.new(self._key(), "fips-186-3", encoding="der")
        return base64.b64encode(signer.sign(SHA256.new(body))).decode()

    def notification_body(
        self, notification_type: str, notification: dict[str, Any], *, notification_id: str
    ) -> bytes:
        """A notification as Gateway sends it (the v2 envelope), serialised."""
        envelope = {
            "subscriptionId": str(uuid.UUID(int=1)),
            "notificationId": notification_id,
            "notificationType": notification_type,
            "notification": notification,
            "timestamp": iso(self._world.now()),
            "version": 2,
        }
        return json.dumps(envelope).encode()

    def send_webhook(
        self,
        notification_type: str,
        notification: dict[str, Any],
        *,
        times: int = 1,
        timeout: float = 5.0,
    ) -> str:
        """Sign a notification and POST it to every subscribed URL, ``times`` times
        (a retried delivery: the same ``notificationId``, as Gateway retries).

        Returns:
            Its ``notificationId``.
        """
        notification_id = self._world.uuid()
        body = self.notification_body(
            notification_type, notification, notification_id=notification_id
        )
        headers = {
            "Content-Type": "application/json",
            "X-Circle-Signature": self.sign_webhook(body),
            "X-Circle-Key-Id": self.webhook_key_id,
        }
        with httpx.Client(timeout=timeout) as client:
            for _ in range(times):
                for url in self.webhook_urls:
                    try:
                        status: int | None = client.post(
                            url, content=body, headers=headers
                        ).status_code
                    except httpx.HTTPError:
                        status = None
                    self.webhook_deliveries.append(WebhookDelivery(url, body, headers, status))
        return notification_id
