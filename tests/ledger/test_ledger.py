"""``Policy(max_per_day=..., ledger=...)``: the daily counts kept in SQLite or PostgreSQL,
shared by processes, kept across restarts, checked and reserved atomically (two
processes racing to the cap never admit more than the cap), and a URL's password never
shown."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk._ledger import PostgresLedger, SpendingLedger, SQLiteLedger
from xswap_sdk.journal import SQLiteJournal
from xswap_sdk.policy import DAY, Policy, use_policy
from xswap_sdk.signing import sign_burn_intent
from xswap_sdk.testing import TEST_SIGNER

from .. import postgres
from ..frame_locals import assert_no_secret_in_frames
from ..policy.support import BASE, Unplugged, intent, one_intent

ROOT = Path(__file__).resolve().parents[2]
CAP = 10_000_000


def refused(rule: str = "max_per_day") -> pytest.RaisesContext[errors.PolicyRefusedError]:
    return pytest.raises(errors.PolicyRefusedError, match=rf"\({rule}\)")


@pytest.fixture(params=["sqlite", "postgres"])
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """Where a ledger is: an SQLite file, or a fresh table in the module's database."""
    if request.param == "sqlite":
        return str(tmp_path / "ledger.db")
    url: str = request.getfixturevalue("postgres_url")
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS xswap_ledger")
    return url


def spent(policy: Policy) -> int:
    return policy.spent_today(TEST_SIGNER.address, "USDC")


def test_the_counts_survive_a_restart(ledger: str) -> None:
    first = Policy(max_per_day=CAP, ledger=ledger)
    with use_policy(first):
        one_intent(6_000_000)
    first.ledger.close()  # type: ignore[union-attr]
    restarted = Policy(max_per_day=CAP, ledger=ledger)
    assert spent(restarted) == 6_000_000
    with use_policy(restarted):
        with refused() as caught:
            one_intent(5_000_000)
        one_intent(4_000_000)
    assert "6000000 already signed" in caught.value.reason
    assert spent(first) == spent(restarted) == CAP


def test_what_is_not_signed_is_given_back(ledger: str) -> None:
    policy = Policy(max_per_day=CAP, ledger=ledger)
    with use_policy(policy), pytest.raises(errors.SigningError, match="failed to sign"):
        sign_burn_intent(intent(value=CAP), Unplugged())
    no = Policy(max_per_day=CAP, ledger=ledger, approve=lambda request: False)
    with use_policy(no), refused("approve"):
        one_intent(CAP)
    # A policy refusing after this one reserved: this one gives its amount back too.
    with use_policy(policy), use_policy(Policy(max_per_signature=1)), refused("max_per_signature"):
        one_intent(CAP)
    assert spent(policy) == 0
    with use_policy(policy):
        one_intent(CAP)
    assert spent(policy) == CAP


def test_the_day_rolls_in_the_ledger(ledger: str) -> None:
    policy = Policy(max_per_day=CAP, ledger=ledger)
    now = [2_000_000_000.0]
    policy.ledger.now = lambda: now[0]  # type: ignore[union-attr]
    with use_policy(policy):
        one_intent(CAP)
        now[0] += DAY - 1
        with refused():
            one_intent(1)
        now[0] += 2
        one_intent(CAP)
    assert spent(policy) == CAP


def test_amounts_beyond_64_bits_are_counted_exactly(ledger: str) -> None:
    store = Policy(max_per_day=2**200, ledger=ledger).ledger
    assert isinstance(store, SpendingLedger)
    key = (TEST_SIGNER.address.lower(), "native")
    assert store._reserve({key: 2**199}, 2**200).ids  # type: ignore[union-attr]
    assert store._reserve({key: 2**199}, 2**200).ids  # type: ignore[union-attr]
    over = store._reserve({key: 1}, 2**200)
    assert over.spent == 2**200  # type: ignore[union-attr]
    assert store._spent(key) == 2**200


def test_threads_share_the_ledger_without_going_over(ledger: str) -> None:
    policy = Policy(max_per_day=CAP, ledger=ledger)
    admitted: list[int] = []

    def work() -> None:
        with use_policy(policy):
            for _ in range(4):
                try:
                    one_intent(1_000_000)
                except errors.PolicyRefusedError:
                    continue
                admitted.append(1)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(admitted) == 10
    assert spent(policy) == CAP


def _run_workers(
    ledger: str, workers: int, value: int, count: int, *, race: bool = False
) -> list[dict[str, int]]:
    env = {**os.environ, "XSWAP_TEST_LEDGER": ledger}
    command = [sys.executable, "-m", "tests.ledger.runner", str(value), str(count), str(CAP)]
    if race:  # they begin together, once every interpreter is up
        command.append(str(time.time() + 3.0))
    processes = [
        subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(workers)
    ]
    results = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err.decode()
        results.append(json.loads(out))
    return results


def test_processes_racing_to_the_cap_never_admit_more_than_the_cap(ledger: str) -> None:
    # Four processes, each trying 6 signatures of 1 USDC, against a 10 USDC cap.
    results = _run_workers(ledger, workers=4, value=1_000_000, count=6, race=True)
    assert sum(r["admitted"] for r in results) == 10
    assert sum(r["refused"] for r in results) == 14
    assert spent(Policy(max_per_day=CAP, ledger=ledger)) == CAP


def test_a_second_process_sees_the_first_ones_spending(ledger: str) -> None:
    policy = Policy(max_per_day=CAP, ledger=ledger)
    with use_policy(policy):
        one_intent(7_000_000)
    [result] = _run_workers(ledger, workers=1, value=2_000_000, count=3)
    assert result == {"admitted": 1, "refused": 2}
    assert spent(policy) == 9_000_000


def _forked_child(policy: Policy, done: Any) -> None:
    with use_policy(policy):
        one_intent(3_000_000)
    done.put(spent(policy))


@pytest.mark.skipif(sys.platform != "linux", reason="fork is the point")
def test_a_forked_worker_opens_its_own_connection(ledger: str) -> None:
    # A policy made (and used) before a fork, as a pre-forking server does: the child
    # must not talk over the parent's connection.
    policy = Policy(max_per_day=CAP, ledger=ledger)
    with use_policy(policy):
        one_intent(1_000_000)
    context = multiprocessing.get_context("fork")
    done = context.Queue()
    child = context.Process(target=_forked_child, args=(policy, done))
    child.start()
    child.join(60)
    assert child.exitcode == 0
    assert done.get(timeout=5) == 4_000_000
    with use_policy(policy):  # the parent's connection still works
        one_intent(1_000_000)
    assert spent(policy) == 5_000_000


def test_a_journal_is_a_ledger(tmp_path: Path) -> None:
    journal = SQLiteJournal(tmp_path / "journal.db")
    policy = Policy(max_per_day=CAP, ledger=journal)
    assert isinstance(policy.ledger, SQLiteLedger)
    assert policy.ledger.path == journal.path
    with use_policy(policy):
        one_intent(CAP)
    assert journal.journeys() == []  # the journal still reads: its tables are untouched
    assert spent(Policy(max_per_day=CAP, ledger=tmp_path / "journal.db")) == CAP


def test_a_journal_can_hand_its_own_ledger(tmp_path: Path) -> None:
    handed = SQLiteLedger(tmp_path / "x.db")

    class OwnJournal:
        url = "postgresql://never:used@127.0.0.1:1/x"

        def spending_ledger(self) -> SpendingLedger:
            return handed

    assert Policy(max_per_day=CAP, ledger=OwnJournal()).ledger is handed
    assert Policy(max_per_day=CAP, ledger=handed).ledger is handed


def test_an_sqlite_ledger_is_created_owner_only(tmp_path: Path) -> None:
    Policy(max_per_day=CAP, ledger=tmp_path / "new.db")
    assert stat.S_IMODE(os.stat(tmp_path / "new.db").st_mode) == 0o600


def test_a_ledger_needs_a_cap_and_a_place(tmp_path: Path) -> None:
    with pytest.raises(errors.InvalidInputError, match=r"ledger.*max_per_day"):
        Policy(ledger=tmp_path / "x.db")
    with pytest.raises(errors.InvalidInputError, match="ledger"):
        Policy(max_per_day=1, ledger=42)  # type: ignore[arg-type]
    with pytest.raises(errors.InvalidInputError, match="cannot create the SQLite ledger"):
        Policy(max_per_day=1, ledger=tmp_path / "missing" / "dir" / "x.db")


# A URL's password, in every way it can fail.


def _unreachable_url() -> str:
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"postgresql://{postgres.USER}:{postgres.PASSWORD}@127.0.0.1:{port}/db"


def _assert_hidden(*shown: str) -> None:
    for text in shown:
        assert postgres.PASSWORD not in text


def test_an_unreachable_server_refuses_before_signing_and_never_shows_the_password(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    policy = Policy(max_per_day=CAP, ledger=_unreachable_url())  # connects on first use
    assert isinstance(policy.ledger, PostgresLedger)
    with use_policy(policy), refused() as caught:
        one_intent(1)
    assert "cannot connect to postgresql://xswap_test:***@127.0.0.1" in caught.value.reason
    assert "Connection refused" in str(caught.value)
    _assert_hidden(str(caught.value), repr(caught.value), repr(policy), repr(policy.ledger))
    _assert_hidden(*(record.getMessage() for record in caplog.records))
    assert_no_secret_in_frames(caught.value, [postgres.PASSWORD])
    with refused() as read:
        spent(policy)
    assert_no_secret_in_frames(read.value, [postgres.PASSWORD])


def test_a_wrong_password_is_refused_without_showing_either(postgres_server: Any) -> None:
    wrong = postgres_server.url.replace(postgres.PASSWORD, "Wrong-" + postgres.PASSWORD[::-1])
    policy = Policy(max_per_day=CAP, ledger=wrong)
    with use_policy(policy), refused() as caught:
        one_intent(1)
    assert "password authentication failed" in str(caught.value)
    secrets = [postgres.PASSWORD, "Wrong-" + postgres.PASSWORD[::-1]]
    assert_no_secret_in_frames(caught.value, secrets)
    assert not any(secret in repr(policy) for secret in secrets)


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://u:{postgres.PASSWORD}@127.0.0.1:notaport/db",
        f"postgresql://u@127.0.0.1/db?password={postgres.PASSWORD}&bogus_option=1",
    ],
)
def test_a_malformed_url_is_a_typed_error_without_the_password(url: str) -> None:
    with pytest.raises(errors.InvalidInputError, match="not a valid libpq URL") as caught:
        Policy(max_per_day=CAP, ledger=url)
    _assert_hidden(str(caught.value), repr(caught.value))


def test_a_password_in_the_query_is_masked_too() -> None:
    url = f"postgresql://u@127.0.0.1:5/db?password={postgres.PASSWORD}&sslmode=disable"
    policy = Policy(max_per_day=CAP, ledger=url)
    assert "password=***" in repr(policy)
    _assert_hidden(repr(policy))


def test_a_ledger_on_the_suite_server_shows_no_password(postgres_url: str) -> None:
    policy = Policy(max_per_day=CAP, ledger=postgres_url)
    with use_policy(policy):
        one_intent(1_000)
    assert spent(policy) >= 1_000
    _assert_hidden(repr(policy), repr(policy.ledger), str(policy))
    assert BASE.usdc  # the ledger counts native USDC as one token on every chain


def test_a_url_without_psycopg_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg.conninfo", None)
    with pytest.raises(errors.MissingDependencyError, match=r"\.\[postgres\]") as caught:
        Policy(max_per_day=CAP, ledger=f"postgresql://u:{postgres.PASSWORD}@127.0.0.1/db")
    _assert_hidden(str(caught.value))
