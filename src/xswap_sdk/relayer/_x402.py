"""Paying the relayer's keyless mode with x402, from a Circle Gateway balance.

With no API key, the relayer answers a submission with HTTP 402 and x402 payment
requirements (Rath's "Circle Gateway nanopayments"). `X402Payer` reads them, keeps the
Gateway-batched option (``extra.name`` ``GatewayWalletBatched``), checks it against the
facts the SDK pins and the caller's cap, signs an EIP-3009 ``TransferWithAuthorization``
and returns the header the request is sent again with. The transport's attempt loop
calls it at most once per call (``xswap_sdk._async_transport``).

What is checked, before anything is signed (a mismatch is `UnsafePayloadError`):

- ``scheme`` ``exact`` on an ``eip155:<chain id>`` network of the registry;
- ``extra.name`` ``GatewayWalletBatched``, ``extra.version`` ``1`` and
  ``extra.verifyingContract`` the registry's GatewayWallet of that chain: the EIP-712
  domain of Gateway's batched payments;
- ``asset`` the registry's USDC of that chain;
- ``amount`` at most ``max_payment`` (and more than 0);
- ``payTo`` an address that is neither zero nor the payer;
- ``maxTimeoutSeconds`` from 1 s to `MAX_X402_VALIDITY` (fourteen days): Circle's
  batching scheme uses 604,900 s (seven days, Gateway's minimum, and 100 s:
  `xswap_sdk.signing.eip3009.GATEWAY_BATCH_VALIDITY`), and the authorization is signed
  valid for exactly the window offered, never longer than the stated maximum;
- the client's total: the payment and every one made before it stay within
  ``max_total_payment`` when the client has one.

Who is paid (``payTo``) is the relayer's choice by nature: it is the seller. So each
payment is signed through the signing gate as a `SigningRequest` of kind
``"x402_payment"``, token the chain's USDC and counterparty the seller: a policy's
``max_per_day``, ``max_per_signature``, ``allowed_tokens`` and
``allowed_counterparties`` apply to it as to any USDC leaving the signer. The caps bound
what one call (``max_payment``) and the client (``max_total_payment``) can cost; the
transport pays only operations the relayer prices (`Operation.priced`), once each.

The wire format is x402's own: requirements in the ``PAYMENT-REQUIRED`` header (base64
JSON, version 2) or in the body (``x402Version`` and ``accepts``); the payment in the
``PAYMENT-SIGNATURE`` header (version 2: ``x402Version``, ``payload`` with
``authorization`` and ``signature``, ``accepted``) or ``X-PAYMENT`` (version 1). It is
small enough to write here: the official ``x402`` package would bring its server,
client and framework code, and ``nest-asyncio``, for two base64 JSON documents.
"""

from __future__ import annotations

import base64
import binascii
import json
import threading
from collections.abc import Mapping
from typing import Any, Final

from .._clock import Clock
from ..errors import InvalidInputError, PaymentRequiredError, UnsafePayloadError
from ..registry import Registry
from ..signing._gate import as_kind
from ..signing.eip3009 import (
    GATEWAY_BATCHED_DOMAIN_NAME,
    GATEWAY_BATCHED_DOMAIN_VERSION,
    MAX_BATCH_VALIDITY,
    TransferAuthorization,
    sign_transfer_authorization,
)
from ..signing.signer import Signer, signer_address
from ..types import _same_address, to_checksum

__all__ = [
    "GATEWAY_BATCHED_DOMAIN_NAME",
    "GATEWAY_BATCHED_DOMAIN_VERSION",
    "MAX_X402_VALIDITY",
    "X402Payer",
    "check_max_payment",
    "check_max_total_payment",
    "decode_x402_header",
    "encode_x402_header",
]

MAX_X402_VALIDITY: Final = MAX_BATCH_VALIDITY
"""The longest ``maxTimeoutSeconds`` paid, in seconds (1,209,600: fourteen days, the
SDK's maximum for a Gateway-batched authorization; Circle's own offers say 604,900)."""

PAYMENT_REQUIRED_HEADER: Final = "payment-required"
PAYMENT_SIGNATURE_HEADER: Final = "Payment-Signature"
PAYMENT_HEADER_V1: Final = "X-PAYMENT"

# A requirements header or body larger than this is no honest 402.
_MAX_DOCUMENT_BYTES: Final = 64 * 1024
_ZERO_ADDRESS: Final = "0x" + "0" * 40


def encode_x402_header(document: Mapping[str, Any]) -> str:
    """An x402 header value: the document as compact JSON, base64 encoded."""
    text = json.dumps(document, separators=(",", ":"), sort_keys=False)
    return base64.b64encode(text.encode()).decode("ascii")


def decode_x402_header(value: str) -> Any:
    """The JSON document of an x402 header value (base64 JSON).

    Raises:
        ValueError: not base64 of a JSON document, or too large.
    """
    if len(value) > _MAX_DOCUMENT_BYTES * 4 // 3 + 4:
        raise ValueError("the header is too large")
    try:
        raw = base64.b64decode(value.strip(), validate=True)
        return json.loads(raw)
    except (binascii.Error, UnicodeDecodeError, RecursionError) as exc:
        raise ValueError(f"not base64 JSON ({type(exc).__name__})") from None


def check_max_payment(payer: object, max_payment: object) -> int | None:
    """``max_payment`` checked against ``payer``: required with a payer, an ``int`` of
    smallest USDC units above 0; refused without one."""
    if payer is None:
        if max_payment is not None:
            raise InvalidInputError("max_payment", "is only used with payer= (an x402 payer)")
        return None
    if max_payment is None:
        raise InvalidInputError(
            "max_payment",
            "is required with payer=: the most one request may cost, in smallest USDC "
            "units (10_000 is 0.01 USDC)",
        )
    if isinstance(max_payment, bool) or not isinstance(max_payment, int) or max_payment <= 0:
        raise InvalidInputError(
            "max_payment", "must be an int above 0, in smallest USDC units (10_000 is 0.01 USDC)"
        )
    return max_payment


def check_max_total_payment(payer: object, max_total_payment: object) -> int | None:
    """``max_total_payment`` checked against ``payer``: ``None`` (no cap beyond
    ``max_payment`` per submission) or an ``int`` of smallest USDC units above 0; refused
    without a payer."""
    if max_total_payment is None:
        return None
    if payer is None:
        raise InvalidInputError("max_total_payment", "is only used with payer= (an x402 payer)")
    if (
        isinstance(max_total_payment, bool)
        or not isinstance(max_total_payment, int)
        or max_total_payment <= 0
    ):
        raise InvalidInputError(
            "max_total_payment",
            "must be an int above 0, in smallest USDC units (1_000_000 is 1 USDC), or None",
        )
    return max_total_payment


def _requirements(error: PaymentRequiredError) -> tuple[int, list[Any], Any] | None:
    """``(x402Version, accepts, resource)`` of a 402, or ``None`` when it carries none."""
    header = error.headers.get(PAYMENT_REQUIRED_HEADER)
    document: Any = None
    if header:
        try:
            document = decode_x402_header(header)
        except ValueError as exc:
            raise UnsafePayloadError(
                "x402.PAYMENT-REQUIRED", expected="base64 JSON (x402)", received=str(exc)
            ) from None
    else:
        body = error.body
        if isinstance(body, dict) and "accepts" in body:
            document = body
        elif isinstance(body, dict) and isinstance(body.get("error"), dict):
            details = body["error"].get("details")
            if isinstance(details, dict) and "accepts" in details:
                document = details
    if document is None:
        return None
    if not isinstance(document, dict) or not isinstance(document.get("accepts"), list):
        raise UnsafePayloadError(
            "x402.accepts", expected="a list of payment requirements", received=document
        )
    version = document.get("x402Version", 2 if header else 1)
    if version not in (1, 2) or isinstance(version, bool):
        raise UnsafePayloadError("x402.x402Version", expected="1 or 2", received=version)
    return version, document["accepts"], document.get("resource")


def _whole(where: str, value: object, rule: str) -> int:
    if isinstance(value, bool):
        raise UnsafePayloadError(where, expected=rule, received=value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 78:
        return int(value)
    raise UnsafePayloadError(where, expected=rule, received=value)


def _pinned(where: str, value: object, pinned: str, what: str) -> None:
    if not _same_address(value, pinned):
        raise UnsafePayloadError(where, expected=f"{pinned} ({what})", received=value)


class X402Payer:
    """Pays a relayer's x402 requirements from the signer's Circle Gateway balance.

    Args:
        signer: who pays (an EOA: Gateway checks the signature with ``ecrecover``).
        max_payment: the most one request may cost, in smallest USDC units.
        registry: the pinned chains (GatewayWallet and USDC per chain).
        clock: the time source of the validity window.
        max_total_payment: the most every payment of this payer may cost together, in
            smallest USDC units; ``None`` for no total cap.
    """

    def __init__(
        self,
        signer: Signer,
        max_payment: int,
        registry: Registry,
        clock: Clock,
        max_total_payment: int | None = None,
    ):
        self.address = signer_address(signer, argument="payer")
        self._signer = signer
        self.max_payment = max_payment
        self.max_total_payment = max_total_payment
        self._registry = registry
        self._clock = clock
        # What was signed so far: a signed payment counts even when the service refused
        # it, since it may still be settled.
        self._lock = threading.Lock()
        self._paid = 0

    def __repr__(self) -> str:
        return (
            f"X402Payer(address={self.address!r}, max_payment={self.max_payment}, "
            f"max_total_payment={self.max_total_payment}, paid={self._paid})"
        )

    @property
    def total_paid(self) -> int:
        """What this payer signed so far, in smallest USDC units."""
        return self._paid

    def _reserve(self, where: str, amount: int) -> None:
        with self._lock:
            cap = self.max_total_payment
            if cap is not None and self._paid + amount > cap:
                raise UnsafePayloadError(
                    f"{where}.amount",
                    expected=f"at most {cap - self._paid} more (max_total_payment={cap}, "
                    f"{self._paid} paid)",
                    received=amount,
                    hint="raise max_total_payment, or use a new client, to pay more",
                )
            self._paid += amount

    def _release(self, amount: int) -> None:
        with self._lock:
            self._paid -= amount

    def _checked(self, where: str, option: object) -> tuple[int, str, int, int]:
        """``(chain id, payTo, amount, maxTimeoutSeconds)`` of a Gateway-batched option
        that fits the pinned facts and the cap; `UnsafePayloadError` otherwise."""
        if not isinstance(option, dict):
            raise UnsafePayloadError(where, expected="an object", received=option)
        extra = option.get("extra")
        extra = extra if isinstance(extra, dict) else {}
        if option.get("scheme") != "exact":
            raise UnsafePayloadError(
                f"{where}.scheme", expected="exact", received=option.get("scheme")
            )
        network = option.get("network")
        prefix, _, reference = str(network).partition(":")
        chain = None
        if prefix == "eip155" and reference.isascii() and reference.isdigit():
            chain = self._registry.get(int(reference))
        if chain is None:
            raise UnsafePayloadError(
                f"{where}.network",
                expected="eip155:<chain id> of a chain in the registry",
                received=network,
                hint="add the chain to the registry (xswap_sdk.registry) to pay there",
            )
        if extra.get("version") != GATEWAY_BATCHED_DOMAIN_VERSION:
            raise UnsafePayloadError(
                f"{where}.extra.version",
                expected=GATEWAY_BATCHED_DOMAIN_VERSION,
                received=extra.get("version"),
            )
        _pinned(
            f"{where}.extra.verifyingContract",
            extra.get("verifyingContract"),
            chain.gateway_wallet,
            f"the GatewayWallet on {chain.name}",
        )
        _pinned(f"{where}.asset", option.get("asset"), chain.usdc, f"USDC on {chain.name}")
        amount = _whole(
            f"{where}.amount",
            option.get("amount", option.get("maxAmountRequired")),
            "an amount in smallest USDC units",
        )
        if not 0 < amount <= self.max_payment:
            raise UnsafePayloadError(
                f"{where}.amount",
                expected=f"at most max_payment={self.max_payment} (and above 0)",
                received=amount,
                hint="raise max_payment if this price is acceptable",
            )
        pay_to = option.get("payTo")
        try:
            pay_to = to_checksum(pay_to)
        except (InvalidInputError, TypeError, ValueError):
            raise UnsafePayloadError(
                f"{where}.payTo", expected="an EVM address", received=pay_to
            ) from None
        if pay_to in (_ZERO_ADDRESS, self.address):
            raise UnsafePayloadError(
                f"{where}.payTo", expected="neither the zero address nor the payer", received=pay_to
            )
        timeout = _whole(
            f"{where}.maxTimeoutSeconds", option.get("maxTimeoutSeconds"), "whole seconds"
        )
        if not 0 < timeout <= MAX_X402_VALIDITY:
            raise UnsafePayloadError(
                f"{where}.maxTimeoutSeconds",
                expected=f"from 1 to {MAX_X402_VALIDITY} seconds (a validity window)",
                received=timeout,
            )
        return chain.chain_id, pay_to, amount, timeout

    def pay(self, error: PaymentRequiredError) -> dict[str, str] | None:
        """The headers that pay ``error``'s requirements, or ``None`` when the 402
        carries no x402 requirements (nothing to pay: the caller raises ``error``).

        Raises:
            UnsafePayloadError: no Gateway-batched option fits the pinned facts and the
                cap (the first one's problem is named); nothing was signed.
            SigningError: the signer failed.
        """
        found = _requirements(error)
        if found is None:
            return None
        version, accepts, resource = found
        batched = [
            (index, option)
            for index, option in enumerate(accepts)
            if isinstance(option, dict)
            and isinstance(option.get("extra"), dict)
            and option["extra"].get("name") == GATEWAY_BATCHED_DOMAIN_NAME
        ]
        if not batched:
            raise UnsafePayloadError(
                "x402.accepts",
                expected=f"an option with extra.name {GATEWAY_BATCHED_DOMAIN_NAME!r} "
                "(Circle Gateway's batched payments)",
                received=[
                    option.get("scheme") if isinstance(option, dict) else option
                    for option in accepts[:8]
                ],
            )
        first: UnsafePayloadError | None = None
        for index, option in batched:
            try:
                chain_id, pay_to, amount, timeout = self._checked(f"x402.accepts[{index}]", option)
            except UnsafePayloadError as exc:
                first = first or exc
                continue
            self._reserve(f"x402.accepts[{index}]", amount)
            try:
                authorization = self._sign(chain_id, pay_to, amount, timeout, option, resource)
            except BaseException:
                self._release(amount)
                raise
            return _payment_headers(version, option, resource, authorization)
        assert first is not None
        raise first

    def _sign(
        self,
        chain_id: int,
        pay_to: str,
        amount: int,
        timeout: int,
        option: Mapping[str, Any],
        resource: Any,
    ) -> TransferAuthorization:
        """Sign the payment through the signing gate, described as what it is: an
        ``x402_payment`` of ``amount`` USDC to the seller ``pay_to``."""
        chain = self._registry.chain(chain_id)
        now = int(self._clock.time())
        details = {"network": option.get("network"), "resource": resource}
        with as_kind("x402_payment", details, token=chain.usdc):
            return sign_transfer_authorization(
                self._signer,
                domain_name=GATEWAY_BATCHED_DOMAIN_NAME,
                domain_version=GATEWAY_BATCHED_DOMAIN_VERSION,
                chain_id=chain_id,
                verifying_contract=chain.gateway_wallet,
                to=pay_to,
                value=amount,
                valid_after=0,
                valid_before=now + timeout,
                now=now,
            )


def _payment_headers(
    version: int, accepted: dict[str, Any], resource: Any, authorization: TransferAuthorization
) -> dict[str, str]:
    payload = {
        "authorization": {
            "from": authorization.authorizer,
            "to": authorization.to,
            "value": str(authorization.value),
            "validAfter": str(authorization.valid_after),
            "validBefore": str(authorization.valid_before),
            "nonce": authorization.nonce,
        },
        "signature": authorization.signature,
    }
    if version == 1:
        document = {
            "x402Version": 1,
            "scheme": accepted["scheme"],
            "network": accepted["network"],
            "payload": payload,
        }
        return {PAYMENT_HEADER_V1: encode_x402_header(document)}
    document = {"x402Version": 2, "payload": payload, "accepted": accepted}
    if resource is not None:
        document["resource"] = resource
    return {PAYMENT_SIGNATURE_HEADER: encode_x402_header(document)}
