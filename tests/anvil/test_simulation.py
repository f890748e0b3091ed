"""Simulate before sending, on a real node (anvil) with Circle's contracts at their
real addresses: honest routes, deposits and mints are simulated and then sent; routes
that pay elsewhere, pay too little, take too much or revert are refused with nothing
signed (the signer's nonce and allowance unchanged); ``simulate=True`` on a node without
``eth_simulateV1`` fails before sending, and ``"auto"`` goes on. Sync and async.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from eth_account import Account
from eth_account.messages import encode_defunct
from eth_utils import keccak
from web3 import AsyncHTTPProvider, AsyncWeb3, HTTPProvider, Web3

from xswap_sdk import errors
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import (
    BurnIntent,
    available_balance_call,
    deposit_with_permit_call,
    gateway_mint_call,
    initiate_withdrawal_call,
    sign_permit,
)
from xswap_sdk.simulation import async_send_call, send_call
from xswap_sdk.testing import TEST_SIGNER

from ..support import resolve
from .conftest import MINTER, ROUTER, USDC, USDC_FUNDED, WALLET, WETH, Anvil, calldata

pytestmark = pytest.mark.anvil

AMOUNT = 3_000_000
ELSEWHERE = "0x000000000000000000000000000000000000dEaD"
RECIPIENT = "0x00000000000000000000000000000000000C0FFe"
USDC_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
CROSS_CHAIN = {
    "from_chain": 8453,
    "to_chain": 42161,
    "from_token": USDC,
    "to_token": USDC_ARBITRUM,
    "amount": AMOUNT,
    "sender": TEST_SIGNER.address,
    "route_mode": "fastest",
}
SAME_CHAIN = {**CROSS_CHAIN, "to_chain": 8453, "to_token": WETH}


class NoSimulate(HTTPProvider):
    """A node that has never heard of ``eth_simulateV1``."""

    def make_request(self, method: Any, params: Any) -> Any:
        if method == "eth_simulateV1":
            return {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "not found"}}
        return super().make_request(method, params)


class AsyncNoSimulate(AsyncHTTPProvider):
    """`NoSimulate`, for `AsyncWeb3`."""

    async def make_request(self, method: Any, params: Any) -> Any:
        if method == "eth_simulateV1":
            return {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "not found"}}
        return await super().make_request(method, params)


Connect = Callable[..., Any]


@pytest.fixture
async def connect(kind: str) -> AsyncIterator[Connect]:
    """``connect(url, simulates=True)``: a web3 of the test's flavour on the node; async
    providers' HTTP sessions are closed after the test."""
    made: list[Any] = []

    def make(url: str, *, simulates: bool = True) -> Any:
        if kind == "sync":
            return Web3((HTTPProvider if simulates else NoSimulate)(url))
        web3 = AsyncWeb3((AsyncHTTPProvider if simulates else AsyncNoSimulate)(url))
        made.append(web3)
        return web3

    yield make
    for web3 in made:
        await web3.provider.disconnect()


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        yield sandbox


def _routing(sb: Sandbox, kind: str) -> Any:
    return sb.routing_client() if kind == "sync" else sb.async_routing_client()


async def _quoted(sb: Sandbox, kind: str, request: dict[str, Any]) -> tuple[Any, Any]:
    """A routing client of ``kind``, and the first route it is quoted for ``request``."""
    routing = _routing(sb, kind)
    return routing, (await resolve(routing.get_quote(**request)))[0]


def _flash(sb: Sandbox, kind: str) -> Any:
    return sb.flash_client() if kind == "sync" else sb.async_flash_client()


def _configure(anvil: Anvil, *, pay_to: str = "0x" + "00" * 20, pay: int = 0, extra: int = 0,
               fail: bool = False) -> None:  # fmt: skip
    signature = "configure(address,address,uint256,uint256,bool)"
    anvil.send(ROUTER, calldata(signature, WETH, pay_to, pay, extra, fail))


def _balance(anvil: Anvil, token: str, owner: str) -> int:
    return anvil.uint(token, "balanceOf(address)", owner)


def _allowance(anvil: Anvil, owner: str, spender: str) -> int:
    return anvil.uint(USDC, "allowance(address,address)", owner, spender)


def _nonce(anvil: Anvil) -> int:
    return anvil.w3.eth.get_transaction_count(TEST_SIGNER.address)


async def test_an_honest_same_chain_route_is_simulated_then_sent(
    sb: Sandbox, kind: str, anvil: Anvil, connect: Connect
) -> None:
    routing, route = await _quoted(sb, kind, SAME_CHAIN)
    minimum = int(route.min_amount_out)
    _configure(anvil, pay=minimum)
    web3 = connect(anvil.url)
    result = await resolve(
        routing.execute_route(TEST_SIGNER, route, web3=web3, approve=True, wait=False)
    )
    simulation = result.simulation
    assert simulation is not None
    assert simulation.transactions == ("approval", "route")
    kinds = [(m.kind, m.transaction, m.amount) for m in simulation.movements]
    assert ("approval", 0, AMOUNT) in kinds
    assert ("transfer", 1, AMOUNT) in kinds
    assert ("transfer", 1, minimum) in kinds
    # Then sent: what the simulation showed happened.
    assert _balance(anvil, USDC, TEST_SIGNER.address) == USDC_FUNDED - AMOUNT
    assert _balance(anvil, WETH, TEST_SIGNER.address) == minimum
    assert result.allowance.approval_tx_hash


async def test_an_honest_cross_chain_route_is_simulated_then_sent(
    sb: Sandbox, kind: str, anvil: Anvil, connect: Connect
) -> None:
    routing, route = await _quoted(sb, kind, CROSS_CHAIN)
    web3 = connect(anvil.url)
    result = await resolve(
        routing.execute_route(TEST_SIGNER, route, web3=web3, approve=True, wait=False)
    )
    assert result.simulation is not None
    moved = [m for m in result.simulation.movements if m.kind == "transfer"]
    assert [(m.from_.lower(), m.to.lower(), m.amount) for m in moved] == [
        (TEST_SIGNER.address.lower(), ROUTER.lower(), AMOUNT)
    ]
    assert _balance(anvil, USDC, ROUTER) == AMOUNT


@pytest.mark.parametrize(
    ("behaviour", "reason"),
    [
        ("pays elsewhere", "less than the minimum"),
        ("pays less", "less than the minimum"),
        ("reverts", "would revert"),
    ],
)
async def test_a_dishonest_route_is_refused_before_the_approval(
    sb: Sandbox, kind: str, anvil: Anvil, behaviour: str, reason: str, connect: Connect
) -> None:
    routing, route = await _quoted(sb, kind, SAME_CHAIN)
    minimum = int(route.min_amount_out)
    if behaviour == "pays elsewhere":
        _configure(anvil, pay_to=ELSEWHERE, pay=minimum)
    elif behaviour == "pays less":
        _configure(anvil, pay=minimum - 1)
    else:
        _configure(anvil, fail=True)
    nonce = _nonce(anvil)
    with pytest.raises(errors.SimulationError, match=reason) as caught:
        await resolve(
            routing.execute_route(
                TEST_SIGNER, route, web3=connect(anvil.url), approve=True, wait=False
            )
        )
    assert "No transaction was signed or sent" in str(caught.value)
    assert _nonce(anvil) == nonce
    assert _allowance(anvil, TEST_SIGNER.address, ROUTER) == 0
    assert _balance(anvil, USDC, TEST_SIGNER.address) == USDC_FUNDED


async def test_a_route_that_takes_more_than_the_amount_is_refused(
    sb: Sandbox, kind: str, anvil: Anvil, connect: Connect
) -> None:
    # An allowance larger than the route's amount is already in place: the contract
    # could take more, and only the simulation sees it.
    anvil.rpc("anvil_impersonateAccount", [TEST_SIGNER.address])
    anvil.send(USDC, calldata("approve(address,uint256)", ROUTER, 10 * AMOUNT), TEST_SIGNER.address)
    routing, route = await _quoted(sb, kind, CROSS_CHAIN)
    _configure(anvil, extra=1)
    nonce = _nonce(anvil)
    with pytest.raises(errors.SimulationError, match="more than the 3000000 asked") as caught:
        await resolve(
            routing.execute_route(TEST_SIGNER, route, web3=connect(anvil.url), wait=False)
        )
    assert caught.value.transaction == 0
    assert any(m.amount == AMOUNT + 1 for m in caught.value.movements)
    assert _nonce(anvil) == nonce
    assert _balance(anvil, USDC, TEST_SIGNER.address) == USDC_FUNDED


async def test_simulate_true_on_a_node_without_it_fails_before_sending(
    sb: Sandbox, kind: str, anvil: Anvil, connect: Connect
) -> None:
    routing, route = await _quoted(sb, kind, CROSS_CHAIN)
    nonce = _nonce(anvil)
    web3 = connect(anvil.url, simulates=False)
    with pytest.raises(errors.SimulationError, match="could not simulate"):
        await resolve(
            routing.execute_route(
                TEST_SIGNER, route, web3=web3, approve=True, wait=False, simulate=True
            )
        )
    assert _nonce(anvil) == nonce


async def test_simulate_auto_on_a_node_without_it_goes_on_and_says_so(
    sb: Sandbox, kind: str, anvil: Anvil, caplog: pytest.LogCaptureFixture, connect: Connect
) -> None:
    routing, route = await _quoted(sb, kind, CROSS_CHAIN)
    web3 = connect(anvil.url, simulates=False)
    with caplog.at_level(logging.WARNING, logger="xswap_sdk"):
        result = await resolve(
            routing.execute_route(TEST_SIGNER, route, web3=web3, approve=True, wait=False)
        )
    assert result.simulation is None
    assert _balance(anvil, USDC, ROUTER) == AMOUNT
    assert any("not simulated" in record.getMessage() for record in caplog.records)


async def test_simulate_false_sends_without_simulating(
    sb: Sandbox, kind: str, anvil: Anvil, connect: Connect
) -> None:
    routing, route = await _quoted(sb, kind, CROSS_CHAIN)
    web3 = connect(anvil.url)
    result = await resolve(
        routing.execute_route(
            TEST_SIGNER, route, web3=web3, approve=True, wait=False, simulate=False
        )
    )
    assert result.simulation is None
    assert _balance(anvil, USDC, ROUTER) == AMOUNT


async def test_a_bad_simulate_argument_is_refused_before_any_io(
    sb: Sandbox, kind: str, connect: Connect
) -> None:
    routing = _routing(sb, kind)
    with pytest.raises(errors.InvalidInputError, match="simulate"):
        await resolve(
            routing.check_permit2_allowance(
                TEST_SIGNER, token=USDC, amount=1, web3=connect("http://127.0.0.1:9"),
                simulate="yes",
            )
        )  # fmt: skip


async def test_a_permit2_approval_is_simulated_then_sent(
    sb: Sandbox, kind: str, anvil: Anvil, connect: Connect
) -> None:
    routing = _routing(sb, kind)
    check = await resolve(
        routing.check_permit2_allowance(
            TEST_SIGNER, token=USDC, amount=AMOUNT, web3=connect(anvil.url), approve=True
        )
    )
    assert check.simulation is not None
    [approval] = check.simulation.movements
    assert (approval.kind, approval.amount) == ("approval", AMOUNT)


@pytest.mark.parametrize("method", ["permit", "authorization"])
async def test_a_deposit_is_simulated_then_credits_the_gateway_balance(
    sb: Sandbox, kind: str, anvil: Anvil, method: str, connect: Connect
) -> None:
    flash = _flash(sb, kind)
    result = await resolve(
        flash.deposit(
            TEST_SIGNER, chain_id=8453, amount=AMOUNT, web3=connect(anvil.url), method=method
        )
    )
    assert result.simulation is not None
    credits = [m for m in result.simulation.movements if m.kind == "deposit"]
    assert [(m.from_.lower(), m.to.lower(), m.amount) for m in credits] == [
        (TEST_SIGNER.address.lower(), WALLET.lower(), AMOUNT)
    ]
    anvil.w3.eth.wait_for_transaction_receipt(result.tx_hash)
    view = available_balance_call(chain_id=8453, depositor=TEST_SIGNER.address)
    assert view.decode(anvil.w3.eth.call(view.to_call())) == AMOUNT  # type: ignore[arg-type]


def _attestation(recipient: str, value: int) -> tuple[str, str, BurnIntent]:
    """A Gateway attestation (Circle's encoding) of a transfer from Arbitrum to Base,
    signed by the test attester the GatewayMinter trusts, and the burn intent it attests
    (what the caller signed, which the mint call is checked against)."""

    def word(address: str) -> bytes:
        return bytes.fromhex(address[2:].rjust(64, "0"))

    fields = {
        "version": 1,
        "sourceDomain": 3,  # Arbitrum
        "destinationDomain": 6,  # Base
        "sourceContract": word(WALLET),
        "destinationContract": word(MINTER),
        "sourceToken": word(USDC_ARBITRUM),
        "destinationToken": word(USDC),
        "sourceDepositor": word(TEST_SIGNER.address),
        "destinationRecipient": word(recipient),
        "sourceSigner": word(TEST_SIGNER.address),
        "destinationCaller": bytes(32),  # anyone may mint
        "value": value,
        "salt": keccak(text="salt"),
    }
    spec = (
        bytes.fromhex("ca85def7")
        + b"".join(
            v.to_bytes(4, "big") if k.endswith(("ersion", "Domain")) else v
            for k, v in fields.items()
            if k not in ("value", "salt")
        )
        + value.to_bytes(32, "big")
        + fields["salt"]
        + bytes(4)  # no hook data
    )
    attestation = (
        bytes.fromhex("ff6fb334") + (10**9).to_bytes(32, "big") + len(spec).to_bytes(4, "big")
    ) + spec
    from .conftest import ATTESTER

    signed = Account.sign_message(encode_defunct(primitive=keccak(attestation)), ATTESTER.key)
    intent = BurnIntent.model_validate(
        {
            "maxBlockHeight": 10**9,
            "maxFee": 0,
            "spec": {
                key: "0x" + v.hex() if isinstance(v, bytes) else v for key, v in fields.items()
            }
            | {"hookData": "0x"},
        }
    )
    return "0x" + attestation.hex(), "0x" + bytes(signed.signature).hex(), intent


async def test_a_mint_is_simulated_then_pays_the_attested_recipient(
    kind: str, anvil: Anvil, connect: Connect
) -> None:
    attestation, signature, intent = _attestation(RECIPIENT, 7_000_000)
    call = gateway_mint_call(
        chain_id=8453, attestation=attestation, signature=signature, intents=intent
    )
    web3 = connect(anvil.url)
    send = send_call if kind == "sync" else async_send_call
    sent = await resolve(send(web3, TEST_SIGNER, call))
    assert sent.simulation is not None
    assert sent.simulation.transactions == ("mint",)
    assert _balance(anvil, USDC, RECIPIENT) == 7_000_000


async def test_a_withdrawal_is_simulated_then_sent(
    kind: str, anvil: Anvil, connect: Connect
) -> None:
    web3 = connect(anvil.url)
    send = send_call if kind == "sync" else async_send_call
    anvil.rpc("anvil_impersonateAccount", [TEST_SIGNER.address])
    anvil.send(USDC, calldata("approve(address,uint256)", WALLET, AMOUNT), TEST_SIGNER.address)
    anvil.send(WALLET, calldata("deposit(address,uint256)", USDC, AMOUNT), TEST_SIGNER.address)
    call = initiate_withdrawal_call(chain_id=8453, value=AMOUNT, depositor=TEST_SIGNER.address)
    sent = await resolve(send(web3, TEST_SIGNER, call))
    assert sent.simulation is not None
    assert sent.simulation.transactions == ("withdrawal",)
    assert sent.simulation.movements == ()


async def test_simulate_true_on_the_in_process_evm_fails_before_sending(kind: str) -> None:
    # eth-tester's provider, which the in-process EVM tests use, lacks eth_simulateV1.
    from web3.providers.eth_tester import AsyncEthereumTesterProvider, EthereumTesterProvider

    from xswap_sdk import _async_web3, _simulation, _sync_web3

    web3: Any = (
        Web3(EthereumTesterProvider())
        if kind == "sync"
        else AsyncWeb3(AsyncEthereumTesterProvider())
    )
    check = (
        _sync_web3.check_by_simulation if kind == "sync" else _async_web3.async_check_by_simulation
    )
    intent = _simulation.approval_intent({"to": USDC, "data": "0x", "value": 0}, USDC, ROUTER, 1)
    with pytest.raises(errors.SimulationError, match="could not simulate"):
        await resolve(check(web3, TEST_SIGNER.address, [intent], True))
    assert await resolve(check(web3, TEST_SIGNER.address, [intent], "auto")) is None


@pytest.mark.parametrize("sender", ["depositor", "another account"])
async def test_a_permit_deposit_call_is_simulated_then_credits_the_depositor(
    kind: str, anvil: Anvil, connect: Connect, sender: str
) -> None:
    permit = sign_permit(
        TEST_SIGNER,
        token_name="USD Coin",
        token_version="2",
        chain_id=8453,
        token_address=USDC,
        spender=WALLET,
        value=AMOUNT,
        nonce=0,
    )
    call = deposit_with_permit_call(permit, signature_form="bytes")
    account = TEST_SIGNER if sender == "depositor" else Account.from_key("0x" + "b8" * 32)
    anvil.rpc("anvil_setBalance", [account.address, hex(10**18)])
    send = send_call if kind == "sync" else async_send_call
    sent = await resolve(send(connect(anvil.url), account, call))
    assert sent.simulation is not None
    assert sent.simulation.transactions == ("deposit",)
    [credit] = [m for m in sent.simulation.movements if m.kind == "deposit"]
    assert (credit.from_.lower(), credit.amount) == (TEST_SIGNER.address.lower(), AMOUNT)
    view = available_balance_call(chain_id=8453, depositor=TEST_SIGNER.address)
    assert view.decode(anvil.w3.eth.call(view.to_call())) == AMOUNT  # type: ignore[arg-type]


async def test_send_call_refuses_another_sender_or_chain(
    kind: str, anvil: Anvil, connect: Connect
) -> None:
    send = send_call if kind == "sync" else async_send_call
    web3 = connect(anvil.url)
    theirs = initiate_withdrawal_call(chain_id=8453, value=1, depositor=ELSEWHERE)
    with pytest.raises(errors.InvalidInputError, match="signer"):
        await resolve(send(web3, TEST_SIGNER, theirs))
    elsewhere = initiate_withdrawal_call(chain_id=42161, value=1, depositor=TEST_SIGNER.address)
    with pytest.raises(errors.InvalidInputError, match="connected to chain 8453, not 42161"):
        await resolve(send(web3, TEST_SIGNER, elsewhere))
    with pytest.raises(errors.InvalidInputError, match="simulate"):
        await resolve(send(web3, TEST_SIGNER, elsewhere, simulate="always"))
