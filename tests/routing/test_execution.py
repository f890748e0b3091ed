"""RoutingClient.execute_route and check_permit2_allowance, end to end on an in-process EVM.

The chain is eth-tester's, renumbered 8453 (Base) so that the sandbox's quotes apply,
with a bare ERC-20 at the sandbox's USDC address and a stand-in routing contract at the
sandbox's routing contract address (runtime code placed in the genesis state). A route
is quoted by the sandbox, built, checked, approved for exactly its amount, sent from the
signer's key, and followed on ``/status``: the test's provider tells the sandbox about
every route transaction it mines, as an indexer would.

Both flavours; every argument of both methods is proven here (tests/test_wire.py lists
them as checked elsewhere). Tampered routes and transactions are refused before
anything is signed or sent.
"""

from __future__ import annotations

from typing import Any

import pytest
from eth_account import Account
from eth_tester import EthereumTester, PyEVMBackend
from web3 import AsyncWeb3, Web3
from web3.providers.eth_tester import AsyncEthereumTesterProvider, EthereumTesterProvider
from web3.providers.eth_tester.defaults import API_ENDPOINTS

from xswap_sdk import errors
from xswap_sdk.registry import PERMIT2
from xswap_sdk.routing import Route
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox._catalog import CHAINS
from xswap_sdk.testing import TEST_SIGNER

from ..evm.conftest import Compiled
from ..gateway.chain import eth_tester_backend
from ..support import resolve

pytestmark = pytest.mark.evm

USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
USDC_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
ROUTER = CHAINS[8453].routing_contract
AMOUNT = 3_000_000
MINTED = 10_000_000
QUOTE = {
    "from_chain": 8453,
    "to_chain": 42161,
    "from_token": USDC_BASE,
    "to_token": USDC_ARBITRUM,
    "amount": AMOUNT,
    "sender": TEST_SIGNER.address,
    "route_mode": "fastest",  # a bridge of seconds, not CCTP's 15 minutes
}
BALANCE_OF = "0x70a08231"


def _backend(compiled: Compiled) -> PyEVMBackend:
    code = {
        address: bytes.fromhex(compiled[name]["bytecode_runtime"].removeprefix("0x"))
        for address, name in ((USDC_BASE, "plain_token"), (ROUTER, "route_executor"))
    }
    # eth-tester's chain is 131277322940537; the sandbox quotes Base.
    return eth_tester_backend(code, 8453, accounts=2)


def _endpoints() -> dict[str, Any]:
    eth = {**API_ENDPOINTS["eth"], "chainId": lambda *_: 8453}
    return {**API_ENDPOINTS, "eth": eth}


def _mint_data(owner: str, amount: int) -> str:
    # mint(address,uint256)
    selector = Web3.keccak(text="mint(address,uint256)")[:4].hex()
    return "0x" + selector + owner[2:].lower().rjust(64, "0") + f"{amount:064x}"


class Indexer:
    """Tells the sandbox about each route transaction the chain mines, under its hash."""

    def __init__(self, sb: Sandbox, tester: EthereumTester) -> None:
        self.sb, self.tester = sb, tester

    def saw(self, method: str, response: Any) -> None:
        if method != "eth_sendRawTransaction" or "result" not in response:
            return
        tx = self.tester.get_transaction_by_hash(response["result"])
        if tx["to"].lower() == ROUTER.lower():
            data = tx["data"] if isinstance(tx["data"], str) else "0x" + tx["data"].hex()
            self.sb.routing.broadcast({"data": data}, source_hash=response["result"])


def _web3(kind: str, compiled: Compiled, sb: Sandbox) -> Any:
    tester = EthereumTester(_backend(compiled))
    indexer = Indexer(sb, tester)
    if kind == "sync":
        provider = EthereumTesterProvider(tester, api_endpoints=_endpoints())
        original = provider.make_request

        def make_request(method: Any, params: Any) -> Any:
            response = original(method, params)
            indexer.saw(method, response)
            return response

        provider.make_request = make_request  # type: ignore[method-assign]
        web3: Any = Web3(provider)
    else:
        async_provider = AsyncEthereumTesterProvider()
        async_provider.ethereum_tester = tester
        async_provider.api_endpoints = _endpoints()
        async_original = async_provider.make_request

        async def async_make_request(method: Any, params: Any) -> Any:
            response = await async_original(method, params)
            indexer.saw(method, response)
            return response

        async_provider.make_request = async_make_request  # type: ignore[method-assign]
        web3 = AsyncWeb3(async_provider)
    return web3


@pytest.fixture
async def web3(kind: str, compiled: Compiled, sb: Sandbox) -> Any:
    """The test chain, with 10 USDC minted to the signer."""
    w3 = _web3(kind, compiled, sb)
    accounts = await resolve(w3.eth.accounts)
    minted = await resolve(
        w3.eth.send_transaction(
            {"from": accounts[0], "to": USDC_BASE, "data": _mint_data(TEST_SIGNER.address, MINTED)}
        )
    )
    await resolve(w3.eth.wait_for_transaction_receipt(minted))
    return w3


def _client(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    return sb.routing_client(**kwargs) if kind == "sync" else sb.async_routing_client(**kwargs)


async def _uint_call(web3: Any, to: str, data: str) -> int:
    return int.from_bytes(bytes(await resolve(web3.eth.call({"to": to, "data": data}))), "big")


async def balance(web3: Any, owner: str) -> int:
    return await _uint_call(web3, USDC_BASE, BALANCE_OF + owner[2:].lower().rjust(64, "0"))


async def allowance_of(web3: Any, owner: str, spender: str) -> int:
    words = owner[2:].lower().rjust(64, "0") + spender[2:].lower().rjust(64, "0")
    return await _uint_call(web3, USDC_BASE, "0xdd62ed3e" + words)


async def test_a_route_runs_end_to_end(sb: Sandbox, kind: str, web3: Any) -> None:
    routing = _client(sb, kind)
    routes = await resolve(routing.get_quote(**QUOTE))
    result = await resolve(
        routing.execute_route(TEST_SIGNER, routes[0], web3=web3, approve=True, poll_interval=2.5)
    )
    # Approved exactly the amount, to the contract the transaction called; it pulled it.
    assert result.allowance is not None
    assert result.allowance.allowance == 0
    assert result.allowance.spender == ROUTER
    assert result.allowance.approval_tx_hash
    assert result.transaction.to == ROUTER
    assert await balance(web3, TEST_SIGNER.address) == MINTED - AMOUNT
    assert await balance(web3, ROUTER) == AMOUNT
    assert await allowance_of(web3, TEST_SIGNER.address, ROUTER) == 0
    receipt = await resolve(web3.eth.get_transaction_receipt(result.tx_hash))
    assert receipt["status"] == 1
    # Followed to the end on /status, under the hash the chain gave it.
    assert result.record is not None
    assert result.status == "completed"
    assert result.record.source_tx_hash_any == result.tx_hash.lower()
    assert len(sb.requests.select("routing", "GET", "/status")) >= 2


async def test_without_approve_a_short_allowance_sends_nothing(
    sb: Sandbox, kind: str, web3: Any
) -> None:
    routing = _client(sb, kind)
    routes = await resolve(routing.get_quote(**QUOTE))
    before = await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address))
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.execute_route(TEST_SIGNER, routes[0], web3=web3))
    assert info.value.argument == "approve"
    assert await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address)) == before


async def test_an_allowance_in_place_is_not_approved_again(
    sb: Sandbox, kind: str, web3: Any
) -> None:
    routing = _client(sb, kind)
    await resolve(
        routing.check_permit2_allowance(
            TEST_SIGNER, token=USDC_BASE, amount=AMOUNT, web3=web3, approve=True
        )
    )  # a Permit2 approval does not count for the router
    approved = await resolve(
        web3.eth.send_raw_transaction(
            TEST_SIGNER.sign_transaction(
                {
                    "to": USDC_BASE,
                    "data": "0x095ea7b3" + ROUTER[2:].lower().rjust(64, "0") + f"{AMOUNT * 2:064x}",
                    "gas": 100_000,
                    "maxFeePerGas": 10**10,
                    "maxPriorityFeePerGas": 1,
                    "nonce": await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address)),
                    "chainId": 8453,
                }
            ).raw_transaction
        )
    )
    await resolve(web3.eth.wait_for_transaction_receipt(approved))
    routes = await resolve(routing.get_quote(**QUOTE))
    result = await resolve(routing.execute_route(TEST_SIGNER, routes[0], web3=web3, wait=False))
    assert result.status is None
    assert result.record is None
    assert result.allowance is not None
    assert result.allowance.allowance == 2 * AMOUNT
    assert result.allowance.approval_tx_hash is None
    assert not sb.requests.select("routing", "GET", "/status")
    assert await allowance_of(web3, TEST_SIGNER.address, ROUTER) == AMOUNT


async def test_waiting_takes_its_arguments(sb: Sandbox, kind: str, web3: Any) -> None:
    routing = _client(sb, kind)
    routes = await resolve(routing.get_quote(**QUOTE))
    seen: list[Any] = []

    def done(record: Any) -> bool:
        seen.append(record)
        return len(seen) == 2

    started = sb.clock.monotonic()
    result = await resolve(
        routing.execute_route(
            TEST_SIGNER, routes[0], web3=web3, approve=True, poll_interval=0.5, is_done=done
        )
    )
    assert result.record is seen[-1]
    # Two records, one wait of poll_interval between them (virtual time).
    assert sb.clock.monotonic() - started == pytest.approx(0.5)

    sb.routing.quote_lifetime = 3600.0
    slow = await resolve(routing.get_quote(**{**QUOTE, "amount": AMOUNT // 3}))
    # The route takes longer than this wait: it times out after the time given.
    with pytest.raises(errors.WaitTimeoutError) as info:
        await resolve(
            routing.execute_route(TEST_SIGNER, slow[-1], web3=web3, approve=True, wait_timeout=0.25)
        )
    assert info.value.timeout == pytest.approx(0.25)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"amount": str(AMOUNT * 3)}, "route.amount"),
        ({"sender": "0x" + "66" * 20}, "route.sender"),
    ],
)
async def test_a_route_that_is_not_what_was_asked_is_refused(
    sb: Sandbox, kind: str, web3: Any, change: dict[str, Any], field: str
) -> None:
    routing = _client(sb, kind)
    route = (await resolve(routing.get_quote(**QUOTE)))[0]
    tampered = Route.from_wire({**route.to_wire(), **change})
    tampered._request = route.request
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(routing.execute_route(TEST_SIGNER, tampered, web3=web3, approve=True))
    assert info.value.field == field
    assert not sb.requests.select("routing", "POST", "/build-path")


async def test_a_route_without_its_quote_is_refused(sb: Sandbox, kind: str, web3: Any) -> None:
    routing = _client(sb, kind)
    route = (await resolve(routing.get_quote(**QUOTE)))[0]
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(
            routing.execute_route(TEST_SIGNER, Route.from_wire(route.to_wire()), web3=web3)
        )
    assert info.value.argument == "route"


@pytest.mark.parametrize(
    ("tamper", "field"),
    [
        ({"to": "0x" + "77" * 20}, "tx.to"),
        ({"allowanceTarget": "0x" + "77" * 20}, "tx.allowanceTarget"),
        ({"value": "5"}, "tx.value"),
        ({"chain": 42161}, "tx.chain"),
    ],
)
async def test_a_tampered_transaction_is_refused_before_signing(
    sb: Sandbox, kind: str, web3: Any, tamper: dict[str, Any], field: str
) -> None:
    routing = _client(sb, kind)
    routes = await resolve(routing.get_quote(**QUOTE))
    sb.faults.tamper(
        lambda body: body["data"].update(tamper), service="routing", path="/build-path"
    )
    before = await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address))
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(routing.execute_route(TEST_SIGNER, routes[0], web3=web3, approve=True))
    assert info.value.field == field
    assert await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address)) == before


async def test_a_pinned_routing_contract_is_what_the_transaction_must_call(
    sb: Sandbox, kind: str, web3: Any
) -> None:
    routing = _client(sb, kind, routing_contracts={8453: "0x" + "78" * 20})
    routes = await resolve(routing.get_quote(**QUOTE))
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(routing.execute_route(TEST_SIGNER, routes[0], web3=web3, approve=True))
    assert info.value.field == "tx.to"
    assert not sb.requests.select("routing", "GET", "/supported-chains")


async def test_web3_on_another_chain_is_refused(sb: Sandbox, kind: str, web3: Any) -> None:
    routing = _client(sb, kind)
    routes = await resolve(
        routing.get_quote(
            **{
                **QUOTE,
                "from_chain": 42161,
                "from_token": USDC_ARBITRUM,
                "to_chain": 8453,
                "to_token": USDC_BASE,
            }
        )
    )
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.execute_route(TEST_SIGNER, routes[0], web3=web3))
    assert info.value.argument == "web3"
    assert "42161" in info.value.rule


async def test_the_wrong_signer_or_web3_flavour_is_refused(
    sb: Sandbox, kind: str, web3: Any
) -> None:
    routing = _client(sb, kind)
    route = (await resolve(routing.get_quote(**QUOTE)))[0]
    other = Account.from_key("0x" + "43" * 32)
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.execute_route(other, route, web3=web3))
    assert info.value.argument == "signer"
    wrong = AsyncWeb3(AsyncEthereumTesterProvider()) if kind == "sync" else Web3()
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.execute_route(TEST_SIGNER, route, web3=wrong))
    assert info.value.argument == "web3"
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.execute_route(TEST_SIGNER, route, web3=web3, approve="yes"))
    assert info.value.argument == "approve"
    assert not sb.requests.select("routing", "POST", "/build-path")


async def test_permit2_is_checked_and_approved_for_exactly_the_amount(
    sb: Sandbox, kind: str, web3: Any
) -> None:
    routing = _client(sb, kind)
    read = await resolve(
        routing.check_permit2_allowance(TEST_SIGNER, token=USDC_BASE, amount=AMOUNT, web3=web3)
    )
    assert (read.allowance, read.sufficient, read.approval_tx_hash) == (0, False, None)
    assert read.spender == PERMIT2
    assert read.chain_id == 8453
    assert await allowance_of(web3, TEST_SIGNER.address, PERMIT2) == 0
    approved = await resolve(
        routing.check_permit2_allowance(
            TEST_SIGNER, token=USDC_BASE, amount=str(AMOUNT), web3=web3, approve=True
        )
    )
    assert approved.sufficient
    assert approved.approval_tx_hash
    assert await allowance_of(web3, TEST_SIGNER.address, PERMIT2) == AMOUNT
    again = await resolve(
        routing.check_permit2_allowance(
            TEST_SIGNER, token=USDC_BASE, amount=AMOUNT, web3=web3, approve=True
        )
    )
    assert (again.allowance, again.approval_tx_hash) == (AMOUNT, None)
    # No request to the routing service.
    assert not sb.requests.select("routing")
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(
            routing.check_permit2_allowance(TEST_SIGNER, token=USDC_BASE, amount=0, web3=web3)
        )
    assert info.value.argument == "amount"


# ------------------------------------------------------------------ the output side


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"receiver": "0x" + "66" * 20}, "route.receiver"),
        (
            {"toToken.address": "0x4200000000000000000000000000000000000006"},
            "route.toToken.address",
        ),
        ({"toToken.chain": 10}, "route.toToken.chain"),
        ({"minAmountOut": "1"}, "route.minAmountOut"),
        ({"minAmountOut": "0"}, "route.minAmountOut"),
    ],
    ids=["receiver", "output-token", "destination", "one-unit", "zero"],
)
async def test_a_route_paying_someone_else_is_refused_before_anything_is_sent(
    sb: Sandbox, kind: str, web3: Any, changes: dict[str, Any], field: str
) -> None:
    routing = _client(sb, kind)
    sb.faults.tamper_route(changes)
    routes = await resolve(routing.get_quote(**QUOTE, slippage="0.5"))
    before = await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address))
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(routing.execute_route(TEST_SIGNER, routes[0], web3=web3, approve=True))
    assert info.value.field == field
    # The manual path refuses it too.
    with pytest.raises(errors.UnsafePayloadError):
        await resolve(routing.build_path(routes[0], TEST_SIGNER.address))
    assert not sb.requests.select("routing", "POST", "/build-path")
    assert await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address)) == before


async def test_a_service_contract_swapped_for_an_attacker_gets_no_approval(
    sb: Sandbox, kind: str, web3: Any
) -> None:
    sb.faults.tamper_routing_chains(8453, {"serviceContract": "0x" + "66" * 20}, times=None)
    before = await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address))
    # Not pinned by the caller: the registry's Base contract is expected, not the list's.
    routing = _client(sb, kind, routing_contracts={})
    routes = await resolve(routing.get_quote(**QUOTE))
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(routing.execute_route(TEST_SIGNER, routes[0], web3=web3, approve=True))
    assert info.value.field == "tx.to"
    assert not sb.requests.select("routing", "GET", "/supported-chains")
    # Trusting the service: the list decides, and the honest transaction is refused
    # against the attacker's contract the list names; still nothing is approved.
    routing = _client(sb, kind, routing_contracts={}, unsafe_trust_service_parties=True)
    with pytest.raises(errors.UnsafePayloadError) as info:
        await resolve(routing.execute_route(TEST_SIGNER, routes[0], web3=web3, approve=True))
    assert info.value.field == "tx.to"
    assert await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address)) == before
    assert await allowance_of(web3, TEST_SIGNER.address, "0x" + "66" * 20) == 0
