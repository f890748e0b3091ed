"""``xswap journeys`` and ``xswap resume``: the money journeys in a journal, and
finishing the interrupted ones (see ``docs/journeys.md``).

The journal is ``--journal PATH``, else ``XSWAP_JOURNAL``. ``resume`` uses the client of
each journey's kind, configured from the usual ``XSWAP_*`` variables, plus
``XSWAP_PRIVATE_KEY`` when a swap still needs a signature, and reads the chain of a
route, deposit or transfer journey from the ``--rpc-url`` node serving it (else
``XSWAP_RPC_URLS``; see ``_nodes``). Its exit status is the worst of the journeys': 0
all completed, 1 one failed, 4 one needs attention (or is still running: a wait ran out
again).
"""

from __future__ import annotations

import argparse
import inspect
import os
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..errors import InvalidInputError, XSwapError
from ._app import Command, ExitCode, exit_code_for
from ._nodes import RPC_URLS_ENV, Nodes, journey_chains
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


def _takes_web3(client: Any) -> bool:
    # GatewayClient.resume takes web3= once it mints from the journal; until then it
    # resumes without a chain. Asked of the method itself, so both work.
    return "web3" in inspect.signature(client.resume).parameters


def _resume_one(
    journey: Journey, path: str, nodes: Nodes, force: bool, entry: dict[str, Any]
) -> str:
    chains = journey_chains(journey) if journey.state not in ("completed", "failed") else ()
    with _client(journey.kind, path) as client:
        options: dict[str, Any] = {"force": force}
        if chains and _takes_web3(client):
            found = nodes.web3_for(chains)
            if found is None:
                entry["no_node_for"] = list(chains)
            else:
                entry["chain_id"], options["web3"] = found
        resumed = client.resume(journey.id, **options)
    return str(resumed.state)


def _resume(args: argparse.Namespace, out: Output) -> int:
    path, journal = _open(args)
    if args.all == bool(args.ids):
        raise InvalidInputError("ID", "give journey ids or --all, not both and not neither")
    nodes = Nodes.from_arguments(args.rpc_url)
    ids = [j.id for j in journal.journeys() if j.state == "running"] if args.all else list(args.ids)
    results: list[dict[str, Any]] = []
    worst = ExitCode.OK
    for journey_id in ids:
        journey = journal.journey(journey_id)
        if journey is None:
            raise InvalidInputError("ID", f"no journey {journey_id} in {path}")
        entry: dict[str, Any] = {"id": journey_id, "kind": journey.kind}
        try:
            entry["state"] = _resume_one(journey, path, nodes, args.force, entry)
            code = STATE_CODES.get(entry["state"], ExitCode.UNKNOWN)
        except XSwapError as error:
            code = exit_code_for(error)
            entry["state"] = (journal.journey(journey_id) or journey).state
            entry["error"] = {"type": type(error).__name__, "message": str(error)}
        worst = max(worst, code, key=_severity)
        results.append(entry)
    text = "\n".join(map(_line, results)) or "nothing to resume"
    out.result({"resumed": results, "exit_code": int(worst)}, text)
    return worst


def _line(entry: dict[str, Any]) -> str:
    text = f"{entry['id']}  {entry['kind']:12}  {entry['state']}"
    if "chain_id" in entry:
        text += f"  (chain {entry['chain_id']} read)"
    if "no_node_for" in entry:
        chains = " or ".join(map(str, entry["no_node_for"]))
        text += f"  (no --rpc-url node serves chain {chains}: its receipt was not read)"
    if "error" in entry:
        text += f"  ({entry['error']['type']}: {entry['error']['message']})"
    return text


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
    parser.add_argument(
        "--rpc-url",
        action="append",
        metavar="URL",
        help="a chain's JSON-RPC node, to read the receipts of route, deposit and transfer "
        "journeys (repeat it, one per chain: each node is asked its chain id when a "
        f"journey needs one); default: ${RPC_URLS_ENV}, URLs separated by spaces or "
        "commas. https://, or http:// to this machine. Needs the web3 extra",
    )
    _journal_option(parser)
    parser.epilog = (
        "Nothing already signed is signed again and nothing that may have arrived is sent "
        "again: what cannot be checked ends needs_attention. Exit status: 0 all "
        "completed, 1 one failed, 4 one needs attention or is still waiting. See "
        "docs/journeys.md."
    )


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
