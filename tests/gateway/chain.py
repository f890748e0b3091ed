"""An in-process destination chain for the Gateway mint journeys: eth-tester's chain,
renumbered 8453 (Base) so that the sandbox's attestations mint on it, with code that
accepts any call at Base's GatewayMinter (it mints nothing: what is tested is the
journey, not Circle's contract, which tests/anvil runs). The signer's nonce counts the
mints sent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eth_tester import EthereumTester, PyEVMBackend
from eth_utils import to_canonical_address
from web3 import AsyncWeb3, Web3
from web3.providers.eth_tester import AsyncEthereumTesterProvider, EthereumTesterProvider
from web3.providers.eth_tester.defaults import API_ENDPOINTS

from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.testing import TEST_SIGNER

from ..support import resolve

CHAIN_ID = 8453
MINTER = DEFAULT_REGISTRY.chain(CHAIN_ID).gateway_minter
_STOP = b"\x00"  # runtime code that ends every call successfully
# Runtime code answering every call with one 32-byte word: 0 (a view's "false"), or 1.
ANSWERS_FALSE = bytes.fromhex("60206000f3")  # RETURN(0, 32) of zeroed memory
ANSWERS_TRUE = bytes.fromhex("600160005260206000f3")  # MSTORE(0, 1); RETURN(0, 32)


def eth_tester_backend(
    code: Mapping[str, bytes], chain_id: int, *, accounts: int = 1
) -> PyEVMBackend:
    """eth-tester's chain (``accounts`` funded accounts) renumbered ``chain_id``, with
    ``code`` (runtime bytecode) at each of its addresses and the test signer funded."""
    state = PyEVMBackend.generate_genesis_state(num_accounts=accounts)
    for address, runtime in code.items():
        state[to_canonical_address(address)] = {
            "balance": 0,
            "nonce": 1,
            "code": runtime,
            "storage": {},
        }
    state[to_canonical_address(TEST_SIGNER.address)] = {
        "balance": 10**20,
        "nonce": 0,
        "code": b"",
        "storage": {},
    }
    backend = PyEVMBackend(genesis_state=state)
    type(backend.chain).chain_id = chain_id
    return backend


def _backend(minter: bytes = _STOP) -> PyEVMBackend:
    # Renumbered: eth-tester's own id is not a Gateway chain.
    return eth_tester_backend({MINTER: minter}, CHAIN_ID)


def _endpoints(chain_id: int) -> dict[str, Any]:
    return {**API_ENDPOINTS, "eth": {**API_ENDPOINTS["eth"], "chainId": lambda *_: chain_id}}


def destination(kind: str, chain_id: int = CHAIN_ID, *, minter: bytes = _STOP) -> Any:
    """A web3 (blocking for ``"sync"``, async otherwise) on a fresh chain 8453 (or one
    that says it is ``chain_id``), the GatewayMinter's code ``minter`` (one of this
    module's: by default it stops at once, answering nothing)."""
    tester = EthereumTester(_backend(minter))
    if kind == "sync":
        return Web3(EthereumTesterProvider(tester, api_endpoints=_endpoints(chain_id)))
    provider = AsyncEthereumTesterProvider()
    provider.ethereum_tester = tester
    provider.api_endpoints = _endpoints(chain_id)
    return AsyncWeb3(provider)


async def mints_sent(web3: Any) -> int:
    """How many transactions the signer sent on the chain (each one a mint here)."""
    return int(await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address)))
