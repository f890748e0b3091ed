"""``xswap`` in its own terms: errors name the command line's flags and arguments (not
the library's Python names), reads never "refuse to sign", a usage error is exit status
2 and, with ``--json``, one JSON document on standard output (argparse's own errors
too); ``xswap login`` gets a token and shows it only when asked; amounts carry their
token's symbol; every option has help; and no command module imports the program."""

from __future__ import annotations

import argparse
import ast
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk._cli import ExitCode, main
from xswap_sdk._cli._app import build_parser
from xswap_sdk._cli._command import flag_error
from xswap_sdk._cli._commands import COMMANDS
from xswap_sdk.sandbox import Sandbox

from ..sandbox.test_server import free_port
from .test_cli import ME, ROOT, USDC_BASE, WETH_ARBITRUM, env, served, xswap  # noqa: F401

CLI = Path(__file__).resolve().parents[2] / "src" / "xswap_sdk" / "_cli"
KEY = "0x" + "a1" * 32  # a throwaway key: never fund it

QUOTE_FLASH = [
    *("quote", "flash", "--amount", "40000000", "--to-token", WETH_ARBITRUM),
    *("--chain", "42161", "--sender", ME),
]
QUOTE_ROUTE = [
    *("quote", "route", "--from-chain", "8453", "--to-chain", "42161"),
    *("--from-token", USDC_BASE, "--to-token", WETH_ARBITRUM, "--amount", "5000000"),
    *("--sender", ME),
]


def replaced(argv: list[str], flag: str, value: str) -> list[str]:
    out = list(argv)
    out[out.index(flag) + 1] = value
    return out


def failure(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    """Run with --json; the one JSON document it printed, which must be an error."""
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert captured.err == ""
    return code, json.loads(captured.out)["error"]


# ---------------------------------------------------------------------------- flags


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (replaced(QUOTE_FLASH, "--amount", "1.5"), "--amount"),
        (replaced(QUOTE_FLASH, "--to-token", "0x82"), "--to-token"),
        (replaced(QUOTE_FLASH, "--sender", "0x1234"), "--sender"),
        ([*QUOTE_FLASH, "--slippage", "50"], "--slippage"),
        ([*QUOTE_FLASH, "--recipient", "0x1234"], "--recipient"),
        (replaced(QUOTE_ROUTE, "--from-token", "0x12"), "--from-token"),
        (replaced(QUOTE_ROUTE, "--to-token", "0x12"), "--to-token"),
        (replaced(QUOTE_ROUTE, "--amount", "-5"), "--amount"),
        (replaced(QUOTE_ROUTE, "--sender", "0x12"), "--sender"),
        (["balances", "0x1234"], "ADDRESS"),
        (["balances", ME, "--chain", "999999"], "--chain"),
        (["balances", ME, "--chain", "84532"], "--chain"),  # a testnet chain, mainnet API
        (["status", "transfer", "abc"], "TRANSFER_ID"),
        (["status", "route", "0xab"], "--chain"),
        (["status", "route", "--provider", "across"], "--ref"),
        (["status", "route", "0x" + "ab" * 32, "--chain", "8453", "--ref", "r"], "TX_HASH"),
    ],
)
def test_an_error_names_the_flag_not_the_python_argument(
    served: Sandbox,  # noqa: F811
    env: dict[str, str],  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    named: str,
) -> None:
    before = len(served.requests)
    code, error = failure(capsys, *argv)
    assert code == ExitCode.USAGE == error["exit_code"]
    assert error["argument"] == named
    assert error["message"].startswith(f"{named}: ")
    for python in ("input_amount", "output_token", "from_chain", "chain_ids", "tx_hash", "_"):
        assert f"{python}:" not in error["message"]
    assert "not both" not in error["message"] or "give one way" in error["message"]
    assert "refused to sign" not in error["message"]
    assert len(served.requests) == before  # refused before any request
    code, _, err = xswap(capsys, *argv)
    assert code == ExitCode.USAGE
    assert err == f"xswap: {error['message']}\n"


def test_a_rule_speaks_in_flags_too(
    env: dict[str, str],  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    for argv in (QUOTE_FLASH, QUOTE_ROUTE):
        code, error = failure(capsys, *argv, "--slippage", "50")
        assert code == ExitCode.USAGE
        assert error["message"].startswith("--slippage: 50 (percent) is above the maximum of 5 %")
        assert error["message"].endswith("pass --max-slippage 50 to accept it")
        assert "max_slippage" not in error["message"]
        code, _, _ = xswap(capsys, *argv, "--slippage", "50", "--max-slippage", "50")
        assert code == ExitCode.OK


def test_flag_error_uses_the_table_for_the_argument_and_the_rule() -> None:
    table = {
        "tx_hash": "TX_HASH",
        "from_chain": "--chain",
        "chain_ids": "--chain",
        "amount": "--amount",
    }
    error = errors.InvalidInputError(
        "chain_ids[2]", "pass tx_hash and from_chain=8453, or from_chain='1'; an amount"
    )
    assert flag_error(error, table) == (
        "--chain",
        "pass TX_HASH and --chain 8453, or --chain 1; an amount",  # prose words stay
    )
    assert flag_error(errors.InvalidInputError("other", "x"), table) == ("other", "x")


def test_an_unknown_chain_in_a_read_is_a_usage_error_not_a_refusal_to_sign(
    env: dict[str, str],  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = xswap(capsys, "balances", ME, "--chain", "999999")
    assert code == ExitCode.USAGE
    assert err.startswith("xswap: --chain: 999999 is not a chain of the SDK's registry (known: 1,")
    assert "sign" not in err
    # The swap backend alone: its own list of chains says so.
    code, _, err = xswap(capsys, "balances", ME, "--chain", "999999", "--source", "flash")
    assert code == ExitCode.USAGE
    assert err.startswith("xswap: --chain: 999999 is not a chain of the swap backend (known: 1,")
    assert xswap(capsys, "balances", ME, "--chain", "8453", "--source", "flash")[0] == ExitCode.OK


def test_a_missing_credential_is_named_by_its_variable(
    env: dict[str, str],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.delenv("XSWAP_RELAYER_API_KEY")
    monkeypatch.delenv("XSWAP_FLASH_JWT")
    code, error = failure(capsys, "status", "relayer", "6a" * 12)
    assert (code, error["type"]) == (ExitCode.USAGE, "MissingCredentialsError")
    assert error["argument"] == "XSWAP_RELAYER_API_KEY"
    assert "api_key=" not in error["message"]
    code, error = failure(capsys, "status", "swap", "0x" + "ab" * 32)
    assert error["argument"] == "XSWAP_FLASH_JWT"
    assert "xswap login --show-token" in error["message"]


def test_the_service_refusing_a_value_is_a_usage_error(
    env: dict[str, str],  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, error = failure(capsys, *replaced(QUOTE_FLASH, "--chain", "999999"))
    assert (code, error["type"]) == (ExitCode.USAGE, "BadRequestError")


# ---------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["bogus"],
        ["status"],
        ["status", "relayer"],
        ["quote", "flash", "--amount", "1"],
        ["balances", ME, "--chain", "base"],
        ["balances", ME, "--source", "nowhere"],
        ["balances", ME, "--unknown"],
        ["sandbox", "--port", "x"],
    ],
)
def test_a_usage_error_is_exit_2_and_with_json_one_document(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = xswap(capsys, *argv)
    assert code == ExitCode.USAGE
    assert out == ""
    assert err.startswith("usage: ")
    assert ": error: " in err
    for placed in ([*argv, "--json"], ["--json", *argv]):
        code = main(placed)
        captured = capsys.readouterr()
        assert code == ExitCode.USAGE
        assert captured.err == ""
        error = json.loads(captured.out)["error"]
        assert error["type"] == "UsageError"
        assert error["exit_code"] == 2
        assert error["usage"].startswith("usage: xswap")
        assert error["message"]


def test_help_still_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--help"], ["quote", "flash", "--help"], ["login", "--help"]):
        code, out, _ = xswap(capsys, *argv)
        assert code == ExitCode.OK
        assert out.startswith("usage: xswap")


def _options(parser: argparse.ArgumentParser, path: str) -> list[tuple[str, argparse.Action]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _options(sub, f"{path} {name}")
        else:
            found.append((f"{path} {'/'.join(action.option_strings) or action.dest}", action))
    return found


def test_every_option_of_every_command_has_help() -> None:
    options = _options(build_parser(COMMANDS), "xswap")
    assert len(options) > 40
    missing = [name for name, action in options if not (action.help or "").strip()]
    assert missing == []
    # The sandbox's options are its own parser's (xswap sandbox --help).
    from xswap_sdk.sandbox._cli import add_arguments

    sandbox = argparse.ArgumentParser()
    add_arguments(sandbox)
    assert all((action.help or "").strip() for action in sandbox._actions)


# ---------------------------------------------------------------------------- login


def test_login_shows_the_token_only_when_asked(
    served: Sandbox,  # noqa: F811
    env: dict[str, str],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.delenv("XSWAP_FLASH_JWT")
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", KEY)
    monkeypatch.chdir(tmp_path)
    code, out, err = xswap(capsys, "login")
    assert code == ExitCode.OK
    assert err == ""
    assert "logged in to " in out
    assert "eyJ" not in out  # a JWT starts with the base64 of '{"'
    assert 'export XSWAP_FLASH_JWT="$(xswap login --show-token)"' in out
    assert main(["login", "--json"]) == ExitCode.OK
    assert "token" not in json.loads(capsys.readouterr().out)
    code, out, _ = xswap(capsys, "login", "--show-token")
    assert code == ExitCode.OK
    token = out.strip()
    assert out == token + "\n"
    assert token.startswith("eyJ")
    assert list(tmp_path.iterdir()) == []  # nothing stored
    # The token is a working XSWAP_FLASH_JWT: the history reads with it.
    monkeypatch.setenv("XSWAP_FLASH_JWT", token)
    code, out, _ = xswap(capsys, "status", "swap", "0x" + "ab" * 32)
    assert (code, out) == (ExitCode.FAILED, f"swap {'0x' + 'ab' * 32}: not found\n")
    # (A signer logs in at most three times a minute at one host: another wallet.)
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", "0x" + "a2" * 32)
    assert main(["login", "--show-token", "--json"]) == ExitCode.OK
    assert json.loads(capsys.readouterr().out)["token"].startswith("eyJ")


@pytest.mark.parametrize(("key", "rule"), [(None, "is not set"), ("0x12", "must be a 0x hex")])
def test_login_needs_the_private_key_variable(
    env: dict[str, str],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    key: str | None,
    rule: str,
) -> None:
    if key is None:
        monkeypatch.delenv("XSWAP_PRIVATE_KEY", raising=False)
    else:
        monkeypatch.setenv("XSWAP_PRIVATE_KEY", key)
    code, error = failure(capsys, "login")
    assert code == ExitCode.USAGE
    assert error["argument"] == "XSWAP_PRIVATE_KEY"
    assert rule in error["message"]


# ---------------------------------------------------------------------------- symbols


def test_quote_flash_shows_the_output_token_symbol(
    env: dict[str, str],  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = xswap(capsys, *QUOTE_FLASH)
    assert code == ExitCode.OK
    [line] = [line for line in out.splitlines() if line.startswith("out ")]
    assert line.split()[2] == "WETH"
    assert line.endswith(f"of {WETH_ARBITRUM} (chain 42161)")
    assert main([*QUOTE_FLASH, "--json"]) == ExitCode.OK
    assert json.loads(capsys.readouterr().out)["token_out_symbol"] == "WETH"


def test_quote_flash_without_a_symbol_still_quotes(
    served: Sandbox,  # noqa: F811
    env: dict[str, str],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from xswap_sdk import FlashClient

    def unknown(*args: Any, **kwargs: Any) -> Any:
        raise errors.NotFoundError("POST /search-token -> HTTP 404", status_code=404)

    monkeypatch.setattr(FlashClient, "search_token", unknown)
    code, out, _ = xswap(capsys, *QUOTE_FLASH)
    assert code == ExitCode.OK
    assert f"of {WETH_ARBITRUM} (chain 42161)" in out


# ---------------------------------------------------------------------------- sandbox extra


def test_xswap_sandbox_without_the_extra_says_which(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from xswap_sdk._cli import _sandbox

    def missing(module: str, *, extra: str, feature: str) -> Any:
        raise errors.MissingDependencyError(f"{feature} needs {module!r}, from the {extra!r} extra")

    monkeypatch.setattr(_sandbox, "require", missing)
    code, error = failure(capsys, "sandbox", "--port", "0")
    assert (code, error["type"]) == (ExitCode.FAILED, "MissingDependencyError")
    assert "'sandbox' extra" in error["message"]


# ---------------------------------------------------------------------------- structure


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names.add(node.module or "")
            names.update(f"{alias.name}" for alias in node.names if node.module is None)
    return names


def test_no_command_module_imports_the_program() -> None:
    # _app imports _commands, which imports the command modules; they import only
    # small shared modules (_command, _output, _clients, ...), so there is no cycle
    # (lint-imports checks it too: the "acyclic" contract in pyproject.toml).
    for path in sorted(CLI.glob("_*.py")):
        if path.stem in ("_app", "__init__", "__main__"):
            continue
        imported = _imports(path)
        assert "_app" not in imported, path.name
        if path.stem != "_commands":
            assert "_commands" not in imported, path.name
    assert "_commands" in _imports(CLI / "_app.py")
    assert {command.name for command in COMMANDS} >= {"status", "balances", "quote", "login"}


# ---------------------------------------------------------------------------- the docs page


def usage_errors_quoted(page: str) -> list[tuple[list[str], str]]:
    """The ``$ xswap ...; echo "exit $?"`` commands of the page's console blocks that
    end ``exit 2`` (refused before anything is sent), with what they print."""
    found = []
    for block in re.findall(r"^```console\n(.*?)^```", page, re.MULTILINE | re.DOTALL):
        for session in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, printed = session.replace("\\\n", "").partition("\n")
            if command.startswith("xswap ") and command.endswith('; echo "exit $?"'):
                lines = printed.rstrip("\n").split("\n")
                if lines[-1] == "exit 2":
                    argv = shlex.split(command.removesuffix('; echo "exit $?"'))[1:]
                    found.append((argv, "\n".join(lines[:-1]) + "\n"))
    return found


def test_the_usage_errors_docs_cli_quotes_are_what_xswap_prints(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"  # nothing may be sent: no service there
    for service in ("FLASH", "ROUTING", "RELAYER", "GATEWAY"):
        monkeypatch.setenv(f"XSWAP_{service}_URL", f"{nowhere}/{service.lower()}")
    quoted = usage_errors_quoted((ROOT / "docs" / "cli.md").read_text())
    assert len(quoted) >= 4
    for argv, printed in quoted:
        code = main(argv)
        captured = capsys.readouterr()
        assert (code, captured.out + captured.err) == (ExitCode.USAGE, printed), argv
