"""Optional dependencies, imported only by the features that need them.

``import xswap_sdk`` must stay fast and must work without the extras, so `web3` (and the
sandbox server's Starlette and uvicorn) are imported here on first use, with an error
that says which extra to install.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Final

from .errors import MissingDependencyError

__all__ = ["INSTALL_HINT", "install_hint", "require"]

INSTALL_HINT: Final = 'the {extra!r} extra: pip install ".[{extra}]" in a checkout of xswap-sdk'
"""How every message and page says to install an extra. The package is not on PyPI yet
(the README installs it from a checkout), so a hint naming the package on PyPI would
send readers to a package that does not exist."""


def install_hint(extra: str) -> str:
    """`INSTALL_HINT` for ``extra``: ``the 'web3' extra: pip install ".[web3]" in ...``."""
    return INSTALL_HINT.format(extra=extra)


def require(module: str, *, extra: str, feature: str) -> ModuleType:
    """Import ``module`` or raise `MissingDependencyError` naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(
            f"{feature} needs the optional package {module!r}, from {install_hint(extra)}"
        ) from exc
