"""Lazy packages: each public name listed once, loaded on first use, and nothing else."""

from __future__ import annotations

import compileall
import importlib
import json
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
    # Not packages: each service's models, written in private modules by group.
    "xswap_sdk.flash.models",
    "xswap_sdk.routing.models",
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


# Issue 30: what a fresh process's first read of each client does not run, and so must
# not load: the journal, the signing policy and its ledger, notebook HTML, the journey
# kinds and coincurve for every client, and each client's own code for other calls; nor
# the journey driver and its journal I/O, which run money journeys only.
_NONE_OF_THEM = (
    "xswap_sdk.journal",
    "xswap_sdk._journal_core",
    "xswap_sdk._journey",
    "xswap_sdk._journal_io",
    "xswap_sdk._sync_driver",
    "xswap_sdk._progress",
    "xswap_sdk.policy",
    "xswap_sdk._ledger",
    "xswap_sdk._html",
    "xswap_sdk._kinds",
    "xswap_sdk._simulation",
    "xswap_sdk._sync_web3",
    "coincurve",
)
_FIRST_READS = {
    "relayer": (
        "RelayerClient(api_key='k' * 16, base_url='https://relayer.test', http_client=http)"
        ".get_relay_status('65f1a2b3c4d5e6f708192a3b')",
        (
            "xswap_sdk.relayer._x402",
            "xswap_sdk.registry",
            "xswap_sdk.signing.eip3009",
            # A status read builds RelayStatus alone: no request, account or chain
            # models, no EIP-7702 types, no signing package, no polling, no page walks,
            # no chain steps and no TypeAdapter (a model reads with its own validator);
            # no amount type that is written back as text, nor pydantic's serializers.
            "xswap_sdk.relayer.models",
            "xswap_sdk.signing",
            "xswap_sdk.signing.eip7702",
            "xswap_sdk._polling",
            "xswap_sdk._pagination",
            "xswap_sdk._chain_steps",
            "pydantic.type_adapter",
            "xswap_sdk._amount_types",
            "pydantic.functional_serializers",
        ),
    ),
    "flash": (
        "FlashClient(base_url='https://flash.test', http_client=http).get_supported_chains()",
        (
            "xswap_sdk.flash._orders",
            "xswap_sdk.flash._trust",
            "xswap_sdk.flash._swap",
            "xswap_sdk.gateway",
            "xswap_sdk.signing.burn_intents",
            "xswap_sdk.signing.attestations",
            # Nor the pinned registry, nor the signer's code (no login), and of the
            # models only the chain models.
            "xswap_sdk.registry",
            "xswap_sdk.signing.signer",
            "xswap_sdk.flash.models",
            "xswap_sdk.flash._token_models",
            "xswap_sdk.flash._quote_models",
            "xswap_sdk.flash._balance_models",
            "xswap_sdk.flash._history_models",
            "xswap_sdk.flash._auth_models",
            "xswap_sdk.flash._swap_models",
        ),
    ),
    "routing": (
        "RoutingClient(api_key='k' * 16, base_url='https://routing.test', http_client=http)"
        ".get_supported_chains()",
        (
            "xswap_sdk.routing._execution",
            "xswap_sdk.routing._gasless",
            "xswap_sdk.routing._route_journey",
            "xswap_sdk.signing.signer",
            "xswap_sdk.signing.eip712",
            # Nor the pinned registry, and of the models only the chain models.
            "xswap_sdk.registry",
            "xswap_sdk.routing.models",
            "xswap_sdk.routing._token_models",
            "xswap_sdk.routing._quote_models",
            "xswap_sdk.routing._status_models",
            "xswap_sdk.routing._gasless_models",
        ),
    ),
    "gateway": (
        "GatewayClient(base_url='https://gateway.test', http_client=http).get_info()",
        (
            "xswap_sdk.gateway._transfer_journey",
            "xswap_sdk.gateway._mint_journey",
            "xswap_sdk.gateway._call_journey",
            "xswap_sdk.gateway._recovery",
            "xswap_sdk.gateway._x402_operations",
            "xswap_sdk.gateway.webhooks",
            "xswap_sdk.gateway.x402",
            "xswap_sdk.signing.burn_intents",
            "xswap_sdk.signing.attestations",
            "xswap_sdk.signing.gateway_wallet",
            "xswap_sdk.signing.signed_intents",
            "xswap_sdk.signing.solana",
            # get_info builds GatewayInfo and its parts alone: none of Gateway's other
            # models, nor the simulation and call types their fields hold, nor any
            # signing code or amount type written back as text.
            "xswap_sdk.gateway.models",
            "xswap_sdk.simulation",
            "xswap_sdk._simulation_models",
            "xswap_sdk.signing",
            "xswap_sdk.signing.calls",
            "xswap_sdk.signing._fields",
            "xswap_sdk._pagination",
            "xswap_sdk._chain_steps",
            "xswap_sdk._amount_types",
            "pydantic.type_adapter",
            "pydantic.functional_serializers",
        ),
    ),
}


def _first_read_answers() -> dict[str, object]:
    """The sandbox's answers to each client's first read, by host and path."""
    from xswap_sdk.sandbox import Sandbox

    record = {
        "id": "65f1a2b3c4d5e6f708192a3b",
        "userId": "user-1",
        "to": "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913",
        "callData": "0x",
        "value": "0",
        "chainId": 8453,
        "status": "EXECUTED",
        "executionTxHash": "0x" + "ab" * 32,
        "costUSD": 0.0123,
    }
    answers: dict[str, object] = {"relayer.test/api/tx": {"success": True, "data": record}}
    sandbox = Sandbox()
    try:
        client = sandbox.http_client()
        for service, path in (
            ("flash", "/supported-chains"),
            ("routing", "/supported-chains"),
            ("gateway", "/v1/info"),
        ):
            key = sandbox.api_keys.get(service)
            answer = client.get(
                sandbox.url(service) + path, headers={"api-key": key} if key else {}
            )
            answer.raise_for_status()
            answers[f"{service}.test{path}"] = answer.json()
    finally:
        sandbox.close()
    return answers


@pytest.mark.parametrize("service", sorted(_FIRST_READS))
def test_each_clients_first_read_loads_none_of_what_it_does_not_run(service: str) -> None:
    read, unused = _FIRST_READS[service]
    result = run_python(
        f"""
        import json, os, sys

        import httpx

        answers = json.loads(os.environ["FIRST_READ_ANSWERS"])
        http = httpx.Client(
            transport=httpx.MockTransport(
                lambda request: httpx.Response(
                    200, json=answers[request.url.host + request.url.path]
                )
            )
        )
        from xswap_sdk import {read.split("(")[0]}

        assert {read}
        loaded = [m for m in {_NONE_OF_THEM + unused!r} if m in sys.modules]
        assert not loaded, loaded
        print("ok")
        """,
        FIRST_READ_ANSWERS=json.dumps(_first_read_answers()),
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
        from xswap_sdk.routing.models import Route
        assert Route.__module__ == "xswap_sdk.routing.models"
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
