"""The version and the changelog agree: ``_version.py`` names the newest release the
changelog records.

A release heading is ``## [0.2.0] - 2026-11-25`` (Keep a Changelog, which the changelog
follows), ``## [0.2.0]`` or ``## 0.2.0``; ``## Unreleased`` is not one.
"""

from __future__ import annotations

import re
from pathlib import Path

import xswap_sdk

CHANGELOG = Path(__file__).resolve().parents[1] / "CHANGELOG.md"
RELEASE = re.compile(
    r"^## \[?(?P<version>\d+\.\d+\.\d+(?:[-.+][0-9A-Za-z.]+)?)\]?(?: - \d{4}-\d{2}-\d{2})?$",
    re.MULTILINE,
)


def released(text: str) -> list[str]:
    """The versions of the release headings, newest (first) first."""
    return [match["version"] for match in RELEASE.finditer(text)]


def test_the_version_is_the_newest_release_of_the_changelog() -> None:
    versions = released(CHANGELOG.read_text())
    assert versions, "CHANGELOG.md has no release heading such as '## [0.2.0] - 2026-11-25'"
    assert versions[0] == xswap_sdk.__version__


def test_release_headings_are_recognised_and_unreleased_is_not() -> None:
    text = "## Unreleased\n\n## [0.3.0] - 2027-01-02\n\n## [0.2.0]\n\n## 0.1.0\n"
    assert released(text) == ["0.3.0", "0.2.0", "0.1.0"]
    assert released("## Unreleased\n## [0.2.0] (draft)\n") == []
