"""Per-call overhead of the SDK's transport against raw httpx, on the same mock server.

Three ways to read one relayer transaction record, timed in one run over the same
in-process `httpx.MockTransport` (so no network time hides the difference):

- raw httpx: ``client.get(...)``, ``raise_for_status()``, ``response.json()["data"]``;
- raw httpx + pydantic: the same, then ``RelayStatus.model_validate(...)``, which is what a
  careful hand-written client would do;
- xswap-sdk: ``RelayerClient.get_relay_status(tx_id)`` (argument checks, headers,
  retry policy, envelope, model, logging hooks, response capture hook).

Blocking and async clients both. Run it with ``python benchmarks/transport.py``.
"""

from __future__ import annotations

import asyncio
import platform
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

try:
    import xswap_sdk  # noqa: F401
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import httpx
from _loopback import API_KEY, RECORD, TX_ID

from xswap_sdk import AsyncRelayerClient, RelayerClient
from xswap_sdk.relayer import RelayStatus

BASE = "https://relayer.bench"
ROUNDS = 5
CALLS = 2000


def handler(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"success": True, "data": RECORD})


def best_per_call(run: Callable[[], None]) -> float:
    samples = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        for _ in range(CALLS):
            run()
        samples.append((time.perf_counter() - started) / CALLS)
    return min(samples)


async def best_per_call_async(run: Callable[[], Awaitable[None]]) -> float:
    samples = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        for _ in range(CALLS):
            await run()
        samples.append((time.perf_counter() - started) / CALLS)
    return min(samples)


def sync_rows() -> list[tuple[str, float]]:
    raw = httpx.Client(transport=httpx.MockTransport(handler))
    sdk = RelayerClient(
        api_key=API_KEY,
        base_url=BASE,
        http_client=httpx.Client(transport=httpx.MockTransport(handler)),
    )

    def raw_json() -> None:
        response = raw.get(f"{BASE}/api/tx", params={"id": TX_ID}, headers={"api-key": API_KEY})
        response.raise_for_status()
        response.json()["data"]

    def raw_model() -> None:
        response = raw.get(f"{BASE}/api/tx", params={"id": TX_ID}, headers={"api-key": API_KEY})
        response.raise_for_status()
        RelayStatus.model_validate(response.json()["data"])

    def through_sdk() -> None:
        sdk.get_relay_status(TX_ID)

    assert sdk.get_relay_status(TX_ID) == RelayStatus.model_validate(RECORD)
    return [
        ("raw httpx (dict)", best_per_call(raw_json)),
        ("raw httpx + pydantic model", best_per_call(raw_model)),
        ("xswap-sdk RelayerClient", best_per_call(through_sdk)),
    ]


async def async_rows() -> list[tuple[str, float]]:
    raw = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    sdk = AsyncRelayerClient(
        api_key=API_KEY,
        base_url=BASE,
        http_client=httpx.AsyncClient(transport=httpx.MockTransport(handler)),
    )

    async def raw_model() -> None:
        response = await raw.get(
            f"{BASE}/api/tx", params={"id": TX_ID}, headers={"api-key": API_KEY}
        )
        response.raise_for_status()
        RelayStatus.model_validate(response.json()["data"])

    async def through_sdk() -> None:
        await sdk.get_relay_status(TX_ID)

    return [
        ("raw httpx.AsyncClient + pydantic model", await best_per_call_async(raw_model)),
        ("xswap-sdk AsyncRelayerClient", await best_per_call_async(through_sdk)),
    ]


def print_table(title: str, rows: list[tuple[str, float]]) -> None:
    baseline = rows[-2][1]
    print(f"\n{title}")
    print(f"{'':40} {'per call':>10} {'vs model baseline':>18}")
    for name, seconds in rows:
        print(f"{name:40} {seconds * 1e6:8.0f} us {seconds / baseline:17.2f}x")


def main() -> None:
    print(f"Python {platform.python_version()} on {platform.machine()}, httpx {httpx.__version__}")
    print(f"best of {ROUNDS} rounds of {CALLS} calls each")
    print_table("blocking", sync_rows())
    print_table("async", asyncio.run(async_rows()))


if __name__ == "__main__":
    main()
