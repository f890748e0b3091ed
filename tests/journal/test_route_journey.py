"""`RoutingClient.execute_route` as a ``route`` journey on the in-process EVM of
tests/routing/test_execution.py: every step written (the signed raw bytes before they
are broadcast), and a journey stopped at each step resumed by a fresh client over the
same journal. Resume replays what was recorded and never signs what was not signed
before the stop without restart=True; a signed transaction that may not have left is
sent again as the same bytes: each transaction is mined once, and the signer's nonce
moves by exactly the approval and the route."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_SIGNER

from ..evm.conftest import Compiled, compiled  # noqa: F401
from ..routing import test_execution as ex
from ..routing.test_execution import QUOTE, _client
from ..support import Crash, crash_after, resolve

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
    routing = _client(sb, kind, journal=tmp_path / "j.db", on_step=crash_after(stop, seen))
    [route, *_] = await resolve(routing.get_quote(**QUOTE))
    first_nonce = await _nonce(chain)
    with pytest.raises(Crash):
        await resolve(
            routing.execute_route(TEST_SIGNER, route, web3=chain, approve=True, poll_interval=2.5)
        )
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert journey.state == "running"
    fresh = _client(sb, kind, journal=tmp_path / "j.db")
    web3 = chain if with_web3 else None
    restarted = False
    try:
        resumed = await resolve(fresh.resume(journey.id, web3=web3))
    except errors.MissingCredentialsError as missing:
        # Going on needs the chain: named, and the journey is left as it was.
        argument = missing.argument
        assert argument == "web3"
        still = SQLiteJournal(tmp_path / "j.db").journey(journey.id)
        assert still is not None
        assert still.state == "running"
        web3 = chain
        try:
            resumed = await resolve(fresh.resume(journey.id, web3=web3))
        except errors.RestartRequiredError:
            restarted = True
            resumed = await resolve(
                fresh.resume(journey.id, web3=web3, restart=True, signer=TEST_SIGNER)
            )
    except errors.RestartRequiredError:
        # Its next step signs a transaction it had not signed: only with restart=True.
        restarted = True
        resumed = await resolve(
            fresh.resume(journey.id, web3=chain, restart=True, signer=TEST_SIGNER)
        )
    assert resumed.state == "completed", resumed.journey.steps[-1]
    assert resumed.result.journey_id == journey.id
    assert resumed.result.status == "completed"
    # The approval and the route, each signed and mined once: no nonce spent twice.
    assert await _nonce(chain) == first_nonce + 2
    if restarted:
        assert resumed.journey.last("resumed") is not None
    # Resuming again does nothing more.
    again = await resolve(fresh.resume(journey.id, web3=chain))
    assert again.state == "completed"
    assert await _nonce(chain) == first_nonce + 2
