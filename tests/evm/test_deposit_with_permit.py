"""The SDK's deposit transaction, sent to a real EVM: snekmate's ERC-20 with EIP-2612
permit as USDC, and our gateway wallet's ``depositWithPermit`` (selector 0x8ef59739)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from eth_account import Account
from eth_account.signers.local import LocalAccount
from web3 import AsyncWeb3, Web3
from web3.contract import AsyncContract, Contract

from xswap_sdk.errors import UnsafePayloadError
from xswap_sdk.signing import (
    async_prepare_deposit_with_permit,
    prepare_deposit_with_permit,
    sign_permit,
)
from xswap_sdk.signing.deposit import _permit_calldata

from .conftest import DEPOSIT, MINTED, REVERTED

pytestmark = pytest.mark.evm


@pytest.fixture
def gateway(deploy: Callable[..., Contract]) -> Contract:
    return deploy("gateway_wallet")


def send(w3: Web3, tx: dict[str, Any]) -> None:
    """Send from an account other than the holder, as a relayer would."""
    receipt = w3.eth.wait_for_transaction_receipt(
        w3.eth.send_transaction({**tx, "from": w3.eth.accounts[1]})
    )
    assert receipt["status"] == 1


def latest_timestamp(w3: Web3) -> int:
    return int(w3.eth.get_block("latest")["timestamp"])


def test_prepared_deposit_moves_the_tokens(
    w3: Web3, usdc: Contract, gateway: Contract, holder: LocalAccount
) -> None:
    tx = prepare_deposit_with_permit(
        w3, holder, gateway_wallet=gateway.address, usdc=usdc.address, value=DEPOSIT
    )
    assert tx.to == gateway.address
    assert tx.value == 0
    assert tx.chain_id == w3.eth.chain_id
    assert tx.data.startswith("0x8ef59739")
    assert tx.permit.nonce == 0
    assert tx.permit.deadline > latest_timestamp(w3)

    send(w3, tx.to_transaction())

    assert usdc.functions.balanceOf(holder.address).call() == MINTED - DEPOSIT
    assert usdc.functions.balanceOf(gateway.address).call() == DEPOSIT
    assert gateway.functions.deposits(usdc.address, holder.address).call() == DEPOSIT
    assert usdc.functions.nonces(holder.address).call() == 1
    # The permit was spent exactly: nothing is left to pull.
    assert usdc.functions.allowance(holder.address, gateway.address).call() == 0


def test_second_use_of_the_same_permit_reverts(
    w3: Web3, usdc: Contract, gateway: Contract, holder: LocalAccount
) -> None:
    tx = prepare_deposit_with_permit(
        w3, holder, gateway_wallet=gateway.address, usdc=usdc.address, value=DEPOSIT
    )
    send(w3, tx.to_transaction())
    with pytest.raises(REVERTED, match="erc20: invalid signature"):
        send(w3, tx.to_transaction())
    assert usdc.functions.balanceOf(gateway.address).call() == DEPOSIT

    # A fresh preparation reads the new nonce and goes through.
    again = prepare_deposit_with_permit(
        w3, holder, gateway_wallet=gateway.address, usdc=usdc.address, value=DEPOSIT
    )
    assert again.permit.nonce == 1
    send(w3, again.to_transaction())
    assert usdc.functions.balanceOf(gateway.address).call() == 2 * DEPOSIT


def test_permit_for_another_chain_reverts(
    w3: Web3, usdc: Contract, gateway: Contract, holder: LocalAccount
) -> None:
    permit = sign_permit(
        holder,
        token_name="USD Coin",
        token_version="2",
        chain_id=w3.eth.chain_id + 1,
        token_address=usdc.address,
        spender=gateway.address,
        value=DEPOSIT,
        nonce=0,
    )
    data = _permit_calldata(usdc.address, permit)
    with pytest.raises(REVERTED, match="erc20: invalid signature"):
        send(w3, {"to": gateway.address, "data": data, "value": 0})
    assert usdc.functions.balanceOf(holder.address).call() == MINTED


def test_expired_permit_reverts(
    w3: Web3, usdc: Contract, gateway: Contract, holder: LocalAccount
) -> None:
    tx = prepare_deposit_with_permit(
        w3,
        holder,
        gateway_wallet=gateway.address,
        usdc=usdc.address,
        value=DEPOSIT,
        deadline=latest_timestamp(w3) - 1,
    )
    with pytest.raises(REVERTED, match="erc20: expired deadline"):
        send(w3, tx.to_transaction())
    assert usdc.functions.balanceOf(holder.address).call() == MINTED


def test_permit_for_another_spender_reverts(
    w3: Web3, usdc: Contract, gateway: Contract, holder: LocalAccount
) -> None:
    stranger = Account.create().address
    permit = sign_permit(
        holder,
        token_name="USD Coin",
        token_version="2",
        chain_id=w3.eth.chain_id,
        token_address=usdc.address,
        spender=stranger,
        value=DEPOSIT,
        nonce=0,
    )
    with pytest.raises(REVERTED, match="erc20: invalid signature"):
        send(w3, {"to": gateway.address, "data": _permit_calldata(usdc.address, permit)})


def test_token_without_version_uses_the_configured_version(
    w3: Web3, deploy: Callable[..., Contract], gateway: Contract, holder: LocalAccount
) -> None:
    token = deploy("test_token_without_version", "USDC", "USDC", 6, "1")
    token.functions.mint(holder.address, MINTED).transact({"from": w3.eth.accounts[0]})

    # Without a configured version the SDK falls back to "2", which this token's
    # domain does not use: its DOMAIN_SEPARATOR() says so, and nothing is signed (a
    # permit for another domain is refused on chain: test_permit_for_another_chain_reverts).
    with pytest.raises(UnsafePayloadError) as info:
        prepare_deposit_with_permit(
            w3, holder, gateway_wallet=gateway.address, usdc=token.address, value=DEPOSIT
        )
    assert info.value.field == "permit.domain"
    assert token.functions.DOMAIN_SEPARATOR().call().hex() in str(info.value.expected)

    configured = prepare_deposit_with_permit(
        w3,
        holder,
        gateway_wallet=gateway.address,
        usdc=token.address,
        value=DEPOSIT,
        usdc_version="1",
    )
    send(w3, configured.to_transaction())
    assert token.functions.balanceOf(gateway.address).call() == DEPOSIT


async def test_async_prepared_deposit_moves_the_tokens(
    async_w3: AsyncWeb3[Any],
    async_contracts: Callable[[], Awaitable[tuple[AsyncContract, AsyncContract]]],
    holder: LocalAccount,
) -> None:
    token, gateway = await async_contracts()
    accounts = await async_w3.eth.accounts

    tx = await async_prepare_deposit_with_permit(
        async_w3, holder, gateway_wallet=gateway.address, usdc=token.address, value=DEPOSIT
    )
    assert tx.chain_id == await async_w3.eth.chain_id
    tx_hash = await async_w3.eth.send_transaction({**tx.to_transaction(), "from": accounts[1]})
    receipt = await async_w3.eth.wait_for_transaction_receipt(tx_hash)
    assert receipt["status"] == 1
    assert await token.functions.balanceOf(gateway.address).call() == DEPOSIT
    assert await token.functions.balanceOf(holder.address).call() == MINTED - DEPOSIT
