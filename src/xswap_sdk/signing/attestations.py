"""Circle Gateway attestations: read what ``gatewayMint`` would mint, and check it is the
transfer you signed.

``POST /v1/transfer`` answers with an attestation payload and Circle's signature over it;
``gatewayMint(payload, signature)`` on the destination chain's GatewayMinter mints what
the payload says, to whom it says. The payload is Circle's byte encoding (big-endian,
from ``src/lib/Attestations.sol`` and ``src/lib/TransferSpec.sol`` of
``circlefin/evm-gateway-contracts``):

```text
Attestation     magic 0xff6fb334 (4) | maxBlockHeight (32) | spec length (4) | spec
AttestationSet  magic 0x1e12db71 (4) | count (4) | attestations, one after another
TransferSpec    magic 0xca85def7 (4) | version (4) | sourceDomain (4) |
                destinationDomain (4) | sourceContract, destinationContract, sourceToken,
                destinationToken, sourceDepositor, destinationRecipient, sourceSigner,
                destinationCaller (32 each) | value (32) | salt (32) |
                hookData length (4) | hookData
```

Each attested spec is the burn intent's spec, byte for byte: its keccak256 is the
``transferSpecHash`` shared by the burn and the mint. So the check is exact:
`check_attestation` refuses a payload unless it holds exactly the specs of the intents
you signed (hence their recipients, values, destination domains and tokens), all for
the chain you mint on and its pinned GatewayMinter and USDC, with a signature
``gatewayMint`` can accept (one 65-byte ``r || s || v`` signature over the whole
payload: ``ECDSA.recover`` of OpenZeppelin, which refuses other lengths, a ``v`` other
than 27 or 28, and a high ``s``).

On Solana "all attestations are ReducedMintAttestationSets" (Circle's Solana guide):
the GatewayMinter program does not see the specs, only what it mints and each spec's
hash (``attestation.rs`` of circlefin/solana-gateway-contracts), big-endian:

```text
ReducedSet  magic 0x10cbb1ec (4) | version (4) | destinationDomain (4) |
            destinationContract (32) | destinationCaller (32) | maxBlockHeight (u64, 8) |
            count (4) | elements, one after another
Element     destinationToken (32) | destinationRecipient (32) | value (u64, 8) |
            transferSpecHash (32) | hookData length (4) | hookData
```

`check_solana_attestation` holds it to the same standard: the header names the
registry's GatewayMinter program on Solana's domain and the intents' destination
caller, and its elements are exactly your intents, matched by ``transferSpecHash``
(keccak-256 of each spec's bytes, so salt and everything else included), with the
same token (the pinned USDC mint), recipient token account, value and hook data. The
signature is checked as on EVM (the program's ``recover_evm_signer`` refuses the same).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .._base58 import encode
from .._keccak import keccak
from .._models import check_argument
from ..errors import InvalidInputError, UnsafePayloadError
from ..registry import GatewayChain
from ..types import HexBytes
from ._fields import pad_address, to_word
from .burn_intents import (
    TRANSFER_SPEC_MAGIC,
    TRANSFER_SPEC_VERSION,
    BurnIntent,
    TransferSpec,
    as_intent,
    transfer_spec_hash,
)
from .signed_intents import SignedBurnIntent, SignedBurnIntentSet

__all__ = [
    "ATTESTATION_MAGIC",
    "ATTESTATION_SET_MAGIC",
    "REDUCED_ATTESTATION_SET_MAGIC",
    "TRANSFER_SPEC_MAGIC",
    "ExpectedIntents",
    "GatewayAttestation",
    "SolanaAttestation",
    "SolanaMintElement",
    "check_attestation",
    "check_solana_attestation",
    "decode_attestation",
    "decode_solana_attestation",
    "expected_intents",
]

ATTESTATION_MAGIC: Final = bytes.fromhex("ff6fb334")
"""``bytes4(keccak256("circle.gateway.Attestation"))``."""

ATTESTATION_SET_MAGIC: Final = bytes.fromhex("1e12db71")
"""``bytes4(keccak256("circle.gateway.AttestationSet"))``."""

REDUCED_ATTESTATION_SET_MAGIC: Final = bytes.fromhex("10cbb1ec")
"""``bytes4(keccak256("circle.gateway.ReducedAttestationSet"))``: Solana's attestations."""

ExpectedIntents = (
    SignedBurnIntent
    | SignedBurnIntentSet
    | BurnIntent
    | Mapping[str, Any]
    | Sequence[SignedBurnIntent | SignedBurnIntentSet | BurnIntent | Mapping[str, Any]]
)
"""What a mint is checked against: the burn intents you signed for the transfer, as
`sign_burn_intent` / `sign_burn_intent_set` returned them, as `BurnIntent`s, or a list
of those."""

_HEADER: Final = 40  # attestation: magic, maxBlockHeight, spec length
_SPEC_HEADER: Final = 340  # spec: everything before hookData
_SECP256K1_HALF_N: Final = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141 // 2
_SPEC_ADDRESSES: Final = (
    "source_contract",
    "destination_contract",
    "source_token",
    "destination_token",
    "source_depositor",
    "destination_recipient",
    "source_signer",
    "destination_caller",
)
_WIRE: Final = {
    "version": "version",
    "source_domain": "sourceDomain",
    "destination_domain": "destinationDomain",
    "source_contract": "sourceContract",
    "destination_contract": "destinationContract",
    "source_token": "sourceToken",
    "destination_token": "destinationToken",
    "source_depositor": "sourceDepositor",
    "destination_recipient": "destinationRecipient",
    "source_signer": "sourceSigner",
    "destination_caller": "destinationCaller",
    "value": "value",
    "salt": "salt",
    "hook_data": "hookData",
}


@dataclass(frozen=True, slots=True)
class GatewayAttestation:
    """One attestation of a payload: what ``gatewayMint`` would mint.

    Attributes:
        max_block_height: the last destination block it can be minted at.
        spec: the transfer it mints: ``spec.destination_recipient`` receives
            ``spec.value`` of ``spec.destination_token``.
        spec_hash: the ``transferSpecHash``, ``0x`` hex: the keccak256 of the spec's
            bytes as attested (``TransferSpecLib.getHash``), which the GatewayMinter
            marks used when it mints (``isTransferSpecHashUsed``) and Gateway lists per
            burn intent of the transfer (``GET /v1/transfer/{id}``); empty for an
            attestation built by hand.
    """

    max_block_height: int
    spec: TransferSpec
    spec_hash: str = ""


class _MalformedError(Exception):
    """The payload does not follow Circle's encoding; the message says where."""


def _uint(data: bytes, start: int, size: int) -> int:
    if start + size > len(data):
        raise _MalformedError(f"ends at byte {len(data)}, before the field at byte {start}")
    return int.from_bytes(data[start : start + size], "big")


def _word(data: bytes, start: int) -> str:
    _uint(data, start, 32)  # bounds
    return "0x" + data[start : start + 32].hex()


def _spec(data: bytes) -> TransferSpec:
    if len(data) < _SPEC_HEADER or data[:4] != TRANSFER_SPEC_MAGIC:
        raise _MalformedError("a transfer spec lacks its magic 0xca85def7 or its header")
    hook_length = _uint(data, 336, 4)
    if len(data) != _SPEC_HEADER + hook_length:
        raise _MalformedError("a transfer spec's length disagrees with its hookData length")
    fields: dict[str, Any] = {
        "version": _uint(data, 4, 4),
        "source_domain": _uint(data, 8, 4),
        "destination_domain": _uint(data, 12, 4),
        "value": _uint(data, 272, 32),
        "salt": _word(data, 304),
        "hook_data": "0x" + data[_SPEC_HEADER:].hex(),
    }
    for index, name in enumerate(_SPEC_ADDRESSES):
        fields[name] = _word(data, 16 + 32 * index)
    return TransferSpec.model_validate(fields)


def _attestation(data: bytes, start: int) -> tuple[GatewayAttestation, int]:
    if data[start : start + 4] != ATTESTATION_MAGIC:
        raise _MalformedError(f"no attestation magic 0xff6fb334 at byte {start}")
    height = _uint(data, start + 4, 32)
    end = start + _HEADER + _uint(data, start + 36, 4)
    if end > len(data):
        raise _MalformedError(f"an attestation at byte {start} runs past the payload")
    spec = data[start + _HEADER : end]
    return GatewayAttestation(height, _spec(spec), "0x" + keccak(spec).hex()), end


def decode_attestation(payload: str | bytes) -> list[GatewayAttestation]:
    """Read an attestation payload (``TransferResult.attestation``) the way
    ``gatewayMint`` reads it: one ``Attestation`` or an ``AttestationSet``.

    Args:
        payload: ``0x`` hex, or the bytes.

    Returns:
        The attestations, in order (one for a single attestation).

    Raises:
        InvalidInputError: ``payload`` is not hex.
        UnsafePayloadError: it does not follow Circle's encoding (a wrong magic, a
            length that disagrees, trailing bytes, an empty set).
    """
    if isinstance(payload, bytes | bytearray):
        data = bytes(payload)
    else:
        data = bytes.fromhex(check_argument("attestation", HexBytes, payload)[2:])
    try:
        if data[:4] == ATTESTATION_SET_MAGIC:
            count, offset = _uint(data, 4, 4), 8
            found: list[GatewayAttestation] = []
            for _ in range(count):
                attestation, offset = _attestation(data, offset)
                found.append(attestation)
            if not found:
                raise _MalformedError("the attestation set is empty")
        else:
            attestation, offset = _attestation(data, 0)
            found = [attestation]
        if offset != len(data):
            raise _MalformedError(f"{len(data) - offset} byte(s) follow the last attestation")
    except _MalformedError as exc:
        raise UnsafePayloadError(
            "attestation",
            expected="Circle Gateway's Attestation or AttestationSet encoding",
            received=f"{len(data)} bytes, which do not decode: {exc}",
        ) from None
    except InvalidInputError:  # a field out of range for TransferSpec
        raise UnsafePayloadError(
            "attestation",
            expected="Circle Gateway's Attestation or AttestationSet encoding",
            received=f"{len(data)} bytes holding a transfer spec out of range",
        ) from None
    return found


@dataclass(frozen=True, slots=True)
class SolanaMintElement:
    """One transfer a Solana attestation mints.

    Attributes:
        destination_token: the mint of what is minted (base58): USDC.
        destination_recipient: the token account credited (base58).
        value: smallest USDC units.
        transfer_spec_hash: the keccak-256 of the burn intent's spec, ``0x`` hex: which
            intent this is, marked used by the mint.
        hook_data: ``0x`` hex (``"0x"`` for none).
    """

    destination_token: str
    destination_recipient: str
    value: int
    transfer_spec_hash: str
    hook_data: str


@dataclass(frozen=True, slots=True)
class SolanaAttestation:
    """A Solana attestation (Circle's ReducedMintAttestationSet): what the GatewayMinter
    program's ``gateway_mint`` would mint.

    Attributes:
        version: the transfer spec version (1).
        destination_domain: Solana's Gateway domain (5).
        destination_contract: the GatewayMinter program it is for (base58).
        destination_caller: who must sign the mint (base58); 32 zero bytes
            (``11111111111111111111111111111111``) when anyone may.
        max_block_height: the last slot at which it can be minted.
        elements: the transfers it mints, in order.
    """

    version: int
    destination_domain: int
    destination_contract: str
    destination_caller: str
    max_block_height: int
    elements: tuple[SolanaMintElement, ...]


_REDUCED_HEADER: Final = 88  # magic .. element count
_ELEMENT_HEADER: Final = 108  # token, recipient, value, hash, hook length


def _key(data: bytes, start: int) -> str:
    _uint(data, start, 32)  # bounds
    return encode(data[start : start + 32])


def decode_solana_attestation(payload: str | bytes) -> SolanaAttestation:
    """Read a Solana attestation payload (``TransferResult.attestation`` of a transfer
    minted on Solana) the way the GatewayMinter program reads it.

    Args:
        payload: ``0x`` hex, or the bytes.

    Raises:
        InvalidInputError: ``payload`` is not hex.
        UnsafePayloadError: it is not a ReducedMintAttestationSet (a wrong magic, no
            element, a length that disagrees, trailing bytes).
    """
    if isinstance(payload, bytes | bytearray):
        data = bytes(payload)
    else:
        data = bytes.fromhex(check_argument("attestation", HexBytes, payload)[2:])
    try:
        if data[:4] != REDUCED_ATTESTATION_SET_MAGIC:
            raise _MalformedError("no ReducedMintAttestationSet magic 0x10cbb1ec")
        count = _uint(data, 84, 4)
        if count == 0:
            raise _MalformedError("the attestation set is empty")
        offset, elements = _REDUCED_HEADER, []
        for _ in range(count):
            hook_length = _uint(data, offset + 104, 4)
            end = offset + _ELEMENT_HEADER + hook_length
            if end > len(data):
                raise _MalformedError(f"an element at byte {offset} runs past the payload")
            elements.append(
                SolanaMintElement(
                    destination_token=_key(data, offset),
                    destination_recipient=_key(data, offset + 32),
                    value=_uint(data, offset + 64, 8),
                    transfer_spec_hash="0x" + data[offset + 72 : offset + 104].hex(),
                    hook_data="0x" + data[offset + _ELEMENT_HEADER : end].hex(),
                )
            )
            offset = end
        if offset != len(data):
            raise _MalformedError(f"{len(data) - offset} byte(s) follow the last element")
    except _MalformedError as exc:
        raise UnsafePayloadError(
            "attestation",
            expected="Circle Gateway's ReducedMintAttestationSet encoding (Solana)",
            received=f"{len(data)} bytes, which do not decode: {exc}",
        ) from None
    return SolanaAttestation(
        version=_uint(data, 4, 4),
        destination_domain=_uint(data, 8, 4),
        destination_contract=_key(data, 12),
        destination_caller=_key(data, 44),
        max_block_height=_uint(data, 76, 8),
        elements=tuple(elements),
    )


def expected_intents(intents: object) -> list[BurnIntent]:
    """The burn intents ``intents`` names (see `ExpectedIntents`), in order.

    Raises:
        InvalidInputError: not burn intents, or none.
    """
    items: Sequence[object]
    if isinstance(intents, SignedBurnIntent | SignedBurnIntentSet | BurnIntent | Mapping):
        items = [intents]
    elif isinstance(intents, str | bytes) or not isinstance(intents, Sequence) or not intents:
        raise InvalidInputError(
            "intents",
            "must be the burn intents signed for this transfer: a SignedBurnIntent, a "
            "SignedBurnIntentSet, a BurnIntent, or a non-empty list of them",
        )
    else:
        items = intents
    found: list[BurnIntent] = []
    for index, item in enumerate(items):
        if isinstance(item, SignedBurnIntent):
            found.append(item.intent)
        elif isinstance(item, SignedBurnIntentSet):
            found.extend(item.intents)
        else:
            found.append(as_intent(item, f"intents[{index}]"))
    return found


def _check_signature(signature: object) -> None:
    raw: str = check_argument("signature", HexBytes, signature)
    data = bytes.fromhex(raw[2:])
    rule = "one 65-byte signature r || s || v, v 27 or 28, s in the lower half (what "
    rule += "GatewayMinter's ECDSA.recover accepts)"
    if len(data) != 65:
        raise UnsafePayloadError("signature", expected=rule, received=f"{len(data)} bytes")
    if data[64] not in (27, 28):
        raise UnsafePayloadError("signature", expected=rule, received=f"v = {data[64]}")
    if int.from_bytes(data[32:64], "big") > _SECP256K1_HALF_N:
        raise UnsafePayloadError("signature", expected=rule, received="a high s")


def _check_destinations(expected: list[BurnIntent], chain: GatewayChain) -> None:
    for index, intent in enumerate(expected):
        spec = intent.spec
        if spec.destination_domain != chain.domain:
            raise InvalidInputError(
                f"intents[{index}].spec.destination_domain",
                f"is {spec.destination_domain}, and the mint is on {chain.name} "
                f"({chain.chain_id}), domain {chain.domain}: mint on the intents' "
                "destination chain",
            )


def _check_not_empty(attestation: object, signature: object) -> None:
    for argument, given in (("attestation", attestation), ("signature", signature)):
        if isinstance(given, str) and check_argument(argument, HexBytes, given) == "0x":
            raise InvalidInputError(argument, "must not be empty")


def _check_destination(found: Sequence[GatewayAttestation], chain: GatewayChain) -> None:
    """Refuse an attestation any of whose specs mints elsewhere than ``chain``'s pinned
    GatewayMinter, or anything but its native USDC (the field is named)."""
    pinned = {
        "destination_domain": chain.domain,
        "destination_contract": pad_address(chain.gateway_minter),
        "destination_token": pad_address(chain.usdc),
        "version": TRANSFER_SPEC_VERSION,
    }
    for index, entry in enumerate(found):
        for name, value in pinned.items():
            if getattr(entry.spec, name) != value:
                raise UnsafePayloadError(
                    f"attestation[{index}].spec.{_WIRE[name]}",
                    expected=value,
                    received=getattr(entry.spec, name),
                )


def _first_difference(theirs: TransferSpec, mine: TransferSpec) -> str:
    return next(name for name in _WIRE if getattr(theirs, name) != getattr(mine, name))


def check_attestation(
    attestation: str | bytes,
    signature: str,
    *,
    intents: ExpectedIntents,
    chain: GatewayChain,
) -> list[GatewayAttestation]:
    """Refuse an attestation that would not mint exactly the transfer you signed, on
    ``chain``, or whose signature ``gatewayMint`` would refuse.

    Args:
        attestation: the payload, ``0x`` hex.
        signature: Circle's signature over it, ``0x`` hex.
        intents: the burn intents you signed for this transfer (see `ExpectedIntents`).
        chain: the registry's entry of the chain you mint on.

    Returns:
        The attestations, decoded.

    Raises:
        InvalidInputError: malformed hex, ``intents`` that are not burn intents, or
            intents whose destination is not ``chain``.
        UnsafePayloadError: the signature is not one 65-byte low-s signature with ``v``
            27 or 28; the payload does not decode; or its specs are not exactly your
            intents' (named by field: ``attestation[0].spec.destinationRecipient``),
            including their destination domain, minter and USDC from the registry.
    """
    _check_not_empty(attestation, signature)
    expected = expected_intents(intents)
    _check_destinations(expected, chain)
    _check_signature(signature)
    found = decode_attestation(attestation)
    _check_destination(found, chain)
    if len(found) != len(expected):
        raise UnsafePayloadError(
            "attestation",
            expected=f"{len(expected)} attested transfer(s), the intents signed",
            received=f"{len(found)}",
        )
    unmatched = [intent.spec for intent in expected]
    for index, entry in enumerate(found):
        if entry.spec in unmatched:
            unmatched.remove(entry.spec)
            continue
        # Name the field that differs from the intent of the same salt (else the salt).
        same_salt = next((spec for spec in unmatched if spec.salt == entry.spec.salt), None)
        name = "salt" if same_salt is None else _first_difference(entry.spec, same_salt)
        raise UnsafePayloadError(
            f"attestation[{index}].spec.{_WIRE[name]}",
            expected="a burn intent you signed" if same_salt is None else getattr(same_salt, name),
            received=getattr(entry.spec, name),
            hint="Do not mint it: it is not the transfer you signed.",
        )
    return found


def check_solana_attestation(
    attestation: str | bytes,
    signature: str,
    *,
    intents: ExpectedIntents,
    chain: GatewayChain,
) -> SolanaAttestation:
    """Refuse a Solana attestation that would not mint exactly the transfer you signed,
    on ``chain`` (the registry's Solana entry), or whose signature ``gateway_mint``
    would refuse.

    Args:
        attestation: the payload, ``0x`` hex.
        signature: Circle's signature over it, ``0x`` hex.
        intents: the burn intents you signed for this transfer (see `ExpectedIntents`);
            they must share one ``destinationCaller`` (an attestation names one).
        chain: the registry's entry of the Solana network you mint on.

    Returns:
        The attestation, decoded.

    Raises:
        InvalidInputError: malformed hex, ``intents`` that are not burn intents, whose
            destination is not ``chain``, or that name several destination callers.
        UnsafePayloadError: the signature is not one 65-byte low-s signature with ``v``
            27 or 28; the payload does not decode; its header is not for ``chain``'s
            GatewayMinter and your destination caller; or its elements are not exactly
            your intents (named by field: ``attestation.elements[0].value``).
    """
    _check_not_empty(attestation, signature)
    expected = expected_intents(intents)
    _check_destinations(expected, chain)
    callers = {intent.spec.destination_caller for intent in expected}
    if len(callers) != 1:
        raise InvalidInputError(
            "intents",
            "must share one destinationCaller: a Solana attestation names one caller for "
            "all it mints",
        )
    _check_signature(signature)
    found = decode_solana_attestation(attestation)
    usdc = to_word("solana", chain.usdc)
    header = {
        "version": (found.version, TRANSFER_SPEC_VERSION),
        "destinationDomain": (found.destination_domain, chain.domain),
        "destinationContract": (found.destination_contract, chain.gateway_minter),
        "destinationCaller": (found.destination_caller, encode(bytes.fromhex(callers.pop()[2:]))),
    }
    for name, (received, wanted) in header.items():
        if received != wanted:
            raise UnsafePayloadError(f"attestation.{name}", expected=wanted, received=received)
    if len(found.elements) != len(expected):
        raise UnsafePayloadError(
            "attestation",
            expected=f"{len(expected)} attested transfer(s), the intents signed",
            received=f"{len(found.elements)}",
        )
    unmatched = {transfer_spec_hash(intent.spec): intent.spec for intent in expected}
    for index, element in enumerate(found.elements):
        spec = unmatched.pop(element.transfer_spec_hash, None)
        where = f"attestation.elements[{index}]"
        if spec is None:
            raise UnsafePayloadError(
                f"{where}.transferSpecHash",
                expected="the transfer spec hash of a burn intent you signed",
                received=element.transfer_spec_hash,
                hint="Do not mint it: it is not the transfer you signed.",
            )
        hint = "Do not mint it: it is not the transfer you signed."
        if to_word("solana", element.destination_token) != usdc or spec.destination_token != usdc:
            raise UnsafePayloadError(
                f"{where}.destinationToken",
                expected=f"{chain.usdc} (the pinned USDC mint)",
                received=element.destination_token,
                hint=hint,
            )
        for name, received, mine in (
            (
                "destinationRecipient",
                element.destination_recipient,
                encode(bytes.fromhex(spec.destination_recipient[2:])),
            ),
            ("value", element.value, spec.value),
            ("hookData", element.hook_data, spec.hook_data),
        ):
            if received != mine:
                raise UnsafePayloadError(
                    f"{where}.{name}", expected=mine, received=received, hint=hint
                )
    return found
