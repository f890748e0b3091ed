"""Fill the gateway wallet with USDC: a permit and ``depositWithPermit``, two ways.

1. web3 sends the deposit from the holder, who pays the gas;
2. the relayer sends the same transaction, so the holder needs no gas at all.

The SDK signs a permit only for Circle's GatewayWallet and native USDC as its registry
pins them (`xswap_sdk.registry`), never for what a backend's chain list says. This local
chain and its contracts are not Circle's, so the example pins them in a registry of its
own, as a caller adding a chain would, and gives it to the client (``registry=``).

Runs with no network: the chain is an in-process EVM (web3 + eth-tester) with a USDC
stand-in (snekmate's ERC-20 with permit) and the test gateway wallet from
``tests/evm/contracts``, so it needs a checkout with the ``dev`` extra. The swap
backend and the relayer are small, clearly labelled STAND-INS behind
`httpx.MockTransport`; the relayer stand-in executes what it is given on the local chain.

    python examples/flash_deposit.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

try:
    import xswap_sdk  # noqa: F401
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import httpx
from eth_account import Account

from xswap_sdk import FlashClient, RelayerClient, from_units
from xswap_sdk.registry import DEFAULT_REGISTRY, GatewayChain

# A public test key: never use it for funds.
TEST_KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37"
CONTRACTS = Path(__file__).resolve().parents[1] / "tests" / "evm" / "contracts"


def _deploy(w3: Any, compiled: dict[str, Any], name: str, *args: Any) -> Any:
    factory = w3.eth.contract(abi=compiled[name]["abi"], bytecode=compiled[name]["bytecode"])
    tx_hash = factory.constructor(*args).transact({"from": w3.eth.accounts[0]})
    address = w3.eth.wait_for_transaction_receipt(tx_hash)["contractAddress"]
    return w3.eth.contract(address=address, abi=compiled[name]["abi"])


def stand_in_backend(chain: dict[str, Any]) -> httpx.MockTransport:
    """A STAND-IN for the swap backend: only the chain list is needed for deposits."""

    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/supported-chains":
            return httpx.Response(200, json=[chain])
        return httpx.Response(404, json={"message": "not found"})

    return httpx.MockTransport(handle)


def stand_in_relayer(w3: Any) -> httpx.MockTransport:
    """A STAND-IN for the relayer: it sends what it is given from its own funded account."""

    def handle(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        tx_hash = w3.eth.send_transaction(
            {"from": w3.eth.accounts[1], "to": body["to"], "data": body["callData"]}
        )
        w3.eth.wait_for_transaction_receipt(tx_hash)
        return httpx.Response(200, json={"success": True, "data": {"txId": "65f1a2b3c4d5e6f7"}})

    return httpx.MockTransport(handle)


def main() -> None:
    try:
        from eth_typing import HexStr
        from vyper.cli.vyper_compile import compile_files
        from web3 import Web3
        from web3.providers.eth_tester import EthereumTesterProvider
        from web3.types import Wei
    except ImportError:
        print('Skipped: this example needs the dev extra (pip install -e ".[dev]").')
        return
    if not CONTRACTS.is_dir():
        print("Skipped: this example runs from a checkout (it needs tests/evm/contracts).")
        return

    sources = [str(CONTRACTS / "test_usdc.vy"), str(CONTRACTS / "gateway_wallet.vy")]
    compiled = {Path(p).stem: out for p, out in compile_files(sources, ["abi", "bytecode"]).items()}
    w3 = Web3(EthereumTesterProvider())
    holder = Account.from_key(TEST_KEY)
    usdc = _deploy(w3, compiled, "test_usdc", "USD Coin", "USDC", 6, "2")
    gateway = _deploy(w3, compiled, "gateway_wallet")
    usdc.functions.mint(holder.address, 10_000_000).transact({"from": w3.eth.accounts[0]})
    # Only for the web3 path: the holder pays that transaction's gas.
    w3.eth.send_transaction(
        {"from": w3.eth.accounts[0], "to": holder.address, "value": Wei(10**17)}
    )

    # The backend's configuration of this chain, as GET /supported-chains lists it.
    chain = {
        "id": w3.eth.chain_id,
        "name": "local",
        "displayName": "Local test chain",
        "logoUrl": "https://flash.invalid/logos/local.svg",
        "explorerUrl": "https://explorer.invalid",
        "domain": 99,
        "routerAddress": "0x" + "22" * 20,
        "gatewayWallet": gateway.address,
        "gatewayMinter": "0x2222222d7164433c4C09B0b0D809a9b52C04C205",
        "nativeToken": {
            "address": "0x" + "00" * 20,
            "name": "Ether",
            "symbol": "ETH",
            "decimals": 18,
            "logoUrl": "https://flash.invalid/logos/eth.svg",
        },
        "usdc": {
            "address": usdc.address.lower(),
            "name": "USD Coin",
            "symbol": "USDC",
            "decimals": 6,
            "logoUrl": "https://flash.invalid/logos/usdc.svg",
            "version": "2",
        },
    }
    # Not Circle's contracts: pinned here, so that the SDK agrees to sign for them.
    registry = DEFAULT_REGISTRY.with_chains(
        GatewayChain(
            chain_id=w3.eth.chain_id,
            name="local",
            domain=99,
            usdc=usdc.address,
            gateway_wallet=gateway.address,
            gateway_minter=chain["gatewayMinter"],  # deposits do not use it
            testnet=True,
        )
    )
    flash = FlashClient(
        base_url="https://flash.invalid",
        http_client=httpx.Client(transport=stand_in_backend(chain)),
        registry=registry,
    )
    relayer = RelayerClient(
        api_key="demo-key",
        base_url="https://relayer.invalid",
        http_client=httpx.Client(transport=stand_in_relayer(w3)),
    )

    def deposited() -> str:
        return str(from_units(gateway.functions.deposits(usdc.address, holder.address).call(), 6))

    with flash, relayer:
        sent = flash.deposit(holder, chain_id=w3.eth.chain_id, amount=2_000_000, web3=w3)
        assert sent.tx_hash is not None  # web3 sent it (with relayer=, relayer_tx_id is set)
        receipt = w3.eth.wait_for_transaction_receipt(HexStr(sent.tx_hash))
        print(f"1. web3: tx {sent.tx_hash[:12]}... status {receipt['status']}")
        print(f"   deposited so far: {deposited()} USDC")

        relayed = flash.deposit(
            holder, chain_id=w3.eth.chain_id, amount=3_000_000, web3=w3, relayer=relayer
        )
        print(f"2. relayer: transaction id {relayed.relayer_tx_id}")
        print(f"   deposited so far: {deposited()} USDC")


if __name__ == "__main__":
    main()
