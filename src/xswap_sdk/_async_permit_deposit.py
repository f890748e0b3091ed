"""`async_prepare_deposit_with_permit`: read the token, sign a permit, build the deposit.

The hand-written source of ``_sync_permit_deposit.py`` (`prepare_deposit_with_permit`),
which ``scripts/unasync.py`` generates; the pure parts are in ``signing/deposit.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._async_web3 import async_permit_facts
from .signing.deposit import DepositTransaction, deposit_arguments, permit_deposit
from .signing.signer import Signer

if TYPE_CHECKING:
    from web3 import AsyncWeb3

__all__ = ["async_prepare_deposit_with_permit"]


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
    """Read the token, sign a permit for the gateway wallet, and build the deposit.

    Reads the USDC ``name()``, ``version()`` (when the token has none: ``usdc_version``,
    which is the chain configuration's ``usdc.version``, then ``"2"``), the signer's
    ``nonces(owner)`` and the chain id, then signs the permit with the gateway wallet
    as spender. Before signing, the permit's EIP-712 domain (that name and version, the
    chain id, the token) is compared with the token's own ``DOMAIN_SEPARATOR()`` when it
    has one: a permit the token would refuse is not signed. Needs the ``web3`` extra:
    ``pip install ".[web3]"`` in a checkout.

    The ``gateway_wallet`` and ``usdc`` given here are signed as they are: take them
    from `xswap_sdk.registry` (``FlashClient.deposit`` does), not from a service.

    Args:
        web3: a connected `web3.AsyncWeb3`.
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
    owner, args = deposit_arguments(signer, gateway_wallet, usdc, value, deadline, usdc_version)
    facts = await async_permit_facts(web3, args.usdc, owner)
    return permit_deposit(signer, args, facts)
