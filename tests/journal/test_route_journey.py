"""`RoutingClient.execute_route` as a ``route`` journey on the in-process EVM of
tests/routing/test_execution.py: every step written (the signed raw bytes before they
are broadcast), and a journey stopped at each step resumed by a fresh client over the
same journal. Resume never signs or sends a transaction: the signer's nonce does not
move; the journey ends completed, needs_attention (a transaction may have been
broadcast and neither the chain nor /status knows it) or failed (the route
transaction never left)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..evm.conftest import Compiled, compiled  # noqa: F401
from ..routing import test_execution as ex
from ..routing.test_execution import QUOTE, ROUTER, _client, balance
from ..support import resolve

pytestmark = pytest.mark.evm

STEPS = [
    ("started", "started"),
    ("quoted", "ok"),
    ("verified", "ok"),
    ("signed", "ok"),
    ("broadcast", "sending"),
    ("broadcast", "ok"),
    ("confirmed", "ok"),
    ("approved", "ok"),
    ("signed", "ok"),
    ("broadcast", "sending"),
    ("broadcast", "ok"),
    ("confirmed", "ok"),
    ("waiting", "ok"),
    ("executed", "ok"),
    ("completed", "ok"),
]


class Crash(BaseException):
    """Stands for the process dying: no ``except Exception`` catches it."""


@pytest.fixture
def sb() -> Any:
    with Sandbox() as sandbox:
        yield sandbox


@pytest.fixture
async def chain(kind: str, compiled: Compiled, sb: Sandbox) -> Any:  # noqa: F811
    """The test chain of tests/routing/test_execution.py, USDC minted to the signer."""
    w3 = ex._web3(kind, compiled, sb)
    accounts = await resolve(w3.eth.accounts)
    mint = {
        "from": accounts[0],
        "to": ex.USDC_BASE,
        "data": ex._mint_data(TEST_SIGNER.address, ex.MINTED),
    }
    await resolve(w3.eth.wait_for_transaction_receipt(await resolve(w3.eth.send_transaction(mint))))
    return w3


async def _nonce(web3: Any) -> int:
    return int(await resolve(web3.eth.get_transaction_count(TEST_SIGNER.address)))


async def test_a_route_journey_writes_each_chain_step(
    sb: Sandbox, kind: str, chain: Any, tmp_path: Path
) -> None:
    events: list[StepEvent] = []
    routing = _client(sb, kind, journal=tmp_path / "j.db", on_step=events.append)
    [route, *_] = await resolve(routing.get_quote(**QUOTE))
    result = await resolve(
        routing.execute_route(TEST_SIGNER, route, web3=chain, approve=True, poll_interval=2.5)
    )
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert (journey.kind, journey.state, result.journey_id) == ("route", "completed", journey.id)
    assert [(s.step, s.status) for s in journey.steps] == STEPS
    assert [(e.step, e.status) for e in events] == STEPS
    signed = [s for s in journey.steps if s.step == "signed"][-1]
    # The exact bytes and their hash were written before they were broadcast.
    assert signed.data["what"] == "route"
    assert signed.data["raw"].startswith("0x")
    assert signed.data["tx_hash"] == result.tx_hash
    # The wait is watched against the routing service's own estimate.
    waiting = journey.last("waiting")
    assert waiting is not None
    assert waiting.data["expected_seconds"] == route.estimated_time_ms / 1000
    assert result.allowance is not None
    assert result.allowance.approval_tx_hash
    assert result.record is not None
    assert result.status == "completed"


@pytest.mark.parametrize("stop", range(len(STEPS) - 1))
@pytest.mark.parametrize("with_web3", [True, False])
async def test_a_route_journey_stopped_at_any_step_resumes_without_sending_again(
    sb: Sandbox, kind: str, chain: Any, tmp_path: Path, stop: int, with_web3: bool
) -> None:
    seen: list[StepEvent] = []

    def crash_at(event: StepEvent) -> None:
        seen.append(event)
        if len(seen) > stop:
            raise Crash

    routing = _client(sb, kind, journal=tmp_path / "j.db", on_step=crash_at)
    [route, *_] = await resolve(routing.get_quote(**QUOTE))
    with pytest.raises(Crash):
        await resolve(
            routing.execute_route(TEST_SIGNER, route, web3=chain, approve=True, poll_interval=2.5)
        )
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert journey.state == "running"
    sent_before = await _nonce(chain)
    fresh = _client(sb, kind, journal=tmp_path / "j.db")
    resumed = await resolve(fresh.resume(journey.id, web3=chain if with_web3 else None))
    # Resume signs and sends nothing on the chain.
    assert await _nonce(chain) == sent_before
    route_sent = any(s.step == "broadcast" and s.data["what"] == "route" for s in journey.steps)
    mined = await balance(chain, ROUTER) > 0
    if not route_sent:
        assert resumed.state in ("failed", "needs_attention")
        assert resumed.result is None
    elif mined:
        # On the chain (receipt) or known to /status: followed to the end.
        assert resumed.state == "completed"
        assert resumed.result.journey_id == journey.id
        assert resumed.result.status == "completed"
    else:
        assert resumed.state == "needs_attention"
        assert resumed.result is None
        assert resumed.journey.last("needs_attention") is not None
    # Resuming again does nothing more.
    again = await resolve(fresh.resume(journey.id, web3=chain if with_web3 else None))
    assert again.state == resumed.state
    assert await _nonce(chain) == sent_before


def test_a_resumed_route_whose_receipt_says_it_reverted_fails_without_sending() -> None:
    from xswap_sdk import errors
    from xswap_sdk._flow import Begin, Chain
    from xswap_sdk.journal import JournalStep, Journey
    from xswap_sdk.routing._route_journey import resume_route

    steps = (
        JournalStep(0, "started", "started", {"chain_id": 8453, "sender": "0x1", "wait": True}, 0),
        JournalStep(1, "signed", "ok", {"what": "route", "tx_hash": "0xab"}, 0),
        JournalStep(2, "broadcast", "sending", {"what": "route", "tx_hash": "0xab"}, 0),
    )
    journey = Journey("j", "route", "running", 0, 0, steps=steps)
    looked: list[str] = []

    def receipt(tx_hash: str) -> dict[str, int]:
        looked.append(tx_hash)
        return {"status": 0}

    def never(_: str) -> Any:
        raise AssertionError("nothing else is asked")

    flow = resume_route(journey, receipt, never, never)
    assert isinstance(next(flow), Begin)
    step = flow.send(None)
    assert isinstance(step, Chain)
    with pytest.raises(errors.SwapFailedError):
        flow.send(step.call())
    assert looked == ["0xab"]
