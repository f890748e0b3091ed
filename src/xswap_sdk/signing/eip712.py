"""EIP-712: the generic path for any payload, and the pieces of the fast path.

`sign_typed_data`, `recover_typed_data` and `typed_data_digest` take a full EIP-712 JSON
payload (``types``, ``domain``, ``primaryType``, ``message``) such as the Permit2 payloads
of the routing service, and hash it with `eth_account`. The burn intent and permit
modules do not use that path: they hash their fixed types with precomputed type hashes
and `eip712_digest`, and their tests check both paths give the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .._body import DEFAULT_MAX_NESTING, copy_json, value_nesting_depth
from .._flow import Flow, Sign
from .._keccak import keccak
from ..errors import InvalidInputError
from .signer import Signer, _signed_now, _with_policy, recover_digest

if TYPE_CHECKING:
    from ..policy import PolicyLike

__all__ = [
    "domain_separator",
    "eip712_digest",
    "recover_typed_data",
    "sign_typed_data",
    "type_hash",
    "typed_data_digest",
]

_DOMAIN_FIELDS = (
    ("name", "string"),
    ("version", "string"),
    ("chainId", "uint256"),
    ("verifyingContract", "address"),
)
_ARRAY_SUFFIX = re.compile(r"(\[[0-9]*\])+$")


def type_hash(encoded_type: str) -> bytes:
    """keccak256 of an encoded EIP-712 type such as ``"Permit(address owner,...)"``."""
    return keccak(encoded_type.encode())


def eip712_digest(domain_separator: bytes, struct_hash: bytes) -> bytes:
    """The digest that is signed: ``keccak256(0x1901 || domainSeparator || hashStruct)``."""
    return keccak(b"\x19\x01" + domain_separator + struct_hash)


def domain_separator(
    name: str,
    version: str,
    chain_id: int | None = None,
    verifying_contract: str | None = None,
) -> bytes:
    """hashStruct of an ``EIP712Domain`` holding the given fields, in EIP-712's order.

    Fields left as ``None`` are not part of the domain (the Gateway domain has only
    ``name`` and ``version``; adding a ``chainId`` would change every digest).
    """
    values: dict[str, object] = {
        "name": name,
        "version": version,
        "chainId": chain_id,
        "verifyingContract": verifying_contract,
    }
    present = [(field, kind) for field, kind in _DOMAIN_FIELDS if values[field] is not None]
    encoded = "EIP712Domain(" + ",".join(f"{kind} {field}" for field, kind in present) + ")"
    words = [type_hash(encoded)]
    for field, kind in present:
        value = values[field]
        if kind == "string":
            words.append(keccak(str(value).encode()))
        elif kind == "uint256":
            words.append(int(str(value)).to_bytes(32, "big"))
        else:
            words.append(bytes(12) + bytes.fromhex(str(value)[2:]))
    return keccak(b"".join(words))


def _token_typed_data(
    primary_type: str,
    fields: Sequence[tuple[str, str]],
    domain: tuple[str, str, int, str],
    message: dict[str, Any],
) -> dict[str, Any]:
    """The full payload of a message under a token's domain (all four fields: name,
    version, chainId, verifyingContract), ``fields`` being the type's ``(name, type)``
    pairs: what a permit or an EIP-3009 authorization is signed as elsewhere."""
    name, version, chain_id, verifying_contract = domain
    return {
        "types": {
            "EIP712Domain": [{"name": field, "type": kind} for field, kind in _DOMAIN_FIELDS],
            primary_type: [{"name": field, "type": kind} for field, kind in fields],
        },
        "domain": {
            "name": name,
            "version": version,
            "chainId": chain_id,
            "verifyingContract": verifying_contract,
        },
        "primaryType": primary_type,
        "message": message,
    }


def _signature_fields(digest: bytes, hex_signature: str) -> dict[str, Any]:
    """What a signed record keeps of a 65-byte ``r || s || v`` signature of ``digest``:
    the digest, the signature, and its v, r and s apart."""
    raw = bytes.fromhex(hex_signature[2:])
    return {
        "digest": "0x" + digest.hex(),
        "v": raw[64],
        "r": "0x" + raw[:32].hex(),
        "s": "0x" + raw[32:64].hex(),
        "signature": hex_signature,
    }


def _base_type(kind: str) -> str:
    return _ARRAY_SUFFIX.sub("", kind)


def _reachable_types(types: Mapping[str, Any], primary: str) -> dict[str, Any]:
    # eth_account derives the primary type from the types it is given and refuses types
    # that the primary type does not use; EIP-712 ignores those, so they are dropped.
    keep: dict[str, Any] = {}
    pending = [primary]
    while pending:
        name = pending.pop()
        if name in keep or name not in types:
            continue
        keep[name] = types[name]
        pending.extend(_base_type(str(field.get("type", ""))) for field in types[name])
    return keep


def _chain_id(value: str) -> int:
    text = value.strip()
    try:
        return int(text, 16) if text[:2].lower() == "0x" else int(text, 10)
    except ValueError:
        raise InvalidInputError(
            "typed_data.domain.chainId", "must be an integer or a decimal or 0x-hex string"
        ) from None


def _normalised(typed_data: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(typed_data, Mapping):
        raise InvalidInputError("typed_data", "must be a mapping (EIP-712 JSON)")
    # eth_account encodes (and reprs, on error) recursively; a payload deeper than any
    # real one is refused before it gets there.
    if value_nesting_depth(typed_data, stop_above=DEFAULT_MAX_NESTING) > DEFAULT_MAX_NESTING:
        raise InvalidInputError(
            "typed_data", f"nests deeper than {DEFAULT_MAX_NESTING} levels; no EIP-712 payload does"
        )
    for key in ("types", "domain", "message"):
        if not isinstance(typed_data.get(key), Mapping):
            raise InvalidInputError(f"typed_data.{key}", "is required and must be an object")
    payload: dict[str, Any] = {}
    primary = typed_data.get("primaryType")
    if primary is not None:
        payload["primaryType"] = primary
    domain = dict(typed_data["domain"])
    if isinstance(domain.get("chainId"), str):
        domain["chainId"] = _chain_id(domain["chainId"])
    payload["domain"] = domain
    types = dict(typed_data["types"])
    if isinstance(primary, str):
        if primary not in types:
            raise InvalidInputError("typed_data.primaryType", "must name one of typed_data.types")
        domain_type = types.get("EIP712Domain")
        types = _reachable_types(types, primary)
        if domain_type is not None:
            types["EIP712Domain"] = domain_type
    payload["types"] = types
    # eth_account may normalise values in place; the caller's payload is left untouched.
    payload["message"] = copy_json(dict(typed_data["message"]))
    return payload


def _prepared(typed_data: Mapping[str, Any]) -> tuple[dict[str, Any], bytes]:
    """The payload as read (see `typed_data_digest`) and its digest."""
    # Imported here: eth_account's package import is slow, and most programs never sign
    # a payload that is not one of the fixed types of the fast path.
    from eth_account.messages import encode_typed_data

    try:
        payload = _normalised(typed_data)
        # A second copy for eth_account, which may normalise values in place: what a
        # signer that is not a local key is shown stays as it was read.
        signable = encode_typed_data(full_message=_normalised(typed_data))
    except InvalidInputError:
        raise
    except Exception as exc:
        raise InvalidInputError(
            "typed_data", f"is not valid EIP-712 typed data ({type(exc).__name__}: {exc})"
        ) from None
    return payload, keccak(b"\x19" + signable.version + signable.header + signable.body)


def _typed_data_digest(typed_data: Mapping[str, Any]) -> bytes:
    return _prepared(typed_data)[1]


def typed_data_digest(typed_data: Mapping[str, Any]) -> str:
    """The EIP-712 digest of a full typed-data payload, as ``0x`` hex.

    The payload is read as given, with two normalisations that do not change what is
    signed: a ``chainId`` sent as a string (``"8453"`` or ``"0x2105"``) is read as an
    integer, and types that ``primaryType`` does not use are ignored. A domain without
    ``version`` (as Permit2 has) is fine.

    Raises:
        InvalidInputError: the payload is not valid EIP-712 typed data.
    """
    return "0x" + _typed_data_digest(typed_data).hex()


def sign_typed_data(
    signer: Signer, typed_data: Mapping[str, Any], *, policy: PolicyLike | None = None
) -> str:
    """Sign a full EIP-712 payload exactly as given (for example a routing service's
    gasless Permit2 quote) and return the ``0x`` hex signature (``v`` 27 or 28).

    Args:
        signer: the account that signs.
        typed_data: the payload, with ``types``, ``domain``, ``primaryType`` and
            ``message``; see `typed_data_digest` for how it is read.

    A signer that is not a local key is handed the payload itself (as read: a string
    ``chainId`` as a number, unused types left out), never only its digest.

    Like every signature, it passes the signing gate: ``policy`` (a
    `xswap_sdk.policy.Policy` or an approval callable) is put in force for it, on top
    of any already in force, and sees the payload described by its ``primaryType``.

    Raises:
        InvalidInputError: the payload is not valid EIP-712 typed data.
        SigningError: the signer failed, or signed for another address.
        PolicyRefusedError: a signing policy refused; nothing was signed.
    """
    return _with_policy(policy, lambda: _signed_now(_signing_typed_data(signer, typed_data)))


def _signing_typed_data(signer: Signer, typed_data: Mapping[str, Any]) -> Flow[str]:
    """`sign_typed_data` as a flow: the payload read and checked, then one
    `xswap_sdk._flow.Sign` step (a journey's driver makes, or replays, the signature)."""
    payload, digest = _prepared(typed_data)
    signature: str = yield Sign(signer, digest, payload, what=str(payload.get("primaryType")))
    return signature


def recover_typed_data(typed_data: Mapping[str, Any], signature: str) -> str:
    """Return the checksummed address that signed ``typed_data``.

    Raises:
        InvalidInputError: the payload or the signature is malformed.
        SigningError: no public key can be recovered from the signature.
    """
    return recover_digest(_typed_data_digest(typed_data), signature)
