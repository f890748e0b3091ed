"""Transactions the SDK signs (or has a node sign) through web3 pass the gate too: on an
in-process chain, sync and async, an ERC-20 approval is described as the token going to
its spender, and a refusal sends nothing."""

from __future__ import annotations

from typing import Any

import pytest
from web3 import AsyncWeb3, Web3
from web3.providers.eth_tester import AsyncEthereumTesterProvider, EthereumTesterProvider

from xswap_sdk import _async_web3, _sync_web3, errors
from xswap_sdk.policy import Policy, use_policy
from xswap_sdk.testing import TEST_SIGNER

from ..support import resolve
from .support import BASE, SPENDER, Hook

pytestmark = pytest.mark.evm

APPROVE = "0x095ea7b3" + SPENDER[2:].lower().rjust(64, "0") + f"{5_000_000:064x}"


class NodeAccount:
    """A signer the node holds: it has no sign_transaction, so the node signs."""

    def __init__(self, address: str) -> None:
        self.address = address

    def sign_message(self, message: object) -> object:
        raise NotImplementedError

    def sign_typed_data(self, **kwargs: object) -> object:
        raise NotImplementedError


@pytest.fixture
async def chain(kind: str) -> Any:
    web3: Any = (
        Web3(EthereumTesterProvider())
        if kind == "sync"
        else AsyncWeb3(AsyncEthereumTesterProvider())
    )
    accounts = await resolve(web3.eth.accounts)
    funded = await resolve(
        web3.eth.send_transaction({"from": accounts[0], "to": TEST_SIGNER.address, "value": 10**18})
    )
    await resolve(web3.eth.wait_for_transaction_receipt(funded))
    return web3


def send(kind: str) -> Any:
    return _sync_web3.send_transaction if kind == "sync" else _async_web3.async_send_transaction


async def count(web3: Any, address: str) -> int:
    return int(await resolve(web3.eth.get_transaction_count(address)))


@pytest.mark.parametrize("signer_kind", ["local", "node"])
async def test_a_transaction_passes_the_gate(chain: Any, kind: str, signer_kind: str) -> None:
    accounts = await resolve(chain.eth.accounts)
    signer: Any = TEST_SIGNER if signer_kind == "local" else NodeAccount(accounts[1])
    before = await count(chain, signer.address)
    hook = Hook()
    with use_policy(hook):
        await resolve(send(kind)(chain, signer, {"to": BASE.usdc, "data": APPROVE}))
    (request,) = hook.seen
    assert (request.kind, request.signer, request.chain_id) == (
        "authority_grant",  # an approve: a grant of an allowance to the spender
        signer.address,
        int(await resolve(chain.eth.chain_id)),
    )
    assert (request.token, request.amount, request.counterparty) == (BASE.usdc, 5_000_000, SPENDER)
    assert await count(chain, signer.address) == before + 1
    with (
        use_policy(Policy(allowed_counterparties=[BASE.usdc])),
        pytest.raises(errors.PolicyRefusedError, match="allowed_counterparties"),
    ):
        await resolve(send(kind)(chain, signer, {"to": BASE.usdc, "data": APPROVE}))
    assert await count(chain, signer.address) == before + 1  # nothing was sent
