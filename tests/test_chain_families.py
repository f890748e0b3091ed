"""Chain families: each family's valid addresses are accepted and its near misses
refused before any I/O, by the pure checks and by both relayer clients (hypothesis);
the family table is the caller's to extend; the sandbox relays to non-EVM chains."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xswap_sdk import AsyncRelayerClient, KnownChain, RelayerClient, errors
from xswap_sdk.chains import (
    DEFAULT_CHAIN_FAMILIES,
    chain_family,
    check_address,
    check_chain_families,
)
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.types import to_checksum

from .support import resolve

BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
NEAR_ID = 7_000_001  # ids the tests give NEAR and Sui (the SDK pins none)
SUI_ID = 7_000_002
FAMILIES = {NEAR_ID: "near", SUI_ID: "sui"}
CHAIN_OF = {
    "evm": 8453,
    "solana": KnownChain.SOLANA,
    "aptos": KnownChain.APTOS,
    "near": NEAR_ID,
    "sui": SUI_ID,
}


def base58(data: bytes) -> str:
    number = int.from_bytes(data, "big")
    out = ""
    while number:
        number, digit = divmod(number, 58)
        out = BASE58[digit] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


hex_digits = st.text("0123456789abcdef", min_size=1, max_size=1)
evm_addresses = st.binary(min_size=20, max_size=20).map(lambda b: to_checksum("0x" + b.hex()))
solana_keys = st.binary(min_size=32, max_size=32).map(base58)
move_addresses = st.binary(min_size=32, max_size=32).map(lambda b: "0x" + b.hex())
_near_part = st.from_regex(r"[a-z0-9]{1,8}([-_][a-z0-9]{1,8}){0,2}", fullmatch=True)
near_accounts = (
    st.lists(_near_part, min_size=1, max_size=4).map(".".join).filter(lambda a: 2 <= len(a) <= 64)
)
VALID = {
    "evm": evm_addresses,
    "solana": solana_keys,
    "near": near_accounts,
    "aptos": move_addresses,
    "sui": move_addresses,
}


def near_misses(family: str) -> st.SearchStrategy[str]:
    """Strings one edit away from a valid address of ``family``, that are not valid."""
    if family == "evm":
        return st.one_of(
            evm_addresses.map(lambda a: a[:-1]),  # 19.5 bytes
            evm_addresses.map(lambda a: a + "0"),  # 20.5 bytes
            evm_addresses.map(lambda a: a[2:]),  # no 0x
            evm_addresses.map(lambda a: a[:5] + "g" + a[6:]),  # not hex
            # A flipped letter case breaks the EIP-55 checksum, when the flip is a letter.
            evm_addresses.filter(lambda a: any(c.isalpha() for c in a[2:])).map(
                lambda a: (
                    a[:2]
                    + "".join(
                        c.swapcase()
                        if i == next(j for j, d in enumerate(a[2:]) if d.isalpha())
                        else c
                        for i, c in enumerate(a[2:])
                    )
                )
            ),
            solana_keys,
        )
    if family == "solana":
        return st.one_of(
            solana_keys.map(lambda k: k[:5] + "0" + k[6:]),  # 0 is not base58
            solana_keys.map(lambda k: k[:5] + "l" + k[6:]),  # nor is l
            st.binary(min_size=20, max_size=31).map(base58),  # too short a key
            st.binary(min_size=33, max_size=33).map(lambda b: base58(b"\x01" + b[1:])),
            evm_addresses,
        )
    if family == "near":
        return st.one_of(
            near_accounts.map(lambda a: a.upper()).filter(lambda a: a != a.lower()),
            near_accounts.map(lambda a: a + "."),
            near_accounts.map(lambda a: "-" + a),
            near_accounts.map(lambda a: a + "..x"),
            near_accounts.map(lambda a: a + " "),
            st.just("a"),
            st.text("abc", min_size=65, max_size=70),
        )
    return st.one_of(
        move_addresses.map(lambda a: a[:-1]),  # 63 digits
        move_addresses.map(lambda a: a + "0"),  # 65 digits
        move_addresses.map(lambda a: a[2:]),  # no 0x
        move_addresses.map(lambda a: a[:9] + "z" + a[10:]),
        evm_addresses,
    )


@pytest.mark.parametrize("family", sorted(VALID))
@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data())
def test_valid_addresses_pass_and_near_misses_fail(family: Any, data: st.DataObject) -> None:
    valid = data.draw(VALID[family])
    checked = check_address(family, valid)
    assert checked.lower() == valid.lower()
    miss = data.draw(near_misses(family))
    with pytest.raises(errors.InvalidInputError) as info:
        check_address(family, miss)
    assert info.value.argument == "to"
    assert family in info.value.rule


def test_move_addresses_come_back_in_lower_case_and_evm_checksummed() -> None:
    address = "0x" + "AB" * 32
    assert check_address("sui", address) == address.lower()
    assert check_address("evm", "0x" + "ab" * 20) == to_checksum("0x" + "ab" * 20)


@pytest.mark.parametrize("family", sorted(VALID))
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=st.data())
async def test_both_clients_accept_and_refuse_before_any_io(
    family: Any, data: st.DataObject
) -> None:
    valid = data.draw(VALID[family])
    miss = data.draw(near_misses(family))
    chain_id = CHAIN_OF[family]
    gas = {"gas_limit": 100} if family in ("aptos", "sui") else {}
    with Sandbox() as sb:
        sb.relayer.add_chain(NEAR_ID, "near")
        sb.relayer.add_chain(SUI_ID, "sui")
        for client in (
            sb.relayer_client(chain_families=FAMILIES),
            sb.async_relayer_client(chain_families=FAMILIES),
        ):
            before = len(sb.requests)
            with pytest.raises(errors.InvalidInputError) as info:
                await resolve(client.relay(chain_id=chain_id, to=miss, call_data="0x", **gas))
            assert info.value.argument == "to"
            assert len(sb.requests) == before  # refused before any I/O
            tx_id = await resolve(client.relay(chain_id=chain_id, to=valid, call_data="0x", **gas))
            record = await resolve(client.get_relay_status(tx_id))
            assert str(record.to).lower() == valid.lower()


@pytest.mark.parametrize("family", ["aptos", "sui"])
async def test_gas_limit_is_required_on_move_chains(kind: str, family: str) -> None:
    with Sandbox() as sb:
        sb.relayer.add_chain(SUI_ID, "sui")
        cls = RelayerClient if kind == "sync" else AsyncRelayerClient
        client = cls(**sb_args(sb, kind), chain_families=FAMILIES)
        with pytest.raises(errors.InvalidInputError) as info:
            await resolve(
                client.relay(chain_id=CHAIN_OF[family], to="0x" + "ab" * 32, call_data="0x")
            )
        assert info.value.argument == "gas_limit"
        assert not sb.requests
        await resolve(client.aclose() if kind == "async" else client.close())


def sb_args(sb: Sandbox, kind: str) -> dict[str, Any]:
    return {
        "base_url": sb.relayer_url,
        "api_key": sb.relayer.api_key,
        "clock": sb.clock,
        "http_client": sb.http_client() if kind == "sync" else sb.async_http_client(),
    }


@pytest.mark.parametrize(
    ("chain_id", "to", "limit"),
    [
        (KnownChain.SOLANA, base58(b"\x07" * 32), 2**64 - 1),
        (NEAR_ID, "alice.near", 2**128 - 1),
        (KnownChain.APTOS, "0x" + "1" * 64, 2**64 - 1),
        (SUI_ID, "0x" + "2" * 64, 2**64 - 1),
        (8453, "0x" + "11" * 20, 2**256 - 1),
    ],
)
def test_value_must_fit_the_native_integer(chain_id: int, to: str, limit: int) -> None:
    with Sandbox() as sb:
        sb.relayer.add_chain(NEAR_ID, "near")
        sb.relayer.add_chain(SUI_ID, "sui")
        client = sb.relayer_client(chain_families=FAMILIES)
        with pytest.raises(errors.InvalidInputError) as info:
            client.relay(chain_id=chain_id, to=to, call_data="0x", value=limit + 1, gas_limit=1)
        assert info.value.argument == "value"
        assert not sb.requests
        tx_id = client.relay(chain_id=chain_id, to=to, call_data="0x", value=limit, gas_limit=1)
        assert client.get_relay_status(tx_id).value == limit


def test_the_table_is_documented_and_extendable() -> None:
    assert DEFAULT_CHAIN_FAMILIES == {10100000: "solana", 88888888: "aptos"}
    assert chain_family(1) == "evm"
    assert chain_family(KnownChain.SOLANA) == "solana"
    extended = check_chain_families({784: "sui", 10100000: "evm"})
    assert chain_family(784, extended) == "sui"
    assert chain_family(10100000, extended) == "evm"  # the caller may override
    assert chain_family(88888888, extended) == "aptos"  # and the rest is kept
    for bad, argument in (
        ({"784": "sui"}, "chain_families"),
        ({784: "tron"}, "chain_families[784]"),
        ({-1: "sui"}, "chain_families"),
        (["sui"], "chain_families"),
    ):
        with pytest.raises(errors.InvalidInputError) as info:
            RelayerClient(api_key="k", chain_families=bad)
        assert info.value.argument == argument


def test_known_chains_are_ints() -> None:
    assert KnownChain.BASE == 8453
    assert KnownChain.ARBITRUM_ONE == 42161
    assert {KnownChain.ETHEREUM, KnownChain.OPTIMISM, KnownChain.BSC, KnownChain.POLYGON} == {
        1,
        10,
        56,
        137,
    }
    with Sandbox() as sb:
        assert sb.relayer_client().is_chain_supported(KnownChain.SOLANA)
