"""The sandbox's static-argument ABI encoder agrees with eth_abi."""

from __future__ import annotations

from eth_abi.abi import encode
from hypothesis import given
from hypothesis import strategies as st

from xswap_sdk.sandbox._abi import abi_words

words32 = st.binary(min_size=32, max_size=32)
addresses = st.binary(min_size=20, max_size=20).map(lambda b: "0x" + b.hex())
uints = st.integers(min_value=0, max_value=2**256 - 1)


@given(words32, addresses, uints, uints, addresses)
def test_same_bytes_as_eth_abi(salt: bytes, token: str, a: int, b: int, to: str) -> None:
    expected = encode(
        ["bytes32", "address", "uint256", "uint256", "address"], [salt, token, a, b, to]
    )
    assert abi_words(salt, token, a, b, to) == expected
