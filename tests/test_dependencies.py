"""The dependencies as declared: floors that keep out the versions with known advisories,
and every module the package imports declared (in the base install or an extra)."""

from __future__ import annotations

import ast
import sys
import tomllib
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"

# Versions that must never satisfy the requirements, and why.
VULNERABLE = {
    "h11": ["0.14.0", "0.15.0"],  # CVE-2025-43859: lenient chunked parsing, smuggling
    "httpcore": ["1.0.5", "1.0.8"],  # pins h11 < 0.16
    "httpx": ["0.27.2"],  # allows httpcore releases that pin h11 < 0.16
}


def requirements() -> dict[str, Requirement]:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    parsed = (Requirement(line) for line in project["dependencies"])
    return {req.name.lower(): req for req in parsed}


@pytest.mark.parametrize("name", sorted(VULNERABLE))
def test_vulnerable_versions_are_excluded(name: str) -> None:
    requirement = requirements()[name]
    for bad in VULNERABLE[name]:
        assert not requirement.specifier.contains(bad), f"{name} {bad} is still allowed"


@pytest.mark.parametrize("name", sorted(VULNERABLE))
def test_the_installed_version_meets_the_floor(name: str) -> None:
    assert requirements()[name].specifier.contains(Version(version(name)))


# ---------------------------------------------------------------- imports are declared

SRC = PYPROJECT.parent / "src" / "xswap_sdk"

NOT_DECLARED = {
    "pytest": "the pytest plugin (xswap_sdk.testing.plugin) is loaded only by pytest itself",
    "eth-tester": "imported only when installed (ImportError is caught): web3's test provider",
}
"""Distributions imported but deliberately not declared, and why."""

# Import name -> distribution name, for the ones whose names differ.
DISTRIBUTIONS = {"Crypto": "pycryptodome"}


@dataclass(frozen=True)
class Import:
    """One ``import`` of a third-party module in the package's source."""

    module: str
    file: str
    line: int
    top_level: bool
    """At module level, outside ``if TYPE_CHECKING:`` and ``try: ... except ImportError``:
    run whenever the importing module is."""

    @property
    def distribution(self) -> str:
        top = self.module.split(".")[0]
        return canonicalize_name(DISTRIBUTIONS.get(top, top))


def _guarded(node: ast.AST) -> bool:
    """``if TYPE_CHECKING:`` or a ``try`` that catches ImportError."""
    if isinstance(node, ast.If):
        return "TYPE_CHECKING" in ast.unparse(node.test)
    if isinstance(node, ast.Try):
        return any("ImportError" in ast.unparse(h.type or ast.Name("")) for h in node.handlers)
    return False


def source_imports() -> list[Import]:
    """Every absolute import of a module outside the standard library and the SDK."""
    found: list[Import] = []

    def visit(node: ast.AST, file: str, top_level: bool) -> None:
        for child in ast.iter_child_nodes(node):
            names: list[str] = []
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                names = [child.module]
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "xswap_sdk":
                    found.append(Import(name, file, child.lineno, top_level))
            inner = top_level and not _guarded(child)
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                inner = False
            visit(child, file, inner)

    for path in sorted(SRC.rglob("*.py")):
        visit(ast.parse(path.read_text()), str(path.relative_to(SRC.parent)), True)
    return found


def declared() -> tuple[set[str], dict[str, set[str]]]:
    """The base dependencies, and each extra's (the dev extra left out)."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    base = {canonicalize_name(Requirement(line).name) for line in project["dependencies"]}
    extras = {
        extra: {canonicalize_name(Requirement(line).name) for line in lines}
        for extra, lines in project["optional-dependencies"].items()
        if extra != "dev"
    }
    return base, extras


IMPORTS = source_imports()


def test_the_scan_finds_the_imports() -> None:
    # The scanner sees what is there: guarded, nested and top-level imports alike.
    by_name = {(i.distribution, i.top_level) for i in IMPORTS}
    assert ("httpx", True) in by_name
    assert ("web3", False) in by_name  # inside functions: the web3 extra
    assert ("eth-tester", False) in by_name  # in a try/except ImportError
    assert "cryptography" not in {i.distribution for i in IMPORTS}


def test_every_imported_distribution_is_declared() -> None:
    base, extras = declared()
    everywhere = base.union(*extras.values())
    missing = sorted(
        f"{i.distribution} ({i.file}:{i.line})"
        for i in IMPORTS
        if i.distribution not in everywhere and i.distribution not in NOT_DECLARED
    )
    assert not missing, f"imported but not declared in pyproject.toml: {missing}"


def test_an_extra_s_distribution_is_never_imported_unconditionally() -> None:
    # Importing any module of the package works with the base install: a distribution
    # declared only by an extra is imported inside a function, under TYPE_CHECKING, or
    # where ImportError is caught.
    base, _ = declared()
    unconditional = sorted(
        f"{i.distribution} ({i.file}:{i.line})"
        for i in IMPORTS
        if i.top_level
        and i.distribution not in base
        and not i.file.startswith("xswap_sdk/testing/")  # the pytest plugin
    )
    assert not unconditional, f"not a base dependency, imported at module level: {unconditional}"


def test_the_base_install_does_not_pull_in_cryptography() -> None:
    # 17 MB (with cffi and pycparser) only to verify Gateway webhooks: pycryptodome does
    # it, and eth-account's tree installs it anyway.
    base, _ = declared()
    assert "cryptography" not in base
    assert "pycryptodome" in base
