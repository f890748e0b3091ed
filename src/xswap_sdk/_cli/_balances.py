"""``xswap balances ADDRESS``: USDC in the gateway wallet, as the swap backend and as
Circle Gateway see it, in one table and one unit (smallest USDC units; shown with
`xswap_sdk.types.format_amount`)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from ..errors import InvalidInputError
from ..types import USDC_DECIMALS, format_amount
from . import _clients
from ._command import Command, ExitCode, Flags
from ._output import Output, table

__all__ = ["COMMAND"]

FLAGS: Flags = {
    "address": "ADDRESS",
    "depositor": "ADDRESS",
    "sources": "ADDRESS",  # sources[0].depositor: Gateway's request, built from ADDRESS
    "chain_ids": "--chain",
    "chain_id": "--chain",
}


@dataclass
class Row:
    """One chain's balances, in smallest USDC units (``None``: not asked, or not listed)."""

    chain_id: int | None
    chain: str
    domain: int
    flash: int | None = None
    gateway: int | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``balances ADDRESS [--chain ID ...] [--source ...]``."""
    parser.add_argument("address", metavar="ADDRESS", help="the depositor's wallet")
    parser.add_argument(
        "--chain",
        type=int,
        action="append",
        dest="chains",
        metavar="CHAIN_ID",
        help="only this chain (repeat for more); default: every chain",
    )
    parser.add_argument(
        "--source",
        choices=["both", "flash", "gateway"],
        default="both",
        help="the swap backend (flash), Circle Gateway, or both (default)",
    )


def run(args: argparse.Namespace, out: Output) -> int:
    """Read the balances and print them side by side."""
    rows: dict[int, Row] = {}
    gateway_balances: dict[int, int] = {}
    if args.source in ("both", "gateway"):
        # Gateway first: it checks every --chain (against the registry) before a request.
        with _clients.gateway() as gateway:
            answer = gateway.get_balances(args.address, chain_ids=args.chains)
            for item in answer.balances:
                gateway_balances[item.domain] = item.balance
                chain = gateway.registry.by_domain(item.domain, testnet=gateway.testnet)
                rows[item.domain] = Row(
                    None if chain is None else chain.chain_id,
                    f"domain {item.domain}" if chain is None else chain.name,
                    item.domain,
                )
    if args.source in ("both", "flash"):
        with _clients.flash() as flash:
            listed = flash.get_balance(args.address).balances
        for entry in listed:
            if args.chains and entry.chain_id not in args.chains:
                continue
            # The swap backend names its chains: its name and id are kept.
            rows[entry.domain] = Row(entry.chain_id, entry.chain_name, entry.domain)
            rows[entry.domain].flash = entry.balance
        unlisted = [
            chain for chain in args.chains or () if chain not in {e.chain_id for e in listed}
        ]
        if args.source == "flash" and unlisted:
            # Alone, the swap backend's list is what tells a chain it does not know.
            known = ", ".join(str(entry.chain_id) for entry in listed)
            raise InvalidInputError(
                "--chain", f"{unlisted[0]} is not a chain of the swap backend (known: {known})"
            )
    for domain, balance in gateway_balances.items():
        rows[domain].gateway = balance
    ordered = sorted(rows.values(), key=lambda row: row.domain)
    totals = {
        source: sum(getattr(row, source) or 0 for row in ordered)
        for source in ("flash", "gateway")
        if args.source in ("both", source)
    }
    data = {
        "address": args.address,
        "unit": "smallest USDC units",
        "decimals": USDC_DECIMALS,
        "balances": [
            {
                "chain_id": row.chain_id,
                "chain": row.chain,
                "domain": row.domain,
                **{source: getattr(row, source) for source in totals},
            }
            for row in ordered
        ],
        "total": totals,
    }
    titles = {"flash": "swap backend", "gateway": "Circle Gateway"}
    headers = ["chain", "id", "domain", *(titles[source] for source in totals)]

    def cell(units: int | None) -> str:
        return "-" if units is None else format_amount(units)

    lines = [
        [
            row.chain,
            str(row.chain_id or "-"),
            str(row.domain),
            *(cell(getattr(row, s)) for s in totals),
        ]
        for row in ordered
    ]
    lines.append(["total", "", "", *(cell(units) for units in totals.values())])
    right = set(range(3, 3 + len(totals)))
    out.result(
        data, f"USDC of {args.address} in the gateway wallet\n" + table(headers, lines, right=right)
    )
    return ExitCode.OK


COMMAND = Command(
    name="balances",
    help="USDC in the gateway wallet per chain, as the swap backend and Circle Gateway see it",
    add_arguments=add_arguments,
    run=run,
    flags=FLAGS,
)
