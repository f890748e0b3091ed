"""Every contract call is read before it is signed, and grants of authority are their
own kind (sync and async where a client sends).

A `ContractCall`'s label (``function``) is not what is signed: ``to``, ``data`` and
``value`` are. These tests play a caller handed a call built elsewhere:

- ``withdraw(address)`` written over ``USDC.transfer(attacker, 1000 USDC)`` is refused
  by `check_call`, by `GatewayClient.send_call` and by `simulation.send_call`, before
  anything is signed or sent; ``unsafe_any_call=True`` is the only way past;
- the signing gate describes a transaction by its calldata: a Gateway ``addDelegate``,
  an ERC-20 approval or an EIP-7702 delegation is an ``"authority_grant"``, which every
  amount rule of a policy refuses unless the grantee is an allowed counterparty.
"""

from __future__ import annotations

from typing import Any

import pytest

from xswap_sdk import errors, simulation
from xswap_sdk.policy import AUTHORITY_GRANT, Policy, SigningRequest, use_policy
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import (
    ContractCall,
    add_delegate_call,
    check_call,
    initiate_withdrawal_call,
    read_call,
    remove_delegate_call,
    sign_authorization,
    sign_transfer_authorization,
    withdraw_call,
)
from xswap_sdk.signing._gate import describe_transaction
from xswap_sdk.testing import TEST_SIGNER

from ..gateway.chain import CHAIN_ID, destination, mints_sent
from ..support import resolve

BASE = DEFAULT_REGISTRY.chain(CHAIN_ID)
ATTACKER = "0xBAd0000000000000000000000000000000000Bad"
DELEGATE = "0x5ce9454909639D2D17A3F753ce7d93fa0b9aB12E"


def word(value: int | str) -> str:
    if isinstance(value, str):
        return value[2:].lower().rjust(64, "0")
    return f"{value:064x}"


# USDC.transfer(attacker, 1000 USDC), labelled as a harmless withdrawal.
STEAL = ContractCall(
    to=BASE.usdc,
    data="0xa9059cbb" + word(ATTACKER) + word(1000 * 10**6),
    chain_id=CHAIN_ID,
    function="withdraw(address)",
)


# -- check_call, pure


def test_a_transfer_labelled_as_a_withdrawal_is_refused() -> None:
    with pytest.raises(errors.UnsafePayloadError) as refused:
        check_call(STEAL, sender=TEST_SIGNER.address)
    assert refused.value.field == "call.data"  # transfer is no function the SDK sends
    assert "unsafe_any_call" in str(refused.value)


def test_a_call_to_a_contract_the_registry_does_not_pin_is_refused() -> None:
    honest = withdraw_call(chain_id=CHAIN_ID, depositor=TEST_SIGNER.address)
    elsewhere = honest.model_copy(update={"to": ATTACKER})
    with pytest.raises(errors.UnsafePayloadError) as refused:
        check_call(elsewhere)
    assert refused.value.field == "call.to"


def test_a_label_that_is_not_what_the_bytes_call_is_refused() -> None:
    # initiateWithdrawal's bytes under withdraw's label: the label lies.
    real = initiate_withdrawal_call(
        chain_id=CHAIN_ID, value=1_000_000, depositor=TEST_SIGNER.address
    )
    lying = real.model_copy(update={"function": "withdraw(address)"})
    with pytest.raises(errors.UnsafePayloadError) as refused:
        check_call(lying)
    assert refused.value.field == "call.function"
    assert "initiateWithdrawal(address,uint256)" in str(refused.value)


@pytest.mark.parametrize(
    ("update", "field"),
    [
        ({"value": 1}, "call.value"),
        ({"data": None}, "call.data"),  # filled below: trailing bytes
        ({"chain_id": 999_999}, "call.chain_id"),
    ],
    ids=["value", "trailing-bytes", "unknown-chain"],
)
def test_a_call_off_its_encoding_value_or_chain_is_refused(
    update: dict[str, Any], field: str
) -> None:
    honest = withdraw_call(chain_id=CHAIN_ID, depositor=TEST_SIGNER.address)
    if update.get("data", 0) is None:
        update = {"data": honest.data + "00" * 32}
    with pytest.raises(errors.UnsafePayloadError) as refused:
        check_call(honest.model_copy(update=update))
    assert refused.value.field == field


def test_a_gateway_call_on_another_token_is_refused() -> None:
    other_token = "0x" + "42" * 20
    call = ContractCall(
        to=BASE.gateway_wallet,
        data="0x51cff8d9" + word(other_token),
        chain_id=CHAIN_ID,
        function="withdraw(address)",
    )
    with pytest.raises(errors.UnsafePayloadError) as refused:
        check_call(call)
    assert refused.value.field == "call.data.token"


def test_every_call_the_sdk_builds_is_read_as_what_it_is() -> None:
    me = TEST_SIGNER.address
    built = [
        withdraw_call(chain_id=CHAIN_ID, depositor=me),
        initiate_withdrawal_call(chain_id=CHAIN_ID, value=5, depositor=me),
        add_delegate_call(chain_id=CHAIN_ID, delegate=DELEGATE, depositor=me),
        remove_delegate_call(chain_id=CHAIN_ID, delegate=DELEGATE, depositor=me),
    ]
    for call in built:
        read = check_call(call, sender=me)
        assert read is not None
        assert read.function == call.function
    delegate = check_call(built[2], sender=me)
    assert delegate is not None
    assert delegate.grant
    assert delegate.counterparty == DELEGATE
    assert "GRANTS" in delegate.effect


def test_unsafe_any_call_is_the_only_way_past() -> None:
    assert check_call(STEAL, unsafe_any_call=True) is None  # nothing checked, nothing read
    with pytest.raises(errors.InvalidInputError, match="unsafe_any_call"):
        check_call(STEAL, unsafe_any_call="yes")  # type: ignore[arg-type]


# -- the senders refuse before signing


def _client(sb: Sandbox, kind: str) -> Any:
    return (sb.gateway_client if kind == "sync" else sb.async_gateway_client)()


@pytest.mark.evm
async def test_gateway_send_call_refuses_a_call_it_cannot_read(kind: str) -> None:
    web3 = destination(kind)
    with Sandbox() as sb:
        gateway = _client(sb, kind)
        with pytest.raises(errors.UnsafePayloadError, match=r"call\.data"):
            await resolve(gateway.send_call(STEAL, web3=web3, signer=TEST_SIGNER))
    assert await mints_sent(web3) == 0  # nothing signed, nothing sent


@pytest.mark.evm
async def test_simulation_send_call_refuses_a_call_it_cannot_read(kind: str) -> None:
    web3 = destination(kind)
    send = simulation.send_call if kind == "sync" else simulation.async_send_call
    with pytest.raises(errors.UnsafePayloadError, match=r"call\.data"):
        await resolve(send(web3, TEST_SIGNER, STEAL))
    assert await mints_sent(web3) == 0


@pytest.mark.evm
async def test_an_honest_call_is_still_sent(kind: str) -> None:
    web3 = destination(kind)
    call = initiate_withdrawal_call(chain_id=CHAIN_ID, value=1, depositor=TEST_SIGNER.address)
    with Sandbox() as sb:
        sent = await resolve(
            _client(sb, kind).send_call(call, web3=web3, signer=TEST_SIGNER, simulate=False)
        )
    assert sent.tx_hash
    assert await mints_sent(web3) == 1


# -- the gate describes what the call does; grants are their own kind


def _fields(call: ContractCall) -> dict[str, Any]:
    return {**call.to_transaction(), "chainId": call.chain_id}


def test_the_gate_describes_a_delegate_as_a_grant_of_the_whole_balance() -> None:
    call = add_delegate_call(chain_id=CHAIN_ID, delegate=DELEGATE, depositor=TEST_SIGNER.address)
    request = describe_transaction(TEST_SIGNER.address, _fields(call))
    assert request.kind == AUTHORITY_GRANT
    assert request.details["grant"] == "gateway_delegate"
    assert (request.token, request.amount, request.counterparty) == (BASE.usdc, None, DELEGATE)
    assert "whole Gateway balance" in request.details["effect"]


def test_the_gate_reads_the_bytes_not_the_label() -> None:
    request = describe_transaction(TEST_SIGNER.address, _fields(STEAL))
    # Not a withdrawal: 1000 USDC to the attacker.
    assert (request.kind, request.token, request.amount, request.counterparty) == (
        "transaction",
        BASE.usdc,
        1000 * 10**6,
        ATTACKER,
    )


def test_a_deposit_crediting_someone_else_names_them() -> None:
    data = "0xb3db428b" + word(BASE.usdc) + word(ATTACKER) + word(7)
    request = describe_transaction(
        TEST_SIGNER.address, {"to": BASE.gateway_wallet, "data": data, "chainId": CHAIN_ID}
    )
    assert (request.token, request.amount, request.counterparty) == (BASE.usdc, 7, ATTACKER)
    read = read_call(BASE.gateway_wallet, data, CHAIN_ID, sender=TEST_SIGNER.address)
    assert read is not None
    assert "credited to " + ATTACKER in read.effect


def test_an_unlimited_approval_has_no_amount_and_is_a_grant() -> None:
    data = "0x095ea7b3" + word(ATTACKER) + word(2**256 - 1)
    request = describe_transaction(
        TEST_SIGNER.address, {"to": BASE.usdc, "data": data, "chainId": CHAIN_ID}
    )
    assert (request.kind, request.amount, request.counterparty) == (AUTHORITY_GRANT, None, ATTACKER)


CAPS = [
    Policy(max_per_signature=1_000_000),
    Policy(max_per_day=1_000_000),
    Policy(allowed_tokens=["USDC"]),
]


@pytest.mark.parametrize("policy", CAPS, ids=["per-signature", "per-day", "tokens"])
def test_every_amount_rule_refuses_an_eip7702_delegation(policy: Policy) -> None:
    with use_policy(policy), pytest.raises(errors.PolicyRefusedError) as refused:
        sign_authorization(TEST_SIGNER, chain_id=CHAIN_ID, address=DELEGATE, nonce=0)
    assert refused.value.request.kind == AUTHORITY_GRANT
    assert "allowed_counterparties" in str(refused.value)


@pytest.mark.parametrize("policy", CAPS, ids=["per-signature", "per-day", "tokens"])
def test_every_amount_rule_refuses_a_gateway_delegate(policy: Policy) -> None:
    call = add_delegate_call(chain_id=CHAIN_ID, delegate=DELEGATE, depositor=TEST_SIGNER.address)
    request = describe_transaction(TEST_SIGNER.address, _fields(call))
    with pytest.raises(errors.PolicyRefusedError):
        policy._admit(request)


def test_a_grant_to_an_allowed_counterparty_passes_and_is_not_counted() -> None:
    policy = Policy(max_per_day=1_000_000, allowed_counterparties=[DELEGATE])
    with use_policy(policy):
        sign_authorization(TEST_SIGNER, chain_id=CHAIN_ID, address=DELEGATE, nonce=0)
    assert policy.spent_today(TEST_SIGNER.address, "USDC") == 0


@pytest.mark.evm
async def test_a_policy_refuses_a_delegate_sent_through_send_call(kind: str) -> None:
    web3 = destination(kind)
    call = add_delegate_call(chain_id=CHAIN_ID, delegate=DELEGATE, depositor=TEST_SIGNER.address)
    with Sandbox() as sb:
        gateway = (sb.gateway_client if kind == "sync" else sb.async_gateway_client)(
            policy=Policy(max_per_day=10**12)
        )
        with pytest.raises(errors.PolicyRefusedError) as refused:
            await resolve(gateway.send_call(call, web3=web3, signer=TEST_SIGNER, simulate=False))
    assert refused.value.request.kind == AUTHORITY_GRANT
    assert await mints_sent(web3) == 0


def test_a_gateway_batched_authorization_spends_usdc_not_the_wallet() -> None:
    seen: list[SigningRequest] = []
    with use_policy(Policy(approve=lambda request: seen.append(request) or True)):
        sign_transfer_authorization(
            TEST_SIGNER,
            domain_name="GatewayWalletBatched",
            domain_version="1",
            chain_id=CHAIN_ID,
            verifying_contract=BASE.gateway_wallet,
            to=ATTACKER,
            value=10_000,
            valid_before=2_000_000_000,
            now=1_900_000_000,
        )
    (request,) = seen
    assert (request.token, request.amount, request.counterparty) == (BASE.usdc, 10_000, ATTACKER)
    assert request.details["gateway_wallet"] == BASE.gateway_wallet
