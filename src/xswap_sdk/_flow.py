"""Multi-step flows written once, run by a blocking or an async driver.

A flow is a generator that yields steps — `Call` ("send this operation") or `Sleep`
("wait this long") — and returns its result. The driver sends each call through the
client's transport and resumes the flow with the result, or throws the SDK error into
it so the flow can decide (a 404 while polling means "not visible yet"). This is how
polling, login and swap orchestration serve both clients without ``asyncio.run``, which
would break inside Jupyter's running event loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, TypeVar

from ._clock import Clock
from ._operation import Operation
from .errors import XSwapError

__all__ = ["Call", "Flow", "Sleep", "run_async", "run_sync"]

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Call(Generic[T]):
    """Step: send ``operation`` and resume the flow with its parsed result."""

    operation: Operation[T]


@dataclass(frozen=True, slots=True)
class Sleep:
    """Step: wait ``seconds`` on the client's clock."""

    seconds: float


Step: TypeAlias = Call[Any] | Sleep
Flow: TypeAlias = Generator[Step, Any, R]


def run_sync(flow: Flow[R], send: Callable[[Operation[Any]], Any], clock: Clock) -> R:
    """Drive ``flow`` to completion, blocking."""
    result: Any = None
    error: XSwapError | None = None
    try:
        while True:
            try:
                step = flow.send(result) if error is None else flow.throw(error)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
            result, error = None, None
            if isinstance(step, Sleep):
                clock.sleep(step.seconds)
                continue
            try:
                result = send(step.operation)
            except XSwapError as exc:
                error = exc
    finally:
        flow.close()


async def run_async(
    flow: Flow[R], send: Callable[[Operation[Any]], Awaitable[Any]], clock: Clock
) -> R:
    """Drive ``flow`` to completion in the running event loop."""
    result: Any = None
    error: XSwapError | None = None
    try:
        while True:
            try:
                step = flow.send(result) if error is None else flow.throw(error)
            except StopIteration as stop:
                return stop.value  # type: ignore[no-any-return]
            result, error = None, None
            if isinstance(step, Sleep):
                await clock.asleep(step.seconds)
                continue
            try:
                result = await send(step.operation)
            except XSwapError as exc:
                error = exc
    finally:
        flow.close()
