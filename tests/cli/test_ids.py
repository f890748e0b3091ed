"""Journey ids as people type them (``_cli._ids``): the 8-character prefix progress lines
print, accepted when exactly one journey starts with it; errors name ``ID``."""

from __future__ import annotations

import pytest

from xswap_sdk import errors
from xswap_sdk._cli._ids import MIN_PREFIX, ids_or_all, resolve_id

IDS = [
    "3f9b2a6e4c1d4e8f9a7b2d5c6e1f0a9b",
    "3f9b2a6e77777777777777777777777a",
    "9c1e0d2a8b3f4e5d6c7b8a9f0e1d2c3b",
]


def test_a_whole_id_or_an_unambiguous_prefix_of_8_or_more_characters() -> None:
    assert MIN_PREFIX == 8
    assert resolve_id(IDS[2], IDS) == IDS[2]
    assert resolve_id("9c1e0d2a", IDS) == IDS[2]  # what a progress line prints
    assert resolve_id("9C1E0D2A8B", IDS) == IDS[2]  # case aside
    assert resolve_id("3f9b2a6e4", IDS) == IDS[0]  # one more character tells them apart


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("9c1e0d2", "'9c1e0d2' is too short: give the whole journey id or at least its first 8"),
        ("3f9b2a6e", "3f9b2a6e starts 2 journeys of j.db (3f9b2a6e4c1d"),
        ("deadbeef", "no journey deadbeef in j.db"),
        ("", "is too short"),
    ],
)
def test_what_is_not_one_journey_is_a_usage_error_naming_ID(given: str, says: str) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        resolve_id(given, IDS, where="j.db")
    assert info.value.argument == "ID"
    assert says in info.value.rule


def test_a_long_ambiguous_list_is_cut() -> None:
    many = [f"abcdef01{n:024x}" for n in range(9)]
    with pytest.raises(errors.InvalidInputError, match=r"starts 9 journeys .*, \.\.\.\)"):
        resolve_id("abcdef01", many)


def test_ids_or_all_says_which_was_wrong() -> None:
    ids_or_all(["9c1e0d2a"], False)
    ids_or_all([], True)
    with pytest.raises(errors.InvalidInputError, match="ID: cannot be given with --all"):
        ids_or_all(["9c1e0d2a"], True)
    with pytest.raises(errors.InvalidInputError, match="ID: is needed: give journey ids") as info:
        ids_or_all([], False)
    assert "not both" not in str(info.value)
