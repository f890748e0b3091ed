"""How much the xswap_sdk pytest plugin adds to every pytest start, side by side.

pytest loads installed plugins at every start, also in projects that never use their
fixtures. Each line runs ``pytest`` in a fresh interpreter on one trivial test, with
plugin autoloading off and only the named plugins loaded, and keeps the best of
several runs:

- ``pytest alone``: the floor;
- ``+ xswap_sdk plugin``: what every pytest start pays once xswap-sdk is installed;
- ``+ plugin, one fixture used``: a test that uses ``xswap_relayer`` (the SDK, httpx,
  pydantic and the sandbox load then, as they must);
- ``+ the SDK imported eagerly``: for scale, what the plugin cost when it imported the
  SDK at load time (the sandbox module, which imports every client, loaded as a plugin).

Run it with ``python benchmarks/pytest_start.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = 7
SRC = Path(__file__).resolve().parents[1] / "src"

PLAIN_TEST = "def test_nothing():\n    assert True\n"
FIXTURE_TEST = "def test_relayer(xswap_relayer):\n    assert xswap_relayer\n"


def best_of(test_source: str, *plugins: str) -> float:
    """The best wall time of ``RUNS`` pytest runs of ``test_source`` with ``plugins``."""
    env = {
        **os.environ,
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
    }
    args = [arg for plugin in plugins for arg in ("-p", plugin)]
    with tempfile.TemporaryDirectory() as folder:
        Path(folder, "test_start.py").write_text(test_source)
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
        times = []
        for _ in range(RUNS):
            started = time.perf_counter()
            subprocess.run(command, cwd=folder, env=env, check=True, capture_output=True)
            times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    plugin = "xswap_sdk.testing.plugin"
    rows = [
        ("pytest alone", best_of(PLAIN_TEST)),
        ("+ xswap_sdk plugin", best_of(PLAIN_TEST, plugin)),
        ("+ plugin, one fixture used", best_of(FIXTURE_TEST, plugin)),
        ("+ the SDK imported eagerly", best_of(PLAIN_TEST, plugin, "xswap_sdk.sandbox")),
    ]
    floor = rows[0][1]
    print(f"pytest start, one trivial test, best of {RUNS} fresh interpreters each")
    for name, seconds in rows:
        print(f"{name:30} {seconds * 1000:6.0f} ms  ({(seconds - floor) * 1000:+5.0f} ms)")


if __name__ == "__main__":
    main()
