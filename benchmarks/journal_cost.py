"""What a journal costs a swap: client CPU and fsyncs, side by side with the same swap
without a journal, in one run.

The sandbox is served in a process of its own (uvicorn on 127.0.0.1), so the CPU time
measured here (``time.process_time`` of this process) is the client's alone: checks,
signatures, HTTP, and, for the journaled swap, the journal's rows and commits. Rounds
alternate plain and journaled swaps (``wait=False``: the quote, the order, its
signature and ``POST /swap``), and the figure is the median of the paired ratios.

The fsyncs are counted by ``strace`` (when the machine has it) on a child interpreter
that runs the same swaps, with a journal and without: the difference per swap is what
the journal adds. Goals (issue 27): at most 1.1x the CPU, at most two fsyncs more.

    python benchmarks/journal_cost.py [swaps]     # 300 by default, about a minute
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

from _measure import SRC, Row, child_env, paired

SERVE = textwrap.dedent(
    """
    import sys
    import uvicorn
    from xswap_sdk import SystemClock
    from xswap_sdk.sandbox import Sandbox
    from xswap_sdk.sandbox.server import create_app
    from xswap_sdk.testing import TEST_SIGNER

    port = int(sys.argv[1])
    sandbox = Sandbox(clock=SystemClock(), base_url=f"http://127.0.0.1:{port}")
    sandbox.fund(TEST_SIGNER.address, 8453, 10**15)
    uvicorn.run(create_app(sandbox), host="127.0.0.1", port=port, log_level="warning")
    """
)

SWAPS = textwrap.dedent(
    """
    import sys
    import httpx
    from xswap_sdk import SystemClock
    from xswap_sdk.sandbox import Sandbox
    from xswap_sdk.testing import TEST_SIGNER

    base_url, journal, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    local = Sandbox(base_url=base_url, clock=SystemClock())
    flash = local.flash_client(
        signer=TEST_SIGNER,
        http_client=httpx.Client(),
        clock=SystemClock(),
        journal=None if journal == "-" else journal,
    )
    for _ in range(count):
        flash.swap(
            TEST_SIGNER,
            input_amount=1_000_000,
            output_token="0x82aF49447D8a07e3bd95BD0d56f35241523fBab1",
            chain_id=42161,
            slippage="0.5",
        )
    """
)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def served() -> Iterator[str]:
    """The sandbox served in a child process; its base URL."""
    import httpx

    port = _free_port()
    child = subprocess.Popen([sys.executable, "-c", SERVE, str(port)], env=child_env())
    base_url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(base_url + "/", timeout=1)
                break
            time.sleep(0.05)
        yield base_url
    finally:
        child.terminate()
        child.wait(timeout=10)


def _swap(flash: object) -> None:
    flash.swap(  # type: ignore[attr-defined]
        TEST_SIGNER,
        input_amount=1_000_000,
        output_token="0x82aF49447D8a07e3bd95BD0d56f35241523fBab1",
        chain_id=42161,
        slippage="0.5",
    )


def cpu_row(base_url: str, directory: Path, swaps: int) -> Row:
    """Client CPU per swap, journaled against plain, paired over rounds."""
    import httpx

    from xswap_sdk import SystemClock
    from xswap_sdk.sandbox import Sandbox

    local = Sandbox(base_url=base_url, clock=SystemClock())
    plain = local.flash_client(signer=TEST_SIGNER, http_client=httpx.Client(), clock=SystemClock())
    journaled = local.flash_client(
        signer=TEST_SIGNER,
        http_client=httpx.Client(),
        clock=SystemClock(),
        journal=directory / "cpu.db",
    )
    for flash in (plain, journaled):  # log in, warm the caches
        _swap(flash)

    def one_swap(flash: object) -> float:
        started = time.process_time()
        _swap(flash)
        return time.process_time() - started

    # Swap by swap, alternating: this machine's speed drifts by more than the journal
    # costs, over seconds; the median of many paired swaps does not.
    base, ours, ratio = paired(lambda: one_swap(plain), lambda: one_swap(journaled), rounds=swaps)
    return Row(
        "swap client CPU, journaled (SQLite) vs plain",
        f"{ours * 1000:.2f} ms",
        f"{base * 1000:.2f} ms",
        ratio,
        "<= 1.10x",
        ratio <= 1.10,
    )


_SYNC = re.compile(r"\b(?:fsync|fdatasync)\(\d+<([^>]*)>\)")
"""An fsync in ``strace -y`` output, with the path of the file it syncs."""


def _fsyncs(base_url: str, journal: str, swaps: int) -> tuple[int, int] | None:
    """The fsync and fdatasync calls of a child running ``swaps`` swaps, and how many
    of them synced the journal's main file (a WAL checkpoint, SQLite's upkeep: the WAL
    before it is copied, the main file, and the WAL's header when it starts over);
    ``None`` without strace."""
    strace = shutil.which("strace")
    if strace is None:
        return None
    with tempfile.NamedTemporaryFile("r", suffix=".strace") as out:
        subprocess.run(
            [strace, "-f", "-y", "-o", out.name, "-e", "trace=fsync,fdatasync",
             sys.executable, "-c", SWAPS, base_url, journal, str(swaps)],
            check=True, env=child_env(), capture_output=True,
        )  # fmt: skip
        paths = _SYNC.findall(Path(out.name).read_text())
    return len(paths), sum(path == journal for path in paths)


def fsync_row(base_url: str, directory: Path, swaps: int) -> Row:
    """fsyncs per swap that the journal adds: children running ``swaps`` and three
    times as many, so that what opening and closing the journal costs once drops out;
    WAL checkpoints (three fsyncs each, every thousand pages or so) are shown apart."""
    per_swap: list[tuple[float, float]] = []
    for journal in ("-", str(directory / "fsync.db")):
        counts = []
        for n in (swaps, 3 * swaps):
            for stale in directory.glob("fsync.db*"):
                stale.unlink()  # each child starts a journal of its own
            counts.append(_fsyncs(base_url, journal, n))
        few, many = counts
        if few is None or many is None:
            return Row("fsyncs the journal adds per swap", "no strace", "", None, "<= 2", True)
        per_swap.append(((many[0] - few[0]) / (2 * swaps), (many[1] - few[1]) / (2 * swaps)))
    (without, _), (with_journal, checkpoints) = per_swap
    commits = with_journal - without - 3 * checkpoints
    return Row(
        "fsyncs per swap, journaled (SQLite) vs plain (strace)",
        f"{with_journal:.2f} ({commits:.2f} commits, {3 * checkpoints:.2f} checkpoints)",
        f"{without:.2f}",
        None,
        "<= 2 more commits",
        commits <= 2,
    )


def goal_rows(swaps: int = 300) -> list[Row]:
    """Both figures, against a sandbox served for them: CPU over ``swaps`` pairs, fsyncs
    over a tenth as many swaps."""
    with served() as base_url, tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        fsyncs = max(swaps // 10, 5)
        return [cpu_row(base_url, directory, swaps), fsync_row(base_url, directory, fsyncs)]


def main() -> int:
    swaps = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    rows = goal_rows(swaps)
    print("| figure | measured | baseline | ratio | goal | met |\n|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row.cells()) + " |")
    return 0 if all(row.met for row in rows) else 1


if __name__ == "__main__":
    sys.path.insert(0, str(SRC))
    from xswap_sdk.testing import TEST_SIGNER

    os.environ.pop("XSWAP_JOURNAL", None)
    sys.exit(main())
else:
    from xswap_sdk.testing import TEST_SIGNER
