"""FlashClient.deposit on an in-process EVM: the chain configuration from the backend,
a USDC permit and ``depositWithPermit``, sent by web3 or handed to the relayer."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from eth_account.signers.local import LocalAccount
from pytest_httpx import HTTPXMock
from web3 import AsyncWeb3, Web3

from xswap_sdk import AsyncRelayerClient, RelayerClient, errors
from xswap_sdk.flash import DepositResult
from xswap_sdk.journal import SQLiteJournal
from xswap_sdk.registry import DEFAULT_REGISTRY, GatewayChain
from xswap_sdk.signing import DEPOSIT_WITH_PERMIT_SELECTOR

from ..support import FLASH_URL, RELAYER_KEY, RELAYER_URL, TX_ID, relayer_ok, resolve
from .payloads import chain

pytestmark = pytest.mark.evm

MINTED = 10_000_000
DEPOSIT = 2_500_000
CHAINS_URL = f"{FLASH_URL}/supported-chains"


class Chain:
    """The test's chain, sync or async, with USDC and the gateway wallet deployed."""

    def __init__(self, web3: Any, usdc: Any, gateway: Any, chain_id: int) -> None:
        self.web3, self.usdc, self.gateway, self.chain_id = web3, usdc, gateway, chain_id
        self.registry = DEFAULT_REGISTRY

    async def call(self, function: Any) -> Any:
        return await resolve(function.call())

    async def send(self, tx: dict[str, Any]) -> int:
        """Send from an account that is not the holder, as a relayer would."""
        accounts = await resolve(self.web3.eth.accounts)
        tx_hash = await resolve(self.web3.eth.send_transaction({**tx, "from": accounts[1]}))
        receipt = await resolve(self.web3.eth.wait_for_transaction_receipt(tx_hash))
        return int(receipt["status"])

    def config(self) -> dict[str, Any]:
        """This chain as the backend lists it."""
        return chain(
            self.chain_id,
            gatewayWallet=self.gateway.address.lower(),
            usdc={**chain(self.chain_id)["usdc"], "address": self.usdc.address.lower()},
        )

    def pinned(self, chain_id: int | None = None, domain: int | None = None) -> GatewayChain:
        """This chain's contracts as a registry entry (under ``chain_id`` and ``domain``,
        as a mainnet, when given)."""
        config = self.config()
        return GatewayChain(
            chain_id=chain_id or self.chain_id,
            name="test chain",
            domain=config["domain"] if domain is None else domain,
            usdc=self.usdc.address,
            gateway_wallet=self.gateway.address,
            gateway_minter=config["gatewayMinter"],
            testnet=chain_id is None,
        )


@pytest.fixture
async def evm(
    kind: str,
    request: pytest.FixtureRequest,
    wallet: LocalAccount,
    monkeypatch: pytest.MonkeyPatch,
) -> Chain:
    """USDC and the gateway wallet on a fresh chain, pinned in the registry; the wallet
    holds 10 USDC and 1 ETH."""
    if kind == "sync":
        web3: Any = request.getfixturevalue("w3")
        deploy: Callable[..., Any] = request.getfixturevalue("deploy")
    else:
        web3 = request.getfixturevalue("async_w3")
        deploy = request.getfixturevalue("deploy_async")
    usdc = await resolve(deploy("test_usdc", "USD Coin", "USDC", 6, "2"))
    gateway = await resolve(deploy("gateway_wallet"))
    accounts = await resolve(web3.eth.accounts)
    minted = await resolve(
        usdc.functions.mint(wallet.address, MINTED).transact({"from": accounts[0]})
    )
    await resolve(web3.eth.wait_for_transaction_receipt(minted))
    funded = await resolve(
        web3.eth.send_transaction({"from": accounts[0], "to": wallet.address, "value": 10**18})
    )
    await resolve(web3.eth.wait_for_transaction_receipt(funded))
    made = Chain(web3, usdc, gateway, int(await resolve(web3.eth.chain_id)))
    # The test chain and its fresh contracts are not Circle's: pinned, as a caller adding
    # a chain would, in the registry the test's clients are given.
    made.registry = DEFAULT_REGISTRY.with_chains(made.pinned())
    return made


async def deposited(evm: Chain, owner: str) -> tuple[int, int]:
    return (
        await evm.call(evm.usdc.functions.balanceOf(owner)),
        await evm.call(evm.gateway.functions.deposits(evm.usdc.address, owner)),
    )


async def test_deposit_sent_by_web3_from_the_signer(
    make_flash: Any, evm: Chain, wallet: LocalAccount, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=CHAINS_URL, json=[evm.config()])
    client = make_flash(registry=evm.registry)
    result = await resolve(
        client.deposit(wallet, chain_id=evm.chain_id, amount=str(DEPOSIT), web3=evm.web3)
    )
    assert isinstance(result, DepositResult)
    assert result.relayer_tx_id is None
    assert result.chain_id == evm.chain_id
    assert result.tx_hash is not None
    receipt = await resolve(evm.web3.eth.wait_for_transaction_receipt(result.tx_hash))
    assert receipt["status"] == 1
    assert receipt["from"] == wallet.address  # the signer paid the gas
    assert await deposited(evm, wallet.address) == (MINTED - DEPOSIT, DEPOSIT)
    tx = result.transaction
    assert tx.to == evm.gateway.address
    assert tx.data.startswith(DEPOSIT_WITH_PERMIT_SELECTOR)
    assert (tx.permit.owner, tx.permit.spender, tx.permit.value) == (
        wallet.address,
        evm.gateway.address,
        DEPOSIT,
    )
    assert tx.permit.signature[2:] not in repr(result)


async def test_deposit_handed_to_the_relayer(
    make_flash: Any,
    evm: Chain,
    wallet: LocalAccount,
    httpx_mock: HTTPXMock,
    kind: str,
    tmp_path: Path,
) -> None:
    httpx_mock.add_response(url=CHAINS_URL, json=[evm.config()])
    httpx_mock.add_response(
        url=f"{RELAYER_URL}/api/submit-tx", method="POST", json=relayer_ok({"txId": TX_ID})
    )
    relayer_cls = RelayerClient if kind == "sync" else AsyncRelayerClient
    # The relayer's journal holds the journey: the result names it.
    relayer = relayer_cls(api_key=RELAYER_KEY, base_url=RELAYER_URL, journal=tmp_path / "r.db")
    client = make_flash(registry=evm.registry)
    result = await resolve(
        client.deposit(
            wallet, chain_id=evm.chain_id, amount=DEPOSIT, web3=evm.web3, relayer=relayer
        )
    )
    assert result.relayer_tx_id == TX_ID
    assert result.tx_hash is None
    [journey] = SQLiteJournal(tmp_path / "r.db").journeys()
    assert (journey.kind, result.journey_id) == ("relay", journey.id)
    submitted = json.loads(httpx_mock.get_requests()[-1].content)
    assert submitted == {
        "to": evm.gateway.address,
        "callData": result.transaction.data,
        "chainId": evm.chain_id,
        "value": "0",
    }
    assert await deposited(evm, wallet.address) == (MINTED, 0)  # not sent by us
    # What the relayer would send works from any account: the tokens come from the permit.
    assert await evm.send({"to": submitted["to"], "data": submitted["callData"]}) == 1
    assert await deposited(evm, wallet.address) == (MINTED - DEPOSIT, DEPOSIT)
    await resolve(relayer.close() if kind == "sync" else relayer.aclose())


async def test_a_web3_on_another_chain_is_refused_before_sending(
    make_flash: Any,
    evm: Chain,
    wallet: LocalAccount,
    httpx_mock: HTTPXMock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = evm.config()
    config["id"], config["domain"] = 8453, 6  # Base, but web3 talks to the test chain
    evm.registry = DEFAULT_REGISTRY.with_chains(evm.pinned(8453, domain=6))
    httpx_mock.add_response(url=CHAINS_URL, json=[config], is_optional=True)
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(
            make_flash(registry=evm.registry).deposit(
                wallet, chain_id=8453, amount=DEPOSIT, web3=evm.web3
            )
        )
    assert info.value.argument == "web3"
    assert f"chain {evm.chain_id}" in info.value.rule
    assert httpx_mock.get_requests() == []  # checked before the chain list is asked
    assert await deposited(evm, wallet.address) == (MINTED, 0)


async def test_an_authorization_deposit_checks_web3s_chain_before_signing(
    make_flash: Any, evm: Chain, wallet: LocalAccount, httpx_mock: HTTPXMock
) -> None:
    # web3 talks to the test chain; the deposit is for Base: refused before anything is
    # signed, asked or sent (not even the chain list).
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(
            make_flash(registry=evm.registry).deposit(
                wallet, chain_id=8453, amount=DEPOSIT, web3=evm.web3, method="authorization"
            )
        )
    assert info.value.argument == "web3"
    assert f"chain {evm.chain_id}" in info.value.rule
    assert httpx_mock.get_requests() == []
    assert await deposited(evm, wallet.address) == (MINTED, 0)


async def test_an_unsupported_chain_is_refused(
    make_flash: Any, evm: Chain, wallet: LocalAccount, httpx_mock: HTTPXMock
) -> None:
    httpx_mock.add_response(url=CHAINS_URL, json=[chain(8453), chain(1)])
    unlisted = {**evm.config(), "gatewayWallet": None}
    httpx_mock.add_response(url=CHAINS_URL, json=[chain(8453), unlisted])
    client = make_flash(registry=evm.registry)
    with pytest.raises(errors.InvalidInputError, match="not a chain the backend supports"):
        await resolve(client.deposit(wallet, chain_id=evm.chain_id, amount=1, web3=evm.web3))
    # A chain listed without its gatewayWallet does not fit the spec's Chain: the
    # answer is refused as a whole, naming the field, before anything is signed.
    with pytest.raises(errors.ResponseValidationError, match=r"1\.gatewayWallet"):
        await resolve(client.deposit(wallet, chain_id=evm.chain_id, amount=1, web3=evm.web3))
    assert await deposited(evm, wallet.address) == (MINTED, 0)


@pytest.mark.parametrize(
    ("changes", "argument"),
    [
        ({"web3": None}, "web3"),
        ({"amount": 0}, "amount"),
        ({"amount": 1.5}, "amount"),
        ({"chain_id": "base"}, "chain_id"),
        ({"relayer": "https://relayer"}, "relayer"),
        ({"signer": object()}, "signer"),
    ],
)
async def test_deposit_arguments_are_checked_before_any_request(
    make_flash: Any,
    httpx_mock: HTTPXMock,
    wallet: LocalAccount,
    kind: str,
    changes: Any,
    argument: str,
) -> None:
    arguments: dict[str, Any] = {
        "signer": wallet,
        "chain_id": 1,
        "amount": 1,
        "web3": Web3() if kind == "sync" else AsyncWeb3(),
        **changes,
    }
    signer = arguments.pop("signer")
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(make_flash().deposit(signer, **arguments))
    assert info.value.argument == argument
    assert httpx_mock.get_requests() == []


async def test_the_wrong_flavour_of_web3_or_relayer_is_refused(
    make_flash: Any, kind: str, wallet: LocalAccount
) -> None:
    client = make_flash()
    wrong_web3 = AsyncWeb3() if kind == "sync" else Web3()
    right_web3 = Web3() if kind == "sync" else AsyncWeb3()
    with pytest.raises(errors.InvalidInputError, match="must be") as info:
        await resolve(client.deposit(wallet, chain_id=1, amount=1, web3=wrong_web3))
    assert info.value.argument == "web3"
    wrong_relayer = (AsyncRelayerClient if kind == "sync" else RelayerClient)(api_key="k" * 8)
    with pytest.raises(errors.InvalidInputError) as relayer_info:
        await resolve(
            client.deposit(wallet, chain_id=1, amount=1, web3=right_web3, relayer=wrong_relayer)
        )
    assert relayer_info.value.argument == "relayer"


async def test_without_web3_installed_the_error_names_the_extra(
    make_flash: Any, wallet: LocalAccount, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "web3", None)
    with pytest.raises(errors.MissingDependencyError, match=r'pip install "\.\[web3\]"'):
        await resolve(make_flash().deposit(wallet, chain_id=1, amount=1, web3=object()))


@pytest.mark.parametrize(
    ("field", "tampered"),
    [("gatewayWallet", "0x" + "66" * 20), ("usdc", "0x" + "77" * 20)],
)
async def test_a_tampered_chain_list_is_refused_before_signing(
    make_flash: Any,
    evm: Chain,
    wallet: LocalAccount,
    httpx_mock: HTTPXMock,
    kind: str,
    field: str,
    tampered: str,
) -> None:
    config = evm.config()
    if field == "usdc":
        config["usdc"]["address"] = tampered
    else:
        config[field] = tampered
    httpx_mock.add_response(url=CHAINS_URL, json=[config])
    relayer_cls = RelayerClient if kind == "sync" else AsyncRelayerClient
    relayer = relayer_cls(api_key=RELAYER_KEY, base_url=RELAYER_URL)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(
            make_flash(registry=evm.registry).deposit(
                wallet, chain_id=evm.chain_id, amount=DEPOSIT, web3=evm.web3, relayer=relayer
            )
        )
    assert info.value.field.startswith(f"chains[{evm.chain_id}].")
    assert info.value.received.lower() == tampered
    # Nothing was signed: the holder's permit nonce has not moved; nothing was relayed.
    assert await evm.call(evm.usdc.functions.nonces(wallet.address)) == 0
    assert all(r.url.host != "relayer.test" for r in httpx_mock.get_requests())
    assert await deposited(evm, wallet.address) == (MINTED, 0)
    await resolve(relayer.close() if kind == "sync" else relayer.aclose())
