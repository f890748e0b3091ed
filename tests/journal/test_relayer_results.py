"""Every money-moving relayer call is a ``relay`` journey whose result says which one:
``relay`` returns a `RelayedTxId` (a ``str`` with ``journey_id``), ``submit_tx`` and
``relay_signed_tx`` a ``SubmitTxResult`` whose ``journey_id`` is set, and a journey of
each is resumed like any ``relay`` journey. Sync and async."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from xswap_sdk.journal import SQLiteJournal
from xswap_sdk.relayer import RelayedTxId, SubmitTxResult
from xswap_sdk.sandbox import Sandbox

from ..support import resolve
from ..test_x402 import SENDER, signed

TO = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"


@pytest.fixture
def sb() -> Any:
    with Sandbox() as sandbox:
        yield sandbox


def _relayer(sb: Sandbox, kind: str, **kwargs: Any) -> Any:
    return sb.relayer_client(**kwargs) if kind == "sync" else sb.async_relayer_client(**kwargs)


async def test_relay_returns_a_str_that_names_its_journey(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    relayer = _relayer(sb, kind, journal=tmp_path / "j.db")
    tx_id = await resolve(relayer.relay(chain_id=8453, to=TO, call_data="0x"))
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert isinstance(tx_id, str)
    assert isinstance(tx_id, RelayedTxId)
    assert (journey.kind, journey.state, tx_id.journey_id) == ("relay", "completed", journey.id)
    # Still the bare id wherever a str goes: equality, hashing, JSON, the status call.
    [answered] = [r for r in journey.rows if (r.step, r.status) == ("submitted", "ok")]
    assert tx_id == json.loads(answered.body or b"{}")["data"]["txId"]
    assert {tx_id: 1}[str(tx_id)] == 1
    assert json.loads(json.dumps({"id": tx_id})) == {"id": str(tx_id)}
    record = await resolve(relayer.get_relay_status(tx_id))
    assert record.id == tx_id
    copied = pickle.loads(pickle.dumps(tx_id))
    assert (copied, copied.journey_id) == (tx_id, journey.id)


async def test_relay_without_a_journal_has_no_journey_id(sb: Sandbox, kind: str) -> None:
    tx_id = await resolve(_relayer(sb, kind).relay(chain_id=8453, to=TO, call_data="0x"))
    assert isinstance(tx_id, RelayedTxId)
    assert tx_id.journey_id is None
    assert RelayedTxId("abc").journey_id is None


async def test_submit_tx_is_a_relay_journey(sb: Sandbox, kind: str, tmp_path: Path) -> None:
    relayer = _relayer(sb, kind, journal=tmp_path / "j.db")
    result = await resolve(relayer.submit_tx(chain_id=8453, to=TO, call_data="0x", label="s"))
    [journey] = SQLiteJournal(tmp_path / "j.db").journeys()
    assert isinstance(result, SubmitTxResult)
    assert (journey.kind, journey.state, result.journey_id) == ("relay", "completed", journey.id)
    sending = journey.last("submitted", "sending")
    assert sending is not None
    assert sending.data["path"] == "/api/submit-tx"
    assert sending.data["body"]["label"] == "s"
    # Its record is still checked against what was submitted (the client remembers it).
    record = await resolve(relayer.wait_for_execution_hash(result.tx_id))
    assert record.status == "EXECUTED"


async def test_relay_signed_tx_is_a_relay_journey_and_resumes(
    sb: Sandbox, kind: str, tmp_path: Path
) -> None:
    path = tmp_path / "j.db"
    arguments = {
        "signed_tx": signed(),
        "min_balance_required": 60_000 * 10**9,
        "from_address": SENDER.address,
        "chain_id": 8453,
    }
    result = await resolve(_relayer(sb, kind, journal=path).relay_signed_tx(**arguments))
    [journey] = SQLiteJournal(path).journeys()
    assert (journey.kind, journey.state, result.journey_id) == ("relay", "completed", journey.id)
    assert journey.arguments["request"]["from_address"] == SENDER.address
    assert journey.arguments["request"]["signed_tx"] == signed()

    # Stopped once written "sending" and before it left: resume sends the same body,
    # byte for byte, to the same endpoint (a signed transaction is mined once at most).
    class Crash(BaseException):
        pass

    def crash(event: Any) -> None:
        if event.status == "sending":
            raise Crash

    before = len(sb.requests.select("relayer", "POST", "/api/submit-signed-tx"))
    with pytest.raises(Crash):
        await resolve(_relayer(sb, kind, journal=path, on_step=crash).relay_signed_tx(**arguments))
    stopped = SQLiteJournal(path).journeys()[-1].id
    assert len(sb.requests.select("relayer", "POST", "/api/submit-signed-tx")) == before
    resumed = await resolve(_relayer(sb, kind, journal=path).resume(stopped))
    sent = sb.requests.select("relayer", "POST", "/api/submit-signed-tx")
    assert len(sent) == before + 1
    assert json.loads(sent[-1].body)["signedTx"] == signed()
    assert resumed.state == "completed"
    assert resumed.result.journey_id == stopped
