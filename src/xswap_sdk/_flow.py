"""Multi-step flows written once, run by a blocking or an async driver.

A flow is a generator that yields steps — `Call` ("send this operation") or `Sleep`
("wait this long") — and returns its result. The transport's ``run`` drives it: it
sends each call and resumes the flow with the result, or throws the SDK error into it so
the flow can decide (a 404 while polling means "not visible yet"). This is how polling,
login and swap orchestration serve both clients without ``asyncio.run``, which would
break inside Jupyter's running event loop.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Generic, TypeAlias, TypeVar

from ._operation import Operation

__all__ = ["Call", "Flow", "Sleep"]

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Call(Generic[T]):
    """Step: send ``operation`` and resume the flow with its parsed result.

    ``until`` is a clock time (``monotonic``) the request must end by, retries and
    ``Retry-After`` waits included: a wait's own deadline, which no answer extends.
    """

    operation: Operation[T]
    until: float | None = None


@dataclass(frozen=True, slots=True)
class Sleep:
    """Step: wait ``seconds`` on the client's clock."""

    seconds: float


Step: TypeAlias = Call[Any] | Sleep
Flow: TypeAlias = Generator[Step, Any, R]
