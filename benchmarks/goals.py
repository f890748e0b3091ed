"""Every performance goal of the SDK, measured side by side with its baseline in one run.

Starts the loopback server (``_loopback.py``), then measures, each against a baseline
interleaved with it in the same run (see ``_measure.py``):

- start-up: ``import xswap_sdk``, the first call after import, resident memory
  (``_startup.py``);
- calls: one blocking and one async read against raw httpx, the cost of the deadline
  and size cap, 1,000 concurrent reads, and the waiter (``_calls.py``);
- signing: a 5-intent burn intent set against eth_account and against the floor
  (``signing.py``).

Prints progress, then one Markdown table (figure, measured, baseline, ratio, goal, met)
ready for ``docs/performance.md``; exits 1 when a goal is missed. Takes about three
minutes: ``python benchmarks/goals.py``.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

try:
    import xswap_sdk
except ImportError:  # run from a checkout without installing the package
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import httpx
import pydantic
from _calls import fan_out_rows, one_call_rows, waiter_rows
from _loopback import loopback_server
from _measure import Row
from _startup import first_call_row, import_rows, rss_rows

import xswap_sdk
from signing import goal_rows as signing_rows

HEADER = ["figure", "measured", "baseline", "ratio", "goal", "met"]


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in rows]
    return "\n".join(lines)


def main() -> int:
    print(
        f"xswap-sdk {xswap_sdk.__version__}, Python {platform.python_version()}, "
        f"httpx {httpx.__version__}, pydantic {pydantic.VERSION}, "
        f"{platform.machine()} with {os.cpu_count()} cores"
    )
    rows: list[Row] = []
    with loopback_server() as base_url:
        print("start-up ...")
        rows += import_rows()
        rows.append(first_call_row(base_url))
        rows += rss_rows(base_url)
        print("one call ...")
        rows += one_call_rows(base_url)
        print("fan-out ...")
        rows += fan_out_rows(base_url)
        print("signing ...")
        rows += signing_rows()
        print("waiters ...")
        rows += waiter_rows(base_url)
    print()
    print(table(rows))
    missed = [row.figure for row in rows if not row.met]
    print(f"\n{len(rows) - len(missed)} of {len(rows)} goals met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
