"""`PostgresJournal` against a real PostgreSQL server (tests/postgres.py), and the same
protocol assertions against `SQLiteJournal`: journeys and steps, leases, MACs, the
identities index, writers that never collide; real journeys through the sync and async
clients; workers killed mid-journey in several processes and resumed; two resumers
racing from two processes (and two hosts) where exactly one wins; a dead worker's lease
expiring; the URL's password never shown. Async clients never block their loop on the
journal (SQLite in a thread, PostgreSQL awaited)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk._journal_io import async_journal_call
from xswap_sdk.journal import (
    AsyncJournal,
    Journal,
    NewRow,
    Owner,
    PostgresJournal,
    SQLiteJournal,
    open_journal,
)
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_PRIVATE_KEY, TEST_SIGNER

from .. import postgres
from ..frame_locals import assert_no_secret_in_frames
from .journeys import ME, USDC_BASE, fund, money_requests, resolve, start
from .test_crash import sent_bodies, served  # noqa: F401 -- the served sandbox fixture

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
KEY = "journal-key-for-the-tests-0123456789"
TABLES = ("xswap_identities", "xswap_rows", "xswap_journeys", "xswap_meta")


def _reset(url: str) -> None:
    """The module's database without journal tables: each test starts empty."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {', '.join(TABLES)} CASCADE")


@pytest.fixture
def pg_url(postgres_url: str) -> str:
    """The module's database, its journal tables dropped."""
    _reset(postgres_url)
    return postgres_url


Make = Callable[..., Any]


@pytest.fixture(params=["sqlite", "postgres"])
def make_journal(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Make]:
    """Makes journals of one backend over one store (a file, or a fresh database):
    ``make(lease_seconds=...)``; each call is another connection, as another process's."""
    made: list[Any] = []
    if request.param == "sqlite":

        def make(**kwargs: Any) -> Any:
            made.append(SQLiteJournal(tmp_path / "j.db", **kwargs))
            return made[-1]

    else:
        url = request.getfixturevalue("pg_url")

        def make(**kwargs: Any) -> Any:
            made.append(PostgresJournal(url, key=KEY, **kwargs))
            return made[-1]

    yield make
    for journal in made:
        journal.close()


# ---------------------------------------------------------------- the protocol, twice


def test_a_journal_keeps_journeys_and_their_steps(make_journal: Make) -> None:
    journal = make_journal()
    assert isinstance(journal, Journal)
    me = Owner.this_process()
    first = journal.create("relay", '{"chain_id": 8453}', me)
    second = journal.create("swap", "{}", me)
    journal.append(
        first, me, [NewRow(1, "submitted", "sending", '{"body": {"to": "0x1"}}', b"\x00\xff")]
    )
    journal.append(first, me, [NewRow(None, "completed", "ok", "{}")], state="completed")
    again = make_journal()  # another connection reads what was committed
    journey = again.journey(first)
    assert journey is not None
    assert journey.state == "completed"
    assert journey.authentic
    assert [(s.seq, s.step, s.status) for s in journey.steps] == [
        (0, "started", "started"),
        (1, "submitted", "sending"),
        (2, "completed", "ok"),
    ]
    assert journey.rows[1].body == b"\x00\xff"
    assert journey.arguments == {"chain_id": 8453}
    sent = journey.last("submitted")
    assert sent is not None
    assert sent.data == {"body": {"to": "0x1"}}
    assert journey.to_dict(show_signed=True)["steps"][1]["data"] == {"body": {"to": "0x1"}}
    assert journey.to_dict()["steps"][1]["data"] == {"body": "(signed: --show-signed)"}
    assert [j.id for j in again.journeys()] == [first, second]
    assert [j.id for j in again.journeys(states=("running",))] == [second]
    assert [s.step for s in again.journeys(states=("running",))[0].steps] == ["started"]
    assert again.journey("nope") is None
    with pytest.raises(errors.InvalidInputError, match="state"):
        journal.append(first, me, [], state="done")
    journal.record(first, "minted", "ok", {"source": "webhook"}, state="completed")
    recorded = again.journey(first)
    assert recorded is not None
    assert recorded.steps[-1].step == "minted"
    assert recorded.authentic


def test_only_the_lease_holder_writes_and_a_second_claimant_is_refused(
    make_journal: Make,
) -> None:
    journal = make_journal()
    me, other = Owner.this_process(), Owner.this_process()
    journey_id = journal.create("relay", "{}", me)
    with pytest.raises(errors.JourneyBusyError) as busy:
        journal.claim(journey_id, other)
    assert busy.value.journey_id == journey_id
    assert "nothing was signed or sent" in str(busy.value)
    with pytest.raises(errors.JourneyBusyError):
        journal.append(journey_id, other, [NewRow(1, "x", "ok", "{}")])
    journal.append(journey_id, me, [], release=True)
    journal.claim(journey_id, other)
    with pytest.raises(errors.JourneyBusyError, match="taken over"):
        journal.append(journey_id, me, [NewRow(1, "x", "ok", "{}")])
    journey = journal.journey(journey_id)
    assert journey is not None
    assert [s.step for s in journey.steps] == ["started"]
    with pytest.raises(errors.InvalidInputError, match="no journey"):
        journal.claim("missing", me)


def test_a_lease_expires_and_a_dead_process_frees_it_at_once(make_journal: Make) -> None:
    journal = make_journal(lease_seconds=1)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        theirs = Owner("theirs", Owner.this_process().host, other.pid, None)
        journey_id = journal.create("relay", "{}", theirs)
        with pytest.raises(errors.JourneyBusyError, match=f"process {other.pid}"):
            journal.claim(journey_id, Owner.this_process())
        journal.claim(journey_id, Owner.this_process(), force=True)
        elsewhere = Owner("elsewhere", "another-host#boot", 1, None)
        second = journal.create("relay", "{}", elsewhere)
        with pytest.raises(errors.JourneyBusyError):
            journal.claim(second, Owner.this_process())
        time.sleep(1.1)
        journal.claim(second, Owner.this_process())
    finally:
        other.kill()
        other.wait()
    gone = journal.create("relay", "{}", Owner("gone", theirs.host, other.pid, None))
    journal.claim(gone, Owner.this_process())


def _tamper(journal: Any, sql: str) -> None:
    if isinstance(journal, SQLiteJournal):
        journal._db.execute(sql)
        return
    with journal._pool.connection() as conn:
        conn.execute(sql)


def test_a_journey_written_by_anyone_else_is_not_authentic(make_journal: Make) -> None:
    journal = make_journal()
    me = Owner.this_process()
    journey_id = journal.create("relay", '{"to": "0x1"}', me)
    journal.append(journey_id, me, [NewRow(1, "submitted", "sending", '{"to": "0x1"}')])
    _tamper(journal, 'UPDATE xswap_rows SET data = \'{"to": "0x2"}\' WHERE seq = 1')
    tampered = journal.journey(journey_id)
    assert tampered is not None
    assert not tampered.authentic
    other = journal.create("relay", '{"to": "0x1"}', me)
    _tamper(
        journal, f"UPDATE xswap_journeys SET terms = '{{\"to\": \"0x3\"}}' WHERE id = '{other}'"
    )
    assert not journal.journey(other).authentic
    # A row moved to another place in its journey does not verify there either.
    third = journal.create("relay", "{}", me)
    journal.append(third, me, [NewRow(1, "a", "ok", "{}"), NewRow(2, "b", "ok", "{}")])
    _tamper(journal, f"UPDATE xswap_rows SET seq = seq + 10 WHERE journey_id = '{third}'")
    assert not journal.journey(third).authentic


def test_identities_are_found_by_the_index(make_journal: Make) -> None:
    journal = make_journal()
    me = Owner.this_process()
    one = journal.create("deposit", "{}", me)
    two = journal.create("transfer", "{}", me)
    journal.append(one, me, [NewRow(1, "broadcast", "ok", "{}", identities=("0xaa", "0xbb"))])
    journal.append(two, me, [NewRow(1, "attested", "ok", "{}", identities=("0xbb",))])
    journal.append(two, me, [NewRow(2, "again", "ok", "{}", identities=("0xbb",))])
    assert journal.find("0xaa") == [one]
    assert sorted(journal.find("0xbb")) == sorted([one, two])
    assert journal.find("0xcc") == []


def test_writers_of_one_journey_never_collide(make_journal: Make) -> None:
    # Eight threads append to one journey under one lease, each on a journal (a
    # connection) of its own: every row is written, in one unbroken sequence.
    journals = [make_journal() for _ in range(8)]
    me = Owner.this_process()
    journey_id = journals[0].create("relay", "{}", me)
    failures: list[BaseException] = []

    def write(journal: Any, n: int) -> None:
        try:
            for i in range(15):
                journal.append(journey_id, me, [NewRow(None, f"w{n}", "ok", json.dumps(i))])
        except BaseException as exc:  # collected: the assertion below shows it
            failures.append(exc)

    threads = [threading.Thread(target=write, args=(j, n)) for n, j in enumerate(journals)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    journey = journals[0].journey(journey_id)
    assert journey is not None
    assert [row.seq for row in journey.rows] == list(range(1 + 8 * 15))
    assert journey.authentic


async def test_an_async_postgres_journal_is_awaited_on_the_loop(pg_url: str) -> None:
    journal = PostgresJournal(pg_url, key=KEY)
    assert isinstance(journal, AsyncJournal)
    assert not isinstance(SQLiteJournal(":memory:"), AsyncJournal)
    me = Owner.this_process()
    threads: set[int] = set()
    real = asyncio.to_thread

    async def spy(*args: Any, **kwargs: Any) -> Any:
        threads.add(1)
        return await real(*args, **kwargs)

    asyncio.to_thread = spy  # type: ignore[assignment]
    try:
        journey_id = await async_journal_call(journal.create, "relay", "{}", me)
        import functools

        write = functools.partial(journal.append, journey_id, me, [NewRow(1, "x", "ok", "{}")])
        await async_journal_call(write, durable=True)
        claimed = await async_journal_call(journal.claim, journey_id, me)
        found = await async_journal_call(journal.journey, journey_id)
    finally:
        asyncio.to_thread = real  # type: ignore[assignment]
    assert threads == set()  # no worker thread: the journal's own coroutines
    assert claimed.id == journey_id
    assert found is not None
    assert [s.step for s in found.steps] == ["started", "x"]
    await journal.aclose()


async def test_an_sqlite_journal_in_a_thread_never_blocks_the_loop(tmp_path: Path) -> None:
    class Slow(SQLiteJournal):
        def append(self, *args: Any, **kwargs: Any) -> None:
            time.sleep(0.2)  # a slow disk
            super().append(*args, **kwargs)

    journal = Slow(tmp_path / "j.db")
    me = Owner.this_process()
    journey_id = journal.create("relay", "{}", me)
    ticks = 0
    stop = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0.01)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    before = ticks
    for _ in range(3):
        await async_journal_call(journal.append, journey_id, me, [])
    stop.set()
    await task
    # 0.6 s of journal writes: the loop went on ticking meanwhile (a blocked loop
    # would have ticked about once).
    assert ticks - before > 20


# ------------------------------------------------------------------- opening it


def test_urls_open_a_postgres_journal_everywhere(pg_url: str, tmp_path: Path) -> None:
    for url in (pg_url, pg_url.replace("postgresql://", "postgres://", 1)):
        opened = open_journal(url, {}, key=KEY)
        assert isinstance(opened, PostgresJournal)
        assert postgres.PASSWORD not in repr(opened)
        opened.close()
    from_env = open_journal(None, {"XSWAP_JOURNAL": pg_url, "XSWAP_JOURNAL_KEY": KEY})
    assert isinstance(from_env, PostgresJournal)
    sandbox = Sandbox()
    with sandbox.relayer_client(journal=pg_url, journal_key=KEY) as relayer:
        assert isinstance(relayer.journal, PostgresJournal)
        copy = relayer.with_options(journal=tmp_path / "other.db")
        assert isinstance(copy.journal, SQLiteJournal)
    with pytest.raises(errors.InvalidInputError, match="journal_key: is required"):
        sandbox.relayer_client(journal=pg_url)
    with pytest.raises(errors.InvalidInputError, match="journal_key: is not the key"):
        open_journal(pg_url, {}, key="another-key-of-16-chars")
    with pytest.raises(errors.InvalidInputError, match="journal_key: is given without"):
        sandbox.relayer_client(journal_key=KEY)
    from xswap_sdk.policy import Policy

    ledger = Policy(max_per_day=10, ledger=from_env).ledger
    from xswap_sdk._ledger import PostgresLedger

    assert isinstance(ledger, PostgresLedger)
    assert ledger._spent((ME.lower(), "usdc")) == 0
    assert postgres.PASSWORD not in repr(ledger)
    from_env.close()


def _unreachable() -> str:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"postgresql://{postgres.USER}:{postgres.PASSWORD}@127.0.0.1:{port}/db"


def test_an_unreachable_server_is_refused_at_open_without_its_password(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    url = _unreachable()
    with pytest.raises(errors.InvalidInputError) as caught:
        PostgresJournal(url, key=KEY)
    assert caught.value.argument == "journal"
    assert "cannot connect to postgresql://xswap_test:***@127.0.0.1" in str(caught.value)
    assert_no_secret_in_frames(caught.value, [postgres.PASSWORD])
    with pytest.raises(errors.InvalidInputError) as from_env:
        open_journal(None, {"XSWAP_JOURNAL": url, "XSWAP_JOURNAL_KEY": KEY})
    assert from_env.value.argument == "XSWAP_JOURNAL"
    with pytest.raises(errors.InvalidInputError) as from_client:
        Sandbox().relayer_client(journal=url, journal_key=KEY)
    for error in (from_env.value, from_client.value):
        assert postgres.PASSWORD not in str(error) + repr(error)
    for record in caplog.records:
        assert postgres.PASSWORD not in record.getMessage()


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://u:{postgres.PASSWORD}@127.0.0.1:notaport/db",
        f"postgresql://u@127.0.0.1/db?password={postgres.PASSWORD}&bogus_option=1",
    ],
)
def test_a_malformed_url_is_a_typed_error_without_its_password(url: str) -> None:
    with pytest.raises(errors.InvalidInputError, match="journal: is not a valid libpq URL") as e:
        PostgresJournal(url, key=KEY)
    assert_no_secret_in_frames(e.value, [postgres.PASSWORD])


def test_a_url_without_psycopg_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg.conninfo", None)
    with pytest.raises(errors.MissingDependencyError, match=r"\.\[postgres\]") as caught:
        open_journal(f"postgresql://u:{postgres.PASSWORD}@127.0.0.1/db", {}, key=KEY)
    assert postgres.PASSWORD not in str(caught.value)


def test_a_server_lost_mid_use_is_a_journal_error_without_its_password(pg_url: str) -> None:
    import psycopg

    journal = PostgresJournal(pg_url, key=KEY)
    me = Owner.this_process()
    journey_id = journal.create("relay", "{}", me)
    with psycopg.connect(pg_url, autocommit=True) as admin:  # every other session ends
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    with pytest.raises(errors.JournalError) as caught:
        journal.append(journey_id, me, [NewRow(1, "x", "ok", "{}")])
    assert "could not be written" in str(caught.value)
    assert "xswap_test:***@" in str(caught.value)
    assert caught.value.__cause__ is None
    assert_no_secret_in_frames(caught.value, [postgres.PASSWORD])
    journal.append(journey_id, me, [NewRow(1, "x", "ok", "{}")])  # connects again
    assert [s.step for s in journal.journey(journey_id).steps] == ["started", "x"]
    assert postgres.PASSWORD not in repr(journal)
    journal.close()


def test_xswap_journeys_and_resume_take_a_url(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from xswap_sdk._cli import main

    journal = PostgresJournal(pg_url, key=KEY)
    me = Owner.this_process()
    journey_id = journal.create("relay", "{}", me)
    journal.append(journey_id, me, [], state="completed", release=True)
    monkeypatch.setenv("XSWAP_JOURNAL_KEY", KEY)
    monkeypatch.delenv("XSWAP_JOURNAL", raising=False)
    # A command line shows to every user: the URL there carries no password.
    assert main(["journeys", "--journal", pg_url]) == 2
    err = capsys.readouterr().err
    assert "holds a password" in err
    assert postgres.PASSWORD not in err
    monkeypatch.setenv("PGPASSWORD", postgres.PASSWORD)
    bare = pg_url.replace(f":{postgres.PASSWORD}@", "@")
    assert main(["journeys", "--journal", bare, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["journeys"]
    assert [(j["id"], j["state"]) for j in listed] == [(journey_id, "completed")]
    monkeypatch.delenv("PGPASSWORD")
    monkeypatch.setenv("XSWAP_JOURNAL", pg_url)  # the environment may hold it
    assert main(["resume", journey_id, "--json"]) == 0
    out = capsys.readouterr()
    assert postgres.PASSWORD not in out.out + out.err
    journal.close()


# ----------------------------------------------------- journeys through the clients


@pytest.mark.parametrize("flavour", ["sync", "async"])
async def test_journeys_through_the_clients_on_postgres(pg_url: str, flavour: str) -> None:
    sandbox = Sandbox()
    fund(sandbox)
    prefix = "async_" if flavour == "async" else ""
    relayer = getattr(sandbox, f"{prefix}relayer_client")(journal=pg_url, journal_key=KEY)
    flash = getattr(sandbox, f"{prefix}flash_client")(
        signer=TEST_SIGNER, journal=pg_url, journal_key=KEY
    )
    awaited: list[str] = []
    for api in (relayer, flash):  # count the writes awaited on the loop
        real = api.journal.aappend

        async def counted(*args: Any, real: Any = real, **kwargs: Any) -> None:
            awaited.append(args[0])
            await real(*args, **kwargs)

        api.journal.aappend = counted
    relayed = await resolve(relayer.relay(chain_id=8453, to=USDC_BASE, call_data="0x"))
    swapped = await resolve(start("swap", flash))
    # An async client awaits the journal's coroutines; a blocking one never does.
    assert bool(awaited) == (flavour == "async")
    journal = PostgresJournal(pg_url, key=KEY)
    journeys = {j.kind: j for j in journal.journeys()}
    assert set(journeys) == {"relay", "swap"}
    assert all(j.state == "completed" and j.authentic for j in journeys.values())
    assert journeys["relay"].id == relayed.journey_id
    assert journeys["swap"].id == swapped.journey_id
    assert len(money_requests(sandbox, "swap")) == 1
    for journey in journeys.values():
        assert journey.owner is None  # the lease given up at the end
    for api in (relayer, flash):
        await resolve((getattr(api, "aclose", None) or api.close)())
        if flavour == "async":
            await api.journal.aclose()
    journal.close()


# ------------------------------------------------------------ processes and hosts


def _env(url: str, **extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    env.update({"XSWAP_JOURNAL": url, "XSWAP_JOURNAL_KEY": KEY, **extra})
    env["XSWAP_PRIVATE_KEY"] = TEST_PRIVATE_KEY  # a swap stopped before it signed
    return env


def _worker(env: dict[str, str], *args: str, prefix: tuple[str, ...] = ()) -> subprocess.Popen[str]:
    command = [*prefix, sys.executable, "-m", "tests.journal.postgres_worker", *args]
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _crash_all(
    url: str, base_url: str, runs: list[tuple[str, str, int]], **extra: str
) -> list[str]:
    """Start each ``(journey, flavour, at)`` in a process of its own, all at once; each
    dies at its step ``at``. The ids of their journeys."""
    workers = [_worker(_env(url, **extra), "crash", base_url, *map(str, run)) for run in runs]
    ids = []
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        assert worker.returncode == 17, err[-3000:]
        ids.append(json.loads(out.splitlines()[0])["journey_id"])
    return ids


def test_workers_killed_mid_journey_in_several_processes_are_resumed(
    served: Sandbox,  # noqa: F811
    pg_url: str,
) -> None:
    runs = [
        ("relay", "sync", 1),
        ("relay", "async", 1),
        ("transfer", "sync", 1),
        ("swap", "async", 4),
    ]
    before = {
        journey: {bytes(r.body or b"") for r in money_requests(served, journey)}
        for journey in ("relay", "transfer", "swap")
    }
    ids = _crash_all(pg_url, served.base_url, runs)
    journal = PostgresJournal(pg_url, key=KEY)
    assert {j.id for j in journal.journeys(states=("running",))} == set(ids)
    resumers = [
        _worker(_env(pg_url), "resume", served.base_url, journey, flavour, journey_id)
        for (journey, flavour, _), journey_id in zip(runs, ids, strict=True)
    ]
    for resumer in resumers:
        out, err = resumer.communicate(timeout=120)
        assert resumer.returncode == 0, err[-3000:]
        assert json.loads(out)["state"] in ("completed", "needs_attention"), out
    for journey in ("relay", "transfer", "swap"):
        handled = [
            bytes(r.body or b"")
            for r in money_requests(served, journey)
            if bytes(r.body or b"") not in before[journey]
        ]
        assert len(handled) == len(set(handled)), f"a {journey} request was handled twice"
    for journey_id in ids:
        journey = journal.journey(journey_id)
        assert journey is not None
        assert journey.authentic
        assert journey.owner is None
    journal.close()


def _other_host_prefix() -> tuple[tuple[str, ...], dict[str, str]]:
    """How to run a process as on another host: a UTS namespace of its own with another
    host name (``unshare -u``), where this machine allows it; else a faked name."""
    unshare = shutil.which("unshare")
    if unshare and subprocess.run([unshare, "-u", "true"], capture_output=True).returncode == 0:
        return (unshare, "-u", "sh", "-c", 'hostname "$XSWAP_TEST_UTS" && exec "$@"', "sh"), {}
    return (), {"XSWAP_TEST_HOST": "fake"}


@pytest.mark.parametrize("hosts", ["one host", "two hosts"])
def test_two_resumers_race_and_exactly_one_wins(
    served: Sandbox,  # noqa: F811
    pg_url: str,
    hosts: str,
) -> None:
    # The dead worker's lease is short: seen from another host, it holds until it runs
    # out (from its own host, the process is seen gone at once).
    [journey_id] = _crash_all(pg_url, served.base_url, [("relay", "sync", 1)], XSWAP_TEST_LEASE="2")
    start_at = str(time.time() + 4.0)  # both interpreters up, the lease out: they claim together
    racers = []
    for n in range(2):
        prefix: tuple[str, ...] = ()
        extra: dict[str, str] = {}
        if hosts == "two hosts":
            prefix, extra = _other_host_prefix()
            extra = {**extra, "XSWAP_TEST_UTS": f"xswap-host-{n}"}
            if "XSWAP_TEST_HOST" in extra:
                extra["XSWAP_TEST_HOST"] = f"host-{n}"
        args = ("resume", served.base_url, "relay", "sync", journey_id, start_at)
        env = _env(pg_url, XSWAP_TEST_HOLD="1.5", **extra)
        racers.append(_worker(env, *args, prefix=prefix))
    results = []
    for racer in racers:
        out, err = racer.communicate(timeout=120)
        assert racer.returncode == 0, err[-3000:]
        results.append(json.loads(out))
    won = [r for r in results if "state" in r]
    busy = [r for r in results if "busy" in r]
    assert len(won) == 1, results
    assert len(busy) == 1, results
    assert won[0]["state"] in ("completed", "needs_attention")
    assert busy[0]["busy"].startswith("process ")


def test_a_dead_workers_lease_on_another_host_expires(
    served: Sandbox,  # noqa: F811
    pg_url: str,
) -> None:
    # A worker "on another host" dies mid-journey with a 3-second lease: this host
    # cannot tell whether it lives, so its lease holds until it runs out.
    [journey_id] = _crash_all(
        pg_url,
        served.base_url,
        [("relay", "sync", 1)],
        XSWAP_TEST_HOST="elsewhere",
        XSWAP_TEST_LEASE="3",
    )
    relayer = Sandbox(base_url=served.base_url).relayer_client(journal=pg_url, journal_key=KEY)
    with pytest.raises(errors.JourneyBusyError) as busy:
        relayer.resume(journey_id)
    assert "elsewhere" in str(busy.value)
    held = relayer.journal.journey(journey_id)
    assert held is not None
    assert held.lease_until is not None
    time.sleep(max(0.0, held.lease_until - time.time()) + 0.2)
    resumed = relayer.resume(journey_id)
    assert resumed.state in ("completed", "needs_attention")
    relayer.close()


def test_the_identities_index_is_used_and_only_the_matching_journeys_are_read(
    pg_url: str, tmp_path: Path
) -> None:
    from xswap_sdk.gateway.webhooks import WebhookNotification, advance_journeys

    sqlite = SQLiteJournal(tmp_path / "j.db", key=KEY)
    pg = PostgresJournal(pg_url, key=KEY)
    for journal in (sqlite, pg):
        _fill(journal, 3_000)
    # The plans: an index lookup, never a scan of the table.
    (plan,) = sqlite._db.execute(
        "EXPLAIN QUERY PLAN SELECT journey_id FROM xswap_identities WHERE identity = ?", ("x",)
    ).fetchall()[0][3:]
    assert "USING COVERING INDEX" in plan or "USING PRIMARY KEY" in plan, plan
    with pg._pool.connection() as conn:
        conn.execute("ANALYZE xswap_identities")
        lines = conn.execute(
            "EXPLAIN SELECT journey_id FROM xswap_identities WHERE identity = %s", ("x",)
        ).fetchall()
    shown = " ".join(line[0] for line in lines)
    assert "Index" in shown, shown
    assert "Seq Scan" not in shown, shown
    # A webhook reads the journeys it names, not the journal.
    for journal in (sqlite, pg):
        read: list[str] = []
        real_journey = journal.journey

        def spy(journey_id: str, real: Any = real_journey, read: list[str] = read) -> Any:
            read.append(journey_id)
            return real(journey_id)

        journal.journey = spy  # type: ignore[method-assign]

        def scan(**kwargs: Any) -> Any:
            raise AssertionError("a webhook never scans the journal")

        journal.journeys = scan  # type: ignore[method-assign]
        notification = WebhookNotification.model_validate(_deposit_notification(1_234))
        advanced = advance_journeys(journal, notification)
        assert len(advanced) == 1
        assert read == advanced
        del journal.journey, journal.journeys
        finalized = journal.journey(advanced[0])
        assert finalized is not None
        assert finalized.steps[-1].step == "finalized"
        assert finalized.state == "completed"
    pg.close()
    sqlite.close()


def _tx_hash(n: int) -> str:
    return "0x" + f"{n:064x}"


def _fill(journal: Any, count: int) -> None:
    """``count`` deposit journeys, each with its transaction hash indexed, written in
    batches straight into the tables (as `benchmarks/webhooks_at_scale.py` does)."""
    sys.path.insert(0, str(ROOT))
    from benchmarks.webhooks_at_scale import fill

    fill(journal, count)


def _deposit_notification(n: int) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from benchmarks.webhooks_at_scale import deposit_notification

    return deposit_notification(_tx_hash(n))
