"""Shared types: addresses, amounts, hex strings and unit conversion."""

from __future__ import annotations

from decimal import Decimal

import pytest
from eth_utils.address import to_checksum_address
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from xswap_sdk import MAX_UINT256, Address, Bytes32, HexBytes, TokenAmount, from_units, to_units
from xswap_sdk._models import check_argument
from xswap_sdk.errors import InvalidInputError

addresses = st.binary(min_size=20, max_size=20).map(lambda b: "0x" + b.hex())


class Holder(BaseModel):
    address: Address
    amount: TokenAmount = 0


@given(addresses)
def test_any_case_of_a_valid_address_comes_out_checksummed(raw: str) -> None:
    checksummed = to_checksum_address(raw)
    for variant in (raw.lower(), "0x" + raw[2:].upper(), checksummed):
        assert check_argument("to", Address, variant) == checksummed
    assert Holder(address=raw).model_dump()["address"] == checksummed


@given(addresses, st.data())
def test_mixed_case_with_a_wrong_checksum_is_refused(raw: str, data: st.DataObject) -> None:
    checksummed = to_checksum_address(raw)
    letters = [i for i, c in enumerate(checksummed) if i > 1 and c.isalpha()]
    if len(letters) < 2:
        return  # fewer than two letters: no wrong mixed-case spelling exists
    flip = data.draw(st.sampled_from(letters))
    wrong = checksummed[:flip] + checksummed[flip].swapcase() + checksummed[flip + 1 :]
    body = wrong[2:]
    if body in (body.lower(), body.upper()):
        return  # flipping made it single-case, which is accepted by design
    with pytest.raises(InvalidInputError, match="EIP-55"):
        check_argument("to", Address, wrong)


@given(st.text(max_size=50).filter(lambda s: not (len(s) == 42 and s.startswith("0x"))))
def test_anything_else_is_not_an_address(text: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        check_argument("recipient", Address, text)
    assert info.value.argument == "recipient"


@given(st.integers(min_value=0, max_value=MAX_UINT256))
def test_amounts_round_trip_as_decimal_strings(amount: int) -> None:
    holder = Holder(address="0x" + "00" * 20, amount=amount)
    wire = holder.model_dump(mode="json")
    assert wire["amount"] == str(amount)
    assert Holder.model_validate(wire).amount == amount
    assert check_argument("value", TokenAmount, str(amount)) == amount


@given(
    st.one_of(
        st.floats(allow_nan=True),
        st.booleans(),
        st.integers(max_value=-1),
        st.integers(min_value=MAX_UINT256 + 1),
        st.decimals(allow_nan=False),
        st.text().filter(lambda s: not s.isascii() or not s.isdigit()),
    )
)
def test_bad_amounts_are_refused(value: object) -> None:
    with pytest.raises(InvalidInputError) as info:
        check_argument("value", TokenAmount, value)
    assert info.value.argument == "value"


@given(st.integers(min_value=0, max_value=MAX_UINT256), st.integers(min_value=0, max_value=77))
def test_units_round_trip(units: int, decimals: int) -> None:
    display = from_units(units, decimals)
    assert to_units(display, decimals) == units
    assert to_units(str(display), decimals) == units


def test_unit_conversion_examples_and_refusals() -> None:
    assert to_units("1.5", 6) == 1_500_000
    assert to_units(Decimal("0.000001"), 6) == 1
    assert to_units(2, 6) == 2_000_000
    assert from_units(1_500_000, 6) == Decimal("1.5")
    assert str(from_units(10_000_000, 6)) == "10.000000"
    with pytest.raises(InvalidInputError, match="more than 6 decimal places"):
        to_units("1.0000001", 6)
    with pytest.raises(InvalidInputError, match="floats are inexact"):
        to_units(0.1, 6)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="non-negative"):
        to_units("-1", 6)
    with pytest.raises(InvalidInputError, match="decimal number"):
        to_units("one", 6)
    with pytest.raises(InvalidInputError, match="more than 6 decimal places"):
        to_units("1e-1000000", 6)
    assert to_units("0.000", 6) == 0
    with pytest.raises(InvalidInputError, match="larger than any uint256"):
        to_units("1e1000000", 6)
    assert to_units(str(MAX_UINT256), 0) == MAX_UINT256


@given(st.binary(min_size=32, max_size=32))
def test_bytes32_accepts_bytes_and_any_case_and_comes_out_lowercase(raw: bytes) -> None:
    expected = "0x" + raw.hex()
    assert check_argument("salt", Bytes32, raw) == expected
    assert check_argument("salt", Bytes32, expected.upper().replace("0X", "0x")) == expected


@pytest.mark.parametrize("bad", ["0x" + "00" * 31, "0x" + "00" * 33, "00" * 32, "0x" + "zz" * 32])
def test_bytes32_refuses_other_lengths_and_non_hex(bad: str) -> None:
    with pytest.raises(InvalidInputError, match="salt"):
        check_argument("salt", Bytes32, bad)


def test_hex_bytes() -> None:
    assert check_argument("data", HexBytes, "0x") == "0x"
    assert check_argument("data", HexBytes, "0xABCD") == "0xabcd"
    assert check_argument("data", HexBytes, b"\x01\x02") == "0x0102"
    for bad in ("0xabc", "abcd", "0xgg", 5):
        with pytest.raises(InvalidInputError, match="even number of digits"):
            check_argument("data", HexBytes, bad)


def test_one_address_comparison() -> None:
    from xswap_sdk.types import _same_address

    evm = "0xA7a7a7A7a7a7a7a7A7a7a7A7a7a7a7A7a7a7a7a7"
    assert _same_address(evm, evm.lower())
    assert _same_address(evm.upper().replace("0X", "0x"), evm)
    assert not _same_address(evm, "0x" + "0" * 40)
    # Base58 (Solana) is case-sensitive: two cases are two accounts.
    mint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
    assert _same_address(mint, mint)
    assert not _same_address(mint, mint.lower())
    for nothing in (None, 5, b"0x00"):
        assert not _same_address(nothing, evm)
        assert not _same_address(evm, nothing)
