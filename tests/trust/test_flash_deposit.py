"""The pure parts of FlashClient.deposit: the permit's spender, the transaction's target
and the token come from the registry, never from the backend's chain list."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from eth_account import Account

from xswap_sdk import errors
from xswap_sdk.flash import Chain
from xswap_sdk.flash._deposit import DepositPlan, check_prepared, deposit_target
from xswap_sdk.registry import DEFAULT_REGISTRY, GATEWAY_WALLET_MAINNET
from xswap_sdk.signing import DepositTransaction, deposit_with_permit_calldata, sign_permit

from ..flash.payloads import chain
from .support import TEST_ADDRESS, TEST_KEY, USDC_BASE


def listed(chain_id: int = 8453, **changes: Any) -> list[Chain]:
    body = chain(chain_id, gatewayWallet=GATEWAY_WALLET_MAINNET.lower())
    body["usdc"] = {**body["usdc"], "address": USDC_BASE.lower()}
    for name, value in changes.items():
        body[name] = {**body[name], **value} if isinstance(value, dict) else value
    return [Chain.model_validate(body)]


def test_the_target_is_the_registrys() -> None:
    target = deposit_target(listed(), 8453)
    assert (target.gateway_wallet, target.usdc) == (GATEWAY_WALLET_MAINNET, USDC_BASE)
    assert target.usdc_version == "2"
    assert target.chain_id == 8453


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"gatewayWallet": "0x" + "66" * 20}, "chains[8453].gatewayWallet"),
        ({"gatewayMinter": "0x" + "66" * 20}, "chains[8453].gatewayMinter"),
        ({"usdc": {"address": "0x" + "66" * 20, "version": "2"}}, "chains[8453].usdc.address"),
        ({"domain": 0}, "chains[8453].domain"),
    ],
)
def test_a_chain_list_that_disagrees_with_the_registry_is_refused(
    changes: dict[str, Any], field: str
) -> None:
    with pytest.raises(errors.UnsafePayloadError) as info:
        deposit_target(listed(**changes), 8453)
    assert info.value.field == field


def test_an_unpinned_chain_is_refused_unless_added() -> None:
    bsc = listed(56, domain=999, usdc={"address": "0x" + "88" * 20})
    with pytest.raises(errors.UnsafePayloadError) as info:
        deposit_target(bsc, 56)
    assert info.value.field == "chain_id"
    moved = DEFAULT_REGISTRY.chain(8453)
    added = DEFAULT_REGISTRY.with_chains(
        replace(moved, chain_id=56, name="BNB", domain=999, usdc="0x" + "88" * 20)
    )
    assert deposit_target(bsc, 56, registry=added).usdc.lower() == "0x" + "88" * 20


def transaction(spender: str, token: str = USDC_BASE, value: int = 5, to: str | None = None) -> Any:
    permit = sign_permit(
        Account.from_key(TEST_KEY),
        token_name="USD Coin",
        token_version="2",
        chain_id=8453,
        token_address=token,
        spender=spender,
        value=value,
        nonce=0,
        deadline=2_000_000_000,
    )
    data = deposit_with_permit_calldata(
        token=token, owner=permit.owner, value=value, deadline=permit.deadline,
        v=permit.v, r=permit.r, s=permit.s,
    )  # fmt: skip
    return DepositTransaction(to=to or spender, data=data, chain_id=8453, permit=permit)


def test_check_prepared_holds_the_transaction_to_the_target() -> None:
    plan = DepositPlan(owner=TEST_ADDRESS, chain_id=8453, amount=5)
    target = deposit_target(listed(), 8453)
    honest = transaction(GATEWAY_WALLET_MAINNET)
    assert check_prepared(honest, plan, target) is honest
    thief = "0x" + "66" * 20
    cases = [
        (transaction(thief), "transaction.to"),
        (transaction(GATEWAY_WALLET_MAINNET, to=thief), "transaction.to"),
        (transaction(thief, to=GATEWAY_WALLET_MAINNET), "permit.spender"),
        (transaction(GATEWAY_WALLET_MAINNET, token="0x" + "77" * 20), "permit.token_address"),
        (transaction(GATEWAY_WALLET_MAINNET, value=6), "permit.value"),
    ]
    for tampered, field in cases:
        with pytest.raises(errors.UnsafePayloadError) as info:
            check_prepared(tampered, plan, target)
        assert info.value.field == field
