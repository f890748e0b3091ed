"""Calling the journal from a driver: directly in a blocking client; in an async one,
awaited on the loop when the journal is an `xswap_sdk.journal.AsyncJournal` (its
``a``-prefixed coroutine: ``journal.append`` becomes ``await journal.aappend``), else in
a worker thread. Either way a journal write, which waits for the disk or a database,
never holds up the other tasks of the loop.

The driver hands its writes over as a bound method of the journal, or a
`functools.partial` of one (a run's pending rows), so that the coroutine can be found.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

__all__ = ["async_journal_call", "journal_call", "native"]

T = TypeVar("T")


def journal_call(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``call(*args, **kwargs)``: a blocking client's journal call."""
    return call(*args, **kwargs)


def native(call: Callable[..., T], *args: Any, **kwargs: Any) -> Awaitable[T] | None:
    """The awaitable of the journal's own coroutine for ``call(*args, **kwargs)``: when
    ``call`` is a journal's method (or a partial of one) and the journal has it
    ``a``-prefixed; else ``None``."""
    while isinstance(call, functools.partial):
        args = (*call.args, *args)
        kwargs = {**call.keywords, **kwargs}
        call = call.func
    journal = getattr(call, "__self__", None)
    name = getattr(call, "__name__", None)
    if journal is None or not isinstance(name, str) or name.startswith("_"):
        return None
    coroutine = getattr(journal, "a" + name, None)
    import inspect

    if coroutine is None or not inspect.iscoroutinefunction(coroutine):
        return None
    return cast("Awaitable[T]", coroutine(*args, **kwargs))


async def async_journal_call(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``call(*args, **kwargs)`` for an async client: the journal's coroutine awaited
    when it has one (see `native`), else the call in a worker thread."""
    awaitable = native(call, *args, **kwargs)
    if awaitable is not None:
        return await awaitable
    import asyncio  # here: a program that never journals from async code does not load it

    return await asyncio.to_thread(call, *args, **kwargs)
