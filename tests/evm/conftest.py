"""An in-process EVM (web3 + eth-tester + py-evm) and our test contracts, compiled once.

These packages are in the ``dev`` extra; a missing one fails the run rather than
skipping it. The contracts are compiled at test time with the vyper package of the running
interpreter (its Python API, not a ``vyper`` found on PATH); snekmate's modules are
found through ``sys.path``, where pip installed them.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from eth_account import Account
from eth_account.signers.local import LocalAccount
from eth_tester.exceptions import TransactionFailed
from vyper.cli.vyper_compile import compile_files
from web3 import AsyncWeb3, Web3
from web3.contract import AsyncContract, Contract
from web3.exceptions import ContractLogicError
from web3.providers.eth_tester import AsyncEthereumTesterProvider, EthereumTesterProvider

CONTRACTS = Path(__file__).parent / "contracts"

# A public test key (the shared vectors' key): never use it for funds.
TEST_KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37"

# A revert surfaces as web3's ContractLogicError, or as eth-tester's own error when
# web3's in-process provider lets it through.
REVERTED = (ContractLogicError, TransactionFailed)

MINTED = 10_000_000  # 10 USDC, the holder's at the start
DEPOSIT = 2_500_000  # 2.5 USDC

Compiled = dict[str, dict[str, Any]]


@pytest.fixture(scope="session")
def compiled() -> Compiled:
    """ABI, bytecode and runtime bytecode of every contract in ``contracts/``, compiled
    once per session."""
    sources = sorted(CONTRACTS.glob("*.vy"))
    outputs = compile_files(
        [str(path) for path in sources], ["abi", "bytecode", "bytecode_runtime"]
    )
    return {Path(path).stem: output for path, output in outputs.items()}


@pytest.fixture
def holder() -> LocalAccount:
    """The USDC holder who signs permits and burn intents."""
    return Account.from_key(TEST_KEY)


def _deploy(w3: Web3, compiled: Compiled, name: str, *args: Any) -> Contract:
    factory = w3.eth.contract(abi=compiled[name]["abi"], bytecode=compiled[name]["bytecode"])
    tx_hash = factory.constructor(*args).transact({"from": w3.eth.accounts[0]})
    receipt = w3.eth.wait_for_transaction_receipt(tx_hash)
    return w3.eth.contract(address=receipt["contractAddress"], abi=compiled[name]["abi"])


async def _deploy_async(
    w3: AsyncWeb3[Any], compiled: Compiled, name: str, *args: Any
) -> AsyncContract:
    factory = w3.eth.contract(abi=compiled[name]["abi"], bytecode=compiled[name]["bytecode"])
    accounts = await w3.eth.accounts
    tx_hash = await factory.constructor(*args).transact({"from": accounts[0]})
    receipt = await w3.eth.wait_for_transaction_receipt(tx_hash)
    return w3.eth.contract(address=receipt["contractAddress"], abi=compiled[name]["abi"])


@pytest.fixture
def w3() -> Web3:
    """A fresh in-process chain for each test."""
    return Web3(EthereumTesterProvider())


@pytest.fixture
def async_w3() -> AsyncWeb3[Any]:
    """A fresh in-process chain, driven through `AsyncWeb3`."""
    return AsyncWeb3(AsyncEthereumTesterProvider())


@pytest.fixture
def deploy(w3: Web3, compiled: Compiled) -> Callable[..., Contract]:
    """``deploy(name, *constructor_args)`` on the test's chain, from its first account."""
    return functools.partial(_deploy, w3, compiled)


@pytest.fixture
def deploy_async(
    async_w3: AsyncWeb3[Any], compiled: Compiled
) -> Callable[..., Awaitable[AsyncContract]]:
    """``await deploy_async(name, *constructor_args)`` on the test's async chain."""
    return functools.partial(_deploy_async, async_w3, compiled)


@pytest.fixture
def usdc(w3: Web3, deploy: Callable[..., Contract], holder: LocalAccount) -> Contract:
    """The USD Coin test token (EIP-2612 and EIP-3009), ``MINTED`` of it the holder's."""
    token = deploy("test_usdc", "USD Coin", "USDC", 6, "2")
    token.functions.mint(holder.address, MINTED).transact({"from": w3.eth.accounts[0]})
    return token


@pytest.fixture
def async_contracts(
    async_w3: AsyncWeb3[Any],
    deploy_async: Callable[..., Awaitable[AsyncContract]],
    holder: LocalAccount,
) -> Callable[[], Awaitable[tuple[AsyncContract, AsyncContract]]]:
    """``await async_contracts()``: the USD Coin test token (``MINTED`` of it the
    holder's) and a gateway wallet, on the test's async chain."""

    async def deploy() -> tuple[AsyncContract, AsyncContract]:
        accounts = await async_w3.eth.accounts
        token = await deploy_async("test_usdc", "USD Coin", "USDC", 6, "2")
        await token.functions.mint(holder.address, MINTED).transact({"from": accounts[0]})
        return token, await deploy_async("gateway_wallet")

    return deploy
