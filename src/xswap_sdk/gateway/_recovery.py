"""A stuck transfer rescued from its id alone: the checks of
`GatewayClient.recover_transfer`, and the mint call they allow, as pure functions.

The case: a transfer was attested (its burn intents spent from the Gateway balance) but
never minted, and nothing is left of it but its id: no journal, no signed intents. What
Gateway says of it (``GET /v1/transfer/{id}``, see `plan_recovery`) cannot be checked
against intents we signed, so it is checked against what the caller says must happen,
and against the pinned facts (`xswap_sdk.registry`):

- the transfer has an attestation (payload and signature) and a destination domain the
  registry knows, on the client's network, and has not ``expired``;
- the signature is one ``gatewayMint`` can accept and the payload decodes (Circle's
  encoding, `xswap_sdk.signing.attestations`);
- every attested transfer spec mints on that domain's pinned GatewayMinter, in its
  native USDC, a positive value, to ``recipient``; and names no ``destinationCaller``
  other than the signer who sends the mint (only that address could mint it);
- the attested specs are the transfer's: their hashes (keccak256 of each spec's bytes,
  ``TransferSpecLib.getHash``) are the ``transferSpecHash`` of Gateway's burn intents
  for this id, one for one.

Anything it cannot check is refused, named (`xswap_sdk.errors.UnsafePayloadError` with
the field; `xswap_sdk.errors.TransferFailedError` for an expired one): nothing is signed.
Whether it was minted already is read from the chain itself (the minter's
``isTransferSpecHashUsed`` for each spec), not taken from Gateway's status.

`plan_recovery` is pure (no I/O): the client reads the transfer, plans, reads the
minter's views, and sends `Recovery.call` the way `GatewayClient.send_call` does
(simulated, journaled when the client has a journal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NoReturn

from .._models import check_argument
from ..errors import TransferFailedError, UnsafePayloadError
from ..registry import GatewayChain, Registry
from ..signing._fields import pad_address
from ..signing.attestations import (
    GatewayAttestation,
    _check_destination,
    _check_signature,
    decode_attestation,
)
from ..signing.calls import ContractCall, ViewCall
from ..signing.gateway_wallet import _mint_call, _spec_hash_used_call
from ..simulation import SentCall
from ..types import Address, to_checksum
from .models import RecoveredTransfer, TransferDetails

__all__ = ["Recovery", "plan_recovery"]

_ANYONE: Final = "0x" + "0" * 64  # a destinationCaller of zero: anyone may mint


@dataclass(frozen=True, slots=True)
class Recovery:
    """A stuck transfer checked for minting (see the module docstring).

    Attributes:
        transfer_id: Gateway's id of it.
        chain: the registry's entry of its destination chain.
        recipient: who every attested spec pays (checksummed).
        status: Gateway's status of it when read.
        attestations: the attested transfers, decoded.
        call: the ``gatewayMint`` call on the chain's pinned GatewayMinter.
        gateway_tx_hash: the mint Gateway names (``transactionHash``), if any.
    """

    transfer_id: str
    chain: GatewayChain
    recipient: str
    status: str
    attestations: tuple[GatewayAttestation, ...]
    call: ContractCall
    gateway_tx_hash: str | None

    @property
    def value(self) -> int:
        """What the mint pays ``recipient`` in all, in smallest USDC units."""
        return sum(entry.spec.value for entry in self.attestations)

    def used_calls(self) -> list[ViewCall]:
        """``isTransferSpecHashUsed`` on the minter, one per attested spec."""
        return [_spec_hash_used_call(self.chain, a.spec_hash) for a in self.attestations]

    def minted_already(self, used: Sequence[int | bool]) -> bool:
        """Whether the minter used every attested spec already (the answers of
        `used_calls`, in order); ``False`` when it used none.

        Raises:
            UnsafePayloadError: it used some but not all (one ``gatewayMint`` mints all
                of an attestation or nothing: these specs were minted by other
                attestations, and this one would revert).
        """
        if all(used):
            return True
        if any(used):
            minted = [a.spec_hash for a, u in zip(self.attestations, used, strict=True) if u]
            raise UnsafePayloadError(
                "attestation",
                expected="transfer specs the minter used all or none of",
                received=f"{len(minted)} of {len(used)} used already ({', '.join(minted)})",
                hint="Minting it would revert; nothing was signed.",
            )
        return False

    def result(self, sent: SentCall | None) -> RecoveredTransfer:
        """The `RecoveredTransfer`: minted now by ``sent``, or already (``None``)."""
        return RecoveredTransfer(
            transfer_id=self.transfer_id,
            chain_id=self.chain.chain_id,
            recipient=self.recipient,
            value=self.value,
            status=self.status,
            minted_already=sent is None,
            tx_hash=self.gateway_tx_hash if sent is None else sent.tx_hash,
            simulation=None if sent is None else sent.simulation,
            journey_id=None if sent is None else sent.journey_id,
        )


def _refuse(field: str, expected: object, received: object, hint: str | None = None) -> NoReturn:
    hint = hint or "Nothing was minted: do not mint this transfer without finding out why."
    raise UnsafePayloadError(field, expected=expected, received=received, hint=hint)


def plan_recovery(
    transfer_id: str,
    details: TransferDetails,
    *,
    recipient: str,
    sender: str,
    registry: Registry,
    testnet: bool,
) -> Recovery:
    """Check Gateway's record of a stuck transfer and build the mint that rescues it.

    Args:
        transfer_id: the transfer's id (as read).
        details: what ``GET /v1/transfer/{id}`` answered.
        recipient: who must receive every attested transfer.
        sender: who will send the mint (the signer).
        registry: the pinned chains.
        testnet: whether the client is on Gateway's testnet.

    Returns:
        The checked `Recovery`.

    Raises:
        InvalidInputError: ``recipient`` is not an address.
        TransferFailedError: the transfer ``expired``: its attestation can no longer
            be minted.
        UnsafePayloadError: anything that cannot be checked, or is not as it must be
            (the module docstring's list), named by its field.
    """
    recipient = to_checksum(check_argument("recipient", Address, recipient))
    if details.status == "expired":
        raise TransferFailedError(
            f"transfer {transfer_id} expired: its attestation can no longer be minted "
            "(Gateway returns the amount to the depositor's balance)",
            record=details,
            transfer_status="expired",
        )
    attested = details.attestation
    payload = None if attested is None else attested.payload
    signature = None if attested is None else attested.signature
    if not payload or not signature:
        _refuse(
            "transfer.attestation",
            expected="the attestation Gateway issued for it (payload and signature)",
            received=None
            if attested is None
            else "an attestation without " + ("its payload" if not payload else "its signature"),
        )
    domain = details.destination_domain
    chain = None if domain is None else registry.by_domain(domain, testnet=testnet)
    if chain is None:
        network = "testnet" if testnet else "mainnet"
        _refuse(
            "transfer.destinationDomain",
            expected=f"the Gateway domain of a {network} chain of the registry",
            received=domain,
        )
    _check_signature(signature)
    found = decode_attestation(payload)
    _check_destination(found, chain)
    wanted = pad_address(recipient)
    anyone_or_sender = (_ANYONE, pad_address(sender))
    for index, entry in enumerate(found):
        spec = entry.spec
        if spec.destination_recipient != wanted:
            _refuse(
                f"attestation[{index}].spec.destinationRecipient",
                expected=wanted,
                received=spec.destination_recipient,
                hint="It does not pay the recipient you named: nothing was minted.",
            )
        if spec.destination_caller not in anyone_or_sender:
            _refuse(
                f"attestation[{index}].spec.destinationCaller",
                expected=f"{_ANYONE} (anyone) or the signer {sender}",
                received=spec.destination_caller,
                hint="Only that address can mint it: sign with it.",
            )
        if spec.value <= 0:
            _refuse(f"attestation[{index}].spec.value", expected="a positive value", received=0)
    _check_hashes(details, found)
    return Recovery(
        transfer_id=transfer_id,
        chain=chain,
        recipient=recipient,
        status=str(details.status),
        attestations=tuple(found),
        call=_mint_call(chain, payload, signature),
        gateway_tx_hash=details.transaction_hash,
    )


def _check_hashes(details: TransferDetails, found: Sequence[GatewayAttestation]) -> None:
    """Refuse an attestation whose specs are not the transfer's burn intents' (by their
    ``transferSpecHash``, one for one)."""
    listed = [intent.transfer_spec_hash for intent in details.burn_intents]
    if not listed or any(not isinstance(h, str) for h in listed):
        _refuse(
            "transfer.burnIntents[].transferSpecHash",
            expected="the transfer spec hash of each burn intent the transfer spends",
            received=None if not listed else "a burn intent without one",
            hint="The attestation cannot be tied to this transfer: nothing was minted.",
        )
    theirs = Counter(str(h).lower() for h in listed)
    ours = Counter(entry.spec_hash for entry in found)
    if theirs != ours:
        _refuse(
            "attestation",
            expected=f"the transfer specs of its burn intents ({', '.join(sorted(theirs))})",
            received=f"specs hashing to {', '.join(sorted(ours))}",
            hint="It is not this transfer's attestation: nothing was minted.",
        )
