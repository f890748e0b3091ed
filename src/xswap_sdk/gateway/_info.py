"""What ``GET /v1/info`` answers: the models Gateway's first read validates.

Written apart from `xswap_sdk.gateway.models`, which exports them and names itself
their module, so that a fresh process's `GatewayClient.get_info` builds these three
classes and not Gateway's other models (balances, estimates, transfers, mints), nor the
simulation and signing types their fields hold.
"""

from __future__ import annotations

from .._exports import name_by_home
from .._models import LenientAddress, LenientInt, WireModel

__all__ = ["ContractInfo", "DomainInfo", "GatewayInfo"]


class ContractInfo(WireModel):
    """One of a domain's Gateway contracts, as ``/v1/info`` describes it.

    Compare the address with `xswap_sdk.registry` before trusting it: the SDK never
    takes a contract address from a service.
    """

    address: LenientAddress
    """The contract (an EVM address, or another chain's account)."""
    supported_tokens: list[str]
    """The tokens it handles (``["USDC"]``)."""


class DomainInfo(WireModel):
    """A domain Gateway serves (``GET /v1/info``)."""

    chain: str
    """The chain's name (``"Ethereum"``)."""
    network: str
    """Its network (``"Mainnet"``, ``"Sepolia"``)."""
    domain: LenientInt
    """The Gateway domain number."""
    wallet_contract: ContractInfo
    """Its GatewayWallet, which holds deposits and burns what transfers spend."""
    minter_contract: ContractInfo
    """Its GatewayMinter, which mints transfers on this domain."""
    processed_height: LenientInt
    """The last block Gateway has processed on this domain."""
    burn_intent_expiration_height: LenientInt
    """The least ``maxBlockHeight`` a burn intent from this domain may carry now; it
    moves with the chain, so add a margin."""


class GatewayInfo(WireModel):
    """What ``GET /v1/info`` returns: the API version and the domains served."""

    version: LenientInt
    """The API version (``1``)."""
    domains: list[DomainInfo]
    """Every domain Gateway serves."""

    def domain(self, domain: int) -> DomainInfo | None:
        """The entry of Gateway domain ``domain``, or ``None`` when it is not served."""
        return next((entry for entry in self.domains if entry.domain == domain), None)


# Named by their public home (see `name_by_home`).
name_by_home(globals(), "xswap_sdk.gateway.models")
