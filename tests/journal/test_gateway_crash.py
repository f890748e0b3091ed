"""Crash tests over real sockets for `GatewayClient.send_transfer`: a client process
dies (``os._exit`` in ``on_step``) at each of its steps, sync and async, against the
served sandbox (tests/journal/test_crash.py's), and is then resumed. Each transfer ends
completed (one killed before it signed runs again with ``XSWAP_PRIVATE_KEY``) or
needs_attention, and the served Gateway handled each journaled ``POST /v1/transfer`` at
most once, and none that no journal holds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from xswap_sdk.journal import SQLiteJournal
from xswap_sdk.sandbox import Sandbox
from xswap_sdk.testing import TEST_PRIVATE_KEY

from .test_crash import ROOT, sent_bodies, served  # noqa: F401

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

STEPS = 8  # started, quoted, verified, signed, submitted x2, attested, completed


@pytest.mark.parametrize("flavour", ["sync", "async"])
def test_a_send_transfer_killed_at_every_step_resumes_and_nothing_is_sent_twice(
    served: Sandbox,  # noqa: F811
    flavour: str,
    tmp_path: Path,
) -> None:
    path = "/v1/transfer"
    before = {bytes(r.body or b"") for r in served.requests.select("gateway", "POST", path)}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    env.pop("XSWAP_JOURNAL", None)
    env["XSWAP_PRIVATE_KEY"] = TEST_PRIVATE_KEY
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "journal" / "gateway_crash_runner.py"),
         served.base_url, flavour, str(STEPS), str(tmp_path)],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [line["at"] for line in lines] == list(range(STEPS))
    assert {line["exit"] for line in lines} == {17}, lines
    journaled: set[bytes] = set()
    for line in lines:
        journey = SQLiteJournal(tmp_path / f"send_transfer-{flavour}-{line['at']}.db").journey(
            line["journey_id"]
        )
        assert journey is not None
        journaled.update(sent_bodies(journey))
        assert line["state"] == "completed", line
    handled = [
        bytes(r.body or b"")
        for r in served.requests.select("gateway", "POST", path, processed=True)
        if bytes(r.body or b"") not in before and r.status is not None and r.status < 300
    ]
    assert len(handled) == len(set(handled)), "a transfer was handled twice"
    assert set(handled) <= journaled, "a transfer was sent that no journal holds"
