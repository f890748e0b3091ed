"""Depositing USDC into the gateway wallet with a permit: calldata and transactions.

`deposit_with_permit_calldata` is pure. `prepare_deposit_with_permit` and its async twin
read the token through `web3` (the ``web3`` extra), which is imported only when they run,
so ``import xswap_sdk.signing`` works without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from eth_typing import ChecksumAddress
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from .._models import RequestModel, validate_request
from ..errors import InvalidInputError, UnsafePayloadError
from ..types import Address, Bytes32
from ._fields import Uint256
from .eip712 import domain_separator
from .permit import PermitSignature, sign_permit
from .signer import Signer, signer_address

if TYPE_CHECKING:
    from web3 import AsyncWeb3, Web3

__all__ = [
    "DEPOSIT_WITH_PERMIT_SELECTOR",
    "DepositTransaction",
    "async_prepare_deposit_with_permit",
    "deposit_with_permit_calldata",
    "prepare_deposit_with_permit",
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

_TOKEN_ABI: list[dict[str, Any]] = [
    {
        "type": "function",
        "name": name,
        "stateMutability": "view",
        "inputs": inputs,
        "outputs": [{"name": "", "type": output}],
    }
    for name, inputs, output in (
        ("name", [], "string"),
        ("version", [], "string"),
        ("nonces", [{"name": "owner", "type": "address"}], "uint256"),
        ("DOMAIN_SEPARATOR", [], "bytes32"),
    )
]

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

    model_config = ConfigDict(frozen=True)

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


def _deposit_transaction(
    signer: Signer,
    args: _DepositArguments,
    *,
    name: str,
    version: str | None,
    nonce: int,
    chain_id: int,
    on_chain_domain: bytes | None,
) -> DepositTransaction:
    token_version = version or args.usdc_version or _FALLBACK_USDC_VERSION
    _checked_domain(
        args, name=name, version=token_version, chain_id=chain_id, on_chain=on_chain_domain
    )
    permit = sign_permit(
        signer,
        token_name=name,
        token_version=token_version,
        chain_id=chain_id,
        token_address=args.usdc,
        spender=args.gateway_wallet,
        value=args.value,
        nonce=nonce,
        deadline=args.deadline,
    )
    data = deposit_with_permit_calldata(
        token=args.usdc,
        owner=permit.owner,
        value=permit.value,
        deadline=permit.deadline,
        v=permit.v,
        r=permit.r,
        s=permit.s,
    )
    return DepositTransaction(to=args.gateway_wallet, data=data, chain_id=chain_id, permit=permit)


def _no_version_errors() -> tuple[type[Exception], ...]:
    # What a token without version() makes web3 raise: a revert, or empty return data.
    try:
        from web3.exceptions import BadFunctionCallOutput, ContractLogicError, Web3ValueError
    except ImportError as exc:
        raise ImportError('preparing a deposit needs web3: pip install "xswap-sdk[web3]"') from exc
    errors: tuple[type[Exception], ...] = (
        ContractLogicError,
        BadFunctionCallOutput,
        Web3ValueError,
    )
    try:
        # web3's in-process EthereumTesterProvider lets eth-tester's own revert through.
        from eth_tester.exceptions import TransactionFailed
    except ImportError:
        return errors
    return (*errors, TransactionFailed)


def _arguments(
    signer: Signer,
    gateway_wallet: str,
    usdc: str,
    value: int | str,
    deadline: int | str | None,
    usdc_version: str | None,
) -> tuple[str, _DepositArguments]:
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


def prepare_deposit_with_permit(
    web3: Web3,
    signer: Signer,
    *,
    gateway_wallet: str,
    usdc: str,
    value: int | str,
    deadline: int | str | None = None,
    usdc_version: str | None = None,
) -> DepositTransaction:
    """Read the token, sign a permit for the gateway wallet, and build the deposit.

    Reads the USDC ``name()``, ``version()`` (when the token has none: ``usdc_version``,
    which is the chain configuration's ``usdc.version``, then ``"2"``), the signer's
    ``nonces(owner)`` and the chain id, then signs the permit with the gateway wallet
    as spender. Before signing, the permit's EIP-712 domain (that name and version, the
    chain id, the token) is compared with the token's own ``DOMAIN_SEPARATOR()`` when it
    has one: a permit the token would refuse is not signed. Needs the ``web3`` extra:
    ``pip install "xswap-sdk[web3]"``.

    The ``gateway_wallet`` and ``usdc`` given here are signed as they are: take them
    from `xswap_sdk.registry` (``FlashClient.deposit`` does), not from a service.

    Args:
        web3: a connected `web3.Web3`.
        signer: the USDC holder.
        gateway_wallet: the chain's ``gatewayWallet``.
        usdc: the chain's USDC address.
        value: the amount to deposit, in smallest units.
        deadline: unix time after which the permit is void; one hour from now if not
            given.
        usdc_version: the permit domain version to use if the token has no
            ``version()``.

    Returns:
        The transaction to send (value 0), with the permit it carries.

    Raises:
        InvalidInputError: a bad argument, or a ``value`` of 0 (checked before any call
            to the node).
        UnsafePayloadError: the token's ``DOMAIN_SEPARATOR()`` is not the permit's
            domain (a wrong ``usdc_version``, or not the token it claims to be).
        ImportError: web3 is not installed.
    """
    no_version = _no_version_errors()
    owner, args = _arguments(signer, gateway_wallet, usdc, value, deadline, usdc_version)
    token = web3.eth.contract(address=cast(ChecksumAddress, args.usdc), abi=_TOKEN_ABI)
    name = token.functions.name().call()
    try:
        version = token.functions.version().call()
    except no_version:
        version = None
    try:
        on_chain_domain = token.functions.DOMAIN_SEPARATOR().call()
    except no_version:
        on_chain_domain = None
    nonce = token.functions.nonces(owner).call()
    chain_id = web3.eth.chain_id
    return _deposit_transaction(
        signer,
        args,
        name=name,
        version=version,
        nonce=nonce,
        chain_id=chain_id,
        on_chain_domain=on_chain_domain,
    )


async def async_prepare_deposit_with_permit(
    web3: AsyncWeb3[Any],
    signer: Signer,
    *,
    gateway_wallet: str,
    usdc: str,
    value: int | str,
    deadline: int | str | None = None,
    usdc_version: str | None = None,
) -> DepositTransaction:
    """The async twin of `prepare_deposit_with_permit`, over a `web3.AsyncWeb3`.

    Raises:
        InvalidInputError: a bad argument, or a ``value`` of 0 (checked before any call
            to the node).
        UnsafePayloadError: the token's ``DOMAIN_SEPARATOR()`` is not the permit's
            domain.
        ImportError: web3 is not installed.
    """
    no_version = _no_version_errors()
    owner, args = _arguments(signer, gateway_wallet, usdc, value, deadline, usdc_version)
    token = web3.eth.contract(address=cast(ChecksumAddress, args.usdc), abi=_TOKEN_ABI)
    name = await token.functions.name().call()
    try:
        version = await token.functions.version().call()
    except no_version:
        version = None
    try:
        on_chain_domain = await token.functions.DOMAIN_SEPARATOR().call()
    except no_version:
        on_chain_domain = None
    nonce = await token.functions.nonces(owner).call()
    chain_id = await web3.eth.chain_id
    return _deposit_transaction(
        signer,
        args,
        name=name,
        version=version,
        nonce=nonce,
        chain_id=chain_id,
        on_chain_domain=on_chain_domain,
    )
