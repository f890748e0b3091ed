"""The ``xswap`` program: its parser, built from ``_commands.COMMANDS``, and how a
failure is reported (text on standard error, or one JSON document with ``--json``)."""

from __future__ import annotations

import argparse
import platform
import sys
from collections.abc import Sequence
from typing import Any

from .._version import __version__
from ..errors import InvalidInputError, XSwapError

# Command, ExitCode and exit_code_for live in _command; the package names ExitCode from
# here. No command imports this module: _commands lists them, and this module reads it.
from ._command import Command, ExitCode, Parser, UsageError, exit_code_for, flag_error
from ._commands import COMMANDS
from ._output import Output, add_json_option

__all__ = ["Command", "ExitCode", "build_parser", "commands", "exit_code_for", "main"]


def commands() -> tuple[Command, ...]:
    """The commands, in ``--help`` order (``_commands.COMMANDS``)."""
    return COMMANDS


def build_parser(commands: Sequence[Command]) -> argparse.ArgumentParser:
    """The ``xswap`` parser with a subparser for each of ``commands``."""
    parser = Parser(
        prog="xswap",
        description="Check cross-chain USDC swaps, transfers, relayed transactions, "
        "balances and quotes; log in to the swap backend; serve the sandbox. Credentials "
        "and URLs come from the XSWAP_* environment variables, as for the clients.",
        epilog="exit status: 0 done, 1 failed or not found, 2 usage error, 3 network or "
        "service error, 4 outcome not known yet (pending): see docs/cli.md",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    json_option = Parser(add_help=False)
    add_json_option(json_option)
    parser.add_argument(
        "--json", action="store_true", help="write one JSON document, as each command's --json"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in commands:
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.help,
            parents=[json_option],
            add_help=not command.passthrough,
        )
        sub.set_defaults(run=command.run, flags=command.flags)
        command.add_arguments(sub)
    return parser


def _wants_json(argv: Sequence[str]) -> bool:
    # Read before parsing, so a command line that does not parse gets JSON too.
    given = list(argv)
    return "--json" in (given[: given.index("--")] if "--" in given else given)


def _version(out: Output) -> int:
    data = {"xswap_sdk": __version__, "python": platform.python_version()}
    out.result(data, f"xswap {__version__} (xswap-sdk, Python {platform.python_version()})")
    return ExitCode.OK


def usage_error(out: Output, error: UsageError) -> int:
    """Report a command line that does not parse: as argparse does (its usage and
    ``prog: error: ...`` on standard error), or with ``--json`` as one document."""
    if out.json:
        data = {
            "type": "UsageError",
            "message": error.message,
            "usage": " ".join(error.parser.format_usage().split()),
            "exit_code": int(ExitCode.USAGE),
            "outcome_unknown": False,
        }
        out.error(data, error.message)
    else:
        error.parser.print_usage(out.stderr)
        out.stderr.write(f"{error.parser.prog}: error: {error.message}\n")
    return ExitCode.USAGE


def _failure(out: Output, error: XSwapError, args: argparse.Namespace) -> int:
    code = exit_code_for(error)
    message = str(error)
    data: dict[str, Any] = {"type": type(error).__name__}
    if isinstance(error, InvalidInputError):
        argument, rule = flag_error(error, getattr(args, "flags", {}))
        message = f"{argument}: {rule}"
        data["argument"] = argument
    data.update(message=message, exit_code=int(code))
    data["outcome_unknown"] = bool(getattr(error, "outcome_unknown", False))
    out.error(data, message)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``xswap`` with ``argv`` (default: the process's arguments) and return its exit
    status; the console script passes it to `sys.exit`."""
    given = sys.argv[1:] if argv is None else list(argv)
    known = commands()
    parser = build_parser(known)
    try:
        args, rest = parser.parse_known_args(given)
        passthrough = next((c.passthrough for c in known if c.name == args.command), False)
        if passthrough:
            args.options = rest
        elif rest:
            parser.error(f"unrecognized arguments: {' '.join(rest)}")
    except UsageError as error:
        return usage_error(Output(json=_wants_json(given)), error)
    except SystemExit as exit_:  # --help (or --version of a parser) has printed
        return int(exit_.code or 0) if not isinstance(exit_.code, str) else ExitCode.USAGE
    out = Output(json=bool(args.json))
    if args.version:
        return _version(out)
    if args.command is None:
        return usage_error(out, UsageError(parser, "a command is needed"))
    try:
        return int(args.run(args, out))
    except UsageError as error:  # a passthrough command's own parser
        return usage_error(out, error)
    except XSwapError as error:
        return _failure(out, error, args)
    except KeyboardInterrupt:
        return 130
