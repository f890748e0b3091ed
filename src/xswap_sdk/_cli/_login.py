"""``xswap login``: log in to the swap backend with the wallet of ``XSWAP_PRIVATE_KEY``
(a Sign-In with Ethereum message, checked and signed as `FlashClient.login` does) and
get its login token, a JWT, for ``XSWAP_FLASH_JWT``.

The token is a credential. It is printed only when asked (``--show-token``), alone on
standard output, so that ``export XSWAP_FLASH_JWT="$(xswap login --show-token)"`` keeps
it in the shell and nowhere else: the command writes no file and logs nothing of it.
The key is read from the environment only, never from an option (a command line shows
in ``ps`` and in the shell's history).
"""

from __future__ import annotations

import argparse
from typing import Any

from .._base_client import env_signer
from ..errors import InvalidInputError
from ..journal import PRIVATE_KEY_ENV
from . import _clients
from ._command import Command, ExitCode, Flags
from ._output import Output

__all__ = ["COMMAND"]

FLAGS: Flags = {"referred_by_code": "--referred-by", "signer": PRIVATE_KEY_ENV}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``login [--show-token] [--referred-by CODE]``."""
    parser.add_argument(
        "--show-token",
        action="store_true",
        help='print the token (alone, for export XSWAP_FLASH_JWT="$(xswap login '
        '--show-token)"); without it the token is not shown anywhere',
    )
    parser.add_argument(
        "--referred-by",
        metavar="CODE",
        help="a referral code to attribute this wallet to (its first login only)",
    )
    parser.epilog = (
        f"The wallet's key comes from {PRIVATE_KEY_ENV} (a 0x hex private key), never "
        "from the command line. The token is never stored: keep it in XSWAP_FLASH_JWT "
        "yourself. URL: XSWAP_FLASH_URL."
    )


def run(args: argparse.Namespace, out: Output) -> int:
    """Log in; print who logged in, and the token when ``--show-token`` asks.

    Raises:
        InvalidInputError: ``XSWAP_PRIVATE_KEY`` unset or not a private key.
        LoginError: the backend refused the login.
    """
    signer = env_signer()
    if signer is None:
        raise InvalidInputError(
            PRIVATE_KEY_ENV, "is not set: the wallet's 0x hex private key logs in"
        )
    with _clients.flash() as flash:
        session = flash.login(signer, referred_by_code=args.referred_by)
        where = flash.base_url
    data: dict[str, Any] = {
        "base_url": where,
        "user_address": session.user_address,
        "referral_code": session.referral_code,
        "is_new_user": session.is_new_user,
    }
    if args.show_token:
        data["token"] = session.token.get_secret_value()
        out.result(data, data["token"])
        return ExitCode.OK
    new = {True: ", a new user", False: "", None: ""}[session.is_new_user]
    code = f", referral code {session.referral_code}" if session.referral_code else ""
    out.result(
        data,
        f"logged in to {where} as {session.user_address}{new}{code}\n"
        "the token was not printed: xswap login --show-token prints it, e.g.\n"
        '  export XSWAP_FLASH_JWT="$(xswap login --show-token)"',
    )
    return ExitCode.OK


COMMAND = Command(
    name="login",
    help=f"log in to the swap backend with {PRIVATE_KEY_ENV}'s wallet and get its login "
    "token (a JWT, printed only with --show-token, never stored)",
    add_arguments=add_arguments,
    run=run,
    flags=FLAGS,
)
