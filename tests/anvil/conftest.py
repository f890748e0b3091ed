"""A real node for the simulation tests: Foundry's ``anvil``, with Circle's contracts at
their real addresses on Base (chain 8453).

Where ``anvil`` comes from, in order: the ``XSWAP_ANVIL`` environment variable (a path,
which must exist: ``.ci/run`` sets it); ``PATH``; this checkout's ``.cache/anvil`` (git
ignored), where ``python scripts/install_anvil.py`` installs it (from the npm package
Foundry publishes it in). Nothing here installs or downloads anything: without anvil,
the tests that need it (all marked ``anvil``) skip at once, saying how to get it;
``.ci/run`` runs the script first, so CI never skips them.

One node per session, on 127.0.0.1 at a free port, killed at the end of the session
(and at exit, whatever happens). Its state is built once (see ``tests/data/bytecode``
for where each contract's bytecode comes from) and every test starts from a snapshot
of it, so tests do not see each other's transactions.
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from eth_abi.abi import encode
from eth_account import Account
from eth_utils import keccak
from web3 import HTTPProvider, Web3

from xswap_sdk.gateway import build_transfer_intent
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.sandbox._attestation import ATTESTER as SANDBOX_ATTESTER
from xswap_sdk.sandbox._catalog import CHAINS
from xswap_sdk.signing import sign_burn_intent
from xswap_sdk.testing import TEST_SIGNER

from ..evm.conftest import Compiled, compiled  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
BYTECODE = ROOT / "tests" / "data" / "bytecode" / "contracts.json"

CHAIN_ID = 8453
BASE = DEFAULT_REGISTRY.chain(CHAIN_ID)
USDC = BASE.usdc
WALLET = BASE.gateway_wallet
MINTER = BASE.gateway_minter
WETH = "0x4200000000000000000000000000000000000006"
ROUTER = CHAINS[CHAIN_ID].routing_contract
# A public test key that signs attestations, as Circle's attester does: never fund it.
ATTESTER = Account.from_key("0x" + "a7" * 32)
USDC_FUNDED = 1_000_000_000  # 1,000 USDC for the signer
WETH_IN_ROUTER = 10**21
# ERC-1967's implementation slot: keccak256("eip1967.proxy.implementation") - 1.
_IMPLEMENTATION_SLOT = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc"
# OpenZeppelin's OwnableUpgradeable (ERC-7201 namespace "openzeppelin.storage.Ownable"):
# Circle's deployment sets the owner through a placeholder implementation first.
_OWNER_SLOT = "0x9016d09d72d40fdae2fd8ceac6b6234c7706214fd39c1cd1e609a0528c199300"


def _installer() -> Any:
    # scripts/install_anvil.py, by path (scripts/ is no package): where it puts anvil.
    script = ROOT / "scripts" / "install_anvil.py"
    spec = importlib.util.spec_from_file_location("install_anvil", script)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOW = (
    "needs Foundry's anvil: install it with `python scripts/install_anvil.py` (npm, about "
    "43 MB, into .cache/anvil), or put anvil on PATH, or its path in XSWAP_ANVIL"
)
"""The skip message of every test that runs on anvil when there is none."""


def anvil_binary() -> str:
    """The path of an ``anvil`` binary; skips the test when there is none (nothing is
    installed from here: see `HOW`)."""
    named = os.environ.get("XSWAP_ANVIL")
    if named:
        if not Path(named).is_file():
            raise RuntimeError(f"XSWAP_ANVIL names {named}, which is not a file")
        return named
    found = shutil.which("anvil")
    if found:
        return found
    cached = _installer().binary()
    if cached is not None and cached.is_file():
        return str(cached)
    pytest.skip(HOW)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ready(url: str, process: subprocess.Popen[bytes]) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}).encode()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"anvil exited with {process.returncode}")
        request = urllib.request.Request(url, body, headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("anvil did not answer within 60 s")


def calldata(signature: str, *values: Any) -> str:
    """``signature`` (e.g. ``"mint(address,uint256)"``) called with ``values``."""
    types = signature[signature.index("(") + 1 : -1]
    args = encode(_split(types), list(values)) if types else b""
    return "0x" + (keccak(text=signature)[:4] + args).hex()


def stuck_transfer(
    node: Anvil, sandbox: Sandbox, *, recipient: str, value: int, funded: int
) -> str:
    """The id of a transfer of ``value`` from Arbitrum to ``recipient`` on Base that the
    sandbox attested and nobody minted, the node's minter trusting the sandbox's
    attester (as Circle's trusts Circle's); the signer is funded ``funded`` first."""
    node.send(MINTER, calldata("addAttestationSigner(address)", SANDBOX_ATTESTER.address))
    sandbox.fund(TEST_SIGNER.address, 42161, funded)
    intent = build_transfer_intent(
        source_chain_id=42161,
        destination_chain_id=8453,
        depositor=TEST_SIGNER.address,
        recipient=recipient,
        value=value,
    )
    with sandbox.gateway_client() as gateway:
        return gateway.transfer(sign_burn_intent(intent, TEST_SIGNER)).transfer_id


def _split(types: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for index, char in enumerate(types):
        depth += char == "("
        depth -= char == ")"
        if char == "," and depth == 0:
            parts.append(types[start:index])
            start = index + 1
    parts.append(types[start:])
    return parts


@dataclass
class Anvil:
    """The running node: its URL, a blocking web3 on it, and its first (unlocked)
    account, which deploys and owns the contracts."""

    url: str
    w3: Web3
    deployer: str
    snapshot: str = ""

    def send(self, to: str | None, data: str, sender: str | None = None) -> Any:
        """Send from an unlocked account (the deployer by default); return the receipt,
        which must say success."""
        fields: dict[str, Any] = {"from": sender or self.deployer, "data": data}
        if to is not None:
            fields["to"] = to
        receipt = self.w3.eth.wait_for_transaction_receipt(self.w3.eth.send_transaction(fields))  # type: ignore[arg-type]
        assert receipt["status"] == 1, f"setup transaction to {to} reverted"
        return receipt

    def deploy(self, creation: str) -> str:
        """Deploy creation bytecode; return the new contract's address."""
        return str(self.send(None, creation)["contractAddress"])

    def place(self, address: str, code: bytes | str) -> None:
        """Put runtime code at ``address`` (``anvil_setCode``)."""
        hexcode = code if isinstance(code, str) else "0x" + bytes(code).hex()
        self.rpc("anvil_setCode", [address, hexcode])

    def rpc(self, method: str, params: list[Any]) -> Any:
        """A raw JSON-RPC call; its result."""
        response = self.w3.provider.make_request(method, params)  # type: ignore[arg-type]
        assert "error" not in response, response
        return response["result"]

    def uint(self, to: str, signature: str, *values: Any) -> int:
        """A view returning one uint256."""
        raw = self.w3.eth.call({"to": to, "data": calldata(signature, *values)})  # type: ignore[typeddict-item]
        return int.from_bytes(bytes(raw), "big")


def _linked(creation: str, links: dict[str, Any], library: str) -> str:
    # Each reference is a 40-character placeholder in the hex text.
    code = creation.removeprefix("0x")
    for references in links.values():
        for spots in references.values():
            for spot in spots:
                at = 2 * spot["start"]
                code = code[:at] + library[2:].lower() + code[at + 2 * spot["length"] :]
    return "0x" + code


def _behind_proxy(node: Anvil, artifacts: dict[str, Any], name: str, address: str) -> None:
    # Circle deploys each Gateway contract as an ERC-1967 proxy of its implementation.
    implementation = node.deploy(artifacts[name]["bytecode"])
    empty_proxy = (
        artifacts["ERC1967Proxy"]["bytecode"]
        + encode(["address", "bytes"], [implementation, b""]).hex()
    )
    proxy = node.deploy(empty_proxy)
    node.place(address, node.w3.eth.get_code(proxy))  # type: ignore[arg-type]
    for slot, value in ((_IMPLEMENTATION_SLOT, implementation), (_OWNER_SLOT, node.deployer)):
        node.rpc("anvil_setStorageAt", [address, slot, "0x" + value[2:].lower().rjust(64, "0")])


def _build(node: Anvil, contracts: Compiled) -> None:
    artifacts = json.loads(BYTECODE.read_text())
    me = node.deployer
    # USDC: FiatTokenV2_2 (its SignatureChecker library linked in) at Base's address.
    library = node.deploy(artifacts["SignatureChecker"]["bytecode"])
    token = node.deploy(
        _linked(
            artifacts["FiatTokenV2_2"]["bytecode"],
            artifacts["FiatTokenV2_2"]["linkReferences"],
            library,
        )
    )
    node.place(USDC, node.w3.eth.get_code(token))  # type: ignore[arg-type]
    node.send(
        USDC,
        calldata(
            "initialize(string,string,string,uint8,address,address,address,address)",
            "USD Coin", "USDC", "USD", 6, me, me, me, me,
        ),
    )  # fmt: skip
    node.send(USDC, calldata("initializeV2(string)", "USD Coin"))
    node.send(USDC, calldata("initializeV2_1(address)", me))
    node.send(USDC, calldata("initializeV2_2(address[],string)", [], "USDC"))
    # Circle's GatewayWallet and GatewayMinter, behind proxies at their real addresses.
    _behind_proxy(node, artifacts, "GatewayWallet", WALLET)
    node.send(
        WALLET,
        calldata(
            "initialize(address,address,address[],uint32,uint256,address,address)",
            me, me, [USDC], BASE.domain, 10, me, me,
        ),
    )  # fmt: skip
    _behind_proxy(node, artifacts, "GatewayMinter", MINTER)
    node.send(
        MINTER,
        calldata(
            "initialize(address,address,address[],uint32,address,address[])",
            me, me, [USDC], BASE.domain, ATTESTER.address, ["0x" + "00" * 20],
        ),
    )  # fmt: skip
    big = 2**255
    for minter in (me, MINTER):
        node.send(USDC, calldata("configureMinter(address,uint256)", minter, big))
    node.send(USDC, calldata("mint(address,uint256)", TEST_SIGNER.address, USDC_FUNDED))
    node.rpc("anvil_setBalance", [TEST_SIGNER.address, hex(10**20)])
    # Stand-ins (our Vyper test contracts): WETH, and the routing contract.
    node.place(WETH, contracts["plain_token"]["bytecode_runtime"])
    node.place(ROUTER, contracts["route_behaviours"]["bytecode_runtime"])
    node.send(WETH, calldata("mint(address,uint256)", ROUTER, WETH_IN_ROUTER))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that runs on anvil says so: the ``anvil`` marker (``-m "not anvil"``)."""
    for item in items:
        if "anvil_node" in getattr(item, "fixturenames", ()) and not item.get_closest_marker(
            "anvil"
        ):
            raise pytest.UsageError(f"{item.nodeid} runs on anvil: mark it pytest.mark.anvil")


@pytest.fixture(scope="session")
def anvil_node(request: pytest.FixtureRequest) -> Iterator[Anvil]:
    """anvil on 127.0.0.1, with the contracts in place; stopped at the session's end.
    Without anvil, skips before compiling anything."""
    binary = anvil_binary()
    contracts: Compiled = request.getfixturevalue("compiled")
    port = _free_port()
    process = subprocess.Popen(
        [binary, "--host", "127.0.0.1", "--port", str(port), "--chain-id", str(CHAIN_ID)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "NO_COLOR": "1"},
    )
    atexit.register(process.kill)
    try:
        url = f"http://127.0.0.1:{port}"
        _ready(url, process)
        w3 = Web3(HTTPProvider(url))
        node = Anvil(url=url, w3=w3, deployer=w3.eth.accounts[0])
        _build(node, contracts)
        node.snapshot = node.rpc("evm_snapshot", [])
        yield node
    finally:
        process.kill()
        process.wait()


@pytest.fixture
def anvil(anvil_node: Anvil) -> Iterator[Anvil]:
    """The node, as it was after its set-up: every test's changes are undone after it."""
    yield anvil_node
    anvil_node.rpc("evm_revert", [anvil_node.snapshot])
    anvil_node.snapshot = anvil_node.rpc("evm_snapshot", [])
