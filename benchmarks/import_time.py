"""How long ``import xswap_sdk`` takes, next to what it cannot avoid.

Each line is the best of several fresh interpreters (``python -c ...``), so the cost of
starting Python is included everywhere and the differences are what each import adds:

- ``pass``: the interpreter alone;
- ``import httpx, pydantic``: the two libraries every client is built on (the floor);
- ``import eth_account``: for scale, what signing would cost if it loaded eagerly;
- ``import xswap_sdk``: the package alone (its names load on first use);
- ``from xswap_sdk import ...Client``: the three clients, what a program pays at its
  first client.

Run it with ``python benchmarks/import_time.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

RUNS = 10
SRC = Path(__file__).resolve().parents[1] / "src"


def best_of(code: str) -> float:
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=env)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    print(f"best of {RUNS} fresh interpreters each")
    clients = "from xswap_sdk import FlashClient, RelayerClient, RoutingClient"
    for code in (
        "pass",
        "import httpx, pydantic",
        "import eth_account",
        "import xswap_sdk",
        clients,
    ):
        print(f"{code:64} {best_of(code) * 1000:6.0f} ms")


if __name__ == "__main__":
    main()
