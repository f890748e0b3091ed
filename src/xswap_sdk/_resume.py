"""Resume a journey from the journal, written once as a flow.

Where the journey stopped decides what is safe (see ``docs/journeys.md``):

- it has the service's answer to its money-moving request: continue from the answer
  (follow the swap in the history, poll the status, return the attestation);
- its request was signed but the journal never reached ``submitted/sending``, or the
  transport recorded that it never left (``not_sent``): send the exact journaled bytes;
- it reached ``sending`` with no answer (or an x402 payment was signed): the request
  may have arrived. Ask the service when it can tell (``check``); when it cannot, the
  journey is marked ``needs_attention`` and nothing is sent;
- nothing was signed yet: the journey is run again from its start (``restart``), when
  the kind can, else it ends ``failed`` (nothing was sent, nothing is at stake).

Nothing is ever signed again for a step already signed: a resend is the journaled
payload, byte for byte.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import httpx

from ._flow import Begin, Call, Flow, Record
from ._journey import OWNER
from ._operation import Operation
from ._options import NOT_GIVEN
from .errors import InvalidInputError
from .journal import PRIVATE_KEY_ENV, Journal, JournalStep, Journey, ResumeResult

__all__ = [
    "Position",
    "ResumeSpec",
    "env_signer",
    "finish",
    "load",
    "position",
    "resend",
    "resume",
    "running_elsewhere",
]

T = TypeVar("T")

DONE_STATES = ("completed", "failed")


@dataclass(frozen=True, slots=True)
class Position:
    """Where a journey stopped, read from its steps.

    Attributes:
        request: the signed request (method, path, params, body), if any.
        sending: the last ``submitted/sending`` step, if any.
        answer: the service's answer to the request, if it was written.
        never_arrived: the last send failed before the request left this machine.
        paid: an x402 payment was signed for the request.
    """

    request: Mapping[str, Any] | None
    sending: JournalStep | None
    answer: Any
    never_arrived: bool
    paid: bool


def position(journey: Journey) -> Position:
    """Read where ``journey`` stopped."""
    signed = journey.last("signed")
    request: Mapping[str, Any] | None = signed.data if signed is not None else None
    if request is None and "body" in journey.arguments:
        request = journey.arguments
    sending: JournalStep | None = None
    answer: Any = None
    never_arrived = False
    paid = False
    for step in journey.steps:
        if step.step == "paid":
            paid = True
        if step.step != "submitted":
            continue
        if step.status == "sending":
            sending, never_arrived = step, False
        elif step.status == "ok":
            answer = step.data.get("answer")
        elif step.status == "not_sent":
            never_arrived = True
    return Position(request, sending, answer, never_arrived, paid)


def resend(
    request: Mapping[str, Any],
    parse: Callable[[Any], T],
    *,
    auth: Any = "optional",
    timeout: httpx.Timeout | None = None,
    priced: bool = False,
) -> Operation[T]:
    """The journaled request again: same method, path, query and body (never retried
    once sent; its signatures kept out of errors); ``priced`` as the original operation
    was (`Operation.priced`: a relayer submission)."""
    body = request.get("body")
    signatures = tuple(_signatures(body))
    return Operation(
        str(request["method"]),
        str(request["path"]),
        parse,
        params=[(str(k), str(v)) for k, v in request.get("params") or []] or None,
        json=body,
        idempotent=False,
        auth=auth,
        timeout=NOT_GIVEN if timeout is None else timeout,
        secrets=signatures,
        priced=priced,
    )


def _signatures(value: Any) -> list[str]:
    found: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key == "signature" and isinstance(item, str):
                found.append(item)
            else:
                found.extend(_signatures(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_signatures(item))
    return found


@dataclass(frozen=True, slots=True)
class ResumeSpec(Generic[T]):
    """What one kind of journey needs to be resumed.

    Attributes:
        resend: the operation that sends the journaled request again.
        follow: the rest of the journey from the service's answer; returns its result.
        check: asks the service whether a request that may have arrived did, and
            returns its answer (or ``None`` when it cannot tell).
        restart: the whole journey run again, for one interrupted before it signed.
    """

    resend: Callable[[Mapping[str, Any]], Operation[Any]]
    follow: Callable[[Any], Flow[T]]
    check: Callable[[Position], Flow[Any]] | None = None
    restart: Callable[[], Flow[T]] | None = None


def load(
    journal: Journal | None, journey_id: object, kinds: tuple[str, ...], *, force: bool = False
) -> Journey:
    """The journey to resume, checked before any I/O.

    Raises:
        InvalidInputError: no journal, no such journey, one this client cannot resume, or
            one still run by a live process of this host (unless ``force``).
    """
    if not isinstance(force, bool):
        raise InvalidInputError("force", "must be True or False")
    if journal is None:
        raise InvalidInputError(
            "journal",
            "resume needs the journal the journey was written to (journal= or XSWAP_JOURNAL)",
        )
    if not isinstance(journey_id, str) or not journey_id:
        raise InvalidInputError("journey_id", "must be a journey id from the journal")
    journey = journal.journey(journey_id)
    if journey is None:
        raise InvalidInputError("journey_id", f"no journey {journey_id} in the journal")
    if journey.kind not in kinds:
        raise InvalidInputError(
            "journey_id",
            f"is a {journey.kind} journey; this client resumes {', '.join(kinds)} journeys",
        )
    pid = running_elsewhere(journey)
    if pid is not None and not force:
        # Resuming a journey its own process is still running could send its request
        # twice (both would send the journaled bytes).
        raise InvalidInputError(
            "journey_id",
            f"journey {journey.id} is still being run by process {pid} on this host; "
            "wait for it, or pass force=True (--force) if that process is not this journey's",
        )
    return journey


def running_elsewhere(journey: Journey) -> int | None:
    """The pid of another live process of this host that owns ``journey`` (the last to
    start or resume it), or ``None``."""
    if journey.state in DONE_STATES:
        return None
    found: Mapping[str, Any] | None = None
    for step in journey.steps:
        if isinstance(step.data.get(OWNER), Mapping):
            found = step.data[OWNER]
    if found is None or found.get("host") != socket.gethostname():
        return None
    pid = found.get("pid")
    if not isinstance(pid, int) or pid == os.getpid():
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return pid  # alive, another user's
    except OSError:
        return None
    return pid


def resume(journey: Journey, spec: ResumeSpec[Any]) -> Flow[Any]:
    """Resume ``journey`` by the rules of the module docstring; ``None`` when it ended
    without a result (it needs attention, or failed with nothing sent)."""
    if journey.state in DONE_STATES:
        return None
    where = position(journey)
    if where.request is None:
        if spec.restart is not None:
            return (yield from spec.restart())
        yield Begin(journey.kind, {"from": journey.state}, resume=journey.id)
        yield Record(
            "failed",
            "not_sent",
            {"reason": "stopped before anything was signed or sent; nothing is at stake"},
            state="failed",
        )
        return None
    yield Begin(journey.kind, {"from": journey.state}, resume=journey.id)
    answer = where.answer
    if answer is None:
        if (where.sending is None or where.never_arrived) and not where.paid:
            answer = yield Call(spec.resend(where.request))
        else:
            if spec.check is not None:
                answer = yield from spec.check(where)
            if answer is None:
                yield Record(
                    "needs_attention",
                    "outcome_unknown",
                    {
                        "reason": "the request may have reached the service and it cannot "
                        "say whether it did; nothing was sent again",
                        "next": "check the service (history, status, balance) by hand",
                    },
                    state="needs_attention",
                )
                return None
    return (yield from spec.follow(answer))


def env_signer() -> Any:
    """A signer from ``XSWAP_PRIVATE_KEY`` (an eth_account account), or ``None``."""
    if not os.environ.get(PRIVATE_KEY_ENV):
        return None
    from eth_account import Account

    try:
        return Account.from_key(os.environ[PRIVATE_KEY_ENV])
    except Exception:  # eth_account raises several kinds; never echo the value
        raise InvalidInputError(PRIVATE_KEY_ENV, "must be a 0x hex private key") from None


def finish(journal: Journal | None, journey: Journey, result: Any) -> ResumeResult:
    """The `ResumeResult` of a resume that returned ``result``."""
    assert journal is not None
    return ResumeResult(journal.journey(journey.id) or journey, result)
