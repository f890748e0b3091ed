"""Circle Gateway burn intents with a Solana source: signed with an Ed25519 key.

A burn intent that spends a Gateway balance on Solana (Gateway domain 5) holds the same
TransferSpec and BurnIntent values as an EVM one, but is not EIP-712 typed data: the
key signs, with plain Ed25519 (RFC 8032, no hash of the message first), a 16-byte
prefix ``0xff`` + 15 zero bytes followed by the intent's binary encoding
(`solana_burn_intent_message`). Circle's GatewayWallet program checks exactly that
(``burn_data.rs`` and ``gateway_burn.rs`` of circlefin/solana-gateway-contracts:
``BURN_INTENT_MESSAGE_PREFIX``, the Ed25519 precompile verifying the intent's
``sourceSigner``); it is not Solana's off-chain message format, whose prefix only
shares the first byte. The signature is sent as ``0x`` + 128 hex digits.

Anything with ``pubkey()`` and ``sign_message(bytes)`` signs (`SolanaSigner`): a
solders ``Keypair`` as it is, a hardware or remote signer that signs raw bytes. Its
signature is verified (with pycryptodome's Ed25519) against its key
before it is used, so a wallet that wrapped the bytes in another format is caught.

Before any key signs, `check_solana_intent` refuses what Circle's programs would refuse
or what would lose the funds: another source domain than Solana's, a GatewayWallet
program or USDC mint the registry does not pin, a ``sourceSigner`` that is not the key,
destination fields that are not the pinned destination chain's, a recipient of the
wrong shape for its chain, and values past a u64 (Solana's programs read
``maxBlockHeight``, ``maxFee`` and ``value`` as u64). `check_solana_destination`
checks the destination half of any intent minted on Solana, whoever signs it.

Nothing here needs the ``solana`` extra: the encoding is plain bytes and the signer is
yours. Deriving token accounts and building Solana instructions does
(`xswap_sdk.signing.solana_programs`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Final,
    NoReturn,
    Protocol,
    TypeGuard,
    cast,
    runtime_checkable,
)

from .._base58 import KEY_BYTES, encode, solana_key_bytes
from .._policy_scope import ACTIVE
from ..errors import InvalidInputError, SigningError, UnsafePayloadError
from ..registry import DEFAULT_REGISTRY, GatewayChain, Registry
from ._fields import MAX_UINT64, read_word, to_word
from .burn_intents import BurnIntent, as_intent, burn_intent_bytes, check_signable
from .signer import _OTHER_SCHEMES

if TYPE_CHECKING:
    from .._flow import Sign
    from ..policy import SigningRequest

__all__ = [
    "BURN_INTENT_MESSAGE_PREFIX",
    "U64_RULE",
    "SolanaSigner",
    "check_solana_destination",
    "check_solana_intent",
    "check_u64",
    "is_solana_signer",
    "is_solana_source",
    "sign_solana_message",
    "solana_account",
    "solana_burn_intent_message",
    "solana_public_key",
    "verify_solana_signature",
]

BURN_INTENT_MESSAGE_PREFIX: Final = b"\xff" + bytes(15)
"""The 16 bytes before a burn intent in what a Solana key signs (``0xff`` + 15 zero
bytes; the GatewayWallet program refuses any other, ``InvalidBurnIntentMessagePrefix``)."""

_SIGNATURE_BYTES: Final = 64
_ZERO_WORD: Final = "0x" + "00" * 32
U64_RULE: Final = (
    "must fit in a u64 (at most 2**64 - 1) when the source is Solana: its GatewayWallet "
    "program reads it as a u64 (a larger value is refused on chain, InvalidU64HighBytes)"
)


@runtime_checkable
class SolanaSigner(Protocol):
    """Anything that signs raw bytes with a Solana (Ed25519) key: a solders ``Keypair``
    as it is, or a hardware, browser or remote signer wrapped to offer the same two
    methods.

    - ``pubkey()`` returns the public key: a solders ``Pubkey`` (anything whose
      ``bytes()`` are the 32 bytes) or its base58 text.
    - ``sign_message(message)`` signs ``message`` as it is (plain Ed25519, no prefix or
      envelope of its own) and returns the 64-byte signature: a solders ``Signature``
      (anything whose ``bytes()`` are the 64 bytes), ``bytes``, or ``0x`` hex.

    The SDK calls ``sign_message`` once per burn intent with the exact bytes Circle's
    program verifies, then checks the signature against ``pubkey()`` before using it:
    a wallet that signs in Solana's off-chain message format, or with another key, is
    refused with `xswap_sdk.errors.SigningError` (Circle's Gateway skill notes that
    Phantom and most browser wallets refuse such payloads; Solflare signs them).
    """

    def pubkey(self) -> object:
        """The signer's public key (a ``Pubkey`` or its base58 text)."""
        ...

    def sign_message(self, message: bytes, /) -> object:
        """Sign ``message`` with plain Ed25519; return the 64-byte signature."""
        ...


def is_solana_signer(signer: object) -> TypeGuard[SolanaSigner]:
    """Whether ``signer`` is a `SolanaSigner` (``pubkey`` and ``sign_message``) rather
    than an EVM `xswap_sdk.signing.Signer` (which signs typed data)."""
    return (
        callable(getattr(signer, "pubkey", None))
        and callable(getattr(signer, "sign_message", None))
        and not callable(getattr(signer, "sign_typed_data", None))
    )


def _key_of(value: object) -> bytes | None:
    """The 32 bytes of a key given as base58 text or as an object whose ``bytes()`` are
    32 (a solders ``Pubkey``); ``None`` for anything else (raw ``bytes`` included: a
    caller's bytes are too easily a hex string's or a seed's)."""
    if isinstance(value, str):
        try:
            return solana_key_bytes(value)
        except ValueError:
            return None
    if hasattr(value, "__bytes__") and not isinstance(value, bytes | bytearray):
        raw = bytes(value)
        return raw if len(raw) == KEY_BYTES else None
    return None


def solana_account(argument: str, value: object) -> bytes:
    """The 32 bytes of a Solana account argument: base58 text, or a solders ``Pubkey``.

    Raises:
        InvalidInputError: anything else, named ``argument`` (an EVM address is told
            apart, since giving one for a Solana account is the usual mistake).
    """
    key = _key_of(value)
    if key is not None:
        return key
    rule = "must be a Solana address: base58 of 32 bytes, or a Pubkey"
    if isinstance(value, str) and value[:2] in ("0x", "0X"):
        rule += " (this is hex, as an EVM address or a bytes32 is written)"
    raise InvalidInputError(argument, rule)


def solana_public_key(signer: object, *, argument: str = "signer") -> bytes:
    """The 32-byte public key of a `SolanaSigner`.

    Raises:
        InvalidInputError: not a `SolanaSigner`, or ``pubkey()`` is not a 32-byte key.
    """
    if not is_solana_signer(signer):
        raise InvalidInputError(
            argument, "must be a SolanaSigner: an object with pubkey() and sign_message(bytes)"
        )
    try:
        found = signer.pubkey()
    except Exception as exc:
        raise InvalidInputError(f"{argument}.pubkey()", f"failed: {type(exc).__name__}") from None
    key = _key_of(found)
    if key is None and isinstance(found, bytes | bytearray) and len(found) == KEY_BYTES:
        key = bytes(found)  # a signer's own key as raw bytes is unambiguous
    if key is None:
        raise InvalidInputError(
            f"{argument}.pubkey()", "must return a 32-byte public key (a Pubkey, or base58)"
        )
    return key


def solana_burn_intent_message(intent: BurnIntent | Mapping[str, Any]) -> bytes:
    """What a Solana key signs for ``intent``: `BURN_INTENT_MESSAGE_PREFIX` followed by
    the intent's binary encoding (`xswap_sdk.signing.burn_intents.burn_intent_bytes`);
    428 bytes without hook data.

    Raises:
        InvalidInputError: a malformed intent.
    """
    return BURN_INTENT_MESSAGE_PREFIX + burn_intent_bytes(as_intent(intent))


# ------------------------------------------------------------------------------ checks


def _solana_domains(registry: Registry) -> frozenset[int]:
    return frozenset(chain.domain for chain in registry if chain.family == "solana")


def is_solana_source(intent: BurnIntent, registry: Registry | None = None) -> bool:
    """Whether ``intent`` spends a Gateway balance on Solana: its ``sourceDomain`` is a
    Solana domain of the registry (5)."""
    pins = DEFAULT_REGISTRY if registry is None else registry
    return intent.spec.source_domain in _solana_domains(pins)


def _refuse_word(field: str, expected: list[GatewayChain], what: str, word: str) -> NoReturn:
    shown = " or ".join(f"{getattr(chain, what)} ({chain.name})" for chain in expected)
    raise UnsafePayloadError(
        field,
        expected=shown or "a chain pinned in the SDK's registry",
        received=read_word("solana", word),
        hint="The SDK signs only for the Gateway programs and USDC mint it pins "
        "(xswap_sdk.registry); add others with Registry.with_chains.",
    )


def _source_chain(intent: BurnIntent, registry: Registry, argument: str) -> GatewayChain:
    spec = intent.spec
    candidates = [c for c in registry if c.family == "solana" and c.domain == spec.source_domain]
    if not candidates:
        raise InvalidInputError(
            f"{argument}.spec.source_domain",
            f"is {spec.source_domain}: a Solana key signs only intents that spend a Gateway "
            "balance on Solana (domain 5)",
        )
    for chain in candidates:
        if to_word("solana", chain.gateway_wallet) == spec.source_contract:
            if to_word("solana", chain.usdc) != spec.source_token:
                _refuse_word(f"{argument}.spec.source_token", [chain], "usdc", spec.source_token)
            return chain
    _refuse_word(
        f"{argument}.spec.source_contract", candidates, "gateway_wallet", spec.source_contract
    )


def _check_recipient(intent: BurnIntent, family: str, name: str, argument: str) -> None:
    """Refuse a recipient (or caller) word that cannot be an account of ``family``."""
    word = getattr(intent.spec, name)
    field = f"{argument}.spec.{name}"
    if family == "evm":
        if word[2:26].strip("0"):
            raise InvalidInputError(
                field,
                "must be a 20-byte EVM address left-padded to 32 bytes: the destination is "
                "an EVM chain, where a 32-byte account does not exist",
            )
        return
    if name == "destination_caller":
        return  # any key, or zero for anyone
    if word == _ZERO_WORD:
        raise InvalidInputError(field, "must name the recipient's USDC token account, not zero")
    if not word[2:26].strip("0"):
        raise InvalidInputError(
            field,
            "holds a 20-byte EVM address padded to 32 bytes, and the destination is Solana: "
            "name the recipient's USDC token account (build_transfer_intent turns an owner "
            "wallet into it)",
        )


def check_solana_destination(
    intent: BurnIntent,
    *,
    registry: Registry | None = None,
    testnet: bool | None = None,
    argument: str = "intent",
) -> GatewayChain:
    """Refuse an intent minted on Solana whose destination fields are not the pinned
    ones: its ``destinationContract`` must be the registry's GatewayMinter program and
    its ``destinationToken`` that network's USDC mint, and its recipient a 32-byte
    account (not zero, not a padded EVM address).

    Args:
        intent: an intent whose ``destinationDomain`` is Solana's.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.
        testnet: the source's network when known (the destination must be on it);
            ``None`` accepts either network's programs.
        argument: how the intent is named in errors.

    Returns:
        The registry's entry of the destination.

    Raises:
        UnsafePayloadError: another program or mint than the pinned ones.
        InvalidInputError: a recipient that cannot be a Solana token account.
    """
    pins = DEFAULT_REGISTRY if registry is None else registry
    spec = intent.spec
    candidates = [
        chain
        for chain in pins
        if chain.family == "solana"
        and chain.domain == spec.destination_domain
        and (testnet is None or chain.testnet == testnet)
    ]
    for chain in candidates:
        if to_word("solana", chain.gateway_minter) == spec.destination_contract:
            if to_word("solana", chain.usdc) != spec.destination_token:
                field = f"{argument}.spec.destination_token"
                _refuse_word(field, [chain], "usdc", spec.destination_token)
            _check_recipient(intent, "solana", "destination_recipient", argument)
            return chain
    field = f"{argument}.spec.destination_contract"
    _refuse_word(field, candidates, "gateway_minter", spec.destination_contract)


def check_u64(values: Iterable[tuple[str, int]]) -> None:
    """Refuse the first ``(argument, value)`` past a u64 (`U64_RULE`).

    Raises:
        InvalidInputError: naming that argument.
    """
    for argument, value in values:
        if value > MAX_UINT64:
            raise InvalidInputError(argument, U64_RULE)


def _check_u64(intent: BurnIntent, argument: str) -> None:
    check_u64(
        (
            (f"{argument}.max_block_height", intent.max_block_height),
            (f"{argument}.max_fee", intent.max_fee),
            (f"{argument}.spec.value", intent.spec.value),
        )
    )


def check_solana_intent(
    intent: BurnIntent,
    public_key: bytes,
    *,
    registry: Registry | None = None,
    argument: str = "intent",
) -> GatewayChain:
    """Refuse a Solana-source intent that ``public_key`` must not sign.

    Refused: a transfer spec version other than 1 or a value of 0; a source domain
    that is not Solana's; a ``sourceContract`` or ``sourceToken`` that is not the
    registry's GatewayWallet program and USDC mint (of one network); a
    ``sourceSigner`` other than ``public_key``; a destination domain the registry does
    not pin on that network, or a ``destinationContract`` / ``destinationToken`` that
    is not its pinned minter and USDC; a recipient or caller of the wrong shape for the
    destination (a padded 20-byte address on EVM, a non-zero 32-byte account on
    Solana); a ``maxBlockHeight``, ``maxFee`` or ``value`` past a u64.

    Returns:
        The registry's entry of the source (Solana mainnet or devnet).

    Raises:
        InvalidInputError: a value the caller chose that cannot be signed (named).
        UnsafePayloadError: a program, mint or chain the registry does not pin (named).
    """
    pins = DEFAULT_REGISTRY if registry is None else registry
    check_signable(intent, argument)
    source = _source_chain(intent, pins, argument)
    spec = intent.spec
    if spec.source_signer != "0x" + public_key.hex():
        raise InvalidInputError(
            f"{argument}.spec.source_signer",
            f"must be the signing key's public key (as bytes32), {encode(public_key)}",
        )
    destination = pins.by_domain(spec.destination_domain, testnet=source.testnet)
    if destination is None:
        raise UnsafePayloadError(
            f"{argument}.spec.destination_domain",
            expected=f"a Gateway domain the registry pins on {source.name}'s network",
            received=spec.destination_domain,
        )
    if destination.family == "solana":
        check_solana_destination(intent, registry=pins, testnet=source.testnet, argument=argument)
    else:
        for name, value in (
            ("destination_contract", destination.gateway_minter),
            ("destination_token", destination.usdc),
        ):
            word = getattr(spec, name)
            if word != to_word("evm", value):
                raise UnsafePayloadError(
                    f"{argument}.spec.{name}",
                    expected=f"{value} ({destination.name})",
                    received=read_word("evm", word) or word,
                )
        _check_recipient(intent, "evm", "destination_recipient", argument)
        _check_recipient(intent, "evm", "destination_caller", argument)
    _check_u64(intent, argument)
    return source


# ------------------------------------------------------------------------------ signing


def _signature_of(signed: object) -> bytes:
    if isinstance(signed, str):
        body = signed[2:] if signed[:2] in ("0x", "0X") else signed
        try:
            return bytes.fromhex(body)
        except ValueError:
            return b""
    if isinstance(signed, bytes | bytearray) or hasattr(signed, "__bytes__"):
        return bytes(signed)
    return b""


def verify_solana_signature(public_key: bytes, message: bytes, signature: bytes | str) -> bool:
    """Whether ``signature`` (64 bytes, or ``0x`` hex) is ``public_key``'s Ed25519
    signature of ``message`` (RFC 8032, as Solana's Ed25519 program checks it).

    Verified with pycryptodome's Ed25519, not the signer's own code."""
    from Crypto.Signature import eddsa

    raw = _signature_of(signature)
    if len(raw) != _SIGNATURE_BYTES or len(public_key) != KEY_BYTES:
        return False
    try:
        eddsa.new(eddsa.import_public_key(public_key), "rfc8032").verify(message, raw)
    except ValueError:
        return False
    return True


def _ask(signer: SolanaSigner, public_key: bytes, message: bytes) -> bytes:
    try:
        signed = signer.sign_message(message)
    except SigningError:
        raise
    except Exception as exc:
        raise SigningError(f"the signer failed to sign: {type(exc).__name__}") from exc
    signature = _signature_of(signed)
    if len(signature) != _SIGNATURE_BYTES:
        raise SigningError(
            "the signer returned an unusable signature: an Ed25519 signature is 64 bytes"
        )
    if not verify_solana_signature(public_key, message, signature):
        raise SigningError(
            "the signer returned a signature that does not verify against its own public "
            "key over the burn intent (it may have signed another message or format, "
            "such as Solana's off-chain message envelope, or with another key)"
        )
    return signature


def sign_solana_message(
    signer: SolanaSigner,
    public_key: bytes,
    message: bytes,
    describe: Callable[[], SigningRequest],
) -> bytes:
    """Have ``signer`` sign ``message`` with Ed25519, through the signing gate; return
    the 64-byte signature, verified against ``public_key``.

    ``describe`` says what is signed, for the signing policies in force (see
    `xswap_sdk.signing._gate`); it is called only while one is.

    Raises:
        SigningError: the signer failed, or its signature does not verify.
        PolicyRefusedError: a signing policy refused; nothing was signed.
    """
    if ACTIVE.get():
        # lazy: the signing gate, only while a policy is in force
        from . import _gate

        with _gate.passing(describe):
            return _ask(signer, public_key, message)
    return _ask(signer, public_key, message)


def _perform_ed25519(step: Sign) -> str:
    """An ``"ed25519"`` `xswap_sdk._flow.Sign` step, signed (``0x`` hex): what
    `xswap_sdk.signing.signer._perform_sign` calls for one."""
    solana = cast(SolanaSigner, step.signer)
    key = solana_public_key(solana)
    return "0x" + sign_solana_message(solana, key, step.digest, step.payload).hex()


_OTHER_SCHEMES["ed25519"] = _perform_ed25519
