"""The SDK's gateway calls on a real EVM, against our wallet built to Circle's public
interface: deposits by EIP-3009 authorization (both overloads, relayed by another
account, no RPC needed to build them), by permit (both overloads), withdrawals after
the delay, the balance views, and delegates."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from eth_account.signers.local import LocalAccount
from web3 import AsyncWeb3, Web3
from web3.contract import AsyncContract, Contract

from xswap_sdk.errors import InvalidInputError
from xswap_sdk.registry import DEFAULT_REGISTRY, GatewayChain, Registry
from xswap_sdk.signing import (
    ContractCall,
    ViewCall,
    add_delegate_call,
    available_balance_call,
    deposit_with_permit_call,
    initiate_withdrawal_call,
    is_authorized_for_balance_call,
    prepare_deposit_with_authorization,
    prepare_deposit_with_permit,
    remove_delegate_call,
    sign_deposit_authorization,
    total_balance_call,
    withdraw_call,
    withdrawable_balance_call,
    withdrawal_block_call,
    withdrawal_delay_call,
    withdrawing_balance_call,
)

from .conftest import DEPOSIT, MINTED, REVERTED

pytestmark = pytest.mark.evm

DELEGATE = "0x000000000000000000000000000000000000dEaD"


def registry_for(chain_id: int, usdc: str, wallet: str) -> Registry:
    """The in-process chain as the caller adds it: its USDC and wallet are ours."""
    return DEFAULT_REGISTRY.with_chains(
        GatewayChain(
            chain_id=chain_id,
            name="eth-tester",
            domain=99,
            usdc=usdc,
            gateway_wallet=wallet,
            gateway_minter="0x" + "22" * 20,
            testnet=True,
            usdc_eip712_name="USD Coin",
            usdc_eip712_version="2",
        )
    )


@pytest.fixture
def usdc(usdc: Contract, w3: Web3, holder: LocalAccount) -> Contract:
    # Gas for the holder's own transactions (withdrawals and delegates act on msg.sender).
    w3.eth.send_transaction({"from": w3.eth.accounts[0], "to": holder.address, "value": 10**18})
    return usdc


@pytest.fixture
def wallet(deploy: Callable[..., Contract]) -> Contract:
    return deploy("gateway_wallet")


@pytest.fixture
def registry(w3: Web3, usdc: Contract, wallet: Contract) -> Registry:
    return registry_for(w3.eth.chain_id, usdc.address, wallet.address)


def relay(w3: Web3, call: ContractCall) -> None:
    """Send as a relayer would: from another account, with the call's own arguments."""
    arguments = call.relay_arguments()
    tx_hash = w3.eth.send_transaction(
        {"from": w3.eth.accounts[1], "to": arguments["to"], "data": arguments["call_data"]}
    )
    assert w3.eth.wait_for_transaction_receipt(tx_hash)["status"] == 1


def send_as(w3: Web3, holder: LocalAccount, call: ContractCall) -> None:
    """Send from the holder itself, signed locally, as ``call.sender`` asks."""
    fields = call.to_transaction()
    assert fields["from"] == holder.address
    fields["nonce"] = w3.eth.get_transaction_count(holder.address)
    fields["gas"] = w3.eth.estimate_gas(fields)
    fields["gasPrice"] = w3.eth.gas_price
    signed = holder.sign_transaction(fields)
    receipt = w3.eth.wait_for_transaction_receipt(
        w3.eth.send_raw_transaction(signed.raw_transaction)
    )
    assert receipt["status"] == 1


def read(w3: Web3, view: ViewCall) -> int:
    return view.decode(w3.eth.call(view.to_call()))  # type: ignore[arg-type]


@pytest.mark.parametrize("signature_form", ["vrs", "bytes"])
def test_a_relayed_authorization_deposit_credits_the_signer(
    w3: Web3,
    usdc: Contract,
    wallet: Contract,
    registry: Registry,
    holder: LocalAccount,
    signature_form: str,
) -> None:
    chain_id = w3.eth.chain_id
    deposit = prepare_deposit_with_authorization(
        holder,
        chain_id=chain_id,
        value=DEPOSIT,
        signature_form=signature_form,  # type: ignore[arg-type]
        registry=registry,
    )
    assert deposit.to == wallet.address
    relay(w3, deposit)
    assert usdc.functions.balanceOf(holder.address).call() == MINTED - DEPOSIT
    assert usdc.functions.balanceOf(wallet.address).call() == DEPOSIT
    view = available_balance_call(chain_id=chain_id, depositor=holder.address, registry=registry)
    assert read(w3, view) == DEPOSIT
    nonce = bytes.fromhex(deposit.authorization.nonce[2:])
    assert usdc.functions.authorizationState(holder.address, nonce).call() is True
    # The same authorization cannot be used twice.
    with pytest.raises(REVERTED, match="authorization is used"):
        relay(w3, deposit)


def test_an_authorization_only_the_wallet_can_redeem(
    w3: Web3, usdc: Contract, registry: Registry, holder: LocalAccount
) -> None:
    authorization = sign_deposit_authorization(
        holder, chain_id=w3.eth.chain_id, value=DEPOSIT, registry=registry
    )
    # Anyone who sees it (a relayer) may pass it to the wallet, and to nothing else.
    with pytest.raises(REVERTED, match="caller must be the payee"):
        usdc.functions.receiveWithAuthorization(
            authorization.authorizer,
            authorization.to,
            authorization.value,
            authorization.valid_after,
            authorization.valid_before,
            bytes.fromhex(authorization.nonce[2:]),
            authorization.v,
            bytes.fromhex(authorization.r[2:]),
            bytes.fromhex(authorization.s[2:]),
        ).transact({"from": w3.eth.accounts[1]})
    assert usdc.functions.balanceOf(holder.address).call() == MINTED


def test_an_authorization_outside_its_window_reverts(
    w3: Web3, usdc: Contract, registry: Registry, holder: LocalAccount
) -> None:
    now = int(w3.eth.get_block("latest")["timestamp"])
    # An expired window is refused before signing; the token would refuse it too.
    with pytest.raises(InvalidInputError, match="valid_before"):
        prepare_deposit_with_authorization(
            holder, chain_id=w3.eth.chain_id, value=DEPOSIT, registry=registry, valid_before=1
        )
    deposit = prepare_deposit_with_authorization(
        holder,
        chain_id=w3.eth.chain_id,
        value=DEPOSIT,
        registry=registry,
        valid_after=now + 3600,
        valid_before=now + 7200,
    )
    with pytest.raises(REVERTED, match="not yet valid"):
        relay(w3, deposit)
    assert usdc.functions.balanceOf(holder.address).call() == MINTED


def test_an_authorization_signed_for_another_chain_reverts(
    w3: Web3, usdc: Contract, wallet: Contract, holder: LocalAccount
) -> None:
    elsewhere = registry_for(w3.eth.chain_id + 1, usdc.address, wallet.address)
    deposit = prepare_deposit_with_authorization(
        holder, chain_id=w3.eth.chain_id + 1, value=DEPOSIT, registry=elsewhere
    )
    with pytest.raises(REVERTED, match="invalid signature"):
        w3.eth.send_transaction(
            {"from": w3.eth.accounts[1], "to": deposit.to, "data": deposit.data}
        )
    assert usdc.functions.balanceOf(holder.address).call() == MINTED


@pytest.mark.parametrize("signature_form", ["vrs", "bytes"])
def test_both_permit_overloads_deposit(
    w3: Web3,
    usdc: Contract,
    wallet: Contract,
    registry: Registry,
    holder: LocalAccount,
    signature_form: str,
) -> None:
    prepared = prepare_deposit_with_permit(
        w3, holder, gateway_wallet=wallet.address, usdc=usdc.address, value=DEPOSIT
    )
    call = deposit_with_permit_call(
        prepared.permit,
        signature_form=signature_form,  # type: ignore[arg-type]
        registry=registry,
    )
    selector = {"vrs": "0x8ef59739", "bytes": "0x26a3fb30"}[signature_form]
    assert call.data.startswith(selector)
    relay(w3, call)
    assert usdc.functions.balanceOf(wallet.address).call() == DEPOSIT
    assert usdc.functions.nonces(holder.address).call() == 1
    assert usdc.functions.allowance(holder.address, wallet.address).call() == 0
    total = total_balance_call(
        chain_id=w3.eth.chain_id, depositor=holder.address, registry=registry
    )
    assert read(w3, total) == DEPOSIT


def test_a_withdrawal_waits_for_the_delay(
    w3: Web3, usdc: Contract, wallet: Contract, registry: Registry, holder: LocalAccount
) -> None:
    chain_id = w3.eth.chain_id
    relay(
        w3,
        prepare_deposit_with_authorization(
            holder, chain_id=chain_id, value=DEPOSIT, registry=registry
        ),
    )
    views = {
        name: builder(chain_id=chain_id, depositor=holder.address, registry=registry)
        for name, builder in (
            ("available", available_balance_call),
            ("withdrawing", withdrawing_balance_call),
            ("withdrawable", withdrawable_balance_call),
            ("block", withdrawal_block_call),
        )
    }
    delay = read(w3, withdrawal_delay_call(chain_id=chain_id, registry=registry))
    assert delay == 5

    start = initiate_withdrawal_call(
        chain_id=chain_id, value=1_000_000, depositor=holder.address, registry=registry
    )
    with pytest.raises(InvalidInputError):
        start.relay_arguments()  # it would withdraw the relayer's own balance
    send_as(w3, holder, start)
    started_at = w3.eth.block_number
    assert read(w3, views["available"]) == DEPOSIT - 1_000_000
    assert read(w3, views["withdrawing"]) == 1_000_000
    assert read(w3, views["withdrawable"]) == 0
    assert read(w3, views["block"]) == started_at + delay

    finish = withdraw_call(chain_id=chain_id, depositor=holder.address, registry=registry)
    with pytest.raises(REVERTED, match="WithdrawalNotYetAvailable"):
        send_as(w3, holder, finish)
    w3.testing.mine(delay)
    assert read(w3, views["withdrawable"]) == 1_000_000
    send_as(w3, holder, finish)
    assert usdc.functions.balanceOf(holder.address).call() == MINTED - DEPOSIT + 1_000_000
    assert read(w3, views["withdrawing"]) == 0
    assert read(w3, views["available"]) == DEPOSIT - 1_000_000

    too_much = initiate_withdrawal_call(
        chain_id=chain_id, value=DEPOSIT, depositor=holder.address, registry=registry
    )
    with pytest.raises(REVERTED, match="WithdrawalValueExceedsAvailableBalance"):
        send_as(w3, holder, too_much)


def test_a_delegate_is_added_and_removed(
    w3: Web3, wallet: Contract, registry: Registry, holder: LocalAccount
) -> None:
    chain_id = w3.eth.chain_id
    check = is_authorized_for_balance_call(
        chain_id=chain_id, depositor=holder.address, delegate=DELEGATE, registry=registry
    )
    assert read(w3, check) == 0
    for build, authorized in ((add_delegate_call, 1), (remove_delegate_call, 0)):
        send_as(
            w3,
            holder,
            build(
                chain_id=chain_id, delegate=DELEGATE, depositor=holder.address, registry=registry
            ),
        )
        assert read(w3, check) == authorized
    itself = is_authorized_for_balance_call(
        chain_id=chain_id, depositor=holder.address, delegate=holder.address, registry=registry
    )
    assert read(w3, itself) == 1


async def test_async_web3_sends_an_authorization_deposit(
    async_w3: AsyncWeb3[Any],
    async_contracts: Callable[[], Awaitable[tuple[AsyncContract, AsyncContract]]],
    holder: LocalAccount,
) -> None:
    token, wallet = await async_contracts()
    accounts = await async_w3.eth.accounts
    chain_id = await async_w3.eth.chain_id
    registry = registry_for(chain_id, token.address, wallet.address)

    deposit = prepare_deposit_with_authorization(
        holder, chain_id=chain_id, value=DEPOSIT, registry=registry, signature_form="bytes"
    )
    arguments = deposit.relay_arguments()
    tx_hash = await async_w3.eth.send_transaction(
        {"from": accounts[1], "to": arguments["to"], "data": arguments["call_data"]}
    )
    assert (await async_w3.eth.wait_for_transaction_receipt(tx_hash))["status"] == 1
    view = available_balance_call(chain_id=chain_id, depositor=holder.address, registry=registry)
    assert view.decode(await async_w3.eth.call(view.to_call())) == DEPOSIT  # type: ignore[arg-type]
    assert await token.functions.balanceOf(wallet.address).call() == DEPOSIT
