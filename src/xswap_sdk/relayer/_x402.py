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
- ``maxTimeoutSeconds`` from 1 s to `MAX_X402_VALIDITY` (a week): Circle recommends
  four days for a batched authorization and refuses one too short, so a window of
  minutes would be refused and one of months is absurd.

Who is paid (``payTo``) is the relayer's choice by nature: it is the seller. The cap
bounds what one call can cost.

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
from collections.abc import Mapping
from typing import Any, Final

from .._clock import Clock
from ..errors import InvalidInputError, PaymentRequiredError, UnsafePayloadError
from ..registry import Registry
from ..signing.eip3009 import (
    GATEWAY_BATCHED_DOMAIN_NAME,
    GATEWAY_BATCHED_DOMAIN_VERSION,
    TransferAuthorization,
    sign_transfer_authorization,
)
from ..signing.signer import Signer, signer_address
from ..types import to_checksum

__all__ = [
    "GATEWAY_BATCHED_DOMAIN_NAME",
    "GATEWAY_BATCHED_DOMAIN_VERSION",
    "MAX_X402_VALIDITY",
    "X402Payer",
    "check_max_payment",
    "decode_x402_header",
    "encode_x402_header",
]

MAX_X402_VALIDITY: Final = 7 * 24 * 3600
"""The longest ``maxTimeoutSeconds`` paid, in seconds (a week; Circle recommends four
days for a batched authorization)."""

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


def _same(where: str, value: object, pinned: str, what: str) -> None:
    try:
        matches = to_checksum(value) == pinned
    except (InvalidInputError, TypeError, ValueError):
        matches = False
    if not matches:
        raise UnsafePayloadError(where, expected=f"{pinned} ({what})", received=value)


class X402Payer:
    """Pays a relayer's x402 requirements from the signer's Circle Gateway balance.

    Args:
        signer: who pays (an EOA: Gateway checks the signature with ``ecrecover``).
        max_payment: the most one request may cost, in smallest USDC units.
        registry: the pinned chains (GatewayWallet and USDC per chain).
        clock: the time source of the validity window.
    """

    def __init__(self, signer: Signer, max_payment: int, registry: Registry, clock: Clock):
        self.address = signer_address(signer, argument="payer")
        self._signer = signer
        self.max_payment = max_payment
        self._registry = registry
        self._clock = clock

    def __repr__(self) -> str:
        return f"X402Payer(address={self.address!r}, max_payment={self.max_payment})"

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
        _same(
            f"{where}.extra.verifyingContract",
            extra.get("verifyingContract"),
            chain.gateway_wallet,
            f"the GatewayWallet on {chain.name}",
        )
        _same(f"{where}.asset", option.get("asset"), chain.usdc, f"USDC on {chain.name}")
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
            now = int(self._clock.time())
            authorization = sign_transfer_authorization(
                self._signer,
                domain_name=GATEWAY_BATCHED_DOMAIN_NAME,
                domain_version=GATEWAY_BATCHED_DOMAIN_VERSION,
                chain_id=chain_id,
                verifying_contract=self._registry.chain(chain_id).gateway_wallet,
                to=pay_to,
                value=amount,
                valid_after=0,
                valid_before=now + timeout,
                now=now,
            )
            return _payment_headers(version, option, resource, authorization)
        assert first is not None
        raise first


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
