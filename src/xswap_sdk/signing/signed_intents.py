"""Signing burn intents and sets, recovering their signers, and the JSON to send.

An EVM key signs a burn intent (or a set) as EIP-712 typed data; a Solana key
(`xswap_sdk.signing.solana.SolanaSigner`) signs a Solana-source intent's binary
encoding with Ed25519. `sign_burn_intent` takes either, and refuses an intent the key
must not sign before it signs anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from .._base58 import encode
from .._flow import Flow, Sign
from ..errors import InvalidInputError
from ..registry import DEFAULT_REGISTRY, Registry
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
from .signer import Signer, _signed_now, _with_policy, recover_digest, signer_address
from .solana import (
    SolanaSigner,
    check_solana_destination,
    check_solana_intent,
    is_solana_signer,
    is_solana_source,
    solana_burn_intent_message,
    solana_public_key,
    verify_solana_signature,
)

if TYPE_CHECKING:
    from ..policy import PolicyLike

__all__ = [
    "SignedBurnIntent",
    "SignedBurnIntentSet",
    "check_burn_intent",
    "recover_burn_intent_set_signer",
    "recover_burn_intent_signer",
    "sign_burn_intent",
    "sign_burn_intent_set",
    "signed_from_wire",
]


class SignedBurnIntent(BaseModel):
    """A burn intent with its signature: EIP-712 (primary type ``BurnIntent``) from an
    EVM key, or Ed25519 from a Solana key.

    Attributes:
        intent: the intent that was signed.
        signer: who signed it: the checksummed address, or the Solana public key in
            base58.
        digest: what was signed, ``0x`` hex: the EIP-712 digest; for an Ed25519
            signature, which signs the message itself with no hash first, that message
            (`xswap_sdk.signing.solana.solana_burn_intent_message`).
        signature: ``0x`` + 130 hex digits, ``v`` 27 or 28; ``0x`` + 128 hex digits
            for Ed25519 (left out of ``repr``).
        scheme: ``"eip712"`` or ``"ed25519"``.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True, defer_build=True)

    intent: BurnIntent
    signer: str
    digest: str
    signature: str = Field(repr=False)
    scheme: Literal["eip712", "ed25519"] = "eip712"

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

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True, defer_build=True)

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


def sign_burn_intent(
    intent: BurnIntent | Mapping[str, Any],
    signer: Signer | SolanaSigner,
    *,
    policy: PolicyLike | None = None,
    registry: Registry | None = None,
) -> SignedBurnIntent:
    """Sign one burn intent: as EIP-712 typed data (primary type ``BurnIntent``) with
    an EVM signer, or with Ed25519 with a `SolanaSigner` (a solders ``Keypair``) for an
    intent spending a Gateway balance on Solana.

    A Solana-source intent is checked first (`xswap_sdk.signing.solana.check_solana_intent`):
    its GatewayWallet program, USDC mint and destination fields must be the registry's,
    its ``sourceSigner`` the key, its values u64. An intent minted on Solana, whoever
    signs it, must name the registry's GatewayMinter program and USDC mint.

    Args:
        intent: a `BurnIntent` (see `build_burn_intent`) or its wire-form dict.
        signer: the account named in the intent's ``sourceSigner``: an EVM `Signer`,
            or a `SolanaSigner` for a Solana source.
        policy: a signing policy (`xswap_sdk.policy.Policy` or an approval callable)
            to put in force for this signature, on top of any already in force; it sees
            a ``"burn_intent"`` request.
        registry: the pinned chains the intent is checked against;
            `xswap_sdk.registry.DEFAULT_REGISTRY` when not given.

    Returns:
        The signed intent; `SignedBurnIntent.to_wire` is the JSON to send.

    Raises:
        InvalidInputError: a malformed intent, a ``value`` of 0, a transfer spec
            ``version`` other than 1, ``sourceSigner`` is not the signer, a Solana
            source signed by an EVM key (or the reverse), a value past a u64 from
            Solana, or a recipient of the wrong shape for its chain.
        UnsafePayloadError: a Solana program or mint (or a Solana-source intent's
            destination contract or token) the registry does not pin.
        SigningError: the signer failed, or signed for another address or message.
        PolicyRefusedError: a signing policy refused; nothing was signed.
    """
    return _with_policy(
        policy, lambda: _signed_now(_signing_burn_intent(intent, signer, registry=registry))
    )


def _signing_burn_intent(
    intent: BurnIntent | Mapping[str, Any],
    signer: Signer | SolanaSigner,
    *,
    registry: Registry | None = None,
) -> Flow[SignedBurnIntent]:
    """`sign_burn_intent` as a flow: the checks, then one `xswap_sdk._flow.Sign` step (a
    journey's driver makes, or replays, the signature)."""
    checked = as_intent(intent)
    signed_by = check_burn_intent(checked, signer, registry=registry)
    if is_solana_signer(signer):
        message = solana_burn_intent_message(checked)

        def describe() -> Any:
            # lazy: the signing gate, only while a policy is in force
            from ._gate import describe_solana_burn_intent

            return describe_solana_burn_intent(signed_by, checked.to_wire())

        ed25519: str = yield Sign(signer, message, describe, kind="ed25519", what="burn intent")
        return SignedBurnIntent(
            intent=checked,
            signer=signed_by,
            digest="0x" + message.hex(),
            signature=ed25519,
            scheme="ed25519",
        )
    digest = _intent_digest(checked)
    signature: str = yield Sign(
        cast(Signer, signer),
        digest,
        lambda: _typed_data("BurnIntent", checked.to_wire()),
        what="burn intent",
    )
    return SignedBurnIntent(
        intent=checked, signer=signed_by, digest="0x" + digest.hex(), signature=signature
    )


def _signing_checked_intents(
    intents: Sequence[BurnIntent], signer: Signer, address: str, digest: bytes
) -> Flow[SignedBurnIntent | SignedBurnIntentSet]:
    """Sign EVM intents whose every check the caller made, under ``digest``, which it
    computed from them: one ``BurnIntent`` alone, or a ``BurnIntentSet``. One
    `xswap_sdk._flow.Sign` step and nothing checked again: for a checked order
    (`xswap_sdk.flash.build_order`) whose proof still holds, and for nothing else."""
    if len(intents) == 1:
        (intent,) = intents
        signature: str = yield Sign(
            signer,
            digest,
            lambda: _typed_data("BurnIntent", intent.to_wire()),
            what="burn intent",
        )
        return SignedBurnIntent(
            intent=intent, signer=address, digest="0x" + digest.hex(), signature=signature
        )
    signature = yield Sign(
        signer,
        digest,
        lambda: _typed_data("BurnIntentSet", {"intents": [i.to_wire() for i in intents]}),
        what="burn intent set",
    )
    return SignedBurnIntentSet(
        intents=tuple(intents), signer=address, digest="0x" + digest.hex(), signature=signature
    )


def sign_burn_intent_set(
    intents: BurnIntentSet | Sequence[BurnIntent | Mapping[str, Any]],
    signer: Signer,
    *,
    policy: PolicyLike | None = None,
    registry: Registry | None = None,
) -> SignedBurnIntentSet:
    """Sign 1 to 16 burn intents at once (primary type ``BurnIntentSet``).

    A set of one intent is signed as a set; its digest differs from that intent's own.
    Sets are EVM only: Circle Gateway takes no set from Solana ("each transfer from
    Solana must be specified as a separate signed BurnIntent"), so a Solana-source
    intent is refused; sign each with `sign_burn_intent`. Intents minted on Solana are
    fine, and are checked as `sign_burn_intent` checks them.

    Args:
        intents: a `BurnIntentSet`, or a list of `BurnIntent` or wire-form dicts.
        signer: the account named in every intent's ``sourceSigner``.
        policy: a signing policy (`xswap_sdk.policy.Policy` or an approval callable)
            to put in force for this signature, on top of any already in force; it sees
            one ``"burn_intent_set"`` request whose ``legs`` are the intents.
        registry: the pinned chains the intents are checked against;
            `xswap_sdk.registry.DEFAULT_REGISTRY` when not given.

    Returns:
        The signed set; `SignedBurnIntentSet.to_wire` is the JSON to send.

    Raises:
        InvalidInputError: no intent, more than 16, a malformed one, one with a
            ``value`` of 0 or a ``version`` other than 1, one whose ``sourceSigner``
            is not the signer, or one with a Solana source (named by index); or a
            Solana signer.
        UnsafePayloadError: an intent minted on Solana names a program or mint the
            registry does not pin.
        SigningError: the signer failed, or signed for another address.
        PolicyRefusedError: a signing policy refused; nothing was signed.
    """
    return _with_policy(
        policy, lambda: _signed_now(_signing_burn_intent_set(intents, signer, registry=registry))
    )


def _signing_burn_intent_set(
    intents: BurnIntentSet | Sequence[BurnIntent | Mapping[str, Any]],
    signer: Signer,
    *,
    registry: Registry | None = None,
) -> Flow[SignedBurnIntentSet]:
    """`sign_burn_intent_set` as a flow (see `_signing_burn_intent`)."""
    checked = as_intents(intents)
    pins = DEFAULT_REGISTRY if registry is None else registry
    if is_solana_signer(signer):
        raise InvalidInputError(
            "signer",
            "is a Solana signer, and Circle Gateway takes no burn intent set from Solana: "
            "sign each Solana intent alone with sign_burn_intent",
        )
    for index, intent in enumerate(checked):
        if is_solana_source(intent, pins):
            raise InvalidInputError(
                f"intents[{index}].spec.source_domain",
                f"is {intent.spec.source_domain} (Solana): Circle Gateway takes no burn "
                "intent set from Solana; sign each Solana intent alone with sign_burn_intent",
            )
    address = signer_address(signer)
    padded = pad_address(address)
    for index, intent in enumerate(checked):
        check_signable(intent, f"intents[{index}]")
        _check_source_signer(intent, padded, f"intents[{index}]")
        _check_destination(intent, pins, f"intents[{index}]")
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


def check_burn_intent(
    intent: BurnIntent,
    signer: Signer | SolanaSigner,
    *,
    registry: Registry | None = None,
    argument: str = "intent",
) -> str:
    """Everything `sign_burn_intent` checks before ``signer`` signs ``intent``, and
    nothing signed: for a flow that refuses before any I/O what it will sign later.

    A `SolanaSigner` must sign a Solana-source intent
    (`xswap_sdk.signing.solana.check_solana_intent`); an EVM signer an EVM-source one,
    whose ``sourceSigner`` is its address, and which, minted on Solana, names the
    registry's GatewayMinter program and USDC mint.

    Returns:
        Who signs: the checksummed address, or the Solana public key in base58 (what
        `SignedBurnIntent.signer` will hold).

    Raises:
        InvalidInputError: see `sign_burn_intent`; the intent is named ``argument``.
        UnsafePayloadError: see `sign_burn_intent`.
    """
    pins = DEFAULT_REGISTRY if registry is None else registry
    if is_solana_signer(signer):
        public_key = solana_public_key(signer)
        check_solana_intent(intent, public_key, registry=pins, argument=argument)
        return encode(public_key)
    check_signable(intent, argument)
    if is_solana_source(intent, pins):
        raise InvalidInputError(
            "signer",
            "must be a SolanaSigner (a solders Keypair) for an intent that spends a Gateway "
            "balance on Solana (sourceDomain 5): Solana intents are signed with Ed25519",
        )
    address = signer_address(signer)
    _check_source_signer(intent, pad_address(address), argument)
    _check_destination(intent, pins, argument)
    return address


def _check_destination(intent: BurnIntent, registry: Registry, argument: str) -> None:
    """An EVM-source intent minted on Solana: its minter program and mint must be the
    registry's, of the source's network when the registry knows the source."""
    spec = intent.spec
    destination = next(
        (c for c in registry if c.domain == spec.destination_domain and c.family == "solana"),
        None,
    )
    if destination is None:
        return
    source = next(
        (
            chain
            for chain in registry
            if chain.family == "evm"
            and chain.domain == spec.source_domain
            and pad_address(chain.gateway_wallet) == spec.source_contract
        ),
        None,
    )
    testnet = None if source is None else source.testnet
    check_solana_destination(intent, registry=registry, testnet=testnet, argument=argument)


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


def signed_from_wire(
    item: object, argument: str = "signed", *, registry: Registry | None = None
) -> SignedBurnIntent | SignedBurnIntentSet:
    """A signed intent or set as Gateway's transfer request carries it
    (``{"burnIntent": ..., "signature": ...}`` or ``{"burnIntentSet": {"intents": [...]},
    "signature": ...}``), read back and checked like any input: an EIP-712 signature
    must recover to the ``sourceSigner`` of every intent; a Solana-source intent's
    Ed25519 signature must verify against its ``sourceSigner`` key.

    Raises:
        InvalidInputError: not such an element, or a signature of someone else.
    """
    if not isinstance(item, Mapping) or not isinstance(item.get("signature"), str):
        raise InvalidInputError(argument, "must be a signed burn intent or set, as sent")
    signature = str(item["signature"])
    pins = DEFAULT_REGISTRY if registry is None else registry
    if "burnIntent" in item:
        intents = [as_intent(item["burnIntent"], argument)]
        if is_solana_source(intents[0], pins):
            return _solana_from_wire(intents[0], signature, argument)
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


def _solana_from_wire(intent: BurnIntent, signature: str, argument: str) -> SignedBurnIntent:
    """A Solana-source intent read back: its Ed25519 signature verified against the
    key its ``sourceSigner`` names."""
    public_key = bytes.fromhex(intent.spec.source_signer[2:])
    message = solana_burn_intent_message(intent)
    if not verify_solana_signature(public_key, message, signature):
        raise InvalidInputError(
            f"{argument}.signature", "is not the intent's sourceSigner's Ed25519 signature"
        )
    return SignedBurnIntent(
        intent=intent,
        signer=encode(public_key),
        digest="0x" + message.hex(),
        signature=signature,
        scheme="ed25519",
    )
