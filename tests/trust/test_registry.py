"""The pinned registry: Circle Gateway's contracts and domains, native USDC, Permit2."""

from __future__ import annotations

import dataclasses

import pytest

from xswap_sdk import errors
from xswap_sdk.registry import (
    DEFAULT_REGISTRY,
    GATEWAY_MINTER_MAINNET,
    GATEWAY_MINTER_TESTNET,
    GATEWAY_WALLET_MAINNET,
    GATEWAY_WALLET_TESTNET,
    PERMIT2,
    GatewayChain,
    Registry,
)
from xswap_sdk.sandbox import _catalog
from xswap_sdk.types import to_checksum

# The domains the issue lists, as Circle publishes them (Arc exists only as a testnet).
DOMAINS = {
    "Ethereum": 0,
    "Avalanche": 1,
    "OP": 2,
    "Arbitrum": 3,
    "Base": 6,
    "Polygon": 7,
    "Unichain": 10,
    "Sonic": 13,
    "World Chain": 14,
    "Sei": 16,
    "HyperEVM": 19,
}


def custom(**changes: object) -> GatewayChain:
    fields: dict[str, object] = {
        "chain_id": 777_777,
        "name": "Custom",
        "domain": 99,
        "usdc": "0x" + "11" * 20,
        "gateway_wallet": "0x" + "22" * 20,
        "gateway_minter": "0x" + "33" * 20,
        "testnet": False,
    }
    fields.update(changes)
    return GatewayChain(**fields)  # type: ignore[arg-type]


def test_every_listed_chain_has_a_mainnet_and_a_testnet_entry() -> None:
    for testnet in (False, True):
        for name, domain in DOMAINS.items():
            chain = DEFAULT_REGISTRY.by_domain(domain, testnet=testnet)
            assert chain is not None, (name, testnet)
            assert chain.testnet is testnet
    arc = DEFAULT_REGISTRY.by_domain(26, testnet=True)
    assert arc is not None
    assert arc.chain_id == 5042002
    assert DEFAULT_REGISTRY.by_domain(26, testnet=False) is None


def test_each_network_uses_its_own_gateway_contracts() -> None:
    for chain in DEFAULT_REGISTRY:
        if chain.family == "solana":
            continue  # its own programs: tests/signing/test_solana_registry.py
        wallet, minter = (
            (GATEWAY_WALLET_TESTNET, GATEWAY_MINTER_TESTNET)
            if chain.testnet
            else (GATEWAY_WALLET_MAINNET, GATEWAY_MINTER_MAINNET)
        )
        assert (chain.gateway_wallet, chain.gateway_minter) == (wallet, minter), chain.name


def test_usdc_addresses_are_distinct_and_checksummed() -> None:
    seen = [chain.usdc for chain in DEFAULT_REGISTRY]
    assert len(set(seen)) == len(seen)
    assert PERMIT2 == "0x000000000022D473030F116dDEE9F6B43aC78BA3"


def test_the_sandbox_uses_the_same_facts() -> None:
    # The sandbox serves Circle's real values; the two tables must never drift apart.
    assert _catalog.GATEWAY_WALLET == GATEWAY_WALLET_MAINNET
    assert _catalog.GATEWAY_MINTER == GATEWAY_MINTER_MAINNET
    assert _catalog.PERMIT2 == PERMIT2
    compared = 0
    for chain in _catalog.CHAINS.values():
        pinned = DEFAULT_REGISTRY.get(chain.id)
        if pinned is None:
            assert chain.gateway_domain is None, chain.key
            continue
        assert not pinned.testnet
        if chain.gateway_domain is not None:
            assert chain.gateway_domain == pinned.domain, chain.key
        coin = next((t for t in _catalog.TOKENS if t.chain_id == chain.id and t.is_usdc), None)
        if coin is not None:
            assert coin.address == pinned.usdc, chain.key
            compared += 1
    assert compared >= 5


def test_an_unknown_chain_is_refused_with_the_way_to_add_it() -> None:
    assert DEFAULT_REGISTRY.get(56) is None
    with pytest.raises(errors.UnsafePayloadError) as info:
        DEFAULT_REGISTRY.chain(56)
    assert info.value.field == "chain_id"
    assert info.value.received == 56
    assert "with_chains" in str(info.value)
    assert isinstance(info.value, errors.SigningError)


def test_with_chains_adds_and_overrides_without_changing_the_original() -> None:
    added = DEFAULT_REGISTRY.with_chains(custom())
    assert 777_777 in added
    assert 777_777 not in DEFAULT_REGISTRY
    assert len(added) == len(DEFAULT_REGISTRY) + 1
    base = DEFAULT_REGISTRY.chain(8453)
    moved = dataclasses.replace(base, usdc="0x" + "44" * 20)
    overridden = DEFAULT_REGISTRY.with_chains(moved)
    assert overridden.chain(8453).usdc == "0x" + "44" * 20
    assert DEFAULT_REGISTRY.chain(8453).usdc == base.usdc
    assert len(overridden) == len(DEFAULT_REGISTRY)
    assert overridden != DEFAULT_REGISTRY
    assert DEFAULT_REGISTRY.with_chains(base) == DEFAULT_REGISTRY


def test_a_domain_names_one_chain_per_network() -> None:
    with pytest.raises(errors.InvalidInputError, match="domain 6"):
        DEFAULT_REGISTRY.with_chains(custom(domain=6))
    # The same domain on the other network is fine: mainnets and testnets share numbers.
    assert DEFAULT_REGISTRY.with_chains(custom(domain=99, testnet=True)).by_domain(99, testnet=True)
    with pytest.raises(errors.InvalidInputError, match="twice"):
        Registry([custom(), custom(domain=98)])


def test_registries_and_entries_cannot_be_changed() -> None:
    with pytest.raises(AttributeError):
        DEFAULT_REGISTRY._chains = {}  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_REGISTRY.chain(1).usdc = "0x" + "00" * 20  # type: ignore[misc]
    assert hash(DEFAULT_REGISTRY) == hash(Registry(list(DEFAULT_REGISTRY)))


def test_entries_are_checked_and_checksummed() -> None:
    lower = custom(usdc="0x" + "ab" * 20)
    assert lower.usdc == to_checksum("0x" + "ab" * 20) != "0x" + "ab" * 20
    with pytest.raises(errors.InvalidInputError) as info:
        custom(gateway_wallet="0x77777777dcc4d5a8b6e418fd04d8997ef11000eE")  # bad checksum
    assert info.value.argument == "gateway_wallet"
    for field, value in (("chain_id", True), ("chain_id", 0), ("domain", -1), ("name", "")):
        with pytest.raises(errors.InvalidInputError) as bad:
            custom(**{field: value})
        assert bad.value.argument == field
    with pytest.raises(errors.InvalidInputError):
        Registry(["base"])  # type: ignore[list-item]


def test_lookups() -> None:
    assert 8453 in DEFAULT_REGISTRY
    assert DEFAULT_REGISTRY.chain(8453) in DEFAULT_REGISTRY
    assert "8453" not in DEFAULT_REGISTRY
    assert True not in DEFAULT_REGISTRY
    assert DEFAULT_REGISTRY.by_domain(6, testnet=True).chain_id == 84532  # type: ignore[union-attr]
    assert DEFAULT_REGISTRY.by_domain(6, testnet=False).chain_id == 8453  # type: ignore[union-attr]
    assert {chain.chain_id for chain in DEFAULT_REGISTRY} >= {1, 8453, 42161, 11155111}
    assert "12 mainnet" in repr(DEFAULT_REGISTRY)  # 11 EVM chains and Solana
