"""Signing burn intents and sets, recovering their signers, and the JSON to send."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from .._flow import Flow, Sign
from ..errors import InvalidInputError
from ._fields import pad_address
from .burn_intents import (
    BurnIntent,
    BurnIntentSet,
    _intent_digest,
    _set_digest,
    _typed_data,
    as_intent,
    as_intents,
    check_signable,
)
from .signer import Signer, _with_policy, recover_digest, signed_now, signer_address

if TYPE_CHECKING:
    from ..policy import PolicyLike

__all__ = [
    "SignedBurnIntent",
    "SignedBurnIntentSet",
    "recover_burn_intent_set_signer",
    "recover_burn_intent_signer",
    "sign_burn_intent",
    "sign_burn_intent_set",
    "signed_from_wire",
    "signing_burn_intent",
    "signing_burn_intent_set",
]


class SignedBurnIntent(BaseModel):
    """A burn intent with its signature (primary type ``BurnIntent``).

    Attributes:
        intent: the intent that was signed.
        signer: the checksummed address that signed it.
        digest: the EIP-712 digest that was signed, ``0x`` hex.
        signature: ``0x`` + 130 hex digits, ``v`` 27 or 28 (left out of ``repr``).
    """

    model_config = ConfigDict(frozen=True)

    intent: BurnIntent
    signer: str
    digest: str
    signature: str = Field(repr=False)

    def to_wire(self) -> dict[str, Any]:
        """Circle Gateway's transfer request element:
        ``{"burnIntent": {...}, "signature": "0x..."}``."""
        return {"burnIntent": self.intent.to_wire(), "signature": self.signature}

    def to_signed_order(self) -> list[dict[str, Any]]:
        """The swap backend's ``signedOrder``: ``[{"intent": {...}, "signature": "0x..."}]``."""
        return [{"intent": self.intent.to_wire(), "signature": self.signature}]


class SignedBurnIntentSet(BaseModel):
    """Up to 16 burn intents with the one signature over them (primary type
    ``BurnIntentSet``).

    Attributes:
        intents: the intents that were signed, in order.
        signer: the checksummed address that signed them.
        digest: the EIP-712 digest that was signed, ``0x`` hex.
        signature: ``0x`` + 130 hex digits, ``v`` 27 or 28 (left out of ``repr``).
    """

    model_config = ConfigDict(frozen=True)

    intents: tuple[BurnIntent, ...]
    signer: str
    digest: str
    signature: str = Field(repr=False)

    def intents_wire(self) -> list[dict[str, Any]]:
        """The wire form of each intent, in order (the same serialisation as was signed)."""
        return [intent.to_wire() for intent in self.intents]

    def to_wire(self) -> dict[str, Any]:
        """Circle Gateway's transfer request element:
        ``{"burnIntentSet": {"intents": [...]}, "signature": "0x..."}``."""
        return {"burnIntentSet": {"intents": self.intents_wire()}, "signature": self.signature}

    def to_signed_order(self) -> list[dict[str, Any]]:
        """The swap backend's ``signedOrder``: one ``{"intent": ...}`` per intent, the
        first one also carrying the set's ``signature``."""
        order: list[dict[str, Any]] = [{"intent": wire} for wire in self.intents_wire()]
        order[0]["signature"] = self.signature
        return order


def _check_source_signer(intent: BurnIntent, padded_signer: str, argument: str) -> None:
    if intent.spec.source_signer != padded_signer:
        # Circle answers "recovered signer does not match sourceSigner"; say it first.
        raise InvalidInputError(
            f"{argument}.spec.source_signer",
            "must be the signing account's address (as bytes32)",
        )


def signing_burn_intent(
    intent: BurnIntent | Mapping[str, Any], signer: Signer
) -> Flow[SignedBurnIntent]:
    """`sign_burn_intent` as a flow: the checks, then one `xswap_sdk._flow.Sign` step (a
    journey's driver makes, or replays, the signature)."""
    checked = as_intent(intent)
    check_signable(checked, "intent")
    address = signer_address(signer)
    _check_source_signer(checked, pad_address(address), "intent")
    digest = _intent_digest(checked)
    signature: str = yield Sign(
        signer, digest, lambda: _typed_data("BurnIntent", checked.to_wire()), what="burn intent"
    )
    return SignedBurnIntent(
        intent=checked, signer=address, digest="0x" + digest.hex(), signature=signature
    )


def signing_burn_intent_set(
    intents: BurnIntentSet | Sequence[BurnIntent | Mapping[str, Any]], signer: Signer
) -> Flow[SignedBurnIntentSet]:
    """`sign_burn_intent_set` as a flow (see `signing_burn_intent`)."""
    checked = as_intents(intents)
    address = signer_address(signer)
    padded = pad_address(address)
    for index, intent in enumerate(checked):
        check_signable(intent, f"intents[{index}]")
        _check_source_signer(intent, padded, f"intents[{index}]")
    digest = _set_digest(checked)
    signature: str = yield Sign(
        signer,
        digest,
        lambda: _typed_data("BurnIntentSet", {"intents": [i.to_wire() for i in checked]}),
        what="burn intent set",
    )
    return SignedBurnIntentSet(
        intents=tuple(checked), signer=address, digest="0x" + digest.hex(), signature=signature
    )


def sign_burn_intent(
    intent: BurnIntent | Mapping[str, Any], signer: Signer, *, policy: PolicyLike | None = None
) -> SignedBurnIntent:
    """Sign one burn intent (primary type ``BurnIntent``).

    Args:
        intent: a `BurnIntent` (see `build_burn_intent`) or its wire-form dict.
        signer: the account named in the intent's ``sourceSigner``.
        policy: a signing policy (`xswap_sdk.policy.Policy` or an approval callable)
            to put in force for this signature, on top of any already in force; it sees
            a ``"burn_intent"`` request.

    Returns:
        The signed intent; `SignedBurnIntent.to_wire` is the JSON to send.

    Raises:
        InvalidInputError: a malformed intent, a ``value`` of 0, a transfer spec
            ``version`` other than 1, or ``sourceSigner`` is not the signer.
        SigningError: the signer failed, or signed for another address.
        PolicyRefusedError: a signing policy refused; nothing was signed.
    """
    return _with_policy(policy, lambda: signed_now(signing_burn_intent(intent, signer)))


def sign_burn_intent_set(
    intents: BurnIntentSet | Sequence[BurnIntent | Mapping[str, Any]],
    signer: Signer,
    *,
    policy: PolicyLike | None = None,
) -> SignedBurnIntentSet:
    """Sign 1 to 16 burn intents at once (primary type ``BurnIntentSet``).

    A set of one intent is signed as a set; its digest differs from that intent's own.

    Args:
        intents: a `BurnIntentSet`, or a list of `BurnIntent` or wire-form dicts.
        signer: the account named in every intent's ``sourceSigner``.
        policy: a signing policy (`xswap_sdk.policy.Policy` or an approval callable)
            to put in force for this signature, on top of any already in force; it sees
            one ``"burn_intent_set"`` request whose ``legs`` are the intents.

    Returns:
        The signed set; `SignedBurnIntentSet.to_wire` is the JSON to send.

    Raises:
        InvalidInputError: no intent, more than 16, a malformed one, one with a
            ``value`` of 0 or a ``version`` other than 1, or one whose ``sourceSigner``
            is not the signer (named by index).
        SigningError: the signer failed, or signed for another address.
        PolicyRefusedError: a signing policy refused; nothing was signed.
    """
    return _with_policy(policy, lambda: signed_now(signing_burn_intent_set(intents, signer)))


def signed_from_wire(
    item: object, argument: str = "signed"
) -> SignedBurnIntent | SignedBurnIntentSet:
    """A signed intent or set as Gateway's transfer request carries it
    (``{"burnIntent": ..., "signature": ...}`` or ``{"burnIntentSet": {"intents": [...]},
    "signature": ...}``), read back and checked like any input: its signature must
    recover to the ``sourceSigner`` of every intent.

    Raises:
        InvalidInputError: not such an element, or a signature of someone else.
    """
    if not isinstance(item, Mapping) or not isinstance(item.get("signature"), str):
        raise InvalidInputError(argument, "must be a signed burn intent or set, as sent")
    signature = str(item["signature"])
    if "burnIntent" in item:
        intents = [as_intent(item["burnIntent"], argument)]
        digest = _intent_digest(intents[0])
    elif isinstance(item.get("burnIntentSet"), Mapping):
        intents = as_intents(item["burnIntentSet"].get("intents"), argument)
        digest = _set_digest(intents)
    else:
        raise InvalidInputError(argument, "must hold a burnIntent or a burnIntentSet")
    signer = recover_digest(digest, signature)
    padded = pad_address(signer)
    for index, intent in enumerate(intents):
        _check_source_signer(intent, padded, f"{argument}[{index}]")
    if "burnIntent" in item:
        return SignedBurnIntent(
            intent=intents[0], signer=signer, digest="0x" + digest.hex(), signature=signature
        )
    return SignedBurnIntentSet(
        intents=tuple(intents), signer=signer, digest="0x" + digest.hex(), signature=signature
    )


def recover_burn_intent_signer(intent: BurnIntent | Mapping[str, Any], signature: str) -> str:
    """Return the checksummed address that signed ``intent`` (primary type ``BurnIntent``).

    Raises:
        InvalidInputError: a malformed intent or signature.
        SigningError: no public key can be recovered from the signature.
    """
    return recover_digest(_intent_digest(as_intent(intent)), signature)


def recover_burn_intent_set_signer(
    intents: BurnIntentSet | Sequence[BurnIntent | Mapping[str, Any]], signature: str
) -> str:
    """Return the checksummed address that signed a burn intent set.

    Raises:
        InvalidInputError: malformed intents or signature.
        SigningError: no public key can be recovered from the signature.
    """
    return recover_digest(_set_digest(as_intents(intents)), signature)
