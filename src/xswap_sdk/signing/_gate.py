"""The signing gate: what is about to be signed, described from the payload itself,
then judged by every signing policy in force.

`xswap_sdk.signing.signer` calls `passing` around every signature it makes
(`sign_eip712`, `personal_sign`, `sign_digest`), `xswap_sdk.signing.eip7702` around
every authorization and the web3 helpers around every transaction they sign or send,
so nothing can be signed around it, not even through the public signing functions.

Descriptions are read from the payload, never from the code that built it: an EIP-712
payload is described by the table `_TYPED`, keyed by its ``primaryType``, which says
where each field of a `SigningRequest` sits in it. A type the table does not hold is
described as ``"typed_data"``, with the payload in ``details``, and left to the policies.

A burn intent signed with a Solana key (Ed25519 over its binary encoding, not typed
data; `xswap_sdk.signing.solana`) is described from its wire form with the same
``BurnIntent`` shape (`describe_solana_burn_intent`): kind ``"burn_intent"``, the
signer's base58 key, the USDC mint as ``token``, ``value`` as ``amount``, ``maxFee``
as ``fee``, the source and destination chain ids. In every burn intent, addresses are
read in their chain's family: a Solana recipient token account, mint or program is
given in base58, an EVM one checksummed.

This module is imported only while a policy is in force: without one, the gate is a
``ContextVar.get`` and nothing else.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from .._body import copy_json
from .._policy_scope import APPROVED, active_policies
from ..policy import AUTHORITY_GRANT, SigningRequest
from ..registry import DEFAULT_REGISTRY, PERMIT2
from ..types import to_checksum
from ._fields import GATEWAY_BATCHED_DOMAIN_NAME, read_word, to_word

__all__ = [
    "as_kind",
    "describe_authorization",
    "describe_digest",
    "describe_message",
    "describe_solana_burn_intent",
    "describe_transaction",
    "describe_typed_data",
    "passing",
]


# Reading values as they appear in payloads: ints or decimal/0x strings, addresses or
# bytes32 words. A value that cannot be read is None: the policies then see "unknown".


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        try:
            return int(text, 16) if text[:2].lower() == "0x" else int(text, 10)
        except ValueError:
            return None
    return None


def _address(value: object) -> str | None:
    try:
        return to_checksum(value)
    except ValueError:
        return None


def _word_address(value: object) -> str | None:
    # A bytes32 holding an address in its last 20 bytes (an ERC-20 call's argument).
    if isinstance(value, str) and len(value) == 66 and value[:2] in ("0x", "0X"):
        return _address("0x" + value[26:]) if value[2:26].strip("0") == "" else None
    return None


@functools.cache
def _keys(path: str) -> tuple[str, ...]:
    return tuple(path.split("."))


def _at(payload: Mapping[str, Any], path: str) -> object:
    """The value at ``path`` in ``payload`` (dotted keys), or ``None``."""
    value: object = payload
    for key in _keys(path):
        # dict first: the ABC check of Mapping costs more than the rest of the lookup.
        if type(value) is dict or isinstance(value, Mapping):
            value = value.get(key)
        else:
            return None
    return value


@dataclass(frozen=True, slots=True)
class _Shape:
    """Where a `SigningRequest`'s fields sit in an EIP-712 payload of one primary type.

    Paths are dotted keys into ``{"domain": ..., "message": ...}``; ``None`` means the
    type has no such field.
    """

    kind: str
    counterparty: str
    amount: str
    token: str
    chain: str | None = None
    expires_at: str | None = None
    fee: str | None = None
    destination: str | None = None  # the destination chain, when funds cross chains
    # Addresses are bytes32 words of Gateway domains (transfer specs): the token is read
    # in the family of the chain at the domain at ``chain``, the counterparty in that of
    # the domain at ``destination``, both through the registry.
    domains: bool = False
    extra: tuple[tuple[str, str], ...] = ()  # (details key, path)


_BURN_INTENT: Final = _Shape(
    kind="burn_intent",
    counterparty="message.spec.destinationRecipient",
    amount="message.spec.value",
    token="message.spec.sourceToken",
    chain="message.spec.sourceDomain",
    fee="message.maxFee",
    destination="message.spec.destinationDomain",
    domains=True,
    extra=(
        ("max_block_height", "message.maxBlockHeight"),
        ("source_domain", "message.spec.sourceDomain"),
        ("destination_domain", "message.spec.destinationDomain"),
        ("destination_caller", "message.spec.destinationCaller"),
        ("destination_token", "message.spec.destinationToken"),
        ("hook_data", "message.spec.hookData"),
    ),
)
_PERMIT2: Final = _Shape(
    kind="permit2",
    counterparty="message.spender",
    amount="message.permitted.amount",
    token="message.permitted.token",
    chain="domain.chainId",
    expires_at="message.deadline",
    extra=(("nonce", "message.nonce"), ("witness", "message.witness")),
)
_EIP3009: Final = _Shape(
    kind="eip3009",
    counterparty="message.to",
    amount="message.value",
    token="domain.verifyingContract",
    chain="domain.chainId",
    expires_at="message.validBefore",
    extra=(("valid_after", "message.validAfter"), ("nonce", "message.nonce")),
)

_TYPED: Final[Mapping[str, _Shape]] = {
    "BurnIntent": _BURN_INTENT,
    "Permit": _Shape(
        kind="permit",
        counterparty="message.spender",
        amount="message.value",
        token="domain.verifyingContract",
        chain="domain.chainId",
        expires_at="message.deadline",
        extra=(("nonce", "message.nonce"),),
    ),
    "PermitTransferFrom": _PERMIT2,
    "PermitWitnessTransferFrom": _PERMIT2,
    "TransferWithAuthorization": _EIP3009,
    "ReceiveWithAuthorization": _EIP3009,
    # Permit2's AllowanceTransfer: an allowance the spender may draw on until it expires.
    "PermitSingle": _Shape(
        kind=AUTHORITY_GRANT,
        counterparty="message.spender",
        amount="message.details.amount",
        token="message.details.token",
        chain="domain.chainId",
        expires_at="message.sigDeadline",
        extra=(("expiration", "message.details.expiration"), ("nonce", "message.details.nonce")),
    ),
}
"""How each EIP-712 primary type the SDK signs is described (``BurnIntentSet`` is
described leg by leg with the ``BurnIntent`` shape)."""


def _testnet(payload: Mapping[str, Any]) -> bool:
    """Whether a transfer spec spends on a testnet. Domains are shared by mainnets and
    testnets: the source contract (the GatewayWallet) says which, per the registry."""
    domain = _int(_at(payload, "message.spec.sourceDomain"))
    wallet = _at(payload, "message.spec.sourceContract")
    for chain in DEFAULT_REGISTRY:
        if chain.domain == domain and to_word(chain.family, chain.gateway_wallet) == wallet:
            return chain.testnet
    return False


def _gateway_chain(payload: Mapping[str, Any], path: str) -> Any:
    """The registry's chain of the Gateway domain at ``path``, or ``None``."""
    domain = _int(_at(payload, path))
    if domain is None:
        return None
    return DEFAULT_REGISTRY.by_domain(domain, testnet=_testnet(payload))


def _gateway_word(payload: Mapping[str, Any], domain_path: str | None, path: str) -> str | None:
    """The bytes32 word at ``path`` read as an address of the family of the chain at
    ``domain_path`` (an EVM reading when the registry does not know it)."""
    chain = None if domain_path is None else _gateway_chain(payload, domain_path)
    return read_word(None if chain is None else chain.family, _at(payload, path))


def _batched_usdc(payload: Mapping[str, Any], chain_id: int | None) -> str | None:
    """The USDC a Gateway-batched authorization spends (an x402 payment, a
    ``/v1/batch/submit`` transfer): its domain is ``GatewayWalletBatched`` with the
    pinned GatewayWallet of its chain as verifying contract, and what leaves the signer
    is USDC of their Gateway balance, not the wallet contract. ``None`` otherwise."""
    if _at(payload, "domain.name") != GATEWAY_BATCHED_DOMAIN_NAME or chain_id is None:
        return None
    chain = DEFAULT_REGISTRY.get(chain_id)
    wallet = _address(_at(payload, "domain.verifyingContract"))
    if chain is None or wallet is None or wallet != chain.gateway_wallet:
        return None
    return chain.usdc


def _described(signer: str, shape: _Shape, payload: Mapping[str, Any]) -> SigningRequest:
    details: dict[str, Any] = {key: _at(payload, path) for key, path in shape.extra}
    chain_id: int | None = None
    if shape.domains:
        source = None if shape.chain is None else _gateway_chain(payload, shape.chain)
        chain_id = None if source is None else source.chain_id
        destination = (
            None if shape.destination is None else _gateway_chain(payload, shape.destination)
        )
        details["destination_chain_id"] = None if destination is None else destination.chain_id
        token = _gateway_word(payload, shape.chain, shape.token)
        counterparty = _gateway_word(payload, shape.destination, shape.counterparty)
    else:
        chain_id = None if shape.chain is None else _int(_at(payload, shape.chain))
        token = _address(_at(payload, shape.token))
        counterparty = _address(_at(payload, shape.counterparty))
    if shape is _EIP3009 and (usdc := _batched_usdc(payload, chain_id)) is not None:
        details["gateway_wallet"] = token
        token = usdc
    return SigningRequest(
        kind=shape.kind,
        signer=signer,
        chain_id=chain_id,
        token=token,
        amount=_int(_at(payload, shape.amount)),
        counterparty=counterparty,
        expires_at=_int(_at(payload, shape.expires_at)) if shape.expires_at else None,
        fee=_int(_at(payload, shape.fee)) if shape.fee else None,
        details=details,
    )


def _shared(values: list[Any]) -> Any:
    return values[0] if values and all(value == values[0] for value in values) else None


def _total(values: list[int | None]) -> int | None:
    return None if any(value is None for value in values) else sum(values)  # type: ignore[arg-type]


def _burn_intent_set(signer: str, payload: Mapping[str, Any]) -> SigningRequest:
    intents = _at(payload, "message.intents")
    legs = tuple(
        _described(signer, _BURN_INTENT, {"domain": payload.get("domain"), "message": intent})
        for intent in (intents if isinstance(intents, list) else [])
    )
    return SigningRequest(
        kind="burn_intent_set",
        signer=signer,
        chain_id=_shared([leg.chain_id for leg in legs]),
        token=_shared([leg.token for leg in legs]),
        amount=_total([leg.amount for leg in legs]) if legs else None,
        counterparty=_shared([leg.counterparty for leg in legs]),
        fee=_total([leg.fee for leg in legs]) if legs else None,
        details={"intents": len(legs)},
        legs=legs,
    )


def describe_typed_data(signer: str, typed_data: Mapping[str, Any]) -> SigningRequest:
    """Describe an EIP-712 payload (``types``, ``domain``, ``primaryType``,
    ``message``) about to be signed by ``signer``.

    ``details`` always holds the ``primary_type``, ``domain`` and ``message`` (a copy:
    a policy cannot change what is signed).
    """
    payload = typed_data
    primary = payload.get("primaryType")
    if primary == "BurnIntentSet":
        request = _burn_intent_set(signer, payload)
    elif isinstance(primary, str) and primary in _TYPED:
        request = _described(signer, _TYPED[primary], payload)
    else:
        request = SigningRequest(kind="typed_data", signer=signer)
    details = {
        "primary_type": primary,
        "domain": copy_json(payload.get("domain")),
        "message": copy_json(payload.get("message")),
        **request.details,
    }
    if request.kind == AUTHORITY_GRANT:
        details["grant"] = "permit2"
        if request.amount == 2**160 - 1:  # Permit2's unlimited allowance (uint160 max)
            request = dataclasses.replace(request, amount=None)
    return _with_details(request, details)


def describe_solana_burn_intent(signer: str, intent: Mapping[str, Any]) -> SigningRequest:
    """Describe a burn intent about to be signed with a Solana key (``signer``, base58):
    read from its wire form ``intent`` like an EIP-712 ``BurnIntent``, kind
    ``"burn_intent"``. ``details`` holds the ``message`` (a copy of the wire form) and
    ``scheme`` ``"ed25519"``."""
    payload = {"message": intent}
    request = _described(signer, _BURN_INTENT, payload)
    details = {"scheme": "ed25519", "message": copy_json(intent), **request.details}
    return _with_details(request, details)


def _with_details(request: SigningRequest, details: Mapping[str, Any]) -> SigningRequest:
    return SigningRequest(
        kind=request.kind,
        signer=request.signer,
        chain_id=request.chain_id,
        token=request.token,
        amount=request.amount,
        counterparty=request.counterparty,
        expires_at=request.expires_at,
        fee=request.fee,
        details=details,
        legs=request.legs,
    )


# EIP-4361: "${scheme}://${domain} wants you to sign in with your Ethereum account:".
_SIWE_HEADER: Final = re.compile(
    r"^(?:[A-Za-z][A-Za-z0-9+.\-]*://)?(?P<site>\S+) wants you to sign in with your "
    r"Ethereum account:\s*$",
    re.MULTILINE,
)
_SIWE_FIELD: Final = re.compile(
    r"^(?P<name>[A-Za-z][A-Za-z ]*): *(?P<value>\S.*?)\s*$", re.MULTILINE
)


def _unix(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp())
    except ValueError:
        return None


def describe_message(signer: str, text: str) -> SigningRequest:
    """Describe a text message about to be signed with ``personal_sign``: a login.

    The counterparty is the site of its Sign-In with Ethereum line (``host[:port]``);
    text without one has no known counterparty. ``details`` holds the ``text`` and the
    EIP-4361 fields found (``uri``, ``nonce``, ``chain_id``, ...).
    """
    header = _SIWE_HEADER.search(text)
    fields = {
        match["name"].strip().lower().replace(" ", "_"): match["value"]
        for match in _SIWE_FIELD.finditer(text)
    }
    return SigningRequest(
        kind="login",
        signer=signer,
        chain_id=_int(fields.get("chain_id")),
        counterparty=header["site"].lower() if header else None,
        expires_at=_unix(fields.get("expiration_time")),
        details={"text": text, **fields},
    )


def describe_authorization(signer: str, chain_id: int, address: str, nonce: int) -> SigningRequest:
    """Describe an EIP-7702 authorization: ``signer`` delegates to ``address``'s code,
    which may then do anything with the whole account: an ``"authority_grant"``
    (``details["grant"]`` ``"eip7702"``) to ``address``, with no amount."""
    return SigningRequest(
        kind=AUTHORITY_GRANT,
        signer=signer,
        chain_id=chain_id,
        counterparty=address,
        details={
            "grant": "eip7702",
            "effect": f"delegates the whole account {signer} to the code of {address}",
            "nonce": nonce,
            "every_chain": chain_id == 0,
        },
    )


def describe_digest(signer: str, digest: bytes) -> SigningRequest:
    """Describe a bare digest: nothing can be read from it."""
    return SigningRequest(kind="digest", signer=signer, details={"digest": "0x" + digest.hex()})


_APPROVE: Final = "095ea7b3"  # approve(address,uint256)
_TRANSFER: Final = "a9059cbb"  # transfer(address,uint256)
_PERMIT2_APPROVE: Final = "87517c45"  # Permit2 approve(address,address,uint160,uint48)
_UNLIMITED: Final = 2**256 - 1


def _generic(body: str, to: str | None) -> tuple[str, str, str, int] | None:
    """An ERC-20 ``approve``/``transfer`` on any token, or Permit2's ``approve``:
    ``(call, token, counterparty, amount)`` read from the calldata; ``None`` otherwise."""
    selector = body[:8]
    found: tuple[str, str | None, str | None, str] | None = None
    if selector in (_APPROVE, _TRANSFER) and len(body) == 8 + 128:
        call = "approve" if selector == _APPROVE else "transfer"
        found = call, to, _word_address("0x" + body[8:72]), body[72:136]
    elif selector == _PERMIT2_APPROVE and len(body) == 8 + 256 and to == PERMIT2:
        token, spender = _word_address("0x" + body[8:72]), _word_address("0x" + body[72:136])
        found = "permit2_approve", token, spender, body[136:200]
    if found is None or found[1] is None or found[2] is None:
        return None
    return found[0], found[1], found[2], int(found[3], 16)


def describe_transaction(signer: str, fields: Mapping[str, Any]) -> SigningRequest:
    """Describe a transaction about to be signed (``to``, ``data``, ``value``,
    ``chainId``) by what its calldata does, never by a label:

    - a known function of a contract the registry pins (`xswap_sdk.signing.call_reading`):
      a deposit as USDC leaving for the GatewayWallet (or for whom it credits), a
      Gateway ``addDelegate`` or a USDC ``approve``/``permit`` as an
      ``"authority_grant"``, with ``details["effect"]`` saying what it does;
    - an ERC-20 ``transfer`` on any token as the token moving to its recipient, an
      ERC-20 ``approve`` or Permit2 ``approve`` as an ``"authority_grant"`` to the
      spender (``amount`` ``None`` when unlimited);
    - any other call as its native value moving to ``to``."""
    # lazy: the calldata reader (eth_abi), only for a transaction
    from .call_reading import read_call

    data = fields.get("data") or "0x"
    body = data.hex() if isinstance(data, bytes | bytearray) else str(data)[2:].lower()
    to = _address(fields.get("to"))
    value = _int(fields.get("value") or 0)
    chain_id = _int(fields.get("chainId"))
    selector = body[:8]
    details: dict[str, Any] = {
        "to": to,
        "value": value,
        "selector": "0x" + selector if selector else None,
        "call": None,
        "data": "0x" + body,
    }
    kind, token, amount, counterparty = "transaction", "native", value, to
    read = read_call(to, "0x" + body, chain_id, sender=signer) if to and chain_id else None
    generic = _generic(body, to)
    if read is not None and read.token is not None:
        details.update(call=read.function[: read.function.index("(")], effect=read.effect)
        details["function"] = read.function
        token, amount, counterparty = read.token, read.amount, read.counterparty
        if read.grant:
            kind = AUTHORITY_GRANT
            details["grant"] = "gateway_delegate" if read.contract == "GatewayWallet" else "approve"
    elif read is not None:
        details.update(call=read.function[: read.function.index("(")], effect=read.effect)
        details["function"] = read.function
    elif generic is not None:
        call, token, counterparty, amount = generic
        details["call"] = call
        if call != "transfer":
            kind = AUTHORITY_GRANT
            details["grant"] = call
            details["effect"] = f"grants {counterparty} an allowance of {amount} of {token}"
            if amount == _UNLIMITED or (call == "permit2_approve" and amount == 2**160 - 1):
                amount = None
    return SigningRequest(
        kind=kind,
        signer=signer,
        chain_id=chain_id,
        token=token,
        amount=amount,
        counterparty=counterparty,
        details=details,
    )


_KIND: Final[ContextVar[tuple[str, Mapping[str, Any], str | None] | None]] = ContextVar(
    "xswap_sdk_signing_kind", default=None
)


@contextmanager
def as_kind(
    kind: str, details: Mapping[str, Any] | None = None, *, token: str | None = None
) -> Iterator[None]:
    """Describe the signatures made in the block as ``kind`` (their fields still read
    from the payload), with ``details`` added: for a flow whose payload is a generic
    type, such as an x402 payment signed as an EIP-3009 ``TransferWithAuthorization``
    (``as_kind("x402_payment", {"resource": url}, token=usdc)``). ``token``, when given,
    is what leaves the signer (the USDC of a Gateway balance, for a chain the default
    registry does not pin)."""
    reset = _KIND.set((kind, dict(details or {}), token))
    try:
        yield
    finally:
        _KIND.reset(reset)


def _relabelled(request: SigningRequest) -> SigningRequest:
    label = _KIND.get()
    if label is None:
        return request
    kind, extra, token = label
    described = _with_details(request, {**request.details, **extra})
    if token is not None:
        described = dataclasses.replace(described, token=token)
    return dataclasses.replace(described, kind=kind)


@contextmanager
def passing(describe: Callable[[], SigningRequest]) -> Iterator[SigningRequest | None]:
    """Let a signature through only if every policy in force allows it.

    ``describe`` is called only when a policy is in force. Each policy checks its rules
    (reserving the amounts its daily cap counts); if one refuses, the earlier ones give
    their reservations back and `xswap_sdk.errors.PolicyRefusedError` is raised before
    the block runs. The block signs: if it raises, the reservations are given back, so
    only signatures that were made count.
    """
    policies = active_policies()
    if not policies:
        yield None
        return
    request = _relabelled(describe())
    admitted: list[tuple[Any, Any]] = []
    try:
        for policy in policies:
            admitted.append((policy, policy._admit(request)))
    except BaseException:
        for policy, reserved in admitted:
            policy._release(reserved)
        raise
    approved = APPROVED.get()
    if approved is not None:  # a journaled journey records what its policies allowed
        approved.append(request)
    try:
        yield request
    except BaseException:
        for policy, reserved in admitted:
            policy._release(reserved)
        raise
