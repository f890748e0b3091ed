"""Signing a full EIP-712 payload as given (e.g. a routing service's Permit2 quote)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from eth_account import Account
from eth_account.signers.local import LocalAccount
from eth_utils.exceptions import ValidationError as EthUtilsValidationError

from xswap_sdk.errors import InvalidInputError
from xswap_sdk.signing import (
    burn_intent_typed_data,
    recover_typed_data,
    sign_typed_data,
    typed_data_digest,
)

from ..support import permit2_typed_data
from .support import eth_account_digest, single_intent_wire


def permit2_quote() -> dict[str, Any]:
    """The shape of a gasless quote's ``eip712``: no domain version, chainId a string."""
    return permit2_typed_data(
        spender="0x1111111254EEB25477B68fb85Ed929f73A960582",
        nonce="1732000000000",
        deadline="1767225600",
    )


def with_int_chain_id(payload: dict[str, Any]) -> dict[str, Any]:
    fixed = copy.deepcopy(payload)
    fixed["domain"]["chainId"] = int(fixed["domain"]["chainId"], 0)
    return fixed


def test_permit2_payload_signs_as_eth_account_does(account: LocalAccount) -> None:
    payload = permit2_quote()
    before = copy.deepcopy(payload)
    signature = sign_typed_data(account, payload)
    expected = account.sign_typed_data(full_message=with_int_chain_id(payload)).signature
    assert signature == "0x" + bytes(expected).hex()
    assert recover_typed_data(payload, signature) == account.address
    assert payload == before


def test_a_payload_nested_past_the_limit_is_refused_before_eth_account(
    account: LocalAccount,
) -> None:
    payload = permit2_quote()
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    payload["message"]["extra"] = deep
    with pytest.raises(InvalidInputError) as info:
        sign_typed_data(account, payload)
    assert (info.value.argument, info.value.rule.split(";")[0]) == (
        "typed_data",
        "nests deeper than 64 levels",
    )


def test_chain_id_as_hex_string_is_the_same_chain() -> None:
    payload = permit2_quote()
    as_hex = permit2_quote()
    as_hex["domain"]["chainId"] = "0x2105"
    as_int = with_int_chain_id(payload)
    assert typed_data_digest(payload) == typed_data_digest(as_hex) == typed_data_digest(as_int)
    other_chain = permit2_quote()
    other_chain["domain"]["chainId"] = "1"
    assert typed_data_digest(other_chain) != typed_data_digest(payload)


def test_eip712_domain_type_may_be_given() -> None:
    payload = permit2_quote()
    payload["types"]["EIP712Domain"] = [
        {"name": "name", "type": "string"},
        {"name": "chainId", "type": "uint256"},
        {"name": "verifyingContract", "type": "address"},
    ]
    assert typed_data_digest(payload) == typed_data_digest(permit2_quote())


def test_types_the_primary_type_does_not_use_are_ignored(account: LocalAccount) -> None:
    payload = burn_intent_typed_data(single_intent_wire())
    crowded = copy.deepcopy(payload)
    crowded["types"]["BurnIntentSet"] = [{"name": "intents", "type": "BurnIntent[]"}]
    # eth_account alone refuses this payload (it derives the primary type itself).
    with pytest.raises(EthUtilsValidationError, match="primaryType"):
        eth_account_digest(crowded)
    assert typed_data_digest(crowded) == eth_account_digest(payload)
    assert sign_typed_data(account, crowded) == sign_typed_data(account, payload)


@pytest.mark.parametrize(
    ("change", "argument"),
    [
        (lambda p: p.pop("message"), "typed_data.message"),
        (lambda p: p.pop("types"), "typed_data.types"),
        (lambda p: p.__setitem__("domain", "Permit2"), "typed_data.domain"),
        (lambda p: p.__setitem__("primaryType", "Nope"), "typed_data.primaryType"),
        (lambda p: p["domain"].__setitem__("chainId", "base"), "typed_data.domain.chainId"),
        (lambda p: p["message"].__setitem__("nonce", "lots"), "typed_data"),
        (lambda p: p["domain"].__setitem__("colour", "blue"), "typed_data"),
        (lambda p: p["types"].__setitem__("TokenPermissions", "address token"), "typed_data"),
        (lambda p: p["types"].__setitem__("TokenPermissions", [{"name": "x"}]), "typed_data"),
    ],
)
def test_bad_payloads_name_the_part(change: Any, argument: str, account: LocalAccount) -> None:
    payload = permit2_quote()
    change(payload)
    with pytest.raises(InvalidInputError) as caught:
        sign_typed_data(account, payload)
    assert caught.value.argument == argument


@pytest.mark.parametrize("payload", [None, "typed data", [1, 2]])
def test_payload_must_be_a_mapping(payload: Any) -> None:
    with pytest.raises(InvalidInputError) as caught:
        typed_data_digest(payload)
    assert caught.value.argument == "typed_data"


def test_recover_typed_data_names_another_signer_for_another_key() -> None:
    other = Account.create()
    signature = sign_typed_data(other, permit2_quote())
    assert recover_typed_data(permit2_quote(), signature) == other.address
