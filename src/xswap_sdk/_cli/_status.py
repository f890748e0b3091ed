"""``xswap status KIND ID``: where a relayed transaction, a swap, a Gateway transfer, a
route or a gasless swap stands.

The kind is named, never guessed from the id's shape: a swap's hash and a route's
source transaction hash look alike, and so do a transfer id and a gasless swap id.
Each record is read once (no waiting) and given a verdict: ``done``, ``failed``,
``pending`` or ``not_found``, which the exit status repeats (0, 1, 4, 1).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidInputError, NotFoundError
from ..types import format_amount
from . import _clients
from ._command import Command, ExitCode, Flags
from ._output import Output, add_json_option

__all__ = ["COMMAND"]

EXIT_CODES = {
    "done": ExitCode.OK,
    "failed": ExitCode.FAILED,
    "not_found": ExitCode.FAILED,
    "pending": ExitCode.UNKNOWN,
}


@dataclass(frozen=True)
class Looked:
    """One record read, and what it means."""

    status: str
    verdict: str
    details: list[tuple[str, Any]]
    record: Any


def _relayer(args: argparse.Namespace) -> Looked | None:
    with _clients.relayer() as relayer:
        try:
            record = relayer.get_relay_status(args.id)
        except NotFoundError:
            return None
    status = str(record.status)
    verdict = {"EXECUTED": "done", "FAILED": "failed"}.get(status, "pending")
    details = [
        ("chain", record.chain_id),
        ("to", record.to),
        ("execution tx", record.execution_tx_hash),
        ("cost", None if record.cost_usd is None else f"${record.cost_usd}"),
        ("error", record.error),
    ]
    return Looked(status, verdict, details, record)


def _swap(args: argparse.Namespace) -> Looked | None:
    wanted = args.id.lower()
    with _clients.flash() as flash:
        # The backend has no look-up by hash: walk the history, newest first.
        for record in flash.iter_history(page_size=100):
            if wanted in (record.transaction_hash.lower(), record.tx_id.lower()):
                break
        else:
            return None
    status = str(record.status)
    verdict = {"completed": "done", "failed": "failed"}.get(status, "pending")
    out = record.token_out
    details = [
        ("in", format_amount(record.amount_usdc)),
        ("out at least", format_amount(record.min_amount_out, out.decimals, out.symbol)),
        ("chain", record.chain_id),
        ("service fee", format_amount(record.service_fee)),
        ("updated", record.updated_at),
    ]
    return Looked(status, verdict, details, record)


def _transfer(args: argparse.Namespace) -> Looked | None:
    with _clients.gateway() as gateway:
        try:
            record = gateway.get_transfer(args.id)
        except NotFoundError:
            return None
    status = str(record.status)
    verdict = (
        "done"
        if status in ("confirmed", "finalized")
        else "failed"
        if status in ("failed", "expired")
        else "pending"
    )
    details = [
        ("destination domain", record.destination_domain),
        ("mint tx", record.transaction_hash),
        ("fees", None if record.fees is None else format_amount(record.fees.total)),
    ]
    return Looked(status, verdict, details, record)


def _route_shape(args: argparse.Namespace) -> None:
    # The two ways the routing service looks a route up, said with this command's
    # options (the client's own rule names its arguments).
    if args.provider is not None or args.ref is not None:
        mixed = [
            name
            for name, value in (
                ("TX_HASH", args.id),
                ("--chain", args.chain),
                ("--user", args.user),
            )
            if value is not None
        ]
        if mixed:
            raise InvalidInputError(
                mixed[0],
                "looks a route up by its hash; --provider and --ref look it up by "
                "the provider's reference instead: give one way, not both",
            )
        for flag, value in (("--provider", args.provider), ("--ref", args.ref)):
            if value is None:
                raise InvalidInputError(flag, "is needed too: --provider KEY --ref REF")
    elif args.id is None:
        raise InvalidInputError(
            "TX_HASH", "is needed, with --chain (or give --provider KEY --ref REF instead)"
        )
    elif args.chain is None:
        raise InvalidInputError("--chain", "is needed with TX_HASH: the source chain id")


def _route(args: argparse.Namespace) -> Looked | None:
    _route_shape(args)
    with _clients.routing() as routing:
        try:
            record = routing.get_status(
                args.id,
                args.chain,
                args.user,
                provider_key=args.provider,
                tx_ref=args.ref,
            )
        except NotFoundError:
            return None
    status = str(record.current_status)
    landed = record.destination_tx_hash_any
    verdict = "failed" if record.is_failed else "done" if landed else "pending"
    details = [("source tx", record.source_tx_hash_any), ("destination tx", landed)]
    return Looked(status, verdict, details, record)


def _gasless(args: argparse.Namespace) -> Looked | None:
    with _clients.routing() as routing:
        try:
            record = routing.get_gasless_status(args.id)
        except NotFoundError:
            return None
    executed = record.execution_tx_hash
    verdict = "failed" if record.is_failed else "done" if executed else "pending"
    details = [
        ("chains", f"{record.from_chain_id} -> {record.to_chain_id}"),
        ("execution tx", executed),
    ]
    return Looked(record.status, verdict, details, record)


@dataclass(frozen=True)
class Kind:
    """A kind of id ``status`` looks up, and its `Flags` table."""

    name: str
    what: str
    metavar: str
    id_help: str
    look: Callable[[argparse.Namespace], Looked | None]
    flags: Flags


KINDS = (
    Kind(
        "relayer",
        "a relayed transaction (relayer)",
        "TX_ID",
        "the id relay() or POST /api/submit-tx returned",
        _relayer,
        {"tx_id": "TX_ID"},
    ),
    Kind(
        "swap",
        "a swap, by the hash POST /swap returned (swap backend)",
        "TX_HASH",
        "the swap's transaction hash (or its tx id), as its submission returned it",
        _swap,
        {},
    ),
    Kind(
        "transfer",
        "a Circle Gateway transfer",
        "TRANSFER_ID",
        "the transferId POST /v1/transfer returned (a UUID)",
        _transfer,
        {"transfer_id": "TRANSFER_ID"},
    ),
    Kind(
        "route",
        "a routed swap or bridge, by its source tx (routing)",
        "TX_HASH",
        "the source transaction's hash (with --chain)",
        _route,
        {
            "tx_hash": "TX_HASH",
            "from_chain": "--chain",
            "user_address": "--user",
            "provider_key": "--provider",
            "tx_ref": "--ref",
        },
    ),
    Kind(
        "gasless",
        "a gasless swap (routing)",
        "SWAP_ID",
        "the swap id gasless_swap() or POST /gasless/submit-swap returned",
        _gasless,
        {"swap_id": "SWAP_ID"},
    ),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``status KIND ID``, with the route's extra options."""
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    for kind in KINDS:
        sub = kinds.add_parser(kind.name, help=kind.what, description=kind.what)
        add_json_option(sub)
        if kind.name == "route":
            sub.add_argument("id", metavar=kind.metavar, nargs="?", help=kind.id_help)
            sub.add_argument(
                "--chain", type=int, metavar="CHAIN_ID", help="the source chain id (with TX_HASH)"
            )
            sub.add_argument("--user", metavar="ADDRESS", help="the sender's address (optional)")
            sub.add_argument(
                "--provider", metavar="KEY", help="instead of TX_HASH: the provider's key"
            )
            sub.add_argument(
                "--ref", metavar="REF", help="with --provider: the provider's reference"
            )
        else:
            sub.add_argument("id", metavar=kind.metavar, help=kind.id_help)
        sub.set_defaults(look=kind.look, flags=kind.flags)


def run(args: argparse.Namespace, out: Output) -> int:
    """Read the record once and report it."""
    looked = args.look(args)
    label = f"{args.kind} {args.id or args.ref}"
    if looked is None:
        data = {"kind": args.kind, "id": args.id, "verdict": "not_found", "record": None}
        out.result(data, f"{label}: not found")
        return ExitCode.FAILED
    data = {
        "kind": args.kind,
        "id": args.id,
        "status": looked.status,
        "verdict": looked.verdict,
        "record": looked.record,
    }
    lines = [f"{label}: {looked.status} ({looked.verdict})"]
    shown = [(name, value) for name, value in looked.details if value not in (None, "")]
    width = max((len(name) for name, _ in shown), default=0)
    lines += [f"  {name.ljust(width)}  {value}" for name, value in shown]
    out.result(data, "\n".join(lines))
    return EXIT_CODES[looked.verdict]


COMMAND = Command(
    name="status",
    help="where a relayed transaction, swap, Gateway transfer, route or gasless swap stands",
    add_arguments=add_arguments,
    run=run,
)
