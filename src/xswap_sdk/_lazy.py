"""Optional dependencies, imported only by the features that need them.

``import xswap_sdk`` must stay fast and must work without the extras, so `web3` (and the
sandbox server's Starlette and uvicorn) are imported here on first use, with an error
that says which extra to install.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import MissingDependencyError

__all__ = ["require"]


def require(module: str, *, extra: str, feature: str) -> ModuleType:
    """Import ``module`` or raise `MissingDependencyError` naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingDependencyError(
            f'{feature} needs the optional package {module!r}: pip install "xswap-sdk[{extra}]"'
        ) from exc
