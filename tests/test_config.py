"""Configuration: arguments, then environment, then defaults; nothing read at import."""

from __future__ import annotations

import httpx
import pytest

from xswap_sdk import RelayerClient, errors
from xswap_sdk._options import DEFAULT_TIMEOUT

from .support import run_python


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XSWAP_RELAYER_URL", raising=False)
    monkeypatch.delenv("XSWAP_RELAYER_API_KEY", raising=False)
    client = RelayerClient()
    assert client.base_url == "https://tachyon.rath.fi"
    assert client.timeout == DEFAULT_TIMEOUT
    assert client.timeout.connect == 5.0
    assert client.timeout.read == 30.0
    assert client.max_retries == 2
    assert client._options.api_key is None


def test_environment_is_read_when_the_client_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XSWAP_RELAYER_URL", "https://relay.example/")
    monkeypatch.setenv("XSWAP_RELAYER_API_KEY", "env-key-123")
    client = RelayerClient()
    assert client.base_url == "https://relay.example"
    assert client._options.api_key is not None
    assert client._options.api_key.get_secret_value() == "env-key-123"


def test_arguments_beat_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XSWAP_RELAYER_URL", "https://relay.example")
    monkeypatch.setenv("XSWAP_RELAYER_API_KEY", "env-key-123")
    client = RelayerClient(api_key="arg-key-456", base_url="http://localhost:8787")
    assert client.base_url == "http://localhost:8787"
    assert client._options.api_key is not None
    assert client._options.api_key.get_secret_value() == "arg-key-456"


@pytest.mark.parametrize(
    ("kwargs", "argument"),
    [
        ({"base_url": "ftp://host"}, "base_url"),
        ({"base_url": "relayer.example"}, "base_url"),
        ({"base_url": "https://host/?key=1"}, "base_url"),
        ({"api_key": "   "}, "api_key"),
        ({"api_key": 12345}, "api_key"),
        ({"max_retries": -1}, "max_retries"),
        ({"max_retries": 1.5}, "max_retries"),
        ({"timeout": -3}, "timeout"),
        ({"timeout": "30"}, "timeout"),
        ({"headers": {"X-A": 1}}, "headers"),
    ],
)
def test_bad_settings_are_refused(kwargs: dict[str, object], argument: str) -> None:
    with pytest.raises(errors.InvalidInputError) as info:
        RelayerClient(**kwargs)  # type: ignore[arg-type]
    assert info.value.argument == argument


def test_with_options_validates_and_keeps_the_original() -> None:
    client = RelayerClient(api_key="k" * 8, base_url="https://a.test")
    copy = client.with_options(base_url="https://b.test", timeout=httpx.Timeout(3))
    assert (client.base_url, copy.base_url) == ("https://a.test", "https://b.test")
    assert copy.timeout.read == 3
    with pytest.raises(errors.InvalidInputError):
        client.with_options(max_retries=-5)


def test_import_reads_no_environment_starts_no_thread_and_skips_heavy_packages() -> None:
    result = run_python(
        """
        import os, sys, threading

        reads = []

        class Spy(type(os.environ)):
            def __getitem__(self, key):
                reads.append(key)
                return super().__getitem__(key)

        spy = Spy(os.environ._data, os.environ.encodekey, os.environ.decodekey,
                  os.environ.encodevalue, os.environ.decodevalue)
        os.environ = spy
        threads = threading.active_count()
        import importlib
        import xswap_sdk
        # Every public name of every package, since each loads on first use.
        for name in ("", ".relayer", ".routing", ".flash", ".gateway", ".signing"):
            package = importlib.import_module("xswap_sdk" + name)
            for public in package.__all__:
                getattr(package, public)
        assert threading.active_count() == threads, "import started a thread"
        # Heavy packages wait for the features that need them (about 0.5 s saved).
        for heavy in ("web3", "eth_account", "eth_abi"):
            assert heavy not in sys.modules, f"import pulled in {heavy}"
        ours = [key for key in reads if key.startswith("XSWAP")]
        assert not ours, ours
        print("ok")
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_xswap_log_opts_in_to_a_stderr_handler() -> None:
    code = """
        import logging
        from xswap_sdk import RelayerClient
        logger = logging.getLogger("xswap_sdk")
        assert logger.handlers == [], "no handler before a client exists"
        RelayerClient(api_key="k" * 8)
        RelayerClient(api_key="k" * 8)
        print(len(logger.handlers), logging.getLevelName(logger.level))
        """
    assert run_python(code, XSWAP_LOG="debug").stdout.split() == ["1", "DEBUG"]
    assert run_python(code, XSWAP_LOG="info").stdout.split() == ["1", "INFO"]
    assert run_python(code).stdout.split() == ["0", "NOTSET"]


def test_with_options_refuses_an_api_key_on_a_keyless_client() -> None:
    from xswap_sdk import FlashClient

    with pytest.raises(errors.InvalidInputError) as info:
        FlashClient().with_options(api_key="k" * 8)
    assert info.value.argument == "api_key"
