"""What every command shares: its description (`Command`), the exit statuses
(`ExitCode`), the parser class that turns argparse's errors into a `UsageError`, and how
a library error is said in the command's own terms (`flag_error`).

The command modules import this module and `_output` only; ``_commands`` lists them and
``_app`` runs them, so no command module imports the program back.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import NoReturn

from ..errors import (
    BadRequestError,
    InvalidInputError,
    MissingCredentialsError,
    MissingDependencyError,
    NotFoundError,
    TerminalStateError,
    UnprocessableEntityError,
    XSwapError,
)
from ._output import Output

__all__ = [
    "CREDENTIALS",
    "Command",
    "ExitCode",
    "Flags",
    "Parser",
    "UsageError",
    "exit_code_for",
    "flag_error",
]

Flags = Mapping[str, str]
"""A command's table: the library's argument name (`InvalidInputError.argument`) -> the
command line's name for it (``"input_amount": "--amount"``, ``"address": "ADDRESS"``)."""


class ExitCode(IntEnum):
    """What ``xswap`` exits with, for scripts (``xswap status ... || ...``).

    Attributes:
        OK: done: the command worked and what it looked at succeeded (a relayed
            transaction EXECUTED, a swap completed, a transfer confirmed or finalized,
            a route landed), or a read (balances, quote, login) answered.
        FAILED: the thing failed (FAILED, failed, expired) or does not exist (not found,
            a swap hash not in the history), or a feature is not installed.
        USAGE: the command line or a value in it is wrong (a bad address, an unknown
            chain, a missing option or credential), or the service refused a value of
            it (HTTP 400 or 422); nothing was done.
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
        flags: the command's `Flags` table (a subcommand with other options sets its
            own as the ``flags`` default of its parser).
    """

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, Output], int]
    passthrough: bool = False
    flags: Flags = field(default_factory=dict)


class UsageError(Exception):
    """The command line does not parse: what argparse would have printed before exiting
    with status 2, kept to be written as text or as JSON.

    Attributes:
        parser: the (sub)parser that refused, for its usage line.
        message: why, as argparse says it.
    """

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        self.parser = parser
        self.message = message
        super().__init__(message)


class Parser(argparse.ArgumentParser):
    """An `argparse.ArgumentParser` whose errors raise `UsageError` instead of printing
    and exiting, so that ``--json`` gets them as JSON too. Subparsers are of this class
    (argparse makes them of their parent's)."""

    def error(self, message: str) -> NoReturn:
        """Raise `UsageError` (argparse would print the usage and exit 2)."""
        raise UsageError(self, message)


def exit_code_for(error: XSwapError) -> ExitCode:
    """The exit status that ``error`` means (see `ExitCode`)."""
    if getattr(error, "outcome_unknown", False):
        return ExitCode.UNKNOWN
    if isinstance(error, InvalidInputError | BadRequestError | UnprocessableEntityError):
        return ExitCode.USAGE
    if isinstance(error, NotFoundError | TerminalStateError | MissingDependencyError):
        return ExitCode.FAILED
    return ExitCode.SERVICE


CREDENTIALS: Mapping[str, str] = {
    "XSWAP_FLASH_JWT": "the swap backend's login token: export XSWAP_FLASH_JWT=\"$(xswap "
    'login --show-token)" (with XSWAP_PRIVATE_KEY set), see docs/cli.md',
    "XSWAP_RELAYER_API_KEY": "the relayer's API key",
    "XSWAP_ROUTING_API_KEY": "the routing service's API key",
}
"""What each credential variable a command may need holds, for the message saying it is
not set (the library's names the client's constructor arguments instead)."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def flag_error(error: InvalidInputError, flags: Flags) -> tuple[str, str]:
    """``(argument, rule)`` of ``error`` in the command line's terms, from the command's
    ``flags`` table.

    The argument is looked up by its leading name (``chain_ids[1]`` as ``chain_ids``); a
    missing credential is named by its environment variable. In the rule, the table's
    names that hold an underscore (``max_slippage``, ``tx_hash``: never an English word)
    are replaced by their flags, ``name=value`` by ``--flag value``; plain words
    (``amount``, ``sender``) are left alone in the rule, where they may be prose.
    """
    if isinstance(error, MissingCredentialsError) and error.env_var:
        what = CREDENTIALS.get(error.env_var, "a credential")
        return error.env_var, f"is not set, and this command needs it: {what}"
    name = _NAME.match(error.argument)
    argument = flags.get(name.group() if name else error.argument, error.argument)
    rule = error.rule
    for python, flag in flags.items():
        if "_" not in python:
            continue
        if flag.startswith("--"):
            rule = re.sub(rf"\b{re.escape(python)}=('?)([^'\s,)]+)\1", rf"{flag} \2", rule)
        rule = re.sub(rf"\b{re.escape(python)}\b", flag, rule)
    return argument, rule
