"""``with_options(journal=, on_step=, progress=)``: a copy that writes its journeys to
another journal and reports its steps elsewhere, over the same connection pool, checked
as the constructor checks. Sync and async, on the relayer and Gateway clients."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from xswap_sdk import errors
from xswap_sdk.journal import SQLiteJournal, StepEvent
from xswap_sdk.sandbox import Sandbox

from ..support import resolve
from .journeys import fund, start

TO = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"


@pytest.fixture
def sb() -> Any:
    with Sandbox() as sandbox:
        fund(sandbox)
        yield sandbox


@pytest.fixture(params=["relay", "transfer"])
def journey(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _client(sb: Sandbox, journey: str, kind: str, **kwargs: Any) -> Any:
    service = "relayer" if journey == "relay" else "gateway"
    prefix = "async_" if kind == "async" else ""
    return getattr(sb, f"{prefix}{service}_client")(**kwargs)


def _kinds(path: Path) -> list[str]:
    return [j.kind for j in SQLiteJournal(path).journeys()]


async def test_a_copy_writes_to_its_own_journal_over_the_same_pool(
    sb: Sandbox, kind: str, journey: str, tmp_path: Path
) -> None:
    original = _client(sb, journey, kind, journal=tmp_path / "a.db")
    copy = original.with_options(journal=tmp_path / "b.db")
    assert copy._transport.pool is original._transport.pool
    assert isinstance(copy.journal, SQLiteJournal)
    assert copy.journal.path == tmp_path / "b.db"
    first = await resolve(start(journey, copy, tag="copy"))
    assert _kinds(tmp_path / "b.db") == [journey]
    assert _kinds(tmp_path / "a.db") == []
    assert first.journey_id == SQLiteJournal(tmp_path / "b.db").journeys()[0].id
    await resolve(start(journey, original, tag="original"))
    assert _kinds(tmp_path / "a.db") == [journey]
    # journal=None: the copy writes nothing (XSWAP_JOURNAL is not read again).
    silent = original.with_options(journal=None)
    assert silent.journal is None
    result = await resolve(start(journey, silent, tag="silent"))
    assert result.journey_id is None
    assert len(_kinds(tmp_path / "a.db")) == 1


async def test_a_copy_reports_its_steps_to_its_own_hook(
    sb: Sandbox, kind: str, journey: str, capsys: pytest.CaptureFixture[str]
) -> None:
    mine: list[StepEvent] = []
    theirs: list[StepEvent] = []
    original = _client(sb, journey, kind, on_step=mine.append)
    copy = original.with_options(on_step=theirs.append)
    await resolve(start(journey, copy, tag="copy"))
    assert next(e.step for e in theirs) == "started"
    assert theirs[-1].step == "completed"
    assert mine == []
    await resolve(start(journey, original, tag="original"))
    assert mine
    assert mine[-1].step == "completed"
    # progress=True adds the display and keeps the hook; on_step=None drops the hook.
    shown = copy.with_options(progress=True)
    count = len(theirs)
    await resolve(start(journey, shown, tag="shown"))
    err = capsys.readouterr().err
    assert f"[{journey} -] started" in err
    assert f"[{journey} -] completed" in err
    assert len(theirs) > count
    quiet = shown.with_options(on_step=None)
    count = len(theirs)
    await resolve(start(journey, quiet, tag="quiet"))
    assert len(theirs) == count
    assert f"[{journey} -] completed" in capsys.readouterr().err
    off = quiet.with_options(progress=False)
    await resolve(start(journey, off, tag="off"))
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("option", "value"),
    [("journal", 42), ("journal", ""), ("on_step", "print"), ("progress", "yes")],
)
def test_with_options_checks_as_the_constructor_does(
    sb: Sandbox, kind: str, journey: str, option: str, value: Any
) -> None:
    client = _client(sb, journey, kind)
    with pytest.raises(errors.InvalidInputError) as raised:
        client.with_options(**{option: value})
    assert raised.value.argument == option
    with pytest.raises(errors.InvalidInputError) as built:
        _client(sb, journey, kind, **{option: value})
    assert built.value.argument == option


def test_a_blocking_copy_refuses_an_async_hook(sb: Sandbox, journey: str) -> None:
    async def hook(event: StepEvent) -> None:
        return None

    with pytest.raises(errors.InvalidInputError, match="async function"):
        _client(sb, journey, "sync").with_options(on_step=hook)
    # The async client awaits it.
    assert _client(sb, journey, "async").with_options(on_step=hook) is not None
