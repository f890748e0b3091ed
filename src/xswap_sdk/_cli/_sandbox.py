"""``xswap sandbox``: serve the sandbox, as ``python -m xswap_sdk.sandbox`` does, with
the same options and code (`xswap_sdk.sandbox._cli`). It needs the ``sandbox`` extra
(Starlette and uvicorn); without it the command says so (exit status 1).

Its options are handed on whole to the sandbox's own parser, so that no other command
pays for importing the sandbox to build its ``--help``.
"""

from __future__ import annotations

import argparse

from .._lazy import require
from ._command import Command, ExitCode, Parser
from ._output import Output

__all__ = ["COMMAND"]

_FEATURE = "xswap sandbox"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """None here: everything after ``sandbox`` goes to the sandbox's parser."""


def run(args: argparse.Namespace, out: Output) -> int:
    """Serve until interrupted; with ``--json``, announce the URLs and keys as JSON.

    Raises:
        UsageError: an option the sandbox's parser refuses.
        MissingDependencyError: the ``sandbox`` extra is not installed.
    """
    # lazy: the sandbox (starlette, uvicorn: the sandbox extra), only to serve it
    from ..sandbox._cli import DESCRIPTION
    from ..sandbox._cli import add_arguments as server_arguments
    from ..sandbox._cli import run as serve

    parser = Parser(prog="xswap sandbox", description=DESCRIPTION)
    server_arguments(parser)
    parser.add_argument("--json", action="store_true", help="announce the URLs and keys as JSON")
    try:
        options = parser.parse_args(args.options)
    except SystemExit as exit_:  # --help
        return ExitCode.USAGE if exit_.code else ExitCode.OK
    for module in ("starlette.applications", "uvicorn"):
        require(module, extra="sandbox", feature=_FEATURE)
    serve(parser, options, json=out.json or options.json)
    return ExitCode.OK


COMMAND = Command(
    name="sandbox",
    help="serve the sandbox on localhost (as python -m xswap_sdk.sandbox; needs the "
    "sandbox extra); see xswap sandbox --help",
    add_arguments=add_arguments,
    run=run,
    passthrough=True,
)
