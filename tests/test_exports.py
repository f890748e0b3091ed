"""Lazy packages: each public name listed once, loaded on first use, and nothing else."""

from __future__ import annotations

import compileall
import importlib
import shutil
import subprocess
import sys
import textwrap
import zipfile
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


def test_a_first_read_loads_only_what_it_uses() -> None:
    # Issue 30: a fresh process's first result pays for no code it does not run.
    result = run_python(
        """
        import sys

        from xswap_sdk import RelayerClient

        RelayerClient(api_key="k" * 16, base_url="https://relayer.invalid")
        # No payer: no x402 payer, no registry, no EIP-3009 signing; and keccak for
        # checksums without cffi's C parser (nor eth_hash's importlib.metadata).
        for unused in (
            "xswap_sdk.relayer._x402",
            "xswap_sdk.registry",
            "xswap_sdk.signing.eip3009",
            "pycparser",
            "eth_hash",
        ):
            assert unused not in sys.modules, unused

        from xswap_sdk import FlashClient

        FlashClient(base_url="https://flash.invalid")
        # A Flash read or swap needs no deposit code, nor the relayer's or Gateway's
        # clients, nor eth_utils.
        for unused in (
            "xswap_sdk.flash._deposit",
            "xswap_sdk.flash._deposit_journey",
            "xswap_sdk.gateway._sync_client",
            "xswap_sdk._sync_web3",
            "eth_utils",
        ):
            assert unused not in sys.modules, unused
        print("ok")
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


@pytest.mark.parametrize("name", LAZY_PACKAGES)
def test_the_table_of_names_is_the_type_checking_block(name: str) -> None:
    # The run-time table and the block type checkers read must agree, name for name.
    package = importlib.import_module(name)
    assert package.__file__ is not None
    assert read_homes(Path(package.__file__)) == package._HOMES


def test_the_tables_are_up_to_date() -> None:
    script = Path(__file__).resolve().parents[1] / "scripts" / "lazy_tables.py"
    result = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_sdk_imports_from_a_zip_of_bytecode_alone(tmp_path: Path) -> None:
    # What a zipapp, a PyInstaller build or a source-less install has: .pyc, no .py.
    import xswap_sdk

    source = Path(xswap_sdk.__file__).parent
    tree = tmp_path / "tree" / "xswap_sdk"
    shutil.copytree(source, tree, ignore=shutil.ignore_patterns("__pycache__"))
    assert compileall.compile_dir(tree, quiet=1, legacy=True)  # x.pyc beside x.py
    for path in tree.rglob("*.py"):
        path.unlink()
    assert not list(tree.rglob("*.py"))
    archive = tmp_path / "app.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(tree.rglob("*")):
            zipped.write(path, path.relative_to(tree.parent))
    code = textwrap.dedent(
        """
        import sys
        sys.path.insert(0, sys.argv[1])
        import xswap_sdk
        assert xswap_sdk.__file__.startswith(sys.argv[1]), xswap_sdk.__file__
        assert xswap_sdk.__file__.endswith(".pyc"), xswap_sdk.__file__
        from xswap_sdk import RelayerClient, errors, to_units
        from xswap_sdk.gateway import AsyncGatewayClient
        from xswap_sdk.signing import sign_typed_data
        from xswap_sdk.sandbox import Sandbox
        assert to_units("1.5", 6) == 1_500_000
        assert errors.InvalidInputError.__name__ == "InvalidInputError"
        assert AsyncGatewayClient.__name__ == "AsyncGatewayClient"
        with Sandbox().relayer_client() as relayer:
            assert isinstance(relayer, RelayerClient)
            tx_id = relayer.relay(chain_id=8453, to="0x" + "11" * 20, call_data="0x")
            print(relayer.wait_for_execution_hash(tx_id).status)
        """
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", code, str(archive)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "EXECUTED"
