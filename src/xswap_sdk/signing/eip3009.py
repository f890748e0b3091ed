"""EIP-3009 deposits: a signed ``ReceiveWithAuthorization`` and ``depositWithAuthorization``.

The gateway wallet's ``depositWithAuthorization`` calls USDC's
``receiveWithAuthorization``, which moves the tokens only to its caller: an authorization
naming the gateway wallet as ``to`` can be used by nothing but the gateway wallet, and
only to credit the authorizer. So it can be handed to anyone (a relayer) to send.

Unlike a permit, an authorization needs no nonce read from the token: its nonce is 32
random bytes chosen here. Together with the token's EIP-712 name and version pinned in
`xswap_sdk.registry` (or given by the caller), a deposit is signed and encoded with no
RPC at all: `prepare_deposit_with_authorization`, then ``relayer.relay(**call.relay_arguments())``.

What is signed comes from the caller or the registry: the token is the registry's USDC
of the chain, ``to`` is the registry's GatewayWallet, ``from`` is the signer, and the
domain's chain id is the chain asked for. A service has no say in any of it.
"""

from __future__ import annotations

import secrets
import time
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from .._flow import Flow, Sign
from .._keccak import keccak
from .._models import RequestModel, check_argument, validate_request
from ..errors import InvalidInputError
from ..registry import DEFAULT_REGISTRY, Registry
from ..types import Address, Bytes32, ChainId
from ._fields import GATEWAY_BATCHED_DOMAIN_NAME, Uint256, require_addresses
from .calls import ContractCall
from .eip712 import (
    _signature_fields,
    _token_typed_data,
    domain_separator,
    eip712_digest,
    type_hash,
)
from .signer import Signer, _signed_now, signer_address

__all__ = [
    "DEFAULT_AUTHORIZATION_LIFETIME",
    "DEPOSIT_WITH_AUTHORIZATION_BYTES_SELECTOR",
    "DEPOSIT_WITH_AUTHORIZATION_SELECTOR",
    "GATEWAY_BATCHED_DOMAIN_NAME",
    "GATEWAY_BATCHED_DOMAIN_VERSION",
    "GATEWAY_BATCH_VALIDITY",
    "GATEWAY_MIN_BATCH_VALIDITY",
    "MAX_BATCH_VALIDITY",
    "AuthorizationDeposit",
    "AuthorizationKind",
    "ReceiveAuthorization",
    "TransferAuthorization",
    "deposit_with_authorization_call",
    "prepare_deposit_with_authorization",
    "receive_authorization_typed_data",
    "sign_deposit_authorization",
    "sign_receive_authorization",
    "sign_transfer_authorization",
]

DEFAULT_AUTHORIZATION_LIFETIME = 3600
"""Seconds an authorization stays valid when no ``valid_before`` is given (one hour)."""

GATEWAY_BATCHED_DOMAIN_VERSION = "1"
"""The ``version`` of that domain."""

# Circle Gateway's rules for a batched authorization (POST /v1/batch/submit, and the x402
# payments its facilitator settles): Gateway refuses one valid for less than seven days
# (``authorization_validity_too_short``, https://developers.circle.com/api-reference/
# gateway/all/submit-batch-authorization), and Circle's batching client and its sellers
# (@circle-fin/x402-batching, https://developers.circle.com/sdks/gateway-nanopayments-sdk)
# use seven days and 100 seconds, the margin a request needs to reach Gateway.
GATEWAY_MIN_BATCH_VALIDITY = 7 * 24 * 3600
"""The shortest validity Gateway accepts for a batched authorization, in seconds
(604,800: seven days; ``authorization_validity_too_short`` below it)."""

GATEWAY_BATCH_VALIDITY = GATEWAY_MIN_BATCH_VALIDITY + 100
"""The validity the SDK gives a batched authorization, in seconds (604,900): Circle's
batching scheme's own window (``maxTimeoutSeconds`` of its sellers' x402 offers), seven
days and the 100 seconds a request needs to reach Gateway."""

MAX_BATCH_VALIDITY = 2 * GATEWAY_MIN_BATCH_VALIDITY
"""The longest validity the SDK signs for a batched authorization, in seconds
(1,209,600: fourteen days, twice Gateway's minimum): a payment stays usable no longer
than this, whatever a seller's offer or a caller's ``valid_before`` says."""

DEPOSIT_WITH_AUTHORIZATION_SELECTOR = "0x8a94d4fc"
"""``depositWithAuthorization(address,address,uint256,uint256,uint256,bytes32,uint8,bytes32,bytes32)``."""

DEPOSIT_WITH_AUTHORIZATION_BYTES_SELECTOR = "0x438d4835"
"""``depositWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)``:
the overload taking one ``bytes`` signature (ERC-7598), for contract wallets."""

_HEAD_TYPES = ("address", "address", "uint256", "uint256", "uint256", "bytes32")
_VRS_TYPES = (*_HEAD_TYPES, "uint8", "bytes32", "bytes32")
_BYTES_TYPES = (*_HEAD_TYPES, "bytes")
_VRS_FUNCTION = f"depositWithAuthorization({','.join(_VRS_TYPES)})"
_BYTES_FUNCTION = f"depositWithAuthorization({','.join(_BYTES_TYPES)})"

_AUTHORIZATION_FIELDS = (
    ("from", "address"),
    ("to", "address"),
    ("value", "uint256"),
    ("validAfter", "uint256"),
    ("validBefore", "uint256"),
    ("nonce", "bytes32"),
)
AuthorizationKind = Literal["ReceiveWithAuthorization", "TransferWithAuthorization"]
"""The two EIP-3009 authorizations signed here: ``ReceiveWithAuthorization`` (only ``to``
may use it: gateway deposits) and ``TransferWithAuthorization`` (Gateway's batched
payments, x402)."""

# The two share their fields; only the type's name, and so its hash, differs.
_AUTHORIZATION_TYPEHASHES: dict[str, bytes] = {
    kind: type_hash(
        kind + "(" + ",".join(f"{type_} {name}" for name, type_ in _AUTHORIZATION_FIELDS) + ")"
    )
    for kind in ("ReceiveWithAuthorization", "TransferWithAuthorization")
}

_ZERO_DEPOSIT_RULE = (
    "must be positive: the gateway wallet refuses a deposit of 0 (DepositValueMustBePositive)"
)

SignatureForm = Literal["vrs", "bytes"]


class _AuthorizationArguments(RequestModel):
    primary_type: AuthorizationKind = "ReceiveWithAuthorization"
    token_name: str = Field(min_length=1)
    token_version: str = Field(min_length=1)
    chain_id: ChainId
    token: Address
    authorizer: Address
    to: Address
    value: Uint256
    valid_after: Uint256
    valid_before: Uint256
    nonce: Bytes32


class ReceiveAuthorization(BaseModel):
    """A signed EIP-3009 ``ReceiveWithAuthorization``: what was signed, and the signature.

    Attributes:
        authorizer: the token holder who signed (EIP-3009's ``from``).
        to: who may receive the tokens, and the only caller that can use the
            authorization (the gateway wallet, for a deposit).
        token: the token (the domain's verifying contract).
        token_name: the ``name`` of the token's EIP-712 domain.
        token_version: the ``version`` of the token's EIP-712 domain.
        chain_id: the chain of the domain.
        value: the amount, in smallest units.
        valid_after: unix time after which it can be used (exclusive).
        valid_before: unix time before which it can be used (exclusive).
        nonce: the authorization's unique 32 bytes, ``0x`` hex.
        digest: the EIP-712 digest that was signed.
        v: 27 or 28.
        r: ``0x`` + 64 hex digits (left out of ``repr``).
        s: ``0x`` + 64 hex digits (left out of ``repr``).
        signature: ``r || s || v`` as ``0x`` + 130 hex digits (left out of ``repr``).
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True)

    authorizer: str
    to: str
    token: str
    token_name: str
    token_version: str
    chain_id: int
    value: int
    valid_after: int
    valid_before: int
    nonce: str
    digest: str
    v: int
    r: str = Field(repr=False)
    s: str = Field(repr=False)
    signature: str = Field(repr=False)


class TransferAuthorization(ReceiveAuthorization):
    """A signed EIP-3009 ``TransferWithAuthorization`` (`sign_transfer_authorization`):
    the same fields as `ReceiveAuthorization`, ``token`` being the domain's verifying
    contract (the GatewayWallet, for Gateway's batched payments) and ``token_name`` and
    ``token_version`` the domain's name and version."""


class AuthorizationDeposit(ContractCall):
    """A ready ``depositWithAuthorization`` call on the gateway wallet, with the
    authorization it carries. Anyone may send it: ``relayer.relay(**deposit.relay_arguments())``.

    Attributes:
        authorization: the signed authorization inside the calldata.
    """

    authorization: ReceiveAuthorization


def _authorization_hash(args: _AuthorizationArguments) -> bytes:
    return keccak(
        _AUTHORIZATION_TYPEHASHES[args.primary_type]
        + bytes(12)
        + bytes.fromhex(args.authorizer[2:])
        + bytes(12)
        + bytes.fromhex(args.to[2:])
        + args.value.to_bytes(32, "big")
        + args.valid_after.to_bytes(32, "big")
        + args.valid_before.to_bytes(32, "big")
        + bytes.fromhex(args.nonce[2:])
    )


def _digest(args: _AuthorizationArguments) -> bytes:
    domain = domain_separator(args.token_name, args.token_version, args.chain_id, args.token)
    return eip712_digest(domain, _authorization_hash(args))


def _payload(args: _AuthorizationArguments) -> dict[str, Any]:
    return _token_typed_data(
        args.primary_type,
        _AUTHORIZATION_FIELDS,
        (args.token_name, args.token_version, args.chain_id, args.token),
        {
            "from": args.authorizer,
            "to": args.to,
            "value": str(args.value),
            "validAfter": str(args.valid_after),
            "validBefore": str(args.valid_before),
            "nonce": args.nonce,
        },
    )


def _arguments(**values: Any) -> _AuthorizationArguments:
    args = validate_request(_AuthorizationArguments, **values)
    if args.valid_after >= args.valid_before:
        raise InvalidInputError(
            "valid_before", "must be later than valid_after (the authorization could never be used)"
        )
    return args


def receive_authorization_typed_data(
    *,
    token_name: str,
    token_version: str,
    chain_id: int,
    token: str,
    authorizer: str,
    to: str,
    value: int | str,
    valid_after: int | str,
    valid_before: int | str,
    nonce: str,
) -> dict[str, Any]:
    """The full EIP-712 payload of a ``ReceiveWithAuthorization``, to sign elsewhere
    (``eth_signTypedData_v4`` in a browser wallet, a hardware wallet).

    uint256 values are written as decimal strings.

    Args:
        token_name: the token's EIP-712 domain name (its ``name()``).
        token_version: the token's EIP-712 domain version (its ``version()``).
        chain_id: the chain the token lives on.
        token: the token contract.
        authorizer: the token holder (``from``).
        to: who receives the tokens and alone may use the authorization.
        value: the amount, in smallest units.
        valid_after: unix time after which it can be used.
        valid_before: unix time before which it can be used.
        nonce: 32 unique bytes, ``0x`` hex.

    Returns:
        The payload: ``types``, ``domain``, ``primaryType``, ``message``.

    Raises:
        InvalidInputError: naming the first bad argument.
    """
    return _payload(
        _arguments(
            token_name=token_name,
            token_version=token_version,
            chain_id=chain_id,
            token=token,
            authorizer=authorizer,
            to=to,
            value=value,
            valid_after=valid_after,
            valid_before=valid_before,
            nonce=nonce,
        )
    )


def sign_receive_authorization(
    signer: Signer,
    *,
    token_name: str,
    token_version: str,
    chain_id: int,
    token: str,
    to: str,
    value: int | str,
    valid_after: int | str = 0,
    valid_before: int | str | None = None,
    nonce: str | None = None,
) -> ReceiveAuthorization:
    """Sign an EIP-3009 ``ReceiveWithAuthorization`` letting ``to`` pull ``value`` of
    the signer's tokens.

    The general primitive: for a gateway deposit use `sign_deposit_authorization`, which
    takes the token and ``to`` from the registry.

    Args:
        signer: the token holder.
        token_name: the token's EIP-712 domain name.
        token_version: the token's EIP-712 domain version.
        chain_id: the chain the token lives on.
        token: the token contract.
        to: who receives the tokens; only it can use the authorization.
        value: the amount, in smallest units.
        valid_after: unix time after which it can be used (default 0: at once).
        valid_before: unix time before which it can be used; one hour from now when
            not given.
        nonce: 32 bytes, ``0x`` hex; random when not given (never reuse one: the
            token refuses a used nonce).

    Returns:
        The signed authorization.

    Raises:
        InvalidInputError: naming the first bad argument, ``valid_before`` not after
            ``valid_after``, or ``valid_before`` already past (checked before signing).
        SigningError: the signer failed, or signed for another address.
    """
    return _sign(
        ReceiveAuthorization,
        signer,
        primary_type="ReceiveWithAuthorization",
        token_name=token_name,
        token_version=token_version,
        chain_id=chain_id,
        token=token,
        to=to,
        value=value,
        valid_after=valid_after,
        valid_before=valid_before,
        nonce=nonce,
    )


def sign_transfer_authorization(
    signer: Signer,
    *,
    domain_name: str,
    domain_version: str,
    chain_id: int,
    verifying_contract: str,
    to: str,
    value: int | str,
    valid_after: int | str = 0,
    valid_before: int | str | None = None,
    nonce: str | None = None,
    now: float | None = None,
) -> TransferAuthorization:
    """Sign an EIP-3009 ``TransferWithAuthorization`` for the EIP-712 domain given.

    The primitive under Circle Gateway's batched payments (x402 and
    ``POST /v1/batch/submit``), whose domain is `GATEWAY_BATCHED_DOMAIN_NAME` version
    `GATEWAY_BATCHED_DOMAIN_VERSION` with the chain's GatewayWallet as verifying
    contract: callers pass those pinned facts, never a service's word for them.

    Args:
        signer: who pays (EIP-3009's ``from``).
        domain_name: the EIP-712 domain's ``name``.
        domain_version: the EIP-712 domain's ``version``.
        chain_id: the chain of the domain.
        verifying_contract: the domain's verifying contract.
        to: who receives ``value``.
        value: the amount, in smallest units.
        valid_after: unix time after which it can be used (default 0: at once).
        valid_before: unix time before which it can be used; one hour from now when
            not given.
        nonce: 32 bytes, ``0x`` hex; random when not given.
        now: the current unix time, that ``valid_before`` must be after and the
            default window starts from; the system clock when not given (a client
            passes its own clock).

    Returns:
        The signed authorization (its ``token`` is the verifying contract).

    Raises:
        InvalidInputError: naming the first bad argument.
        SigningError: the signer failed, or signed for another address.
    """
    return _sign(
        TransferAuthorization,
        signer,
        primary_type="TransferWithAuthorization",
        token_name=domain_name,
        token_version=domain_version,
        chain_id=chain_id,
        token=verifying_contract,
        to=to,
        value=value,
        valid_after=valid_after,
        valid_before=valid_before,
        nonce=nonce,
        now=now,
    )


_Signed = TypeVar("_Signed", bound="ReceiveAuthorization")


def _sign(
    result: type[_Signed],
    signer: Signer,
    *,
    valid_before: int | str | None,
    nonce: str | None,
    now: float | None = None,
    **fields: Any,
) -> _Signed:
    current = time.time() if now is None else now
    if nonce is None:
        nonce = "0x" + secrets.token_bytes(32).hex()
    return _signed_now(
        _signing_authorization(
            result, signer, valid_before=valid_before, nonce=nonce, now=current, **fields
        )
    )


def _signing_authorization(
    result: type[_Signed],
    signer: Signer,
    *,
    valid_before: int | str | None,
    nonce: str,
    now: float,
    **fields: Any,
) -> Flow[_Signed]:
    """An EIP-3009 authorization signed as a flow, its nonce and time given: the checks,
    then one `xswap_sdk._flow.Sign` step (a journey's driver makes, or replays, the
    signature)."""
    authorizer = signer_address(signer)
    current = int(now)
    if valid_before is None:
        valid_before = current + DEFAULT_AUTHORIZATION_LIFETIME
    args = _arguments(authorizer=authorizer, valid_before=valid_before, nonce=nonce, **fields)
    if args.valid_before <= current:
        # USDC: require(now < validBefore, "FiatTokenV2: authorization is expired").
        raise InvalidInputError(
            "valid_before",
            f"is {args.valid_before}, not after now ({current}, unix time): the token "
            "refuses an expired authorization",
        )
    digest = _digest(args)
    hex_signature: str = yield Sign(signer, digest, lambda: _payload(args), what="authorization")
    return result(
        authorizer=args.authorizer,
        to=args.to,
        token=args.token,
        token_name=args.token_name,
        token_version=args.token_version,
        chain_id=args.chain_id,
        value=args.value,
        valid_after=args.valid_after,
        valid_before=args.valid_before,
        nonce=args.nonce,
        **_signature_fields(digest, hex_signature),
    )


def _token_domain(
    chain_id: int, token_name: str | None, token_version: str | None, registry: Registry
) -> tuple[str, str]:
    chain = registry.chain(chain_id)
    name = token_name if token_name is not None else chain.usdc_eip712_name
    version = token_version if token_version is not None else chain.usdc_eip712_version
    if name is None or version is None:
        missing = "token_name" if name is None else "token_version"
        raise InvalidInputError(
            missing,
            f"is needed for {chain.name} ({chain_id}): the registry does not pin USDC's "
            "EIP-712 name and version there; pass the token's name() and version(), or "
            "add them to the chain's registry entry (usdc_eip712_name, usdc_eip712_version)",
        )
    return name, version


def sign_deposit_authorization(
    signer: Signer,
    *,
    chain_id: int,
    value: int | str,
    valid_after: int | str = 0,
    valid_before: int | str | None = None,
    nonce: str | None = None,
    token_name: str | None = None,
    token_version: str | None = None,
    registry: Registry | None = None,
) -> ReceiveAuthorization:
    """Sign the authorization of a gateway deposit: ``value`` of the signer's USDC on
    ``chain_id`` into the GatewayWallet, credited to the signer.

    The token is the registry's USDC on the chain and ``to`` its GatewayWallet; nothing
    is read from the chain or from a service.

    Args:
        signer: the USDC holder, whose gateway balance is credited.
        chain_id: the chain to deposit on.
        value: USDC in smallest units, more than 0.
        valid_after: unix time after which it can be used (default 0).
        valid_before: unix time before which it can be used; one hour from now when
            not given.
        nonce: 32 bytes, ``0x`` hex; random when not given.
        token_name: USDC's EIP-712 domain name; the registry's when not given (needed
            where the registry does not pin it).
        token_version: USDC's EIP-712 domain version; the registry's when not given.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Returns:
        The signed authorization.

    Raises:
        InvalidInputError: a bad argument, a ``value`` of 0, a window that is empty or
            already past, or no known token name and version for the chain.
        UnsafePayloadError: the registry does not know ``chain_id``.
        SigningError: the signer failed, or signed for another address.
    """
    return _signed_now(
        _signing_deposit_authorization(
            signer,
            chain_id=chain_id,
            value=value,
            valid_after=valid_after,
            valid_before=valid_before,
            nonce="0x" + secrets.token_bytes(32).hex() if nonce is None else nonce,
            now=time.time(),
            token_name=token_name,
            token_version=token_version,
            registry=registry,
        )
    )


def _signing_deposit_authorization(
    signer: Signer,
    *,
    chain_id: int,
    value: int | str,
    nonce: str,
    now: float,
    valid_after: int | str = 0,
    valid_before: int | str | None = None,
    token_name: str | None = None,
    token_version: str | None = None,
    registry: Registry | None = None,
) -> Flow[ReceiveAuthorization]:
    """`sign_deposit_authorization` as a flow, its nonce and time given (a journey's
    `Random` and `Now` steps): the checks, then one `xswap_sdk._flow.Sign` step."""
    pins = DEFAULT_REGISTRY if registry is None else registry
    checked_chain = _checked_chain_id(chain_id)
    if check_argument("value", Uint256, value) == 0:
        raise InvalidInputError("value", _ZERO_DEPOSIT_RULE)
    chain = pins.chain(checked_chain).require_evm()
    name, version = _token_domain(checked_chain, token_name, token_version, pins)
    authorization: ReceiveAuthorization = yield from _signing_authorization(
        ReceiveAuthorization,
        signer,
        valid_before=valid_before,
        nonce=nonce,
        now=now,
        token_name=name,
        token_version=version,
        chain_id=checked_chain,
        token=chain.usdc,
        to=chain.gateway_wallet,
        value=value,
        valid_after=valid_after,
    )
    return authorization


def _checked_chain_id(chain_id: object) -> int:
    if isinstance(chain_id, bool) or not isinstance(chain_id, int) or chain_id < 1:
        raise InvalidInputError("chain_id", "must be a positive int")
    return chain_id


def _checked_against_registry(authorization: ReceiveAuthorization, registry: Registry) -> None:
    chain = registry.chain(authorization.chain_id)
    require_addresses(
        ("authorization.to", authorization.to, chain.gateway_wallet),
        ("authorization.token", authorization.token, chain.usdc),
        hint=f"A gateway deposit on {chain.name} authorizes its GatewayWallet to receive "
        "its native USDC (xswap_sdk.registry).",
    )
    if authorization.value == 0:
        raise InvalidInputError("authorization.value", _ZERO_DEPOSIT_RULE)


def deposit_with_authorization_call(
    authorization: ReceiveAuthorization,
    *,
    signature_form: SignatureForm = "vrs",
    registry: Registry | None = None,
) -> AuthorizationDeposit:
    """The ``depositWithAuthorization`` call that redeems ``authorization``.

    Args:
        authorization: from `sign_deposit_authorization` (or
            `sign_receive_authorization` with the registry's GatewayWallet and USDC).
        signature_form: ``"vrs"`` for the v, r, s overload (selector ``0x8a94d4fc``),
            ``"bytes"`` for the overload taking one ``bytes`` signature (``0x438d4835``),
            which contract wallets need.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Returns:
        The call on the registry's GatewayWallet; anyone may send it.

    Raises:
        InvalidInputError: an unknown ``signature_form``, or a ``value`` of 0.
        UnsafePayloadError: the authorization's ``to`` is not the chain's GatewayWallet
            or its token not the chain's USDC, per the registry.
    """
    pins = DEFAULT_REGISTRY if registry is None else registry
    _checked_against_registry(authorization, pins)
    if signature_form == "vrs":
        data = _encode(
            DEPOSIT_WITH_AUTHORIZATION_SELECTOR,
            _VRS_TYPES,
            [*_head(authorization), authorization.v, _raw(authorization.r), _raw(authorization.s)],
        )
        function = _VRS_FUNCTION
    elif signature_form == "bytes":
        data = _encode(
            DEPOSIT_WITH_AUTHORIZATION_BYTES_SELECTOR,
            _BYTES_TYPES,
            [*_head(authorization), _raw(authorization.signature)],
        )
        function = _BYTES_FUNCTION
    else:
        raise InvalidInputError("signature_form", "must be 'vrs' or 'bytes'")
    return AuthorizationDeposit(
        to=authorization.to,
        data=data,
        chain_id=authorization.chain_id,
        function=function,
        authorization=authorization,
    )


def _head(authorization: ReceiveAuthorization) -> list[Any]:
    return [
        authorization.token,
        authorization.authorizer,
        authorization.value,
        authorization.valid_after,
        authorization.valid_before,
        _raw(authorization.nonce),
    ]


def _raw(value: str) -> bytes:
    return bytes.fromhex(value[2:])


def _encode(selector: str, types: tuple[str, ...], values: list[Any]) -> str:
    # Imported here: eth_abi builds its type grammar on import (about 0.1 s).
    from eth_abi.abi import encode

    return selector + encode(types, values).hex()


def prepare_deposit_with_authorization(
    signer: Signer,
    *,
    chain_id: int,
    value: int | str,
    valid_after: int | str = 0,
    valid_before: int | str | None = None,
    nonce: str | None = None,
    token_name: str | None = None,
    token_version: str | None = None,
    signature_form: SignatureForm = "vrs",
    registry: Registry | None = None,
) -> AuthorizationDeposit:
    """Sign a deposit authorization and build its ``depositWithAuthorization`` call,
    with no RPC: nothing is read from the chain.

    ```python
    deposit = prepare_deposit_with_authorization(account, chain_id=8453, value=5_000_000)
    tx_id = relayer.relay(**deposit.relay_arguments())  # the user pays no gas
    ```

    Args:
        signer: the USDC holder, whose gateway balance is credited.
        chain_id: the chain to deposit on.
        value: USDC in smallest units, more than 0.
        valid_after: unix time after which it can be used (default 0).
        valid_before: unix time before which it can be used; one hour from now when
            not given.
        nonce: 32 bytes, ``0x`` hex; random when not given.
        token_name: USDC's EIP-712 domain name; the registry's when not given.
        token_version: USDC's EIP-712 domain version; the registry's when not given.
        signature_form: ``"vrs"`` or ``"bytes"`` (see `deposit_with_authorization_call`).
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Returns:
        The call on the registry's GatewayWallet, with the authorization.

    Raises:
        InvalidInputError: a bad argument, a ``value`` of 0, a window that is empty or
            already past, or no known token name and version for the chain.
        UnsafePayloadError: the registry does not know ``chain_id``.
        SigningError: the signer failed, or signed for another address.
    """
    authorization = sign_deposit_authorization(
        signer,
        chain_id=chain_id,
        value=value,
        valid_after=valid_after,
        valid_before=valid_before,
        nonce=nonce,
        token_name=token_name,
        token_version=token_version,
        registry=registry,
    )
    return deposit_with_authorization_call(
        authorization, signature_form=signature_form, registry=registry
    )
