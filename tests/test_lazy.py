"""Optional extras are imported on first use, with an error that names the extra."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from xswap_sdk._lazy import install_hint, require
from xswap_sdk.errors import MissingDependencyError, XSwapError


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "web3", None)  # makes `import web3` fail
    with pytest.raises(MissingDependencyError) as info:
        require("web3", extra="web3", feature="Depositing with a permit")
    assert 'pip install ".[web3]" in a checkout of xswap-sdk' in str(info.value)
    assert install_hint("web3") in str(info.value)
    assert "Depositing with a permit" in str(info.value)
    assert isinstance(info.value, ImportError)
    assert isinstance(info.value, XSwapError)


def test_present_module_is_returned() -> None:
    assert require("json", extra="none", feature="x").dumps([]) == "[]"


def test_every_message_and_page_gives_the_one_install_hint() -> None:
    # The package is not on PyPI: "xswap-sdk[extra]" names nothing pip can install.
    root = Path(__file__).resolve().parents[1]
    files = [
        *(root / "src").rglob("*.py"),
        *(root / "docs").glob("*.md"),
        *(root / "examples").glob("*.py"),
        root / "README.md",
    ]
    assert len(files) > 100
    stale = [str(path.relative_to(root)) for path in files if "xswap-sdk[" in path.read_text()]
    assert stale == []
