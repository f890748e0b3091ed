"""What a notebook shows: HTML tables for the objects people look at, and short reprs.

Jupyter displays an object by its ``_repr_html_`` when it has one. The models people
look at call one function here each: balances (a table per chain, with the total),
quotes and routes, history pages, and a journey (its steps as a timeline, with states
and times). Amounts are shown with their decimals (``12.50 USDC``), as
`xswap_sdk.types.format_amount` writes them.

Two rules hold for everything here:

- every value put in the HTML is escaped (`html.escape`), whatever the service sent;
- nothing secret is shown: a journey's steps hold signatures and signed payloads (resume
  needs them), so a step shows only the values of the keys in `_SHOWN` (hashes, ids,
  chain ids, statuses, counts) and the names of the others; its short repr shows names
  only. Balances, quotes and pages hold no secret.

The functions take the objects themselves and import nothing at module level but the
standard library, so the models can call them without an import cycle.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from .flash.models import GatewayBalance, HistoryPage, LeaderboardPage, Quote
    from .gateway.models import GatewayBalances
    from .journal import JournalStep, Journey, StepEvent
    from .routing.models import GaslessQuote, Route

__all__ = [
    "event_repr",
    "flash_balance_html",
    "flash_quote_html",
    "gasless_quote_html",
    "gateway_balances_html",
    "history_page_html",
    "journey_html",
    "journey_repr",
    "leaderboard_page_html",
    "route_html",
    "step_repr",
]

_SHOWN: Final = frozenset(
    {
        "txhash",
        "transactionhash",
        "executiontxhash",
        "swapid",
        "txid",
        "transferid",
        "quoteid",
        "relayertxid",
        "what",
        "chainid",
        "status",
        "state",
        "reason",
        "attempt",
        "intents",
        "expectedseconds",
        "check",
        "error",
        "spender",
        "atleast",
        "balance",
        "estimate",
    }
)
"""The step-data keys whose values a journey's timeline shows (compared without case or
underscores, so ``tx_hash`` and ``txHash`` are one): public identifiers and states,
never a signature, a payload, a header or a quote's calldata."""

_STEP_NAMES_SHOWN: Final = 12
"""How many step names a journey's short repr lists before eliding the middle."""


def _e(value: object) -> str:
    """``value`` as escaped HTML text."""
    return html.escape(str(value), quote=True)


def _short(text: str, keep: int = 10) -> str:
    """A long hash or id cut in its middle (``0x1234…cdef``)."""
    return text if len(text) <= 2 * keep + 1 else f"{text[:keep]}…{text[-4:]}"


def _code(text: object, keep: int = 10) -> str:
    """``text`` in ``<code>``, shortened, its whole value in the title."""
    full = str(text)
    return f'<code title="{_e(full)}">{_e(_short(full, keep))}</code>'


def _amount(units: object, decimals: int = 6, symbol: str | None = "USDC") -> str:
    """An amount in smallest units, written with its decimals (``12.50 USDC``)."""
    # lazy: types loads pydantic; a journey's HTML is written without it until an amount shows
    from .types import format_amount

    if isinstance(units, bool) or not isinstance(units, int):
        return _e(units)
    return _e(format_amount(units, decimals, symbol))


def _usd(value: object) -> str:
    if isinstance(value, Decimal | int | float) and not isinstance(value, bool):
        return _e(f"${value:,.2f}")
    return _e(value)


def _when(value: object) -> str:
    """A Unix time or a `datetime` as ``2025-06-01 12:00:00 UTC``."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = datetime.fromtimestamp(value, UTC)
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            value = value.astimezone(UTC)
        return _e(value.strftime("%Y-%m-%d %H:%M:%S UTC"))
    return _e(value if value is not None else "")


def _table(
    head: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    caption: str = "",
    foot: Sequence[str] | None = None,
    numeric: Iterable[int] = (),
) -> str:
    """An HTML table of cells already escaped (``head`` is escaped here); the columns
    in ``numeric`` are right-aligned."""
    right = set(numeric)

    def row(cells: Sequence[str], tag: str) -> str:
        return (
            "<tr>"
            + "".join(
                f'<{tag} style="text-align:{"right" if i in right else "left"}">{cell}</{tag}>'
                for i, cell in enumerate(cells)
            )
            + "</tr>"
        )

    parts = ['<table class="xswap">']
    if caption:
        parts.append(f'<caption style="text-align:left">{caption}</caption>')
    parts.append("<thead>" + row([_e(h) for h in head], "th") + "</thead><tbody>")
    parts.extend(row(cells, "td") for cells in rows)
    parts.append("</tbody>")
    if foot is not None:
        parts.append("<tfoot>" + row(foot, "th") + "</tfoot>")
    parts.append("</table>")
    return "".join(parts)


def _fields(title: str, pairs: Iterable[tuple[str, str]]) -> str:
    """A two-column table of a record's main fields (values already escaped)."""
    return _table(["", ""], ([_e(k), v] for k, v in pairs), caption=title)


# ----------------------------------------------------------------------------- balances


def flash_balance_html(balance: GatewayBalance) -> str:
    """A `xswap_sdk.flash.GatewayBalance`: one row per chain, and the total."""
    depositors = {entry.depositor for entry in balance.balances}
    who = f" of {_code(next(iter(depositors)))}" if len(depositors) == 1 else ""
    rows = [
        [_e(entry.chain_name), _e(entry.chain_id), _e(entry.domain), _amount(entry.balance)]
        for entry in balance.balances
    ]
    return _table(
        ["chain", "chain id", "domain", "balance"],
        rows,
        caption=f"<strong>Gateway balance</strong>{who}",
        foot=[_e("total"), "", "", _amount(balance.total_balance)],
        numeric=(1, 2, 3),
    )


def _domain_name(domain: int) -> str:
    """The chains of a Gateway domain in the registry (mainnet / testnet)."""
    # lazy: the registry (pydantic, the pinned chains), only for a Gateway domain's name
    from .registry import DEFAULT_REGISTRY

    names = [
        chain.name
        for testnet in (False, True)
        if (chain := DEFAULT_REGISTRY.by_domain(domain, testnet=testnet)) is not None
    ]
    return " / ".join(names)


def gateway_balances_html(balances: GatewayBalances) -> str:
    """A `xswap_sdk.gateway.GatewayBalances`: one row per domain (and depositor),
    with what is being withdrawn, and the total."""
    depositors = {entry.depositor for entry in balances.balances}
    several = len(depositors) > 1
    head = ["domain", "chain", *(["depositor"] if several else []), "available", "withdrawing"]
    rows = []
    for entry in balances.balances:
        withdrawing = "" if entry.withdrawing is None else _amount(entry.withdrawing)
        rows.append(
            [
                _e(entry.domain),
                _e(_domain_name(entry.domain)),
                *([_code(entry.depositor)] if several else []),
                _amount(entry.balance),
                withdrawing,
            ]
        )
    who = f" of {_code(next(iter(depositors)))}" if len(depositors) == 1 else ""
    leaving = sum(entry.withdrawing or 0 for entry in balances.balances)
    return _table(
        head,
        rows,
        caption=f"<strong>Gateway balances</strong> ({_e(balances.token)}){who}",
        foot=[
            _e("total"),
            "",
            *([""] if several else []),
            _amount(balances.total),
            _amount(leaving),
        ],
        numeric=(0, len(head) - 2, len(head) - 1),
    )


# ------------------------------------------------------------------------------- quotes


def flash_quote_html(quote: Quote) -> str:
    """A `xswap_sdk.flash.Quote`: what goes in and out, the fees, the router, the expiry."""
    out = quote.token_out
    return _fields(
        "<strong>Flash quote</strong>",
        [
            ("in", f"{_amount(quote.token_in.amount)} ({_usd(quote.token_in.usd_amount)})"),
            (
                "out",
                f"{_amount(out.amount, out.decimals, None)} of {_code(out.address)} "
                f"({_usd(out.usd_amount)})",
            ),
            ("gateway fee", _amount(quote.fees.gateway_fee)),
            ("execution fee", _amount(quote.fees.execution_fee)),
            ("total fee", _amount(quote.fees.total_fee)),
            ("router", _code(quote.swap_router_address)),
            ("expires", _when(quote.expires_at_seconds)),
        ],
    )


def route_html(route: Route) -> str:
    """A `xswap_sdk.routing.Route`: tokens and amounts, fees, time, and its path."""
    source, target = route.from_token, route.to_token
    seconds = route.estimated_time_ms / 1000
    summary = _fields(
        f"<strong>Route</strong> {_e(route.route_kind)} {_code(route.quote_id)}",
        [
            (
                "from",
                f"{_amount(route.amount, source.decimals, source.symbol)} on chain "
                f"{_e(source.chain)} ({_usd(route.amount_usd)})",
            ),
            (
                "to",
                f"{_amount(route.amount_out, target.decimals, target.symbol)} on chain "
                f"{_e(target.chain)} ({_usd(route.amount_out_usd)})",
            ),
            ("at least", _amount(route.min_amount_out, target.decimals, target.symbol)),
            (
                "fees",
                f"{_amount(route.fees.route_fee, source.decimals, source.symbol)} route, "
                f"{_amount(route.fees.integrator_fee, source.decimals, source.symbol)} "
                "integrator",
            ),
            ("gas", _usd(route.gas_fee.gas_fee_usd)),
            ("takes about", _e(f"{seconds:g} s")),
            ("receiver", _code(route.receiver)),
            ("expires", _when(route.expiry)),
        ],
    )
    path = _table(
        ["step", "provider", "in", "out"],
        (
            [_e(step.type), _e(step.provider.name), _e(step.amount), _e(step.amount_out)]
            for step in route.path
        ),
        caption="path (amounts in smallest units)",
        numeric=(2, 3),
    )
    return summary + path


def gasless_quote_html(quote: GaslessQuote) -> str:
    """A `xswap_sdk.routing.GaslessQuote`: its terms and fee (never the payload's
    signature fields: it holds none, and its EIP-712 message is not shown)."""
    terms = quote.quote
    return _fields(
        f"<strong>Gasless quote</strong> {_code(quote.quote_id)}",
        [
            ("chains", _e(f"{terms.from_chain} -> {terms.to_chain}")),
            ("in", _e(terms.amount_in if terms.amount_in is not None else "")),
            ("out", _e(terms.amount_out if terms.amount_out is not None else "")),
            ("at least", _e(terms.min_amount_out if terms.min_amount_out is not None else "")),
            ("fee", f"{_e(quote.fee.fee_amount)} ({_usd(quote.fee.fee_usd)})"),
            ("receiver", _code(terms.receiver or "")),
            ("verified", _e("yes" if quote.verified else "no")),
            ("deadline", _when(quote.deadline)),
        ],
    )


# -------------------------------------------------------------------------------- pages


def history_page_html(page: HistoryPage) -> str:
    """A `xswap_sdk.flash.HistoryPage`: its swaps, where it sits, and the totals."""
    at, summary = page.pagination, page.summary
    caption = (
        f"<strong>Swap history</strong>: page {_e(at.current_page)} of {_e(at.total_pages)} "
        f"({_e(summary.total_swaps)} swaps, {_amount(summary.total_volume)} in all, "
        f"{_amount(summary.total_fees)} in fees)"
    )
    rows = [
        [
            _when(record.created_at),
            _e(record.status),
            _amount(record.amount_usdc),
            _amount(record.min_amount_out, record.token_out.decimals, record.token_out.symbol),
            _e(record.chain_id),
            _code(record.transaction_hash),
        ]
        for record in page.swaps
    ]
    return _table(
        ["submitted", "status", "in", "at least out", "chain", "transaction"],
        rows,
        caption=caption,
        numeric=(2, 3, 4),
    )


def leaderboard_page_html(page: LeaderboardPage) -> str:
    """A `xswap_sdk.flash.LeaderboardPage`: its rows and where it sits."""
    at = page.pagination
    rows = [
        [
            _e(entry.rank),
            _code(entry.wallet_address),
            _amount(entry.total_volume),
            _e(entry.swap_count),
            _amount(entry.combined_volume),
        ]
        for entry in page.entries
    ]
    return _table(
        ["rank", "wallet", "volume", "swaps", "with referrals"],
        rows,
        caption=f"<strong>Leaderboard</strong>: page {_e(at.current_page)} of {_e(at.total_pages)}",
        numeric=(0, 2, 3, 4),
    )


# ----------------------------------------------------------------------------- journeys


def _normal(key: str) -> str:
    return key.replace("_", "").lower()


def _details(data: Mapping[str, Any]) -> str:
    """What a step's timeline row shows of its data: the values of the `_SHOWN` keys
    (at its top level and one level down, such as an answer's ``transactionHash``), and
    the names of the others."""
    shown: list[str] = []
    hidden: list[str] = []
    for key, value in data.items():
        if isinstance(value, Mapping):
            inner = [(k, v) for k, v in value.items() if _normal(str(k)) in _SHOWN and _scalar(v)]
            shown.extend(_pair(k, v) for k, v in inner)
            if len(inner) < len(value):
                hidden.append(str(key))
        elif _normal(str(key)) in _SHOWN and _scalar(value):
            shown.append(_pair(key, value))
        elif value is not None:
            hidden.append(str(key))
    if hidden:
        shown.append(f'<span style="opacity:0.6">also: {_e(", ".join(hidden))}</span>')
    return "; ".join(shown)


def _scalar(value: object) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _pair(key: object, value: object) -> str:
    text = str(value)
    shown = _code(text) if text.startswith("0x") and len(text) > 24 else _e(text)
    return f"{_e(key)}: {shown}"


_STATE_COLOURS: Final = {
    "completed": "#1a7f37",
    "running": "#9a6700",
    "failed": "#cf222e",
    "needs_attention": "#cf222e",
}


def journey_html(journey: Journey) -> str:
    """A `xswap_sdk.journal.Journey` as a timeline: one row per step, with its status,
    when it was written and how long after the start; nothing secret (see `_SHOWN`)."""
    start = journey.created_at
    colour = _STATE_COLOURS.get(journey.state, "inherit")
    took = journey.updated_at - start
    caption = (
        f"<strong>{_e(journey.kind)}</strong> journey {_code(journey.id, 8)}: "
        f'<span style="color:{colour};font-weight:bold">{_e(journey.state)}</span>, '
        f"{len(journey.steps)} steps, started {_when(start)}, {_e(f'{took:.1f}')} s"
    )
    rows = [
        [
            _e(step.seq),
            _e(step.step),
            _e(step.status),
            _when(step.at),
            _e(f"+{step.at - start:.1f} s"),
            _details(step.data),
        ]
        for step in journey.steps
    ]
    return _table(
        ["#", "step", "status", "at", "after", "details"], rows, caption=caption, numeric=(0, 4)
    )


def _keys(data: Mapping[str, Any]) -> str:
    return "{" + ", ".join(str(key) for key in data) + "}"


def journey_repr(journey: Journey) -> str:
    """A journey in one short line: its id, kind, state and step names, never its
    data (which holds signatures)."""
    names = [step.step for step in journey.steps]
    if len(names) > _STEP_NAMES_SHOWN:
        half = _STEP_NAMES_SHOWN // 2
        names = [*names[:half], f"... {len(names) - 2 * half} more ...", *names[-half:]]
    return (
        f"Journey(id={journey.id!r}, kind={journey.kind!r}, state={journey.state!r}, "
        f"steps=[{', '.join(names)}])"
    )


def step_repr(step: JournalStep) -> str:
    """A journal step in one line: the names of its data's keys, not their values."""
    return (
        f"JournalStep(seq={step.seq}, step={step.step!r}, status={step.status!r}, "
        f"at={step.at!r}, data={_keys(step.data)})"
    )


def event_repr(event: StepEvent) -> str:
    """A step event in one line: the names of its data's keys, not their values."""
    return (
        f"StepEvent(journey_id={event.journey_id!r}, kind={event.kind!r}, "
        f"step={event.step!r}, status={event.status!r}, data={_keys(event.data)})"
    )
