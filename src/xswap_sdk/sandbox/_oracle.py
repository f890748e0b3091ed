"""Who signed: the sandbox's signature checks, written with eth-account and eth-keys and
Circle Gateway's published EIP-712 types, never with the SDK's own signing code.

The sandbox is the oracle the SDK's tests run against: if it recovered signatures with
the SDK's encoder, an encoding bug in the SDK would pass its own tests. Here the burn
intent types are written out again from Circle's ``BurnIntents.sol`` / ``TransferSpec.sol``
(domain ``{name: "GatewayWallet", version: "1"}``), eth-account hashes and recovers the
typed data and the EIP-191 messages, and an EIP-7702 authorization is recovered with
``eth_keys`` over ``keccak(0x05 || rlp([chain_id, address, nonce]))``, rlp from the
``rlp`` package.

Each function returns the checksummed signer, or raises `ValueError` for a signature
that does not recover.

A burn intent signed with a Solana key is checked as Circle's GatewayWallet program
checks it (its Ed25519 precompile): Ed25519 written out from RFC 8032
(`xswap_sdk.sandbox._ed25519`, not the SDK's pycryptodome) verifies the 64-byte
signature over ``0xff`` + 15 zero bytes and the intent's bytes, encoded here with
eth-abi's packed encoding (`xswap_sdk.sandbox._attestation.encode_burn_intent`),
against the key in the intent's ``sourceSigner``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from eth_account import Account
from eth_account.messages import encode_defunct, encode_typed_data

from . import _ed25519
from ._attestation import encode_burn_intent

__all__ = [
    "check_solana_burn_intent",
    "recover_authorization",
    "recover_burn_intent",
    "recover_burn_intent_set",
    "recover_message",
    "recover_typed_data",
]

_TRANSFER_SPEC: Final = [
    {"name": "version", "type": "uint32"},
    {"name": "sourceDomain", "type": "uint32"},
    {"name": "destinationDomain", "type": "uint32"},
    {"name": "sourceContract", "type": "bytes32"},
    {"name": "destinationContract", "type": "bytes32"},
    {"name": "sourceToken", "type": "bytes32"},
    {"name": "destinationToken", "type": "bytes32"},
    {"name": "sourceDepositor", "type": "bytes32"},
    {"name": "destinationRecipient", "type": "bytes32"},
    {"name": "sourceSigner", "type": "bytes32"},
    {"name": "destinationCaller", "type": "bytes32"},
    {"name": "value", "type": "uint256"},
    {"name": "salt", "type": "bytes32"},
    {"name": "hookData", "type": "bytes"},
]
_TYPES: Final = {
    "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"}],
    "TransferSpec": _TRANSFER_SPEC,
    "BurnIntent": [
        {"name": "maxBlockHeight", "type": "uint256"},
        {"name": "maxFee", "type": "uint256"},
        {"name": "spec", "type": "TransferSpec"},
    ],
    "BurnIntentSet": [{"name": "intents", "type": "BurnIntent[]"}],
}
_DOMAIN: Final = {"name": "GatewayWallet", "version": "1"}


def _as_ints(intent: Mapping[str, Any]) -> dict[str, Any]:
    """A wire-form intent with its uint fields as ints (the wire writes them as strings)."""
    spec = dict(intent["spec"])
    for name in ("version", "sourceDomain", "destinationDomain", "value"):
        spec[name] = int(spec[name])
    return {
        "maxBlockHeight": int(intent["maxBlockHeight"]),
        "maxFee": int(intent["maxFee"]),
        "spec": spec,
    }


def recover_typed_data(full_message: Mapping[str, Any], signature: str) -> str:
    """The signer of an EIP-712 payload, by eth-account."""
    try:
        signable = encode_typed_data(full_message=dict(full_message))
        return str(Account.recover_message(signable, signature=signature))
    except Exception as exc:  # eth-account's ValidationError, bad hex, a bad signature
        raise ValueError(f"the signature does not recover: {type(exc).__name__}") from None


def recover_burn_intent(intent: Mapping[str, Any], signature: str) -> str:
    """The signer of one wire-form burn intent (primary type ``BurnIntent``)."""
    # Without BurnIntentSet: eth-account refuses types the primary type does not use.
    types = {name: fields for name, fields in _TYPES.items() if name != "BurnIntentSet"}
    message = {"types": types, "domain": _DOMAIN, "primaryType": "BurnIntent"}
    return recover_typed_data({**message, "message": _as_ints(intent)}, signature)


def recover_burn_intent_set(intents: Sequence[Mapping[str, Any]], signature: str) -> str:
    """The signer of wire-form burn intents signed together (``BurnIntentSet``)."""
    message = {"types": _TYPES, "domain": _DOMAIN, "primaryType": "BurnIntentSet"}
    body = {"intents": [_as_ints(intent) for intent in intents]}
    return recover_typed_data({**message, "message": body}, signature)


_SOLANA_PREFIX: Final = bytes.fromhex("ff" + "00" * 15)


def check_solana_burn_intent(intent: Mapping[str, Any], signature: str) -> None:
    """Check a wire-form burn intent's Ed25519 signature (``0x`` + 128 hex digits) by
    its ``sourceSigner``.

    Raises:
        ValueError: a malformed signature, or one that does not verify.
    """
    text = str(signature)
    if len(text) != 130 or text[:2] != "0x":
        raise ValueError("an Ed25519 signature is 0x + 128 hex digits")
    key = bytes.fromhex(str(intent["spec"]["sourceSigner"])[2:])
    if not _ed25519.verify(
        key, _SOLANA_PREFIX + encode_burn_intent(intent), bytes.fromhex(text[2:])
    ):
        raise ValueError("the Ed25519 signature does not verify against sourceSigner")


def recover_message(text: str, signature: str) -> str:
    """The signer of an EIP-191 ``personal_sign`` text, by eth-account."""
    try:
        return str(Account.recover_message(encode_defunct(text=text), signature=signature))
    except Exception as exc:  # bad hex, a bad length, a signature that does not recover
        raise ValueError(f"the signature does not recover: {type(exc).__name__}") from None


def recover_authorization(
    chain_id: int, address: str, nonce: int, y_parity: int, r: int, s: int
) -> str:
    """The authority of an EIP-7702 authorization, by eth-keys over its own hash."""
    import rlp  # type: ignore[import-untyped]
    from eth_hash.auto import keccak
    from eth_keys.datatypes import Signature
    from eth_utils.address import to_checksum_address

    encoded = rlp.encode([chain_id, bytes.fromhex(address.removeprefix("0x")), nonce])
    digest = keccak(b"\x05" + encoded)
    public = Signature(vrs=(y_parity, r, s)).recover_public_key_from_msg_hash(digest)
    return str(to_checksum_address(public.to_canonical_address()))
