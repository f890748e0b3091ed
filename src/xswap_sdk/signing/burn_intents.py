"""Circle Gateway burn intents: the models, their EIP-712 hashing, and the builder.

A burn intent authorises moving USDC out of the gateway wallet on a source chain; a set
groups up to 16 of them (one per source chain) under one signature. The models hold the
values in the form that is sent, and `BurnIntent.to_wire` is the only serialisation:
it is what is hashed (through the same field values) and what is sent, so the two
cannot drift apart. Signing lives in `xswap_sdk.signing.signed_intents`.

The same values also have Circle's binary encoding (`transfer_spec_bytes`,
`burn_intent_bytes`): the TransferSpec bytes whose keccak-256 is the
``transferSpecHash`` a mint marks used on every chain, and the BurnIntent bytes a
Solana key signs (`xswap_sdk.signing.solana`).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import ConfigDict, Field, ValidationError

from .._keccak import keccak
from .._models import RequestModel, check_argument, invalid_input, validate_request
from ..errors import InvalidInputError
from ..registry import DEFAULT_MAX_FEE as _DEFAULT_MAX_FEE
from ..types import MAX_UINT256, Address, Bytes32, HexBytes
from ._fields import AddressOrBytes32, Uint32, Uint256, pad_address
from .eip712 import domain_separator, eip712_digest, type_hash

__all__ = [
    "BURN_INTENT_MAGIC",
    "DEFAULT_MAX_FEE",
    "TRANSFER_SPEC_MAGIC",
    "burn_intent_bytes",
    "transfer_spec_bytes",
    "transfer_spec_hash",
    "as_intent",
    "as_intents",
    "check_signable",
    "signable_problem",
    "GATEWAY_DOMAIN",
    "MAX_INTENTS_PER_SET",
    "TRANSFER_SPEC_VERSION",
    "BurnIntent",
    "BurnIntentSet",
    "TransferSpec",
    "address_to_bytes32",
    "build_burn_intent",
    "burn_intent_digest",
    "burn_intent_set_digest",
    "burn_intent_set_typed_data",
    "burn_intent_typed_data",
]

DEFAULT_MAX_FEE = _DEFAULT_MAX_FEE
"""The spec's default ``maxFee`` (2.01 USDC, `xswap_sdk.registry.DEFAULT_MAX_FEE`); pass
the quote's gateway fee when you have it."""

MAX_INTENTS_PER_SET = 16
"""Circle Gateway accepts at most 16 burn intents in one set."""

TRANSFER_SPEC_VERSION = 1
"""The only transfer spec ``version`` Circle Gateway accepts (any other reverts with
``InvalidTransferSpecVersion``)."""

BURN_INTENT_MAGIC = bytes.fromhex("070afbc2")
"""``bytes4(keccak256("circle.gateway.BurnIntent"))``: the first bytes of a BurnIntent's
binary encoding."""

TRANSFER_SPEC_MAGIC = bytes.fromhex("ca85def7")
"""``bytes4(keccak256("circle.gateway.TransferSpec"))``."""

GATEWAY_DOMAIN: dict[str, str] = {"name": "GatewayWallet", "version": "1"}
"""The EIP-712 domain of every burn intent. It has no ``chainId``, on purpose."""

_TRANSFER_SPEC_FIELDS = (
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
    ("hookData", "bytes"),
)
_BURN_INTENT_FIELDS = (
    ("maxBlockHeight", "uint256"),
    ("maxFee", "uint256"),
    ("spec", "TransferSpec"),
)
_BURN_INTENT_SET_FIELDS = (("intents", "BurnIntent[]"),)


def _encode_type(name: str, fields: Sequence[tuple[str, str]]) -> str:
    return name + "(" + ",".join(f"{kind} {field}" for field, kind in fields) + ")"


def _type_list(fields: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"name": field, "type": kind} for field, kind in fields]


_TRANSFER_SPEC_TYPE = _encode_type("TransferSpec", _TRANSFER_SPEC_FIELDS)
_BURN_INTENT_TYPE = _encode_type("BurnIntent", _BURN_INTENT_FIELDS) + _TRANSFER_SPEC_TYPE
_BURN_INTENT_SET_TYPE = _encode_type("BurnIntentSet", _BURN_INTENT_SET_FIELDS) + _BURN_INTENT_TYPE

# Precomputed once: the fast path below only packs 32-byte words and hashes them.
_TRANSFER_SPEC_TYPEHASH_HEX = type_hash(_TRANSFER_SPEC_TYPE).hex()
_BURN_INTENT_TYPEHASH = type_hash(_BURN_INTENT_TYPE)
_BURN_INTENT_SET_TYPEHASH = type_hash(_BURN_INTENT_SET_TYPE)
_GATEWAY_DOMAIN_SEPARATOR = domain_separator(GATEWAY_DOMAIN["name"], GATEWAY_DOMAIN["version"])

_TYPES: dict[str, list[dict[str, str]]] = {
    "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"}],
    "TransferSpec": _type_list(_TRANSFER_SPEC_FIELDS),
    "BurnIntent": _type_list(_BURN_INTENT_FIELDS),
    "BurnIntentSet": _type_list(_BURN_INTENT_SET_FIELDS),
}


class _WireStruct(RequestModel):
    """Base of the signed structs: strict like a request (unknown keys would be sent but
    not signed), but read from the camelCase wire form as well as from snake_case names."""

    model_config: ClassVar[ConfigDict] = ConfigDict(validate_by_alias=True)


class TransferSpec(_WireStruct):
    """What moves: from which contract, token and depositor to which recipient.

    Attributes are snake_case; the wire keys are camelCase (``sourceDomain``,
    ``hookData``, ...). bytes32 fields are lowercase ``0x`` + 64 hex digits, ``value``
    is an int (sent as a decimal string), ``hook_data`` is ``"0x"`` when empty.
    """

    version: Uint32
    """The transfer spec version: 1."""
    source_domain: Uint32
    """The source chain's Circle Gateway domain."""
    destination_domain: Uint32
    """The destination chain's Circle Gateway domain."""
    source_contract: Bytes32
    """The source chain's GatewayWallet, as bytes32."""
    destination_contract: Bytes32
    """The destination chain's GatewayMinter, as bytes32."""
    source_token: Bytes32
    """USDC on the source chain, as bytes32."""
    destination_token: Bytes32
    """USDC on the destination chain, as bytes32."""
    source_depositor: Bytes32
    """The user whose gateway balance pays, as bytes32."""
    destination_recipient: Bytes32
    """Who receives the minted USDC (the quote's swap router), as bytes32."""
    source_signer: Bytes32
    """Who signs (the user), as bytes32."""
    destination_caller: Bytes32
    """Who may mint on the destination (the quote's swap router), as bytes32."""
    value: Uint256
    """The USDC moved from this source chain, in smallest units."""
    salt: Bytes32
    """32 random bytes, so no two intents are alike."""
    hook_data: HexBytes
    """The quote's ``hook_data`` (``"0x"`` when empty)."""


class BurnIntent(_WireStruct):
    """One signed authorisation to burn USDC on a source chain and mint it elsewhere.

    ``BurnIntent.model_validate(wire_dict)`` reads the wire form (uint256 fields as ints
    or decimal strings) and checks every range and length; `to_wire` gives it back
    exactly (uint256 fields as decimal strings, domains and version as ints).
    """

    max_block_height: Uint256
    """The last block the intent is valid at (the largest uint256 by default)."""
    max_fee: Uint256
    """The most the Gateway may charge for this intent, in smallest USDC units."""
    spec: TransferSpec
    """What moves, from where to where."""


class BurnIntentSet(_WireStruct):
    """One to 16 burn intents signed together (primary type ``BurnIntentSet``)."""

    intents: list[BurnIntent] = Field(min_length=1, max_length=MAX_INTENTS_PER_SET)
    """The intents, one per source chain (1 to 16)."""


def address_to_bytes32(address: str) -> str:
    """Left-pad an address to 32 bytes, lowercase: ``0x`` + 24 zeros + the 40 hex digits.

    This is how every address-valued field of a burn intent is written.

    Raises:
        InvalidInputError: not a 20-byte hex address, or mixed case with a wrong EIP-55
            checksum.
    """
    checked: str = check_argument("address", Address, address)
    return pad_address(checked)


def _address_words(spec: TransferSpec) -> str:
    # The eight bytes32 address words, hex, in the one order that both the EIP-712 hash
    # and Circle's binary encoding use.
    return (
        spec.source_contract[2:]
        + spec.destination_contract[2:]
        + spec.source_token[2:]
        + spec.destination_token[2:]
        + spec.source_depositor[2:]
        + spec.destination_recipient[2:]
        + spec.source_signer[2:]
        + spec.destination_caller[2:]
    )


def _spec_hash(spec: TransferSpec) -> bytes:
    words = bytes.fromhex(
        _TRANSFER_SPEC_TYPEHASH_HEX
        + f"{spec.version:064x}{spec.source_domain:064x}{spec.destination_domain:064x}"
        + _address_words(spec)
        + f"{spec.value:064x}"
        + spec.salt[2:]
    )
    return keccak(words + keccak(bytes.fromhex(spec.hook_data[2:])))


def _intent_hash(intent: BurnIntent) -> bytes:
    return keccak(
        _BURN_INTENT_TYPEHASH
        + intent.max_block_height.to_bytes(32, "big")
        + intent.max_fee.to_bytes(32, "big")
        + _spec_hash(intent.spec)
    )


def _intent_digest(intent: BurnIntent) -> bytes:
    return eip712_digest(_GATEWAY_DOMAIN_SEPARATOR, _intent_hash(intent))


def _set_hash(intents: Sequence[BurnIntent]) -> bytes:
    array_hash = keccak(b"".join(_intent_hash(intent) for intent in intents))
    return keccak(_BURN_INTENT_SET_TYPEHASH + array_hash)


def _set_digest(intents: Sequence[BurnIntent]) -> bytes:
    return eip712_digest(_GATEWAY_DOMAIN_SEPARATOR, _set_hash(intents))


def transfer_spec_bytes(spec: TransferSpec) -> bytes:
    """A transfer spec in Circle's binary encoding, big-endian: magic ``0xca85def7``,
    version, source and destination domains (4 bytes each), the eight address words
    (32 each), value (32), salt (32), hook data length (4) and the hook data.

    The same on every chain (``TransferSpec.sol`` of circlefin/evm-gateway-contracts,
    ``burn_data.rs`` of circlefin/solana-gateway-contracts); an attestation holds it
    (on EVM) or its hash (on Solana).
    """
    hook = bytes.fromhex(spec.hook_data[2:])
    return (
        TRANSFER_SPEC_MAGIC
        + spec.version.to_bytes(4, "big")
        + spec.source_domain.to_bytes(4, "big")
        + spec.destination_domain.to_bytes(4, "big")
        + bytes.fromhex(_address_words(spec))
        + spec.value.to_bytes(32, "big")
        + bytes.fromhex(spec.salt[2:])
        + len(hook).to_bytes(4, "big")
        + hook
    )


def transfer_spec_hash(spec: TransferSpec) -> str:
    """The ``transferSpecHash``: keccak-256 of `transfer_spec_bytes`, ``0x`` hex. A burn
    and its mint mark it used, so a spec moves money once."""
    return "0x" + keccak(transfer_spec_bytes(spec)).hex()


def burn_intent_bytes(intent: BurnIntent) -> bytes:
    """A burn intent in Circle's binary encoding, big-endian: magic ``0x070afbc2``,
    ``maxBlockHeight`` (32 bytes), ``maxFee`` (32), the spec's length (4) and the spec
    (`transfer_spec_bytes`). What a Solana key signs, after a 16-byte prefix
    (`xswap_sdk.signing.solana.solana_burn_intent_message`)."""
    spec = transfer_spec_bytes(intent.spec)
    return (
        BURN_INTENT_MAGIC
        + intent.max_block_height.to_bytes(32, "big")
        + intent.max_fee.to_bytes(32, "big")
        + len(spec).to_bytes(4, "big")
        + spec
    )


def as_intent(value: object, argument: str = "intent") -> BurnIntent:
    """Return ``value`` as a `BurnIntent`, reading a wire-form mapping if given one.

    Raises:
        InvalidInputError: naming the offending field, e.g. ``intent.spec.salt``.
    """
    if isinstance(value, BurnIntent):
        return value
    if not isinstance(value, Mapping):
        raise InvalidInputError(argument, "must be a BurnIntent or its wire-form dict")
    try:
        return BurnIntent.model_validate(value)
    except ValidationError as exc:
        raise invalid_input(exc, argument=argument) from None


def as_intents(value: object, argument: str = "intents") -> list[BurnIntent]:
    """Return ``value`` (a `BurnIntentSet` or a sequence of intents) as 1 to 16 intents.

    Raises:
        InvalidInputError: an empty or too long list, or a bad intent (named by index,
            e.g. ``intents[3].spec.value``).
    """
    if isinstance(value, BurnIntentSet):
        value = value.intents
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise InvalidInputError(argument, "must be a list of BurnIntent (or wire-form dicts)")
    if not value:
        raise InvalidInputError(argument, "must hold at least one burn intent")
    if len(value) > MAX_INTENTS_PER_SET:
        raise InvalidInputError(
            argument, f"must hold at most {MAX_INTENTS_PER_SET} burn intents, not {len(value)}"
        )
    return [as_intent(item, f"{argument}[{index}]") for index, item in enumerate(value)]


_ZERO_VALUE_RULE = (
    "must be positive: Circle Gateway refuses a burn intent of 0 "
    "(IntentValueMustBePositiveAtIndex), and one such intent makes a whole set revert"
)
_VERSION_RULE = (
    f"must be {TRANSFER_SPEC_VERSION}: Circle Gateway refuses any other transfer spec "
    "version (InvalidTransferSpecVersion)"
)


def signable_problem(intent: BurnIntent) -> tuple[str, str] | None:
    """What makes ``intent`` one that Circle Gateway's contracts would refuse, as
    ``(field, rule)``, or ``None`` when it is fine to sign."""
    if intent.spec.version != TRANSFER_SPEC_VERSION:
        return "spec.version", _VERSION_RULE
    if intent.spec.value <= 0:
        return "spec.value", _ZERO_VALUE_RULE
    return None


def check_signable(intent: BurnIntent, argument: str = "intent") -> None:
    """Refuse an intent given by the caller that Circle Gateway would refuse on chain.

    Raises:
        InvalidInputError: ``value`` is 0, or the transfer spec ``version`` is not 1.
    """
    problem = signable_problem(intent)
    if problem is not None:
        raise InvalidInputError(f"{argument}.{problem[0]}", problem[1])


def burn_intent_digest(intent: BurnIntent | Mapping[str, Any]) -> str:
    """The EIP-712 digest a signer signs for one burn intent (primary type ``BurnIntent``).

    Raises:
        InvalidInputError: a malformed intent.
    """
    return "0x" + _intent_digest(as_intent(intent)).hex()


def burn_intent_set_digest(
    intents: BurnIntentSet | Sequence[BurnIntent | Mapping[str, Any]],
) -> str:
    """The EIP-712 digest of a set of burn intents (primary type ``BurnIntentSet``).

    A set holding one intent and that intent alone have different digests.

    Raises:
        InvalidInputError: no intent, more than 16, or a malformed one.
    """
    return "0x" + _set_digest(as_intents(intents)).hex()


def _typed_data(primary: str, message: dict[str, Any]) -> dict[str, Any]:
    needed = {
        "BurnIntent": ("EIP712Domain", "TransferSpec", "BurnIntent"),
        "BurnIntentSet": ("EIP712Domain", "TransferSpec", "BurnIntent", "BurnIntentSet"),
    }[primary]
    return {
        "types": {name: [dict(field) for field in _TYPES[name]] for name in needed},
        "domain": dict(GATEWAY_DOMAIN),
        "primaryType": primary,
        "message": message,
    }


def burn_intent_typed_data(intent: BurnIntent | Mapping[str, Any]) -> dict[str, Any]:
    """The full EIP-712 payload of one burn intent, to sign elsewhere.

    The JSON for ``eth_signTypedData_v4`` (a browser wallet) or a hardware wallet:
    ``types`` holds ``EIP712Domain`` and only the types ``BurnIntent`` uses, the domain
    is ``{"name": "GatewayWallet", "version": "1"}`` and the message is the wire form
    (uint256 values as decimal strings). Libraries that add the domain type themselves,
    such as ethers' ``signTypedData``, want ``types`` without ``EIP712Domain``.

    Raises:
        InvalidInputError: a malformed intent.
    """
    return _typed_data("BurnIntent", as_intent(intent).to_wire())


def burn_intent_set_typed_data(
    intents: BurnIntentSet | Sequence[BurnIntent | Mapping[str, Any]],
) -> dict[str, Any]:
    """The full EIP-712 payload of a burn intent set, to sign elsewhere.

    Like `burn_intent_typed_data`, with primary type ``BurnIntentSet`` and message
    ``{"intents": [...]}``.

    Raises:
        InvalidInputError: no intent, more than 16, or a malformed one.
    """
    return _typed_data(
        "BurnIntentSet", {"intents": [intent.to_wire() for intent in as_intents(intents)]}
    )


class _BuildArguments(RequestModel):
    source_domain: Uint32
    destination_domain: Uint32
    source_contract: AddressOrBytes32
    destination_contract: AddressOrBytes32
    source_token: AddressOrBytes32
    destination_token: AddressOrBytes32
    user: AddressOrBytes32
    recipient: AddressOrBytes32
    value: Uint256
    source_signer: AddressOrBytes32 | None
    destination_caller: AddressOrBytes32 | None
    hook_data: HexBytes
    max_fee: Uint256
    max_block_height: Uint256
    salt: Bytes32 | None
    version: Uint32


def build_burn_intent(
    *,
    source_domain: int,
    destination_domain: int,
    source_contract: str,
    destination_contract: str,
    source_token: str,
    destination_token: str,
    user: str,
    recipient: str,
    value: int | str,
    source_signer: str | None = None,
    destination_caller: str | None = None,
    hook_data: str | bytes = "0x",
    max_fee: int | str = DEFAULT_MAX_FEE,
    max_block_height: int | str = MAX_UINT256,
    salt: str | bytes | None = None,
    version: int = 1,
) -> BurnIntent:
    """Build a burn intent from the chain configuration and the quote, per the spec.

    Addresses may be given in any case (a mixed-case one must carry a valid EIP-55
    checksum) and are written as lowercase, left-padded bytes32; a value that is already
    32 bytes is kept as it is.

    Args:
        source_domain: the source chain's Gateway ``domain``.
        destination_domain: the destination chain's Gateway ``domain``.
        source_contract: the source chain's ``gatewayWallet``.
        destination_contract: the destination chain's ``gatewayMinter``.
        source_token: USDC on the source chain.
        destination_token: USDC on the destination chain.
        user: the depositor, whose gateway balance is spent (``sourceDepositor``).
        recipient: who receives on the destination chain; for a swap, the quote's swap
            router (``destinationRecipient``).
        value: the amount taken from this source chain, in USDC smallest units.
        source_signer: who signs the intent; defaults to ``user``.
        destination_caller: who may execute the mint; defaults to ``recipient``.
        hook_data: the quote's ``hook_data``; ``"0x"`` when there is none.
        max_fee: the most the Gateway may charge, in smallest units (the quote's gateway
            fee); defaults to 2010000.
        max_block_height: the last block in which the intent is valid; defaults to
            2**256 - 1.
        salt: 32 bytes that make the intent unique; defaults to 32 random bytes.
        version: the transfer spec version; must be 1, the only one Circle Gateway
            accepts.

    Returns:
        The intent, ready for `sign_burn_intent` or to be put in a set.

    Raises:
        InvalidInputError: naming the first bad argument (for example a float ``value``
            or an address with a wrong checksum), a ``value`` of 0 or a ``version``
            other than 1: Circle Gateway's contracts refuse both
            (``IntentValueMustBePositiveAtIndex``, ``InvalidTransferSpecVersion``).
    """
    args = validate_request(
        _BuildArguments,
        source_domain=source_domain,
        destination_domain=destination_domain,
        source_contract=source_contract,
        destination_contract=destination_contract,
        source_token=source_token,
        destination_token=destination_token,
        user=user,
        recipient=recipient,
        value=value,
        source_signer=source_signer,
        destination_caller=destination_caller,
        hook_data=hook_data,
        max_fee=max_fee,
        max_block_height=max_block_height,
        salt=salt,
        version=version,
    )
    if args.version != TRANSFER_SPEC_VERSION:
        raise InvalidInputError("version", _VERSION_RULE)
    if args.value == 0:
        raise InvalidInputError("value", _ZERO_VALUE_RULE)
    # Built from values validated just above, each already in the exact form the
    # intent's own field types give (AddressOrBytes32 makes the lowercase bytes32 that
    # Bytes32 keeps as it is; the salt is 32 fresh bytes as lowercase hex): validating
    # them again would only repeat the same checks (a test compares the two).
    spec = TransferSpec.model_construct(
        version=args.version,
        source_domain=args.source_domain,
        destination_domain=args.destination_domain,
        source_contract=args.source_contract,
        destination_contract=args.destination_contract,
        source_token=args.source_token,
        destination_token=args.destination_token,
        source_depositor=args.user,
        destination_recipient=args.recipient,
        source_signer=args.source_signer or args.user,
        destination_caller=args.destination_caller or args.recipient,
        value=args.value,
        salt=args.salt or "0x" + secrets.token_hex(32),
        hook_data=args.hook_data,
    )
    return BurnIntent.model_construct(
        max_block_height=args.max_block_height, max_fee=args.max_fee, spec=spec
    )
