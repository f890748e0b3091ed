"""Lazy packages: each public name listed once, loaded on first use, and nothing else."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from xswap_sdk._exports import read_homes

from .support import run_python

LAZY_PACKAGES = [
    "xswap_sdk",
    "xswap_sdk.flash",
    "xswap_sdk.gateway",
    "xswap_sdk.relayer",
    "xswap_sdk.routing",
    "xswap_sdk.signing",
]


@pytest.mark.parametrize("name", LAZY_PACKAGES)
def test_the_type_checking_imports_are_exactly_the_public_names(name: str) -> None:
    package = importlib.import_module(name)
    assert package.__file__ is not None
    homes = read_homes(Path(package.__file__))
    assert set(homes) == set(package.__all__) - {"__version__"}


@pytest.mark.parametrize("name", LAZY_PACKAGES)
def test_every_public_name_loads_and_is_listed(name: str) -> None:
    package = importlib.import_module(name)
    for public in package.__all__:
        value = getattr(package, public)
        assert value is not None
        # Cached in the package: the next look-up is a plain attribute.
        assert vars(package)[public] is value
    assert set(package.__all__) <= set(dir(package))


def test_an_unknown_name_is_an_attribute_error() -> None:
    import xswap_sdk

    with pytest.raises(AttributeError, match="has no attribute 'RelayClient'"):
        _ = xswap_sdk.RelayClient  # type: ignore[attr-defined]
    from xswap_sdk import errors

    assert errors.__name__ == "xswap_sdk.errors"


def test_import_loads_no_service_until_one_is_used() -> None:
    result = run_python(
        """
        import sys

        def ours():
            return {m for m in sys.modules if m.startswith("xswap_sdk")}

        import xswap_sdk
        assert ours() == {"xswap_sdk", "xswap_sdk._exports", "xswap_sdk._version"}, ours()
        for heavy in ("httpx", "pydantic", "asyncio", "eth_typing"):
            assert heavy not in sys.modules, heavy

        from xswap_sdk import RelayerClient
        loaded = ours()
        assert "xswap_sdk.relayer._sync_client" in loaded
        # Only the flavour asked for, and none of the other services.
        for other in ("relayer._async_client", "routing", "flash", "gateway", "sandbox"):
            assert f"xswap_sdk.{other}" not in loaded, other
        # A blocking program does not pay for asyncio, nor signing for eth_typing.
        for heavy in ("asyncio", "eth_typing", "web3", "eth_account"):
            assert heavy not in sys.modules, heavy
        print("ok")
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
