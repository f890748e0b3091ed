"""EIP-3009 deposits: the ``ReceiveWithAuthorization`` signature against eth-account's own
typed-data signing, recovery, the registry's pins, and the ``depositWithAuthorization``
calldata in both overloads."""

from __future__ import annotations

import time
from typing import Any

import pytest
from eth_abi.abi import decode
from eth_account import Account
from eth_account.messages import encode_typed_data
from eth_account.signers.local import LocalAccount
from eth_hash.auto import keccak
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xswap_sdk.errors import InvalidInputError, SigningError, UnsafePayloadError
from xswap_sdk.registry import DEFAULT_REGISTRY, GatewayChain
from xswap_sdk.signing import (
    DEFAULT_AUTHORIZATION_LIFETIME,
    DEPOSIT_WITH_AUTHORIZATION_BYTES_SELECTOR,
    DEPOSIT_WITH_AUTHORIZATION_SELECTOR,
    deposit_with_authorization_call,
    prepare_deposit_with_authorization,
    receive_authorization_typed_data,
    sign_deposit_authorization,
    sign_receive_authorization,
)

from ..trust.support import OtherKeySigner, RecordingSigner
from .support import eth_account_digest

BASE = DEFAULT_REGISTRY.chain(8453)
OTHER = "0x00000000000000000000000000000000000A11CE"
NONCE = "0x" + "ab" * 32
VRS_TYPES = [
    "address",
    "address",
    "uint256",
    "uint256",
    "uint256",
    "bytes32",
    "uint8",
    "bytes32",
    "bytes32",
]
BYTES_TYPES = ["address", "address", "uint256", "uint256", "uint256", "bytes32", "bytes"]

addresses = st.binary(min_size=20, max_size=20).map(lambda raw: "0x" + raw.hex())
nonces = st.binary(min_size=32, max_size=32).map(lambda raw: "0x" + raw.hex())
amounts = st.integers(min_value=1, max_value=2**256 - 1)
times = st.integers(min_value=0, max_value=2**64)
NOW = int(time.time())
LATER = 4_102_444_800  # 2100-01-01: a window still open when the tests run


def _typed(authorization: Any) -> dict[str, Any]:
    return receive_authorization_typed_data(
        token_name=authorization.token_name,
        token_version=authorization.token_version,
        chain_id=authorization.chain_id,
        token=authorization.token,
        authorizer=authorization.authorizer,
        to=authorization.to,
        value=authorization.value,
        valid_after=authorization.valid_after,
        valid_before=authorization.valid_before,
        nonce=authorization.nonce,
    )


def _recovered(typed: dict[str, Any], signature: str) -> str:
    recovered: str = Account.recover_message(
        encode_typed_data(full_message=typed), signature=signature
    )
    return recovered


def test_the_signature_is_eth_accounts_own_and_recovers_to_the_signer(
    account: LocalAccount,
) -> None:
    authorization = sign_deposit_authorization(
        account, chain_id=8453, value=5_000_000, valid_before=2_000_000_000, nonce=NONCE
    )
    typed = _typed(authorization)
    reference = account.sign_typed_data(full_message=typed)
    assert authorization.signature == "0x" + bytes(reference.signature).hex()
    assert authorization.digest == eth_account_digest(typed)
    assert _recovered(typed, authorization.signature) == account.address
    assert (authorization.v, authorization.r, authorization.s) == (
        reference.v,
        "0x" + reference.r.to_bytes(32, "big").hex(),
        "0x" + reference.s.to_bytes(32, "big").hex(),
    )


def test_a_deposit_authorization_names_the_registrys_wallet_and_usdc(
    account: LocalAccount,
) -> None:
    authorization = sign_deposit_authorization(account, chain_id=8453, value=1)
    assert authorization.to == BASE.gateway_wallet
    assert authorization.token == BASE.usdc
    assert authorization.authorizer == account.address
    assert (authorization.token_name, authorization.token_version) == ("USD Coin", "2")
    typed = _typed(authorization)
    assert typed["primaryType"] == "ReceiveWithAuthorization"
    assert typed["domain"] == {
        "name": "USD Coin",
        "version": "2",
        "chainId": 8453,
        "verifyingContract": BASE.usdc,
    }
    assert typed["types"]["ReceiveWithAuthorization"] == [
        {"name": "from", "type": "address"},
        {"name": "to", "type": "address"},
        {"name": "value", "type": "uint256"},
        {"name": "validAfter", "type": "uint256"},
        {"name": "validBefore", "type": "uint256"},
        {"name": "nonce", "type": "bytes32"},
    ]


def test_the_nonce_is_random_and_the_window_defaults_to_an_hour(account: LocalAccount) -> None:
    before = int(time.time())
    first = sign_deposit_authorization(account, chain_id=8453, value=1)
    second = sign_deposit_authorization(account, chain_id=8453, value=1)
    after = int(time.time())
    assert first.nonce != second.nonce
    assert len(bytes.fromhex(first.nonce[2:])) == 32
    assert first.valid_after == 0
    lifetime = first.valid_before - DEFAULT_AUTHORIZATION_LIFETIME
    assert before <= lifetime <= after


def test_base_sepolia_signs_for_the_token_named_usdc(account: LocalAccount) -> None:
    authorization = sign_deposit_authorization(account, chain_id=84532, value=1)
    assert authorization.token_name == "USDC"
    assert authorization.to == DEFAULT_REGISTRY.chain(84532).gateway_wallet


def test_a_chain_without_a_pinned_token_domain_needs_the_callers_name(
    account: LocalAccount,
) -> None:
    with pytest.raises(InvalidInputError) as info:
        sign_deposit_authorization(account, chain_id=10, value=1)
    assert info.value.argument == "token_name"
    signed = sign_deposit_authorization(
        account, chain_id=10, value=1, token_name="USD Coin", token_version="2"
    )
    assert signed.token == DEFAULT_REGISTRY.chain(10).usdc


def test_a_chain_outside_the_registry_is_refused(account: LocalAccount) -> None:
    with pytest.raises(UnsafePayloadError) as info:
        sign_deposit_authorization(account, chain_id=56, value=1, token_name="x", token_version="1")
    assert info.value.field == "chain_id"


def test_a_caller_added_chain_is_signed_for_its_own_contracts(account: LocalAccount) -> None:
    chain = GatewayChain(
        chain_id=777,
        name="Devnet",
        domain=77,
        usdc=OTHER,
        gateway_wallet="0x" + "77" * 20,
        gateway_minter="0x" + "22" * 20,
        testnet=True,
        usdc_eip712_name="Dev USD",
        usdc_eip712_version="1",
    )
    registry = DEFAULT_REGISTRY.with_chains(chain)
    deposit = prepare_deposit_with_authorization(account, chain_id=777, value=9, registry=registry)
    assert deposit.to == chain.gateway_wallet
    assert deposit.authorization.token == chain.usdc
    assert deposit.authorization.token_name == "Dev USD"


@pytest.mark.parametrize(
    ("arguments", "argument"),
    [
        ({"value": 0}, "value"),
        ({"value": -1}, "value"),
        ({"value": 1.5}, "value"),
        ({"chain_id": 0}, "chain_id"),
        ({"chain_id": True}, "chain_id"),
        ({"valid_after": 10, "valid_before": 10}, "valid_before"),
        ({"nonce": "0x1234"}, "nonce"),
        ({"token_name": ""}, "token_name"),
    ],
)
def test_bad_arguments_are_refused_before_anything_is_signed(
    arguments: dict[str, Any], argument: str
) -> None:
    signer = RecordingSigner()
    with pytest.raises(InvalidInputError) as info:
        sign_deposit_authorization(signer, **{"chain_id": 8453, "value": 1, **arguments})
    assert info.value.argument == argument
    assert not signer.typed


def test_a_remote_signer_is_shown_the_whole_authorization() -> None:
    signer = RecordingSigner()
    authorization = sign_deposit_authorization(signer, chain_id=8453, value=42, nonce=NONCE)
    assert signer.typed == [_typed(authorization)]
    assert signer.typed[0]["message"]["to"] == BASE.gateway_wallet
    assert not signer.digests
    assert _recovered(signer.typed[0], authorization.signature) == signer.address


def test_a_signer_that_signs_with_another_key_is_caught() -> None:
    with pytest.raises(SigningError):
        sign_deposit_authorization(OtherKeySigner(), chain_id=8453, value=1)


def test_the_signature_stays_out_of_reprs(account: LocalAccount) -> None:
    deposit = prepare_deposit_with_authorization(account, chain_id=8453, value=1)
    for shown in (repr(deposit), repr(deposit.authorization), str(deposit)):
        assert deposit.authorization.signature[2:] not in shown
        assert deposit.authorization.r[2:] not in shown


def test_the_vrs_calldata_carries_what_was_signed(account: LocalAccount) -> None:
    deposit = prepare_deposit_with_authorization(
        account, chain_id=8453, value=7_000_000, valid_after=5, valid_before=LATER, nonce=NONCE
    )
    signature = "depositWithAuthorization(" + ",".join(VRS_TYPES) + ")"
    assert "0x" + keccak(signature.encode())[:4].hex() == DEPOSIT_WITH_AUTHORIZATION_SELECTOR
    assert deposit.data.startswith(DEPOSIT_WITH_AUTHORIZATION_SELECTOR)
    assert deposit.function == signature
    token, owner, value, after, before, nonce, v, r, s = decode(
        VRS_TYPES, bytes.fromhex(deposit.data[10:])
    )
    authorization = deposit.authorization
    assert (token.lower(), owner.lower()) == (BASE.usdc.lower(), account.address.lower())
    assert (value, after, before) == (7_000_000, 5, LATER)
    assert "0x" + nonce.hex() == NONCE
    assert (v, "0x" + r.hex(), "0x" + s.hex()) == (
        authorization.v,
        authorization.r,
        authorization.s,
    )
    assert (deposit.to, deposit.chain_id, deposit.value, deposit.sender) == (
        BASE.gateway_wallet,
        8453,
        0,
        None,
    )
    assert deposit.relay_arguments() == {
        "chain_id": 8453,
        "to": BASE.gateway_wallet,
        "call_data": deposit.data,
    }


def test_the_bytes_overload_carries_the_packed_signature(account: LocalAccount) -> None:
    deposit = prepare_deposit_with_authorization(
        account, chain_id=8453, value=3, nonce=NONCE, signature_form="bytes"
    )
    signature = "depositWithAuthorization(" + ",".join(BYTES_TYPES) + ")"
    assert "0x" + keccak(signature.encode())[:4].hex() == DEPOSIT_WITH_AUTHORIZATION_BYTES_SELECTOR
    assert deposit.data.startswith(DEPOSIT_WITH_AUTHORIZATION_BYTES_SELECTOR)
    decoded = decode(BYTES_TYPES, bytes.fromhex(deposit.data[10:]))
    assert "0x" + decoded[-1].hex() == deposit.authorization.signature
    assert decoded[2] == 3


def test_an_authorization_for_another_receiver_is_not_made_a_deposit(
    account: LocalAccount,
) -> None:
    stray = sign_receive_authorization(
        account,
        token_name="USD Coin",
        token_version="2",
        chain_id=8453,
        token=BASE.usdc,
        to=OTHER,
        value=1,
    )
    with pytest.raises(UnsafePayloadError) as info:
        deposit_with_authorization_call(stray)
    assert info.value.field == "authorization.to"
    other_token = stray.model_copy(update={"to": BASE.gateway_wallet, "token": OTHER})
    with pytest.raises(UnsafePayloadError) as info:
        deposit_with_authorization_call(other_token)
    assert info.value.field == "authorization.token"


def test_an_unknown_signature_form_is_refused(account: LocalAccount) -> None:
    authorization = sign_deposit_authorization(account, chain_id=8453, value=1)
    with pytest.raises(InvalidInputError) as info:
        deposit_with_authorization_call(authorization, signature_form="rsv")  # type: ignore[arg-type]
    assert info.value.argument == "signature_form"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.binary(min_size=32, max_size=32).filter(lambda k: 0 < int.from_bytes(k, "big") < 2**255),
    token=addresses,
    to=addresses,
    value=amounts,
    after=times,
    window=st.integers(min_value=1, max_value=2**64),
    nonce=nonces,
    chain_id=st.integers(min_value=1, max_value=2**64),
)
def test_any_authorization_signs_as_eth_account_does_and_recovers(
    key: bytes,
    token: str,
    to: str,
    value: int,
    after: int,
    window: int,
    nonce: str,
    chain_id: int,
) -> None:
    signer = Account.from_key(key)
    authorization = sign_receive_authorization(
        signer,
        token_name="USD Coin",
        token_version="2",
        chain_id=chain_id,
        token=token,
        to=to,
        value=value,
        valid_after=after,
        valid_before=max(after, NOW + 86_400) + window,
        nonce=nonce,
    )
    typed = _typed(authorization)
    assert typed["message"]["value"] == str(value)
    assert authorization.digest == eth_account_digest(typed)
    assert (
        authorization.signature
        == "0x" + bytes(signer.sign_typed_data(full_message=typed).signature).hex()
    )
    assert _recovered(typed, authorization.signature) == signer.address
