"""The README's first command and the notebook: the quickstart runs to the end against
the sandbox, the async notebook executes in a real Jupyter kernel, and every script in
``examples/`` runs and prints what shows it did its job."""

from __future__ import annotations

import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import nbclient
import nbformat
import pytest

from ..support import SRC

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

# Per script, patterns (multiline regexes) its output must contain.
PROOF = {
    "quickstart.py": [r"^done: \d+ requests"],
    "relayer_basics.py": [
        r"^EXECUTED: 0x[0-9a-f]{64} ",
        r"^HTTP 503, outcome_unknown=True\nsubmissions sent: 1 ",
    ],
    "routing_gasless.py": [r"^swap \S+: completed$", r"^executed: 0x[0-9a-f]{64}$"],
    "flash_swap.py": [r"^signed once, as a BurnIntentSet$", r"^completed: 0x[0-9a-f]{64}$"],
    "deposit_with_permit.py": [r"^  receipt status 1$", r"^  gateway balance 2000000$"],
    "flash_deposit.py": [r"^2\. relayer: ", r"^   deposited so far: 5\.000000 USDC$"],
    "gateway_journey.py": [
        r"^calldata to relay: 0x8a94d4fc \(292 bytes\)$",
        r"^deposit final after 20 min: 30\.00 USDC on Base$",
        r"^swap completed$",
        r"^transfer finalized$",
        r"^left at Circle: 4\.98\d* USDC$",
    ],
    "keyless_relay.py": [
        r"^== Relayed [0-9a-f]{24}, paid 0\.010000 USDC on eip155:8453$",
        r"^   balance now: 1\.990000 USDC$",
        r"^== Refused, nothing signed: x402\.accepts\[0\]\.amount ",
        r"^== Webhook gateway\.deposit\.finalized new: True\n"
        r"== Webhook gateway\.deposit\.finalized new: False$",
        r"^== Tampered webhook: ",
    ],
}
# These deploy contracts on an in-process EVM (the dev extra).
ON_EVM = {"deposit_with_permit.py", "flash_deposit.py"}


def test_the_quickstart_runs_to_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(EXAMPLES / "quickstart.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "logged in as 0x5a3Ca05337A87116A27A21b11cDE16D85efb3586" in out
    assert "signed once (BurnIntentSet)" in out
    assert "completed at 2025-01-01 00:00:08+00:00: 40.00 USDC -> WETH (at least 0.0" in out
    assert re.search(r"\(at least \d+\.\d{6} WETH\)", out)  # not 18 raw decimals
    assert "left in the gateway: 14.98 USDC" in out
    assert "EXECUTED in 2000 ms: 0x" in out
    assert "Relay + Uniswap" in out
    assert ": completed" in out
    assert "signed by 9Q4cA7kuQ368d5npNTDBFQLKBhzvtSzA5TcXUHnhY2ya (ed25519)" in out
    assert re.search(r"^transfer [0-9a-f-]{36}: finalized$", out, re.MULTILINE)
    assert out.rstrip().splitlines()[-1].startswith("done: ")


def test_the_readme_shows_what_the_quickstart_prints() -> None:
    # As a terminal shows it: standard output and error (the progress lines) together,
    # unbuffered, with none of the developer's XSWAP_* variables.
    environment = {name: value for name, value in os.environ.items() if "XSWAP_" not in name}
    printed = subprocess.run(
        [sys.executable, str(EXAMPLES / "quickstart.py")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        check=True,
        env={**environment, "PYTHONPATH": SRC, "PYTHONUNBUFFERED": "1"},
    ).stdout.splitlines()
    readme = (ROOT / "README.md").read_text()
    excerpt = re.search(r"^```text\n(.*?)^```", readme, re.MULTILINE | re.DOTALL)
    assert excerpt is not None
    # "..." lines leave printed lines out; every other line is printed, in order, and
    # the lines between two "..." are printed one after the other.
    at = 0
    for part in re.split(r"^\.\.\.\n", excerpt[1], flags=re.MULTILINE):
        lines = part.splitlines()
        if not lines:
            continue
        starts = [
            index
            for index in range(at, len(printed) - len(lines) + 1)
            if printed[index : index + len(lines)] == lines
        ]
        assert starts, f"the README quotes lines the quickstart does not print:\n{part}"
        at = starts[0] + len(lines)
    assert "[gasless_swap -] completed" in excerpt[1]  # progress lines included


@pytest.mark.parametrize(
    "script",
    [
        pytest.param(path, id=path.name, marks=[pytest.mark.evm] if path.name in ON_EVM else [])
        for path in sorted(EXAMPLES.glob("*.py"))
    ],
)
def test_every_example_runs_and_does_its_job(
    script: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert script.name in PROOF, f"say in PROOF what {script.name} must print"
    runpy.run_path(str(script), run_name="__main__")
    out = capsys.readouterr().out
    for pattern in PROOF[script.name]:
        assert re.search(pattern, out, re.MULTILINE), f"{pattern!r} not in:\n{out}"


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
    assert "swap completed: 25.00 USDC" in printed
    assert "EXECUTED 0x" in printed
    assert "completed 0x" in printed
    assert "requests served" in printed
    # A balance left as a cell's value displays as a table, in USDC with decimals.
    shown = [
        output["data"]["text/html"]
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "text/html" in output.get("data", {})
    ]
    assert any("<table" in html and "total" in html and " USDC" in html for html in shown)
