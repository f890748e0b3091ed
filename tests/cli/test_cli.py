"""The ``xswap`` command, in-process (``main(argv)``) and as a program, against the
sandbox served on 127.0.0.1: every command, ``--json``, the environment variables and
every exit status."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import VirtualClock, __version__, errors
from xswap_sdk._cli import ExitCode, main
from xswap_sdk._cli._command import exit_code_for
from xswap_sdk.gateway import apply_estimate
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.signing import sign_burn_intent
from xswap_sdk.testing import TEST_SIGNER

from ..gateway.support import transfer_intent
from ..sandbox.test_server import free_port, serving, wait_until_up
from ..support import FLASH_SWAP, SRC

ME = TEST_SIGNER.address
USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
USDC_ARBITRUM = "0xaf88d065e77c8cC2239327C5EDb3A432268e5831"
WETH_ARBITRUM = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def served() -> Iterator[Sandbox]:
    """The sandbox served on a free port, on virtual time that the tests move."""
    with serving(VirtualClock()) as sandbox:
        yield sandbox


def environment(sandbox: Sandbox, jwt: str | None = None) -> dict[str, str]:
    """What a user exports to point the clients, and so ``xswap``, at the sandbox."""
    env = {f"XSWAP_{s.upper()}_URL": sandbox.url(s) for s in ("flash", "routing", "relayer")}
    env["XSWAP_GATEWAY_URL"] = f"{sandbox.base_url}/gateway"
    env["XSWAP_ROUTING_API_KEY"] = sandbox.api_keys["routing"]
    env["XSWAP_RELAYER_API_KEY"] = sandbox.api_keys["relayer"]
    if jwt is not None:
        env["XSWAP_FLASH_JWT"] = jwt
    return env


@pytest.fixture
def env(served: Sandbox, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    served.faults.clear()
    with served.flash_client() as flash:
        jwt = flash.login(TEST_SIGNER).token.get_secret_value()
    values = environment(served, jwt)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def xswap(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def xswap_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code, out, _ = xswap(capsys, *argv, "--json")
    return code, json.loads(out)


# ---------------------------------------------------------------------------- the program


def test_the_console_script_is_declared_with_the_base_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["scripts"] == {"xswap": "xswap_sdk._cli:main"}


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = xswap(capsys, "--version")
    assert code == ExitCode.OK
    assert out.startswith(f"xswap {__version__} ")
    assert xswap_json(capsys, "--version")[1]["xswap_sdk"] == __version__


@pytest.mark.parametrize(
    "argv",
    [[], ["bogus"], ["status"], ["status", "relayer"], ["quote", "flash", "--amount", "1"]],
)
def test_a_usage_error_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert xswap(capsys, *argv)[0] == ExitCode.USAGE


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = xswap(capsys, "--help")
    assert code == ExitCode.OK
    for command in ("status", "balances", "quote", "login", "sandbox"):
        assert command in out
    assert "exit status: 0 done, 1 failed or not found" in out


def test_the_journeys_commands_need_a_journal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XSWAP_JOURNAL", raising=False)
    assert "resume" in xswap(capsys, "--help")[1]
    for command in ("journeys", "resume"):
        code, _, err = (
            xswap(capsys, command, "--all") if command == "resume" else xswap(capsys, command)
        )
        assert code == ExitCode.USAGE
        assert "--journal: is needed (or set XSWAP_JOURNAL)" in err
    code, out, _ = xswap(capsys, "resume", "--help")
    assert code == ExitCode.OK
    assert "--rpc-url URL" in out
    assert "XSWAP_RPC_URLS" in out


# ---------------------------------------------------------------------------- status


def test_a_relayed_transaction_pending_then_done(
    served: Sandbox, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    with served.relayer_client() as relayer:
        tx_id = relayer.relay(chain_id=8453, to=USDC_BASE, call_data="0x")
    code, data = xswap_json(capsys, "status", "relayer", tx_id)
    assert code == ExitCode.UNKNOWN  # not executed yet: check again
    assert (data["status"], data["verdict"]) == ("NOT_PICKED_UP", "pending")
    served.wait(10)
    code, out, _ = xswap(capsys, "status", "relayer", tx_id)
    assert code == ExitCode.OK
    assert out.startswith(f"relayer {tx_id}: EXECUTED (done)\n")
    assert "execution tx  0x" in out
    code, data = xswap_json(capsys, "status", "relayer", tx_id)
    assert data["record"]["execution_tx_hash"].startswith("0x")  # attribute names


def test_a_failed_relay_exits_1(
    served: Sandbox, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    with served.relayer_client() as relayer:
        tx_id = relayer.relay(chain_id=8453, to=USDC_BASE, call_data="0x")
    served.relayer.fail(tx_id, "execution reverted")
    code, data = xswap_json(capsys, "status", "relayer", tx_id)
    assert (code, data["verdict"]) == (ExitCode.FAILED, "failed")


@pytest.mark.parametrize(
    ("kind", "wanted"),
    [
        ("relayer", "6a" * 12),
        ("swap", "0x" + "ab" * 32),
        ("transfer", "3f9b2a6e-4c1d-4e8f-9a7b-2d5c6e1f0a9b"),
        ("gasless", "3f9b2a6e-4c1d-4e8f-9a7b-2d5c6e1f0a9b"),
    ],
)
def test_what_does_not_exist_is_not_found(
    env: dict[str, str], capsys: pytest.CaptureFixture[str], kind: str, wanted: str
) -> None:
    code, out, _ = xswap(capsys, "status", kind, wanted)
    assert code == ExitCode.FAILED
    assert out == f"{kind} {wanted}: not found\n"
    assert xswap_json(capsys, "status", kind, wanted)[1]["verdict"] == "not_found"


def test_a_swap_by_its_hash(
    served: Sandbox, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    served.fund(ME, 42161, 20_000_000)
    with served.flash_client(signer=TEST_SIGNER) as flash:
        submission = flash.swap(TEST_SIGNER, **FLASH_SWAP)
    code, data = xswap_json(capsys, "status", "swap", submission.transaction_hash)
    assert (code, data["verdict"]) == (ExitCode.UNKNOWN, "pending")
    served.wait(30)
    code, out, _ = xswap(capsys, "status", "swap", submission.transaction_hash)
    assert code == ExitCode.OK
    assert "completed (done)" in out
    assert "in            10.00 USDC" in out
    code, data = xswap_json(capsys, "status", "swap", submission.transaction_hash)
    assert data["record"]["amount_usdc"] == 10_000_000  # smallest units in JSON too


def test_the_swap_history_needs_the_jwt_variable(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("XSWAP_FLASH_JWT")
    code, data = xswap_json(capsys, "status", "swap", "0x" + "ab" * 32)
    assert code == ExitCode.USAGE
    assert data["error"]["type"] == "MissingCredentialsError"
    assert "XSWAP_FLASH_JWT" in data["error"]["message"]


def test_a_gateway_transfer_pending_then_done(
    served: Sandbox, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    served.fund(ME, 8453, 10_000_000)
    with served.gateway_client() as gateway:
        intent = transfer_intent(4_000_000)
        [estimate] = gateway.estimate(intent)
        result = gateway.transfer(sign_burn_intent(apply_estimate(intent, estimate), TEST_SIGNER))
    code, data = xswap_json(capsys, "status", "transfer", result.transfer_id)
    assert (code, data["status"]) == (ExitCode.UNKNOWN, "pending")
    assert data["record"]["fees"]["total"] == 10_000  # smallest units, not "0.010000"
    served.wait(3600)
    code, out, _ = xswap(capsys, "status", "transfer", result.transfer_id)
    assert code == ExitCode.OK
    assert "(done)" in out
    assert "fees                0.01 USDC" in out


def test_a_gasless_swap(
    served: Sandbox, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    with served.routing_client() as routing:
        result = routing.gasless_swap(
            TEST_SIGNER,
            from_chain=8453,
            to_chain=42161,
            from_token=USDC_BASE,
            to_token=USDC_ARBITRUM,
            amount=5_000_000,
            wait=True,
        )
    code, out, _ = xswap(capsys, "status", "gasless", result.swap_id)
    assert code == ExitCode.OK
    assert "execution tx  0x" in out


def test_a_route_by_its_source_transaction(
    served: Sandbox, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    with served.routing_client() as routing:
        [route, *_] = routing.get_quote(
            from_chain=8453,
            to_chain=42161,
            from_token=USDC_BASE,
            to_token=USDC_ARBITRUM,
            amount=5_000_000,
            sender=ME,
        )
        tx_hash = served.routing.broadcast(routing.build_path(route, ME))
    served.wait(3600)
    code, data = xswap_json(capsys, "status", "route", tx_hash, "--chain", "8453", "--user", ME)
    assert (code, data["verdict"]) == (ExitCode.OK, "done")
    # One shape, whole: the client's own rule, before anything is sent.
    code, data = xswap_json(capsys, "status", "route", tx_hash)
    assert code == ExitCode.USAGE
    assert data["error"]["type"] == "InvalidInputError"


# ---------------------------------------------------------------------------- balances, quote


def test_balances_in_one_table_and_one_unit(
    served: Sandbox, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    wallet = "0x" + "5b" * 20
    served.fund(wallet, 8453, 30_000_000)
    served.fund(wallet, 42161, 1_500_000)
    served.wait(3600)  # past Gateway's finality
    code, data = xswap_json(capsys, "balances", wallet)
    assert code == ExitCode.OK
    rows = {row["chain_id"]: row for row in data["balances"]}
    assert rows[8453]["flash"] == rows[8453]["gateway"] == 30_000_000
    assert rows[42161]["flash"] == rows[42161]["gateway"] == 1_500_000
    assert data["total"] == {"flash": 31_500_000, "gateway": 31_500_000}
    assert data["unit"] == "smallest USDC units"
    code, out, _ = xswap(capsys, "balances", wallet)
    assert "30.00 USDC" in out
    assert out.splitlines()[-1].split() == ["total", "31.50", "USDC", "31.50", "USDC"]
    code, data = xswap_json(capsys, "balances", wallet, "--source", "gateway", "--chain", "8453")
    assert data["total"] == {"gateway": 30_000_000}
    assert [row["chain_id"] for row in data["balances"]] == [8453]


def test_a_bad_address_is_a_usage_error_before_any_request(
    served: Sandbox, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    before = len(served.requests)
    code, _, err = xswap(capsys, "balances", "0x1234")
    assert code == ExitCode.USAGE
    assert err.startswith("xswap: ADDRESS: must be a 0x-prefixed 20-byte hex address")
    assert len(served.requests) == before


def test_quotes(served: Sandbox, env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    code, data = xswap_json(
        capsys,
        *("quote", "flash", "--amount", "40000000", "--to-token", WETH_ARBITRUM),
        *("--chain", "42161", "--sender", ME),
    )
    assert code == ExitCode.OK
    assert data["quote"]["token_in"]["amount"] == 40_000_000
    code, out, _ = xswap(
        capsys,
        *("quote", "route", "--from-chain", "8453", "--to-chain", "42161"),
        *("--from-token", USDC_BASE, "--to-token", USDC_ARBITRUM),
        *("--amount", "5000000", "--sender", ME),
    )
    assert code == ExitCode.OK
    assert out.splitlines()[0].split() == ["route", "out", "at", "least", "time", "fees"]
    assert " USDC" in out.splitlines()[1]


# ---------------------------------------------------------------------------- failures


def test_an_unreachable_service_exits_3(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XSWAP_RELAYER_URL", f"http://127.0.0.1:{free_port()}")
    code, data = xswap_json(capsys, "status", "relayer", "6a" * 12)
    assert code == ExitCode.SERVICE
    assert data["error"]["type"] == "APIConnectionError"
    assert data["error"]["exit_code"] == 3


def test_a_service_error_exits_3_and_a_missing_key_2(
    served: Sandbox,
    env: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("XSWAP_RELAYER_API_KEY", "wrong-key-0123456789")
    assert xswap(capsys, "status", "relayer", "6a" * 12)[0] == ExitCode.SERVICE
    monkeypatch.delenv("XSWAP_RELAYER_API_KEY")
    code, _, err = xswap(capsys, "status", "relayer", "6a" * 12)
    assert code == ExitCode.USAGE
    assert "XSWAP_RELAYER_API_KEY" in err


def test_an_unknown_outcome_exits_4() -> None:
    sent = errors.InternalServerError(
        "POST /swap -> HTTP 502", status_code=502, outcome_unknown=True
    )
    assert exit_code_for(sent) == ExitCode.UNKNOWN
    assert exit_code_for(errors.NotFoundError("gone", status_code=404)) == ExitCode.FAILED
    assert exit_code_for(errors.InvalidInputError("to", "bad")) == ExitCode.USAGE
    assert exit_code_for(errors.RateLimitError("slow down", status_code=429)) == ExitCode.SERVICE
    # The service refused a value of the command line: a usage error, not "try later".
    assert exit_code_for(errors.BadRequestError("no", status_code=400)) == ExitCode.USAGE
    assert exit_code_for(errors.UnprocessableEntityError("no", status_code=422)) == ExitCode.USAGE


# ---------------------------------------------------------------------------- as a program


def run_xswap(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "xswap_sdk._cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "PYTHONPATH": SRC, **env},
    )


def test_the_program_against_the_served_sandbox(served: Sandbox) -> None:
    with served.relayer_client() as relayer:
        tx_id = relayer.relay(chain_id=8453, to=USDC_BASE, call_data="0x")
    served.wait(10)
    env = environment(served)
    done = run_xswap("status", "relayer", tx_id, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"relayer {tx_id}: EXECUTED (done)")
    missing = run_xswap("--json", "status", "relayer", "6a" * 12, env=env)
    assert missing.returncode == 1
    assert json.loads(missing.stdout)["verdict"] == "not_found"
    usage = run_xswap("status", "nothing", env=env)
    assert usage.returncode == 2


def test_xswap_sandbox_serves_what_python_m_sandbox_serves() -> None:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "xswap_sdk._cli", "sandbox", "--port", str(port), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": SRC},
    )
    try:
        assert server.stdout is not None
        announced = json.loads(server.stdout.readline())
        assert announced["base_url"] == f"http://127.0.0.1:{port}"
        assert announced["urls"]["gateway"] == f"http://127.0.0.1:{port}/gateway"
        wait_until_up(announced["base_url"] + "/")
        env = {
            "XSWAP_FLASH_URL": announced["urls"]["flash"],
            "XSWAP_GATEWAY_URL": announced["urls"]["gateway"],
        }
        balances = run_xswap("balances", ME, "--json", env=env)
        assert balances.returncode == 0, balances.stderr
        assert json.loads(balances.stdout)["total"] == {"flash": 0, "gateway": 0}
    finally:
        server.terminate()
        server.wait(timeout=10)
    help_ = run_xswap("sandbox", "--help", env={})
    assert help_.returncode == 0
    assert "--virtual-time" in help_.stdout


# ---------------------------------------------------------------------------- the docs


def test_the_docs_page_lists_every_command_and_exit_status() -> None:
    from xswap_sdk._cli._commands import COMMANDS

    page = (ROOT / "docs" / "cli.md").read_text()
    for command in COMMANDS:
        assert f"`xswap {command.name}" in page, command.name
    for code in ExitCode:
        assert f"\n| {int(code)} | " in page, code
