"""Crash tests over real sockets: a client process dies (``os._exit`` in ``on_step``)
at each step of each journey, sync and async, against the served sandbox; each journey
is then resumed. Every journey ends completed or needs_attention, and the sandbox
handled every journaled money-moving request at most once, and none that is not in a
journal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from xswap_sdk import SystemClock
from xswap_sdk.journal import Journey, SQLiteJournal
from xswap_sdk.sandbox import RelayerTimings, Sandbox
from xswap_sdk.testing import TEST_PRIVATE_KEY

from ..sandbox.test_server import serving
from .journeys import ME, MONEY_PATH

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

ROOT = Path(__file__).resolve().parents[2]
# The events of each journey run through: a child dies at each of them in turn.
STEPS = {"swap": 9, "gasless_swap": 9, "relay": 4, "relay_sync": 5, "transfer": 5}


@pytest.fixture(scope="module")
def served() -> Iterator[Sandbox]:
    """The sandbox served on a free port, on the real clock, with short timings."""
    with serving(SystemClock()) as sandbox:
        sandbox.flash.completion_delay = 0.3
        sandbox.relayer.timings = RelayerTimings(pickup=0.05, execution=0.1)
        sandbox.fund(ME, 8453, 1_000_000_000)
        yield sandbox


@pytest.mark.parametrize("flavour", ["sync", "async"])
@pytest.mark.parametrize("journey", list(STEPS))
def test_killed_at_every_step_a_journey_resumes_and_nothing_is_sent_twice(
    served: Sandbox, journey: str, flavour: str, tmp_path: Path
) -> None:
    service, path = MONEY_PATH[journey]
    before = {bytes(r.body or b"") for r in served.requests.select(service, "POST", path)}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    env.pop("XSWAP_JOURNAL", None)
    # A gasless swap killed before it signed is run again with this signer.
    env["XSWAP_PRIVATE_KEY"] = TEST_PRIVATE_KEY
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "journal" / "crash_runner.py"),
         served.base_url, journey, flavour, str(STEPS[journey]), str(tmp_path)],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [line["at"] for line in lines] == list(range(STEPS[journey]))
    # Every child died where it was told to (the last step, "completed", included).
    assert {line["exit"] for line in lines} == {17}, lines
    journaled: set[bytes] = set()
    for line in lines:
        journey_record = SQLiteJournal(tmp_path / f"{journey}-{flavour}-{line['at']}.db").journey(
            line["journey_id"]
        )
        assert journey_record is not None
        journaled.update(sent_bodies(journey_record))
        assert line["state"] in ("completed", "needs_attention"), line
    handled = [
        bytes(r.body or b"")
        for r in served.requests.select(service, "POST", path, processed=True)
        if bytes(r.body or b"") not in before and r.status is not None and r.status < 300
    ]
    assert len(handled) == len(set(handled)), "a money-moving request was handled twice"
    assert set(handled) <= journaled, "a request was sent that no journal holds"


def sent_bodies(journey: Journey) -> set[bytes]:
    """The exact bodies of the money requests a journey wrote before sending them."""
    return {
        json.dumps(step.data["body"], separators=(",", ":")).encode()
        for step in journey.steps
        if step.step == "submitted" and step.status == "sending" and "body" in step.data
    }


class Crash(BaseException):
    """Stands for the process dying."""


def test_xswap_journeys_lists_and_xswap_resume_finishes(
    served: Sandbox,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from xswap_sdk import RelayerClient
    from xswap_sdk._cli import main

    path = tmp_path / "j.db"
    monkeypatch.setenv("XSWAP_RELAYER_URL", served.relayer_url)
    monkeypatch.setenv("XSWAP_RELAYER_API_KEY", served.relayer.api_key)
    ids = []
    for stop in ("started", "sending"):

        def crash(event: object, stop: str = stop) -> None:
            if stop in (getattr(event, "step", ""), getattr(event, "status", "")):
                raise Crash

        with RelayerClient(journal=path, on_step=crash) as relayer, pytest.raises(Crash):
            relayer.relay(chain_id=8453, to="0x" + "11" * 20, call_data="0x", label=stop)
        ids.append(SQLiteJournal(path).journeys()[-1].id)
    assert main(["journeys", "--journal", str(path), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["journeys"]
    assert [(j["id"], j["kind"], j["state"]) for j in listed] == [
        (ids[0], "relay", "running"),
        (ids[1], "relay", "running"),
    ]
    # One is sent (it never left), one may have arrived: exit 4, needs attention.
    assert main(["resume", "--all", "--journal", str(path), "--json"]) == 4
    resumed = json.loads(capsys.readouterr().out)["resumed"]
    assert [(r["id"], r["state"]) for r in resumed] == [
        (ids[0], "completed"),
        (ids[1], "needs_attention"),
    ]
    # Nothing is left running: a second --all resumes nothing.
    assert main(["resume", "--all", "--journal", str(path)]) == 0
    assert "nothing to resume" in capsys.readouterr().out
    assert main(["resume", ids[0], "--journal", str(path)]) == 0
    capsys.readouterr()
    # The id as a progress line prints it (its first 8 characters) is enough.
    assert main(["resume", ids[0][:8], "--journal", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["resumed"][0]["id"] == ids[0]
    assert main(["resume", ids[0][:5], "--journal", str(path)]) == 2  # too short
    monkeypatch.delenv("XSWAP_JOURNAL", raising=False)
    assert main(["journeys"]) == 2  # no journal named: a usage error
