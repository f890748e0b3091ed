"""Who signs, and how a 32-byte digest becomes a 65-byte signature.

Every EIP-712 signature in the SDK goes through `sign_eip712` (EIP-191 messages through
`personal_sign`) and every recovery through `recover_digest`, so the rules live in one
place: signatures are ``0x`` + 130 hex digits, ``r || s || v`` with ``v`` in {27, 28};
``v`` given as 0 or 1 is accepted and normalised.

Each of them first passes the signing gate (`xswap_sdk.signing._gate`): while a
signing policy is in force (`xswap_sdk.policy`), what is about to be signed is described
from the payload and every policy must allow it, or `PolicyRefusedError` is raised and
nothing is signed. With no policy in force the gate costs one ``ContextVar.get``.

A local key (an `eth_account` `LocalAccount`) signs the digest directly: the fast path.
Any other signer (a hardware wallet, a KMS, a policy engine) is handed what it signs in
full, the typed data or the text, so that it can show it or vet it, and never a bare
digest; its signature is then recovered and checked against its address before it is
returned.
"""

from __future__ import annotations

import copy
import sys
import weakref
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast, runtime_checkable

from .._keccak import keccak
from .._models import check_argument
from .._policy_scope import ACTIVE
from ..errors import InvalidInputError, MissingCredentialsError, SigningError
from ..types import Address, to_checksum

if TYPE_CHECKING:
    import coincurve
    from eth_account.messages import SignableMessage
    from eth_account.signers.local import LocalAccount

    from .._flow import Flow, Sign
    from ..policy import PolicyLike, SigningRequest

T = TypeVar("T")

__all__ = [
    "Signer",
    "personal_sign",
    "personal_sign_digest",
    "recover_digest",
    "recover_personal_sign",
    "sign_digest",
    "sign_eip712",
    "signature_bytes",
    "signer_address",
]


@runtime_checkable
class Signer(Protocol):
    """Anything that can sign for an address: an `eth_account` `LocalAccount` as it is.

    How the SDK asks a signer to sign:

    - A `LocalAccount` signs EIP-712 digests directly, with libsecp256k1 (through
      coincurve): the same deterministic RFC 6979 signature as `eth_account`, at a
      fraction of the cost.
    - Any other signer is given the whole message, never only a digest: EIP-712 payloads
      through ``sign_typed_data(full_message=...)`` (the JSON of
      ``eth_signTypedData_v4``: ``types`` with ``EIP712Domain``, ``domain``,
      ``primaryType``, ``message``, uint256 values as decimal strings) and login
      messages through ``sign_message(encode_defunct(text=...))``. A hardware wallet can
      show it and a KMS or policy engine can vet it before signing.

    What a signer returns may be an object with a ``signature`` attribute (as
    `eth_account` returns), raw bytes or a hex string, and ``v`` may be 0/1 or 27/28. The
    SDK recovers the address from every signature and raises `SigningError` when it is
    not `address`, so a signer that signed something else is caught.

    A signer that can only sign raw hashes does not fit: wrap it and compute the digest
    of the typed data yourself in ``sign_typed_data``, knowing that the SDK then cannot
    promise your device saw what it signed.
    """

    @property
    def address(self) -> str:
        """The signer's address (EIP-55 checksummed)."""
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
        """Sign EIP-712 typed data; the SDK passes ``full_message`` only."""
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
        import coincurve  # lazy: secp256k1's library, at the first local signature

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


def _sign_locally(account: LocalAccount, digest: bytes) -> bytes:
    raw = _local_key(account).sign_recoverable(digest, hasher=None)
    return raw[:64] + bytes((raw[64] + 27,))


def _asked(address: str, digest: bytes, sign: Callable[[], object]) -> bytes:
    try:
        signed = sign()
    except (SigningError, MissingCredentialsError):
        raise  # the SDK's own: a resume's stand-in signer says what is missing
    except Exception as exc:
        raise SigningError(f"the signer failed to sign: {type(exc).__name__}") from exc
    return _checked(address, digest, signed)


def sign_digest(signer: Signer, digest: bytes) -> bytes:
    """Sign a 32-byte digest as it is; return 65 bytes ``r || s || v`` (``v`` 27 or 28).

    A `LocalAccount` is signed for with libsecp256k1 directly; any other signer must
    offer ``unsafe_sign_hash``, and its answer is checked against ``signer.address``.
    The SDK's own signing never sends a bare digest to a signer that is not a local key
    (see `sign_eip712`); this is for callers who have nothing but a digest.

    Raises:
        InvalidInputError: ``signer`` is not a `Signer`.
        SigningError: the signer cannot sign raw hashes, failed, or its signature does
            not recover to its address.
        PolicyRefusedError: a signing policy in force refused (a bare digest cannot be
            read, so only a policy whose rules allow anything, or whose ``approve``
            hook says yes, lets it through).
    """
    if ACTIVE.get():
        # lazy: the signing gate, only while a policy is in force
        from . import _gate

        address = signer_address(signer)
        with _gate.passing(lambda: _gate.describe_digest(address, digest)):
            return _sign_digest(signer, digest)
    return _sign_digest(signer, digest)


def _sign_digest(signer: Signer, digest: bytes) -> bytes:
    local = _local_account(signer)
    if local is not None:
        return _sign_locally(local, digest)
    address = signer_address(signer)
    sign_hash = getattr(signer, "unsafe_sign_hash", None)
    if not callable(sign_hash):
        raise SigningError("the signer cannot sign a raw digest (it has no unsafe_sign_hash)")
    return _asked(address, digest, lambda: sign_hash(digest))


def sign_eip712(
    signer: Signer, digest: bytes, typed_data: Callable[[], Mapping[str, Any]]
) -> bytes:
    """Sign EIP-712 typed data whose digest is ``digest``; return 65 bytes
    ``r || s || v`` (``v`` 27 or 28).

    A `LocalAccount` signs ``digest`` directly (``typed_data`` is not even built). Any
    other signer is asked through ``sign_typed_data(full_message=typed_data())``, so it
    sees the whole message; its signature must recover to its address over ``digest``,
    which the SDK computed itself, or it is refused.

    Args:
        signer: who signs.
        digest: the EIP-712 digest of ``typed_data``, as the SDK computed it.
        typed_data: builds the full payload (``types`` with ``EIP712Domain``,
            ``domain``, ``primaryType``, ``message``) for signers that are not local.

    Raises:
        InvalidInputError: ``signer`` is not a `Signer`.
        SigningError: the signer failed, or its signature does not recover to its
            address over ``digest`` (it signed something else, or with another key).
        PolicyRefusedError: a signing policy in force refused; nothing was signed.
    """
    if ACTIVE.get():
        # lazy: the signing gate, only while a policy is in force
        from . import _gate

        address = signer_address(signer)
        payload = typed_data()  # built once: described, then shown to the signer
        with _gate.passing(lambda: _gate.describe_typed_data(address, payload)):
            return _sign_eip712(signer, digest, lambda: payload)
    return _sign_eip712(signer, digest, typed_data)


def _sign_eip712(
    signer: Signer, digest: bytes, typed_data: Callable[[], Mapping[str, Any]]
) -> bytes:
    local = _local_account(signer)
    if local is not None:
        return _sign_locally(local, digest)
    address = signer_address(signer)
    # A copy: the signer may normalise the payload in place, as eth_account does.
    payload = copy.deepcopy(dict(typed_data()))
    return _asked(address, digest, lambda: signer.sign_typed_data(full_message=payload))


def recover_digest(digest: bytes, signature: object) -> str:
    """Return the checksummed address whose key made ``signature`` over ``digest``.

    Raises:
        InvalidInputError: the signature is not 65 bytes with a valid ``v``.
        SigningError: no public key can be recovered from it.
    """
    sig = signature_bytes(signature)
    import coincurve  # lazy: secp256k1's library, at the first recovery

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


def personal_sign(signer: Signer, message: str, *, policy: PolicyLike | None = None) -> str:
    """Sign a text message the way ``personal_sign`` (EIP-191) does.

    The UTF-8 text is signed even when it looks like hex. Signers other than a
    `LocalAccount` are asked through ``sign_message``, the method a hardware wallet
    offers for messages, and their answer is checked against their address.

    Args:
        signer: the account that signs.
        message: the text, for example the login message returned by the swap backend.
        policy: a signing policy (`xswap_sdk.policy.Policy` or an approval callable)
            to put in force for this signature, on top of any already in force; it sees
            a ``"login"`` request whose counterparty is the site of a Sign-In with
            Ethereum message.

    Returns:
        The signature: ``0x`` + 130 hex digits, ``v`` 27 or 28.

    Raises:
        InvalidInputError: ``message`` is not a str.
        SigningError: the signer failed, or signed for another address.
        PolicyRefusedError: a signing policy refused; nothing was signed.
    """
    if policy is not None:
        return _with_policy(policy, lambda: personal_sign(signer, message))
    digest = personal_sign_digest(message)
    if ACTIVE.get():
        # lazy: the signing gate, only while a policy is in force
        from . import _gate

        address = signer_address(signer)
        with _gate.passing(lambda: _gate.describe_message(address, message)):
            return _personal_sign(signer, message, digest)
    return _personal_sign(signer, message, digest)


def _personal_sign(signer: Signer, message: str, digest: bytes) -> str:
    local = _local_account(signer)
    if local is not None:
        return "0x" + _sign_locally(local, digest).hex()
    address = signer_address(signer)
    from eth_account.messages import encode_defunct

    signable = encode_defunct(text=message)
    return "0x" + _asked(address, digest, lambda: signer.sign_message(signable)).hex()


def _gated(describe: Callable[[ModuleType], SigningRequest]) -> AbstractContextManager[object]:
    """The signing gate around a signature made outside this module: nothing while no
    policy is in force, else `_gate.passing` with ``describe(_gate)`` as the request."""
    if not ACTIVE.get():
        return nullcontext()
    # lazy: the signing gate, only while a policy is in force
    from . import _gate

    return _gate.passing(lambda: describe(_gate))


def _with_policy(policy: PolicyLike | None, call: Callable[[], T]) -> T:
    """``call()`` with ``policy`` in force (see `xswap_sdk.policy.use_policy`): what the
    ``policy=`` argument of the public signing functions does."""
    if policy is None:
        return call()
    # lazy: the policy module, only when policy= is given
    from ..policy import use_policy

    with use_policy(policy):
        return call()


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
            "sign_message and sign_typed_data",
        )
    address: str = check_argument(f"{argument}.address", Address, signer.address)
    return address


_OTHER_SCHEMES: dict[str, Callable[[Sign], str]] = {}
"""How a `xswap_sdk._flow.Sign` step that is not an EVM signature is made, by its
``kind``: `xswap_sdk.signing.solana`, which builds on this module, registers
``"ed25519"`` when it is imported (every flow that yields such a step imports it), so
this module never imports it back."""


def _perform_sign(step: Sign) -> str:
    """Make the signature a `xswap_sdk._flow.Sign` step asks for (``0x`` hex), through
    the signing gate and every policy in force."""
    if step.kind in _OTHER_SCHEMES:
        return _OTHER_SCHEMES[step.kind](step)
    if step.kind == "ed25519":
        raise SigningError(
            "an Ed25519 (Solana) signature needs xswap_sdk.signing.solana, not imported"
        )
    signer = cast(Signer, step.signer)
    if step.kind == "message":
        return personal_sign(signer, str(step.payload))
    payload = step.payload
    build: Callable[[], Mapping[str, Any]] = payload if callable(payload) else lambda: payload
    return "0x" + sign_eip712(signer, step.digest, build).hex()


def _signed_now(flow: Flow[T]) -> T:
    """Run a flow that only signs (yields `xswap_sdk._flow.Sign` steps) to its result,
    making each signature at once: the public signing functions, written once as the
    flows a journey replays."""
    # lazy: the flow steps, only when a flow is signed
    from .._flow import Sign

    result: Any = None
    while True:
        try:
            step = flow.send(result)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        if not isinstance(step, Sign):
            flow.close()
            raise TypeError(f"a signing flow yielded {type(step).__name__}, not Sign")
        result = _perform_sign(step)
