"""Where the anvil tests get anvil: ``XSWAP_ANVIL``, ``PATH``, or ``.cache/anvil`` (from
``python scripts/install_anvil.py``); never installed by ``pytest``: without one they
skip at once, saying how to get it."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from . import conftest


def refuse(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError(f"pytest ran a program: {args!r}")


def test_without_anvil_the_tests_skip_at_once_and_install_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("XSWAP_ANVIL", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no anvil, no npm
    installer = conftest._installer()
    monkeypatch.setattr(installer, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(conftest, "_installer", lambda: installer)
    for name in ("run", "Popen", "call", "check_call", "check_output"):
        monkeypatch.setattr(subprocess, name, refuse)
    started = time.monotonic()
    with pytest.raises(pytest.skip.Exception) as skipped:
        conftest.anvil_binary()
    assert time.monotonic() - started < 1
    assert "python scripts/install_anvil.py" in str(skipped.value)
    assert "XSWAP_ANVIL" in str(skipped.value)
    assert not (tmp_path / "cache").exists()


def test_anvil_is_found_where_the_script_puts_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("XSWAP_ANVIL", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    installer = conftest._installer()
    monkeypatch.setattr(installer, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(conftest, "_installer", lambda: installer)
    placed = installer.binary()
    if placed is None:
        pytest.skip("Foundry publishes no anvil package for this machine")
    placed.parent.mkdir(parents=True)
    placed.write_text("")
    assert conftest.anvil_binary() == str(placed)
    assert installer.install() == placed  # already there: npm is not run
    monkeypatch.setenv("XSWAP_ANVIL", str(tmp_path / "missing"))
    with pytest.raises(RuntimeError, match="XSWAP_ANVIL names"):
        conftest.anvil_binary()


def test_the_readme_and_ci_name_the_script() -> None:
    root = Path(__file__).resolve().parents[2]
    assert "python scripts/install_anvil.py" in (root / "README.md").read_text()
    assert "python scripts/install_anvil.py" in (root / ".ci" / "run").read_text()
