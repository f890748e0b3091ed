"""``requote=`` on `RoutingClient.gasless_swap`, against the sandbox: a quote whose
permit deadline passes before it is signed is asked again, the new one checked like
the first (Permit2 payload, witness, ``min_amount_out``) and offered to
``accept_quote``; only then signed. Never a worse quote signed silently: a new quote
refused for any other rule is refused as it is, and nothing is signed or submitted."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.routing import GaslessQuote
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..support import Crash, crash_at, resolve
from ..trust.support import RecordingSigner

USDC_BASE = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"
WETH_ARBITRUM = "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1"
ATTACKER = "0x" + "66" * 20
SWAP: dict[str, Any] = {
    "from_chain": 8453,
    "to_chain": 42161,
    "from_token": USDC_BASE,
    "to_token": WETH_ARBITRUM,
    "amount": 5_000_000,
}


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    with Sandbox() as sandbox:
        sandbox.fund(TEST_SIGNER.address, 8453, 30_000_000)
        yield sandbox


def expiring(sb: Sandbox, then: Any = None) -> Any:
    """An ``on_response`` hook: the first gasless quote arrives after its permit's
    deadline (the sandbox's clock moves past it), and ``then`` runs once (it may set a
    fault for the next quote)."""
    seen: list[bool] = []

    def hook(event: Any) -> None:
        if event.path.endswith("/gasless/quote") and not seen:
            seen.append(True)
            sb.wait(sb.routing.gasless_deadline_minutes * 60 + 5)
            if then is not None:
                then()

    return hook


def _client(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    return sb.routing_client(**kwargs) if kind == "sync" else sb.async_routing_client(**kwargs)


def counts(sb: Sandbox) -> tuple[int, int]:
    """The gasless quotes asked and the submissions the service received."""
    quotes = len(sb.requests.select("routing", "GET", "/gasless/quote"))
    submits = len(sb.requests.select("routing", "POST", "/gasless/submit-swap"))
    return quotes, submits


async def test_an_expired_quote_is_refused_without_requote(sb: Sandbox, kind: str) -> None:
    signer = RecordingSigner(TEST_SIGNER.key)
    routing = _client(sb, kind, on_response=expiring(sb))
    with pytest.raises(errors.QuoteRejectedError) as expired:
        await resolve(routing.gasless_swap(signer, **SWAP))
    assert expired.value.argument == "quote.eip712.message.deadline"
    assert counts(sb) == (1, 0)
    assert signer.typed == []


async def test_requote_asks_again_checks_and_signs_the_new_quote(
    sb: Sandbox, kind: str, tmp_path: Any
) -> None:
    events: list[StepEvent] = []
    offered: list[GaslessQuote] = []

    def accept(quote: GaslessQuote) -> bool:
        offered.append(quote)
        return True

    signer = RecordingSigner(TEST_SIGNER.key)
    routing = _client(
        sb,
        kind,
        on_response=expiring(sb),
        on_step=events.append,
        journal=tmp_path / "j.db",
    )
    result = await resolve(
        routing.gasless_swap(
            signer, **SWAP, min_amount_out=1, requote=2, accept_quote=accept, wait=True
        )
    )
    assert counts(sb) == (2, 1)
    # One signature, over the new quote, which the hook saw after its checks.
    assert len(signer.typed) == 1
    assert [q.quote_id for q in offered] == [result.quote.quote_id]
    assert signer.typed[0] == result.quote.eip712
    assert result.record is not None
    steps = [e.step for e in events]
    assert steps[:7] == [
        "started", "quoted", "requoted", "quoted", "verified", "signed", "submitted"
    ]  # fmt: skip
    requoted = events[2]
    assert requoted.data["attempt"] == 1
    assert "deadline" in requoted.data["reason"]
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert journey.state == "completed"
    assert journey.arguments["requote"] == 2
    assert [s.step for s in journey.steps] == [*steps]


async def test_a_declined_new_quote_is_never_signed(sb: Sandbox, kind: str) -> None:
    signer = RecordingSigner(TEST_SIGNER.key)
    routing = _client(sb, kind, on_response=expiring(sb))
    with pytest.raises(errors.QuoteRejectedError) as declined:
        await resolve(
            routing.gasless_swap(signer, **SWAP, requote=1, accept_quote=lambda quote: False)
        )
    assert declined.value.argument == "accept_quote"
    assert isinstance(declined.value.quote, GaslessQuote)
    assert counts(sb) == (2, 0)
    assert signer.typed == []


@pytest.mark.parametrize(
    ("changes", "arguments", "field"),
    [
        ({"quote.receiver": ATTACKER}, {}, "quote.quote.receiver"),
        ({"eip712.message.witness.receiver": ATTACKER}, {}, "eip712.message.witness.receiver"),
        (
            {"quote.amountOut": "1", "quote.minAmountOut": "1"},
            {"min_amount_out": 1_000},
            "quote.quote.amountOut",
        ),
    ],
    ids=["summary-receiver", "witness-receiver", "below-min-amount-out"],
)
async def test_a_worse_new_quote_is_refused_as_it_is(
    sb: Sandbox, kind: str, changes: dict[str, Any], arguments: dict[str, Any], field: str
) -> None:
    signer = RecordingSigner(TEST_SIGNER.key)

    def tamper_next() -> None:
        sb.faults.tamper_gasless_quote(changes, times=None)

    offered: list[Any] = []
    routing = _client(sb, kind, on_response=expiring(sb, tamper_next))
    with pytest.raises(errors.UnsafePayloadError) as refused:
        await resolve(
            routing.gasless_swap(
                signer, **SWAP, **arguments, requote=3, accept_quote=offered.append
            )
        )
    # Refused for its terms, not re-quoted again: one new quote, nothing signed or sent.
    assert refused.value.field == field
    assert counts(sb) == (2, 0)
    assert signer.typed == []
    assert offered == []


async def test_an_async_accept_quote_is_refused_not_read_as_true(sb: Sandbox, kind: str) -> None:
    async def accept(quote: GaslessQuote) -> bool:
        return False

    signer = RecordingSigner(TEST_SIGNER.key)
    routing = _client(sb, kind, on_response=expiring(sb))
    with pytest.raises(errors.InvalidInputError) as refused:
        await resolve(routing.gasless_swap(signer, **SWAP, requote=1, accept_quote=accept))
    assert refused.value.argument == "accept_quote"
    assert counts(sb) == (2, 0)
    assert signer.typed == []


async def test_the_requote_limit_is_kept(sb: Sandbox, kind: str) -> None:
    signer = RecordingSigner(TEST_SIGNER.key)
    always: list[int] = []

    def every_quote_late(event: Any) -> None:
        if event.path.endswith("/gasless/quote"):
            always.append(1)
            sb.wait(sb.routing.gasless_deadline_minutes * 60 + 5)

    routing = _client(sb, kind, on_response=every_quote_late)
    with pytest.raises(errors.QuoteRejectedError) as expired:
        await resolve(routing.gasless_swap(signer, **SWAP, requote=2))
    assert expired.value.argument == "quote.eip712.message.deadline"
    assert counts(sb) == (3, 0)
    assert signer.typed == []


@pytest.mark.parametrize(
    ("arguments", "name"),
    [({"requote": -1}, "requote"), ({"requote": 6}, "requote"), ({"requote": True}, "requote"),
     ({"requote": 1.0}, "requote"), ({"accept_quote": 3}, "accept_quote")],
)  # fmt: skip
async def test_requote_arguments_are_checked_before_any_io(
    sb: Sandbox, kind: str, arguments: dict[str, Any], name: str
) -> None:
    routing = _client(sb, kind)
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.gasless_swap(TEST_SIGNER, **SWAP, **arguments))
    assert info.value.argument == name
    assert not sb.requests.select("routing")


# The process dies right after the first quote arrived.
crash = crash_at(step="quoted")


async def test_a_resumed_swap_stopped_before_signing_runs_again_with_its_requote(
    sb: Sandbox, kind: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "j.db"
    routing = _client(sb, kind, journal=path, on_step=crash)
    with pytest.raises(Crash):
        await resolve(routing.gasless_swap(TEST_SIGNER, **SWAP, requote=1))
    [journey] = SQLiteJournal(path).journeys()
    assert journey.arguments["requote"] == 1
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", "0x" + TEST_SIGNER.key.hex().removeprefix("0x"))
    # The run again gets a quote that arrives expired: its journaled limit asks again.
    fresh = _client(sb, kind, journal=path, on_response=expiring(sb))
    resumed = await resolve(fresh.resume(journey.id, restart=True))
    assert resumed.state == "completed"
    assert counts(sb) == (3, 1)
    steps = [s.step for s in resumed.journey.steps]
    assert steps.count("requoted") == 1


async def test_a_resumed_swap_that_had_a_hook_never_signs_a_new_quote_unseen_by_it(
    sb: Sandbox, kind: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "j.db"
    routing = _client(sb, kind, journal=path, on_step=crash)
    with pytest.raises(Crash):
        await resolve(
            routing.gasless_swap(TEST_SIGNER, **SWAP, requote=1, accept_quote=lambda q: True)
        )
    [journey] = SQLiteJournal(path).journeys()
    assert journey.arguments["accept_quote"] is True
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", "0x" + TEST_SIGNER.key.hex().removeprefix("0x"))
    # A journal cannot keep the hook: the run again may not re-quote without it.
    fresh = _client(sb, kind, journal=path, on_response=expiring(sb))
    with pytest.raises(errors.QuoteRejectedError) as declined:
        await resolve(fresh.resume(journey.id, restart=True))
    assert declined.value.argument == "accept_quote"
    after = SQLiteJournal(path).journey(journey.id)
    assert after is not None
    assert after.state == "failed"
    # The crashed run's quote, the run again's and the new one; nothing signed or sent.
    assert counts(sb) == (3, 0)
