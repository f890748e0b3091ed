"""The README's first command and the notebook: the quickstart runs to the end against
the sandbox, and the async notebook executes in a real Jupyter kernel."""

from __future__ import annotations

import runpy
from pathlib import Path

import nbclient
import nbformat
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_the_quickstart_runs_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLES / "quickstart.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "logged in as 0x5a3Ca05337A87116A27A21b11cDE16D85efb3586" in out
    assert "signed once (BurnIntentSet)" in out
    assert "completed at 2025-01-01 00:00:08+00:00: 40.000000 USDC" in out
    assert "left in the gateway: 14.98 USDC" in out
    assert "EXECUTED in 2000 ms: 0x" in out
    assert "Relay + Uniswap" in out
    assert ": completed" in out
    assert out.rstrip().splitlines()[-1].startswith("done: ")


@pytest.mark.notebook
def test_the_async_notebook_executes_with_top_level_await() -> None:
    notebook = nbformat.read(EXAMPLES / "quickstart.ipynb", as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code")
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    printed = "".join(
        output.get("text", "")
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
    )
    assert "swap completed: 25.000000 USDC" in printed
    assert "EXECUTED 0x" in printed
    assert "completed 0x" in printed
    assert "requests served" in printed
