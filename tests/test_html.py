"""What a notebook shows: HTML tables and timelines, escaped, with nothing secret, and
short reprs.

The objects come from the sandbox, as a user's notebook would get them; the HTML is
parsed back (`html.parser`) to read its text and check its tags.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import pytest

from xswap_sdk.flash import GatewayBalance, Quote
from xswap_sdk.gateway import GatewayBalances
from xswap_sdk.journal import Journey, Row, StepEvent
from xswap_sdk.routing import Route
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from .support import FLASH_SWAP

USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
WETH_ARBITRUM = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
HOSTILE = '<script>alert("x")</script>&'


class Page(HTMLParser):
    """The tags and the text of an HTML fragment."""

    def __init__(self, markup: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []
        self.open: list[str] = []
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open, f"</{tag}> closes nothing"
        assert self.open[-1] == tag, f"</{tag}> closes {self.open}"
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    @property
    def joined(self) -> str:
        return " ".join(" ".join(self.text).split())


def shown(obj: Any) -> Page:
    """The object's HTML, parsed; every tag closed, no script."""
    markup = obj._repr_html_()
    page = Page(markup)
    assert page.open == [], page.open
    assert "script" not in page.tags
    assert set(page.tags) <= {"table", "caption", "thead", "tbody", "tfoot", "tr", "th", "td",
                              "strong", "code", "span"}  # fmt: skip
    return page


@pytest.fixture(scope="module")
def sb() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        sandbox.fund(TEST_SIGNER.address, 8453, 30_000_000)
        sandbox.fund(TEST_SIGNER.address, 42161, 2_500_000)
        yield sandbox


@pytest.fixture(scope="module")
def journaled(sb: Sandbox, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A journaled swap against the sandbox: its journey and every step event."""
    events: list[StepEvent] = []
    path = tmp_path_factory.mktemp("journal") / "journeys.db"
    flash = sb.flash_client(signer=TEST_SIGNER, journal=path, on_step=events.append)
    result = flash.swap(
        TEST_SIGNER,
        **FLASH_SWAP,
        wait=True,
    )
    journey = flash.journal.journey(result.journey_id)
    return {"journey": journey, "events": events, "flash": flash}


def secrets_of(value: Any) -> set[str]:
    """Every signature in journaled data: the values of keys naming one, and any
    65-byte hex string."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if "signature" in str(key).lower() and isinstance(inner, str):
                    found.add(inner)
                stack.append(inner)
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, str) and re.fullmatch(r"0x[0-9a-fA-F]{130}", item):
            found.add(item)
    return found


# ----------------------------------------------------------------------------- balances


def test_a_flash_balance_is_a_table_per_chain_with_the_total(sb: Sandbox) -> None:
    balance = sb.flash_client(signer=TEST_SIGNER).get_balance(TEST_SIGNER.address)
    assert isinstance(balance, GatewayBalance)
    page = shown(balance)
    assert page.tags.count("tr") == 1 + len(balance.balances) + 1  # head, chains, total
    assert "30.00 USDC" in page.joined  # with its decimals, not 30000000
    assert "2.50 USDC" in page.joined
    assert "total 32.50 USDC" in page.joined
    assert "30000000" not in page.joined


def test_gateway_balances_are_a_table_per_domain_with_the_total(sb: Sandbox) -> None:
    gateway = sb.gateway_client()
    balances = gateway.get_balances(TEST_SIGNER.address, chain_ids=[8453, 42161])
    assert isinstance(balances, GatewayBalances)
    page = shown(balances)
    assert "Base" in page.joined  # the domain's chain, from the registry
    assert "30.00 USDC" in page.joined
    assert "total 32.50 USDC" in page.joined


# ------------------------------------------------------------------------------- quotes


def test_a_flash_quote_shows_its_terms(sb: Sandbox) -> None:
    flash = sb.flash_client(signer=TEST_SIGNER)
    quote = flash.get_quote(
        input_amount=10_000_000,
        output_token=WETH_ARBITRUM,
        chain_id=42161,
        sender=TEST_SIGNER.address,
        slippage="0.5",
    )
    assert isinstance(quote, Quote)
    page = shown(quote)
    assert "in 10.00 USDC" in page.joined
    assert "gateway fee" in page.joined
    assert quote.swap_calldata not in quote._repr_html_()  # calldata is not for people


# 25 USDC on Base to WETH on Arbitrum, for the test signer.
ROUTE: dict[str, Any] = {
    "from_chain": 8453,
    "to_chain": 42161,
    "from_token": USDC_BASE,
    "to_token": WETH_ARBITRUM,
    "amount": 25_000_000,
    "sender": TEST_SIGNER.address,
}


def test_a_route_shows_its_tokens_fees_and_path(sb: Sandbox) -> None:
    routing = sb.routing_client()
    routes = routing.get_quote(**ROUTE)
    route = routes[0]
    assert isinstance(route, Route)
    page = shown(route)
    assert "25.00 USDC" in page.joined
    assert route.to_token.symbol in page.joined
    assert page.tags.count("table") == 2  # the terms, and the path
    assert all(step.provider.name in page.joined for step in route.path)


def test_a_gasless_quote_shows_its_terms_not_its_payload(sb: Sandbox) -> None:
    routing = sb.routing_client()
    quote = routing.get_gasless_quote(**ROUTE)[0]
    page = shown(quote)
    assert quote.quote_id[:8] in page.joined
    assert "verified yes" in page.joined
    assert "primaryType" not in quote._repr_html_()


# -------------------------------------------------------------------------------- pages


def test_a_history_page_is_a_table_of_its_swaps(journaled: dict[str, Any]) -> None:
    page_model = journaled["flash"].get_history()
    page = shown(page_model)
    assert "page 1 of 1" in page.joined
    assert "10.00 USDC" in page.joined
    assert page.tags.count("tr") == 1 + len(page_model.swaps)


def test_a_leaderboard_page_is_a_table(journaled: dict[str, Any]) -> None:
    board = journaled["flash"].get_leaderboard()
    page = shown(board)
    assert "Leaderboard" in page.joined
    assert page.tags.count("tr") == 1 + len(board.entries)


# ----------------------------------------------------------------------------- journeys


def test_a_journey_is_a_timeline_of_its_steps(journaled: dict[str, Any]) -> None:
    journey: Journey = journaled["journey"]
    page = shown(journey)
    assert page.tags.count("tr") == 1 + len(journey.steps)
    assert "completed" in page.joined
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", page.joined)
    assert "+0.0 s" in page.joined
    # The swap's transaction hash is shown (shortened, whole in the title).
    submitted = journey.last("submitted", "ok")
    assert submitted is not None
    tx_hash = submitted.data["answer"]["transactionHash"]
    assert tx_hash in journey._repr_html_()


def test_no_signature_reaches_a_repr_or_the_html(journaled: dict[str, Any]) -> None:
    journey: Journey = journaled["journey"]
    planted = secrets_of(journey.to_dict(show_signed=True))
    assert planted, "the journey should hold the order's signatures"
    shown_text = [
        repr(journey),
        journey._repr_html_(),
        *(repr(step) for step in journey.steps),
        *(repr(event) for event in journaled["events"]),
    ]
    for text in shown_text:
        for secret in planted:
            assert secret not in text
            assert secret[2:20] not in text


def test_a_journey_s_repr_is_short(journaled: dict[str, Any]) -> None:
    journey: Journey = journaled["journey"]
    assert len(journey.steps) == 9
    assert len(repr(journey)) < 250  # 9,768 characters before
    assert repr(journey) == (
        f"Journey(id={journey.id!r}, kind='swap', state='completed', steps=[started, "
        "quoted, verified, signed, submitted, submitted, waiting, executed, completed])"
    )
    signed = journey.steps[3]
    assert repr(signed).startswith(f"JournalStep(seq={signed.seq}, step='signed', status='ok'")
    assert repr(signed).endswith("data={what, intents})")
    long = Journey("j", "relay", "running", 0.0, 1.0, rows=journey.rows * 4)
    assert len(repr(long)) < 300
    assert "... 24 more ..." in repr(long)


# ----------------------------------------------------------------------------- escaping


def test_everything_shown_is_escaped(sb: Sandbox, journaled: dict[str, Any]) -> None:
    balance = GatewayBalance.model_validate(
        {
            "balances": [
                {
                    "domain": 6,
                    "depositor": TEST_SIGNER.address,
                    "balance": 1,
                    "chainId": 8453,
                    "chainName": HOSTILE,
                }
            ],
            "totalBalance": 1,
        }
    )
    assert HOSTILE not in balance._repr_html_()
    assert "&lt;script&gt;" in balance._repr_html_()
    assert HOSTILE in shown(balance).joined  # escaped, it reads as it was sent
    hostile = Journey(
        HOSTILE,
        HOSTILE,
        "running",
        0.0,
        1.0,
        rows=(Row(0, None, HOSTILE, HOSTILE, {"tx_hash": HOSTILE, HOSTILE: 1}, None, 0.0),),
    )
    markup = hostile._repr_html_()
    assert "<script" not in markup
    assert shown(hostile).joined.count(HOSTILE) >= 3
