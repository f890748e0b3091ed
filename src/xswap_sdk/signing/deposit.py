"""Depositing USDC into the gateway wallet with a permit: calldata and transactions.

Pure: `deposit_with_permit_calldata`, and the checks and signing beneath
`prepare_deposit_with_permit`, which reads the token through web3 (the ``web3`` extra)
and is written once in ``_async_permit_deposit.py``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from .._flow import Flow
from .._models import RequestModel, validate_request
from ..errors import InvalidInputError, UnsafePayloadError
from ..types import Address, Bytes32
from ._fields import Uint256
from .eip712 import domain_separator
from .permit import DEFAULT_PERMIT_LIFETIME, PermitSignature, _signing_permit
from .signer import Signer, _signed_now, signer_address

if TYPE_CHECKING:
    from .._web3_support import PermitFacts

__all__ = [
    "DEPOSIT_WITH_PERMIT_SELECTOR",
    "DepositTransaction",
    "deposit_arguments",
    "deposit_with_permit_calldata",
    "permit_deposit",
]

DEPOSIT_WITH_PERMIT_SELECTOR = "0x8ef59739"
"""``depositWithPermit(address,address,uint256,uint256,uint8,bytes32,bytes32)``; the
gateway wallet also has an overload taking one ``bytes`` signature (``0x26a3fb30``)."""

_DEPOSIT_ARGUMENT_TYPES = [
    "address",
    "address",
    "uint256",
    "uint256",
    "uint8",
    "bytes32",
    "bytes32",
]

_FALLBACK_USDC_VERSION = "2"

_ZERO_DEPOSIT_RULE = (
    "must be positive: the gateway wallet refuses a deposit of 0 (DepositValueMustBePositive)"
)


class _CalldataArguments(RequestModel):
    token: Address
    owner: Address
    value: Uint256
    deadline: Uint256
    v: StrictInt
    r: Bytes32
    s: Bytes32


class _DepositArguments(RequestModel):
    """The checked arguments of a deposit call."""

    gateway_wallet: Address
    usdc: Address
    value: Uint256
    deadline: Uint256 | None
    usdc_version: str | None


class DepositTransaction(BaseModel):
    """A ready ``depositWithPermit`` call on the gateway wallet.

    Send it with web3 (add ``from``, gas and fees) or hand it to the relayer: anyone may
    send it, the tokens always come from the permit's owner.

    Attributes:
        to: the gateway wallet.
        data: the calldata (holds the permit signature, so it is left out of ``repr``).
        value: always 0: the function is not payable.
        chain_id: the chain to send it on.
        permit: the signed permit inside the calldata.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True, defer_build=True)

    to: str
    data: str = Field(repr=False)
    value: int = 0
    chain_id: int
    permit: PermitSignature

    def to_transaction(self) -> dict[str, Any]:
        """The web3 transaction fields: ``to``, ``data``, ``value`` and ``chainId``."""
        return {"to": self.to, "data": self.data, "value": self.value, "chainId": self.chain_id}


def deposit_with_permit_calldata(
    *, token: str, owner: str, value: int | str, deadline: int | str, v: int, r: str, s: str
) -> str:
    """Calldata for ``depositWithPermit(token, owner, value, deadline, v, r, s)``.

    The spec's v/r/s overload, selector ``0x8ef59739``. ``v`` may be 27/28 or 0/1.

    Raises:
        InvalidInputError: naming the first bad argument, or a ``value`` of 0, which
            the gateway wallet refuses (``DepositValueMustBePositive``).
    """
    # Imported here: eth_abi builds its type grammar on import (about 0.1 s), and this is
    # the SDK's only use of it.
    from eth_abi.abi import encode

    args = validate_request(
        _CalldataArguments,
        token=token,
        owner=owner,
        value=value,
        deadline=deadline,
        v=v,
        r=r,
        s=s,
    )
    if args.value == 0:
        raise InvalidInputError("value", _ZERO_DEPOSIT_RULE)
    recovery = args.v + 27 if args.v in (0, 1) else args.v
    if recovery not in (27, 28):
        raise InvalidInputError("v", "must be 27 or 28 (or 0 or 1)")
    encoded = encode(
        _DEPOSIT_ARGUMENT_TYPES,
        [
            args.token,
            args.owner,
            args.value,
            args.deadline,
            recovery,
            bytes.fromhex(args.r[2:]),
            bytes.fromhex(args.s[2:]),
        ],
    )
    return DEPOSIT_WITH_PERMIT_SELECTOR + encoded.hex()


def _permit_calldata(token: str, permit: PermitSignature) -> str:
    """`deposit_with_permit_calldata` (the v/r/s overload) of ``permit`` for ``token``."""
    return deposit_with_permit_calldata(
        token=token,
        owner=permit.owner,
        value=permit.value,
        deadline=permit.deadline,
        v=permit.v,
        r=permit.r,
        s=permit.s,
    )


def _checked_domain(
    args: _DepositArguments, *, name: str, version: str, chain_id: int, on_chain: bytes | None
) -> None:
    """Refuse a permit whose EIP-712 domain is not the token's own.

    The name and version come from the token (the version from the configuration when
    the token has none); the token's ``DOMAIN_SEPARATOR()``, when it has one, says which
    domain its ``permit`` checks. A permit signed for another domain would be void on
    chain, so nothing is signed.
    """
    if on_chain is None:
        return
    signed_for = domain_separator(name, version, chain_id, args.usdc)
    if bytes(on_chain) != signed_for:
        raise UnsafePayloadError(
            "permit.domain",
            expected=f"the token's DOMAIN_SEPARATOR() 0x{bytes(on_chain).hex()}",
            received="0x" + signed_for.hex(),
            hint=(
                f"The token's permit domain is not the one built from its name {name!r}, "
                f"version {version!r}, chain {chain_id} and address {args.usdc}: check "
                "the USDC address and usdc_version."
            ),
        )


def permit_deposit(
    signer: Signer, args: _DepositArguments, facts: PermitFacts
) -> DepositTransaction:
    """Sign the permit for what the chain said (``facts``) and build the deposit (its
    deadline one hour from now when the arguments give none)."""
    if args.deadline is None:
        args = args.model_copy(update={"deadline": int(time.time()) + DEFAULT_PERMIT_LIFETIME})
    return _signed_now(_permit_deposit_steps(signer, args, facts))


def _permit_deposit_steps(
    signer: Signer, args: _DepositArguments, facts: PermitFacts
) -> Flow[DepositTransaction]:
    """`permit_deposit` as a flow (its permit a `xswap_sdk._flow.Sign` step); the
    arguments' ``deadline`` must be set."""
    name, nonce, chain_id = facts.name, facts.nonce, facts.chain_id
    token_version = facts.version or args.usdc_version or _FALLBACK_USDC_VERSION
    _checked_domain(
        args, name=name, version=token_version, chain_id=chain_id, on_chain=facts.domain_separator
    )
    deadline = args.deadline
    if deadline is None:
        raise InvalidInputError("deadline", "is needed to sign the permit in a flow")
    permit = yield from _signing_permit(
        signer,
        token_name=name,
        token_version=token_version,
        chain_id=chain_id,
        token_address=args.usdc,
        spender=args.gateway_wallet,
        value=args.value,
        nonce=nonce,
        deadline=deadline,
    )
    data = _permit_calldata(args.usdc, permit)
    return DepositTransaction(to=args.gateway_wallet, data=data, chain_id=chain_id, permit=permit)


def deposit_arguments(
    signer: Signer,
    gateway_wallet: str,
    usdc: str,
    value: int | str,
    deadline: int | str | None,
    usdc_version: str | None,
) -> tuple[str, _DepositArguments]:
    """Check the arguments of a permit deposit before any call to the node; return the
    owner's address and the checked arguments."""
    owner = signer_address(signer)
    args = validate_request(
        _DepositArguments,
        gateway_wallet=gateway_wallet,
        usdc=usdc,
        value=value,
        deadline=deadline,
        usdc_version=usdc_version,
    )
    if args.value == 0:
        raise InvalidInputError("value", _ZERO_DEPOSIT_RULE)
    return owner, args
