"""Who signs, and how a 32-byte digest becomes a 65-byte signature.

Every signature in the SDK goes through `sign_digest` (or, for EIP-191 messages,
`personal_sign`) and every recovery through `recover_digest`, so the rules live in one
place: signatures are ``0x`` + 130 hex digits, ``r || s || v`` with ``v`` in {27, 28};
``v`` given as 0 or 1 is accepted and normalised; a signature made by a signer that is
not an `eth_account` `LocalAccount` is checked against the signer's address before it is
returned.
"""

from __future__ import annotations

import sys
import weakref
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import coincurve
from eth_hash.auto import keccak
from eth_typing import Hash32

from .._models import check_argument
from ..errors import InvalidInputError, SigningError
from ..types import Address, to_checksum

if TYPE_CHECKING:
    from eth_account.messages import SignableMessage
    from eth_account.signers.local import LocalAccount

__all__ = [
    "Signer",
    "personal_sign",
    "personal_sign_digest",
    "recover_digest",
    "recover_personal_sign",
    "sign_digest",
    "signature_bytes",
    "signer_address",
]


@runtime_checkable
class Signer(Protocol):
    """Anything that can sign for an address: an `eth_account` `LocalAccount` as it is.

    The SDK signs EIP-712 digests with `unsafe_sign_hash` and personal messages with
    `sign_message`; `sign_typed_data` is part of the protocol so that the same object can
    be handed to code that signs a full typed-data payload. A remote, KMS or hardware
    signer only needs these members; what its methods return may be an object with a
    ``signature`` attribute (as `eth_account` returns), raw bytes or a hex string, and
    ``v`` may be 0/1 or 27/28. The SDK recovers the address from every signature such a
    signer makes and raises `SigningError` when it is not `address`.

    For a `LocalAccount` the SDK signs the digest directly with libsecp256k1 (through
    coincurve), which gives the same deterministic RFC 6979 signature as `eth_account`
    at a fraction of the cost.
    """

    @property
    def address(self) -> str:
        """The signer's address (EIP-55 checksummed)."""
        ...

    def unsafe_sign_hash(self, message_hash: Hash32) -> object:
        """Sign a 32-byte digest as it is, with no prefix."""
        ...

    def sign_message(self, signable_message: SignableMessage) -> object:
        """Sign an EIP-191 message (``personal_sign`` for version ``E``)."""
        ...

    def sign_typed_data(
        self,
        domain_data: dict[str, Any] | None = None,
        message_types: dict[str, Any] | None = None,
        message_data: dict[str, Any] | None = None,
        full_message: dict[str, Any] | None = None,
    ) -> object:
        """Sign EIP-712 typed data."""
        ...


# The coincurve key costs an EC multiplication to build (about as much as a signature),
# so it is kept for as long as the account object lives, and no longer.
_keys: weakref.WeakKeyDictionary[LocalAccount, coincurve.PrivateKey] = weakref.WeakKeyDictionary()


def _local_account(signer: object) -> LocalAccount | None:
    """``signer`` if it is an `eth_account` `LocalAccount`, else ``None``.

    A `LocalAccount` can only exist once its module has been imported, so the question is
    answered without importing `eth_account`, whose package import costs about half a
    second (key-file and BLS code the SDK never uses). ``import xswap_sdk`` stays fast.
    """
    module = sys.modules.get("eth_account.signers.local")
    if module is not None and isinstance(signer, module.LocalAccount):
        return signer  # type: ignore[no-any-return]
    return None


def _local_key(account: LocalAccount) -> coincurve.PrivateKey:
    key = _keys.get(account)
    if key is None:
        key = coincurve.PrivateKey(bytes(account.key))
        _keys[account] = key
    return key


def signature_bytes(signature: object, *, argument: str = "signature") -> bytes:
    """Return a signature as 65 bytes ``r || s || v`` with ``v`` in {27, 28}.

    Accepts ``bytes``, a ``0x`` hex string, or an object with a ``signature`` attribute
    holding either (what `eth_account` returns). ``v`` of 0 or 1 is turned into 27 or 28.

    Raises:
        InvalidInputError: not 65 bytes of hex, or ``v`` not in {0, 1, 27, 28}. The
            message never contains the signature.
    """
    value = getattr(signature, "signature", signature)
    if isinstance(value, str):
        body = value[2:] if value[:2] in ("0x", "0X") else value
        try:
            value = bytes.fromhex(body)
        except ValueError:
            raise InvalidInputError(argument, "must be 0x + 130 hex digits") from None
    if not isinstance(value, bytes | bytearray) or len(value) != 65:
        raise InvalidInputError(argument, "must be a 65-byte signature (0x + 130 hex digits)")
    v = value[64]
    if v in (0, 1):
        v += 27
    elif v not in (27, 28):
        raise InvalidInputError(argument, "must end in a recovery byte v of 0, 1, 27 or 28")
    return bytes(value[:64]) + bytes((v,))


def _checked(address: str, digest: bytes, signed: object) -> bytes:
    try:
        signature = signature_bytes(signed)
    except InvalidInputError as exc:
        raise SigningError(f"the signer returned an unusable signature: {exc.rule}") from None
    if recover_digest(digest, signature) != address:
        raise SigningError(
            "the signer returned a signature that does not recover to its own address "
            "(it may have signed a different message, or with a different key)"
        )
    return signature


def sign_digest(signer: Signer, digest: bytes) -> bytes:
    """Sign a 32-byte digest as it is; return 65 bytes ``r || s || v`` (``v`` 27 or 28).

    A `LocalAccount` is signed for with libsecp256k1 directly; any other signer's
    ``unsafe_sign_hash`` is called and its answer checked against ``signer.address``.

    Raises:
        InvalidInputError: ``signer`` is not a `Signer`.
        SigningError: the signer failed, or its signature does not recover to its
            address.
    """
    local = _local_account(signer)
    if local is not None:
        raw = _local_key(local).sign_recoverable(digest, hasher=None)
        return raw[:64] + bytes((raw[64] + 27,))
    address = signer_address(signer)
    try:
        signed = signer.unsafe_sign_hash(Hash32(digest))
    except SigningError:
        raise
    except Exception as exc:
        raise SigningError(f"the signer failed to sign: {type(exc).__name__}") from exc
    return _checked(address, digest, signed)


def recover_digest(digest: bytes, signature: object) -> str:
    """Return the checksummed address whose key made ``signature`` over ``digest``.

    Raises:
        InvalidInputError: the signature is not 65 bytes with a valid ``v``.
        SigningError: no public key can be recovered from it.
    """
    sig = signature_bytes(signature)
    try:
        public_key = coincurve.PublicKey.from_signature_and_message(
            sig[:64] + bytes((sig[64] - 27,)), digest, hasher=None
        )
    except ValueError:
        raise SigningError("no public key can be recovered from this signature") from None
    address: str = to_checksum("0x" + keccak(public_key.format(compressed=False)[1:])[-20:].hex())
    return address


def _prefixed_message(message: object) -> bytes:
    if not isinstance(message, str):
        raise InvalidInputError("message", "must be a str (it is signed as UTF-8 text)")
    data = message.encode("utf-8")
    return b"\x19Ethereum Signed Message:\n" + str(len(data)).encode() + data


def personal_sign_digest(message: str) -> bytes:
    """The EIP-191 (version ``E``) hash of ``message``'s UTF-8 bytes.

    A string that looks like hex is still hashed as text, as wallets do for
    ``personal_sign`` of a login message.

    Raises:
        InvalidInputError: ``message`` is not a str.
    """
    return keccak(_prefixed_message(message))


def personal_sign(signer: Signer, message: str) -> str:
    """Sign a text message the way ``personal_sign`` (EIP-191) does.

    The UTF-8 text is signed even when it looks like hex. Signers other than a
    `LocalAccount` are asked through ``sign_message``, the method a hardware wallet
    offers for messages, and their answer is checked against their address.

    Args:
        signer: the account that signs.
        message: the text, for example the login message returned by the swap backend.

    Returns:
        The signature: ``0x`` + 130 hex digits, ``v`` 27 or 28.

    Raises:
        InvalidInputError: ``message`` is not a str.
        SigningError: the signer failed, or signed for another address.
    """
    digest = personal_sign_digest(message)
    if _local_account(signer) is not None:
        return "0x" + sign_digest(signer, digest).hex()
    address = signer_address(signer)
    from eth_account.messages import encode_defunct

    try:
        signed = signer.sign_message(encode_defunct(text=message))
    except SigningError:
        raise
    except Exception as exc:
        raise SigningError(f"the signer failed to sign: {type(exc).__name__}") from exc
    return "0x" + _checked(address, digest, signed).hex()


def recover_personal_sign(message: str, signature: str) -> str:
    """Return the checksummed address that signed ``message`` with `personal_sign`.

    Raises:
        InvalidInputError: ``message`` is not a str, or ``signature`` is malformed.
        SigningError: no public key can be recovered from the signature.
    """
    return recover_digest(personal_sign_digest(message), signature)


def signer_address(signer: object, *, argument: str = "signer") -> str:
    """Return the checksummed address of a `Signer`, or raise `InvalidInputError`."""
    local = _local_account(signer)
    if local is not None:
        return local.address
    if not isinstance(signer, Signer):
        raise InvalidInputError(
            argument,
            "must be a Signer: an eth_account LocalAccount, or an object with address, "
            "unsafe_sign_hash, sign_message and sign_typed_data",
        )
    address: str = check_argument(f"{argument}.address", Address, signer.address)
    return address
