"""``xswap journeys`` and ``xswap resume``: the money journeys in a journal, and
finishing the interrupted ones (see ``docs/journeys.md``).

The journal is ``--journal PATH`` (an SQLite file, or a ``postgresql://`` URL without a
password: libpq reads it from ``PGPASSWORD`` or ``~/.pgpass``, since a command line shows
in the process list), else ``XSWAP_JOURNAL`` (a URL there may hold one); its key
``XSWAP_JOURNAL_KEY`` (else the key file beside an SQLite journal; required for
PostgreSQL). ``resume`` uses the client of each
journey's kind (the table of journey kinds, ``xswap_sdk._kinds``), configured from the
usual ``XSWAP_*`` variables, signs with ``XSWAP_PRIVATE_KEY`` where a step needs a
signer, and reads the chain of a route, deposit, transfer, mint or call journey from the
``--rpc-url`` node serving it (else ``XSWAP_RPC_URLS``; see ``_nodes``). A journey whose
next step would sign something new is resumed only with ``--restart``.

Its exit status is the worst of the journeys': 0 all completed (a journey another live
run holds is reported ``busy`` and counts as fine), 1 one failed, 2 one needs a flag or
a variable to go on (its journey is left as it was), 4 one needs attention or is still
running (a wait ran out again, or it needs ``--restart``).
"""

from __future__ import annotations

import argparse
import os
from datetime import UTC, datetime
from typing import Any, Final

from .._kinds import KINDS
from .._postgres import PostgresURL, is_postgres_url
from ..errors import (
    InvalidInputError,
    JourneyBusyError,
    JourneyTamperedError,
    MissingCredentialsError,
    RestartRequiredError,
    XSwapError,
)
from ..journal import JOURNAL_ENV, Journal, Journey, open_journal
from ._command import Command, ExitCode, exit_code_for
from ._ids import ids_or_all, resolve_id
from ._nodes import RPC_URLS_ENV, Nodes, journey_chains
from ._output import Output, table

__all__ = ["JOURNEYS", "RESUME"]

STATE_CODES: Final = {
    "completed": ExitCode.OK,
    "busy": ExitCode.OK,
    "failed": ExitCode.FAILED,
    "needs_attention": ExitCode.UNKNOWN,
    "running": ExitCode.UNKNOWN,
}

# What the library's arguments are called on this command line.
_ADVICE: Final = {
    "signer": "set XSWAP_PRIVATE_KEY to the journey's signer's key",
    "web3": f"give --rpc-url URL of the journey's chain (or set {RPC_URLS_ENV})",
    "journal_key": "set XSWAP_JOURNAL_KEY to the key the journal was written with",
}


def _journal_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--journal",
        metavar="PATH",
        help="the journal's SQLite file, or a postgresql:// URL without its password "
        "(libpq reads PGPASSWORD or ~/.pgpass) (default: $XSWAP_JOURNAL); its key is "
        "$XSWAP_JOURNAL_KEY, else the key file beside an SQLite file",
    )


def _open(args: argparse.Namespace) -> tuple[str, Journal]:
    """The journal, and where it is as messages show it (a URL's password masked)."""
    given: str | None = args.journal
    where = given or os.environ.get(JOURNAL_ENV)
    if not where:
        raise InvalidInputError("--journal", f"is needed (or set {JOURNAL_ENV})")
    argument = "--journal" if given else JOURNAL_ENV
    if is_postgres_url(where):
        shown = PostgresURL(where, argument=argument)
        if given and shown.has_password:
            raise InvalidInputError(
                "--journal",
                "holds a password, which a command line shows to every user of the host: "
                f"set {JOURNAL_ENV} to the URL instead, or leave the password out for "
                "libpq to read from PGPASSWORD or ~/.pgpass",
            )
        where = shown.shown
    elif not os.path.exists(where):
        raise InvalidInputError(argument, f"no journal at {where}")
    try:
        journal = open_journal(given)  # None: XSWAP_JOURNAL's
    except InvalidInputError as exc:
        if exc.argument != "journal":
            raise
        raise InvalidInputError(argument, exc.rule) from None
    assert journal is not None
    return where, journal


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M:%S")


def _summary(journey: Journey) -> list[str]:
    last = journey.steps[-1] if journey.steps else None
    state = journey.state if journey.authentic else f"{journey.state} (MAC invalid: refused)"
    return [
        journey.id,
        journey.kind,
        state,
        "" if last is None else f"{last.step}/{last.status}",
        _when(journey.updated_at),
    ]


def _journeys(args: argparse.Namespace, out: Output) -> int:
    _, journal = _open(args)
    found = journal.journeys()
    rows = [_summary(journey) for journey in found]
    text = (
        table(["id", "kind", "state", "last step", "updated (UTC)"], rows, right=set())
        if rows
        else "no journeys"
    )
    shown = [journey.to_dict(show_signed=args.show_signed) for journey in found]
    out.result({"journeys": shown}, text)
    return ExitCode.OK


def _client(kind: str, journal: Journal) -> Any:

    client = KINDS[kind].client
    if client == "flash":
        # lazy: a resume loads only the client of its journey's kind
        from ..flash import FlashClient

        return FlashClient(journal=journal)
    if client == "routing":
        # lazy: a resume loads only the client of its journey's kind
        from ..routing import RoutingClient

        return RoutingClient(journal=journal)
    if client == "relayer":
        # lazy: a resume loads only the client of its journey's kind
        from ..relayer import RelayerClient

        return RelayerClient(journal=journal)
    # lazy: a resume loads only the client of its journey's kind
    from ..gateway import GatewayClient

    return GatewayClient(journal=journal)


def _resume_one(
    journey: Journey,
    journal: Journal,
    nodes: Nodes,
    args: argparse.Namespace,
    entry: dict[str, Any],
) -> str:
    chains = journey_chains(journey) if journey.state not in ("completed", "failed") else ()
    options: dict[str, Any] = {"force": args.force, "restart": args.restart}
    if chains:
        found = nodes.web3_for(chains)
        if found is None:
            entry["no_node_for"] = list(chains)
        else:
            entry["chain_id"], options["web3"] = found
    with _client(journey.kind, journal) as client:
        resumed = client.resume(journey.id, **options)
    return str(resumed.state)


def _resume(args: argparse.Namespace, out: Output) -> int:
    ids_or_all(args.ids, args.all)
    path, journal = _open(args)
    nodes = Nodes.from_arguments(args.rpc_url)
    if args.all:
        ids = [j.id for j in journal.journeys(states=("running",))]
    else:
        # Every id resolved (a prefix as progress lines print it) before any is resumed.
        known = [j.id for j in journal.journeys()]
        ids = [resolve_id(given, known, where=path) for given in args.ids]
    results: list[dict[str, Any]] = []
    worst = ExitCode.OK
    for journey_id in ids:
        journey = journal.journey(journey_id)
        if journey is None:
            raise InvalidInputError("ID", f"no journey {journey_id} in {path}")
        entry: dict[str, Any] = {"id": journey_id, "kind": journey.kind}
        try:
            entry["state"] = _resume_one(journey, journal, nodes, args, entry)
            code = STATE_CODES.get(entry["state"], ExitCode.UNKNOWN)
        except XSwapError as error:
            code = _failure(error, entry)
            now = journal.journey(journey_id) or journey
            entry.setdefault("state", now.state)
        worst = max(worst, code, key=_severity)
        results.append(entry)
    text = "\n".join(map(_line, results)) or "nothing to resume"
    out.result({"resumed": results, "exit_code": int(worst)}, text)
    return worst


def _failure(error: XSwapError, entry: dict[str, Any]) -> ExitCode:
    """What a resume's error says, on this command line: the entry's ``error`` and
    ``next``, and the exit status."""
    entry["error"] = {"type": type(error).__name__, "message": str(error)}
    if isinstance(error, JourneyBusyError):
        entry["state"] = "busy"
        entry["next"] = "another live run holds it: leave it, or resume it once that run ended"
        return ExitCode.OK
    if isinstance(error, RestartRequiredError):
        entry["next"] = f"xswap resume --restart {entry['id']} (it signs anew, as a new call)"
        return ExitCode.UNKNOWN
    if isinstance(error, JourneyTamperedError):
        entry["next"] = "look at it by hand: its MAC does not verify (xswap journeys --json)"
        return ExitCode.UNKNOWN
    if isinstance(error, MissingCredentialsError | InvalidInputError):
        advice = _ADVICE.get(error.argument)
        if advice is not None:
            entry["next"] = advice
        return ExitCode.USAGE
    return exit_code_for(error)


def _line(entry: dict[str, Any]) -> str:
    text = f"{entry['id']}  {entry['kind']:12}  {entry['state']}"
    if "chain_id" in entry:
        text += f"  (chain {entry['chain_id']} read)"
    if "no_node_for" in entry:
        chains = " or ".join(map(str, entry["no_node_for"]))
        text += f"  (no --rpc-url node serves chain {chains})"
    if "error" in entry:
        text += f"  ({entry['error']['type']}: {entry['error']['message']})"
    if "next" in entry:
        text += f"\n    next: {entry['next']}"
    return text


def _severity(code: ExitCode) -> int:
    # Not knowing is worse than a failure: it is what a person must look at.
    return {ExitCode.OK: 0, ExitCode.FAILED: 1, ExitCode.SERVICE: 2, ExitCode.USAGE: 2}.get(code, 3)


def _journeys_arguments(parser: argparse.ArgumentParser) -> None:
    _journal_option(parser)
    parser.add_argument(
        "--show-signed",
        action="store_true",
        help="with --json, show signatures and signed payloads (sensitive: hidden by default)",
    )


def _resume_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "ids",
        nargs="*",
        metavar="ID",
        help="journey ids, or their first 8 characters or more (xswap journeys lists them)",
    )
    parser.add_argument("--all", action="store_true", help="every journey still running")
    parser.add_argument(
        "--restart",
        action="store_true",
        help="let a journey sign what it had not signed when it stopped (a new quote, a "
        "mint, a transaction), through the client's checks and pins, as a new call would",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="take a journey's lease even from a run that still holds it (only when you "
        "know that run is gone: two runs could send its request twice)",
    )
    parser.add_argument(
        "--rpc-url",
        action="append",
        metavar="URL",
        help="a chain's JSON-RPC node, for route, deposit, transfer, mint and call "
        "journeys (repeat it, one per chain: each node is asked its chain id when a "
        f"journey needs one); default: ${RPC_URLS_ENV}, URLs separated by spaces or "
        "commas. https://, or http:// to this machine. Needs the web3 extra",
    )
    _journal_option(parser)
    parser.epilog = (
        "Resume replays each journey's recorded steps: nothing already signed is signed "
        "again, a request that may have arrived is sent again only when its content can "
        "take effect once, and a journey whose next step would sign something new waits "
        "for --restart. Signers come from XSWAP_PRIVATE_KEY. Exit status: 0 all completed "
        "(or busy in another run), 1 one failed, 2 one needs a flag or variable, 4 one "
        "needs attention, --restart, or is still waiting. See docs/journeys.md."
    )


JOURNEYS = Command(
    "journeys",
    "the money journeys in a journal: id, kind, state and last step",
    _journeys_arguments,
    _journeys,
)
RESUME = Command(
    "resume",
    "finish interrupted journeys safely (replayed: never sending twice what may have arrived)",
    _resume_arguments,
    _resume,
)
