"""The two journeys that send chain transactions, run against the served sandbox and a
real node (anvil, with Circle's contracts placed by ``conftest.py``): a deposit sent by
web3 (``deposit``, by permit or by authorization) and a route executed with web3
(``route``: an approval, then the route transaction to the stand-in routing contract).

Used by the crash runner, in a process of its own, and by the test reading what it
left: no pytest here, and no import of ``conftest.py`` (it compiles contracts).
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Iterable
from typing import Any, Final

import httpx
import requests
from eth_utils import keccak
from web3 import AsyncHTTPProvider, AsyncWeb3, HTTPProvider, Web3

from xswap_sdk import SystemClock
from xswap_sdk.journal import JournalStep
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox.routing import SANDBOX_ROUTING_CONTRACTS
from xswap_sdk.testing import TEST_SIGNER

CHAIN_ID: Final = 8453
ME: Final = TEST_SIGNER.address
USDC: Final = DEFAULT_REGISTRY.chain(CHAIN_ID).usdc
WALLET: Final = DEFAULT_REGISTRY.chain(CHAIN_ID).gateway_wallet
ROUTER: Final = SANDBOX_ROUTING_CONTRACTS[CHAIN_ID]
AMOUNT: Final = 3_000_000
JOURNEYS: Final = ("deposit-permit", "deposit-authorization", "route")
"""Each journey the crash test runs: a deposit by each method, and a route."""
JOURNEY_KIND: Final[dict[str, str]] = {j: j.split("-")[0] for j in JOURNEYS}
"""The journal's kind of each journey."""
# A cross-chain route: the stand-in routing contract pulls the input and pays nothing
# on this chain, which is what the simulation expects of a bridge.
CROSS_CHAIN: Final = {
    "from_chain": CHAIN_ID,
    "to_chain": 42161,
    "from_token": USDC,
    "to_token": "0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
    "amount": AMOUNT,
    "sender": ME,
    "route_mode": "fastest",
}
# GatewayWallet's Deposited(address,address,address,uint256); ERC-20 approve.
DEPOSITED: Final = "0x" + keccak(text="Deposited(address,address,address,uint256)").hex()
_APPROVE: Final = keccak(text="approve(address,uint256)")[:4]


def web3_on(url: str, flavour: str) -> Any:
    """A web3 of the flavour on the node. A blocking one gets a session of its own:
    web3 shares sessions by URL, and a forked child must not write on its parent's
    connection."""
    if flavour == "async":
        return AsyncWeb3(AsyncHTTPProvider(url))
    return Web3(HTTPProvider(url, session=requests.Session()))


async def close(web3: Any) -> None:
    """Close an async web3's HTTP session (a blocking one's goes with its process)."""
    if isinstance(web3, AsyncWeb3):
        await web3.provider.disconnect()


def client(base_url: str, journey: str, flavour: str, **kwargs: Any) -> Any:
    """The served sandbox's client for ``journey``, over real sockets on the real clock."""
    http = httpx.AsyncClient() if flavour == "async" else httpx.Client()
    local = Sandbox(base_url=base_url, clock=SystemClock())
    service = "routing" if journey == "route" else "flash"
    prefix = "async_" if flavour == "async" else ""
    make = getattr(local, f"{prefix}{service}_client")
    return make(http_client=http, clock=SystemClock(), **kwargs)


async def resolve(value: Any) -> Any:
    """Await what an async client returned."""
    return await value if inspect.isawaitable(value) else value


async def run(journey: str, api: Any, web3: Any) -> Any:
    """Run ``journey`` on ``api`` to its end (or to the process's)."""
    if journey == "route":
        routes = await resolve(api.get_quote(**CROSS_CHAIN))
        return await resolve(
            api.execute_route(
                TEST_SIGNER, routes[0], web3=web3, approve=True, wait=True, poll_interval=0.2
            )
        )
    method = journey.removeprefix("deposit-")
    return await resolve(
        api.deposit(TEST_SIGNER, chain_id=CHAIN_ID, amount=AMOUNT, web3=web3, method=method)
    )


def wait_indexed(base_url: str, tx_hash: str) -> None:
    """Wait until the sandbox's ``/status`` knows ``tx_hash`` (the test's indexer
    reads the chain), as a routing service indexes a chain some time after a block."""
    url = Sandbox(base_url=base_url).routing_url + "/status"
    params = {"txHash": tx_hash, "fromChain": str(CHAIN_ID)}
    deadline = time.monotonic() + 30
    while httpx.get(url, params=params).status_code != 200:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the sandbox never indexed {tx_hash}")
        time.sleep(0.05)


def settled(w3: Web3) -> None:
    """Wait until the node has mined every transaction it accepted: anvil answers
    ``eth_sendRawTransaction`` before it mines the block, and a receipt read right then
    finds nothing (resume would rightly say the journey needs attention)."""
    deadline = time.monotonic() + 30
    while True:
        pool = w3.provider.make_request("txpool_status", [])["result"]  # type: ignore[arg-type]
        if int(pool["pending"], 16) == int(pool["queued"], 16) == 0:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the node still holds transactions: {pool}")
        time.sleep(0.02)


def label(step: JournalStep) -> str:
    """``step/status``, and ``:what`` for a chain step (``broadcast/ok:route``)."""
    what = step.data.get("what")
    return f"{step.step}/{step.status}" + (f":{what}" if isinstance(what, str) else "")


def chain_steps(
    steps: Iterable[JournalStep], step: str, status: str | None = None
) -> dict[str, list[Any]]:
    """The ``tx_hash`` of each ``step`` (with ``status``) of ``steps``, by ``what``."""
    found: dict[str, list[Any]] = {}
    for s in steps:
        if s.step == step and (status is None or s.status == status) and "what" in s.data:
            found.setdefault(s.data["what"], []).append(s.data.get("tx_hash"))
    return found


def account_transactions(w3: Web3, since_block: int) -> list[dict[str, Any]]:
    """The transactions from the test account in the blocks after ``since_block``, each
    as ``{"hash", "what"}`` (``approval``, ``route``, ``deposit`` or ``other``)."""
    found = []
    for number in range(since_block + 1, w3.eth.block_number + 1):
        block = w3.eth.get_block(number, full_transactions=True)
        for tx in block["transactions"]:
            assert not isinstance(tx, bytes)
            if str(tx["from"]).lower() != ME.lower():
                continue
            what = _what(str(tx.get("to") or ""), bytes(tx["input"]))
            found.append({"hash": "0x" + bytes(tx["hash"]).hex(), "what": what})
    return found


def _what(to: str, data: bytes) -> str:
    if to.lower() == USDC.lower() and data[:4] == _APPROVE:
        return "approval"
    return {ROUTER.lower(): "route", WALLET.lower(): "deposit"}.get(to.lower(), "other")


def balance(w3: Web3, owner: str) -> int:
    """``owner``'s USDC."""
    data = "0x70a08231" + owner[2:].lower().rjust(64, "0")
    return int.from_bytes(bytes(w3.eth.call({"to": USDC, "data": data})), "big")  # type: ignore[typeddict-item]


def deposited_logs(w3: Web3, since_block: int) -> int:
    """How many ``Deposited`` events GatewayWallet emitted after ``since_block``."""
    latest = w3.eth.block_number
    if latest <= since_block:
        return 0
    query = {"address": WALLET, "topics": [DEPOSITED], "fromBlock": since_block + 1}
    return len(w3.eth.get_logs({**query, "toBlock": latest}))  # type: ignore[typeddict-item]
