"""Time, behind one small seam.

Retries, polling and expiry checks read the time and sleep through a `Clock`, so the
sandbox and tests can move time forward instead of waiting for it.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol, runtime_checkable

__all__ = ["SYSTEM_CLOCK", "Clock", "SystemClock", "VirtualClock"]


@runtime_checkable
class Clock(Protocol):
    """A source of time that can also wait, blocking or not."""

    def monotonic(self) -> float:
        """Seconds on a clock that never goes backwards (for timeouts)."""
        ...

    def time(self) -> float:
        """Seconds since the Unix epoch (for expiry timestamps)."""
        ...

    def sleep(self, seconds: float) -> None:
        """Block the calling thread for ``seconds``."""
        ...

    async def asleep(self, seconds: float) -> None:
        """Suspend the calling task for ``seconds``."""
        ...


class SystemClock:
    """The real clock: `time.monotonic`, `time.time`, `time.sleep`, `asyncio.sleep`."""

    def monotonic(self) -> float:
        """Seconds from `time.monotonic`."""
        return time.monotonic()

    def time(self) -> float:
        """Seconds from `time.time`."""
        return time.time()

    def sleep(self, seconds: float) -> None:
        """Block with `time.sleep`."""
        time.sleep(seconds)

    async def asleep(self, seconds: float) -> None:
        """Suspend with `asyncio.sleep`."""
        import asyncio  # here: a blocking program never pays for importing it

        await asyncio.sleep(seconds)

    def __repr__(self) -> str:
        return "SystemClock()"


SYSTEM_CLOCK = SystemClock()


class VirtualClock:
    """A clock that moves only when slept on or advanced: waits cost no real time.

    Give the same instance to a client and to the `xswap_sdk.sandbox` emulator, and a
    client that polls for a relayed transaction moves the emulator's time forward with
    each sleep. ``sleeps`` records every wait, for assertions.

    Args:
        start: the starting Unix time (default 2025-01-01T00:00:00Z).
    """

    def __init__(self, start: float = 1_735_689_600.0) -> None:
        self._start = start
        self._elapsed = 0.0
        self._lock = threading.Lock()
        self.sleeps: list[float] = []
        """Every wait asked of this clock, in seconds, in order (``sleep`` and ``asleep``)."""

    def monotonic(self) -> float:
        """Seconds elapsed since the clock was created."""
        return self._elapsed

    def time(self) -> float:
        """The virtual Unix time."""
        return self._start + self._elapsed

    def advance(self, seconds: float) -> None:
        """Move time forward without recording a sleep."""
        if seconds < 0:
            raise ValueError("a clock cannot go backwards")
        with self._lock:
            self._elapsed += seconds

    def sleep(self, seconds: float) -> None:
        """Record the wait and move time forward at once."""
        with self._lock:
            self.sleeps.append(seconds)
            self._elapsed += max(0.0, seconds)

    async def asleep(self, seconds: float) -> None:
        """Record the wait, move time forward, and let other tasks run."""
        import asyncio

        self.sleep(seconds)
        await asyncio.sleep(0)

    def __repr__(self) -> str:
        return f"VirtualClock(time={self.time():.3f})"
