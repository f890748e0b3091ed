"""The dependency floors keep out the versions with known advisories."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
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
