"""What every goal benchmark shares: a result row, paired ratios, fresh interpreters.

Every figure is a ratio against a baseline measured in the same run, interleaved with
it (baseline, SDK, SDK, baseline, ...), and summarised by the median of the paired
ratios, so a machine that slows down halfway hurts both sides alike.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


@dataclass(frozen=True)
class Row:
    """One line of the goals table."""

    figure: str
    measured: str
    baseline: str
    ratio: float | None
    goal: str
    met: bool

    def cells(self) -> list[str]:
        """The row as table cells."""
        ratio = "" if self.ratio is None else f"{self.ratio:.2f}x"
        return [
            self.figure,
            self.measured,
            self.baseline,
            ratio,
            self.goal,
            "yes" if self.met else "**no**",
        ]


def paired(
    baseline: Callable[[], float], ours: Callable[[], float], rounds: int
) -> tuple[float, float, float]:
    """Median baseline figure, median SDK figure and median of the per-round ratios
    ``ours / baseline``; the order alternates from round to round."""
    base_figures, our_figures, ratios = [], [], []
    for index in range(rounds):
        if index % 2:
            mine, theirs = ours(), baseline()
        else:
            theirs, mine = baseline(), ours()
        base_figures.append(theirs)
        our_figures.append(mine)
        ratios.append(mine / theirs)
    median = statistics.median
    return median(base_figures), median(our_figures), median(ratios)


def child_env() -> dict[str, str]:
    """The environment of a child interpreter: the checkout's ``src`` importable even
    when the package is not installed, and bytecode caching on (as a wheel has it)."""
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_seconds(code: str, *args: str) -> float:
    """Wall time of a fresh interpreter running ``code`` (interpreter start included)."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *args], check=True, env=child_env())
    return time.perf_counter() - started


def run_output(code: str, *args: str) -> str:
    """What a fresh interpreter running ``code`` prints."""
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        check=True,
        env=child_env(),
        capture_output=True,
        text=True,
    )
    return done.stdout


def ms(seconds: float) -> str:
    """``seconds`` as milliseconds, for the table."""
    return f"{seconds * 1000:.1f} ms"


def us(seconds: float) -> str:
    """``seconds`` as microseconds, for the table."""
    return f"{seconds * 1e6:.0f} us"
