"""The four ways the journeys layer broke its promise, each reproduced from the public
API and now refused, sync and async:

- a wait that times out after the swap was accepted says ``sent`` (error, journal,
  progress line), and code that retries on ``not_sent`` does not swap twice;
- two swaps of one wallet for one amount, stopped at different points, are each resumed
  by their own identity: never credited with each other's swap;
- two resumes of one journey (threads, tasks, processes) run it once: the other gets
  `JourneyBusyError`;
- the journal is trusted no more than a service: a tampered or planted journey is
  refused, a journaled path is never followed, the file is private (0600) and one others
  can write is refused.

And the rest of the issue: a resume without credentials leaves the journey as it was,
``xswap resume --all`` reports busy journeys and exits 0, ``xswap journeys --json``
hides signatures unless ``--show-signed``, a resume never signs what was not signed
before the stop without ``restart``, and a replayed step that asks for something else
than its record stops the journey for a person.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import stat
import subprocess
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk._progress import progress_line
from xswap_sdk.journal import Owner, SQLiteJournal, StepEvent
from xswap_sdk.relayer import RelayerPaths
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_PRIVATE_KEY, TEST_SIGNER

from ..support import FLASH_SWAP, Crash, crash_at
from .journeys import client, fund, money_requests, resolve, start, stopped

ROOT = Path(__file__).resolve().parents[2]


# ------------------------------------------------------------------ what was sent


async def test_a_wait_that_times_out_after_the_swap_was_accepted_says_sent(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    events: list[StepEvent] = []
    with Sandbox() as sb:
        fund(sb)
        sb.flash.completion_delay = 10_000.0  # never within the wait
        flash = client(sb, "swap", kind, journal=path, on_step=events.append)
        with pytest.raises(errors.WaitTimeoutError) as timed_out:
            await resolve(
                flash.swap(
                    TEST_SIGNER,
                    **FLASH_SWAP,
                    wait=True,
                    wait_timeout=20,
                    poll_interval=5,
                )
            )
        assert len(money_requests(sb, "swap")) == 1
    # The error, the journal and the progress line all say it was sent.
    assert timed_out.value.sent == "sent"
    [journey] = SQLiteJournal(path).journeys()
    assert timed_out.value.journey_id == journey.id
    assert journey.state == "running"  # resume waits again
    last = journey.steps[-1]
    assert (last.step, last.status) == ("interrupted", "sent")
    line = progress_line(events[-1])
    assert "nothing was sent" not in line
    assert "do not send it again" in line


async def test_an_error_before_anything_was_sent_still_says_not_sent(
    kind: str, tmp_path: Path
) -> None:
    with Sandbox() as sb:
        sb.faults.refuse_connection(service="relayer", path="/api/submit-tx")
        relayer = client(sb, "relay", kind, journal=tmp_path / "j.db", max_retries=0)
        with pytest.raises(errors.APIConnectionError) as refused:
            await resolve(start("relay", relayer))
    assert refused.value.sent == "not_sent"
    assert refused.value.journey_id is not None


@pytest.mark.usefixtures("key_in_env")
async def test_two_swaps_of_one_wallet_for_one_amount_are_never_credited_with_each_other(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        # The first stops once signed; the second once its order was written "sending",
        # before it left. Neither left.
        for stop in (crash_at(step="signed"), crash_at(step="submitted", status="sending")):
            flash = client(sb, "swap", kind, journal=path, on_step=stop)
            with pytest.raises(Crash):
                await resolve(start("swap", flash))
        assert money_requests(sb, "swap") == []
        first, second = SQLiteJournal(path).journeys()
        fresh = client(sb, "swap", kind, journal=path)
        one = await resolve(fresh.resume(first.id))
        two = await resolve(fresh.resume(second.id))
        taken = money_requests(sb, "swap")
    assert (one.state, two.state) == ("completed", "completed")
    # Two swaps went, one each: each journey followed its own transaction.
    assert len(taken) == 2
    assert one.result.transaction_hash != two.result.transaction_hash
    sent = second.last("submitted", "sending")
    assert sent is not None
    assert json.loads(taken[-1].body)["signedOrder"] == sent.data["body"]["signedOrder"]


# ------------------------------------------------------------- one journey in one place


def _stopped_relay(sb: Sandbox, path: Path) -> str:
    """A signed relay (``relay_signed_tx``: sent again if it may not have arrived),
    stopped as it was about to leave."""
    from ..test_x402 import SENDER, signed

    leaving = crash_at(step="submitted", status="sending")
    with pytest.raises(Crash):
        sb.relayer_client(journal=path, on_step=leaving).relay_signed_tx(
            signed_tx=signed(),
            min_balance_required=60_000 * 10**9,
            from_address=SENDER.address,
            chain_id=8453,
        )
    return SQLiteJournal(path).journeys()[-1].id


def _signed_relays(sb: Sandbox) -> list[Any]:
    return [
        r
        for r in sb.requests.select("relayer", "POST", "/api/submit-signed-tx", processed=True)
        if r.status == 200
    ]


def test_two_resumes_in_two_threads_run_the_journey_once(tmp_path: Path) -> None:
    """The second resume starts while the first holds the lease: it is told so."""
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        journey_id = _stopped_relay(sb, path)
        outcomes: list[Any] = []
        inside = threading.Event()
        hold = threading.Event()

        def slow(event: StepEvent) -> None:
            if event.step == "resumed":
                inside.set()
                hold.wait(5)  # the first holds its lease while the second tries

        def resume(index: int) -> None:
            relayer = sb.relayer_client(journal=path, on_step=slow if index == 0 else None)
            try:
                outcomes.append(relayer.resume(journey_id).state)
            except errors.JourneyBusyError as busy:
                outcomes.append(busy)
            finally:
                hold.set()

        first = threading.Thread(target=resume, args=(0,))
        first.start()
        assert inside.wait(10)
        resume(1)
        first.join(timeout=30)
        sent = _signed_relays(sb)
    states = [o for o in outcomes if isinstance(o, str)]
    busy = [o for o in outcomes if isinstance(o, errors.JourneyBusyError)]
    assert states == ["completed"]
    assert len(busy) == 1
    assert busy[0].journey_id == journey_id
    assert len(sent) == 1


def test_a_resume_that_claims_a_journey_just_ended_leaves_it(tmp_path: Path) -> None:
    """A resume that read the journey running, then claims it after another run ended
    it, runs nothing and writes nothing (the claim's own read is the one that counts)."""
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        journey_id = _stopped_relay(sb, path)
        late = sb.relayer_client(journal=path)
        real_claim = SQLiteJournal.claim

        def claim_after_another_run(self: SQLiteJournal, *args: Any, **kwargs: Any) -> Any:
            SQLiteJournal.claim = real_claim  # type: ignore[method-assign]
            assert sb.relayer_client(journal=path).resume(journey_id).state == "completed"
            return real_claim(self, *args, **kwargs)

        SQLiteJournal.claim = claim_after_another_run  # type: ignore[method-assign]
        try:
            assert late.resume(journey_id).state == "completed"
        finally:
            SQLiteJournal.claim = real_claim  # type: ignore[method-assign]
        sent = _signed_relays(sb)
    journey = SQLiteJournal(path).journey(journey_id)
    assert journey is not None
    assert [s.step for s in journey.steps].count("resumed") == 1
    assert len(sent) == 1


async def test_two_resumes_in_two_tasks_run_the_journey_once(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        journey_id = _stopped_relay(sb, path)
        relayer = sb.async_relayer_client(journal=path)
        outcomes = await asyncio.gather(
            relayer.resume(journey_id), relayer.resume(journey_id), return_exceptions=True
        )
        sent = _signed_relays(sb)
    assert sorted(type(o).__name__ for o in outcomes) == ["JourneyBusyError", "ResumeResult"]
    [done] = [o for o in outcomes if not isinstance(o, BaseException)]
    assert done.state == "completed"
    assert len(sent) == 1


def test_two_resumes_in_two_processes_run_the_journey_once(tmp_path: Path) -> None:
    """Two processes resume one journey at the same moment, over one served sandbox:
    exactly one runs it, the other is told it is busy."""
    from .test_crash import served as _served  # noqa: F401

    path = tmp_path / "j.db"
    with Sandbox() as sb:
        journey_id = _stopped_relay(sb, path)
    script = f"""
import sys, time
sys.path.insert(0, {str(ROOT)!r})
from xswap_sdk import errors
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.journal import SQLiteJournal
journal = SQLiteJournal({str(path)!r})
with Sandbox() as sb:
    # Both start together: each claims, and the winner holds the lease while it runs.
    time.sleep(max(0.0, float(sys.argv[1]) - time.time()))
    try:
        state = sb.relayer_client(journal=journal).resume({journey_id!r}).state
        print(state)
    except errors.JourneyBusyError:
        print("busy")
"""
    import time

    at = str(time.time() + 1.0)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", script, at], env=env, stdout=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outs = sorted(run.communicate(timeout=60)[0].strip() for run in runs)
    # One ran it (completed); the other was busy, or came after it ended (a done journey
    # is left as it is: nothing run twice either way).
    assert outs in (["busy", "completed"], ["completed", "completed"]), outs
    journey = SQLiteJournal(path).journey(journey_id)
    assert journey is not None
    resumes = [s for s in journey.steps if s.step == "resumed"]
    assert len(resumes) == 1, [(s.step, s.status) for s in journey.steps]


def test_a_live_call_holds_its_journey_against_a_resume(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    attempts: list[Any] = []
    with Sandbox() as sb:

        def resume_meanwhile(event: StepEvent) -> None:
            if (event.step, event.status) == ("submitted", "sending"):
                try:
                    sb.relayer_client(journal=path).resume(str(event.journey_id))
                except errors.JourneyBusyError as busy:
                    attempts.append(busy)

        relayer = sb.relayer_client(journal=path, on_step=resume_meanwhile)
        relayer.relay(chain_id=8453, to="0x" + "11" * 20, call_data="0x")
        assert len(money_requests(sb, "relay")) == 1
    [busy] = attempts
    assert "nothing was signed or sent" in str(busy)


# ----------------------------------------------------------------- missing credentials


@pytest.fixture
async def waiting_swap(kind: str, tmp_path: Path) -> AsyncIterator[tuple[Sandbox, Any, Path]]:
    """A funded sandbox, a swap journey stopped as it waits, and the journal holding it."""
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        fund(sb)
        yield sb, await stopped(sb, "swap", kind, path, crash_at(step="waiting")), path


def _bare_flash(sb: Sandbox, kind: str, path: Path) -> Any:
    """A Flash client on the journal with no signer of its own and no session."""
    return sb.flash_client(journal=path) if kind == "sync" else sb.async_flash_client(journal=path)


@pytest.mark.usefixtures("no_key_in_env")
async def test_a_resume_without_credentials_leaves_the_journey_as_it_was(
    kind: str, waiting_swap: tuple[Sandbox, Any, Path]
) -> None:
    sb, journey, path = waiting_swap
    # A client with no signer and no session: it cannot log in to follow the swap.
    with pytest.raises(errors.MissingCredentialsError) as missing:
        await resolve(_bare_flash(sb, kind, path).resume(journey.id))
    assert missing.value.argument == "signer"
    after = SQLiteJournal(path).journey(journey.id)
    assert after is not None
    assert after.state == "running"  # never "failed": nothing failed
    # With the signer, it is followed to its end; nothing was sent again.
    done = await resolve(client(sb, "swap", kind, journal=path).resume(journey.id))
    assert len(money_requests(sb, "swap")) == 1
    assert done.state == "completed"


@pytest.mark.usefixtures("no_key_in_env")
async def test_a_resume_refuses_a_signer_that_is_not_the_journeys(
    kind: str, waiting_swap: tuple[Sandbox, Any, Path]
) -> None:
    from eth_account import Account

    sb, journey, path = waiting_swap
    stranger = Account.create()
    with pytest.raises(errors.InvalidInputError) as refused:
        await resolve(_bare_flash(sb, kind, path).resume(journey.id, signer=stranger))
    assert refused.value.argument == "signer"
    assert stranger.address in str(refused.value)
    assert TEST_SIGNER.address in str(refused.value)  # whose journey it is
    after = SQLiteJournal(path).journey(journey.id)
    assert after is not None
    assert after.state == "running"
    assert after.rows == journey.rows  # nothing written
    # The lease was given back: the journey's own signer finishes it at once.
    done = await resolve(_bare_flash(sb, kind, path).resume(journey.id, signer=TEST_SIGNER))
    assert len(money_requests(sb, "swap")) == 1
    assert done.state == "completed"


async def test_another_key_in_the_environment_is_left_out_not_refused(
    kind: str, waiting_swap: tuple[Sandbox, Any, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from eth_account import Account

    sb, journey, path = waiting_swap
    # XSWAP_PRIVATE_KEY holds some other account's key: it is not this journey's signer,
    # so the resume goes on without it and says what it lacks.
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", Account.create().key.hex())
    with pytest.raises(errors.MissingCredentialsError) as missing:
        await resolve(_bare_flash(sb, kind, path).resume(journey.id))
    assert missing.value.argument == "signer"
    # The journey's own key in the environment is used.
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", TEST_PRIVATE_KEY)
    done = await resolve(_bare_flash(sb, kind, path).resume(journey.id))
    assert len(money_requests(sb, "swap")) == 1
    assert done.state == "completed"


# -------------------------------------------------------------- the journal is input


def _tamper(path: Path, sql: str, *params: Any) -> None:
    with sqlite3.connect(path) as db:
        db.execute(sql, params)


def test_a_tampered_row_is_refused_and_the_journey_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        journey_id = _stopped_relay(sb, path)
        # Someone rewrites the journaled body (to send it somewhere else, say).
        _tamper(
            path,
            "UPDATE xswap_rows SET data = replace(data, '8453', '1') WHERE journey_id = ?",
            journey_id,
        )
        journey = SQLiteJournal(path).journey(journey_id)
        assert journey is not None
        assert not journey.authentic
        with pytest.raises(errors.JourneyTamperedError) as refused:
            sb.relayer_client(journal=path).resume(journey_id)
        assert refused.value.journey_id == journey_id
        assert _signed_relays(sb) == []
    after = SQLiteJournal(path).journey(journey_id)
    assert after is not None
    assert after.state == "running"
    assert after.rows == journey.rows  # nothing written


def test_a_planted_journey_is_refused_by_xswap_resume_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from xswap_sdk._cli import main

    path = tmp_path / "j.db"
    SQLiteJournal(path)  # the victim's journal, and its key file
    # An attacker writes a transfer journey with a key of their own (or none at all).
    planter = SQLiteJournal(tmp_path / "theirs.db", key="an attacker's own journal key")
    planted = planter.create("transfer", json.dumps({"submitted": []}), Owner.this_process())
    row = (
        sqlite3.connect(tmp_path / "theirs.db")
        .execute("SELECT * FROM xswap_journeys WHERE id = ?", (planted,))
        .fetchone()
    )
    rows = (
        sqlite3.connect(tmp_path / "theirs.db")
        .execute("SELECT * FROM xswap_rows WHERE journey_id = ?", (planted,))
        .fetchall()
    )
    with sqlite3.connect(path) as db:
        db.execute(f"INSERT INTO xswap_journeys VALUES ({', '.join('?' * len(row))})", row)
        db.execute("UPDATE xswap_journeys SET owner = NULL WHERE id = ?", (planted,))
        db.executemany(f"INSERT INTO xswap_rows VALUES ({', '.join('?' * 9)})", rows)
    monkeypatch.setenv("XSWAP_PRIVATE_KEY", TEST_PRIVATE_KEY)
    monkeypatch.setenv("XSWAP_GATEWAY_URL", "http://127.0.0.1:9")  # nothing may be sent
    code = main(["resume", "--all", "--journal", str(path), "--json"])
    [entry] = json.loads(capsys.readouterr().out)["resumed"]
    assert entry["id"] == planted
    assert entry["error"]["type"] == "JourneyTamperedError"
    assert code == 4
    assert main(["journeys", "--journal", str(path)]) == 0
    assert "MAC invalid: refused" in capsys.readouterr().out


def test_a_journal_opened_with_another_key_is_refused_at_once(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    SQLiteJournal(path, key="the key this journal is written with")
    with pytest.raises(errors.InvalidInputError) as wrong:
        SQLiteJournal(path, key="some other key of sixteen chars")
    assert wrong.value.argument == "journal_key"
    assert "some other key" not in str(wrong.value)
    with pytest.raises(errors.InvalidInputError, match="journal_key"):
        SQLiteJournal(path)  # written with a key: no key file beside it


def test_the_journal_and_its_key_are_private_and_a_shared_one_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.db"
    journal = SQLiteJournal(path)
    journal.create("relay", "{}", Owner.this_process())
    for name in ("j.db", "j.db-wal", "j.db-shm", "j.db.key"):
        mode = stat.S_IMODE((tmp_path / name).stat().st_mode)
        assert mode == 0o600, (name, oct(mode))
    os.chmod(path, 0o666)
    with pytest.raises(errors.InvalidInputError) as refused:
        SQLiteJournal(path)
    assert refused.value.argument == "journal"
    assert "writable by others" in refused.value.rule
    os.chmod(path, 0o600)
    os.chmod(tmp_path / "j.db.key", 0o644)  # readable is fine; writable is not
    SQLiteJournal(path)
    os.chmod(tmp_path / "j.db.key", 0o622)
    with pytest.raises(errors.InvalidInputError, match="journal_key"):
        SQLiteJournal(path)


def test_a_journal_owned_by_another_user_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "j.db"
    SQLiteJournal(path)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(path).st_uid + 1)
    with pytest.raises(errors.InvalidInputError, match="another user"):
        SQLiteJournal(path)


def test_a_resend_goes_where_the_client_sends_never_where_the_journal_says(
    tmp_path: Path,
) -> None:
    path = tmp_path / "j.db"
    with Sandbox() as sb:
        journey_id = _stopped_relay(sb, path)
        # Resumed by a client whose path for the request is another: the journaled one
        # is compared with it, never followed, and nothing is sent.
        other = sb.relayer_client(
            journal=path, paths=RelayerPaths(submit_signed_tx="/api/v2/submit-signed-tx")
        )
        resumed = other.resume(journey_id)
        assert sb.requests.select("relayer", "POST") == [
            r for r in sb.requests.select("relayer", "POST") if "/v2/" not in r.path
        ]
        assert _signed_relays(sb) == []
    assert resumed.state == "needs_attention"
    last = resumed.journey.steps[-1]
    assert (last.step, last.status) == ("needs_attention", "diverged")


def test_xswap_journeys_shows_signatures_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from xswap_sdk._cli import main

    from ..test_x402 import signed

    path = tmp_path / "j.db"
    with Sandbox() as sb:
        _stopped_relay(sb, path)
    assert main(["journeys", "--journal", str(path), "--json"]) == 0
    hidden = capsys.readouterr().out
    assert signed()[2:] not in hidden
    assert "--show-signed" in hidden
    assert main(["journeys", "--journal", str(path), "--json", "--show-signed"]) == 0
    assert signed()[2:] in capsys.readouterr().out


def test_xswap_resume_all_reports_a_busy_journey_and_exits_0(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from xswap_sdk._cli import main

    path = tmp_path / "j.db"
    journal = SQLiteJournal(path)
    # A journey another live process runs (its lease holds), and one that completes.
    busy = journal.create("relay", "{}", Owner("theirs", "another-host#x", 1, None))
    with Sandbox() as sb:
        done = _stopped_relay(sb, path)
        monkeypatch.setenv("XSWAP_RELAYER_URL", sb.relayer_url)
        monkeypatch.setenv("XSWAP_RELAYER_API_KEY", sb.relayer.api_key)
        # The CLI's own client reaches the in-process sandbox through its transport.
        monkeypatch.setattr(
            "xswap_sdk.relayer.RelayerClient",
            lambda **kwargs: sb.relayer_client(**kwargs),
        )
        code = main(["resume", "--all", "--journal", str(path), "--json"])
    out = json.loads(capsys.readouterr().out)
    states = {entry["id"]: entry["state"] for entry in out["resumed"]}
    assert states == {busy: "busy", done: "completed"}
    assert code == 0


# ------------------------------------------------------------------ replay's own rules


@pytest.mark.usefixtures("key_in_env")
async def test_a_resume_never_signs_what_was_not_signed_before_the_stop(
    kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    signed: list[str] = []
    with Sandbox() as sb:
        fund(sb)
        journey = await stopped(sb, "swap", kind, path, crash_at(step="quoted"))

        def watch(event: StepEvent) -> None:
            if event.step == "signed":
                signed.append(str(event.journey_id))

        fresh = client(sb, "swap", kind, journal=path, on_step=watch)
        with pytest.raises(errors.RestartRequiredError) as refused:
            await resolve(fresh.resume(journey.id))
        assert signed == []
        assert money_requests(sb, "swap") == []
        assert f"xswap resume --restart {journey.id}" in str(refused.value)
        done = await resolve(fresh.resume(journey.id, restart=True))
        assert len(money_requests(sb, "swap")) == 1
    assert done.state == "completed"
    assert signed == [journey.id]
