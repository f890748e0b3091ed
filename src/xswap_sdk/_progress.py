"""``progress=True``: one line per journey step on stderr, for scripts and notebooks."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from .journal import StepEvent, StepHook


__all__ = ["ProgressPrinter", "progress_line", "with_progress"]

# What a line says about a status, beyond its name.
_SENT: dict[str, str] = {
    "not_sent": "nothing was sent",
    "outcome_unknown": "may have been sent: check before trying again",
    "sent": "it was sent: do not send it again",
    "diverged": "the journal and the flow disagree: nothing was sent",
}


def progress_line(event: StepEvent) -> str:
    """The line printed for ``event``: the journey, the step, and what matters of it."""
    short = (event.journey_id or "-")[:8]
    text = f"[{event.kind} {short}] {event.step}"
    if event.status == "sending":
        doing = {"paid": "paying", "broadcast": "broadcasting"}.get(event.step, "submitting")
        text = f"[{event.kind} {short}] {doing}..."
    elif event.status not in ("ok", "started"):
        text += f" ({_SENT.get(event.status, event.status)})"
    expected = event.data.get("expected_seconds")
    elapsed = event.data.get("elapsed_seconds")
    if isinstance(elapsed, int | float) and isinstance(expected, int | float):
        text += f": {elapsed:g} s, usually about {expected:g} s; {event.data.get('next', '')}"
    elif isinstance(expected, int | float):
        text += f", usually about {expected:g} s"
    if event.step in ("needs_attention", "interrupted") and event.journey_id:
        text += f"; see `xswap journeys`, then `xswap resume {event.journey_id}`"
    return text


class ProgressPrinter:
    """An ``on_step`` hook printing `progress_line` to ``stream`` (stderr by default)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream

    def __call__(self, event: StepEvent) -> None:
        stream = self._stream or sys.stderr
        print(progress_line(event), file=stream, flush=True)


def with_progress(on_step: StepHook | None) -> StepHook:
    """``on_step`` with the progress display in front (or the display alone)."""
    printer = ProgressPrinter()
    if on_step is None:
        return printer
    hook = on_step

    def both(event: StepEvent) -> object:
        printer(event)
        return hook(event)

    return both
