"""httpx or httpx2 under the SDK: what each costs, measured side by side in one run.

httpx2 is pydantic's API-identical continuation of httpx; the SDK drives either (a
caller's ``http_client=`` may be an ``httpx2.Client``, see ``xswap_sdk._http``). This
script decides which should be the SDK's own default, on the loopback server
(``_loopback.py``), interleaving the two round by round (``_measure.paired``):

- one blocking and one async read, raw (the library, ``json`` and the model) and through
  the SDK handed a client of each library;
- 1,000 concurrent reads on one async client at 100 connections, raw and through the SDK
  (httpcore 1.0 starves the event loop there; does httpcore2?);
- ``import`` time of each library, in a fresh interpreter;
- the disk each library's tree takes in this environment (the files their RECORDs list).

Prints a Markdown table for docs/configuration.md ("httpx or httpx2"). Needs httpx2
installed (the dev extra has it): ``python benchmarks/http_stacks.py``, about two minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from importlib.metadata import distribution
from pathlib import Path
from typing import Any

try:
    import xswap_sdk  # noqa: F401 - only: is the package installed?
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import httpx
import httpx2
from _calls import _per_call, _per_call_async, _raw_read, _raw_read_async
from _loopback import API_KEY, TX_ID, loopback_server
from _measure import child_env, paired, us

from xswap_sdk import AsyncRelayerClient, RelayerClient

ROUNDS = 15
BURST = 1000
BURST_ROUNDS = 3
IMPORT_RUNS = 15
TREES = {
    "httpx": ["httpx", "httpcore", "h11", "anyio", "idna", "certifi"],
    "httpx2": ["httpx2", "httpcore2", "h11", "anyio", "idna", "truststore"],
}
"""Each library and what it installs (sniffio and typing-extensions, which both may
pull in on older Pythons, left out)."""

LIBRARIES: dict[str, Any] = {"httpx": httpx, "httpx2": httpx2}


def blocking_rows(base_url: str) -> list[list[str]]:
    raw = {name: lib.Client() for name, lib in LIBRARIES.items()}
    sdk = {
        name: RelayerClient(api_key=API_KEY, base_url=base_url, http_client=lib.Client())
        for name, lib in LIBRARIES.items()
    }
    for _ in range(200):
        for name in LIBRARIES:
            _raw_read(raw[name], base_url)
            sdk[name].get_relay_status(TX_ID)
    rows = []
    base, ours, ratio = paired(
        _per_call(lambda: _raw_read(raw["httpx"], base_url)),
        _per_call(lambda: _raw_read(raw["httpx2"], base_url)),
        ROUNDS,
    )
    rows.append(["one blocking read, raw (+ json + model)", us(base), us(ours), f"{ratio:.2f}x"])
    base, ours, ratio = paired(
        _per_call(lambda: sdk["httpx"].get_relay_status(TX_ID)),
        _per_call(lambda: sdk["httpx2"].get_relay_status(TX_ID)),
        ROUNDS,
    )
    rows.append(["one blocking read, through the SDK", us(base), us(ours), f"{ratio:.2f}x"])
    return rows


def async_rows(base_url: str) -> list[list[str]]:
    loop = asyncio.new_event_loop()
    try:
        raw = {name: lib.AsyncClient() for name, lib in LIBRARIES.items()}
        sdk = {
            name: AsyncRelayerClient(
                api_key=API_KEY, base_url=base_url, http_client=lib.AsyncClient()
            )
            for name, lib in LIBRARIES.items()
        }

        async def warm() -> None:
            for _ in range(200):
                for name in LIBRARIES:
                    await _raw_read_async(raw[name], base_url)
                    await sdk[name].get_relay_status(TX_ID)

        loop.run_until_complete(warm())
        rows = []
        base, ours, ratio = paired(
            _per_call_async(loop, lambda: _raw_read_async(raw["httpx"], base_url)),
            _per_call_async(loop, lambda: _raw_read_async(raw["httpx2"], base_url)),
            ROUNDS,
        )
        rows.append(["one async read, raw", us(base), us(ours), f"{ratio:.2f}x"])
        base, ours, ratio = paired(
            _per_call_async(loop, lambda: sdk["httpx"].get_relay_status(TX_ID)),
            _per_call_async(loop, lambda: sdk["httpx2"].get_relay_status(TX_ID)),
            ROUNDS,
        )
        rows.append(["one async read, through the SDK", us(base), us(ours), f"{ratio:.2f}x"])
        return rows
    finally:
        loop.close()


async def _burst(read: Callable[[], Awaitable[object]]) -> tuple[float, int]:
    started = time.perf_counter()
    results = await asyncio.gather(*(read() for _ in range(BURST)), return_exceptions=True)
    elapsed = time.perf_counter() - started
    return BURST / elapsed, sum(isinstance(r, BaseException) for r in results)


def burst_rows(base_url: str) -> list[list[str]]:
    async def measure() -> list[list[str]]:
        sides: dict[str, Callable[[], Awaitable[object]]] = {}
        for name, lib in LIBRARIES.items():
            limits = lib.Limits(max_connections=100, max_keepalive_connections=100)
            raw = lib.AsyncClient(limits=limits, timeout=lib.Timeout(60.0))
            given = AsyncRelayerClient(
                api_key=API_KEY,
                base_url=base_url,
                http_client=lib.AsyncClient(limits=limits, timeout=lib.Timeout(60.0)),
            )
            sides[f"raw {name}"] = lambda raw=raw: _raw_read_async(raw, base_url)
            sides[f"SDK on {name}"] = lambda given=given: given.get_relay_status(TX_ID)
        for read in sides.values():
            await _burst(read)  # warm-up
        rates: dict[str, list[float]] = {label: [] for label in sides}
        failed: dict[str, int] = dict.fromkeys(sides, 0)
        labels = list(sides)
        for index in range(BURST_ROUNDS):
            order = labels[index % len(labels) :] + labels[: index % len(labels)]
            for label in order:
                rate, failures = await _burst(sides[label])
                rates[label].append(rate)
                failed[label] += failures
            print("   ", "; ".join(f"{k} {rates[k][-1]:.0f}/s" for k in labels))
        rows = []
        for what in ("raw", "SDK on"):
            a, b = rates[f"{what} httpx"], rates[f"{what} httpx2"]
            ratio = statistics.median(y / x for x, y in zip(a, b, strict=True))
            rows.append(
                [
                    f"{BURST} concurrent async reads at 100 connections, {what.lower()}",
                    f"{statistics.median(a):.0f} reads/s, {failed[f'{what} httpx']} failed",
                    f"{statistics.median(b):.0f} reads/s, {failed[f'{what} httpx2']} failed",
                    f"{ratio:.2f}x (throughput)",
                ]
            )
        return rows

    return asyncio.run(measure())


def import_row() -> list[str]:
    def seconds(module: str) -> float:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {module}"], check=True, env=child_env())
        return time.perf_counter() - started

    times: dict[str, list[float]] = {name: [] for name in LIBRARIES}
    for index in range(IMPORT_RUNS):
        for name in list(LIBRARIES)[:: 1 if index % 2 else -1]:
            times[name].append(seconds(name))
    a, b = (statistics.median(times[name]) for name in LIBRARIES)
    return [
        "`import` in a fresh interpreter",
        f"{a * 1000:.1f} ms",
        f"{b * 1000:.1f} ms",
        f"{b / a:.2f}x",
    ]


def _size(name: str) -> int:
    total = 0
    for file in distribution(name).files or ():
        with contextlib.suppress(OSError):
            total += os.stat(file.locate()).st_size
    return total


def size_row() -> list[str]:
    sizes = {lib: sum(_size(name) for name in tree) for lib, tree in TREES.items()}
    a, b = sizes["httpx"], sizes["httpx2"]
    return [
        "installed size of the library's tree",
        f"{a / 2**20:.1f} MiB ({', '.join(TREES['httpx'])})",
        f"{b / 2**20:.1f} MiB ({', '.join(TREES['httpx2'])})",
        f"{b / a:.2f}x",
    ]


def main() -> None:
    print(
        f"httpx {httpx.__version__} (httpcore {distribution('httpcore').version}), "
        f"httpx2 {httpx2.__version__} (httpcore2 {distribution('httpcore2').version}), "
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores"
    )
    rows: list[list[str]] = []
    with loopback_server() as base_url:
        print("blocking reads ...")
        rows += blocking_rows(base_url)
        print("async reads ...")
        rows += async_rows(base_url)
        print("bursts ...")
        rows += burst_rows(base_url)
    print("imports ...")
    rows.append(import_row())
    rows.append(size_row())
    head = ["figure", "httpx", "httpx2", "httpx2 / httpx"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
