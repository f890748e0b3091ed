"""EIP-2612 permits for USDC, so that the gateway wallet can pull a deposit in one call."""

from __future__ import annotations

import functools
import time
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from .._flow import Flow, Sign
from .._keccak import keccak
from .._models import RequestModel, validate_request
from ..errors import InvalidInputError
from ..types import Address, ChainId
from ._fields import Uint256
from .eip712 import (
    _signature_fields,
    _token_typed_data,
    domain_separator,
    eip712_digest,
    type_hash,
)
from .signer import Signer, _signed_now, signer_address

__all__ = [
    "DEFAULT_PERMIT_LIFETIME",
    "PermitSignature",
    "permit_typed_data",
    "sign_permit",
]

DEFAULT_PERMIT_LIFETIME = 3600
"""Seconds a permit stays valid when no ``deadline`` is given (the spec's one hour)."""

_PERMIT_FIELDS = (
    ("owner", "address"),
    ("spender", "address"),
    ("value", "uint256"),
    ("nonce", "uint256"),
    ("deadline", "uint256"),
)
_PERMIT_TYPE = "Permit(" + ",".join(f"{kind} {name}" for name, kind in _PERMIT_FIELDS) + ")"
_PERMIT_TYPEHASH = type_hash(_PERMIT_TYPE)


class _PermitArguments(RequestModel):
    token_name: str = Field(min_length=1)
    token_version: str = Field(min_length=1)
    chain_id: ChainId
    token_address: Address
    owner: Address
    spender: Address
    value: Uint256
    nonce: Uint256
    deadline: Uint256


class PermitSignature(BaseModel):
    """A signed EIP-2612 permit: what was signed and the signature in both forms.

    Attributes:
        owner: the token holder who signed.
        spender: who may spend (the gateway wallet for a deposit).
        token_address: the token (the permit domain's verifying contract).
        chain_id: the chain of the permit domain.
        value: the amount allowed, in smallest units.
        nonce: the token's ``nonces(owner)`` when signed.
        deadline: the last block timestamp at which the permit can be used.
        digest: the EIP-712 digest that was signed.
        v: 27 or 28.
        r: ``0x`` + 64 hex digits (left out of ``repr``).
        s: ``0x`` + 64 hex digits (left out of ``repr``).
        signature: ``r || s || v`` as ``0x`` + 130 hex digits (left out of ``repr``).
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True, defer_build=True)

    owner: str
    spender: str
    token_address: str
    chain_id: int
    value: int
    nonce: int
    deadline: int
    digest: str
    v: int
    r: str = Field(repr=False)
    s: str = Field(repr=False)
    signature: str = Field(repr=False)


@functools.lru_cache(maxsize=64)
def _permit_domain(name: str, version: str, chain_id: int, token: str) -> bytes:
    return domain_separator(name, version, chain_id, token)


def _permit_hash(args: _PermitArguments) -> bytes:
    return keccak(
        _PERMIT_TYPEHASH
        + bytes(12)
        + bytes.fromhex(args.owner[2:])
        + bytes(12)
        + bytes.fromhex(args.spender[2:])
        + args.value.to_bytes(32, "big")
        + args.nonce.to_bytes(32, "big")
        + args.deadline.to_bytes(32, "big")
    )


def _permit_digest(args: _PermitArguments) -> bytes:
    domain = _permit_domain(args.token_name, args.token_version, args.chain_id, args.token_address)
    return eip712_digest(domain, _permit_hash(args))


def permit_typed_data(
    *,
    token_name: str,
    token_version: str,
    chain_id: int,
    token_address: str,
    owner: str,
    spender: str,
    value: int | str,
    nonce: int | str,
    deadline: int | str,
) -> dict[str, Any]:
    """The full EIP-712 payload of a permit, to sign elsewhere (browser or hardware wallet).

    The arguments are those of `sign_permit`, with ``owner`` and ``deadline`` required.
    uint256 values are written as decimal strings.

    Raises:
        InvalidInputError: naming the first bad argument.
    """
    args = validate_request(
        _PermitArguments,
        token_name=token_name,
        token_version=token_version,
        chain_id=chain_id,
        token_address=token_address,
        owner=owner,
        spender=spender,
        value=value,
        nonce=nonce,
        deadline=deadline,
    )
    return _permit_payload(args)


def _permit_payload(args: _PermitArguments) -> dict[str, Any]:
    return _token_typed_data(
        "Permit",
        _PERMIT_FIELDS,
        (args.token_name, args.token_version, args.chain_id, args.token_address),
        {
            "owner": args.owner,
            "spender": args.spender,
            "value": str(args.value),
            "nonce": str(args.nonce),
            "deadline": str(args.deadline),
        },
    )


def sign_permit(
    signer: Signer,
    *,
    token_name: str,
    token_version: str,
    chain_id: int,
    token_address: str,
    spender: str,
    value: int | str,
    nonce: int | str,
    deadline: int | str | None = None,
    owner: str | None = None,
) -> PermitSignature:
    """Sign an EIP-2612 permit letting ``spender`` take ``value`` of the signer's tokens.

    For a gateway deposit the spender is the chain's ``gatewayWallet``; the token's
    ``name`` and ``version`` and the owner's ``nonces`` come from the token contract
    (`prepare_deposit_with_permit` reads them for you). Native USDC uses name
    ``"USD Coin"`` and version ``"2"`` on Ethereum, Base and Arbitrum One.

    Args:
        signer: the token holder.
        token_name: the token's EIP-712 domain name.
        token_version: the token's EIP-712 domain version.
        chain_id: the chain the token lives on.
        token_address: the token contract.
        spender: who may spend.
        value: the amount, in smallest units.
        nonce: the owner's current ``nonces(owner)``.
        deadline: unix time after which the permit is void; one hour from now if not
            given.
        owner: the token holder; defaults to (and must be) the signer's address.

    Raises:
        InvalidInputError: naming the first bad argument, or an ``owner`` that is not
            the signer.
        SigningError: the signer failed, or signed for another address.
    """
    if deadline is None:
        deadline = int(time.time()) + DEFAULT_PERMIT_LIFETIME
    return _signed_now(
        _signing_permit(
            signer,
            token_name=token_name,
            token_version=token_version,
            chain_id=chain_id,
            token_address=token_address,
            spender=spender,
            value=value,
            nonce=nonce,
            deadline=deadline,
            owner=owner,
        )
    )


def _signing_permit(
    signer: Signer,
    *,
    token_name: str,
    token_version: str,
    chain_id: int,
    token_address: str,
    spender: str,
    value: int | str,
    nonce: int | str,
    deadline: int | str,
    owner: str | None = None,
) -> Flow[PermitSignature]:
    """`sign_permit` as a flow, its ``deadline`` given: the checks, then one
    `xswap_sdk._flow.Sign` step (a journey's driver makes, or replays, the signature)."""
    address = signer_address(signer)
    args = validate_request(
        _PermitArguments,
        token_name=token_name,
        token_version=token_version,
        chain_id=chain_id,
        token_address=token_address,
        owner=address if owner is None else owner,
        spender=spender,
        value=value,
        nonce=nonce,
        deadline=deadline,
    )
    if args.owner != address:
        raise InvalidInputError("owner", "must be the signer's address (the permit is theirs)")
    digest = _permit_digest(args)
    hex_signature: str = yield Sign(signer, digest, lambda: _permit_payload(args), what="permit")
    return PermitSignature(
        owner=args.owner,
        spender=args.spender,
        token_address=args.token_address,
        chain_id=args.chain_id,
        value=args.value,
        nonce=args.nonce,
        deadline=args.deadline,
        **_signature_fields(digest, hex_signature),
    )
