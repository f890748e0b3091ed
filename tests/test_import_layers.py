"""The package's import layers (pyproject.toml's [tool.importlinter], docs/architecture.md's
"Layers"): the contracts hold, and no import of the SDK's own modules hides in a function
unless it says why (``# lazy: ...``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import xswap_sdk

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(xswap_sdk.__file__).parent


def test_the_import_contracts_hold() -> None:
    pytest.importorskip("importlinter.cli", reason="import-linter is in the dev extra")
    # In a process of its own: import-linter configures logging (dictConfig), which would
    # disable the SDK's loggers for the tests that run after this one.
    run = (
        "import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True))"
    )
    done = subprocess.run(
        [sys.executable, "-c", run, str(ROOT / "pyproject.toml")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _own(node: ast.Import | ast.ImportFrom) -> bool:
    """Whether ``node`` imports a module of the SDK."""
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").startswith("xswap_sdk")
    return any(alias.name.startswith("xswap_sdk") for alias in node.names)


def _unmarked(path: Path) -> list[str]:
    """The SDK imports inside a function of ``path`` with no ``# lazy:`` comment: on the
    line, or on the line above the run of imports it belongs to."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[str] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                continue  # for type checkers only: never runs
            if isinstance(child, ast.Import | ast.ImportFrom):
                if in_function and _own(child):
                    above = child.lineno - 2
                    while above >= 0 and lines[above].strip().startswith(("from ", "import ")):
                        above -= 1
                    marked = "# lazy:" in lines[child.lineno - 1] or (
                        above >= 0 and lines[above].strip().startswith("# lazy:")
                    )
                    if not marked:
                        where = path.relative_to(PACKAGE.parent)
                        found.append(f"{where}:{child.lineno}: {ast.unparse(child)}")
                continue
            function = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, in_function or function)

    visit(ast.parse("\n".join(lines)), in_function=False)
    return found


def test_an_import_of_the_sdk_inside_a_function_says_why() -> None:
    # A cycle cannot hide in a function (lint-imports counts those imports too); what
    # stays in one keeps a first import cheap, and says so: `# lazy: <what it defers>`.
    unmarked = [line for path in sorted(PACKAGE.rglob("*.py")) for line in _unmarked(path)]
    assert unmarked == []
