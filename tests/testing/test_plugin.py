"""The pytest plugin, as a user meets it: a test file of theirs, run in a sub-run that
loads only this plugin."""

from __future__ import annotations

import ast
import inspect

import pytest

import xswap_sdk.testing
from xswap_sdk.testing import TEST_ADDRESS, TEST_PRIVATE_KEY, VirtualClock, plugin

pytest_plugins = ["pytester"]


def run(pytester: pytest.Pytester, source: str, *args: str) -> pytest.RunResult:
    # Entry points are off so the plugin loads once, by name, whether or not the
    # package is installed (installed, its entry point would load it too).
    pytester.makepyfile(test_user=source)
    return pytester.runpytest(
        "-p", "xswap_sdk.testing.plugin",
        "-p", "pytest_asyncio.plugin",
        "-o", "asyncio_default_fixture_loop_scope=function",
        *args,
    )  # fmt: skip


@pytest.fixture(autouse=True)
def _no_autoload(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


def test_a_users_test_is_three_lines(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
        def test_relay(xswap_relayer):
            tx_id = xswap_relayer.relay(chain_id=8453, to="0x" + "1" * 40, call_data="0x")
            assert xswap_relayer.wait_for_execution_hash(tx_id).execution_tx_hash
        """,
    )
    result.assert_outcomes(passed=1)


def test_the_gateway_fixture_sees_a_deposit_finalize(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
        def test_deposit(xswap_gateway, xswap_signer, xswap_sandbox):
            xswap_sandbox.gateway.deposit(xswap_signer.address, 8453, 5_000_000)
            entry = xswap_gateway.wait_for_gateway_balance(
                xswap_signer.address, 8453, at_least=5_000_000
            )
            assert entry.balance_units == 5_000_000
        """,
    )
    result.assert_outcomes(passed=1)


def test_the_flash_fixture_logs_in_with_the_test_signer(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
        WETH = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"

        def test_swap(xswap_flash, xswap_signer, xswap_sandbox):
            xswap_sandbox.fund(xswap_signer.address, 8453, 20_000_000)
            done = xswap_flash.swap(xswap_signer, input_amount=10_000_000, output_token=WETH,
                                    chain_id=42161, slippage=1, wait=True)
            assert done.record.status == "completed"
        """,
    )
    result.assert_outcomes(passed=1)


def test_async_clients_and_the_shared_clock(pytester: pytest.Pytester) -> None:
    result = run(
        pytester,
        """
        import pytest

        @pytest.mark.asyncio
        async def test_gasless(xswap_async_routing, xswap_signer, xswap_clock, xswap_sandbox):
            result = await xswap_async_routing.gasless_swap(
                xswap_signer,
                from_chain=8453,
                to_chain=42161,
                from_token="0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
                to_token="0xaf88d065e77c8cC2239327C5EDb3A432268e5831",
                amount=10_000_000,
                wait=True,
            )
            assert result.execution_tx_hash
            assert xswap_clock.sleeps  # the client's polling moved the sandbox's time
            assert xswap_sandbox.requests.select("routing", "POST", "/gasless/submit-swap")
        """,
    )
    result.assert_outcomes(passed=1)


def test_each_test_gets_a_fresh_sandbox_and_the_marker_configures_it(
    pytester: pytest.Pytester,
) -> None:
    result = run(
        pytester,
        """
        import pytest

        def test_first(xswap_relayer, xswap_sandbox):
            xswap_relayer.relay(chain_id=8453, to="0x" + "1" * 40, call_data="0x")
            assert len(xswap_sandbox.relayer.transaction_ids) == 1

        def test_second(xswap_sandbox):
            assert xswap_sandbox.relayer.transaction_ids == []
            assert xswap_sandbox.seed == 0

        @pytest.mark.xswap_sandbox(seed=42)
        def test_seeded(xswap_sandbox, xswap_signer):
            assert xswap_sandbox.seed == 42
            assert xswap_signer.address == "ADDRESS"
        """.replace("ADDRESS", TEST_ADDRESS),
        "--strict-markers",
    )
    result.assert_outcomes(passed=3)


def test_the_plugin_imports_nothing_heavy_at_load_time() -> None:
    # Every pytest run of a project with xswap-sdk installed loads the plugin: its
    # module-level imports must stay light, the sandbox is imported by the fixtures.
    tree = ast.parse(inspect.getsource(plugin))
    imported = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
    assert imported == {"__future__", "collections.abc", "typing", "pytest"}


def test_the_test_signer_is_the_published_key() -> None:
    signer = xswap_sdk.testing.TEST_SIGNER
    assert signer.address == TEST_ADDRESS
    assert signer.key.hex().removeprefix("0x") == TEST_PRIVATE_KEY.removeprefix("0x")
    assert xswap_sdk.testing.VirtualClock is VirtualClock
    with pytest.raises(AttributeError):
        _ = xswap_sdk.testing.NOTHING  # type: ignore[attr-defined]


def test_the_plugin_imports_nothing_of_the_sdk_until_a_fixture_is_used(
    pytester: pytest.Pytester,
) -> None:
    # In a fresh interpreter (a subprocess), as at every pytest start: loading the
    # plugin and running a test that uses none of its fixtures leaves the SDK, httpx,
    # pydantic and eth_account unimported; the first fixture brings them in.
    pytester.makepyfile(
        test_user="""
        import sys

        PLUGIN_ONLY = {"xswap_sdk", "xswap_sdk._exports", "xswap_sdk._version",
                       "xswap_sdk.testing",
                       "xswap_sdk.testing.plugin"}

        def loaded():
            return {m for m in sys.modules if m == "xswap_sdk" or m.startswith("xswap_sdk.")}

        def test_without_fixtures():
            assert loaded() == PLUGIN_ONLY, sorted(loaded() - PLUGIN_ONLY)
            for heavy in ("httpx", "pydantic", "eth_account"):
                assert heavy not in sys.modules, heavy

        def test_with_a_fixture(xswap_relayer):
            assert "xswap_sdk.relayer._sync_client" in loaded()
        """
    )
    result = pytester.runpytest_subprocess(
        "-p", "xswap_sdk.testing.plugin", "-p", "no:cacheprovider", "-v"
    )  # fmt: skip
    result.assert_outcomes(passed=2)


def test_the_docs_async_example_runs_with_anyio_alone(pytester: pytest.Pytester) -> None:
    # docs/testing.md: anyio's marker needs no plugin beyond anyio, which httpx brings.
    pytester.makepyfile(
        test_user="""
        import pytest

        @pytest.mark.anyio
        async def test_relay(xswap_async_relayer):
            tx_id = await xswap_async_relayer.relay(
                chain_id=8453, to="0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", call_data="0x"
            )
            record = await xswap_async_relayer.wait_for_execution_hash(tx_id)
            assert record.status == "EXECUTED"
        """
    )
    result = pytester.runpytest("-p", "xswap_sdk.testing.plugin", "-p", "anyio.pytest_plugin")
    result.assert_outcomes(passed=1)
