"""What the three emulated services share: the clock, the seeded randomness, and
records whose state is a function of time.

Every id, hash and price wobble comes from one `random.Random(seed)`, so a sandbox
given the same seed and the same requests answers the same bytes. Timestamps come from
the clock. A record does not change by itself: it holds a `Timeline` of what happens
when, and is read at the current time, so a `VirtualClock` moved forward by a client's
polling sleep is all it takes for a transaction to execute.
"""

from __future__ import annotations

import random
import uuid
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from .._clock import Clock

__all__ = ["OutcomeQueue", "Timeline", "World"]

T = TypeVar("T")


class World:
    """The shared clock and the seeded source of ids, hashes and wobbles.

    Args:
        seed: seeds every random choice.
        clock: the time source.
    """

    def __init__(self, seed: int, clock: Clock) -> None:
        self.seed = seed
        self.clock = clock
        self.rng: random.Random = random.Random(seed)

    def now(self) -> float:
        """The current Unix time on the clock."""
        return self.clock.time()

    def hex(self, nbytes: int) -> str:
        """``nbytes`` random bytes as lowercase hex, without ``0x``."""
        return self.rng.randbytes(nbytes).hex()

    def tx_hash(self) -> str:
        """A random 32-byte transaction hash, ``0x`` + 64 hex digits."""
        return "0x" + self.hex(32)

    def uuid(self) -> str:
        """A random version-4 UUID string."""
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def wobble(self, spread: float) -> float:
        """A factor in ``[1 - spread, 1 + spread]``: how much a price moved."""
        return 1.0 + self.rng.uniform(-spread, spread)


def iso(timestamp: float) -> str:
    """A Unix time as ISO 8601 UTC with milliseconds (``2025-01-01T00:00:00.000Z``)."""
    moment = datetime.fromtimestamp(timestamp, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


@dataclass
class Timeline:
    """What a record's fields become, and when.

    Each phase is a start time and the fields that change then; reading the timeline at
    a time merges every phase that has started.
    """

    phases: list[tuple[float, dict[str, Any]]] = field(default_factory=list)

    def then(self, at: float, **changes: Any) -> Timeline:
        """Add a phase (kept in time order); returns the timeline for chaining."""
        self.phases.append((at, changes))
        self.phases.sort(key=lambda phase: phase[0])
        return self

    def at(self, moment: float) -> dict[str, Any]:
        """The fields as they stand at ``moment``."""
        state: dict[str, Any] = {}
        for start, changes in self.phases:
            if start > moment:
                break
            state.update(changes)
        return state

    def changed_at(self, moment: float) -> float:
        """When the fields last changed, as seen at ``moment``."""
        return max((start for start, _ in self.phases if start <= moment), default=0.0)

    def cut(self, moment: float, **changes: Any) -> None:
        """From ``moment`` on, drop every later phase and apply ``changes`` instead."""
        self.phases = [phase for phase in self.phases if phase[0] <= moment]
        self.then(moment, **changes)

    @property
    def settles_at(self) -> float:
        """When the last phase starts: after it, nothing changes."""
        return self.phases[-1][0] if self.phases else 0.0


class OutcomeQueue(Generic[T]):
    """Scripted outcomes for the next records a service creates ("fail the next
    two"), taken in order; an optional label restricts one to matching records."""

    def __init__(self) -> None:
        self._queue: deque[tuple[T, str | None]] = deque()

    def push(self, outcome: T, count: int, label: str | None = None) -> None:
        """Script ``outcome`` for the next ``count`` matching records."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError("count must be a positive int")
        self._queue.extend([(outcome, label)] * count)

    def take(self, label: str | None = None) -> T | None:
        """The first scripted outcome that applies to a record labelled ``label``."""
        for index, (outcome, wanted) in enumerate(self._queue):
            if wanted is None or wanted == label:
                del self._queue[index]
                return outcome
        return None

    def clear(self) -> None:
        """Forget every scripted outcome."""
        self._queue.clear()

    def __len__(self) -> int:
        return len(self._queue)
