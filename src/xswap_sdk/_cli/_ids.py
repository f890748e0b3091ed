"""Journey ids as people type them: the 8-character prefix progress lines print
(``[3f9b2a6e] swap: signed``), or more, or the whole id, matched against a journal's
ids only when exactly one starts with it; and ``resume``'s choice between ids and
``--all``. Errors name the command line's ``ID`` (exit status 2)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ..errors import InvalidInputError

__all__ = ["MIN_PREFIX", "ids_or_all", "resolve_id"]

MIN_PREFIX: Final = 8
"""The fewest characters of a journey id accepted: what progress lines print."""

_SHOWN: Final = 5  # ids listed in an "ambiguous" error, at most


def resolve_id(given: str, known: Iterable[str], *, where: str = "the journal") -> str:
    """The one id of ``known`` that is ``given`` or starts with it (case aside).

    Args:
        given: an id as typed: whole, or its first `MIN_PREFIX` or more characters.
        known: every journey id of the journal.
        where: the journal, as the error should name it (its path).

    Raises:
        InvalidInputError: (argument ``ID``) shorter than `MIN_PREFIX` characters and
            not a whole id; no id starts with it; or several do (they are listed).
    """
    ids = list(known)
    wanted = given.strip().lower()
    exact = [journey_id for journey_id in ids if journey_id.lower() == wanted]
    if exact:
        return exact[0]
    if len(wanted) < MIN_PREFIX:
        raise InvalidInputError(
            "ID",
            f"{given!r} is too short: give the whole journey id or at least its first "
            f"{MIN_PREFIX} characters (as progress lines print it; xswap journeys lists them)",
        )
    found = [journey_id for journey_id in ids if journey_id.lower().startswith(wanted)]
    if not found:
        raise InvalidInputError("ID", f"no journey {given} in {where} (xswap journeys lists them)")
    if len(found) > 1:
        listed = ", ".join(found[:_SHOWN]) + (", ..." if len(found) > _SHOWN else "")
        raise InvalidInputError(
            "ID",
            f"{given} starts {len(found)} journeys of {where} ({listed}): give more of it",
        )
    return found[0]


def ids_or_all(ids: Sequence[str], all_: bool) -> None:
    """Check ``resume``'s choice: journey ids, or ``--all``; exactly one of the two.

    Raises:
        InvalidInputError: both (argument ``ID``), or neither.
    """
    if ids and all_:
        raise InvalidInputError(
            "ID", "cannot be given with --all: give journey ids, or --all for every running one"
        )
    if not ids and not all_:
        raise InvalidInputError(
            "ID", f"is needed: give journey ids (or their first {MIN_PREFIX} characters), or --all"
        )
