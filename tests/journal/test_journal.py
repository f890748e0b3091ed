"""The journal itself, the events and the progress display, the errors' ``sent``, and
the journeys that fail: what is written, what is never written."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk._journey import encode
from xswap_sdk._progress import progress_line
from xswap_sdk.journal import (
    Journey,
    Owner,
    Row,
    SQLiteJournal,
    StepEvent,
    open_journal,
)
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_PRIVATE_KEY, TEST_SIGNER

from .journeys import USDC_BASE, client, fund, money_requests, resolve, start

# Keeping journeys and leases (one holder writes; a lease expires, a dead process's at
# once): the protocol tests of test_postgres_journal.py, run against SQLite and Postgres.


def test_keys_and_tokens_are_never_written() -> None:
    written = json.loads(encode({"privateKey": "0xsecret", "nested": [{"jwt": "t"}], "a": 1}))
    assert written == {"nested": [{}], "a": 1}
    assert json.loads(encode({"api_key": "k", "signature": "0xsig"})) == {"signature": "0xsig"}


async def test_a_swap_with_a_login_writes_no_key_and_no_jwt(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        flash = client(sb, "swap", kind, journal=path)
        await resolve(start("swap", flash))
        token = flash.session.token.get_secret_value()
    written = _files(tmp_path)
    assert TEST_PRIVATE_KEY[2:].encode() not in written
    assert TEST_PRIVATE_KEY[2:].lower().encode() not in written.lower()
    assert token.encode() not in written
    assert b"signature" in written  # the signed order is there: resume needs it


def _files(directory: Path) -> bytes:
    # The database and its WAL: a step may still be only in the latter.
    return b"".join(p.read_bytes() for p in directory.iterdir() if p.is_file())


def test_a_journal_is_a_path_a_journal_or_the_variable(tmp_path: Path) -> None:
    assert open_journal(None, environ={}) is None
    by_env = open_journal(None, environ={"XSWAP_JOURNAL": str(tmp_path / "e.db")})
    assert isinstance(by_env, SQLiteJournal)
    own = SQLiteJournal(tmp_path / "o.db")
    assert open_journal(own) is own
    assert isinstance(open_journal(tmp_path / "p.db"), SQLiteJournal)
    with pytest.raises(errors.InvalidInputError, match="journal"):
        open_journal(42)  # type: ignore[arg-type]
    with pytest.raises(errors.InvalidInputError, match="XSWAP_JOURNAL"):
        open_journal(None, environ={"XSWAP_JOURNAL": str(tmp_path / "no" / "such" / "dir")})
    with pytest.raises(errors.InvalidInputError, match="journal"):
        Sandbox().relayer_client(journal=3.5)


def test_every_error_says_whether_anything_was_sent() -> None:
    assert errors.InvalidInputError("x", "y").sent == "not_sent"
    assert errors.APIConnectionError(request_sent=False).sent == "not_sent"
    assert errors.APIConnectionError(request_sent=True).sent == "sent"
    assert errors.APITimeoutError(outcome_unknown=True).sent == "outcome_unknown"
    answered = errors.APIStatusError("no", status_code=400, body=None)
    assert answered.sent == "sent"
    assert errors.SwapFailedError("failed").sent == "not_sent"


def test_the_progress_line_says_what_matters() -> None:
    line = progress_line(StepEvent("abcdef0123", "swap", "waiting", "ok", {"expected_seconds": 60}))
    assert line == "[swap abcdef01] waiting, usually about 60 s"
    assert progress_line(StepEvent(None, "relay", "submitted", "sending")) == (
        "[relay -] submitting..."
    )
    unknown = progress_line(StepEvent("abc", "relay", "needs_attention", "outcome_unknown"))
    assert "may have been sent" in unknown
    assert "xswap resume abc" in unknown


async def test_progress_prints_one_line_per_step_on_stderr(
    kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with Sandbox() as sb:
        relayer = client(sb, "relay_sync", kind, progress=True)
        await resolve(start("relay_sync", relayer))
    lines = capsys.readouterr().err.splitlines()
    assert [line.split("] ")[1] for line in lines] == [
        "started",
        "submitting...",
        "submitted",
        "executed",
        "completed",
    ]


async def test_an_async_client_awaits_an_async_step_hook(tmp_path: Path) -> None:
    seen: list[str] = []

    async def hook(event: StepEvent) -> None:
        await asyncio.sleep(0)
        seen.append(event.step)

    with Sandbox() as sb:
        relayer = sb.async_relayer_client(on_step=hook)
        await relayer.relay(chain_id=8453, to=USDC_BASE, call_data="0x")
    assert seen == ["started", "submitted", "submitted", "completed"]
    with pytest.raises(errors.InvalidInputError, match="on_step"):
        Sandbox().relayer_client(on_step=hook)


async def test_a_request_lost_after_it_arrived_leaves_the_journey_needing_attention(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    events: list[StepEvent] = []
    with Sandbox() as sb:
        sb.faults.drop_after_processing(service="relayer", path="/api/submit-tx")
        relayer = client(sb, "relay", kind, journal=path, on_step=events.append)
        with pytest.raises(errors.APIConnectionError) as lost:
            await resolve(start("relay", relayer))
        assert lost.value.sent == "outcome_unknown"
        [journey] = SQLiteJournal(path).journeys()
        assert journey.state == "needs_attention"
        assert [(e.step, e.status) for e in events][-2:] == [
            ("submitted", "outcome_unknown"),
            ("needs_attention", "outcome_unknown"),
        ]
        # Resume cannot ask the relayer without its id: nothing is sent again.
        resumed = await resolve(client(sb, "relay", kind, journal=path).resume(journey.id))
        assert resumed.state == "needs_attention"
        assert resumed.result is None
        assert len(money_requests(sb, "relay")) == 1


async def test_a_refused_request_fails_the_journey_with_nothing_sent(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        sb.faults.refuse_connection(service="relayer", path="/api/submit-tx")
        relayer = client(sb, "relay", kind, journal=path, max_retries=0)
        with pytest.raises(errors.APIConnectionError) as refused:
            await resolve(start("relay", relayer))
        assert refused.value.sent == "not_sent"
    [journey] = SQLiteJournal(path).journeys()
    assert journey.state == "failed"
    assert journey.steps[-1].status == "not_sent"


async def test_an_x402_payment_is_written_before_the_paid_request(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        relayer = client(
            sb, "relay", kind, journal=path, api_key=None, payer=TEST_SIGNER, max_payment=50_000
        )
        await resolve(start("relay", relayer))
    [journey] = SQLiteJournal(path).journeys()
    steps = [(s.step, s.status) for s in journey.steps]
    assert steps.index(("paid", "sending")) < steps.index(("submitted", "ok"))
    paid = journey.last("paid")
    assert paid is not None
    [(name, value)] = paid.data["headers"].items()
    assert name.lower() == "payment-signature"
    assert value


async def test_resume_refuses_what_it_cannot_resume_before_any_io(tmp_path: Path) -> None:
    with Sandbox() as sb:
        without = sb.relayer_client()
        with pytest.raises(errors.InvalidInputError, match="journal"):
            without.resume("x")
        relayer = sb.relayer_client(journal=tmp_path / "j.db")
        with pytest.raises(errors.InvalidInputError, match="no journey"):
            relayer.resume("0" * 32)
        journal = relayer.journal
        assert journal is not None
        swap_id = journal.create("swap", "{}", Owner.this_process())
        with pytest.raises(errors.InvalidInputError, match="is a swap journey"):
            relayer.resume(swap_id)
        assert len(sb.requests) == 0


def test_a_journey_is_plain_data_and_prints_short() -> None:
    rows = (
        Row(0, 0, "started", "started", {}, None, 1.0),
        Row(1, 1, "sign", "ok", {"value": "0x" + "ab" * 65}, None, 1.0),
        Row(2, 2, "signed", "ok", {"what": "order"}, None, 1.5),
    )
    journey = Journey("id", "swap", "running", 1.0, 2.0, {"a": 1}, rows)
    assert [s.step for s in journey.steps] == ["started", "signed"]
    assert journey.last("signed") is journey.steps[1]
    assert journey.last("quoted") is None
    assert journey.arguments == {"a": 1}
    assert repr(journey) == (
        "Journey(id='id', kind='swap', state='running', steps=[started, signed])"
    )


async def test_a_slow_wait_is_reported_slow_then_stuck_never_suggesting_a_resend(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    events: list[StepEvent] = []
    with Sandbox() as sb:
        fund(sb)
        sb.flash.completion_delay = 250.0  # the swap's usual time is about 60 s
        flash = client(
            sb, "swap", kind, journal=tmp_path / "j.db", on_step=events.append, progress=True
        )
        result = await resolve(start("swap", flash))
    assert result.status == "completed"
    steps = [e.step for e in events]
    assert steps[steps.index("waiting") :] == ["waiting", "slow", "stuck", "executed", "completed"]
    slow, stuck = events[steps.index("slow")], events[steps.index("stuck")]
    assert 90 <= slow.data["elapsed_seconds"] < 240 <= stuck.data["elapsed_seconds"]
    assert slow.data["transaction_hash"] == result.transaction_hash
    assert stuck.data["check"] == f"xswap status swap {result.transaction_hash}"
    for event in (slow, stuck):
        assert "do not submit again" in event.data["next"]
    err = capsys.readouterr().err
    assert "] stuck: " in err
    assert "usually about 60 s; do not submit again" in err


class FailingJournal(SQLiteJournal):
    """A journal whose disk fills up when a given step is written."""

    def __init__(self, path: Path, failing: tuple[str, str]) -> None:
        super().__init__(path)
        self.failing = failing

    def append(self, journey_id: str, owner: Owner, rows: Any, **kw: Any) -> None:
        if any((row.step, row.status) == self.failing for row in rows):
            raise OSError("disk full")
        super().append(journey_id, owner, rows, **kw)


async def test_a_journal_that_cannot_be_written_before_sending_stops_the_send(
    kind: str, tmp_path: Path
) -> None:
    with Sandbox() as sb:
        journal = FailingJournal(tmp_path / "j.db", ("submitted", "sending"))
        relayer = client(sb, "relay", kind, journal=journal)
        with pytest.raises(errors.JournalError) as stopped:
            await resolve(start("relay", relayer))
        assert stopped.value.sent == "not_sent"
        assert stopped.value.step == "submitted/sending"
        assert money_requests(sb, "relay") == []


async def test_a_journal_write_failing_after_the_request_keeps_the_result(
    kind: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with Sandbox() as sb:
        journal = FailingJournal(tmp_path / "j.db", ("submitted", "ok"))
        relayer = client(sb, "relay_sync", kind, journal=journal)
        record = await resolve(start("relay_sync", relayer))
        assert record.status
        assert len(money_requests(sb, "relay_sync")) == 1
    assert "could not write the journal (OSError)" in caplog.text


async def test_the_signed_step_records_what_the_signing_policy_approved(
    kind: str, tmp_path: Path
) -> None:
    from xswap_sdk.policy import Policy

    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        flash = client(sb, "swap", kind, journal=path, policy=Policy())
        await resolve(start("swap", flash))
    [journey] = SQLiteJournal(path).journeys()
    signed = journey.last("signed")
    assert signed is not None
    kinds = [request["kind"] for request in signed.data["approved"]]
    assert kinds[-1] in ("burn_intent", "burn_intent_set")
    assert signed.data["approved"][-1]["signer"] == TEST_SIGNER.address


async def test_without_a_policy_nothing_is_added_to_the_signed_step(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        await resolve(start("swap", client(sb, "swap", kind, journal=path)))
    [journey] = SQLiteJournal(path).journeys()
    assert "approved" not in journey.last("signed").data  # type: ignore[union-attr]
