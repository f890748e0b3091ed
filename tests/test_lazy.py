"""Optional extras are imported on first use, with an error that names the extra."""

from __future__ import annotations

import sys

import pytest

from xswap_sdk._lazy import require
from xswap_sdk.errors import MissingDependencyError, XSwapError


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "web3", None)  # makes `import web3` fail
    with pytest.raises(MissingDependencyError) as info:
        require("web3", extra="web3", feature="Depositing with a permit")
    assert 'pip install "xswap-sdk[web3]"' in str(info.value)
    assert "Depositing with a permit" in str(info.value)
    assert isinstance(info.value, ImportError)
    assert isinstance(info.value, XSwapError)


def test_present_module_is_returned() -> None:
    assert require("json", extra="none", feature="x").dumps([]) == "[]"
