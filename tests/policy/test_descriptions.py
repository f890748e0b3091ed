"""The gate describes what is signed from the payload itself, for every signing function
of the SDK: a property test for burn intents and permits, and one call of each public
signing function showing it cannot sign around the gate."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xswap_sdk import errors
from xswap_sdk.policy import Policy, SigningRequest, use_policy
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.signing import (
    build_burn_intent,
    permit_typed_data,
    personal_sign,
    sign_authorization,
    sign_burn_intent,
    sign_burn_intent_set,
    sign_deposit_authorization,
    sign_permit,
    sign_receive_authorization,
    sign_typed_data,
)
from xswap_sdk.signing._gate import describe_transaction
from xswap_sdk.signing.signer import sign_digest
from xswap_sdk.testing import TEST_SIGNER

from ..support import permit2_typed_data
from .support import ARBITRUM, BASE, ROUTER, SPENDER, Hook, intent, permit

# EVM chains: a Solana source is signed by a Solana key (tests/signing/test_solana.py).
MAINNETS = [chain for chain in DEFAULT_REGISTRY if not chain.testnet and chain.family == "evm"]
addresses = st.binary(min_size=20, max_size=20).map(lambda raw: "0x" + raw.hex())
uint256 = st.integers(min_value=1, max_value=2**256 - 1)
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def checksum(address: str) -> str:
    from xswap_sdk.types import to_checksum

    return to_checksum(address)


def seen(call: Any) -> SigningRequest:
    hook = Hook()
    with use_policy(hook):
        call()
    (request,) = hook.seen
    return request


@FAST
@given(
    source=st.sampled_from(MAINNETS),
    destination=st.sampled_from(MAINNETS),
    recipient=addresses,
    value=uint256,
    max_fee=st.integers(min_value=0, max_value=2**256 - 1),
    max_block_height=uint256,
)
def test_a_burn_intent_is_described_by_its_fields(
    source: Any, destination: Any, recipient: str, value: int, max_fee: int, max_block_height: int
) -> None:
    built = build_burn_intent(
        source_domain=source.domain,
        destination_domain=destination.domain,
        source_contract=source.gateway_wallet,
        destination_contract=destination.gateway_minter,
        source_token=source.usdc,
        destination_token=destination.usdc,
        user=TEST_SIGNER.address,
        recipient=recipient,
        value=value,
        max_fee=max_fee,
        max_block_height=max_block_height,
    )
    request = seen(lambda: sign_burn_intent(built, TEST_SIGNER))
    assert request.kind == "burn_intent"
    assert request.signer == TEST_SIGNER.address
    assert request.chain_id == source.chain_id
    assert request.token == source.usdc
    assert request.amount == value
    assert request.counterparty == checksum(recipient)
    assert request.fee == max_fee
    assert request.expires_at is None
    assert request.details["max_block_height"] == str(max_block_height)
    assert request.details["destination_chain_id"] == destination.chain_id
    assert request.details["primary_type"] == "BurnIntent"


@FAST
@given(
    chain_id=st.integers(min_value=1, max_value=2**64),
    token=addresses,
    spender=addresses,
    value=st.integers(min_value=0, max_value=2**256 - 1),
    nonce=st.integers(min_value=0, max_value=2**256 - 1),
    deadline=st.integers(min_value=0, max_value=2**256 - 1),
)
def test_a_permit_is_described_by_its_fields(
    chain_id: int, token: str, spender: str, value: int, nonce: int, deadline: int
) -> None:
    arguments = {
        "token_name": "USD Coin",
        "token_version": "2",
        "chain_id": chain_id,
        "token_address": token,
        "spender": spender,
        "value": value,
        "nonce": nonce,
        "deadline": deadline,
    }
    request = seen(lambda: sign_permit(TEST_SIGNER, **arguments))
    assert request.kind == "permit"
    assert (request.chain_id, request.token, request.counterparty) == (
        chain_id,
        checksum(token),
        checksum(spender),
    )
    assert (request.amount, request.expires_at, request.fee) == (value, deadline, None)
    assert request.details["nonce"] == str(nonce)
    # The same payload signed through the generic path is described the same way.
    payload = permit_typed_data(**arguments, owner=TEST_SIGNER.address)
    generic = seen(lambda: sign_typed_data(TEST_SIGNER, payload))
    assert generic == request


def test_a_set_is_one_request_with_a_leg_per_intent() -> None:
    intents = [intent(BASE, 3_000_000), intent(ARBITRUM, 4_000_000, max_fee=5)]
    request = seen(lambda: sign_burn_intent_set(intents, TEST_SIGNER))
    assert request.kind == "burn_intent_set"
    assert (request.amount, request.fee, request.counterparty) == (7_000_000, 2_010_005, ROUTER)
    assert request.chain_id is None  # two source chains: each leg has its own
    assert request.token is None
    assert [leg.chain_id for leg in request.legs] == [8453, 42161]
    assert [leg.token for leg in request.legs] == [BASE.usdc, ARBITRUM.usdc]
    assert request.details["intents"] == 2


def test_a_permit2_transfer_is_described_with_its_witness() -> None:
    payload = permit2_typed_data(
        permitted={"token": BASE.usdc, "amount": "250000000"},
        spender=SPENDER,
        nonce="7",
        deadline="1900000000",
    )
    payload["types"]["EIP712Domain"] = [
        {"name": "name", "type": "string"},
        {"name": "chainId", "type": "uint256"},
        {"name": "verifyingContract", "type": "address"},
    ]
    request = seen(lambda: sign_typed_data(TEST_SIGNER, payload))
    assert (request.kind, request.chain_id, request.token) == ("permit2", 8453, BASE.usdc)
    assert (request.amount, request.counterparty) == (250_000_000, SPENDER)
    assert request.expires_at == 1_900_000_000
    assert request.details["witness"] is None


def receive_authorization(value: int) -> Any:
    """A USDC ``receiveWithAuthorization`` on Base of ``value`` to ``SPENDER``."""
    return sign_receive_authorization(
        TEST_SIGNER,
        token_name="USD Coin",
        token_version="2",
        chain_id=8453,
        token=BASE.usdc,
        to=SPENDER,
        value=value,
        valid_before=2_000_000_000,
    )


def test_eip3009_authorizations_are_described() -> None:
    request = seen(lambda: receive_authorization(1_500_000))
    assert (request.kind, request.chain_id, request.token) == ("eip3009", 8453, BASE.usdc)
    assert (request.amount, request.counterparty, request.expires_at) == (
        1_500_000,
        SPENDER,
        2_000_000_000,
    )
    deposit = seen(
        lambda: sign_deposit_authorization(
            TEST_SIGNER, chain_id=8453, value=1, valid_before=2_000_000_000
        )
    )
    assert deposit.counterparty == BASE.gateway_wallet


def test_every_public_signing_function_passes_the_gate() -> None:
    refuse = Policy(approve=lambda request: False)
    calls = {
        "burn_intent": lambda: sign_burn_intent(intent(), TEST_SIGNER),
        "burn_intent_set": lambda: sign_burn_intent_set([intent()], TEST_SIGNER),
        "permit": lambda: permit(value=1),
        "eip3009": lambda: sign_deposit_authorization(TEST_SIGNER, chain_id=8453, value=1),
        "authority_grant": lambda: sign_authorization(
            TEST_SIGNER, chain_id=1, address=SPENDER, nonce=0
        ),
        "login": lambda: personal_sign(TEST_SIGNER, "hello"),
        "digest": lambda: sign_digest(TEST_SIGNER, bytes(32)),
    }
    for kind, call in calls.items():
        with use_policy(refuse), pytest.raises(errors.PolicyRefusedError) as caught:
            call()
        assert caught.value.request.kind == kind, kind
        assert call()  # and without a policy, it signs


def test_the_policy_argument_of_the_signing_functions() -> None:
    hook = Hook()
    sign_burn_intent(intent(), TEST_SIGNER, policy=hook)
    sign_burn_intent_set([intent()], TEST_SIGNER, policy=hook)
    personal_sign(TEST_SIGNER, "hello", policy=hook)
    sign_typed_data(
        TEST_SIGNER,
        permit_typed_data(
            token_name="USD Coin",
            token_version="2",
            chain_id=8453,
            token_address=BASE.usdc,
            owner=TEST_SIGNER.address,
            spender=SPENDER,
            value=1,
            nonce=0,
            deadline=1,
        ),
        policy=hook,
    )
    assert [r.kind for r in hook.seen] == ["burn_intent", "burn_intent_set", "login", "permit"]


def test_a_transaction_is_described_from_its_calldata() -> None:
    approve = "0x095ea7b3" + SPENDER[2:].lower().rjust(64, "0") + f"{5_000_000:064x}"
    request = describe_transaction(
        TEST_SIGNER.address, {"to": BASE.usdc, "data": approve, "value": 0, "chainId": 8453}
    )
    # An approval moves nothing yet: it grants the spender an allowance.
    assert (request.kind, request.chain_id, request.token) == ("authority_grant", 8453, BASE.usdc)
    assert (request.amount, request.counterparty) == (5_000_000, SPENDER)
    assert request.details["call"] == "approve"
    assert request.details["grant"] == "approve"
    plain = describe_transaction(
        TEST_SIGNER.address, {"to": ROUTER, "data": b"\x12\x34", "value": 10**18}
    )
    assert (plain.token, plain.amount, plain.counterparty) == ("native", 10**18, ROUTER)
    assert plain.chain_id is None


def test_a_flow_can_name_the_kind_of_what_it_signs() -> None:
    from xswap_sdk.signing._gate import as_kind

    def pay() -> None:
        with as_kind("x402_payment", {"resource": "https://api.example/data"}):
            receive_authorization(10_000)

    request = seen(pay)
    assert (request.kind, request.amount, request.counterparty) == ("x402_payment", 10_000, SPENDER)
    assert request.details["resource"] == "https://api.example/data"
    assert request.details["primary_type"] == "ReceiveWithAuthorization"
