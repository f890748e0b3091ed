"""Calling the journal from a driver: directly in a blocking client, off the event loop
in an async one (a journal write waits for the disk, or a database, and must not hold up
every other task of the loop)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["async_journal_call", "journal_call"]

T = TypeVar("T")


def journal_call(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``call(*args, **kwargs)``: a blocking client's journal call."""
    return call(*args, **kwargs)


async def async_journal_call(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``call(*args, **kwargs)`` in a worker thread: an async client's journal call."""
    import asyncio  # here: a program that never journals from async code does not load it

    return await asyncio.to_thread(call, *args, **kwargs)
