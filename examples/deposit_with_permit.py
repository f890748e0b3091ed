"""Deposit USDC into the gateway wallet with an EIP-2612 permit.

Part 1 needs no network: it signs a permit for native USDC on Ethereum with a public
test key and prints the ``depositWithPermit`` call (`deposit_with_permit_call`), ready
to send to the gateway wallet (by you, or by a relayer: the tokens always come from the
permit's owner).

Part 2 runs only from a checkout with the ``dev`` extra installed (web3, eth-tester,
vyper, snekmate): it starts an in-process EVM, deploys a USDC stand-in (snekmate's
ERC-20 with permit) and the test gateway wallet from ``tests/evm/contracts``, and sends
the transaction that `prepare_deposit_with_permit` builds.

    python examples/deposit_with_permit.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, cast

try:
    import xswap_sdk  # noqa: F401
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from eth_account import Account

from xswap_sdk.signing import (
    deposit_with_permit_call,
    prepare_deposit_with_permit,
    sign_permit,
)

# A public test key: never use it for funds.
TEST_KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37"
GATEWAY_WALLET = "0x77777777Dcc4d5A8B6E418Fd04D8997ef11000eE"  # same on every EVM chain
USDC_ETHEREUM = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"
CONTRACTS = Path(__file__).resolve().parents[1] / "tests" / "evm" / "contracts"


def offline() -> None:
    holder = Account.from_key(TEST_KEY)
    permit = sign_permit(
        holder,
        token_name="USD Coin",  # USDC's EIP-712 name on Ethereum, Base and Arbitrum One
        token_version="2",
        chain_id=1,
        token_address=USDC_ETHEREUM,
        spender=GATEWAY_WALLET,
        value=1_000_000,  # 1 USDC, in smallest units
        nonce=0,  # read it from USDC's nonces(owner)
        deadline=1_767_225_600,  # leave out for one hour from now
    )
    # The call on the registry's GatewayWallet: refused if the permit's spender or
    # token is not the chain's pinned wallet and USDC.
    call = deposit_with_permit_call(permit)
    print("Part 1: a permit signed offline")
    print(f"  {permit!r}")
    print(f"  send to {call.to} on chain {call.chain_id}, value 0, data:\n  {call.data}")


def _deploy(w3: Any, compiled: dict[str, Any], name: str, *args: Any) -> Any:
    factory = w3.eth.contract(abi=compiled[name]["abi"], bytecode=compiled[name]["bytecode"])
    tx_hash = factory.constructor(*args).transact({"from": w3.eth.accounts[0]})
    address = w3.eth.wait_for_transaction_receipt(tx_hash)["contractAddress"]
    return w3.eth.contract(address=address, abi=compiled[name]["abi"])


def on_a_local_chain() -> None:
    try:
        from vyper.cli.vyper_compile import compile_files
        from web3 import Web3
        from web3.providers.eth_tester import EthereumTesterProvider
        from web3.types import TxParams
    except ImportError:
        print('\nPart 2 skipped: it needs the dev extra (pip install -e ".[dev]").')
        return
    if not CONTRACTS.is_dir():
        print("\nPart 2 skipped: it runs from a checkout (it needs tests/evm/contracts).")
        return

    sources = [str(CONTRACTS / "test_usdc.vy"), str(CONTRACTS / "gateway_wallet.vy")]
    compiled = {Path(p).stem: out for p, out in compile_files(sources, ["abi", "bytecode"]).items()}
    w3 = Web3(EthereumTesterProvider())
    holder = Account.from_key(TEST_KEY)
    usdc = _deploy(w3, compiled, "test_usdc", "USD Coin", "USDC", 6, "2")
    gateway = _deploy(w3, compiled, "gateway_wallet")
    usdc.functions.mint(holder.address, 5_000_000).transact({"from": w3.eth.accounts[0]})

    tx = prepare_deposit_with_permit(
        w3, holder, gateway_wallet=gateway.address, usdc=usdc.address, value=2_000_000
    )
    # Any account can send it; here a funded test account plays the relayer.
    relayer_account = w3.eth.accounts[-1]
    fields: dict[str, Any] = {**tx.to_transaction(), "from": relayer_account}
    tx_hash = w3.eth.send_transaction(cast(TxParams, fields))
    status = w3.eth.wait_for_transaction_receipt(tx_hash)["status"]

    print("\nPart 2: the prepared deposit on an in-process EVM")
    print(f"  {tx!r}")
    print(f"  receipt status {status}")
    print(f"  holder balance  {usdc.functions.balanceOf(holder.address).call()}")
    print(f"  gateway balance {usdc.functions.balanceOf(gateway.address).call()}")


if __name__ == "__main__":
    offline()
    on_a_local_chain()
