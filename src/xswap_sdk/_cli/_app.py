"""The ``xswap`` program: its parser, its commands and its exit statuses."""

from __future__ import annotations

import argparse
import platform
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from .._version import __version__
from ..errors import (
    InvalidInputError,
    MissingDependencyError,
    NotFoundError,
    TerminalStateError,
    XSwapError,
)
from ._output import Output, add_json_option

__all__ = ["Command", "ExitCode", "build_parser", "commands", "exit_code_for", "main"]


class ExitCode(IntEnum):
    """What ``xswap`` exits with, for scripts (``xswap status ... || ...``).

    Attributes:
        OK: done: the command worked and what it looked at succeeded (a relayed
            transaction EXECUTED, a swap completed, a transfer confirmed or finalized,
            a route landed), or a read (balances, quote) answered.
        FAILED: the thing failed (FAILED, failed, expired) or does not exist (not found,
            a swap hash not in the history), or a feature is not installed.
        USAGE: the command line or a value in it is wrong (a bad address, a missing
            option or credential); nothing was sent.
        SERVICE: a network or service error (connection, timeout, HTTP 401/403/429/5xx,
            an answer that does not fit): try again later.
        UNKNOWN: the outcome is not known yet: still pending, or a request that moves
            money may or may not have been applied (``outcome_unknown``). Check again
            before acting again.
    """

    OK = 0
    FAILED = 1
    USAGE = 2
    SERVICE = 3
    UNKNOWN = 4


@dataclass(frozen=True)
class Command:
    """One ``xswap`` command.

    Attributes:
        name: what follows ``xswap`` on the command line.
        help: one line for ``xswap --help``.
        add_arguments: declares its options on its own subparser.
        run: does the work, writes through the `Output`, and returns the exit status.
        passthrough: the command parses its own options (and ``--help``): whatever
            ``xswap`` does not know is handed on to it as ``args.options``.
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, Output], int]
    passthrough: bool = False


def commands() -> tuple[Command, ...]:
    """The commands, in ``--help`` order. The extension point: the journeys issue adds
    ``journeys`` and ``resume`` here, one module each."""
    from . import _balances, _journeys, _quote, _recover, _sandbox, _status

    return (
        _status.COMMAND,
        _balances.COMMAND,
        _quote.COMMAND,
        _journeys.JOURNEYS,
        _journeys.RESUME,
        _recover.COMMAND,
        _sandbox.COMMAND,
    )


def build_parser(commands: Sequence[Command]) -> argparse.ArgumentParser:
    """The ``xswap`` parser with a subparser for each of ``commands``."""
    parser = argparse.ArgumentParser(
        prog="xswap",
        description="Check cross-chain USDC swaps, transfers, relayed transactions, "
        "balances and quotes; serve the sandbox. Credentials and URLs come from the "
        "XSWAP_* environment variables, as for the clients.",
        epilog="exit status: 0 done, 1 failed or not found, 2 usage error, 3 network or "
        "service error, 4 outcome not known yet (pending): see docs/cli.md",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    json_option = argparse.ArgumentParser(add_help=False)
    add_json_option(json_option)
    parser.add_argument("--json", action="store_true", help="as the commands' --json")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in commands:
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.help,
            parents=[json_option],
            add_help=not command.passthrough,
        )
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def exit_code_for(error: XSwapError) -> ExitCode:
    """The exit status that ``error`` means (see `ExitCode`)."""
    if getattr(error, "outcome_unknown", False):
        return ExitCode.UNKNOWN
    if isinstance(error, InvalidInputError):
        return ExitCode.USAGE
    if isinstance(error, NotFoundError | TerminalStateError | MissingDependencyError):
        return ExitCode.FAILED
    return ExitCode.SERVICE


def _version(out: Output) -> int:
    data = {"xswap_sdk": __version__, "python": platform.python_version()}
    out.result(data, f"xswap {__version__} (xswap-sdk, Python {platform.python_version()})")
    return ExitCode.OK


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``xswap`` with ``argv`` (default: the process's arguments) and return its exit
    status; the console script passes it to `sys.exit`."""
    known = commands()
    parser = build_parser(known)
    try:
        args, rest = parser.parse_known_args(argv)
        passthrough = next((c.passthrough for c in known if c.name == args.command), False)
        if passthrough:
            args.options = rest
        elif rest:
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
    except SystemExit as exit_:  # --help, or a usage error argparse has printed
        return int(exit_.code or 0) if not isinstance(exit_.code, str) else ExitCode.USAGE
    out = Output(json=bool(args.json))
    if args.version:
        return _version(out)
    if args.command is None:
        parser.print_usage(out.stderr)
        out.error({"type": "UsageError", "message": "a command is needed"}, "a command is needed")
        return ExitCode.USAGE
    try:
        return int(args.run(args, out))
    except XSwapError as error:
        code = exit_code_for(error)
        data = {
            "type": type(error).__name__,
            "message": str(error),
            "exit_code": int(code),
            "outcome_unknown": bool(getattr(error, "outcome_unknown", False)),
        }
        out.error(data, str(error))
        return code
    except KeyboardInterrupt:
        return 130
