"""Calls to the gateway contracts built without web3: selectors, arguments, targets from
the registry, who may send them, and the views' answers."""

from __future__ import annotations

from typing import Any

import pytest
from eth_abi.abi import decode
from eth_account.signers.local import LocalAccount
from eth_hash.auto import keccak
from hypothesis import given
from hypothesis import strategies as st

from xswap_sdk.errors import InvalidInputError, UnsafePayloadError
from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox._attestation import encode_attestation, sign_attestation
from xswap_sdk.signing import (
    DEPOSIT_WITH_PERMIT_BYTES_SELECTOR,
    DEPOSIT_WITH_PERMIT_SELECTOR,
    ContractCall,
    ViewCall,
    add_delegate_call,
    available_balance_call,
    deposit_with_permit_bytes_calldata,
    deposit_with_permit_call,
    gateway_mint_call,
    initiate_withdrawal_call,
    is_authorized_for_balance_call,
    remove_delegate_call,
    sign_permit,
    total_balance_call,
    withdraw_call,
    withdrawable_balance_call,
    withdrawal_block_call,
    withdrawal_delay_call,
    withdrawing_balance_call,
)
from xswap_sdk.signing.gateway_wallet import SELECTORS

BASE = DEFAULT_REGISTRY.chain(8453)
SEPOLIA = DEFAULT_REGISTRY.chain(11155111)
DEPOSITOR = "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586"
DELEGATE = "0x000000000000000000000000000000000000dEaD"

addresses = st.binary(min_size=20, max_size=20).map(lambda raw: "0x" + raw.hex())


def arguments(call: ContractCall) -> tuple[Any, ...]:
    """The decoded arguments of a call, by the types in its own Solidity signature."""
    types = call.function[call.function.index("(") + 1 : -1]
    return decode([t for t in types.split(",") if t], bytes.fromhex(call.data[10:]))


def lower(values: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(v.lower() if isinstance(v, str) else v for v in values)


@pytest.mark.parametrize("function", sorted(SELECTORS))
def test_every_selector_is_the_keccak_of_its_signature(function: str) -> None:
    assert SELECTORS[function] == "0x" + keccak(function.encode())[:4].hex()


def test_the_permit_selectors_are_the_two_overloads() -> None:
    assert DEPOSIT_WITH_PERMIT_SELECTOR == "0x8ef59739"
    assert DEPOSIT_WITH_PERMIT_BYTES_SELECTOR == "0x26a3fb30"


def test_initiate_withdrawal_targets_the_wallet_and_must_come_from_the_depositor() -> None:
    call = initiate_withdrawal_call(chain_id=8453, value="2500000", depositor=DEPOSITOR.lower())
    assert call.data.startswith(SELECTORS["initiateWithdrawal(address,uint256)"])
    assert lower(arguments(call)) == (BASE.usdc.lower(), 2_500_000)
    assert (call.to, call.chain_id, call.value) == (BASE.gateway_wallet, 8453, 0)
    assert call.sender == DEPOSITOR
    assert call.to_transaction() == {
        "to": BASE.gateway_wallet,
        "data": call.data,
        "value": 0,
        "chainId": 8453,
        "from": DEPOSITOR,
    }
    with pytest.raises(InvalidInputError) as info:
        call.relay_arguments()
    assert DEPOSITOR in info.value.rule
    assert "msg.sender" in info.value.rule


def test_withdraw_names_the_chains_usdc() -> None:
    call = withdraw_call(chain_id=11155111, depositor=DEPOSITOR)
    assert lower(arguments(call)) == (SEPOLIA.usdc.lower(),)
    assert call.to == SEPOLIA.gateway_wallet
    assert call.sender == DEPOSITOR


@pytest.mark.parametrize(
    ("builder", "function"),
    [
        (available_balance_call, "availableBalance(address,address)"),
        (withdrawing_balance_call, "withdrawingBalance(address,address)"),
        (withdrawable_balance_call, "withdrawableBalance(address,address)"),
        (total_balance_call, "totalBalance(address,address)"),
        (withdrawal_block_call, "withdrawalBlock(address,address)"),
    ],
)
def test_balance_views_read_the_depositors_usdc(builder: Any, function: str) -> None:
    view = builder(chain_id=8453, depositor=DEPOSITOR)
    assert isinstance(view, ViewCall)
    assert view.function == function
    assert view.data.startswith(SELECTORS[function])
    assert lower(arguments(view)) == (BASE.usdc.lower(), DEPOSITOR.lower())
    assert view.to_call() == {"to": BASE.gateway_wallet, "data": view.data}
    assert view.decode((1234).to_bytes(32, "big")) == 1234
    assert view.decode("0x" + (5).to_bytes(32, "big").hex()) == 5


def test_the_withdrawal_delay_takes_no_argument() -> None:
    view = withdrawal_delay_call(chain_id=8453)
    assert view.data == SELECTORS["withdrawalDelay()"]
    assert view.decode(b"\x00" * 31 + b"\x07") == 7


@pytest.mark.parametrize("answer", [b"", b"\x00" * 31, "0xzz", 12])
def test_a_view_refuses_an_answer_that_is_not_one_word(answer: Any) -> None:
    with pytest.raises(InvalidInputError):
        withdrawal_delay_call(chain_id=8453).decode(answer)


def test_delegation_calls_and_the_authorization_view() -> None:
    added = add_delegate_call(chain_id=8453, delegate=DELEGATE, depositor=DEPOSITOR)
    removed = remove_delegate_call(chain_id=8453, delegate=DELEGATE, depositor=DEPOSITOR)
    assert added.data.startswith(SELECTORS["addDelegate(address,address)"])
    assert removed.data.startswith(SELECTORS["removeDelegate(address,address)"])
    for call in (added, removed):
        assert lower(arguments(call)) == (BASE.usdc.lower(), DELEGATE.lower())
        assert call.sender == DEPOSITOR
    view = is_authorized_for_balance_call(chain_id=8453, depositor=DEPOSITOR, delegate=DELEGATE)
    assert view.returns == "bool"
    assert lower(arguments(view)) == (BASE.usdc.lower(), DEPOSITOR.lower(), DELEGATE.lower())
    assert view.decode(b"\x00" * 31 + b"\x01") == 1
    with pytest.raises(InvalidInputError):
        view.decode(b"\x00" * 31 + b"\x02")


@pytest.mark.parametrize(
    ("delegate", "rule"), [(DEPOSITOR, "CannotDelegateToSelf"), ("0x" + "0" * 40, "zero address")]
)
def test_a_delegate_the_wallet_would_refuse_is_refused(delegate: str, rule: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        add_delegate_call(chain_id=8453, delegate=delegate, depositor=DEPOSITOR)
    assert info.value.argument == "delegate"
    assert rule in info.value.rule


def _transfer(chain_id: int = 42161) -> Any:
    return build_transfer_intent(
        source_chain_id=8453,
        destination_chain_id=chain_id,
        depositor=DEPOSITOR,
        recipient=DEPOSITOR,
        value=1_000_000,
    )


def _attested(intent: Any) -> tuple[str, str]:
    payload = encode_attestation([(10**6, intent.spec.to_wire())])
    return "0x" + payload.hex(), sign_attestation(payload)


def test_gateway_mint_targets_the_destination_minter() -> None:
    intent = _transfer()
    attestation, signature = _attested(intent)
    call = gateway_mint_call(
        chain_id=42161, attestation=attestation, signature=signature, intents=intent
    )
    arbitrum = DEFAULT_REGISTRY.chain(42161)
    assert call.to == arbitrum.gateway_minter
    assert call.data.startswith(SELECTORS["gatewayMint(bytes,bytes)"])
    assert arguments(call) == (bytes.fromhex(attestation[2:]), bytes.fromhex(signature[2:]))
    assert call.sender is None
    assert call.relay_arguments()["to"] == arbitrum.gateway_minter


@pytest.mark.parametrize(
    ("arguments_", "argument"),
    [
        ({"attestation": "0x"}, "attestation"),
        ({"signature": "0x"}, "signature"),
        ({"attestation": "deadbeef"}, "attestation"),
        ({"signature": "0x123"}, "signature"),
    ],
)
def test_a_mint_needs_an_attestation_and_a_signature(
    arguments_: dict[str, Any], argument: str
) -> None:
    given_ = {
        "chain_id": 8453,
        "attestation": "0xaa",
        "signature": "0xbb",
        "intents": _transfer(8453),
        **arguments_,
    }
    with pytest.raises(InvalidInputError) as info:
        gateway_mint_call(**given_)
    assert info.value.argument == argument


@pytest.mark.parametrize(
    ("builder", "extra"),
    [
        (initiate_withdrawal_call, {"value": 1, "depositor": DEPOSITOR}),
        (withdraw_call, {"depositor": DEPOSITOR}),
        (available_balance_call, {"depositor": DEPOSITOR}),
        (withdrawal_delay_call, {}),
        (add_delegate_call, {"delegate": DELEGATE, "depositor": DEPOSITOR}),
        (gateway_mint_call, {"attestation": "0xaa", "signature": "0xbb", "intents": []}),
    ],
)
def test_a_chain_outside_the_registry_is_refused(builder: Any, extra: dict[str, Any]) -> None:
    with pytest.raises(UnsafePayloadError) as info:
        builder(chain_id=56, **extra)
    assert info.value.field == "chain_id"


def test_a_withdrawal_of_nothing_is_refused() -> None:
    with pytest.raises(InvalidInputError) as info:
        initiate_withdrawal_call(chain_id=8453, value=0, depositor=DEPOSITOR)
    assert "WithdrawalValueMustBePositive" in info.value.rule


def base_usdc_permit(account: LocalAccount, **permit: Any) -> Any:
    """``account``'s permit of USDC on Base (``spender``, ``value``, ``nonce``, ...)."""
    return sign_permit(
        account,
        token_name="USD Coin",
        token_version="2",
        chain_id=8453,
        token_address=BASE.usdc,
        **permit,
    )


def test_the_bytes_permit_overload_carries_the_whole_signature(account: LocalAccount) -> None:
    permit = base_usdc_permit(
        account, spender=BASE.gateway_wallet, value=2_000_000, nonce=3, deadline=2_000_000_000
    )
    vrs = deposit_with_permit_call(permit)
    packed = deposit_with_permit_call(permit, signature_form="bytes")
    assert vrs.data.startswith(DEPOSIT_WITH_PERMIT_SELECTOR)
    assert packed.data.startswith(DEPOSIT_WITH_PERMIT_BYTES_SELECTOR)
    token, owner, value, deadline, signature = arguments(packed)
    assert (token.lower(), owner.lower()) == (BASE.usdc.lower(), account.address.lower())
    assert (value, deadline) == (2_000_000, 2_000_000_000)
    assert "0x" + signature.hex() == permit.signature
    assert packed.to == vrs.to == BASE.gateway_wallet
    assert packed.relay_arguments()["call_data"] == packed.data


def test_a_permit_for_another_spender_is_not_made_a_deposit(account: LocalAccount) -> None:
    permit = base_usdc_permit(account, spender=DELEGATE, value=1, nonce=0)
    with pytest.raises(UnsafePayloadError) as info:
        deposit_with_permit_call(permit, signature_form="bytes")
    assert info.value.field == "permit.spender"


def test_a_contract_wallets_signature_of_any_length_is_carried() -> None:
    long_signature = "0x" + "ab" * 200
    data = deposit_with_permit_bytes_calldata(
        token=BASE.usdc, owner=DEPOSITOR, value=1, deadline=5, signature=long_signature
    )
    decoded = decode(
        ["address", "address", "uint256", "uint256", "bytes"], bytes.fromhex(data[10:])
    )
    assert decoded[-1] == bytes.fromhex("ab" * 200)
    with pytest.raises(InvalidInputError) as info:
        deposit_with_permit_bytes_calldata(
            token=BASE.usdc, owner=DEPOSITOR, value=0, deadline=5, signature=long_signature
        )
    assert "DepositValueMustBePositive" in info.value.rule


@given(depositor=addresses, value=st.integers(min_value=1, max_value=2**256 - 1))
def test_any_withdrawal_encodes_its_amount_and_nothing_else(depositor: str, value: int) -> None:
    call = initiate_withdrawal_call(chain_id=42161, value=value, depositor=depositor)
    assert lower(arguments(call)) == (DEFAULT_REGISTRY.chain(42161).usdc.lower(), value)
    assert call.sender is not None
    assert call.sender.lower() == depositor
    view = available_balance_call(chain_id=42161, depositor=depositor)
    assert arguments(view)[1].lower() == depositor
