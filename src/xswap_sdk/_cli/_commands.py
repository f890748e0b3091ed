"""The commands of ``xswap``, in ``--help`` order: the one place that imports the
command modules. A new command is one more module (importing `_command` and
`_output`, never the program) and one more entry here."""

from __future__ import annotations

from . import _balances, _journeys, _login, _quote, _recover, _sandbox, _status
from ._command import Command

__all__ = ["COMMANDS"]

COMMANDS: tuple[Command, ...] = (
    _status.COMMAND,
    _balances.COMMAND,
    _quote.COMMAND,
    _login.COMMAND,
    _journeys.JOURNEYS,
    _journeys.RESUME,
    _recover.COMMAND,
    _sandbox.COMMAND,
)
"""Every command; ``_app`` builds its parser from them."""
