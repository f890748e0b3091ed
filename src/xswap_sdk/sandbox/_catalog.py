"""The sandbox's fixed world: chains, tokens and USD prices, shared by all three services.

Chain ids, Circle Gateway domains, the Gateway contracts and the token addresses are the
real mainnet ones; the Gateway's facts (domains, contracts, USDC) are read from
`xswap_sdk.registry`, so the sandbox and the SDK's checks share one source. Addresses
that belong to the services themselves (the swap router, the routing contract) are not
public, so they are derived from a label: obviously made up, and the same in every
sandbox. Logos point at ``sandbox.invalid``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Final

from eth_hash.auto import keccak

from ..registry import DEFAULT_REGISTRY
from ..registry import GATEWAY_MINTER_MAINNET as GATEWAY_MINTER
from ..registry import GATEWAY_WALLET_MAINNET as GATEWAY_WALLET
from ..registry import PERMIT2 as PERMIT2
from ..types import to_checksum

__all__ = [
    "CHAINS",
    "GATEWAY_MINTER",
    "GATEWAY_WALLET",
    "NATIVE_TOKEN",
    "PERMIT2",
    "TOKENS",
    "Chain",
    "Token",
    "derived_address",
    "find_token",
    "logo",
    "token_json",
    "usdc",
]

NATIVE_TOKEN: Final = "0x0000000000000000000000000000000000000000"
"""How the swap backend writes a chain's native token address."""


@functools.cache
def derived_address(label: str) -> str:
    """A made-up but stable address: the last 20 bytes of keccak256(label)."""
    return to_checksum("0x" + keccak(label.encode())[-20:].hex())


def logo(name: str) -> str:
    """A placeholder logo URL."""
    return f"https://sandbox.invalid/logos/{name.lower()}.svg"


@dataclass(frozen=True, slots=True)
class Chain:
    """One EVM chain as the sandbox knows it."""

    id: int
    key: str
    display_name: str
    native_symbol: str
    native_name: str
    native_usd: float
    marketdata_id: str
    explorer_url: str
    rpc_url: str
    gas_price_wei: int
    gateway_domain: int | None = None
    """The Circle Gateway domain, for the chains the swap backend serves."""
    gateway_min_fee: int = 0
    """The least ``maxFee`` Gateway accepts on this source chain, in USDC units."""

    @property
    def router(self) -> str:
        """The swap backend's router on this chain (made up)."""
        return derived_address(f"xswap-sandbox swap router {self.id}")

    @property
    def routing_contract(self) -> str:
        """The routing service's contract on this chain (made up)."""
        return derived_address(f"xswap-sandbox routing contract {self.id}")


_GWEI = 10**9


def _domain(chain_id: int) -> int:
    return DEFAULT_REGISTRY.chain(chain_id).domain


CHAINS: Final[dict[int, Chain]] = {
    chain.id: chain
    for chain in (
        Chain(1, "ethereum", "Ethereum", "ETH", "Ether", 3200.0, "ethereum",
              "https://etherscan.io", "https://ethereum-rpc.publicnode.com", 12 * _GWEI,
              gateway_domain=_domain(1), gateway_min_fee=2_000_000),
        Chain(8453, "base", "Base", "ETH", "Ether", 3200.0, "ethereum",
              "https://basescan.org", "https://mainnet.base.org", _GWEI // 100,
              gateway_domain=_domain(8453), gateway_min_fee=10_000),
        Chain(42161, "arbitrum", "Arbitrum One", "ETH", "Ether", 3200.0, "ethereum",
              "https://arbiscan.io", "https://arb1.arbitrum.io/rpc", _GWEI // 100,
              gateway_domain=_domain(42161), gateway_min_fee=10_000),
        Chain(10, "optimism", "OP Mainnet", "ETH", "Ether", 3200.0, "ethereum",
              "https://optimistic.etherscan.io", "https://mainnet.optimism.io", _GWEI // 1000),
        Chain(137, "polygon", "Polygon", "MATIC", "Polygon", 0.45, "matic-network",
              "https://polygonscan.com", "https://polygon-rpc.com", 35 * _GWEI),
        Chain(56, "bsc", "BNB Smart Chain", "BNB", "BNB", 600.0, "binancecoin",
              "https://bscscan.com", "https://bsc-dataseed.bnbchain.org", _GWEI),
        Chain(999, "hyperevm", "HyperEVM", "HYPE", "Hype", 25.0, "hyperliquid",
              "https://hyperevmscan.io", "https://rpc.hyperliquid.xyz/evm", _GWEI // 10),
        Chain(143, "monad", "Monad", "MON", "Monad", 0.05, "monad",
              "https://monadscan.com", "https://rpc.monad.xyz", 50 * _GWEI),
        Chain(50, "xdc", "XDC Network", "XDC", "XDC", 0.06, "xdce-crowd-sale",
              "https://xdcscan.com", "https://rpc.xdcrpc.com", 12 * _GWEI),
        Chain(130, "unichain", "Unichain", "UNI", "Uniswap", 10.0, "uniswap",
              "https://uniscan.xyz", "https://mainnet.unichain.org", _GWEI // 1000),
        Chain(4663, "chain4663", "Chain 4663", "ETH", "Ether", 3200.0, "ethereum",
              "https://sandbox.invalid/explorer/4663", "https://sandbox.invalid/rpc/4663",
              _GWEI // 100),
    )
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Token:
    """A token on one chain, with the fixed USD price quotes are made from."""

    chain_id: int
    address: str
    symbol: str
    name: str
    decimals: int
    price_usd: float

    @property
    def is_native(self) -> bool:
        """Whether this is the chain's native token (the all-zero address)."""
        return self.address == NATIVE_TOKEN

    @property
    def is_usdc(self) -> bool:
        """Whether this is native USDC."""
        return self.symbol == "USDC"


def _tokens(chain_id: int, *rows: tuple[str, str, str, int, float]) -> list[Token]:
    chain = CHAINS[chain_id]
    native = Token(chain_id, NATIVE_TOKEN, chain.native_symbol, chain.native_name, 18,
                   chain.native_usd)  # fmt: skip
    return [native, *(Token(chain_id, to_checksum(a), s, n, d, p) for a, s, n, d, p in rows)]


_USDC = ("USDC", "USD Coin", 6, 1.0)


def _usdc_row(chain_id: int) -> tuple[str, str, str, int, float]:
    """Native USDC's row: its address from the registry."""
    return (DEFAULT_REGISTRY.chain(chain_id).usdc, *_USDC)


_ETH_USD = 3200.0
_BTC_USD = 95000.0

TOKENS: Final[list[Token]] = [
    *_tokens(
        1,
        _usdc_row(1),
        ("0xdAC17F958D2ee523a2206206994597C13D831ec7", "USDT", "Tether USD", 6, 1.0),
        ("0x6B175474E89094C44Da98b954EedeAC495271d0F", "DAI", "Dai Stablecoin", 18, 1.0),
        ("0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", "WETH", "Wrapped Ether", 18, _ETH_USD),
        ("0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599", "WBTC", "Wrapped BTC", 8, _BTC_USD),
    ),
    *_tokens(
        8453,
        _usdc_row(8453),
        ("0x4200000000000000000000000000000000000006", "WETH", "Wrapped Ether", 18, _ETH_USD),
        ("0xcbB7C0000aB88B473b1f5aFd9ef808440eed33Bf", "cbBTC", "Coinbase Wrapped BTC", 8,
         _BTC_USD),
        ("0x940181a94A35A4569E4529A3CDfB74e38FD98631", "AERO", "Aerodrome", 18, 1.1),
        ("0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb", "DAI", "Dai Stablecoin", 18, 1.0),
    ),
    *_tokens(
        42161,
        _usdc_row(42161),
        ("0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", "USDT", "Tether USD", 6, 1.0),
        ("0x82aF49447D8a07e3bd95BD0d56f35241523fBab1", "WETH", "Wrapped Ether", 18, _ETH_USD),
        ("0x912CE59144191C1204E64559FE8253a0e49E6548", "ARB", "Arbitrum", 18, 0.75),
        ("0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f", "WBTC", "Wrapped BTC", 8, _BTC_USD),
    ),
    *_tokens(10, _usdc_row(10)),
    *_tokens(137, _usdc_row(137)),
]  # fmt: skip
"""Every token the sandbox can quote, per chain; the native token first."""


def token_json(token: Token) -> dict[str, Any]:
    """A token in the camelCase shape both services use for search results."""
    return {
        "address": token.address,
        "chainId": token.chain_id,
        "decimals": token.decimals,
        "logoUrl": logo(token.symbol),
        "name": token.name,
        "symbol": token.symbol,
    }


def find_token(chain_id: int, address: str) -> Token | None:
    """The token at ``address`` (any case) on ``chain_id``, if the sandbox knows it."""
    wanted = address.lower()
    return next((t for t in TOKENS if t.chain_id == chain_id and t.address.lower() == wanted), None)


def usdc(chain_id: int) -> Token:
    """Native USDC on ``chain_id`` (one of the chains the catalogue lists it on)."""
    return next(t for t in TOKENS if t.chain_id == chain_id and t.is_usdc)
