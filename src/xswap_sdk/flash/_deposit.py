"""Filling the gateway wallet: a USDC permit and ``depositWithPermit``, or an EIP-3009
authorization and ``depositWithAuthorization``, sent two ways.

The chain's gateway wallet and USDC address come from `xswap_sdk.registry`, never from
the backend: ``GET /supported-chains`` must agree with the registry (or the deposit is
refused with `UnsafePayloadError`), and only its USDC permit version is used, as the
fallback for a token without ``version()``. The signing module's
`prepare_deposit_with_permit` reads the token's name and the signer's permit nonce
through web3, checks the permit domain against the token's ``DOMAIN_SEPARATOR()``, signs
the permit and builds the call; `check_prepared` checks the result once more. Then
either:

- **web3** sends it: signed locally when the signer can sign transactions (an
  `eth_account` `LocalAccount`), otherwise with ``eth_sendTransaction`` by a node that
  holds the account. The signer pays the gas.
- **the relayer** sends it (``relayer=``): anyone may submit ``depositWithPermit``, and
  the tokens still come from the permit's owner, so the user needs no native gas. web3
  is still needed to read the nonce.

By authorization (`check_authorization_deposit`, `authorization_deposit`) nothing is
read from the chain: the nonce is random and USDC's EIP-712 name and version come from
the registry or the caller (or read from the token through web3 where the registry does not
pin them). With the relayer, such a deposit needs no RPC at all.

Pure: the reads and sends go through ``xswap_sdk._async_web3`` (and its generated blocking
twin), and web3 is imported only when a deposit runs (the ``web3`` extra).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from .._chain_steps import check_connected
from .._flow import Flow
from .._lazy import require
from .._models import check_argument
from .._simulation import Intent, deposit_intent
from ..errors import InvalidInputError, UnsafePayloadError
from ..registry import DEFAULT_REGISTRY, Registry
from ..signing._fields import require_addresses
from ..signing.deposit import DepositTransaction
from ..signing.eip3009 import (
    AuthorizationDeposit,
    _signing_deposit_authorization,
    deposit_with_authorization_call,
)
from ..signing.signer import Signer, signer_address
from ..simulation import Simulation
from ..types import TokenAmount
from . import _trust
from ._operations import check_chain_id
from .models import Chain

if TYPE_CHECKING:
    pass

__all__ = [
    "DepositMethod",
    "DepositPlan",
    "DepositResult",
    "authorization_deposit",
    "check_authorization_deposit",
    "check_deposit",
    "check_prepared",
    "deposit_target",
    "simulated_deposit",
]

_FEATURE = "FlashClient.deposit"


def simulated_deposit(
    fields: Mapping[str, Any], plan: DepositPlan, target: DepositTarget
) -> Intent:
    """What a deposit sent by its owner means, for its simulation: ``amount`` of the
    registry's USDC to the registry's GatewayWallet, which credits the owner."""
    return deposit_intent(
        fields,
        usdc=target.usdc,
        gateway_wallet=target.gateway_wallet,
        amount=plan.amount,
        depositor=plan.owner,
    )


DepositMethod = Literal["permit", "authorization"]
"""How `FlashClient.deposit` moves USDC: an EIP-2612 permit or an EIP-3009 authorization."""


class DepositResult(BaseModel):
    """What `FlashClient.deposit` did.

    Attributes:
        transaction: the ``depositWithPermit`` transaction, with its permit, or the
            ``depositWithAuthorization`` call, with its authorization.
        chain_id: the chain it was sent on.
        tx_hash: the transaction hash, when web3 sent it.
        relayer_tx_id: the relayer's transaction id, when the relayer sent it; follow it
            with ``relayer.wait_for_execution_hash(relayer_tx_id)``.
        simulation: what the deposit moved in its simulation before it was signed, or
            ``None`` when it was not simulated (relayed, ``simulate=False``, or a node
            without ``eth_simulateV1``).
        journey_id: the ``deposit`` journey in the client's journal, when web3 sent
            it and the client has a journal; the ``relay`` journey in the relayer
            client's journal, when the relayer sent it and that client has one; else
            ``None``.
        balance: with ``wait=True``, the signer's Gateway balance on the chain once
            Gateway counted the deposit, in smallest USDC units; else ``None``.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(frozen=True)

    transaction: DepositTransaction | AuthorizationDeposit
    chain_id: int
    tx_hash: str | None = None
    relayer_tx_id: str | None = None
    simulation: Simulation | None = None
    journey_id: str | None = None
    balance: int | None = None


@dataclass(frozen=True, slots=True)
class DepositPlan:
    """The checked arguments of a deposit."""

    owner: str
    chain_id: int
    amount: int


@dataclass(frozen=True, slots=True)
class DepositTarget:
    """The chain configuration a deposit needs.

    Attributes:
        gateway_wallet: the registry's GatewayWallet (the permit's spender and the
            transaction's target).
        usdc: the registry's native USDC on the chain (the permit's token).
        usdc_version: the backend's ``usdc.version``, used only when the token has no
            ``version()`` (and then checked against its ``DOMAIN_SEPARATOR()``).
        chain_id: the chain.
    """

    gateway_wallet: str
    usdc: str
    usdc_version: str | None
    chain_id: int | None = None


def check_deposit(
    signer: Signer,
    *,
    chain_id: int,
    amount: int | str,
    web3: object,
    web3_type: str,
    relayer: object,
    relayer_type: type[Any],
) -> DepositPlan:
    """Check a deposit's arguments before any I/O.

    ``web3_type`` names the web3 class this client drives (``"Web3"`` or
    ``"AsyncWeb3"``); ``relayer_type`` is the relayer client class of the same flavour.

    Raises:
        MissingDependencyError: web3 is not installed.
        InvalidInputError: a bad argument, no ``web3``, or the wrong flavour of it.
    """
    require("web3", extra="web3", feature=_FEATURE)
    plan = _plan(signer, chain_id, amount, relayer, relayer_type)
    if web3 is None:
        raise InvalidInputError(
            "web3",
            "is needed, also with relayer=: the permit nonce and token name are read from "
            "the chain (pass a connected Web3, or AsyncWeb3 to the async client)",
        )
    _check_web3(web3, web3_type)
    return plan


def _plan(
    signer: Signer, chain_id: int, amount: int | str, relayer: object, relayer_type: type[Any]
) -> DepositPlan:
    """The owner, chain and amount of a deposit of either kind, checked, with the relayer
    it may be sent through."""
    owner = signer_address(signer)
    checked_chain = check_chain_id(chain_id)
    units: int = check_argument("amount", TokenAmount, amount)
    if units == 0:
        raise InvalidInputError("amount", "must be positive")
    if relayer is not None and not isinstance(relayer, relayer_type):
        raise InvalidInputError("relayer", f"must be a {relayer_type.__name__} or None")
    return DepositPlan(owner=owner, chain_id=checked_chain, amount=units)


def _check_web3(web3: object, web3_type: str) -> None:
    """Refuse a ``web3`` of the other flavour (``"Web3"`` or ``"AsyncWeb3"``) than the
    client's."""
    web3_module = require("web3", extra="web3", feature=_FEATURE)
    if not isinstance(web3, getattr(web3_module, web3_type)):
        raise InvalidInputError("web3", f"must be a web3.{web3_type} for this client")


def deposit_target(
    chains: list[Chain], chain_id: int, *, registry: Registry | None = None
) -> DepositTarget:
    """The gateway wallet and USDC of ``chain_id``: the registry's, once the backend's
    chain list is found to agree with them.

    Args:
        chains: from ``GET /supported-chains``.
        chain_id: the chain to deposit on.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Raises:
        InvalidInputError: the backend does not list the chain, or lists it without
            ``gatewayWallet`` or ``usdc.address``.
        UnsafePayloadError: the registry does not know the chain, or the backend's
            ``gatewayWallet``, ``gatewayMinter``, ``usdc.address`` or domain is not the
            registry's.
    """
    chain = next((chain for chain in chains if chain.id == chain_id), None)
    if chain is None:
        known = ", ".join(str(chain.id) for chain in chains) or "none"
        raise InvalidInputError(
            "chain_id", f"{chain_id} is not a chain the backend supports (supported: {known})"
        )
    # Looked up when called, so that the default is the module's at that time.
    pins = DEFAULT_REGISTRY if registry is None else registry
    pinned = _trust.pinned_chain(pins, chain_id, chain)
    return DepositTarget(pinned.gateway_wallet, pinned.usdc, chain.usdc.version, chain_id)


def check_prepared(
    transaction: DepositTransaction, plan: DepositPlan, target: DepositTarget | None = None
) -> DepositTransaction:
    """Check the prepared deposit before it is sent or handed to the relayer.

    Args:
        transaction: from ``prepare_deposit_with_permit``.
        plan: the checked arguments.
        target: from `deposit_target`; when given, the transaction must call its
            gateway wallet, and the permit must let that wallet spend the plan's amount of
            its USDC from the plan's owner.

    Raises:
        InvalidInputError: web3 is connected to another chain than ``plan.chain_id``.
        UnsafePayloadError: the transaction or its permit names another contract, owner
            or amount than the target and the plan.
    """
    check_connected(transaction.chain_id, plan.chain_id)
    if target is None:
        return transaction
    permit = transaction.permit
    require_addresses(
        ("transaction.to", transaction.to, target.gateway_wallet),
        ("permit.spender", permit.spender, target.gateway_wallet),
        ("permit.token_address", permit.token_address, target.usdc),
        ("permit.owner", permit.owner, plan.owner),
    )
    if permit.value != plan.amount:
        raise UnsafePayloadError("permit.value", expected=plan.amount, received=permit.value)
    if permit.chain_id != plan.chain_id:
        raise UnsafePayloadError(
            "permit.chain_id", expected=plan.chain_id, received=permit.chain_id
        )
    return transaction


# ------------------------------------------------------------------------------ authorization


def check_authorization_deposit(
    signer: Signer,
    *,
    chain_id: int,
    amount: int | str,
    web3: object,
    web3_type: str,
    relayer: object,
    relayer_type: type[Any],
) -> DepositPlan:
    """Check the arguments of a deposit by EIP-3009 authorization, before any I/O.

    Unlike a permit deposit, web3 is not needed to sign: only to send, when no relayer
    does. ``web3_type`` names the web3 class this client drives (``"Web3"`` or
    ``"AsyncWeb3"``); ``relayer_type`` is the relayer client class of the same flavour.

    Raises:
        MissingDependencyError: ``web3`` is given but web3 is not installed.
        InvalidInputError: a bad argument, neither ``web3`` nor ``relayer`` to send
            with, or the wrong flavour of either.
    """
    plan = _plan(signer, chain_id, amount, relayer, relayer_type)
    if web3 is not None:
        _check_web3(web3, web3_type)
    elif relayer is None:
        raise InvalidInputError(
            "relayer",
            "or web3 is needed to send a deposit by authorization (the relayer sends it "
            "with no RPC at all; web3 sends it from the signer)",
        )
    return plan


def authorization_deposit(
    signer: Signer,
    plan: DepositPlan,
    target: DepositTarget,
    *,
    nonce: str,
    now: float,
    token_name: str | None = None,
    token_version: str | None = None,
    registry: Registry | None = None,
) -> Flow[AuthorizationDeposit]:
    """Sign the deposit's authorization and build its ``depositWithAuthorization`` call,
    reading nothing from the chain: a flow whose nonce and time are given (a journey's
    `Random` and `Now` steps) and whose signature is a `Sign` step.

    Args:
        signer: the USDC holder.
        plan: from `check_authorization_deposit`.
        target: from `deposit_target` (the registry's wallet and USDC, once the
            backend's chain list agrees with them).
        nonce: the authorization's 32-byte nonce, ``0x`` hex.
        now: the time, in Unix seconds (the authorization is valid for an hour).
        token_name: USDC's EIP-712 name, when the registry does not pin it (the
            caller's, or `token_domain`'s).
        token_version: USDC's EIP-712 version, likewise.
        registry: the pinned chains; `xswap_sdk.registry.DEFAULT_REGISTRY` when not
            given.

    Returns:
        The call on the GatewayWallet, with the authorization; anyone may send it.

    Raises:
        InvalidInputError: no known token name and version for the chain.
        UnsafePayloadError: the call or its authorization names another contract,
            token, owner or amount than the target and the plan.
    """
    pins = DEFAULT_REGISTRY if registry is None else registry
    signed = yield from _signing_deposit_authorization(
        signer,
        chain_id=plan.chain_id,
        value=plan.amount,
        nonce=nonce,
        now=now,
        token_name=token_name,
        token_version=token_version,
        registry=pins,
    )
    call = deposit_with_authorization_call(signed, registry=pins)
    authorization = call.authorization
    require_addresses(
        ("transaction.to", call.to, target.gateway_wallet),
        ("authorization.to", authorization.to, target.gateway_wallet),
        ("authorization.token", authorization.token, target.usdc),
        ("authorization.authorizer", authorization.authorizer, plan.owner),
    )
    if authorization.value != plan.amount:
        raise UnsafePayloadError(
            "authorization.value", expected=plan.amount, received=authorization.value
        )
    return call
