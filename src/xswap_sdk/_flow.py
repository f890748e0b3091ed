"""Multi-step flows written once, run by a blocking or an async driver.

A flow is a generator that yields steps — `Call` ("send this operation") or `Sleep`
("wait this long") — and returns its result. The transport's ``run`` drives it: it
sends each call and resumes the flow with the result, or throws the SDK error into it so
the flow can decide (a 404 while polling means "not visible yet"). This is how polling,
login and swap orchestration serve both clients without ``asyncio.run``, which would
break inside Jupyter's running event loop.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeAlias, TypeVar

from ._operation import Operation

__all__ = ["Begin", "Call", "Chain", "Flow", "Record", "Sleep"]

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


@dataclass(frozen=True, slots=True)
class Begin:
    """Step: this flow is a money journey of ``kind``, started with ``data`` (plain
    values, no secret). The driver resumes the flow with the journey's id in the
    client's journal, or ``None`` without one. ``resume`` continues that journey
    instead of starting one.

    Within a journey the driver writes each money-moving (non-idempotent) call's exact
    body before sending it and its answer after, and reports every step to ``on_step``.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    resume: str | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """Step: write ``step`` with ``status`` and ``data`` to the journey (see `Begin`) and
    report it; a no-op outside a journey. ``state`` sets the journey's state too."""

    step: str
    status: str = "ok"
    data: Mapping[str, Any] = field(default_factory=dict)
    state: str | None = None


@dataclass(frozen=True, slots=True)
class Chain:
    """Step: chain I/O (a web3 read or send). The driver calls ``call`` and resumes the
    flow with its result (the async driver awaits what ``call`` returns): the flow is
    written once, and its client method hands it the async or the blocking web3
    helpers. An SDK error is thrown back into the flow, like a `Call`'s; any other
    propagates (a crash, for the journal: the journey stays ``running``)."""

    call: Callable[[], Any]


Step: TypeAlias = Call[Any] | Sleep | Begin | Record | Chain
Flow: TypeAlias = Generator[Step, Any, R]
