"""Journeys in process, on virtual time: each is stopped at every step (a hook that
raises what no handler catches, like a crash), then resumed with a fresh client over
the same journal. Each ends completed or needs_attention (failed only when nothing was
signed or sent), and the money-moving request is never handled twice."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.registry import DEFAULT_REGISTRY
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_PRIVATE_KEY

from ..support import crash_after, crash_at
from .journeys import client, fund, money_requests, resolve, start, stopped

JOURNEYS = ["swap", "gasless_swap", "relay", "relay_sync", "transfer"]


@pytest.mark.parametrize("journey", JOURNEYS)
async def test_a_journey_writes_every_step_and_its_result_names_it(
    journey: str, kind: str, tmp_path: Path
) -> None:
    events: list[StepEvent] = []
    with Sandbox() as sb:
        fund(sb)
        api = client(sb, journey, kind, journal=tmp_path / "j.db", on_step=events.append)
        result = await resolve(start(journey, api))
    journal = SQLiteJournal(tmp_path / "j.db")
    [written] = journal.journeys()
    assert written.kind == journey
    assert written.state == "completed"
    assert [(s.step, s.status) for s in written.steps] == [(e.step, e.status) for e in events]
    assert {e.journey_id for e in events} == {written.id}
    if journey != "relay":  # relay returns the bare transaction id
        assert result.journey_id == written.id
    sending = written.last("submitted", "sending")
    assert sending is not None
    assert sending.data["body"] is not None  # the exact request, written before it left
    assert written.steps[-1].step == "completed"


async def test_without_a_journal_nothing_is_written_and_results_have_no_id(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XSWAP_JOURNAL", raising=False)
    with Sandbox() as sb:
        fund(sb)
        api = client(sb, "swap", kind)
        assert api.journal is None
        result = await resolve(start("swap", api))
    assert result.journey_id is None
    assert not any(os.scandir(tmp_path))


async def test_xswap_journal_gives_the_path(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XSWAP_JOURNAL", str(tmp_path / "env.db"))
    with Sandbox() as sb:
        api = client(sb, "relay_sync", kind)
        result = await resolve(start("relay_sync", api))
    assert SQLiteJournal(tmp_path / "env.db").journey(result.journey_id) is not None


def event_count(journey: str) -> int:
    return {"swap": 9, "gasless_swap": 9, "relay": 4, "relay_sync": 5, "transfer": 5}[journey]


CASES = [(j, n) for j in JOURNEYS for n in range(event_count(j))]


@pytest.mark.parametrize(("journey", "at"), CASES, ids=[f"{j}-{n}" for j, n in CASES])
# The key in the environment: a gasless swap stopped before it signed is run again
# with this signer.
@pytest.mark.usefixtures("key_in_env")
async def test_stopped_at_any_step_a_journey_resumes_without_sending_twice(
    journey: str, at: int, kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    seen: list[StepEvent] = []
    with Sandbox() as sb:
        fund(sb)
        interrupted = await stopped(sb, journey, kind, path, crash_after(at, seen))
        stopped_at = seen[-1]
        sent_before = len(money_requests(sb, journey))
        fresh = client(sb, journey, kind, journal=path)
        try:
            resumed = await resolve(fresh.resume(interrupted.id))
        except errors.RestartRequiredError:
            # Stopped before its signature was on disk: only a restart signs anew.
            assert interrupted.last("submitted", "sending") is None
            resumed = await resolve(fresh.resume(interrupted.id, restart=True))
        sent = money_requests(sb, journey)
    state = resumed.state
    assert state in ("completed", "needs_attention"), (stopped_at, state)
    assert len(sent) <= 1, "the money-moving request was handled twice"
    if state == "completed":
        assert len(sent) == 1
        if interrupted.state != "completed":  # a completed one is left as it is
            assert resumed.result is not None
    else:
        # Only where the request may have arrived: the journal reached "sending".
        assert interrupted.last("submitted", "sending") is not None
        assert len(sent) == sent_before
    if sent:
        journaled = resumed.journey.last("submitted", "sending")
        assert journaled is not None
        assert sent[0].body == _wire(journaled.data["body"])


def _wire(body: Any) -> Any:
    import json

    return json.dumps(body, separators=(",", ":")).encode()


@pytest.mark.usefixtures("no_key_in_env")
async def test_a_gasless_swap_stopped_before_signing_waits_for_restart_and_a_signer(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        journey = await stopped(sb, "gasless_swap", kind, path, crash_at(step="quoted"))
        fresh = client(sb, "gasless_swap", kind, journal=path)
        # Going on would sign a new payload: never without restart=True.
        with pytest.raises(errors.RestartRequiredError, match="restart=True"):
            await resolve(fresh.resume(journey.id))
        # With it, a signer is still needed: the journey is left as it was.
        with pytest.raises(errors.MissingCredentialsError, match="XSWAP_PRIVATE_KEY"):
            await resolve(fresh.resume(journey.id, restart=True))
        assert money_requests(sb, "gasless_swap") == []
        still = SQLiteJournal(path).journey(journey.id)
        assert still is not None
        assert still.state == "running"
        monkeypatch.setenv("XSWAP_PRIVATE_KEY", TEST_PRIVATE_KEY)
        resumed = await resolve(fresh.resume(journey.id, restart=True))
        assert len(money_requests(sb, "gasless_swap")) == 1
    assert resumed.state == "completed"


async def test_a_swap_whose_answer_was_lost_is_sent_again_and_a_refusal_needs_a_person(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        sb.faults.drop_after_processing(service="flash", path="/swap")
        flash = client(sb, "swap", kind, journal=path)
        with pytest.raises(errors.APIConnectionError) as lost:
            await resolve(start("swap", flash))
        assert lost.value.sent == "outcome_unknown"
        [journey] = SQLiteJournal(path).journeys()
        assert journey.state == "needs_attention"
        resumed = await resolve(client(sb, "swap", kind, journal=path).resume(journey.id))
        # The same signed bytes went again (its intents burn once): the backend refused
        # them, and only a person can tell whether the first was taken.
        assert len(money_requests(sb, "swap")) == 1
        sent = sb.requests.select("flash", "POST", "/swap")
        assert len(sent) == 2
        assert sent[0].body == sent[1].body
    assert resumed.state == "needs_attention"
    assert resumed.result is None
    assert "may have been taken" in resumed.journey.steps[-1].data["reason"]


async def test_a_resumed_transfer_is_ready_to_mint(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        # Killed with the transfer written and about to leave (an answer and the end
        # are written together, so a hook that raises at ``attested`` finds the journey
        # completed already).
        journey = await stopped(sb, "transfer", kind, path, crash_at(status="sending"))
        resumed = await resolve(client(sb, "transfer", kind, journal=path).resume(journey.id))
        assert len(money_requests(sb, "transfer")) == 1
    assert resumed.state == "completed"
    mint = resumed.result.mint_call(42161)
    assert mint.to == DEFAULT_REGISTRY.chain(42161).gateway_minter


async def test_a_resumed_wait_that_runs_out_again_leaves_the_journey_running(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        sb.flash.completion_delay = 10_000.0  # longer than the journey's wait_timeout
        journey = await stopped(sb, "swap", kind, path, crash_at(step="waiting"))
        with pytest.raises(errors.WaitTimeoutError):
            await resolve(client(sb, "swap", kind, journal=path).resume(journey.id))
        assert len(money_requests(sb, "swap")) == 1
    after = SQLiteJournal(path).journey(journey.id)
    assert after is not None
    assert after.state == "running"
    assert (after.steps[-1].step, after.steps[-1].status) == ("interrupted", "sent")
