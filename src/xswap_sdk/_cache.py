"""A service's chain list, kept by the client for a few minutes.

Chain lists change rarely, yet the SDK needs them on many calls (is a chain
supported? which routing contract may a gasless permit name?). Each client keeps the
last list it read, per base URL, for ``ttl`` seconds of its clock; a method given
``refresh=True`` reads it again. ``with_options`` copies share the cache, and since
entries are keyed by base URL, a copy pointed at another deployment never sees this
one's list.

The read is written as a flow step, so that both clients and the multi-step flows (the
gasless swap) share one cache and one rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from ._clock import Clock
from ._flow import Call, Flow
from ._operation import Operation
from ._record import Frozen
from .errors import InvalidInputError

__all__ = ["DEFAULT_CHAIN_LIST_TTL", "ChainListCache", "check_ttl"]

T = TypeVar("T")

DEFAULT_CHAIN_LIST_TTL: Final = 300.0
"""Seconds a client keeps a service's chain list (5 minutes): long enough that a busy
program reads it rarely, short enough that a chain the service adds or disables is seen
soon."""


def check_ttl(value: object, *, argument: str = "chain_list_ttl") -> float:
    """Validate a cache lifetime: finite, non-negative seconds (0 keeps nothing).

    Raises:
        InvalidInputError: not a finite number of seconds from 0 up.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(argument, "must be a number of seconds (0 to keep nothing)")
    if not math.isfinite(value) or value < 0:
        raise InvalidInputError(argument, "must be finite and not negative (0 keeps nothing)")
    return float(value)


@dataclass(init=False, repr=False, eq=False, slots=True)
class _Entry(Frozen, Generic[T]):
    expires_at: float
    chains: tuple[T, ...]

    def __init__(self, expires_at: float, chains: tuple[T, ...]) -> None:
        object.__setattr__(self, "expires_at", expires_at)
        object.__setattr__(self, "chains", chains)


class ChainListCache(Generic[T]):
    """One service's chain list per base URL, each kept ``ttl`` seconds.

    Args:
        ttl: seconds an entry stays fresh on the client's clock (0: never kept).
    """

    def __init__(self, ttl: float = DEFAULT_CHAIN_LIST_TTL) -> None:
        self.ttl = check_ttl(ttl)
        self._entries: dict[str, _Entry[T]] = {}

    def fresh(self, key: str, clock: Clock) -> list[T] | None:
        """The list kept for ``key`` if it has not expired, else ``None``."""
        entry = self._entries.get(key)
        if entry is None or clock.monotonic() >= entry.expires_at:
            return None
        return list(entry.chains)

    def read(
        self, key: str, operation: Operation[list[T]], *, clock: Clock, refresh: bool = False
    ) -> Flow[list[T]]:
        """A flow step: the kept list for ``key``, or ``operation``'s answer (then kept).

        Args:
            key: the service's base URL.
            operation: the request that reads the chain list.
            clock: the client's clock, which measures the lifetime.
            refresh: read again even if a fresh list is kept.
        """
        if not isinstance(refresh, bool):
            raise InvalidInputError("refresh", "must be True or False")
        kept = None if refresh else self.fresh(key, clock)
        if kept is not None:
            return kept
        chains: list[T] = yield Call(operation)
        if self.ttl > 0:
            self._entries[key] = _Entry(clock.monotonic() + self.ttl, tuple(chains))
        return list(chains)

    def clear(self) -> None:
        """Forget every kept list."""
        self._entries.clear()

    def __repr__(self) -> str:
        return f"ChainListCache(ttl={self.ttl:g}, entries={len(self._entries)})"
