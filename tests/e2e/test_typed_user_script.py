"""The typed user script (``tests/typing/user_script.py``) runs against the sandbox:
the fields it reads without ``None`` checks are really sent. CI type-checks the same
file with ``mypy --strict``."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "typing" / "user_script.py"


def test_the_typed_user_script_runs_against_the_sandbox(
    capsys: pytest.CaptureFixture[str],
) -> None:
    runpy.run_path(str(SCRIPT), run_name="__main__")
    out = capsys.readouterr().out
    assert "EXECUTED on 8453" in out
    assert "completed: 0x" in out
    assert "history: 1 swap(s), more pages: False" in out
