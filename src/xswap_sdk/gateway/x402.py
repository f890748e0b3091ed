"""Models of Circle Gateway's newer endpoints: pending deposits, batched EIP-3009
authorizations and the x402 facilitator (supported kinds, batched transfers).

Amounts are `int` in smallest USDC units (6 decimals) in every model here, as Gateway
writes them on the wire: a pending deposit's ``amount`` (``POST /v1/deposits``) and x402
amounts are base units already (``"1500000"``, ``"10000"``), unlike the decimal USDC
strings of ``/v1/balances``; they are read as they are, never scaled.

Sources: Circle's Gateway API reference (``gateway.yaml``: ``POST /v1/deposits``,
``POST /v1/batch/submit``) and the Gateway Nanopayments reference
(``gateway-nanopayments.yaml``: ``GET /v1/x402/supported``, ``GET /v1/x402/transfers``,
``GET /v1/x402/transfers/{id}``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final, Literal

from pydantic import Field

from .._models import LenientAddress, LenientInt, RequestModel, WireModel

__all__ = [
    "BatchAuthorization",
    "BatchSubmission",
    "BatchSubmitRequest",
    "PendingDeposit",
    "PendingDeposits",
    "X402Kind",
    "X402Supported",
    "X402Transfer",
    "X402TransferState",
    "X402_TRANSFER_STATES",
]


# ------------------------------------------------------------------------------ /v1/deposits


class PendingDeposit(WireModel):
    """A deposit Gateway has seen on chain but not yet counted (``POST /v1/deposits``):
    it counts once its block is final."""

    depositor: LenientAddress
    """Whose balance it credits."""
    domain: LenientInt
    """The Gateway domain of the chain it was made on."""
    amount: LenientInt
    """Smallest USDC units, as Gateway gives them (``"1500000"`` is 1.5 USDC: unlike a
    balance, a deposit's amount is in base units; Circle's API reference,
    https://developers.circle.com/api-reference/gateway/all/get-deposits)."""
    status: str | None = None
    """``pending`` while its block is not final."""
    transaction_hash: str | None = None
    """The deposit's transaction."""
    block_height: LenientInt | None = None
    """The block it is in."""
    block_hash: str | None = None
    """That block's hash."""
    block_timestamp: datetime | str | None = Field(default=None, union_mode="left_to_right")
    """That block's time."""


class PendingDeposits(WireModel):
    """What ``POST /v1/deposits`` returns."""

    token: str
    """``USDC``."""
    deposits: list[PendingDeposit]
    """The pending deposits of every source asked about."""

    @property
    def total_units(self) -> int:
        """Every pending deposit added up, in smallest USDC units."""
        return sum(deposit.amount for deposit in self.deposits)


# ------------------------------------------------------------------------------ /v1/batch/submit


class BatchAuthorization(RequestModel):
    """A signed EIP-3009 ``TransferWithAuthorization`` as ``POST /v1/batch/submit``
    takes it (``auth.eip3009Auth``); amounts and times as decimal strings."""

    from_: str = Field(serialization_alias="from")
    """Who pays: the signer, whose Gateway balance is debited (``from`` on the wire)."""
    to: str
    """Who is paid."""
    value: str
    """The amount, in smallest USDC units, as a decimal string (``"1500000"`` is 1.5
    USDC)."""
    valid_after: str
    """Unix time in seconds, as a decimal string, after which the authorization can be
    used (exclusive)."""
    valid_before: str
    """Unix time in seconds, as a decimal string, before which the authorization can
    be used (exclusive)."""
    nonce: str
    """The EIP-3009 nonce: 32 bytes, ``0x`` hex."""
    signature: str = Field(repr=False)
    """The EIP-712 signature, ``0x`` hex (hidden from ``repr``)."""


class BatchSubmitRequest(RequestModel):
    """The body of ``POST /v1/batch/submit``: a same-chain transfer, so the sending and
    the recipient domain are the same."""

    token: Literal["USDC"] = "USDC"
    """The token paid, as Gateway names it."""
    sending_domain: int
    """The Gateway domain number of the payer's balance."""
    recipient_domain: int
    """The Gateway domain number the recipient is paid on: the same as
    ``sending_domain``."""
    auth: dict[str, BatchAuthorization]
    """The signed authorization, under ``eip3009Auth``."""


class BatchSubmission(WireModel):
    """What ``POST /v1/batch/submit`` returns: the batched transfer's id."""

    id: str
    """Its UUID; `GatewayClient.get_x402_transfer` and the x402 transfer search read
    it."""


# ------------------------------------------------------------------------------ /v1/x402


class X402Kind(WireModel):
    """One payment kind Gateway's x402 facilitator settles (``GET /v1/x402/supported``)."""

    x402_version: LenientInt | None = None
    """The x402 protocol version (2)."""
    scheme: str
    """``exact``."""
    network: str
    """CAIP-2 (``eip155:8453``)."""
    extra: dict[str, Any] = Field(default_factory=dict)
    """``verifyingContract`` (the GatewayWallet) and ``assets``, kept as sent."""

    @property
    def verifying_contract(self) -> str | None:
        """``extra.verifyingContract``: compare it with `xswap_sdk.registry` before
        trusting it."""
        value = self.extra.get("verifyingContract")
        return value if isinstance(value, str) else None

    @property
    def chain_id(self) -> int | None:
        """The EVM chain id of an ``eip155:`` network, else ``None``."""
        prefix, _, reference = self.network.partition(":")
        return int(reference) if prefix == "eip155" and reference.isdigit() else None


class X402Supported(WireModel):
    """What ``GET /v1/x402/supported`` returns."""

    kinds: list[X402Kind]
    """The kinds settled."""
    extensions: list[Any] = Field(default_factory=list)
    """x402 extensions, kept as sent."""
    signers: dict[str, Any] = Field(default_factory=dict)
    """The facilitator's signers per network, kept as sent."""

    def for_chain(self, chain_id: int) -> X402Kind | None:
        """The kind on EVM chain ``chain_id``, or ``None``."""
        return next((kind for kind in self.kinds if kind.chain_id == chain_id), None)


X402TransferState = Literal["received", "batched", "confirmed", "completed", "failed"]
"""An x402 transfer's documented states; fields typed ``X402TransferState | str``
accept states Circle adds."""

X402_TRANSFER_STATES: Final = ("received", "batched", "confirmed", "completed", "failed")


class X402Transfer(WireModel):
    """A batched transfer Gateway accepted from an x402 payment
    (``GET /v1/x402/transfers/{id}``, and each item of the search)."""

    id: str
    """Its UUID."""
    status: X402TransferState | str
    """``received``, ``batched``, ``confirmed``, ``completed`` or ``failed``."""
    token: str
    """``USDC``."""
    sending_network: str
    """CAIP-2 network paid from."""
    recipient_network: str
    """CAIP-2 network paid to."""
    from_address: LenientAddress
    """Who paid."""
    to_address: LenientAddress
    """Who was paid."""
    amount: LenientInt
    """Smallest USDC units."""
    nonce: str | None = None
    """The EIP-3009 nonce."""
    tx_hash: str | None = None
    """The batch's settlement transaction, once there is one."""
    created_at: datetime | str | None = Field(default=None, union_mode="left_to_right")
    """When Gateway accepted it."""
    updated_at: datetime | str | None = Field(default=None, union_mode="left_to_right")
    """When it last changed."""
