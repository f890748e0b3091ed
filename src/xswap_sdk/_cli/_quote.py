"""``xswap quote flash|route ...``: what a swap would give, before anything is signed.

Amounts go in as smallest units (``40000000`` is 40 USDC), like every amount of the SDK,
and come out shown with `xswap_sdk.types.format_amount` (``--json``: smallest units).
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ..errors import APIError
from ..types import format_amount
from . import _clients
from ._command import Command, ExitCode, Flags
from ._output import Output, add_json_option, table

if TYPE_CHECKING:
    from ..flash import FlashClient

__all__ = ["COMMAND"]

FLASH_FLAGS: Flags = {
    "input_amount": "--amount",
    "output_token": "--to-token",
    "chain_id": "--chain",
    "sender": "--sender",
    "slippage": "--slippage",
    "max_slippage": "--max-slippage",
    "recipient": "--recipient",
}
ROUTE_FLAGS: Flags = {
    "from_chain": "--from-chain",
    "to_chain": "--to-chain",
    "from_token": "--from-token",
    "to_token": "--to-token",
    "amount": "--amount",
    "sender": "--sender",
    "slippage": "--slippage",
    "max_slippage": "--max-slippage",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``quote flash ...`` and ``quote route ...``."""
    services = parser.add_subparsers(dest="service", metavar="SERVICE", required=True)
    flash = services.add_parser(
        "flash",
        help="swap USDC held in the gateway wallet into a token (swap backend)",
        description="Quote a swap of USDC from the gateway wallet into --to-token.",
    )
    add_json_option(flash)
    flash.add_argument(
        "--amount", required=True, metavar="UNITS", help="USDC in smallest units (40000000: 40)"
    )
    flash.add_argument("--to-token", required=True, metavar="ADDRESS", help="the token to receive")
    flash.add_argument(
        "--chain", type=int, required=True, metavar="CHAIN_ID", help="the destination chain id"
    )
    flash.add_argument("--sender", required=True, metavar="ADDRESS", help="the user's wallet")
    flash.add_argument(
        "--slippage",
        default="0.5",
        metavar="PERCENT",
        help="percent: 0.5 is 0.5 %% (default: %(default)s)",
    )
    _max_slippage(flash)
    flash.add_argument(
        "--recipient", metavar="ADDRESS", help="who receives the output (default: the sender)"
    )
    flash.set_defaults(quote=_flash, flags=FLASH_FLAGS)

    route = services.add_parser(
        "route",
        help="ranked routes for a swap or bridge (routing)",
        description="Quote the routes of a swap or bridge, best first as the service ranks.",
    )
    add_json_option(route)
    route.add_argument(
        "--from-chain", type=int, required=True, metavar="CHAIN_ID", help="the source chain id"
    )
    route.add_argument(
        "--to-chain", type=int, required=True, metavar="CHAIN_ID", help="the destination chain id"
    )
    route.add_argument(
        "--from-token", required=True, metavar="ADDRESS", help="the input token, on --from-chain"
    )
    route.add_argument(
        "--to-token", required=True, metavar="ADDRESS", help="the output token, on --to-chain"
    )
    route.add_argument(
        "--amount", required=True, metavar="UNITS", help="in the input token's smallest units"
    )
    route.add_argument(
        "--sender", required=True, metavar="ADDRESS", help="the wallet that sends the input"
    )
    route.add_argument(
        "--slippage", metavar="PERCENT", help="percent: 0.5 is 0.5 %% (default: the service's)"
    )
    _max_slippage(route)
    route.set_defaults(quote=_route, flags=ROUTE_FLAGS)


def _max_slippage(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-slippage",
        metavar="PERCENT",
        help="the largest --slippage accepted (default: 5, or a signing policy's): a "
        "guard against 50 meant as basis points",
    )


def _flash(args: argparse.Namespace, out: Output) -> int:
    with _clients.flash() as flash:
        quote = flash.get_quote(
            input_amount=args.amount,
            output_token=args.to_token,
            chain_id=args.chain,
            sender=args.sender,
            slippage=args.slippage,
            max_slippage=args.max_slippage,
            recipient=args.recipient,
        )
        symbol = _symbol(flash, args.chain, quote.token_out.address)
    token_in, token_out = quote.token_in, quote.token_out
    expires = datetime.fromtimestamp(quote.expires_at_seconds, tz=UTC)
    text = "\n".join(
        [
            f"in          {format_amount(token_in.amount, token_in.decimals)}",
            f"out         {format_amount(token_out.amount, token_out.decimals, symbol)} "
            f"of {token_out.address} (chain {args.chain})",
            f"gateway fee up to {format_amount(quote.fees.gateway_fee)}",
            f"service fee {format_amount(quote.fees.execution_fee)}",
            f"expires     {expires.isoformat()}",
        ]
    )
    out.result({"service": "flash", "token_out_symbol": symbol, "quote": quote}, text)
    return ExitCode.OK


def _symbol(flash: FlashClient, chain_id: int, address: str) -> str | None:
    # A quote names its output token by address only: the backend's token search
    # gives its symbol (None when it does not know it, or cannot say now).
    try:
        return flash.search_token(chain_id, address).symbol
    except APIError:
        return None


def _route(args: argparse.Namespace, out: Output) -> int:
    with _clients.routing() as routing:
        routes = routing.get_quote(
            from_chain=args.from_chain,
            to_chain=args.to_chain,
            from_token=args.from_token,
            to_token=args.to_token,
            amount=args.amount,
            sender=args.sender,
            slippage=args.slippage,
            max_slippage=args.max_slippage,
        )
    rows = []
    for route in routes:
        token = route.to_token
        providers = " + ".join(step.provider.name for step in route.path)
        rows.append(
            [
                providers,
                format_amount(route.amount_out, token.decimals, token.symbol),
                format_amount(route.min_amount_out, token.decimals, token.symbol),
                f"{route.estimated_time_ms / 1000:.0f} s",
                f"${route.fees.route_fee_usd + route.gas_fee.gas_fee_usd:.4f}",
            ]
        )
    headers = ["route", "out", "at least", "time", "fees"]
    text = table(headers, rows, right={1, 2, 3, 4}) if rows else "no route"
    out.result({"service": "routing", "routes": routes}, text)
    return ExitCode.OK if routes else ExitCode.FAILED


def run(args: argparse.Namespace, out: Output) -> int:
    """Ask the chosen service for a quote."""
    return int(args.quote(args, out))


COMMAND = Command(
    name="quote",
    help="quote a swap (swap backend) or the routes of a swap or bridge (routing)",
    add_arguments=add_arguments,
    run=run,
)
