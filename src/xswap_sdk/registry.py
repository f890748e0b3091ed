"""Facts the SDK pins instead of taking them from a service.

A value that ends up under the caller's signature comes from the caller, from this
registry, or is checked against it before anything is signed. The swap backend serves
its own chain list (domains, Gateway contracts, USDC addresses); the SDK compares it with
the entries here and refuses (`xswap_sdk.errors.UnsafePayloadError`) when they disagree,
so a compromised or spoofed backend cannot point a burn intent or a permit at another
contract.

What is pinned:

- Circle Gateway's `GatewayWallet` and `GatewayMinter`, which have the same address on
  every EVM chain (one pair for mainnets, one for testnets);
- each supported chain's Gateway domain and the address of native USDC there;
- Circle Gateway on Solana (domain 5): its GatewayWallet and GatewayMinter programs
  and the USDC mint, mainnet and devnet, in base58 (``family="solana"``);
- Uniswap's `Permit2`, the same address on every EVM chain;
- where it is known, the EIP-712 name and version of native USDC's own domain, which
  permits and EIP-3009 authorizations are signed for (``"USD Coin"``, ``"2"`` on
  Ethereum, Base and Arbitrum One; ``"USDC"``, ``"2"`` on Base Sepolia). Elsewhere the
  caller names them, or the SDK reads them from the token where web3 is at hand;
- the swap backend's routers (`SwapRouter`): per chain, a router a burn intent may pay
  (its ``destinationRecipient`` and ``destinationCaller``) and the id of the format its
  ``hook_data`` and ``swap_calldata`` are read with (`Registry.router_formats`).

Routers: **none is pinned by default.** Rath publishes no deployment of the Flash swap
router: its API documentation (https://docs.rath.fi/xPath/f-spot, "Supported Chains")
shows ``"routerAddress": "0x..."`` only, and its public examples
(github.com/RathFinance/tachyon-examples, tachyon-forwarder, Tachyon-Account) cover the
routing service and the relayer, not Flash; nor is the layout of the router's
``hook_data`` published. So `DEFAULT_REGISTRY` pins no router, and a swap is refused
until the caller pins the router they vetted (``trusted_routers=`` on the client, or
`Registry.with_routers`), or opts in to the service's choice by name
(``unsafe_trust_service_parties=True``). One router format is known, the sandbox's
(`xswap_sdk._router_formats.SANDBOX_ROUTER_FORMAT`); add others with
`Registry.with_router_format`.

Sources (read when the table was written; Circle adds chains over time):

- https://developers.circle.com/gateway/references/supported-blockchains (domains)
- https://developers.circle.com/gateway/references/contract-addresses (Gateway contracts)
- https://developers.circle.com/stablecoins/usdc-contract-addresses (native USDC)
- https://developers.circle.com/cctp/evm-smart-contracts (the same domain numbers, which
  Gateway shares with CCTP)
- https://github.com/Uniswap/permit2 (Permit2's deterministic address)
- https://developers.circle.com/gateway/references/solana-programs and Circle's
  Unified Balance Kit (Solana programs and mints; see ``_SOLANA_MAINNET`` below)
- USDC's EIP-712 domains: the tokens' own ``name()`` and ``version()`` on Ethereum,
  Base and Arbitrum One, and coinbase/x402's table of EIP-3009 domains
  (``go/mechanisms/evm/constants.go``: Base ``USD Coin``, Base Sepolia ``USDC``)

To sign against a chain or a contract that is not pinned here, add it explicitly:

```python
from xswap_sdk.registry import DEFAULT_REGISTRY, GatewayChain

registry = DEFAULT_REGISTRY.with_chains(
    GatewayChain(chain_id=..., name="...", domain=..., usdc="0x...",
                 gateway_wallet="0x...", gateway_minter="0x...", testnet=False)
)
```

and give that registry to the client (or to the pure functions that take ``registry=``).
Nothing else lets the SDK sign for a contract outside the registry.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal, get_args

from ._base58 import KEY_BYTES, encode, solana_key_bytes
from ._record import Frozen
from ._router_formats import (
    SANDBOX_ROUTER_FORMAT,
    RouterDecoder,
    RouterTerms,
    decode_sandbox_router,
)
from .chains import SOLANA, SOLANA_DEVNET
from .errors import InvalidInputError, UnsafePayloadError
from .types import to_checksum

__all__ = [
    "DEFAULT_FEE_CAP_BPS",
    "DEFAULT_MAX_FEE",
    "DEFAULT_REGISTRY",
    "DEFAULT_TOTAL_FEE_CAP_INTENTS",
    "FINALITY_SECONDS",
    "GATEWAY_MINTER_MAINNET",
    "GATEWAY_MINTER_TESTNET",
    "GATEWAY_WALLET_MAINNET",
    "GATEWAY_WALLET_TESTNET",
    "PERMIT2",
    "GatewayFamily",
    "ROUTING_CONTRACTS",
    "GatewayChain",
    "Registry",
    "RouterDecoder",
    "RouterTerms",
    "SwapRouter",
    "routing_contract_of",
]

# The default caps on what Circle Gateway may charge: one place, read by signing
# (burn_intents.DEFAULT_MAX_FEE), gateway (its fee estimate's cap) and flash (the swap's
# fee caps, flash._trust.default_max_fee_cap and default_max_total_fee).

DEFAULT_MAX_FEE: Final = 2_010_000
"""2.01 USDC: a burn intent's default ``maxFee``, and the fixed part of the default cap
on a gateway fee, per burn intent. Source: the swap backend's spec ("``maxFee`` is the
gateway fee (quote ``fees.gateway_fee``); the helper default is 2010000 smallest
units"), the value Circle's own kit writes by default (2 010 000, for a Solana source
too). Circle Gateway's gas fee per source chain is at most 2.00 USDC (Ethereum; cents
elsewhere), so it covers every chain."""

DEFAULT_FEE_CAP_BPS: Final = 1
"""The proportional part of the default cap on a gateway fee, in basis points of the
amount: 1 bp, twice Circle Gateway's transfer fee (0.5 bp of the value) for headroom."""

DEFAULT_TOTAL_FEE_CAP_INTENTS: Final = 2
"""How many intents at `DEFAULT_MAX_FEE` the default cap on an order's *total* fee
allows: an order from two source chains at the spec's default ``maxFee`` passes; one
spread over more chains by the reported balances needs the caller's own cap."""

PERMIT2: Final = "0x000000000022D473030F116dDEE9F6B43aC78BA3"
"""Uniswap's Permit2, deployed at the same address on every EVM chain (CREATE2)."""

GATEWAY_WALLET_MAINNET: Final = "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE"
"""Circle Gateway's GatewayWallet on every EVM mainnet."""

GATEWAY_MINTER_MAINNET: Final = "0x2222222d7164433c4C09B0b0D809a9b52C04C205"
"""Circle Gateway's GatewayMinter on every EVM mainnet."""

GATEWAY_WALLET_TESTNET: Final = "0x0077777d7EBA4688BDeF3E311b846F25870A19B9"
"""Circle Gateway's GatewayWallet on every EVM testnet."""

GATEWAY_MINTER_TESTNET: Final = "0x0022222ABE238Cc2C7Bb1f21003F0a260052475B"
"""Circle Gateway's GatewayMinter on every EVM testnet."""

_MAX_UINT32 = 2**32 - 1

GatewayFamily = Literal["evm", "solana"]
"""The kinds of chain Circle Gateway serves: EVM chains (20-byte addresses, EIP-712
burn intents) and Solana (32-byte base58 keys, Ed25519 burn intents)."""

_FAMILIES: Final = frozenset(get_args(GatewayFamily))


def _address(field: str, value: object) -> str:
    try:
        return to_checksum(value)
    except ValueError as exc:
        raise InvalidInputError(field, str(exc)) from None


def _solana_address(field: str, value: object) -> str:
    """A Solana key as base58, from base58, ``0x`` + 64 hex digits (its bytes32 form),
    or anything whose ``bytes()`` are 32 (a solders ``Pubkey``)."""
    raw: bytes | None = None
    if isinstance(value, str) and value[:2] in ("0x", "0X") and len(value) == 66:
        try:
            raw = bytes.fromhex(value[2:])
        except ValueError:
            raw = None
    elif isinstance(value, str):
        try:
            raw = solana_key_bytes(value)
        except ValueError:
            raw = None
    elif hasattr(value, "__bytes__") or isinstance(value, bytes | bytearray):
        raw = bytes(value)
    if raw is None or len(raw) != KEY_BYTES:
        raise InvalidInputError(
            field, "must be a Solana address: base58 of 32 bytes (or 0x + 64 hex digits)"
        )
    return encode(raw)


def _whole(field: str, value: object, *, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(field, "must be an int")
    if value < low or (high is not None and value > high):
        top = f" and at most {high}" if high is not None else ""
        raise InvalidInputError(field, f"must be at least {low}{top}")
    return value


@dataclass(init=False, repr=False, eq=False, slots=True)
class GatewayChain(Frozen):
    """One chain as Circle Gateway knows it: an EVM chain, or Solana.

    EVM addresses may be given in any case (a mixed-case one must carry a valid EIP-55
    checksum) and are kept checksummed. Solana addresses (``family="solana"``) are kept
    in base58; they may be given in base58, as ``0x`` + 64 hex digits or as a solders
    ``Pubkey``, and compare equal whichever way they were given.

    Attributes:
        chain_id: the EVM chain id (``8453`` for Base); for Solana, the id the SDK files
            it under (`xswap_sdk.chains.SOLANA`, `xswap_sdk.chains.SOLANA_DEVNET`).
        name: a readable name, used in messages.
        domain: the Circle Gateway (and CCTP) domain number (``6`` for Base).
        usdc: native USDC on this chain (on Solana, the USDC mint).
        gateway_wallet: the GatewayWallet contract (a burn intent's ``sourceContract``,
            the spender of a deposit permit); on Solana, the GatewayWallet program.
        gateway_minter: the GatewayMinter contract (a burn intent's
            ``destinationContract``); on Solana, the GatewayMinter program.
        testnet: whether this is a test network. Mainnets and testnets share domain
            numbers, so a domain names a chain only together with this flag.
        usdc_eip712_name: the ``name`` of USDC's EIP-712 domain (its ``name()``), or
            ``None`` when the SDK does not pin it.
        usdc_eip712_version: the ``version`` of that domain (its ``version()``), or
            ``None``.
        family: ``"evm"`` (the default) or ``"solana"``: how its addresses are written
            and how its burn intents are signed.

    Raises:
        InvalidInputError: a field of the wrong type or range, or a bad address.
    """

    chain_id: int
    name: str
    domain: int
    usdc: str
    gateway_wallet: str
    gateway_minter: str
    testnet: bool
    usdc_eip712_name: str | None = None
    usdc_eip712_version: str | None = None
    family: GatewayFamily = "evm"

    def __init__(
        self,
        chain_id: int,
        name: str,
        domain: int,
        usdc: str,
        gateway_wallet: str,
        gateway_minter: str,
        testnet: bool,
        usdc_eip712_name: str | None = None,
        usdc_eip712_version: str | None = None,
        family: GatewayFamily = "evm",
    ) -> None:
        object.__setattr__(self, "chain_id", chain_id)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "domain", domain)
        object.__setattr__(self, "usdc", usdc)
        object.__setattr__(self, "gateway_wallet", gateway_wallet)
        object.__setattr__(self, "gateway_minter", gateway_minter)
        object.__setattr__(self, "testnet", testnet)
        object.__setattr__(self, "usdc_eip712_name", usdc_eip712_name)
        object.__setattr__(self, "usdc_eip712_version", usdc_eip712_version)
        object.__setattr__(self, "family", family)
        self.__post_init__()

    def __post_init__(self) -> None:
        _whole("chain_id", self.chain_id, low=1)
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidInputError("name", "must be a non-empty str")
        for field in ("usdc_eip712_name", "usdc_eip712_version"):
            value = getattr(self, field)
            if value is not None and (not isinstance(value, str) or not value):
                raise InvalidInputError(field, "must be a non-empty str, or None")
        _whole("domain", self.domain, low=0, high=_MAX_UINT32)
        if not isinstance(self.testnet, bool):
            raise InvalidInputError("testnet", "must be True or False")
        if self.family not in _FAMILIES:
            raise InvalidInputError("family", 'must be "evm" or "solana"')
        if self.family == "solana" and self.usdc_eip712_name is not None:
            raise InvalidInputError("usdc_eip712_name", "must be None on Solana (no EIP-712)")
        normalise = _address if self.family == "evm" else _solana_address
        for field in ("usdc", "gateway_wallet", "gateway_minter"):
            # The dataclass is frozen; normalising in place is its own constructor's job.
            object.__setattr__(self, field, normalise(field, getattr(self, field)))

    def require_evm(self, argument: str = "chain_id") -> GatewayChain:
        """This chain, when it is an EVM chain (for what only EVM contracts do: permits,
        EIP-3009 authorizations, contract calls).

        Raises:
            InvalidInputError: it is Solana, named ``argument``.
        """
        if self.family != "evm":
            raise InvalidInputError(
                argument,
                f"{self.name} ({self.chain_id}) is not an EVM chain: Gateway's programs there "
                "take Solana instructions (xswap_sdk.signing.solana_programs) and burn "
                "intents signed with a Solana key",
            )
        return self


@dataclass(init=False, repr=False, eq=False, slots=True)
class SwapRouter(Frozen):
    """A swap backend router pinned on one chain: a burn intent may name it as its
    ``destinationRecipient`` and ``destinationCaller``.

    Attributes:
        chain_id: the destination chain it runs on.
        address: the router contract (kept checksummed).
        output_format: the id of the format its ``hook_data`` and ``swap_calldata`` are
            read in (a key of `Registry.router_formats`), or ``None`` when it is not
            known; a swap through a router of unknown format is refused unless the
            caller passes ``unsafe_trust_router_output=True``.
        name: a readable name, for messages.

    Raises:
        InvalidInputError: a bad chain id, address or format id.
    """

    chain_id: int
    address: str
    output_format: str | None = None
    name: str | None = None

    def __init__(
        self,
        chain_id: int,
        address: str,
        output_format: str | None = None,
        name: str | None = None,
    ) -> None:
        object.__setattr__(self, "chain_id", chain_id)
        object.__setattr__(self, "address", address)
        object.__setattr__(self, "output_format", output_format)
        object.__setattr__(self, "name", name)
        self.__post_init__()

    def __post_init__(self) -> None:
        _whole("chain_id", self.chain_id, low=1)
        object.__setattr__(self, "address", _address("address", self.address))
        if self.output_format is not None and (
            not isinstance(self.output_format, str) or not self.output_format
        ):
            raise InvalidInputError("output_format", "must be a non-empty str, or None")


# The EIP-712 domains of native USDC the SDK pins (see the module docstring's sources).
_USD_COIN_V2 = ("USD Coin", "2")
_USDC_V2 = ("USDC", "2")


# Circle Gateway on Solana (domain 5): the programs and USDC mints, mainnet and devnet.
# Programs: Circle's "Gateway on Solana" program page (mainnet,
# developers.circle.com/gateway/references/solana-programs) and contract-addresses page
# (devnet), the same in Circle's Unified Balance Kit (npm @circle-fin/provider-gateway-v1
# 1.5.0, chain definitions Solana and SolanaDevnet) and its Gateway skill
# (github.com/circlefin/skills, plugins/circle/skills/use-gateway/SKILL.md). The program
# ids in circlefin/solana-gateway-contracts' source are placeholders of that build, not
# these. USDC mints: the kit's usdcAddress of each chain (and the skill's devnet table).
_SOLANA_MAINNET: Final = (
    "GATEwy4YxeiEbRJLwB6dXgg7q61e6zBPrMzYj5h1pRXQ",  # GatewayWallet
    "GATEm5SoBJiSw1v2Pz1iPBgUYkXzCUJ27XSXhDfSyzVZ",  # GatewayMinter
    "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",  # USDC
)
_SOLANA_DEVNET: Final = (
    "GATEwdfmYNELfp5wDmmR6noSr2vHnAfBPMm2PvCzX5vu",
    "GATEmKK2ECL1brEngQZWCgMWPbvrEYqsV6u29dAaHavr",
    "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
)
_SOLANA_DOMAIN: Final = 5


def _solana(
    chain_id: int, name: str, addresses: tuple[str, str, str], testnet: bool
) -> GatewayChain:
    wallet, minter, usdc = addresses
    return GatewayChain(
        chain_id, name, _SOLANA_DOMAIN, usdc, wallet, minter, testnet, family="solana"
    )


_SANDBOX_FORMATS: Final[Mapping[str, RouterDecoder]] = {
    SANDBOX_ROUTER_FORMAT: decode_sandbox_router
}


def _evm(
    chain_id: int, name: str, domain: int, usdc: str, eip712: tuple[str, str] | None, testnet: bool
) -> GatewayChain:
    # Circle deploys the Gateway contracts at one pair of addresses on every EVM mainnet,
    # and at another on every EVM testnet.
    if testnet:
        wallet, minter = GATEWAY_WALLET_TESTNET, GATEWAY_MINTER_TESTNET
    else:
        wallet, minter = GATEWAY_WALLET_MAINNET, GATEWAY_MINTER_MAINNET
    token_name, token_version = eip712 or (None, None)
    return GatewayChain(
        chain_id, name, domain, usdc, wallet, minter, testnet, token_name, token_version
    )


def _mainnet(
    chain_id: int, name: str, domain: int, usdc: str, eip712: tuple[str, str] | None = None
) -> GatewayChain:
    return _evm(chain_id, name, domain, usdc, eip712, testnet=False)


def _testnet(
    chain_id: int, name: str, domain: int, usdc: str, eip712: tuple[str, str] | None = None
) -> GatewayChain:
    return _evm(chain_id, name, domain, usdc, eip712, testnet=True)


class Registry:
    """An immutable set of `GatewayChain` entries, looked up by chain id or by domain.

    ``chain_id in registry`` and ``for chain in registry`` work as expected; two
    registries are equal when they hold the same entries.

    Args:
        chains: the entries. A chain id may appear once, and a domain once per network
            (mainnet or testnet).
        routers: the pinned swap routers (`SwapRouter`), any number per chain.
        router_formats: ``{format id: decoder}`` (`RouterDecoder`), the router formats
            the SDK can read; the sandbox router's format when not given.

    Raises:
        InvalidInputError: not `GatewayChain` entries, a chain id given twice, or two
            chains of one network sharing a domain; a router that is not a
            `SwapRouter`; a format that is not a callable under a non-empty id.
    """

    __slots__ = ("_by_domain", "_chains", "_formats", "_routers")

    _chains: Mapping[int, GatewayChain]
    _by_domain: Mapping[tuple[int, bool], GatewayChain]
    _routers: Mapping[tuple[int, str], SwapRouter]
    _formats: Mapping[str, RouterDecoder]

    def __init__(
        self,
        chains: Iterable[GatewayChain] = (),
        *,
        routers: Iterable[SwapRouter] = (),
        router_formats: Mapping[str, RouterDecoder] | None = None,
    ) -> None:
        by_id: dict[int, GatewayChain] = {}
        by_domain: dict[tuple[int, bool], GatewayChain] = {}
        for chain in chains:
            if not isinstance(chain, GatewayChain):
                raise InvalidInputError("chains", "must hold GatewayChain entries")
            if chain.chain_id in by_id:
                raise InvalidInputError("chains", f"name chain {chain.chain_id} twice")
            other = by_domain.get((chain.domain, chain.testnet))
            if other is not None:
                raise InvalidInputError(
                    "chains",
                    f"give domain {chain.domain} to both {other.name} ({other.chain_id}) "
                    f"and {chain.name} ({chain.chain_id}): a domain names one chain",
                )
            by_id[chain.chain_id] = chain
            by_domain[(chain.domain, chain.testnet)] = chain
        object.__setattr__(self, "_chains", MappingProxyType(by_id))
        object.__setattr__(self, "_by_domain", MappingProxyType(by_domain))
        pinned: dict[tuple[int, str], SwapRouter] = {}
        for router in routers:
            if not isinstance(router, SwapRouter):
                raise InvalidInputError("routers", "must hold SwapRouter entries")
            pinned[(router.chain_id, router.address)] = router
        object.__setattr__(self, "_routers", MappingProxyType(pinned))
        formats = _SANDBOX_FORMATS if router_formats is None else dict(router_formats)
        for key, decoder in formats.items():
            if not isinstance(key, str) or not key or not callable(decoder):
                raise InvalidInputError(
                    "router_formats", "must map non-empty format ids to decoder functions"
                )
        object.__setattr__(self, "_formats", MappingProxyType(formats))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a Registry cannot be changed; use with_chains() for a new one")

    def chain(self, chain_id: int) -> GatewayChain:
        """The entry of ``chain_id``.

        Raises:
            UnsafePayloadError: the registry does not know the chain, so nothing may be
                signed for it; the message says how to add it.
        """
        found = self.get(chain_id)
        if found is None:
            raise UnsafePayloadError(
                "chain_id",
                expected="a chain pinned in the SDK's registry",
                received=chain_id,
                hint=(
                    "To sign for a chain the SDK does not pin, add it yourself: "
                    "DEFAULT_REGISTRY.with_chains(GatewayChain(chain_id=..., domain=..., "
                    "usdc=..., gateway_wallet=..., gateway_minter=..., ...)) from "
                    "xswap_sdk.registry, and pass that registry to the client."
                ),
            )
        return found

    def get(self, chain_id: int) -> GatewayChain | None:
        """The entry of ``chain_id``, or ``None`` when the registry does not know it."""
        if isinstance(chain_id, bool) or not isinstance(chain_id, int):
            return None
        return self._chains.get(chain_id)

    def by_domain(self, domain: int, *, testnet: bool) -> GatewayChain | None:
        """The chain with Gateway ``domain`` on mainnet (``testnet=False``) or testnet,
        or ``None``."""
        return self._by_domain.get((domain, bool(testnet)))

    def with_chains(self, *chains: GatewayChain) -> Registry:
        """A new registry with ``chains`` added, each replacing the entry of its chain id.

        This is the only way to let the SDK sign for a chain or a contract it does not
        pin. The registry it is called on is left as it was.

        Raises:
            InvalidInputError: an entry that is not a `GatewayChain`, or one whose
                domain another chain of its network already has.
        """
        replaced = {chain.chain_id for chain in chains if isinstance(chain, GatewayChain)}
        kept = [chain for chain in self._chains.values() if chain.chain_id not in replaced]
        return Registry(
            [*kept, *chains], routers=self._routers.values(), router_formats=self._formats
        )

    # -- swap routers

    @property
    def routers(self) -> tuple[SwapRouter, ...]:
        """Every pinned swap router."""
        return tuple(self._routers.values())

    @property
    def router_formats(self) -> Mapping[str, RouterDecoder]:
        """``{format id: decoder}``: the router formats the SDK can read."""
        return self._formats

    def router(self, chain_id: int, address: str) -> SwapRouter | None:
        """The pinned router ``address`` on ``chain_id``, or ``None`` when it is not pinned."""
        try:
            key = (chain_id, to_checksum(address))
        except ValueError:
            return None
        return self._routers.get(key)

    def with_routers(self, *routers: SwapRouter) -> Registry:
        """A new registry that also pins ``routers`` (each replacing the entry of the same
        chain and address). The registry it is called on is left as it was.

        Raises:
            InvalidInputError: an entry that is not a `SwapRouter`.
        """
        for router in routers:
            if not isinstance(router, SwapRouter):
                raise InvalidInputError("routers", "must be SwapRouter entries")
        merged = {**self._routers, **{(r.chain_id, r.address): r for r in routers}}
        return Registry(
            self._chains.values(), routers=merged.values(), router_formats=self._formats
        )

    def with_router_format(self, format_id: str, decoder: RouterDecoder) -> Registry:
        """A new registry that can read routers of format ``format_id`` with ``decoder``
        (a `RouterDecoder`: ``(hook_data, swap_calldata) -> [RouterTerms, ...]``,
        raising `ValueError` for bytes not in its format).

        Raises:
            InvalidInputError: an empty id or a decoder that is not callable.
        """
        return Registry(
            self._chains.values(),
            routers=self._routers.values(),
            router_formats={**self._formats, format_id: decoder},
        )

    def __contains__(self, chain_id: object) -> bool:
        if isinstance(chain_id, GatewayChain):
            return self._chains.get(chain_id.chain_id) == chain_id
        return isinstance(chain_id, int) and self.get(chain_id) is not None

    def __iter__(self) -> Iterator[GatewayChain]:
        return iter(self._chains.values())

    def __len__(self) -> int:
        return len(self._chains)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Registry):
            return NotImplemented
        return (
            dict(self._chains) == dict(other._chains)
            and dict(self._routers) == dict(other._routers)
            and dict(self._formats) == dict(other._formats)
        )

    def __hash__(self) -> int:
        return hash((frozenset(self._chains.values()), frozenset(self._routers.values())))

    def __repr__(self) -> str:
        mainnets = sum(1 for chain in self if not chain.testnet)
        return f"Registry({mainnets} mainnet and {len(self) - mainnets} testnet chains)"


DEFAULT_REGISTRY: Final = Registry(
    [
        # Mainnets. Domains: Circle's "Gateway supported blockchains" page; USDC: Circle's
        # "USDC contract addresses" page; the Gateway contracts are the same on each.
        _mainnet(1, "Ethereum", 0, "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", _USD_COIN_V2),
        _mainnet(43114, "Avalanche C-Chain", 1, "0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E"),
        _mainnet(10, "OP Mainnet", 2, "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85"),
        _mainnet(
            42161, "Arbitrum One", 3, "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", _USD_COIN_V2
        ),
        _mainnet(8453, "Base", 6, "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", _USD_COIN_V2),
        _mainnet(137, "Polygon PoS", 7, "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"),
        _mainnet(130, "Unichain", 10, "0x078D782b760474a361dDA0AF3839290b0EF57AD6"),
        _mainnet(146, "Sonic", 13, "0x29219dd400f2Bf60E5a23d13Be72B486D4038894"),
        _mainnet(480, "World Chain", 14, "0x79A02482A880bCE3F13e09Da970dC34db4CD24d1"),
        _mainnet(1329, "Sei", 16, "0xe15fC38F6D8c56aF07bbCBe3BAf5708A2Bf42392"),
        _mainnet(999, "HyperEVM", 19, "0xb88339CB7199b77E23DB6E890353E22632Ba630f"),
        # Testnets, from the testnet tables of the same pages. Arc exists only as a
        # testnet. Unichain Sepolia has domain 10 in Circle's CCTP table (Gateway uses
        # CCTP's domains) and the testnet Gateway contracts, like every EVM testnet.
        _testnet(11155111, "Ethereum Sepolia", 0, "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"),
        _testnet(43113, "Avalanche Fuji", 1, "0x5425890298aed601595a70AB815c96711a31Bc65"),
        _testnet(11155420, "OP Sepolia", 2, "0x5fd84259d66Cd46123540766Be93DFE6D43130D7"),
        _testnet(421614, "Arbitrum Sepolia", 3, "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d"),
        _testnet(84532, "Base Sepolia", 6, "0x036CbD53842c5426634e7929541eC2318f3dCF7e", _USDC_V2),
        _testnet(80002, "Polygon PoS Amoy", 7, "0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582"),
        _testnet(1301, "Unichain Sepolia", 10, "0x31d0220469e10c4E71834a79b1f276d740d3768F"),
        _testnet(14601, "Sonic Testnet", 13, "0x0BA304580ee7c9a980CF72e55f5Ed2E9fd30Bc51"),
        _testnet(4801, "World Chain Sepolia", 14, "0x66145f38cBAC35Ca6F1Dfb4914dF98F1614aeA88"),
        _testnet(1328, "Sei Atlantic", 16, "0x4fCF1784B31630811181f670Aea7A7bEF803eaED"),
        _testnet(998, "HyperEVM Testnet", 19, "0x2B3370eE501B4a559b57D449569354196457D8Ab"),
        _testnet(5042002, "Arc Testnet", 26, "0x3600000000000000000000000000000000000000"),
        # Solana, Gateway domain 5 on both networks (see _SOLANA_MAINNET for the sources).
        _solana(int(SOLANA), "Solana", _SOLANA_MAINNET, False),
        _solana(SOLANA_DEVNET, "Solana Devnet", _SOLANA_DEVNET, True),
    ]
)
"""Every chain Circle Gateway supports, mainnet and testnet, with its domain, native
USDC and the Gateway contracts: the EVM chains, and Solana (domain 5; its programs and
USDC mint in base58, under the ids `xswap_sdk.chains.SOLANA` and
`xswap_sdk.chains.SOLANA_DEVNET`). See the module docstring for the sources. It pins
no swap router (none is published) and reads one router format, the sandbox's."""


# ============================================================================ routing service
# The routing service's (xPath's) own contracts, kept apart from the Gateway facts above.
#
# One contract per chain plays every role a route gives the service's side: it is the
# ``serviceContract`` of ``GET /supported-chains``, the ``spender`` of a gasless Permit2
# signature, the ``to`` of a built route transaction and its ``allowanceTarget`` (the
# address an ERC-20 input is approved to). The SDK takes none of these from the service:
# a chain is pinned here or by the caller (``RoutingClient(routing_contracts=...)``), or
# nothing is signed for it.
#
# Source, read when this table was written: Rath's own public examples,
# https://github.com/RathFinance/tachyon-examples (ts-example/src/scripts/swap_using_xpath.ts
# and swap_using_xpath_permit2_witness.ts, commit 48a658c73c19856263efa53d92f7bad82eb63d44),
# which name ``XPATH: 0x737e1b401BF7a67e6b74bB393Dd62D3Bd9b37D0b // xPath contract`` on
# Base, approve the input to it and call it. Rath's documentation (docs.rath.fi/xPath)
# publishes no table of deployments, and no address for any other chain was found: the
# other chains of the service must be pinned by the caller, who reads the contract from
# a source they trust (a block explorer's verified source, Rath directly).

# ~65 Ethereum blocks, "~13 to 19 minutes", for Ethereum and the rollups settling on it.
_ETH_SETTLED: Final = 19 * 60

FINALITY_SECONDS: Final[Mapping[int, float]] = MappingProxyType(
    {
        # Ethereum and the rollups that settle on it, mainnet and testnet.
        1: _ETH_SETTLED,
        10: _ETH_SETTLED,
        42161: _ETH_SETTLED,
        8453: _ETH_SETTLED,
        130: _ETH_SETTLED,
        480: _ETH_SETTLED,
        11155111: _ETH_SETTLED,
        11155420: _ETH_SETTLED,
        421614: _ETH_SETTLED,
        84532: _ETH_SETTLED,
        1301: _ETH_SETTLED,
        4801: _ETH_SETTLED,
        # Chains with fast finality ("~5 to 8 seconds"; Arc "~0.5 seconds").
        43114: 8,
        43113: 8,
        137: 8,
        80002: 8,
        146: 8,
        14601: 8,
        1329: 5,
        1328: 5,
        999: 5,
        998: 5,
        5042002: 1,
    }
)
"""Seconds Gateway waits for a block on each chain (by chain id) before acting on it:
Circle's "required block confirmations" of Gateway
(developers.circle.com/gateway/references/supported-blockchains), at the upper end of
each average time. A deposit counts in the Gateway balance, and a delegate may sign,
once its block is this old; the SDK's waits expect it (their "slow" and "stuck" events
are measured against it)."""

ROUTING_CONTRACTS: Final[Mapping[int, str]] = MappingProxyType(
    {
        8453: "0x737e1b401BF7a67e6b74bB393Dd62D3Bd9b37D0b",  # Base: Rath's xPath examples
    }
)
"""The routing service's contract on each chain where a deployment is published:
``{chain_id: address}``. It is the gasless Permit2 ``spender``, a route transaction's
``to`` and its ``allowanceTarget``. Only Base is published (see the source above); pin
the others with ``RoutingClient(routing_contracts={chain_id: address})``."""


def routing_contract_of(chain_id: int, pinned: Mapping[int, str] | None = None) -> str | None:
    """The routing contract of ``chain_id``: the caller's pin in ``pinned`` first, else
    `ROUTING_CONTRACTS`, else ``None`` (nothing pins it)."""
    if pinned is not None and chain_id in pinned:
        return pinned[chain_id]
    return ROUTING_CONTRACTS.get(chain_id)
