"""Constants and helpers shared by the tests."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import xswap_sdk
from xswap_sdk._options import ServiceConfig

RELAYER_URL = "https://relayer.test"
RELAYER_KEY = "relayer-key-7f3a9c1e5b"
ADDRESS = "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586"
TX_ID = "65f1a2b3c4d5e6f708192a3b"


TEST_SERVICE = ServiceConfig(
    name="relayer",
    default_base_url="https://relayer.test",
    base_url_env="XSWAP_TEST_URL",
    api_key_env="XSWAP_TEST_API_KEY",
    api_key_header="api-key",
)
"""A relayer-like service whose URL and key come from ``XSWAP_TEST_URL`` and
``XSWAP_TEST_API_KEY``."""


CLIENTS: dict[str, tuple[type[Any], type[Any]]] = {
    service: (getattr(xswap_sdk, f"{name}Client"), getattr(xswap_sdk, f"Async{name}Client"))
    for service, name in (
        ("relayer", "Relayer"),
        ("routing", "Routing"),
        ("flash", "Flash"),
        ("gateway", "Gateway"),
    )
}
"""Each service's clients, ``(sync, async)``."""


def recording_http_client(sandbox: Any, kind: str) -> tuple[Any, list[Any]]:
    """An httpx client of ``kind`` served by ``sandbox``, and the list of every request
    it sends."""
    import httpx

    seen: list[httpx.Request] = []

    def record(request: httpx.Request) -> None:
        seen.append(request)

    async def arecord(request: httpx.Request) -> None:
        seen.append(request)

    http: Any = (
        httpx.Client(transport=sandbox.transport, event_hooks={"request": [record]})
        if kind == "sync"
        else httpx.AsyncClient(transport=sandbox.transport, event_hooks={"request": [arecord]})
    )
    return http, seen


class Crash(BaseException):
    """Stands for the process dying: no ``except Exception`` catches it."""


def crash_after(stop: int, seen: list[Any] | None = None) -> Callable[[Any], None]:
    """A step hook that lets ``stop`` events by and raises `Crash` at the next one; it
    appends each event it is given (the one it stops at too) to ``seen``."""
    events = [] if seen is None else seen

    def crash(event: Any) -> None:
        events.append(event)
        if len(events) > stop:
            raise Crash

    return crash


def crash_at(*, step: str | None = None, status: str | None = None) -> Callable[[Any], None]:
    """A step hook that raises `Crash` at the first event of ``step`` with ``status``
    (either left out matches any)."""

    def crash(event: Any) -> None:
        if step in (None, event.step) and status in (None, event.status):
            raise Crash

    return crash


async def resolve(value: Any) -> Any:
    """Await ``value`` if the async client returned a coroutine; pass it through otherwise."""
    return await value if inspect.isawaitable(value) else value


def relayer_ok(data: Any) -> dict[str, Any]:
    """The relayer's success envelope."""
    return {"success": True, "data": data, "timestamp": "2025-06-01T12:00:00.000Z"}


def relayer_error(code: str, message: str, trace_id: str = "trace-1") -> dict[str, Any]:
    """The relayer's error envelope."""
    return {
        "success": False,
        "error": {
            "code": code,
            "message": message,
            "category": "VALIDATION_ERROR",
            "details": None,
            "traceId": trace_id,
        },
        "timestamp": "2025-06-01T12:00:00.000Z",
    }


def tx_record(status: str, **fields: Any) -> dict[str, Any]:
    """A relayer transaction record as the live service sends it."""
    record: dict[str, Any] = {
        "id": TX_ID,
        "userId": "user-1",
        "to": ADDRESS.lower(),
        "callData": "0x",
        "value": "0",
        "chainId": 8453,
        "gasPrice": None,
        "maxFeePerGas": None,
        "maxPriorityFeePerGas": None,
        "gasLimit": None,
        "label": "test",
        "status": status,
        "executionTxHash": "0x" + "ab" * 32 if status == "EXECUTED" else None,
        "costUSD": 0.0123,
        "latency": None,
        "timestamp": "2025-06-01T12:00:00.000Z",
    }
    record.update(fields)
    return record


# ---------------------------------------------------------------------------- routing

ROUTING_URL = "https://routing.test"
ROUTING_KEY = "routing-key-2c8e4f6a1d"
TEST_PRIVATE_KEY = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01789f8bd37"
TEST_ADDRESS = "0x5a3Ca05337A87116A27A21b11cDE16D85efb3586"  # of TEST_PRIVATE_KEY
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
WETH_ARBITRUM_ADDRESS = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
FLASH_SWAP: dict[str, Any] = {
    "input_amount": 10_000_000,
    "output_token": WETH_ARBITRUM_ADDRESS,
    "chain_id": 42161,
    "slippage": "0.5",
}
"""A swap backend swap of 10 USDC to WETH on Arbitrum (``client.swap(signer, **FLASH_SWAP)``)."""
USDC_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
PERMIT2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3"
SOURCE_TX_HASH = "0x" + "5c" * 32
SWAP_ID = "gs_01HZX3K9Q8"


def routing_ok(data: Any) -> dict[str, Any]:
    """The routing service's success envelope."""
    return {"code": 0, "message": "success", "data": data}


def routing_error(code: int, message: str) -> dict[str, Any]:
    """The routing service's failure envelope (sent with HTTP 200)."""
    return {"code": code, "message": message, "data": None}


def route_wire(**fields: Any) -> dict[str, Any]:
    """A Route as ``GET /quote`` sends it: USDC from Base to Arbitrum One."""
    token = {"decimals": 6, "icon": "https://icons.test/usdc.svg", "name": "USD Coin"}
    route: dict[str, Any] = {
        "quoteId": "q-7f1c2e",
        "amount": "1000000",
        "amountOut": "998000",
        "minAmountOut": "993010",
        "amountUsd": 1.0,
        "amountOutUsd": 0.998,
        "minAmountOutUsd": 0.99301,
        "expiry": 1735690200,
        "sender": TEST_ADDRESS.lower(),
        "receiver": TEST_ADDRESS.lower(),
        "slippage": 0.5,
        "integratorId": "acme",
        "estimatedTimeMs": 45000,
        "routeKind": "directBridge",
        "fromToken": {
            **token,
            "address": USDC_BASE,
            "chain": 8453,
            "priceUsd": 1.0,
            "symbol": "USDC",
        },
        "toToken": {
            **token,
            "address": USDC_ARBITRUM,
            "chain": 42161,
            "priceUsd": 0.9999,
            "symbol": "USDC",
        },
        "fees": {
            "integratorFee": "0",
            "integratorFeeUsd": 0,
            "routeFee": "2000",
            "routeFeeUsd": 0.002,
        },
        "gasFee": {
            "gasFee": "2100000000000",
            "gasFeeUsd": 0.0071,
            "gasLimit": "210000",
            "gasPrice": "10000000",
            "gasToken": {
                "address": "0x0000000000000000000000000000000000000000",
                "chain": 8453,
                "decimals": 18,
                "icon": "https://icons.test/eth.svg",
                "name": "Ether",
                "symbol": "ETH",
            },
        },
        "path": [
            {
                "amount": "1000000",
                "amountOut": "998000",
                "fromToken": USDC_BASE,
                "toToken": USDC_ARBITRUM,
                "type": "bridge",
                "provider": {
                    "icon": "https://icons.test/cctp.svg",
                    "name": "cctp",
                    "type": "bridge",
                },
            }
        ],
        "providers": [{"icon": "https://icons.test/cctp.svg", "name": "cctp", "type": "bridge"}],
    }
    route.update(fields)
    return route


def token_wire(**fields: Any) -> dict[str, Any]:
    """A token as ``GET /search-token`` lists it: USDC on Base."""
    return {
        "address": USDC_BASE,
        "chainId": 8453,
        "decimals": 6,
        "logoUrl": "https://icons.test/usdc.svg",
        "name": "USD Coin",
        "symbol": "USDC",
        **fields,
    }


def permit2_typed_data(chain_id: Any = "8453", **message: Any) -> dict[str, Any]:
    """A Permit2 ``PermitTransferFrom`` payload as the gasless quote sends it: a domain
    without ``version`` and, by default, a string ``chainId``."""
    return {
        "domain": {"name": "Permit2", "chainId": chain_id, "verifyingContract": PERMIT2},
        "types": {
            "PermitTransferFrom": [
                {"name": "permitted", "type": "TokenPermissions"},
                {"name": "spender", "type": "address"},
                {"name": "nonce", "type": "uint256"},
                {"name": "deadline", "type": "uint256"},
            ],
            "TokenPermissions": [
                {"name": "token", "type": "address"},
                {"name": "amount", "type": "uint256"},
            ],
        },
        "primaryType": "PermitTransferFrom",
        "message": {
            "permitted": {"token": USDC_BASE, "amount": "1000000"},
            # The routing contract the SDK pins on Base (xswap_sdk.registry).
            "spender": "0x737e1b401BF7a67e6b74bB393Dd62D3Bd9b37D0b",
            "nonce": "1853",
            "deadline": "1735691400",
            **message,
        },
    }


def gasless_quote_wire(**fields: Any) -> dict[str, Any]:
    """One gasless quote as ``GET /gasless/quote`` sends it."""
    quote: dict[str, Any] = {
        "quoteId": "gq-9a8b7c",
        "eip712": permit2_typed_data(),
        "nonce": "1853",
        "deadline": 1735691400,
        "quote": {
            "fromChain": 8453,
            "toChain": 42161,
            "sender": TEST_ADDRESS,
            "receiver": TEST_ADDRESS,
            "fromToken": USDC_BASE,
            "toToken": USDC_ARBITRUM,
            "amountIn": "1000000",
            "amountOut": "997000",
            "aggregator": "xpath",
            "routeKind": "directBridge",
            "bridgeProviders": ["cctp"],
        },
        "fee": {
            "feeAmount": "1000",
            "feeUsd": 0.001,
            "feeRecipient": "0x2222222d7164433c4C09B0b0D809a9b52C04C205",
        },
    }
    quote.update(fields)
    return quote


def gasless_status_wire(status: str, **fields: Any) -> dict[str, Any]:
    """A gasless swap record as ``GET /gasless/status`` sends it."""
    record: dict[str, Any] = {
        "swapId": SWAP_ID,
        "status": status,
        "aggregator": "xpath",
        "amountIn": "1000000",
        "amountOut": "997000",
        "feeAmount": "1000",
        "createdAt": "2025-01-01T00:00:00.000Z",
        "updatedAt": "2025-01-01T00:01:00.000Z",
        "executionTxHash": None,
        "from": TEST_ADDRESS.lower(),
        "recipient": TEST_ADDRESS.lower(),
        "fromChainId": 8453,
        "toChainId": 42161,
        "fromToken": USDC_BASE,
        "toToken": USDC_ARBITRUM,
        "routeKind": "directBridge",
        "tachyonTxId": "65f1a2b3c4d5e6f708192a3b",
    }
    record.update(fields)
    return record


# ------------------------------------------------------------------ swap backend (flash)

FLASH_URL = "https://flash.test"
FLASH_JWT = "eyJhbGciOiJIUzI1NiJ9.flash-jwt-initial.c2ln"


def bridge_status_wire(status: str, dest_hash: str | None = None) -> dict[str, Any]:
    """A bridge's ``GET /status`` answer (routing service) for ``SOURCE_TX_HASH`` from
    Base to Arbitrum; its destination transaction ``dest_hash`` when known."""
    return {
        "status": status,
        "srcTxDetails": {
            "chainId": 8453,
            "chainLogo": "https://icons.test/base.svg",
            "timestamp": 1735689600,
            "txHash": SOURCE_TX_HASH,
        },
        "destTxDetails": {
            "chainId": 42161,
            "chainLogo": "https://icons.test/arbitrum.svg",
            "timestamp": 1735689690 if dest_hash else None,
            "txHash": dest_hash,
        },
    }


def supported_chain_wire(chain_id: int, service_contract: str) -> dict[str, Any]:
    """A chain as the routing service's ``GET /supported-chains`` lists it."""
    return {
        "id": chain_id,
        "name": f"chain-{chain_id}",
        "displayName": f"Chain {chain_id}",
        "logoUrl": "https://icons.test/chain.svg",
        "explorerUrl": "https://explorer.test",
        "publicRpcUrl": "https://rpc.test",
        "serviceContract": service_contract,
        "chainType": "evm",
        "isTestnet": False,
        "nativeToken": {
            "symbol": "ETH",
            "name": "Ether",
            "decimals": 18,
            "logoUrl": "https://icons.test/eth.svg",
            "marketdataId": "ethereum",
        },
        "features": {"gaslessSwaps": True, "crossChain": True, "permit2": True},
    }


SRC = str(Path(__file__).resolve().parents[1] / "src")


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter that imports this checkout, with no
    ``XSWAP_*`` variable but those in ``env``."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("XSWAP_")}
    environ["PYTHONPATH"] = SRC + os.pathsep + environ.get("PYTHONPATH", "")
    environ.update(env)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=environ,
        check=False,
        timeout=120,
    )
