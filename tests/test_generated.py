"""The blocking modules are generated from their async sources and up to date."""

from __future__ import annotations

import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _unasync() -> ModuleType:
    spec = importlib.util.spec_from_file_location("unasync", ROOT / "scripts" / "unasync.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["unasync"] = module
    spec.loader.exec_module(module)
    return module


unasync = _unasync()


@pytest.mark.parametrize(("source", "target"), unasync.PAIRS)
def test_the_generated_module_matches_its_source(source: str, target: str) -> None:
    on_disk = (unasync.PACKAGE / target).read_text()
    assert on_disk.splitlines()[0] == unasync.header(source).strip()
    assert on_disk == unasync.generate(source, target), (
        f"{target} is stale: run python scripts/unasync.py"
    )


def test_check_mode_fails_on_a_stale_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = unasync.PAIRS[0]
    package = tmp_path / "xswap_sdk"
    (package / target).parent.mkdir(parents=True, exist_ok=True)
    (package / source).write_text((unasync.PACKAGE / source).read_text())
    (package / target).write_text((unasync.PACKAGE / target).read_text() + "# edited by hand\n")
    monkeypatch.setattr(unasync, "PACKAGE", package)
    monkeypatch.setattr(unasync, "PAIRS", [(source, target)])
    _keep_only_the_rules_that_fire(monkeypatch, (package / source).read_text())
    assert unasync.main(["--check"]) == 1
    assert "stale generated file" in capsys.readouterr().err
    assert unasync.main([]) == 0
    assert unasync.main(["--check"]) == 0


def _keep_only_the_rules_that_fire(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    # One source exercises only some rules; the others would be reported stale.
    fired: Counter[str] = Counter()
    unasync.unasync_text(text, fired)
    rules = [rule for rule in unasync._COMPILED if fired[rule[0].pattern]]
    monkeypatch.setattr(unasync, "_COMPILED", rules)


def test_every_rule_fires_over_the_sources() -> None:
    fired: Counter[str] = Counter()
    for source, _ in unasync.PAIRS:
        unasync.unasync_text((unasync.PACKAGE / source).read_text(), fired)
    assert unasync.stale_rules(fired) == []


@pytest.mark.parametrize("mode", [["--check"], []])
def test_a_rule_that_never_fires_fails_the_run(
    mode: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source, target = unasync.PAIRS[0]
    package = tmp_path / "xswap_sdk"
    (package / target).parent.mkdir(parents=True, exist_ok=True)
    (package / source).write_text((unasync.PACKAGE / source).read_text())
    (package / target).write_text((unasync.PACKAGE / target).read_text())
    monkeypatch.setattr(unasync, "PACKAGE", package)
    monkeypatch.setattr(unasync, "PAIRS", [(source, target)])
    _keep_only_the_rules_that_fire(monkeypatch, (package / source).read_text())
    assert unasync.main([]) == 0  # outside the project ruff formats with its defaults
    assert unasync.main(mode) == 0
    never = re.compile(r"\bAsyncNoSuchName\b")
    monkeypatch.setattr(unasync, "_COMPILED", [*unasync._COMPILED, (never, "NoSuchName")])
    assert unasync.main(mode) == 1
    err = capsys.readouterr().err
    assert "stale rule" in err
    assert "AsyncNoSuchName" in err
    assert "SUBSTITUTIONS" in err


def test_the_formatter_is_the_pinned_ruff(monkeypatch: pytest.MonkeyPatch) -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", unasync.pinned_ruff())
    assert unasync.installed_ruff() == unasync.pinned_ruff()
    monkeypatch.setattr(unasync, "installed_ruff", lambda: "0.0.1")
    unasync.check_ruff_pin.cache_clear()
    try:
        with pytest.raises(SystemExit, match=r"found 0\.0\.1: pip install 'ruff=="):
            unasync.check_ruff_pin()
    finally:
        unasync.check_ruff_pin.cache_clear()


def test_the_rewrite_turns_async_into_blocking_code() -> None:
    text = unasync.unasync_text(
        "async def get(self) -> AsyncIterator[AsyncRelayerClient]:\n"
        "    async with self._session.async_lock():\n"
        "        await self.clock.asleep(1)\n"
        "    async for item in self._transport.iterate(walk):\n"
        "        yield await async_prepare_deposit_with_permit(web3)\n"
        "from ._async_transport import AsyncTransport\n"
    )
    assert text == (
        "def get(self) -> Iterator[RelayerClient]:\n"
        "    with self._session.lock():\n"
        "        self.clock.sleep(1)\n"
        "    for item in self._transport.iterate(walk):\n"
        "        yield prepare_deposit_with_permit(web3)\n"
        "from ._sync_transport import SyncTransport\n"
    )


@pytest.mark.parametrize(
    ("source", "blocking"),
    [
        ("must be an AsyncGatewayClient or None", "must be a GatewayClient or None"),
        ("An AsyncAPIClient holds", "A SyncAPIClient holds"),
        ("an AsyncWeb3[Any] instance", "a Web3 instance"),
        ("an AsyncIterator of pages", "an Iterator of pages"),
        ("an AsyncOrder", "an Order"),
        ("An async client waits", "A blocking client waits"),
        ("with an async client", "with a blocking client"),
    ],
)
def test_the_article_agrees_with_the_blocking_name(source: str, blocking: str) -> None:
    assert unasync.unasync_text(source) == blocking
