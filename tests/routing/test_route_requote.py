"""``requote=`` on `RoutingClient.execute_route`, on the in-process EVM of
tests/routing/test_execution.py: a built transaction (or a route) that expired before
it was signed is built again (the route quoted again first when it expired), the new
one checked like the first (receiver, tokens, chains, the slippage floor, no less
guaranteed output than the route chosen, the routing contract, the simulation) and
offered to ``accept_quote``; only then signed. A new route refused for any other rule
is refused as it is: nothing is signed and the signer's nonce does not move. Also: the
whole call is one ``route`` journey, whose reads and checks are steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.routing import Route, Transaction
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..evm.conftest import Compiled
from ..support import resolve
from . import test_execution as ex
from .test_execution import AMOUNT, MINTED, QUOTE, ROUTER, _client, balance

pytestmark = pytest.mark.evm

ATTACKER = "0x" + "66" * 20
SIGNED_AND_SENT = [
    "signed", "broadcast", "broadcast", "confirmed", "approved",
    "signed", "broadcast", "broadcast", "confirmed", "waiting", "executed", "completed",
]  # fmt: skip


@pytest.fixture
async def web3(kind: str, compiled: Compiled, sb: Sandbox) -> Any:
    """The test chain of tests/routing/test_execution.py, USDC minted to the signer."""
    w3 = ex._web3(kind, compiled, sb)
    accounts = await resolve(w3.eth.accounts)
    mint = {
        "from": accounts[0],
        "to": ex.USDC_BASE,
        "data": ex._mint_data(TEST_SIGNER.address, MINTED),
    }
    await resolve(w3.eth.wait_for_transaction_receipt(await resolve(w3.eth.send_transaction(mint))))
    return w3


class CountingSigner:
    """The test key, counting what it signs (a signer that is not a LocalAccount)."""

    def __init__(self) -> None:
        self.address = TEST_SIGNER.address
        self.transactions: list[dict[str, Any]] = []

    def sign_transaction(self, fields: dict[str, Any]) -> Any:
        self.transactions.append(dict(fields))
        return TEST_SIGNER.sign_transaction(fields)

    def sign_message(self, signable_message: Any) -> Any:
        raise AssertionError("a route signs transactions only")

    def sign_typed_data(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a route signs transactions only")


def after_first_build(sb: Sandbox, seconds: float, then: Any = None) -> Any:
    """An ``on_response`` hook: once the first transaction is built, ``seconds`` pass on
    the sandbox's clock (the client's too), and ``then`` runs (it may set a fault)."""
    seen: list[bool] = []

    def hook(event: Any) -> None:
        if event.path.endswith("/build-path") and not seen:
            seen.append(True)
            sb.wait(seconds)
            if then is not None:
                then()

    return hook


def accepting() -> tuple[list[Any], Any]:
    """What an ``accept_quote`` hook is offered, and the hook, which accepts each."""
    offered: list[Any] = []

    def accept(new: Any) -> bool:
        offered.append(new)
        return True

    return offered, accept


def requests(sb: Sandbox) -> tuple[int, int]:
    """The routes quoted and the transactions built."""
    quotes = len(sb.requests.select("routing", "GET", "/quote"))
    builds = len(sb.requests.select("routing", "POST", "/build-path"))
    return quotes, builds


async def nonce(web3: Any) -> int:
    return int(await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address)))


async def test_an_expired_built_transaction_is_built_again_checked_and_executed(
    sb: Sandbox, kind: str, web3: Any, tmp_path: Path
) -> None:
    events: list[StepEvent] = []
    offered, accept = accepting()
    signer = CountingSigner()
    routing = _client(sb, kind, journal=tmp_path / "j.db", on_step=events.append)
    [route, *_] = await resolve(routing.get_quote(**QUOTE))
    # The first transaction is built already expired; the route itself is still good.
    sb.faults.tamper_built_transaction({"expiry": int(sb.clock.time()) - 1})
    result = await resolve(
        routing.execute_route(
            signer, route, web3=web3, approve=True, poll_interval=2.5, requote=1,
            accept_quote=accept,
        )
    )  # fmt: skip
    assert requests(sb) == (1, 2)
    # The same route built again: the hook saw the new transaction, which was sent.
    assert offered == [result.transaction]
    assert isinstance(offered[0], Transaction)
    assert result.transaction.expiry > sb.clock.time()
    assert len(signer.transactions) == 2  # the approval and the route, once each
    assert await balance(web3, ROUTER) == AMOUNT
    assert result.record is not None
    assert result.status == "completed"
    steps = [e.step for e in events]
    assert steps == [
        "started", "quoted", "requoted", "quoted", "verified", *SIGNED_AND_SENT
    ]  # fmt: skip
    requoted = events[2]
    assert (requoted.data["what"], requoted.data["attempt"]) == ("tx.expiry", 1)
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert journey.state == "completed"
    assert journey.arguments["requote"] == 1
    assert [s.step for s in journey.steps] == steps


async def test_an_expired_route_is_quoted_again_with_its_request(
    sb: Sandbox, kind: str, web3: Any
) -> None:
    events: list[StepEvent] = []
    offered, accept = accepting()
    hook = after_first_build(sb, sb.routing.quote_lifetime + 5)
    routing = _client(sb, kind, on_response=hook, on_step=events.append)
    [route, *_] = await resolve(routing.get_quote(**QUOTE))
    result = await resolve(
        routing.execute_route(
            TEST_SIGNER, route, web3=web3, approve=True, wait=False, requote=2,
            accept_quote=accept,
        )
    )  # fmt: skip
    assert requests(sb) == (2, 2)
    [new] = offered
    assert isinstance(new, Route)
    assert new.quote_id != route.quote_id
    assert new.request == route.request
    assert new.min_amount_out >= route.min_amount_out
    assert await balance(web3, ROUTER) == AMOUNT
    assert await balance(web3, TEST_SIGNER.address) == MINTED - AMOUNT
    assert result.status is None
    assert result.record is None
    steps = [e.step for e in events]
    assert steps[:5] == ["started", "quoted", "requoted", "quoted", "verified"]
    assert events[2].data["what"] == "tx.expiry"


async def test_without_requote_an_expired_transaction_is_refused_and_nothing_signed(
    sb: Sandbox, kind: str, web3: Any, tmp_path: Path
) -> None:
    signer = CountingSigner()
    routing = _client(sb, kind, journal=tmp_path / "j.db")
    [route, *_] = await resolve(routing.get_quote(**QUOTE))
    sb.faults.tamper_built_transaction({"expiry": int(sb.clock.time()) - 1})
    before = await nonce(web3)
    with pytest.raises(errors.QuoteRejectedError) as expired:
        await resolve(routing.execute_route(signer, route, web3=web3, approve=True))
    assert expired.value.argument == "tx.expiry"
    assert isinstance(expired.value.quote, Transaction)
    assert signer.transactions == []
    assert await nonce(web3) == before
    assert requests(sb) == (1, 1)
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert journey.state == "failed"
    assert [(s.step, s.status) for s in journey.steps] == [
        ("started", "started"), ("quoted", "ok"), ("failed", "not_sent")
    ]  # fmt: skip


async def test_the_requote_limit_is_kept(sb: Sandbox, kind: str, web3: Any) -> None:
    routing = _client(sb, kind)
    [route, *_] = await resolve(routing.get_quote(**QUOTE))
    sb.faults.tamper_built_transaction({"expiry": int(sb.clock.time()) - 1}, times=None)
    before = await nonce(web3)
    with pytest.raises(errors.QuoteRejectedError) as expired:
        await resolve(routing.execute_route(TEST_SIGNER, route, web3=web3, approve=True, requote=2))
    assert expired.value.argument == "tx.expiry"
    assert requests(sb) == (1, 3)
    assert await nonce(web3) == before


@pytest.mark.parametrize(
    ("changes", "error", "field"),
    [
        ({"receiver": ATTACKER}, errors.UnsafePayloadError, "route.receiver"),
        ({"toToken.chain": 10}, errors.UnsafePayloadError, "route.toToken.chain"),
        ({"minAmountOut": "1"}, errors.UnsafePayloadError, "route.minAmountOut"),
        # Honest in itself (its minimum within its own slippage), but it guarantees
        # less than the route the caller chose: never taken silently.
        (
            {"amountOut": "1000000", "minAmountOut": "1000000"},
            errors.QuoteRejectedError,
            "route.minAmountOut",
        ),
    ],
    ids=["receiver", "destination", "below-slippage", "less-than-chosen"],
)
async def test_a_worse_new_route_is_refused_and_nothing_signed(
    sb: Sandbox,
    kind: str,
    web3: Any,
    changes: dict[str, Any],
    error: type[errors.XSwapError],
    field: str,
) -> None:
    signer = CountingSigner()
    offered: list[Any] = []

    def tamper_next_quote() -> None:
        sb.faults.tamper_route(changes, times=None)

    hook = after_first_build(sb, sb.routing.quote_lifetime + 5, tamper_next_quote)
    routing = _client(sb, kind, on_response=hook)
    [route, *_] = await resolve(routing.get_quote(**QUOTE, slippage="0.5"))
    before = await nonce(web3)
    with pytest.raises(error) as refused:
        await resolve(
            routing.execute_route(
                signer, route, web3=web3, approve=True, requote=3, accept_quote=offered.append
            )
        )
    if isinstance(refused.value, errors.UnsafePayloadError):
        assert refused.value.field == field
    else:
        assert refused.value.argument == field
    # Refused as it is: not quoted a third time, not built, never offered or signed.
    assert requests(sb) == (2, 1)
    assert offered == []
    assert signer.transactions == []
    assert await nonce(web3) == before


async def test_a_declined_new_transaction_is_never_signed(
    sb: Sandbox, kind: str, web3: Any
) -> None:
    signer = CountingSigner()
    routing = _client(sb, kind)
    [route, *_] = await resolve(routing.get_quote(**QUOTE))
    sb.faults.tamper_built_transaction({"expiry": int(sb.clock.time()) - 1})
    before = await nonce(web3)
    with pytest.raises(errors.QuoteRejectedError) as declined:
        await resolve(
            routing.execute_route(
                signer, route, web3=web3, approve=True, requote=1, accept_quote=lambda new: False
            )
        )
    assert declined.value.argument == "accept_quote"
    assert requests(sb) == (1, 2)
    assert signer.transactions == []
    assert await nonce(web3) == before


@pytest.mark.parametrize(
    ("arguments", "name"),
    [({"requote": -1}, "requote"), ({"requote": 6}, "requote"), ({"requote": False}, "requote"),
     ({"requote": "1"}, "requote"), ({"accept_quote": "yes"}, "accept_quote"),
     # A route waits by default: timeout= would read as the wait's limit.
     ({"timeout": 30}, "timeout")],
)  # fmt: skip
async def test_requote_arguments_are_checked_before_any_io(
    sb: Sandbox, kind: str, web3: Any, arguments: dict[str, Any], name: str
) -> None:
    routing = _client(sb, kind)
    [route, *_] = await resolve(routing.get_quote(**QUOTE))
    with pytest.raises(errors.InvalidInputError) as info:
        await resolve(routing.execute_route(TEST_SIGNER, route, web3=web3, **arguments))
    assert info.value.argument == name
    assert requests(sb) == (1, 0)


@pytest.mark.parametrize("stop", ["started", "quoted", "requoted", "verified"])
async def test_a_route_stopped_before_signing_is_left_for_restart_without_sending(
    sb: Sandbox, kind: str, web3: Any, tmp_path: Path, stop: str
) -> None:
    class Crash(BaseException):
        """The process dies at this step."""

    def crash(event: StepEvent) -> None:
        if event.step == stop:
            raise Crash

    routing = _client(sb, kind, journal=tmp_path / "j.db", on_step=crash)
    [route, *_] = await resolve(routing.get_quote(**QUOTE))
    sb.faults.tamper_built_transaction({"expiry": int(sb.clock.time()) - 1})
    with pytest.raises(Crash):
        await resolve(routing.execute_route(TEST_SIGNER, route, web3=web3, approve=True, requote=1))
    before = await nonce(web3)
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert journey.state == "running"
    fresh = _client(sb, kind, journal=tmp_path / "j.db")
    # Going on would sign its first transaction: never without restart=True.
    with pytest.raises(errors.RestartRequiredError, match="restart=True"):
        await resolve(fresh.resume(journey.id, web3=web3))
    after = SQLiteJournal(tmp_path / "j.db").journey(journey.id)
    assert after is not None
    assert after.state == "running"
    assert await nonce(web3) == before
