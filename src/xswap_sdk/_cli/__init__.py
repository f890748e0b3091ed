"""``xswap``: check money movements, balances and quotes from a terminal.

Installed with the package as a console script (``xswap = "xswap_sdk._cli:main"``)::

    xswap --version
    xswap status relayer 6a1b2c3d4e5f60718293a4b5
    xswap balances 0x5a3Ca05337A87116A27A21b11cDE16D85efb3586 --json
    export XSWAP_FLASH_JWT="$(xswap login --show-token)"
    xswap sandbox --port 8787

Every command takes ``--json``, reads credentials and URLs from the same ``XSWAP_*``
environment variables as the clients, and ends with an exit status a script can test
(`ExitCode`). The commands live one per module (``_status``, ``_balances``, ``_quote``,
``_login``, ``_journeys``, ``_sandbox``), which import only the small shared modules
(``_command``, ``_output``, ``_clients``); ``_commands.COMMANDS`` lists them and
``_app`` builds the program from that list, so a new command is one more module and one
more entry there. See docs/cli.md.
"""

from ._app import ExitCode, main

__all__ = ["ExitCode", "main"]
