"""``xswap journeys`` and ``xswap resume``: the money journeys in a journal, and
finishing the interrupted ones (see ``docs/journeys.md``).

The journal is ``--journal PATH``, else ``XSWAP_JOURNAL``. ``resume`` uses the client of
each journey's kind, configured from the usual ``XSWAP_*`` variables, plus
``XSWAP_PRIVATE_KEY`` when a swap still needs a signature. Its exit status is the
worst of the journeys': 0 all completed, 1 one failed, 4 one needs attention (or is
still running: a wait ran out again).
"""

from __future__ import annotations

import argparse
import os
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInputError, XSwapError
from ._app import Command, ExitCode, exit_code_for
from ._output import Output, table

if TYPE_CHECKING:
    from ..journal import Journal, Journey

__all__ = ["JOURNEYS", "RESUME"]

STATE_CODES = {
    "completed": ExitCode.OK,
    "failed": ExitCode.FAILED,
    "needs_attention": ExitCode.UNKNOWN,
    "running": ExitCode.UNKNOWN,
}


def _journal_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal", metavar="PATH", help="the journal's SQLite file (default: $XSWAP_JOURNAL)"
    )


def _open(args: argparse.Namespace) -> tuple[str, Journal]:
    from ..journal import JOURNAL_ENV, SQLiteJournal

    path = args.journal or os.environ.get(JOURNAL_ENV)
    if not path:
        raise InvalidInputError("--journal", f"is needed (or set {JOURNAL_ENV})")
    if not os.path.exists(path):
        raise InvalidInputError("--journal", f"no journal at {path}")
    return path, SQLiteJournal(path)


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M:%S")


def _summary(journey: Journey) -> dict[str, Any]:
    last = journey.steps[-1] if journey.steps else None
    return {
        "id": journey.id,
        "kind": journey.kind,
        "state": journey.state,
        "last_step": None if last is None else f"{last.step}/{last.status}",
        "updated_at": _when(journey.updated_at),
    }


def _journeys(args: argparse.Namespace, out: Output) -> int:
    _, journal = _open(args)
    found = journal.journeys()
    rows = [
        [s["id"], s["kind"], s["state"], s["last_step"] or "", s["updated_at"]]
        for s in map(_summary, found)
    ]
    text = (
        table(["id", "kind", "state", "last step", "updated (UTC)"], rows, right=set())
        if rows
        else "no journeys"
    )
    out.result({"journeys": [journey.to_dict() for journey in found]}, text)
    return ExitCode.OK


def _client(kind: str, journal: str) -> Any:
    if kind in ("swap", "deposit"):
        from ..flash import FlashClient

        return FlashClient(journal=journal)
    if kind in ("gasless_swap", "route"):
        from ..routing import RoutingClient

        return RoutingClient(journal=journal)
    if kind in ("relay", "relay_sync"):
        from ..relayer import RelayerClient

        return RelayerClient(journal=journal)
    from ..gateway import GatewayClient

    return GatewayClient(journal=journal)


def _resume(args: argparse.Namespace, out: Output) -> int:
    path, journal = _open(args)
    if args.all == bool(args.ids):
        raise InvalidInputError("ID", "give journey ids or --all, not both and not neither")
    ids = [j.id for j in journal.journeys() if j.state == "running"] if args.all else list(args.ids)
    results: list[dict[str, Any]] = []
    worst = ExitCode.OK
    for journey_id in ids:
        journey = journal.journey(journey_id)
        if journey is None:
            raise InvalidInputError("ID", f"no journey {journey_id} in {path}")
        entry: dict[str, Any] = {"id": journey_id, "kind": journey.kind}
        try:
            with _client(journey.kind, path) as client:
                resumed = client.resume(journey_id, force=args.force)
            entry["state"] = resumed.state
            code = STATE_CODES.get(resumed.state, ExitCode.UNKNOWN)
        except XSwapError as error:
            code = exit_code_for(error)
            entry["state"] = (journal.journey(journey_id) or journey).state
            entry["error"] = {"type": type(error).__name__, "message": str(error)}
        worst = max(worst, code, key=_severity)
        results.append(entry)
    lines = [
        f"{e['id']}  {e['kind']:12}  {e['state']}"
        + (f"  ({e['error']['type']}: {e['error']['message']})" if "error" in e else "")
        for e in results
    ] or ["nothing to resume"]
    out.result({"resumed": results, "exit_code": int(worst)}, "\n".join(lines))
    return worst


def _severity(code: ExitCode) -> int:
    # Not knowing is worse than a failure: it is what a person must look at.
    return {ExitCode.OK: 0, ExitCode.FAILED: 1, ExitCode.SERVICE: 2, ExitCode.USAGE: 2}.get(code, 3)


def _journeys_arguments(parser: argparse.ArgumentParser) -> None:
    _journal_option(parser)


def _resume_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ids", nargs="*", metavar="ID", help="journey ids (xswap journeys)")
    parser.add_argument("--all", action="store_true", help="every journey still running")
    parser.add_argument(
        "--force",
        action="store_true",
        help="resume even a journey a live process of this host started (only when that "
        "process is not the journey's)",
    )
    _journal_option(parser)


JOURNEYS = Command(
    "journeys",
    "the money journeys in a journal: id, kind, state and last step",
    _journeys_arguments,
    _journeys,
)
RESUME = Command(
    "resume",
    "finish interrupted journeys safely (never sending twice what may have arrived)",
    _resume_arguments,
    _resume,
)
