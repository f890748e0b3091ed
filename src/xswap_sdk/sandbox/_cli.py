"""The sandbox server's command line, written once for its two front doors:
``python -m xswap_sdk.sandbox`` and ``xswap sandbox``."""

from __future__ import annotations

import argparse

from ..errors import MissingDependencyError
from ._guard import DEFAULT_MAX_BODY
from .server import serve

__all__ = ["DESCRIPTION", "add_arguments", "run"]

DESCRIPTION = (
    "Serve the xswap sandbox: the swap backend, routing service, relayer and Circle "
    "Gateway emulators under /flash, /routing, /relayer and /gateway."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the server's options to ``parser``."""
    parser.add_argument(
        "--host", default="127.0.0.1", help="interface to bind (default: %(default)s)"
    )
    parser.add_argument("--port", type=int, default=8787, help="port (default: %(default)s)")
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of ids and prices (default: %(default)s)"
    )
    parser.add_argument(
        "--virtual-time",
        action="store_true",
        help="run on virtual time: it moves only through POST /sandbox/wait (and the "
        "services' own waits), so nothing waits for real",
    )
    parser.add_argument(
        "--jwt-secret",
        help="sign the swap backend's JWTs with this text (at least 16 characters) so "
        "tokens survive a restart (default: a random key per process)",
    )
    parser.add_argument(
        "--max-body-bytes",
        type=int,
        default=DEFAULT_MAX_BODY,
        help="largest request body read (default: %(default)s)",
    )
    parser.add_argument(
        "--log-level",
        default="info",
        choices=["critical", "error", "warning", "info", "debug"],
        help="uvicorn's log level (default: %(default)s)",
    )


def run(parser: argparse.ArgumentParser, args: argparse.Namespace, *, json: bool = False) -> None:
    """Check the parsed options and serve until interrupted; a bad option or a missing
    extra ends the program through ``parser`` (exit status 2).

    Args:
        parser: the parser that read ``args``, for its error messages.
        args: the options `add_arguments` declared.
        json: announce the URLs and keys as one JSON line instead of text.
    """
    secret = None if args.jwt_secret is None else args.jwt_secret.encode()
    if secret is not None and len(secret) < 16:
        parser.error("--jwt-secret must be at least 16 characters")
    if args.max_body_bytes < 1:
        parser.error("--max-body-bytes must be positive")
    try:
        serve(
            host=args.host,
            port=args.port,
            seed=args.seed,
            log_level=args.log_level,
            virtual_time=args.virtual_time,
            jwt_secret=secret,
            max_body=args.max_body_bytes,
            banner="json" if json else "text",
        )
    except MissingDependencyError as exc:
        parser.exit(2, f"{parser.prog}: {exc}\n")
