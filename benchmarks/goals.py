"""Every performance goal of the SDK, measured side by side with its baseline in one run.

Starts the loopback server (``_loopback.py``), then measures, each against a baseline
interleaved with it in the same run (see ``_measure.py``):

- start-up: ``import xswap_sdk``, each client's first result in a fresh process
  (import, construct, first read), resident memory (``_startup.py``);
- calls: one blocking and one async read against raw httpx, the cost of the deadline
  and size cap, 1,000 concurrent reads, and the waiter, alone and against a raw
  polling loop at 5 ms and 50 ms (``_calls.py``);
- signing: a 5-intent burn intent set against eth_account and against the floor
  (``signing.py``);
- the swap, against the sandbox served in a process of its own: a whole swap's client
  CPU against its floor (raw httpx sending the same requests, plus the signing floor),
  and the signing gate's share of a swap (``_swap.py``).

Prints progress, then one Markdown table (figure, measured, baseline, ratio, goal, met)
ready for ``docs/performance.md``; exits 1 when a goal is missed. Takes about ten
minutes on two busy cores: ``python benchmarks/goals.py``; name sections to run only
those (``python benchmarks/goals.py startup waiters swap``; see ``SECTIONS``).

Issue 30's goals: a whole swap's client CPU within 1.2x its floor; each client's first
result within 1.1x httpx + pydantic; one call within 1.05x raw httpx; a wait's median
delay within 1.25x a raw polling loop's at 5 ms and 50 ms; the signing gate under 5 %
of a swap.
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
from _calls import fan_out_rows, one_call_rows, wait_delay_rows, waiter_rows
from _loopback import loopback_server
from _measure import Row
from _startup import first_result_rows, import_rows, rss_rows
from _swap import swap_rows

import xswap_sdk
from signing import goal_rows as signing_rows

HEADER = ["figure", "measured", "baseline", "ratio", "goal", "met"]


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in rows]
    return "\n".join(lines)


SECTIONS = ("startup", "calls", "fan-out", "signing", "waiters", "swap")


def main(argv: list[str]) -> int:
    sections = set(argv) or set(SECTIONS)
    unknown = sections - set(SECTIONS)
    if unknown:
        raise SystemExit(f"no section {sorted(unknown)}; sections: {', '.join(SECTIONS)}")
    print(
        f"xswap-sdk {xswap_sdk.__version__}, Python {platform.python_version()}, "
        f"httpx {httpx.__version__}, pydantic {pydantic.VERSION}, "
        f"{platform.machine()} with {os.cpu_count()} cores"
    )
    rows: list[Row] = []
    with loopback_server() as base_url:
        if "startup" in sections:
            print("start-up ...")
            rows += import_rows()
            rows += first_result_rows(base_url)
            rows += rss_rows(base_url)
        if "calls" in sections:
            print("one call ...")
            rows += one_call_rows(base_url)
        if "fan-out" in sections:
            print("fan-out ...")
            rows += fan_out_rows(base_url)
        if "signing" in sections:
            print("signing ...")
            rows += signing_rows()
        if "waiters" in sections:
            print("waiters ...")
            rows += waiter_rows(base_url)
            rows += wait_delay_rows(base_url)
    if "swap" in sections:
        print("swap ...")
        rows += swap_rows()
    print()
    print(table(rows))
    missed = [row.figure for row in rows if not row.met]
    print(f"\n{len(rows) - len(missed)} of {len(rows)} goals met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
