"""A package's public names, imported on first use (PEP 562).

A lazy package lists each public name once, as an import in its ``if TYPE_CHECKING:``
block, which is what type checkers and IDEs read. ``scripts/lazy_tables.py`` writes the
same block, as a plain dict ``_HOMES`` of where each name lives, below it (`read_homes`
reads the block; ``tests/test_exports.py`` checks that every table matches), and `attach`
looks names up in that table. So ``from xswap_sdk import RelayerClient`` loads the
relayer's blocking client and what it needs, not the async client, the other services or
the signing package; and since nothing reads a source file at run time, a frozen app
(PyInstaller) or a zip of bytecode imports the SDK too.

Only ``from module import name [as alias]`` statements count; anything else in the block
(a bare annotation, ``import x``) is for type checkers alone.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["attach", "name_by_home", "read_homes"]


def name_by_home(namespace: Mapping[str, Any], home: str) -> None:
    """Name each class in ``namespace``'s ``__all__`` by ``home``, the public module that
    exports it (``xswap_sdk.routing.models``): a repr of the class, a traceback, pickle and
    the API reference then find it where users import it from.

    Called at the end of a private module that a lazy public module exports from: each
    class's fields were resolved there, in its own module, when the class was made.
    """
    for name in namespace["__all__"]:
        value = namespace[name]
        if isinstance(value, type):
            value.__module__ = home


def attach(
    package: str, homes: Mapping[str, tuple[str, str | None]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` for the package named ``package``.

    Args:
        package: the package's ``__name__`` (or a lazy module's, whose table is relative
            to the package it is in).
        homes: ``{name: (module, attribute)}``, the package's ``_HOMES`` table: where each
            lazy name lives (``attribute`` is ``None`` for a submodule).
    """

    def load(name: str) -> Any:
        try:
            module_name, attribute = homes[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        # Relative to the package a module is in (``__package__``): the package itself,
        # or, for a lazy module such as ``xswap_sdk.routing.models``, its parent.
        module = importlib.import_module(module_name, sys.modules[package].__package__)
        value = module if attribute is None else getattr(module, attribute)
        # Cached in the package, so this runs once per name.
        setattr(sys.modules[package], name, value)
        return value

    def names() -> list[str]:
        return sorted({*vars(sys.modules[package]), *sys.modules[package].__all__})

    return load, names


def read_homes(source: Path) -> dict[str, tuple[str, str | None]]:
    """``{name: (module, attribute)}`` from the ``if TYPE_CHECKING:`` imports in
    ``source``; ``attribute`` is ``None`` for a submodule (``from . import errors``)."""
    import ast  # only on a package's first lazy name: most programs never need it

    homes: dict[str, tuple[str, str | None]] = {}
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if not (isinstance(node, ast.If) and _is_type_checking(node.test)):
            continue
        for statement in node.body:
            if not isinstance(statement, ast.ImportFrom):
                continue
            module = "." * statement.level + (statement.module or "")
            for alias in statement.names:
                if statement.module is None:  # ``from . import errors``: a submodule
                    homes[alias.asname or alias.name] = (module + alias.name, None)
                else:
                    homes[alias.asname or alias.name] = (module, alias.name)
    return homes


def _is_type_checking(test: object) -> bool:
    import ast

    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )
