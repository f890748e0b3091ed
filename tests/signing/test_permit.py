"""EIP-2612 permits and depositWithPermit calldata."""

from __future__ import annotations

import time
from typing import Any

import pytest
from eth_abi.abi import decode
from eth_account import Account
from eth_account.signers.local import LocalAccount

from xswap_sdk.errors import InvalidInputError
from xswap_sdk.signing import (
    DEFAULT_PERMIT_LIFETIME,
    DEPOSIT_WITH_PERMIT_SELECTOR,
    deposit_with_permit_calldata,
    permit_typed_data,
    recover_typed_data,
    sign_permit,
)

from .support import eth_account_digest, vector_case

USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
WALLET = "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE"


def permit_arguments(**overrides: Any) -> dict[str, Any]:
    """The known-answer permit's arguments (USDC on chain 1 for the gateway wallet), with
    ``overrides``."""
    given = vector_case("permit")["input"]
    domain = given["domain"]
    arguments: dict[str, Any] = {
        "token_name": domain["name"],
        "token_version": domain["version"],
        "chain_id": domain["chainId"],
        "token_address": domain["verifyingContract"],
        "spender": given["spender"],
        **{name: int(given[name]) for name in ("value", "nonce", "deadline")},
    }
    return {**arguments, **overrides}


def test_permit_recovers_through_its_typed_data(account: LocalAccount) -> None:
    signed = sign_permit(account, **permit_arguments(chain_id=8453, nonce=7))
    typed = permit_typed_data(owner=account.address, **permit_arguments(chain_id=8453, nonce=7))
    assert eth_account_digest(typed) == signed.digest
    assert recover_typed_data(typed, signed.signature) == account.address
    assert signed.signature == "0x" + signed.r[2:] + signed.s[2:] + f"{signed.v:02x}"


def test_default_deadline_is_an_hour_from_now(account: LocalAccount) -> None:
    before = int(time.time())
    signed = sign_permit(account, **permit_arguments(deadline=None))
    after = int(time.time())
    assert before + DEFAULT_PERMIT_LIFETIME <= signed.deadline <= after + DEFAULT_PERMIT_LIFETIME


def test_owner_defaults_to_and_must_be_the_signer(account: LocalAccount) -> None:
    assert sign_permit(account, **permit_arguments()).owner == account.address
    same = sign_permit(account, owner=account.address.lower(), **permit_arguments())
    assert same.owner == account.address
    with pytest.raises(InvalidInputError) as caught:
        sign_permit(account, owner=Account.create().address, **permit_arguments())
    assert caught.value.argument == "owner"


@pytest.mark.parametrize(
    ("argument", "value"),
    [
        ("value", 1.0),
        ("value", 2**256),
        ("nonce", -1),
        ("deadline", "soon"),
        ("chain_id", -1),
        ("token_name", ""),
        ("token_version", None),
        ("spender", WALLET.replace("Dcc4", "dCc4")),
        ("token_address", USDC.replace("A0b8", "a0B8")),
    ],
)
def test_bad_permit_arguments_are_named(
    account: LocalAccount, argument: str, value: object
) -> None:
    with pytest.raises(InvalidInputError) as caught:
        sign_permit(account, **permit_arguments(**{argument: value}))
    assert caught.value.argument == argument


def test_permit_repr_hides_the_signature(account: LocalAccount) -> None:
    signed = sign_permit(account, **permit_arguments())
    shown = repr(signed)
    for secret in (signed.signature[2:], signed.r[2:], signed.s[2:]):
        assert secret not in shown
    assert signed.owner in shown


def vector_calldata_arguments() -> dict[str, Any]:
    given = vector_case("depositWithPermitCalldata")["input"]
    return {key: given[key] for key in ("token", "owner", "value", "deadline", "v", "r", "s")}


def test_calldata_decodes_to_its_arguments() -> None:
    arguments = vector_calldata_arguments()
    calldata = deposit_with_permit_calldata(**arguments)
    assert calldata.startswith(DEPOSIT_WITH_PERMIT_SELECTOR)
    types = ["address", "address", "uint256", "uint256", "uint8", "bytes32", "bytes32"]
    token, owner, value, deadline, v, r, s = decode(types, bytes.fromhex(calldata[10:]))
    assert (token.lower(), owner.lower()) == (
        arguments["token"].lower(),
        arguments["owner"].lower(),
    )
    assert (value, deadline, v) == (int(arguments["value"]), int(arguments["deadline"]), 27)
    assert ("0x" + r.hex(), "0x" + s.hex()) == (arguments["r"], arguments["s"])


def test_calldata_normalises_v_zero_or_one() -> None:
    arguments = vector_calldata_arguments()
    expected = deposit_with_permit_calldata(**arguments)
    assert deposit_with_permit_calldata(**{**arguments, "v": 0}) == expected


@pytest.mark.parametrize(
    ("argument", "value"),
    [
        ("v", 29),
        ("v", True),
        ("v", "27"),
        ("r", "0x1234"),
        ("s", "0x" + "00" * 33),
        ("value", 0.5),
        ("owner", "0x" + "12" * 19),
    ],
)
def test_bad_calldata_arguments_are_named(argument: str, value: object) -> None:
    with pytest.raises(InvalidInputError) as caught:
        deposit_with_permit_calldata(**{**vector_calldata_arguments(), argument: value})
    assert caught.value.argument == argument
