"""Circle Gateway attestations as the emulated Gateway makes them, written with eth-abi
and signed with eth-account, not with the SDK's code, so that the SDK's decoder is
tested against an independent encoder.

The layout is Circle's (``src/lib/Attestations.sol`` and ``src/lib/TransferSpec.sol`` of
``circlefin/evm-gateway-contracts``): ``magic | maxBlockHeight | spec length | spec``,
several behind ``magic | count`` as a set; the payload is signed as
``ECDSA.recover(keccak256(payload).toEthSignedMessageHash(), signature)`` reads it.

A transfer minted on Solana is attested in Circle's reduced format instead
(``programs/gateway-minter/src/attestation.rs`` of circlefin/solana-gateway-contracts):
``magic 0x10cbb1ec | version | destinationDomain | destinationContract |
destinationCaller | maxBlockHeight (u64) | count`` and per transfer ``destinationToken |
destinationRecipient | value (u64) | transferSpecHash | hookData length | hookData``,
signed the same way (the program's ``recover_evm_signer``). A burn intent's own bytes,
which a Solana key signs, are ``magic 0x070afbc2 | maxBlockHeight | maxFee | spec
length | spec`` (``burn_data.rs``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from eth_abi.packed import encode_packed
from eth_account import Account
from eth_account.messages import encode_defunct
from eth_hash.auto import keccak

__all__ = [
    "ATTESTER",
    "SPEC_FIELDS",
    "encode_attestation",
    "encode_burn_intent",
    "encode_solana_attestation",
    "encode_spec",
    "sign_attestation",
    "spec_hash",
    "tampered",
]

# A published test key of the sandbox's attester: never fund it.
_ATTESTER_KEY: Final = "0x" + keccak(b"xswap sandbox gateway attester").hex()
ATTESTER: Final = Account.from_key(_ATTESTER_KEY)
"""The account whose signature the sandbox's attestations carry."""

_MAGIC: Final = {
    "attestation": bytes.fromhex("ff6fb334"),
    "set": bytes.fromhex("1e12db71"),
    "spec": bytes.fromhex("ca85def7"),
    "intent": bytes.fromhex("070afbc2"),
    "reduced": bytes.fromhex("10cbb1ec"),
}
SPEC_FIELDS: Final = (  # a TransferSpec's fixed words, in order (its hook data follows)
    ("version", "uint32"),
    ("sourceDomain", "uint32"),
    ("destinationDomain", "uint32"),
    ("sourceContract", "bytes32"),
    ("destinationContract", "bytes32"),
    ("sourceToken", "bytes32"),
    ("destinationToken", "bytes32"),
    ("sourceDepositor", "bytes32"),
    ("destinationRecipient", "bytes32"),
    ("sourceSigner", "bytes32"),
    ("destinationCaller", "bytes32"),
    ("value", "uint256"),
    ("salt", "bytes32"),
)
_SIZES: Final = {"uint32": 4, "uint256": 32, "bytes32": 32}


def _value(kind: str, value: Any) -> Any:
    if kind == "bytes32":
        text = str(value).lower().removeprefix("0x")
        return bytes.fromhex(text.rjust(64, "0"))
    return int(value)


def encode_spec(spec: Mapping[str, Any]) -> bytes:
    """A transfer spec (wire form: camelCase, bytes32 hex) in Circle's byte encoding."""
    hook = bytes.fromhex(str(spec.get("hookData", "0x")).removeprefix("0x"))
    kinds = ["bytes4", *(kind for _, kind in SPEC_FIELDS), "uint32", "bytes"]
    values = [_MAGIC["spec"], *(_value(kind, spec[name]) for name, kind in SPEC_FIELDS)]
    return encode_packed(kinds, [*values, len(hook), hook])


def spec_hash(spec: Mapping[str, Any]) -> bytes:
    """The ``transferSpecHash``: keccak-256 of the spec's encoding."""
    return keccak(encode_spec(spec))


def encode_burn_intent(intent: Mapping[str, Any]) -> bytes:
    """A wire-form burn intent in Circle's encoding (what a Solana key signs, after its
    16-byte prefix)."""
    body = encode_spec(intent["spec"])
    return encode_packed(
        ["bytes4", "uint256", "uint256", "uint32", "bytes"],
        [_MAGIC["intent"], int(intent["maxBlockHeight"]), int(intent["maxFee"]), len(body), body],
    )


def encode_solana_attestation(height: int, specs: Sequence[Mapping[str, Any]]) -> bytes:
    """The reduced attestation set minting ``specs`` (wire form, all to one Solana
    minter and caller) until slot ``height``."""
    first = specs[0]
    header = encode_packed(
        ["bytes4", "uint32", "uint32", "bytes32", "bytes32", "uint64", "uint32"],
        [
            _MAGIC["reduced"],
            int(first["version"]),
            int(first["destinationDomain"]),
            _value("bytes32", first["destinationContract"]),
            _value("bytes32", first["destinationCaller"]),
            height,
            len(specs),
        ],
    )
    elements = []
    for spec in specs:
        hook = bytes.fromhex(str(spec.get("hookData", "0x")).removeprefix("0x"))
        elements.append(
            encode_packed(
                ["bytes32", "bytes32", "uint64", "bytes32", "uint32", "bytes"],
                [
                    _value("bytes32", spec["destinationToken"]),
                    _value("bytes32", spec["destinationRecipient"]),
                    int(spec["value"]),
                    spec_hash(spec),
                    len(hook),
                    hook,
                ],
            )
        )
    return header + b"".join(elements)


def encode_attestation(items: Sequence[tuple[int, Mapping[str, Any]]]) -> bytes:
    """One attestation per ``(maxBlockHeight, spec)``; a set when there are several."""
    encoded = []
    for height, spec in items:
        body = encode_spec(spec)
        encoded.append(
            encode_packed(
                ["bytes4", "uint256", "uint32", "bytes"],
                [_MAGIC["attestation"], height, len(body), body],
            )
        )
    if len(encoded) == 1:
        return encoded[0]
    return encode_packed(["bytes4", "uint32"], [_MAGIC["set"], len(encoded)]) + b"".join(encoded)


def sign_attestation(payload: bytes) -> str:
    """The attester's signature over ``payload``, ``0x`` hex (65 bytes)."""
    signed = ATTESTER.sign_message(encode_defunct(primitive=keccak(payload)))
    return "0x" + bytes(signed.signature).hex()


def _decode(payload: bytes) -> list[tuple[int, dict[str, Any]]]:
    """What `encode_attestation` wrote, read back (for tampering only)."""
    starts: list[int]
    count = int.from_bytes(payload[4:8], "big") if payload[:4] == _MAGIC["set"] else 1
    offset = 8 if payload[:4] == _MAGIC["set"] else 0
    items = []
    for _ in range(count):
        height = int.from_bytes(payload[offset + 4 : offset + 36], "big")
        length = int.from_bytes(payload[offset + 36 : offset + 40], "big")
        spec_bytes = payload[offset + 40 : offset + 40 + length]
        spec: dict[str, Any] = {}
        starts = [4]
        for name, kind in SPEC_FIELDS:
            start, size = starts[-1], _SIZES[kind]
            raw = spec_bytes[start : start + size]
            spec[name] = "0x" + raw.hex() if kind == "bytes32" else int.from_bytes(raw, "big")
            starts.append(start + size)
        spec["hookData"] = "0x" + spec_bytes[starts[-1] + 4 :].hex()
        items.append((height, spec))
        offset += 40 + length
    return items


def tampered(answer: dict[str, Any], changes: Mapping[str, Any], signature_bytes: int) -> None:
    """Rewrite a ``POST /v1/transfer`` answer: every attested spec with ``changes``
    (wire names; addresses may be 20 bytes), re-signed by the attester, the signature
    cut or padded to ``signature_bytes``."""
    payload = bytes.fromhex(str(answer["attestation"]).removeprefix("0x"))
    items = [(height, {**spec, **changes}) for height, spec in _decode(payload)]
    rewritten = encode_attestation(items)
    signature = bytes.fromhex(sign_attestation(rewritten)[2:])
    signature = (signature + bytes(signature_bytes))[:signature_bytes]
    answer["attestation"] = "0x" + rewritten.hex()
    answer["signature"] = "0x" + signature.hex()
